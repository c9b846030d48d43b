/* Generators of parametrized case families (see gen.h).
 *
 * Every value is an exact dyadic m * 2^e chosen from the target's formats:
 * precision p, smallest/largest normal exponents, and the range of products
 * that two normal inputs can make. The yardstick is the exact oracle's
 * ("reference = exact rne": a departure is a finding about the hardware,
 * not a failed expectation of the user's); alternatives are computed here by plain integer
 * arithmetic from a stated model of the hardware, so a case reports which
 * model the hardware's answer fits.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gen.h"

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
static bool fits(const tc_format *f, long long m, int e, bool normal_only)
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

/* Format facts a family needs. */
typedef struct {
    int pa, pb, pc, pd;
    int emin_d, emax_d, emin_c, emax_c;
    int pmin, pmax;     /* exponents of power-of-two products of normal inputs */
    int k;
} facts;

static facts facts_of(const tc_gen_target *t)
{
    facts x;
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

static int imin(int a, int b)
{
    return a < b ? a : b;
}

static int imax(int a, int b)
{
    return a > b ? a : b;
}

/* ---- Building cases -------------------------------------------------------------- */

typedef struct {
    tc_case c;
    bool bad;      /* some value does not exist in the formats: drop the case */
    const tc_gen_target *t;
} builder;

static char *dupstr(const char *s)
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

static void b_init(builder *b, const tc_gen_target *t, const char *name, const char *feature,
                   int level, const char *probes, ...) __attribute__((format(printf, 6, 7)));
static void b_init(builder *b, const tc_gen_target *t, const char *name, const char *feature,
                   int level, const char *probes, ...)
{
    memset(b, 0, sizeof *b);
    b->t = t;
    char buf[512];
    snprintf(buf, sizeof buf, "%s.%s", t->prefix, name);
    b->c.name = dupstr(buf);
    b->c.instr = dupstr(t->instr);
    va_list ap;
    va_start(ap, probes);
    vsnprintf(buf, sizeof buf, probes, ap);
    va_end(ap);
    b->c.probes = dupstr(buf);
    b->c.feature = feature ? dupstr(feature) : NULL;
    b->c.level = level;
}

static void b_pair_text(builder *b, const char *a, const char *bb)
{
    if (b->c.na >= b->t->k) {
        b->bad = true;
        return;
    }
    b->c.a = grow(b->c.a, sizeof *b->c.a * (size_t)(b->c.na + 1));
    b->c.b = grow(b->c.b, sizeof *b->c.b * (size_t)(b->c.nb + 1));
    b->c.a[b->c.na++] = dupstr(a);
    b->c.b[b->c.nb++] = dupstr(bb);
}

/* Appends a term whose product is m * 2^e: the significand goes on one side,
 * a power of two on the other, both normal where possible. */
static void b_prod(builder *b, long long m, int e)
{
    const tc_format *fa = b->t->a, *fb = b->t->b;
    char ta[64], tb[64];
    if (m == 0) {
        b_pair_text(b, "0", "0");
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
                if (fits(fa, m, ea, normal) && fits(fb, 1, e - ea, normal)) {
                    tc_gen_hex(m, ea, ta, sizeof ta);
                    tc_gen_hex(1, e - ea, tb, sizeof tb);
                    b_pair_text(b, ta, tb);
                    return;
                }
                if (fits(fb, m, ea, normal) && fits(fa, 1, e - ea, normal)) {
                    tc_gen_hex(1, e - ea, ta, sizeof ta);
                    tc_gen_hex(m, ea, tb, sizeof tb);
                    b_pair_text(b, ta, tb);
                    return;
                }
            }
    b->bad = true;
}

static void b_c(builder *b, long long m, int e)
{
    char v[64];
    if (!fits(b->t->c, m, e, false)) {
        b->bad = true;
        return;
    }
    tc_gen_hex(m, e, v, sizeof v);
    free(b->c.c);
    b->c.c = dupstr(v);
}

static void b_c_text(builder *b, const char *v)
{
    free(b->c.c);
    b->c.c = dupstr(v);
}

static void push_outcome(tc_outcome **list, size_t *n, tc_outcome o)
{
    *list = grow(*list, sizeof **list * (*n + 1));
    (*list)[(*n)++] = o;
}

static void b_expect(builder *b, tc_outcome_kind kind)
{
    tc_outcome o = {.kind = kind, .mode = TC_RNE, .reference = true};
    push_outcome(&b->c.expect, &b->c.nexpect, o);
}

static void b_alt_exact(builder *b, tc_round mode, const char *label)
{
    tc_outcome o = {.kind = TC_OUT_EXACT, .mode = mode, .label = dupstr(label)};
    push_outcome(&b->c.alt, &b->c.nalt, o);
}

static void b_alt_text(builder *b, const char *value, const char *label)
{
    tc_outcome o = {.kind = TC_OUT_VALUE, .value = dupstr(value), .label = dupstr(label)};
    if (!strcmp(value, "nan")) {
        o.kind = TC_OUT_NAN;
        free(o.value);
        o.value = NULL;
    }
    push_outcome(&b->c.alt, &b->c.nalt, o);
}

/* An alternative D = m * 2^e; left out when D's format cannot hold it (that
 * outcome is then impossible, not a different one). */
static void b_alt_value(builder *b, long long m, int e, const char *label)
{
    char v[64];
    if (!fits(b->t->d, m, e, false))
        return;
    tc_gen_hex(m, e, v, sizeof v);
    b_alt_text(b, v, label);
}

static int b_push(builder *b, tc_casefile *out)
{
    if (b->bad || b->c.na == 0) {
        tc_case_clear(&b->c);
        return 0;
    }
    if (!out->path)
        out->path = dupstr("(generated)");
    out->cases = grow(out->cases, sizeof *out->cases * (out->n + 1));
    b->c.file = out->path;
    b->c.line = 0;
    out->cases[out->n++] = b->c;
    memset(&b->c, 0, sizeof b->c);
    return 1;
}

static bool skip_target(const tc_gen_target *t)
{
    return tc_format_is_int(t->a) || tc_format_is_int(t->b) || tc_format_is_int(t->d);
}

/* ---- Families -------------------------------------------------------------------- */

static int gen_subnormal(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    builder b;
    int n = 0;
    /* A (then B) at its smallest subnormal, times the power of two that lifts
     * the product into D's normal range, so D's own flushing cannot hide it. */
    for (int side = 0; side < 2; side++) {
        const tc_format *fs = side ? t->b : t->a, *fo = side ? t->a : t->b;
        if (fs->mbits == 0)
            continue;
        int es = tc_format_emin(fs) - fs->mbits;
        int eo = imin(imax(0, x.emin_d - es), tc_format_emax(fo));
        b_init(&b, t, side ? "subnormal.b_input" : "subnormal.a_input", "subnormal-inputs", -1,
               "%s's smallest subnormal 0x1p%d times 0x1p%d: kept as a value, or flushed to zero",
               side ? "B" : "A", es, eo);
        char ts[64], to[64];
        tc_gen_hex(1, es, ts, sizeof ts);
        tc_gen_hex(1, eo, to, sizeof to);
        if (!fits(t->d, 1, es + eo, false))
            b.bad = true;
        b_pair_text(&b, side ? to : ts, side ? ts : to);
        b_expect(&b, TC_OUT_EXACT);
        b_alt_exact(&b, TC_RNE, side ? "subnormal B used" : "subnormal A used");
        b_alt_text(&b, "0", side ? "subnormal B flushed to zero" : "subnormal A flushed to zero");
        n += b_push(&b, out);
    }
    /* C at its smallest subnormal, every product zero. */
    int ec = x.emin_c - t->c->mbits;
    b_init(&b, t, "subnormal.c_input", "subnormal-c", -1,
           "C at its smallest subnormal 0x1p%d with zero products: passed through, or flushed", ec);
    b_pair_text(&b, "0", "0");
    b_c(&b, 1, ec);
    if (!fits(t->d, 1, ec, false))
        b.bad = true;
    b_expect(&b, TC_OUT_EXACT);
    b_alt_exact(&b, TC_RNE, "subnormal C used");
    b_alt_text(&b, "0", "subnormal C flushed to zero");
    n += b_push(&b, out);
    /* A product of normals below D's normal range (left out when the inputs
     * cannot reach it, e.g. f16 products in f32). */
    b_init(&b, t, "subnormal.product", "subnormal-outputs", -1,
           "a product of two normals equal to 0x1p%d, subnormal in D: kept or flushed",
           x.emin_d - 1);
    b_prod(&b, 1, x.emin_d - 1);
    b_expect(&b, TC_OUT_EXACT);
    b_alt_exact(&b, TC_RNE, "subnormal result kept");
    b_alt_text(&b, "0", "subnormal result flushed to zero");
    n += b_push(&b, out);
    b_init(&b, t, "subnormal.product_pair", "subnormal-products", -1,
           "two products 0x1p%d each (subnormal in D) summing to D's smallest normal: "
           "products below D's normal range kept or flushed",
           x.emin_d - 1);
    b_prod(&b, 1, x.emin_d - 1);
    b_prod(&b, 1, x.emin_d - 1);
    b_expect(&b, TC_OUT_EXACT);
    b_alt_exact(&b, TC_RNE, "products in D's subnormal range kept");
    b_alt_text(&b, "0", "products in D's subnormal range flushed");
    n += b_push(&b, out);
    /* A product below A's normal range (Fasi et al.'s "binary16 subnormal
     * in binary32 mode"): A's smallest normal times 1/2. */
    int ea = tc_format_emin(t->a);
    b_init(&b, t, "subnormal.product_below_input", "subnormal-products", -1,
           "A's smallest normal 0x1p%d times 0x1p-1: a product below A's normal range, normal in D",
           ea);
    {
        char ta[64];
        tc_gen_hex(1, ea, ta, sizeof ta);
        if (!fits(t->b, 1, -1, true) || !fits(t->d, 1, ea - 1, false))
            b.bad = true;
        b_pair_text(&b, ta, "0x1p-1");
    }
    b_expect(&b, TC_OUT_EXACT);
    b_alt_exact(&b, TC_RNE, "product below the input format's normal range kept");
    b_alt_text(&b, "0", "product below the input format's normal range flushed");
    n += b_push(&b, out);
    /* Normal C minus a normal product leaving D's smallest subnormal. */
    b_init(&b, t, "subnormal.output_cancel", "subnormal-outputs", -1,
           "C = 0x1p%d + 1 ulp minus the product 0x1p%d: the result is D's smallest subnormal",
           x.emin_d, x.emin_d);
    b_prod(&b, -1, x.emin_d);
    b_c(&b, (1ll << (x.pd - 1)) + 1, x.emin_d - x.pd + 1);
    b_expect(&b, TC_OUT_EXACT);
    b_alt_exact(&b, TC_RNE, "subnormal output produced");
    b_alt_text(&b, "0", "subnormal output flushed to zero");
    n += b_push(&b, out);
    return n;
}

static int gen_products(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    builder b;
    int n = 0;
    if (x.pa > 62 || x.pb > 62)
        return 0;
    long long ma = (1ll << x.pa) - 1, mb = (1ll << x.pb) - 1;
    char ta[64], tb[64], tl[64];
    tc_gen_hex(ma, -x.pa, ta, sizeof ta);
    tc_gen_hex(mb, -x.pb, tb, sizeof tb);
    if (x.pd >= x.pa + x.pb) {
        b_init(&b, t, "products.single", "products-exact", -1,
               "(1 - 2^-%d)(1 - 2^-%d) needs %d bits, which D holds: the product is kept exactly",
               x.pa, x.pb, x.pa + x.pb);
        b_pair_text(&b, ta, tb);
        b_expect(&b, TC_OUT_EXACT);
        b_alt_exact(&b, TC_RNE, "product exact");
        n += b_push(&b, out);
    }
    if (x.pd >= x.pa) {
        tc_gen_hex(1, -x.pb, tl, sizeof tl);
        b_init(&b, t, "products.cancel", "products-exact", -1,
               "(1-2^-%d)(1-2^-%d) + (1-2^-%d)2^-%d = 1 - 2^-%d exactly: the 2^-%d bits of the two "
               "products cancel only if both products are exact",
               x.pa, x.pb, x.pa, x.pb, x.pa, x.pa + x.pb);
        b_pair_text(&b, ta, tb);
        b_pair_text(&b, ta, tl);
        b_expect(&b, TC_OUT_EXACT);
        b_alt_exact(&b, TC_RNE, "products exact");
        n += b_push(&b, out);
    }
    return n;
}

/* Terms 2^E, 2^(E-j-p+1), -2^E, 2^(E-j): the second is j bits below the last
 * bit of the largest term, and survives only if the alignment keeps j bits. */
static int gen_align(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    if (x.k < 4)
        return 0;
    int E = imin(x.pmax, x.emax_d - 1);
    int J = imin(x.pd + 3, E - (x.pd - 1) - x.pmin);
    J = imin(J, E - x.emin_d);
    int n = 0;
    for (int j = 0; j <= J; j++) {
        builder b;
        char name[64], l1[96], l2[96], l3[96];
        snprintf(name, sizeof name, "align.j%02d", j);
        b_init(&b, t, name, "alignment-extra-bits", j,
               "2^%d + 2^%d - 2^%d + 2^%d: the second term lies %d bits below the last bit of the "
               "largest term; the exact sum 2^%d(1 + 2^-%d) shows whether the alignment kept it",
               E, E - j - x.pd + 1, E, E - j, j, E - j, x.pd - 1);
        b_prod(&b, 1, E);
        b_prod(&b, 1, E - j - x.pd + 1);
        b_prod(&b, -1, E);
        b_prod(&b, 1, E - j);
        b_expect(&b, TC_OUT_EXACT);
        snprintf(l1, sizeof l1, "alignment bit kept");
        snprintf(l2, sizeof l2, "alignment bit dropped (truncation)");
        snprintf(l3, sizeof l3, "alignment bit rounded up");
        b_alt_exact(&b, TC_RNE, l1);
        b_alt_value(&b, 1, E - j, l2);
        b_alt_value(&b, (1ll << (x.pd - 2)) + 1, E - j - x.pd + 2, l3);
        n += b_push(&b, out);
    }
    return n;
}

/* Base +-2^E (or +-(2^E + ulp): odd) plus a small term of 1/4, 2/4 or 3/4 ulp
 * in either direction: each rounding mode gives its own row. */
static int gen_round(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    if (x.k < 3)
        return 0;
    int E = imax(0, x.pmin + x.pd + 1);
    if (E + 1 > imin(x.pmax, x.emax_d))
        return 0;
    int eu = E - x.pd + 1; /* ulp of the base */
    int n = 0;
    static const char *const qname[4] = {"", "q1", "q2", "q3"};
    for (int total = 1; total >= -1; total -= 2)
        for (int odd = 0; odd < 2; odd++)
            for (int q = 1; q <= 3; q++)
                for (int dir = 1; dir >= -1; dir -= 2) {
                    builder b;
                    char name[64];
                    snprintf(name, sizeof name, "round.%s.%s.%s.%s", total > 0 ? "pos" : "neg",
                             odd ? "odd" : "even", qname[q], dir > 0 ? "away" : "toward0");
                    b_init(&b, t, name, "rounding", -1,
                           "%s(2^%d%s) %s %d/4 ulp: which rounding the sum gets",
                           total > 0 ? "" : "-", E, odd ? " + 1 ulp" : "",
                           dir > 0 ? "+" : "-", q);
                    b_prod(&b, total, E);
                    if (odd)
                        b_prod(&b, total, eu);
                    b_prod(&b, (long long)total * dir * q, eu - 2);
                    b_expect(&b, TC_OUT_EXACT);
                    b_alt_exact(&b, TC_RNE, "round to nearest, ties to even");
                    b_alt_exact(&b, TC_RNA, "round to nearest, ties away");
                    b_alt_exact(&b, TC_RZ, "toward zero");
                    b_alt_exact(&b, TC_RU, "toward +inf");
                    b_alt_exact(&b, TC_RD, "toward -inf");
                    long long base = (1ll << (x.pd - 1)) + odd;
                    b_alt_value(&b, total * base, eu, "small term dropped");
                    n += b_push(&b, out);
                }
    return n;
}

long tc_gen_block_predict(int k, const int *big, const long *small, int block, bool inside)
{
    int acc_big = 0;
    long acc_small = 0;
    for (int s0 = 0; s0 < k; s0 += block) {
        int bb = 0;
        long bs = 0;
        bool any_big = false;
        for (int i = s0; i < s0 + block && i < k; i++) {
            bb += big[i];
            bs += small[i];
            any_big |= big[i] != 0;
        }
        if (inside) {
            bool lost = any_big || acc_big != 0;
            acc_big += bb;
            acc_small = lost ? 0 : acc_small + bs;
        } else {
            if (any_big)
                bs = 0;
            bool lost = acc_big != 0 || bb != 0;
            acc_big += bb;
            acc_small = lost ? 0 : acc_small + bs;
        }
    }
    return acc_big != 0 ? -1 : acc_small;
}

/* Exponents of the big term M and the small one s for block and cplace:
 * as far apart as the formats allow. */
static bool big_small(const tc_gen_target *t, int *em, int *es)
{
    facts x = facts_of(t);
    *em = imin(x.pmax, x.emax_d - 1);
    *es = imax(x.pmin, x.emin_d);
    *em = imin(*em, x.emax_c - 1);
    return *em - *es > x.pd + 2;
}

static int gen_block(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    int em, es;
    if (x.k < 3 || !big_small(t, &em, &es))
        return 0;
    int k = x.k, n = 0;
    int big[TC_CASE_MAX_K];
    long small[TC_CASE_MAX_K];
    for (int fam = 0; fam < 2; fam++) {
        int fixed = fam == 0 ? 0 : k - 1;
        for (int i = 0; i < k; i++) {
            if (i == fixed)
                continue;
            builder b;
            char name[64];
            snprintf(name, sizeof name, "block.%s.i%02d", fam == 0 ? "lead" : "tail", i);
            b_init(&b, t, name, "fused-block", -1,
                   "-2^%d at position %d, +2^%d at position %d, 2^%d everywhere else: the small terms "
                   "that survive tell which terms were summed together",
                   em, fixed, em, i, es);
            for (int p = 0; p < k; p++) {
                big[p] = p == fixed ? -1 : p == i ? 1 : 0;
                small[p] = big[p] ? 0 : 1;
                b_prod(&b, big[p] ? big[p] : 1, big[p] ? em : es);
            }
            b_expect(&b, TC_OUT_EXACT);
            b_alt_exact(&b, TC_RNE, "no term lost (exact sum)");
            for (int blk = 1; blk <= k; blk *= 2)
                for (int inside = 1; inside >= 0; inside--) {
                    if (blk == 1 && !inside)
                        continue; /* the same model as inside for one term */
                    long cnt = tc_gen_block_predict(k, big, small, blk, inside);
                    char label[128];
                    if (blk == 1)
                        snprintf(label, sizeof label, "one term at a time");
                    else
                        snprintf(label, sizeof label, "fused blocks of %d, running sum %s", blk,
                                 inside ? "inside the block sum" : "added after each block");
                    if (cnt >= 0)
                        b_alt_value(&b, cnt, es, label);
                }
            n += b_push(&b, out);
        }
    }
    return n;
}

static int gen_cplace(const tc_gen_target *t, tc_casefile *out)
{
    int em, es;
    if (t->k < 2 || !big_small(t, &em, &es))
        return 0;
    builder b;
    int n = 0;
    b_init(&b, t, "cplace.c_small", "c-placement", -1,
           "products 2^%d - 2^%d cancel exactly, C = 2^%d: C survives unless it was aligned "
           "together with the products",
           em, em, es);
    b_prod(&b, 1, em);
    b_prod(&b, -1, em);
    b_c(&b, 1, es);
    b_expect(&b, TC_OUT_EXACT);
    b_alt_value(&b, 1, es, "C added apart from the products' aligned sum");
    b_alt_text(&b, "0", "C aligned with the products (inside the fused sum)");
    n += b_push(&b, out);
    b_init(&b, t, "cplace.c_big", "c-placement", -1,
           "C = 2^%d, products -2^%d and 2^%d: the small product survives only if C and -2^%d "
           "cancel before it is added",
           em, em, es, em);
    b_prod(&b, -1, em);
    b_prod(&b, 1, es);
    b_c(&b, 1, em);
    b_expect(&b, TC_OUT_EXACT);
    b_alt_value(&b, 1, es, "C and the first product summed before the second");
    b_alt_text(&b, "0", "small product lost beside C and -2^E");
    n += b_push(&b, out);
    return n;
}

static int gen_carry(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    int q = x.pa - 1;
    if (q + 1 > x.pd || q > 60)
        return 0;
    int n = 0;
    char tv[64];
    tc_gen_hex((1ll << (q + 1)) - 1, -q, tv, sizeof tv);
    for (int j = 1; (1 << j) <= x.k; j++) {
        builder b;
        char name[64], label[96];
        snprintf(name, sizeof name, "carry.j%d", j);
        b_init(&b, t, name, "carry-out", j,
               "%d terms of 2 - 2^-%d: the sum 2^%d(2 - 2^-%d) needs %d carry bits above the "
               "terms' binade",
               1 << j, q, j, q, j);
        for (int i = 0; i < (1 << j); i++)
            b_pair_text(&b, tv, "1");
        b_expect(&b, TC_OUT_EXACT);
        snprintf(label, sizeof label, "carry kept");
        b_alt_exact(&b, TC_RNE, label);
        n += b_push(&b, out);
    }
    return n;
}

/* C = 2^E - 2^(E-p) (just below 2^E), then C = 2^E, with 3 * 2^t terms of
 * 2^(E-p-t): exactly, D rises from 2^E + 1 ulp to 2^E + 2 ulps (a tie). An
 * adder that aligns to the largest exponent with t extra bits and truncates
 * keeps the terms beside the smaller C but drops them beside the larger, so
 * the larger C gives the smaller D (Fasi et al.'s non-monotonicity). */
static int gen_monotone(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    if (x.pd > 62)
        return 0;
    int T = 0;
    while (3 * (2 << T) <= x.k)
        T++;
    int E = imax(0, x.pmin + x.pd + T);
    if (x.k < 3 || E + 1 > imin(x.emax_c, x.pmax))
        return 0;
    int n = 0;
    for (int tb = 0; tb <= T; tb++) {
        builder b;
        char c2[64], name[64];
        int terms = 3 << tb, g = E - x.pd - tb;
        snprintf(name, sizeof name, "monotone.t%d", tb);
        b_init(&b, t, name, "monotonicity", -1,
               "C = 2^%d - 2^%d, then C = 2^%d, with %d terms of 2^%d: the larger C must not give a "
               "smaller D (an adder keeping %d extra bits and truncating breaks this)",
               E, E - x.pd, E, terms, g, tb);
        for (int i = 0; i < terms; i++)
            b_prod(&b, 1, g);
        b_c(&b, (1ll << x.pd) - 1, E - x.pd);
        tc_gen_hex(1, E, c2, sizeof c2);
        if (!fits(t->c, 1, E, false))
            b.bad = true;
        b.c.vary.kind = TC_VARY_INPUT;
        b.c.vary.which = 'c';
        b.c.vary.value = dupstr(c2);
        b_expect(&b, TC_OUT_MONOTONE);
        b_expect(&b, TC_OUT_EXACT);
        n += b_push(&b, out);
    }
    return n;
}

/* NaN payload patterns of f: quiet, signalling, negative, all ones. */
static int nan_patterns(const tc_format *f, uint64_t *out)
{
    int sh = f->shift;
    uint64_t expo = ((1ull << f->ebits) - 1) << f->mbits, sign = 1ull << (f->ebits + f->mbits);
    uint64_t fr = (1ull << f->mbits) - 1;
    if (f->specials == TC_SPECIALS_IEEE && f->mbits >= 2) {
        out[0] = (expo | 1ull << (f->mbits - 1)) << sh;
        out[1] = (expo | 1) << sh;
        out[2] = (sign | expo | 1ull << (f->mbits - 1)) << sh;
        out[3] = (sign | expo | fr) << sh;
        return 4;
    }
    if (f->specials == TC_SPECIALS_FN) {
        out[0] = (expo | fr) << sh;
        out[1] = (sign | expo | fr) << sh;
        return 2;
    }
    return 0;
}

static int gen_specials(const tc_gen_target *t, tc_casefile *out)
{
    facts x = facts_of(t);
    builder b;
    int n = 0;
    uint64_t pat[4];
    int np = nan_patterns(t->a, pat);
    for (int i = 0; i < np; i++) {
        char name[64], v[64];
        snprintf(name, sizeof name, "specials.nan_a%d", i);
        snprintf(v, sizeof v, "bits:0x%llx", (unsigned long long)pat[i]);
        b_init(&b, t, name, "specials", -1, "A = NaN (%s) times 1: D is NaN; its bits show the payload rule", v);
        b_pair_text(&b, v, "1");
        b_expect(&b, TC_OUT_NAN);
        n += b_push(&b, out);
    }
    if (t->c->specials == TC_SPECIALS_IEEE) {
        b_init(&b, t, "specials.nan_c", "specials", -1, "C = NaN, product 1: D is NaN");
        b_pair_text(&b, "1", "1");
        b_c_text(&b, "nan");
        b_expect(&b, TC_OUT_NAN);
        n += b_push(&b, out);
        b_init(&b, t, "specials.inf_c", "specials", -1, "C = +Inf, product 1: D is +Inf");
        b_pair_text(&b, "1", "1");
        b_c_text(&b, "inf");
        b_expect(&b, TC_OUT_EXACT);
        n += b_push(&b, out);
    }
    if (t->a->specials == TC_SPECIALS_IEEE) {
        b_init(&b, t, "specials.inf_times_zero", "specials", -1, "A = Inf times B = 0: D is NaN");
        b_pair_text(&b, "inf", "0");
        b_expect(&b, TC_OUT_NAN);
        n += b_push(&b, out);
        if (x.k >= 2) {
            b_init(&b, t, "specials.inf_minus_inf", "specials", -1, "products +Inf and -Inf: D is NaN");
            b_pair_text(&b, "inf", "1");
            b_pair_text(&b, "inf", "-1");
            b_expect(&b, TC_OUT_NAN);
            n += b_push(&b, out);
            b_init(&b, t, "specials.inf_plus_finite", "specials", -1, "products +Inf and 1: D is +Inf");
            b_pair_text(&b, "inf", "1");
            b_pair_text(&b, "1", "1");
            b_expect(&b, TC_OUT_EXACT);
            n += b_push(&b, out);
        }
        if (t->c->specials == TC_SPECIALS_IEEE) {
            b_init(&b, t, "specials.inf_c_minus_inf", "specials", -1, "C = +Inf, product -Inf: D is NaN");
            b_pair_text(&b, "inf", "-1");
            b_c_text(&b, "inf");
            b_expect(&b, TC_OUT_NAN);
            n += b_push(&b, out);
        }
    }
    /* Overflow: n products 2^pmax reaching 2^(emax_d + 1) > max(D). */
    int need = x.emax_d + 1 - x.pmax, cnt = need <= 0 ? 1 : need < 30 ? 1 << need : x.k + 1;
    char maxd[64];
    tc_value mv = tc_format_max(t->d);
    tc_gen_hex((long long)mv.sig, mv.exp, maxd, sizeof maxd);
    for (int sgn = 1; sgn >= -1 && cnt <= x.k; sgn -= 2) {
        char name[64], neg[80];
        snprintf(name, sizeof name, "specials.overflow_%s", sgn > 0 ? "pos" : "neg");
        b_init(&b, t, name, "specials", -1,
               "%d products of %s2^%d: the sum exceeds D's largest finite", cnt, sgn > 0 ? "" : "-",
               x.pmax);
        for (int i = 0; i < cnt; i++)
            b_prod(&b, sgn, x.pmax);
        b_expect(&b, TC_OUT_EXACT);
        b_alt_text(&b, sgn > 0 ? "inf" : "-inf", "overflow gives Inf");
        snprintf(neg, sizeof neg, "%s%s", sgn > 0 ? "" : "-", maxd);
        b_alt_text(&b, neg, "overflow saturates to the largest finite");
        b_alt_text(&b, "nan", "overflow gives NaN");
        if (t->d->specials != TC_SPECIALS_IEEE)
            b.bad = true;
        n += b_push(&b, out);
    }
    /* Intermediate overflow: 2^X + 2^X - 2^X - 2^X + C with 2^X = D's top power. */
    if (x.pmax >= x.emax_d && x.k >= 4) {
        int X = x.emax_d;
        b_init(&b, t, "specials.overflow_intermediate", "specials", -1,
               "2^%d + 2^%d - 2^%d - 2^%d + 1: partial sums overflow D, the exact sum is 1", X, X, X, X);
        b_prod(&b, 1, X);
        b_prod(&b, 1, X);
        b_prod(&b, -1, X);
        b_prod(&b, -1, X);
        b_c(&b, 1, 0);
        b_expect(&b, TC_OUT_EXACT);
        b_alt_exact(&b, TC_RNE, "no intermediate overflow");
        b_alt_text(&b, "inf", "intermediate overflow to +Inf");
        b_alt_text(&b, "nan", "intermediate overflow gives NaN");
        b_alt_text(&b, "0", "large terms cancel, C lost");
        n += b_push(&b, out);
    }
    return n;
}

/* A reproducible dot product with heavy cancellation: the second half
 * nearly undoes the first (last significand bit changed). */
static void random_terms(builder *b, unsigned seed)
{
    const tc_gen_target *t = b->t;
    facts x = facts_of(t);
    uint64_t s = 0x2545F4914F6CDD1Dull ^ seed;
    int half = x.k / 2;
    long long ma[TC_CASE_MAX_K];
    int ea[TC_CASE_MAX_K];
    int pa = imin(x.pa, 40);
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
        if (!fits(t->a, ma[i], ea[i], true) || !fits(t->b, mb, -1, true))
            b->bad = true;
        b_pair_text(b, ta, tb);
    }
}

