/* The text cases' builder (families.h): exact dyadic values m * 2^e chosen
 * from the target's formats, written as C99 hex floats, and cases assembled
 * with their reference and alternative outcomes. A value that the formats
 * cannot hold marks the case bad, and it is dropped rather than bent. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"

/* ---- Exact values -------------------------------------------------------------- */

static int bitlen(unsigned long long m)
{
    int n = 0;
    while (m) {
        n++;
        m >>= 1;
    }
    return n;
}

void tc_gen_hex(long long m, int e, char *buf, size_t len)
{
    if (m == 0) {
        snprintf(buf, len, "0");
        return;
    }
    unsigned long long mm = m < 0 ? 0ull - (unsigned long long)m : (unsigned long long)m;
    int top = bitlen(mm) - 1;
    unsigned long long frac = mm - (1ull << top);
    const char *sign = m < 0 ? "-" : "";
    if (frac == 0) {
        snprintf(buf, len, "%s0x1p%+d", sign, e + top);
        return;
    }
    int nd = (top + 3) / 4;
    frac <<= 4 * nd - top;
    while ((frac & 0xF) == 0) {
        frac >>= 4;
        nd--;
    }
    snprintf(buf, len, "%s0x1.%0*llxp%+d", sign, nd, frac, e + top);
}

/* Is m * 2^e exactly a value of f (a normal one when normal_only)? */
bool fam_fits(const tc_format *f, long long m, int e, bool normal_only)
{
    if (m == 0)
        return true;
    unsigned long long mm = m < 0 ? 0ull - (unsigned long long)m : (unsigned long long)m;
    tc_value v = {.cls = TC_FINITE, .sign = m < 0, .exp = e, .sig = mm};
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    uint64_t bits = tc_encode(f, v, false, r);
    tc_value back = tc_decode(f, bits, false);
    if (back.cls != TC_FINITE || back.sign != v.sign || tc_value_cmp(back, v) != 0)
        return false;
    return !normal_only || e + bitlen(mm) - 1 >= tc_format_emin(f);
}

fam_facts fam_facts_of(const tc_gen_target *t)
{
    fam_facts x;
    x.pa = tc_format_precision(t->a);
    x.pb = tc_format_precision(t->b);
    x.pc = tc_format_precision(t->c);
    x.pd = tc_format_precision(t->d);
    x.emin_d = tc_format_emin(t->d);
    x.emax_d = tc_format_emax(t->d);
    x.emin_c = tc_format_emin(t->c);
    x.emax_c = tc_format_emax(t->c);
    x.pmin = tc_format_emin(t->a) + tc_format_emin(t->b);
    x.pmax = tc_format_emax(t->a) + tc_format_emax(t->b);
    x.k = t->k;
    return x;
}

/* ---- Building cases -------------------------------------------------------------- */

char *fam_dup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        abort();
    return d;
}

static void *grow(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

void fb_init(fam_builder *b, const tc_gen_target *t, const char *name, const char *feature, int level,
             const char *probes, ...)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    char buf[512];
    snprintf(buf, sizeof buf, "%s.%s", t->prefix, name);
    b->c.name = fam_dup(buf);
    b->c.instr = fam_dup(t->instr);
    va_list ap;
    va_start(ap, probes);
    vsnprintf(buf, sizeof buf, probes, ap);
    va_end(ap);
    b->c.probes = fam_dup(buf);
    b->c.feature = feature ? fam_dup(feature) : NULL;
    b->c.level = level;
}

void fb_pair_text(fam_builder *b, const char *a, const char *bb)
{
    if (b->c.na >= b->t->k) {
        b->bad = true;
        return;
    }
    b->c.a = grow(b->c.a, sizeof *b->c.a * (size_t)(b->c.na + 1));
    b->c.b = grow(b->c.b, sizeof *b->c.b * (size_t)(b->c.nb + 1));
    b->c.a[b->c.na++] = fam_dup(a);
    b->c.b[b->c.nb++] = fam_dup(bb);
}

/* Appends a term whose product is m * 2^e: the significand goes on one side,
 * a power of two on the other, both normal where possible. */
void fb_prod(fam_builder *b, long long m, int e)
{
    const tc_format *fa = b->t->a, *fb = b->t->b;
    char ta[64], tb[64];
    if (m == 0) {
        fb_pair_text(b, "0", "0");
        return;
    }
    unsigned long long mm = m < 0 ? 0ull - (unsigned long long)m : (unsigned long long)m;
    int bl = bitlen(mm);
    /* ea: exponent of a's last significand bit, starting where a and b get
     * about half of the product's exponent each. */
    int centre = (e + bl - 1) / 2 - (bl - 1);
    for (int normal = 1; normal >= 0; normal--)
        for (int d = 0; d < 2400; d++)
            for (int sgn = 0; sgn < 2; sgn++) {
                int ea = centre + (sgn ? -d : d);
                if (fam_fits(fa, m, ea, normal) && fam_fits(fb, 1, e - ea, normal)) {
                    tc_gen_hex(m, ea, ta, sizeof ta);
                    tc_gen_hex(1, e - ea, tb, sizeof tb);
                    fb_pair_text(b, ta, tb);
                    return;
                }
                if (fam_fits(fb, m, ea, normal) && fam_fits(fa, 1, e - ea, normal)) {
                    tc_gen_hex(1, e - ea, ta, sizeof ta);
                    tc_gen_hex(m, ea, tb, sizeof tb);
                    fb_pair_text(b, ta, tb);
                    return;
                }
            }
    b->bad = true;
}

