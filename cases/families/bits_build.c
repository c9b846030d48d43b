/* The bit-pattern cases (infer_internal.h, families.h): the case set (cset)
 * and its builders. Every value is written as a double that the formats hold
 * exactly (checked), products as a*b with both factors representable
 * (infer_split). Below the families and the inference: it calls neither. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

bool infer_enc(const tc_format *f, double x, uint64_t *bits)
{
    uint64_t b = tc_encode_f64(f, x, rne);
    double back = tc_decode_to_f64(f, b);
    if (back != x || (x == 0 && signbit(x) != signbit(back)))
        return false;
    *bits = b;
    return true;
}

/* x = a*b with a in A's format and b in B's: b a power of two, normal ranges
 * preferred. The powers 2^e are tried nearest 1 first (1, 1/2, 2, 1/4, ..),
 * and only those for which both 2^e and x / 2^e lie within a bound one
 * wider on each side than the formats' values (smallest subnormal to
 * largest finite): any other e infer_enc would refuse, and the encodes were
 * most of building the crafted cases (doc/findings.md, "Where a regress
 * check's time goes"). tests/test_infer_split.c holds the answers the same
 * as the search over every e. */
bool infer_split(const oracle_formats *f, double x, uint64_t *a, uint64_t *b)
{
    if (x == 0) {
        *b = tc_encode_f64(f->b, 1.0, rne);
        return infer_enc(f->a, x, a);
    }
    if (!isfinite(x))   /* the search would find no finite a */
        return false;
    int ex;
    frexp(x, &ex);
    ex -= 1;   /* |x| in [2^ex, 2^(ex+1)) */
    int lo = -300, hi = 300;   /* integer formats: every e, as the search always did */
    if (!tc_format_is_int(f->a) && !tc_format_is_int(f->b)) {
        int lo_a = ex - (tc_format_emax(f->a) + 1), hi_a = ex - (tc_format_emin(f->a) - f->a->mbits - 1);
        lo = tc_format_emin(f->b) - f->b->mbits - 1;
        hi = tc_format_emax(f->b) + 1;
        lo = lo > lo_a ? lo : lo_a;
        hi = hi < hi_a ? hi : hi_a;
    }
    int reach = -lo > hi ? -lo : hi;   /* no e past |e| = reach is within both */
    for (int d = 0; d <= 300 && d <= reach; d++) {
        for (int s = -1; s <= (d ? 1 : -1); s += 2) {
            int e = s * d;
            if (e < lo || e > hi)
                continue;
            double pb = ldexp(1.0, e);
            if (infer_enc(f->b, pb, b) && infer_enc(f->a, x / pb, a) &&
                tc_classify(f->a, *a) == TC_FINITE && tc_classify(f->b, *b) == TC_FINITE) {
                /* prefer normal factors */
                tc_value va = tc_decode(f->a, *a, false);
                int bl = 64 - __builtin_clzll(va.sig);
                if (va.exp + bl - 1 >= tc_format_emin(f->a) || d > 200)
                    return true;
            }
        }
    }
    return false;
}

int cset_add_bits(cset *s, const char *family, int k, const uint64_t *a, const uint64_t *b,
                  uint64_t c)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 1024;
        infer_case *nv = realloc(s->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = nc;
    }
    infer_case *cs = &s->v[s->n];
    cs->family = family;
    cs->k = k;
    cs->a = malloc((size_t)k * sizeof *cs->a);
    cs->b = malloc((size_t)k * sizeof *cs->b);
    if (!cs->a || !cs->b) {
        free(cs->a);
        free(cs->b);
        return -1;
    }
    memcpy(cs->a, a, (size_t)k * sizeof *a);
    memcpy(cs->b, b, (size_t)k * sizeof *b);
    cs->c = c;
    cs->d = 0;
    s->n++;
    return 0;
}

void cset_free(cset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].a);
        free(s->v[i].b);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* Products terms[0..nt) at the first positions (or at pos[] if given), the
 * rest +0*+0, and C = c. Skipped (0) when a value is not representable. */
int fam_add_terms(cset *s, const infer_target *t, const char *family, int nt, const double *terms,
                  const int *pos, double c)
{
    int k = t->k;
    uint64_t a[INFER_KMAX], b[INFER_KMAX], cb;
    if (nt > k || k > INFER_KMAX)
        return 0;
    uint64_t z;
    infer_split(&t->f, 0.0, &z, &b[0]);
    uint64_t zb = tc_encode_f64(t->f.b, 0.0, rne);
    for (int i = 0; i < k; i++) {
        a[i] = z;
        b[i] = zb;
    }
    for (int i = 0; i < nt; i++) {
        int p = pos ? pos[i] : i, q = pos && i ? pos[i - 1] : i - 1;
        /* most families repeat one term (a tail of ones): the split of the
         * same double (its sign too) again is the one before */
        if (i && !memcmp(&terms[i], &terms[i - 1], sizeof terms[i])) {
            a[p] = a[q];
            b[p] = b[q];
        } else if (!infer_split(&t->f, terms[i], &a[p], &b[p])) {
            return 0;
        }
    }
    if (!infer_enc(t->f.c, c, &cb))
        return 0;
    return cset_add_bits(s, family, k, a, b, cb);
}