static int gen_order(const tc_gen_target *t, tc_casefile *out)
{
    if (t->k < 2)
        return 0;
    builder b;
    b_init(&b, t, "order.permute", "order", -1,
           "a dot product with heavy cancellation under 32 permutations of its %d terms "
           "(positions move together with their products): one result, or several",
           t->k);
    random_terms(&b, 1);
    b.c.vary.kind = TC_VARY_PERMUTE;
    b.c.vary.count = 32;
    b_expect(&b, TC_OUT_INVARIANT);
    return b_push(&b, out);
}

static int gen_determinism(const tc_gen_target *t, tc_casefile *out)
{
    builder b;
    int n = 0;
    b_init(&b, t, "determinism.tiles", "determinism", -1,
           "the same tile 264 times in one batch (spread over the SMs): the same bits everywhere");
    random_terms(&b, 2);
    b.c.vary.kind = TC_VARY_TILES;
    b.c.vary.count = 264;
    b_expect(&b, TC_OUT_INVARIANT);
    n += b_push(&b, out);
    b_init(&b, t, "determinism.runs", "determinism", -1,
           "the same tile in 4 separate runs: the same bits every time");
    random_terms(&b, 3);
    b.c.vary.kind = TC_VARY_RUNS;
    b.c.vary.count = 4;
    b_expect(&b, TC_OUT_INVARIANT);
    n += b_push(&b, out);
    return n;
}