void fb_c(fam_builder *b, long long m, int e)
{
    char v[64];
    if (!fam_fits(b->t->c, m, e, false)) {
        b->bad = true;
        return;
    }
    tc_gen_hex(m, e, v, sizeof v);
    free(b->c.c);
    b->c.c = fam_dup(v);
}

void fb_c_text(fam_builder *b, const char *v)
{
    free(b->c.c);
    b->c.c = fam_dup(v);
}

static void push_outcome(tc_outcome **list, size_t *n, tc_outcome o)
{
    *list = grow(*list, sizeof **list * (*n + 1));
    (*list)[(*n)++] = o;
}

void fb_expect(fam_builder *b, tc_outcome_kind kind)
{
    tc_outcome o = {.kind = kind, .mode = TC_RNE, .reference = true};
    push_outcome(&b->c.expect, &b->c.nexpect, o);
}

void fb_alt_exact(fam_builder *b, tc_round mode, const char *label)
{
    tc_outcome o = {.kind = TC_OUT_EXACT, .mode = mode, .label = fam_dup(label)};
    push_outcome(&b->c.alt, &b->c.nalt, o);
}

void fb_alt_text(fam_builder *b, const char *value, const char *label)
{
    tc_outcome o = {.kind = TC_OUT_VALUE, .value = fam_dup(value), .label = fam_dup(label)};
    if (!strcmp(value, "nan")) {
        o.kind = TC_OUT_NAN;
        free(o.value);
        o.value = NULL;
    }
    push_outcome(&b->c.alt, &b->c.nalt, o);
}

/* An alternative D = m * 2^e; left out when D's format cannot hold it (that
 * outcome is then impossible, not a different one). */
void fb_alt_value(fam_builder *b, long long m, int e, const char *label)
{
    char v[64];
    if (!fam_fits(b->t->d, m, e, false))
        return;
    tc_gen_hex(m, e, v, sizeof v);
    fb_alt_text(b, v, label);
}

int fb_push(fam_builder *b, tc_casefile *out)
{
    if (b->bad || b->c.na == 0) {
        tc_case_clear(&b->c);
        return 0;
    }
    if (!out->path)
        out->path = fam_dup("(generated)");
    out->cases = grow(out->cases, sizeof *out->cases * (out->n + 1));
    b->c.file = out->path;
    b->c.line = 0;
    out->cases[out->n++] = b->c;
    memset(&b->c, 0, sizeof b->c);
    return 1;
}

/* Exponents of the big term M and the small one s for block and cplace:
 * as far apart as the formats allow. */
bool fam_big_small(const tc_gen_target *t, int *em, int *es)
{
    fam_facts x = fam_facts_of(t);
    *em = fam_imin(x.pmax, x.emax_d - 1);
    *es = fam_imax(x.pmin, x.emin_d);
    *em = fam_imin(*em, x.emax_c - 1);
    return *em - *es > x.pd + 2;
}

/* A reproducible dot product with heavy cancellation: the second half
 * nearly undoes the first (last significand bit changed). */
void fam_random_terms(fam_builder *b, unsigned seed)
{
    const tc_gen_target *t = b->t;
    fam_facts x = fam_facts_of(t);
    uint64_t s = 0x2545F4914F6CDD1Dull ^ seed;
    int half = x.k / 2;
    long long ma[TC_CASE_MAX_K];
    int ea[TC_CASE_MAX_K];
    int pa = fam_imin(x.pa, 40);
    for (int i = 0; i < x.k; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        if (i < half || i >= 2 * half) {
            ma[i] = (long long)((1ull << (pa - 1)) | ((s >> 20) & ((1ull << (pa - 1)) - 1)));
            if ((s >> 63) & 1)
                ma[i] = -ma[i];
            ea[i] = (int)((s >> 8) % 7) - 3 - (pa - 1);
        } else {
            ma[i] = -ma[i - half];
            if (((s >> 40) & 3) == 0)
                ma[i] += ma[i] > 0 ? -1 : 1; /* a last-bit difference: cancellation leaves a little */
            ea[i] = ea[i - half];
        }
        char ta[64], tb[64];
        long long mb = (long long)(((s >> 30) & 3) + 1);  /* 1..4: short B significands */
        tc_gen_hex(ma[i], ea[i], ta, sizeof ta);
        tc_gen_hex(mb, -1, tb, sizeof tb);
        if (!fam_fits(t->a, ma[i], ea[i], true) || !fam_fits(t->b, mb, -1, true))
            b->bad = true;
        fb_pair_text(b, ta, tb);
    }
}