/* ---- The family table ---------------------------------------------------------- */

typedef int (*family_fn)(const tc_gen_target *t, tc_casefile *out);

static const struct {
    const char *name;
    family_fn fn;
} families[] = {
    {"subnormal", gen_subnormal}, {"products", gen_products}, {"align", gen_align},
    {"round", gen_round},         {"block", gen_block},       {"cplace", gen_cplace},
    {"carry", gen_carry},         {"monotone", gen_monotone}, {"specials", gen_specials},
    {"order", gen_order},         {"determinism", gen_determinism},
};

enum { NFAM = sizeof families / sizeof families[0] };

const char *const *tc_gen_families(size_t *count)
{
    static const char *names[NFAM + 1];
    for (size_t i = 0; i < NFAM; i++)
        names[i] = families[i].name;
    *count = NFAM;
    return names;
}

void tc_gen_target_of(const tc_instr *ins, tc_gen_target *t)
{
    memset(t, 0, sizeof *t);
    t->a = ins->a;
    t->b = ins->b;
    t->c = ins->c;
    t->d = ins->d;
    t->k = ins->k < TC_CASE_MAX_K ? ins->k : TC_CASE_MAX_K;
    snprintf(t->instr, sizeof t->instr, "%s", ins->name);
    snprintf(t->prefix, sizeof t->prefix, "%s", ins->name);
}

int tc_gen_family(const char *family, const tc_gen_target *t, tc_casefile *out, char *err,
                  size_t errlen)
{
    bool all = !strcmp(family, "all");
    int n = 0;
    bool found = all;
    for (size_t i = 0; i < NFAM; i++)
        if (all || !strcmp(family, families[i].name)) {
            found = true;
            if (!skip_target(t))
                n += families[i].fn(t, out);
        }
    if (!found) {
        size_t cnt;
        const char *const *names = tc_gen_families(&cnt);
        int len = snprintf(err, errlen, "unknown case family '%s' (all", family);
        for (size_t i = 0; i < cnt && len > 0 && (size_t)len < errlen; i++)
            len += snprintf(err + len, errlen - (size_t)len, ", %s", names[i]);
        if (len > 0 && (size_t)len < errlen)
            snprintf(err + len, errlen - (size_t)len, ")");
        return -1;
    }
    return n;
}
