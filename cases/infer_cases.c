/* infer: the crafted case families and running them on a target.
 * Every value is written as a double that the formats hold exactly
 * (checked), products as a*b with both factors representable. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/infer.h"
#include "cases/hunt.h"
#include "cases/infer_internal.h"

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
 * preferred. */
bool infer_split(const oracle_formats *f, double x, uint64_t *a, uint64_t *b)
{
    if (x == 0) {
        *b = tc_encode_f64(f->b, 1.0, rne);
        return infer_enc(f->a, x, a);
    }
    for (int d = 0; d <= 300; d++) {
        for (int s = -1; s <= 1; s += 2) {
            int e = s * d;
            double pb = ldexp(1.0, e);
            if (infer_enc(f->b, pb, b) && infer_enc(f->a, x / pb, a) &&
                tc_classify(f->a, *a) == TC_FINITE && tc_classify(f->b, *b) == TC_FINITE) {
                /* prefer normal factors */
                tc_value va = tc_decode(f->a, *a, false);
                int bl = 64 - __builtin_clzll(va.sig);
                if (va.exp + bl - 1 >= tc_format_emin(f->a) || d > 200)
                    return true;
            }
            if (d == 0)
                break;
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

/* Products terms[0..nt) at the first positions (or at pos[] if given), the
 * rest +0*+0, and C = c. Skipped (0) when a value is not representable. */
static int add_terms(cset *s, const infer_target *t, const char *family, int nt, const double *terms,
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
        int p = pos ? pos[i] : i;
        if (!infer_split(&t->f, terms[i], &a[p], &b[p]))
            return 0;
    }
    if (!infer_enc(t->f.c, c, &cb))
        return 0;
    return cset_add_bits(s, family, k, a, b, cb);
}

static int prec(const tc_format *f)
{
    return f->mbits + 1;
}

/* ---- families ---- */

static int fam_special(cset *s, const infer_target *t)
{
    const oracle_formats *f = &t->f;
    int k = t->k, rc = 0;
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    uint64_t za = tc_encode_f64(f->a, 0.0, rne), zb = tc_encode_f64(f->b, 0.0, rne);
    uint64_t one_a = tc_encode_f64(f->a, 1.0, rne), one_b = tc_encode_f64(f->b, 1.0, rne);
    uint64_t nan_a = f->a->nan_bits, nan_c = f->c->nan_bits;
    uint64_t inf_a = tc_encode_f64(f->a, INFINITY, rne), ninf_a = tc_encode_f64(f->a, -INFINITY, rne);
    bool has_inf = f->a->specials == TC_SPECIALS_IEEE;
    uint64_t c0 = tc_encode_f64(f->c, 0.0, rne);
    for (int v = 0; v < 10; v++) {
        for (int i = 0; i < k; i++) {
            a[i] = za;
            b[i] = zb;
        }
        uint64_t c = c0;
        switch (v) {
        case 0: a[0] = nan_a; b[0] = one_b; break;
        case 1: a[0] = one_a; b[0] = one_b; c = nan_c; break;
        case 2: if (!has_inf) continue; a[0] = inf_a; b[0] = one_b; break;
        case 3: if (!has_inf) continue; a[0] = inf_a; b[0] = zb; break;
        case 4: if (!has_inf) continue; a[0] = inf_a; b[0] = one_b; a[k - 1] = ninf_a; b[k - 1] = one_b; break;
        case 5: c = tc_encode_f64(f->c, -INFINITY, rne); a[0] = one_a; b[0] = one_b; break;
        case 6: if (!has_inf) continue; c = tc_encode_f64(f->c, -INFINITY, rne); a[0] = inf_a; b[0] = one_b; break;
        case 7:   /* every product the largest: overflow where the output is narrow enough */
        case 8:
            for (int i = 0; i < k; i++) {
                a[i] = tc_encode_f64(f->a, v == 7 ? 1e300 : -1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
                b[i] = tc_encode_f64(f->b, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            }
            c = tc_encode_f64(f->c, v == 7 ? 1e300 : -1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            break;
        case 9:   /* C the largest finite, one product adds to it */
            c = tc_encode_f64(f->c, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            a[0] = tc_encode_f64(f->a, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            b[0] = tc_encode_f64(f->b, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            break;
        }
        rc |= cset_add_bits(s, "special", k, a, b, c);
    }
    return rc;
}

/* A NaN of f with the given sign, quiet bit and payload (below the quiet bit). */
static uint64_t nan_of(const tc_format *f, int sign, bool quiet, uint64_t payload)
{
    uint64_t exp = ((1ull << f->ebits) - 1) << f->mbits;
    uint64_t q = quiet ? 1ull << (f->mbits - 1) : 0;
    return (((uint64_t)sign << (f->ebits + f->mbits)) | exp | q | payload) << f->shift;
}

/* NaN payloads: which NaN operand a NaN result carries, if any (A against
 * B, each against C, a later product against C, two products in K order)
 * and whether a signaling NaN comes back quieted. IEEE formats only. */
static int fam_nan_payload(cset *s, const infer_target *t)
{
    const oracle_formats *f = &t->f;
    int k = t->k, rc = 0;
    if (k < 2 || f->a->specials != TC_SPECIALS_IEEE || f->b->specials != TC_SPECIALS_IEEE ||
        f->c->specials != TC_SPECIALS_IEEE || f->a->mbits < 3 || f->b->mbits < 3 || f->c->mbits < 3)
        return 0;
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    uint64_t za = tc_encode_f64(f->a, 0.0, rne), zb = tc_encode_f64(f->b, 0.0, rne);
    uint64_t one_a = tc_encode_f64(f->a, 1.0, rne), one_b = tc_encode_f64(f->b, 1.0, rne);
    uint64_t c0 = tc_encode_f64(f->c, 0.0, rne);
    for (int v = 0; v < 7; v++) {
        for (int i = 0; i < k; i++) {
            a[i] = za;
            b[i] = zb;
        }
        uint64_t c = c0;
        switch (v) {
        case 0: a[0] = nan_of(f->a, 0, true, 1); b[0] = nan_of(f->b, 1, true, 2); break;
        case 1: a[0] = nan_of(f->a, 0, true, 1); b[0] = one_b; c = nan_of(f->c, 1, true, 2); break;
        case 2: a[0] = one_a; b[0] = nan_of(f->b, 0, true, 1); c = nan_of(f->c, 1, true, 2); break;
        case 3: a[0] = nan_of(f->a, 1, false, 3); b[0] = one_b; break;
        case 4: a[k - 1] = nan_of(f->a, 0, true, 1); b[k - 1] = one_b; c = nan_of(f->c, 1, true, 2); break;
        case 5: a[0] = nan_of(f->a, 0, true, 1); b[0] = one_b; a[k - 1] = nan_of(f->a, 1, true, 2); b[k - 1] = one_b; break;
        case 6: a[0] = one_a; b[0] = nan_of(f->b, 1, false, 3); c = nan_of(f->c, 0, false, 1); break;
        }
        rc |= cset_add_bits(s, "special", k, a, b, c);
    }
    return rc;
}

/* TF32 operands: bits below the format, at, below and above half. */
static int fam_convert(cset *s, const infer_target *t)
{
    int rc = 0, k = t->k;
    static const uint32_t low[] = {0x1000, 0x1001, 0x0FFF, 0x1FFF, 0x0001};
    for (int w = 0; w < 2; w++) {
        const tc_format *f = w ? t->f.b : t->f.a;
        if (f->shift == 0)
            continue;
        for (size_t i = 0; i < sizeof low / sizeof low[0]; i++)
            for (int odd = 0; odd < 2; odd++)
                for (int neg = 0; neg < 2; neg++) {
                    uint64_t a[INFER_KMAX], b[INFER_KMAX];
                    uint64_t za = tc_encode_f64(t->f.a, 0.0, rne), zb = tc_encode_f64(t->f.b, 0.0, rne);
                    for (int j = 0; j < k; j++) {
                        a[j] = za;
                        b[j] = zb;
                    }
                    uint64_t x = 0x3F800000u | (odd ? 0x2000u : 0) | low[i] | (neg ? 0x80000000u : 0);
                    a[0] = w ? tc_encode_f64(t->f.a, 1.0, rne) : x;
                    b[0] = w ? x : tc_encode_f64(t->f.b, 1.0, rne);
                    rc |= cset_add_bits(s, "convert", k, a, b, tc_encode_f64(t->f.c, 0.0, rne));
                }
    }
    return rc;
}

/* Subnormal inputs, products, C and outputs; product flush thresholds. */
static int fam_subnormal(cset *s, const infer_target *t)
{
    const oracle_formats *f = &t->f;
    int rc = 0, k = t->k;
    uint64_t za = tc_encode_f64(f->a, 0.0, rne), zb = tc_encode_f64(f->b, 0.0, rne);
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    /* subnormal A (and B) times powers of two of the other */
    for (int w = 0; w < 2; w++) {
        const tc_format *fs = w ? f->b : f->a, *fo = w ? f->a : f->b;
        if (fs->mbits == 0)
            continue;
        uint64_t sub[3] = {1, 3, (1ull << fs->mbits) - 1};
        for (int si = 0; si < 3; si++)
            for (int e = 0; e <= tc_format_emax(fo); e += (tc_format_emax(fo) + 3) / 4) {
                for (int j = 0; j < k; j++) {
                    a[j] = za;
                    b[j] = zb;
                }
                uint64_t x = sub[si] << fs->shift, y;
                if (!infer_enc(fo, ldexp(1.0, e), &y))
                    continue;
                a[0] = w ? y : x;
                b[0] = w ? x : y;
                rc |= cset_add_bits(s, "subnormal", k, a, b, tc_encode_f64(f->c, 0.0, rne));
                /* with C = 1 beside it (the subnormal then matters only in the sum) */
                rc |= cset_add_bits(s, "subnormal", k, a, b, tc_encode_f64(f->c, 1.0, rne));
            }
    }
    /* C subnormal, alone and with a small product */
    uint64_t csub[2] = {1, (1ull << f->c->mbits) - 1};
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < k; j++) {
            a[j] = za;
            b[j] = zb;
        }
        rc |= cset_add_bits(s, "subnormal", k, a, b, csub[i] << f->c->shift);
        double p = ldexp(1.0, tc_format_emin(f->c));
        if (infer_split(f, p, &a[0], &b[0]))
            rc |= cset_add_bits(s, "subnormal", k, a, b, csub[i] << f->c->shift);
    }
    /* products 2^e around the C and D normal ranges' bottoms, alone and beside C */
    int pd = prec(f->d);
    int lo = tc_format_emin(f->d) - pd - 4, hi = tc_format_emin(f->d) + 6;
    int lo2 = tc_format_emin(f->a) + tc_format_emin(f->b) - f->a->mbits - f->b->mbits;
    if (lo < lo2)
        lo = lo2;
    for (int e = lo; e <= hi; e++)
        for (int with_c = 0; with_c < 3; with_c++) {
            double term[2] = {ldexp(1.5, e), ldexp(1.0, e)};
            double c = with_c == 1 ? ldexp(1.0, e + 4) : with_c == 2 ? ldexp(-1.0, e + pd - 2) : 0;
            rc |= add_terms(s, t, "subnormal", with_c == 2 ? 2 : 1, term, NULL, c) < 0;
        }
    return rc;
}

/* 1 + 2^-j in every arrangement: products only, C large, C small, cancelling. */
static int fam_align(cset *s, const infer_target *t)
{
    int rc = 0, k = t->k;
    int pd = prec(t->f.d);
    for (int j = 1; j <= pd + 44; j++) {
        double tail = ldexp(1.0, -j);
        double x2[2] = {1, tail}, x3[3] = {1, tail, tail}, xn[2] = {1, -tail}, xm[2] = {-1, tail};
        double x3t[3] = {1, 3 * tail, 0};
        rc |= add_terms(s, t, "align", 2, x2, NULL, 0) < 0;
        if (k >= 3)
            rc |= add_terms(s, t, "align", 3, x3, NULL, 0) < 0;
        rc |= add_terms(s, t, "align", 2, xn, NULL, 0) < 0;
        rc |= add_terms(s, t, "align", 2, xm, NULL, 0) < 0;
        rc |= add_terms(s, t, "align", 2, x3t, NULL, 0) < 0;
        double one[1] = {tail}, two[2] = {tail, tail}, big[1] = {1}, ntail[1] = {-tail};
        rc |= add_terms(s, t, "cin", 1, one, NULL, 1) < 0;
        rc |= add_terms(s, t, "cin", 1, ntail, NULL, 1) < 0;
        rc |= add_terms(s, t, "cin", 2, two, NULL, 1) < 0;
        rc |= add_terms(s, t, "cin", 1, big, NULL, tail) < 0;
        rc |= add_terms(s, t, "cin", 1, big, NULL, -tail) < 0;
        /* the carry of 1.5 + 1.5 moves the reference */
        double carry[3] = {1.5, 1.5, tail};
        if (k >= 3)
            rc |= add_terms(s, t, "align", 3, carry, NULL, 0) < 0;
        double canc[3] = {2, -1, tail};
        if (k >= 3)
            rc |= add_terms(s, t, "align", 3, canc, NULL, 0) < 0;
    }
    return rc;
}

/* Wide spans: the largest term C (any exponent of C's range) or a large
 * product, the small one a product near the bottom of the product range,
 * j bits apart for j up to ~140: tells wide alignment from exact. */
static int fam_wide(cset *s, const infer_target *t)
{
    int rc = 0;
    const oracle_formats *f = &t->f;
    int pmin = tc_format_emin(f->a) + tc_format_emin(f->b);   /* smallest normal product exponent */
    int pmax = tc_format_emax(f->a) + tc_format_emax(f->b);
    int cmax = tc_format_emax(f->c);
    for (int j = 20; j <= 140; j += (j < 70 ? 1 : 3)) {
        int lo = pmin + 2;
        double small[2] = {ldexp(1.0, lo), ldexp(1.0, lo)}, nsmall[1] = {-ldexp(1.0, lo)};
        if (lo + j <= cmax) {
            rc |= add_terms(s, t, "align", 1, small, NULL, ldexp(1.0, lo + j)) < 0;
            rc |= add_terms(s, t, "align", 2, small, NULL, ldexp(1.0, lo + j)) < 0;
            rc |= add_terms(s, t, "align", 1, nsmall, NULL, ldexp(1.0, lo + j)) < 0;
        }
        if (lo + j <= pmax - 1) {
            double two[3] = {ldexp(1.0, lo + j), ldexp(1.0, lo), ldexp(1.0, lo)};
            rc |= add_terms(s, t, "align", 3 <= t->k ? 3 : 2, two, NULL, 0) < 0;
        }
    }
    /* ties of the output broken by a tiny C far below: sticky bits decide */
    int pd = prec(f->d);
    for (int j = pd + 2; j <= 160; j += (j < 80 ? 1 : 2))
        for (int sg = -1; sg <= 1; sg += 2) {
            double tie[2] = {1, ldexp(1.0, -pd)};
            rc |= add_terms(s, t, "align", 2, tie, NULL, sg * ldexp(1.0, -j)) < 0;
            double tie3[2] = {1, 3 * ldexp(1.0, -pd)};
            rc |= add_terms(s, t, "align", 2, tie3, NULL, sg * ldexp(1.0, -j)) < 0;
        }
    return rc;
}

/* Double rounding: values a quarter, half, three quarters of an f32 ulp
 * from the output's ties, for an accumulator wider than the output. */
static int fam_round2(cset *s, const infer_target *t)
{
    int rc = 0;
    int pd = prec(t->f.d);
    if (pd >= 24)
        return 0;
    static const double fr[] = {0.25, 0.5, 0.75, 1, 1.5};
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++)
            for (int sg = -1; sg <= 1; sg += 2)
                for (int neg = 0; neg < 2; neg++) {
                    double u = ldexp(0.5 + m, -(pd - 1)), v = sg * fr[i] * ldexp(1.0, -23);
                    double x[3] = {neg ? -1.0 : 1.0, neg ? -u : u, v};
                    rc |= add_terms(s, t, "round", 3 <= t->k ? 3 : 2, x, NULL, 0) < 0;
                    double y[2] = {neg ? -u : u, v};
                    rc |= add_terms(s, t, "round", 2, y, NULL, neg ? -1.0 : 1.0) < 0;
                }
    return rc;
}

/* Rounding truth tables around 1 and -1 in the output's precision. */
static int fam_round(cset *s, const infer_target *t)
{
    int rc = 0;
    int pd = prec(t->f.d);
    static const double fr[] = {0.25, 0.5, 0.75, 1.25, 1.5, 1.75, 2.5, 3.5};
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++)
        for (int sg = -1; sg <= 1; sg += 2)
            for (int cs = -1; cs <= 1; cs += 2) {
                double u = ldexp(fr[i], -(pd - 1)) * sg;
                double one[1] = {u};
                rc |= add_terms(s, t, "round", 1, one, NULL, cs) < 0;
                double two[2] = {(double)cs, u};
                rc |= add_terms(s, t, "round", 2, two, NULL, 0) < 0;
                /* the same below a power of two (the ulp halves) */
                double three[2] = {(double)cs * 2, u};
                rc |= add_terms(s, t, "round", 2, three, NULL, -cs * 0.5 * 2) < 0;
            }
    return rc;
}

/* FPRev: +M and -M at positions i, j, ones elsewhere; and one large term
 * moved through every position beside tails of 1, 1/2, 1/4, 1/8 ulp. */
static int fam_block(cset *s, const infer_target *t)
{
    int rc = 0, k = t->k;
    int pd = prec(t->f.d);
    double terms[INFER_KMAX];
    int scales[3] = {pd, pd + 3, pd + 9};
    int step = k > 32 ? k / 16 : 1;
    for (int sc = 0; sc < 3; sc++) {
        /* values scaled so the tail is 2^-(scale) and M is 1 */
        double one = ldexp(1.0, -scales[sc]);
        for (int i = 0; i < k; i += step)
            for (int j = 0; j < k; j += step) {
                if (i == j)
                    continue;
                for (int q = 0; q < k; q++)
                    terms[q] = one;
                terms[i] = 1;
                terms[j] = -1;
                rc |= add_terms(s, t, "block", k, terms, NULL, 0) < 0;
            }
        for (int j = 0; j < k; j += step) {
            for (int q = 0; q < k; q++)
                terms[q] = one;
            terms[j] = -1;
            rc |= add_terms(s, t, "block", k, terms, NULL, 1) < 0;   /* C = M */
            for (int q = 0; q < k; q++)
                terms[q] = one;
            terms[j] = 1;
            rc |= add_terms(s, t, "block", k, terms, NULL, -1) < 0;
        }
    }
    for (int q8 = 0; q8 < 4; q8++) {
        double tail = ldexp(1.0, -(pd - 1) - q8) * 0.75;
        for (int j = 0; j < k; j += step) {
            for (int q = 0; q < k; q++)
                terms[q] = tail;
            terms[j] = 1;
            rc |= add_terms(s, t, "block", k, terms, NULL, 0) < 0;
            for (int q = 0; q < k; q++)
                terms[q] = q % 2 ? -tail : tail;
            terms[j] = 1;
            rc |= add_terms(s, t, "block", k, terms, NULL, 0) < 0;
        }
        for (int q = 0; q < k; q++)
            terms[q] = tail;
        rc |= add_terms(s, t, "block", k, terms, NULL, 1) < 0;
    }
    /* every product the same: carries beyond one block */
    for (int q = 0; q < k; q++)
        terms[q] = 1.75;
    rc |= add_terms(s, t, "block", k, terms, NULL, 0) < 0;
    return rc;
}

static uint64_t rnd64(uint64_t *st)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A finite value of f with biased exponent in [lo, hi] (clamped). */
uint64_t infer_rnd_value(const tc_format *f, uint64_t *st, int lo, int hi)
{
    int top = (1 << f->ebits) - 1;
    int maxe = f->specials == TC_SPECIALS_IEEE ? top - 1 : top;
    lo = lo < 0 ? 0 : lo;
    hi = hi > maxe ? maxe : hi;
    if (hi < lo)
        hi = lo;
    uint64_t e = (uint64_t)(lo + (int)(rnd64(st) % (uint64_t)(hi - lo + 1)));
    uint64_t frac = f->mbits ? rnd64(st) & ((1ull << f->mbits) - 1) : 0;
    uint64_t bits = ((rnd64(st) & 1) << (f->ebits + f->mbits)) | (e << f->mbits) | frac;
    if (f->specials == TC_SPECIALS_FN && e == (uint64_t)top && frac == (1ull << f->mbits) - 1)
        bits ^= 1;
    return bits << f->shift;
}

/* dist 0: near 1; 1: the whole range; 2: cancelling pairs; 3: uniform bits */
void infer_rnd_case(const infer_target *t, uint64_t *st, int dist, uint64_t *a, uint64_t *b, uint64_t *c)
{
    const oracle_formats *f = &t->f;
    for (int i = 0; i < t->k; i++) {
        switch (dist) {
        case 0:
            a[i] = infer_rnd_value(f->a, st, f->a->bias - 4, f->a->bias + 4);
            b[i] = infer_rnd_value(f->b, st, f->b->bias - 4, f->b->bias + 4);
            break;
        case 1:
            a[i] = infer_rnd_value(f->a, st, 0, 1 << f->a->ebits);
            b[i] = infer_rnd_value(f->b, st, 0, 1 << f->b->ebits);
            break;
        case 2:
            if (i % 2) {
                a[i] = a[i - 1] ^ (1ull << (f->a->ebits + f->a->mbits + f->a->shift));
                b[i] = b[i - 1] ^ ((rnd64(st) & 1) << f->b->shift);
            } else {
                a[i] = infer_rnd_value(f->a, st, f->a->bias - 6, f->a->bias + 6);
                b[i] = infer_rnd_value(f->b, st, f->b->bias - 6, f->b->bias + 6);
            }
            break;
        default:
            a[i] = rnd64(st) & tc_format_mask(f->a) & ~((1ull << f->a->shift) - 1);
            b[i] = rnd64(st) & tc_format_mask(f->b) & ~((1ull << f->b->shift) - 1);
            break;
        }
    }
    if (dist == 3)
        *c = rnd64(st) & tc_format_mask(f->c);
    else if (dist == 1)
        *c = infer_rnd_value(f->c, st, 0, 1 << f->c->ebits);
    else
        *c = rnd64(st) % 4 ? infer_rnd_value(f->c, st, f->c->bias - 8, f->c->bias + 8)
                           : tc_encode_f64(f->c, 0.0, rne);
}

static int fam_random(cset *s, const infer_target *t, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    uint64_t a[INFER_KMAX], b[INFER_KMAX], c;
    for (size_t i = 0; i < n; i++) {
        infer_rnd_case(t, &st, (int)(i % 4), a, b, &c);
        if (cset_add_bits(s, "random", t->k, a, b, c))
            return -1;
    }
    return 0;
}

/* Elements of the hunt families (cases/hunt.h): the regions random draws
 * miss (zeros, zero terms, subnormal operands, the range's edges, NaN
 * payloads) in the fit itself, so that the fields deciding them are fitted
 * from answers there rather than defaulted. A stream apart from the
 * proof's (which starts from the run seed). */
#define HUNT_FIT_PER_FAMILY 48

static int fam_hunt(cset *s, const infer_target *t)
{
    if (t->without_hunt || !hunt_applies(t) || t->k > INFER_KMAX)
        return 0;
    size_t mn = (size_t)t->m * t->n, ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n;
    size_t ntiles = (HUNT_FIT_PER_FAMILY + mn - 1) / mn;
    uint64_t *A = malloc(ntiles * ta * sizeof *A), *B = malloc(ntiles * tb * sizeof *B),
             *C = malloc(ntiles * mn * sizeof *C);
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    int rc = 0;
    if (!A || !B || !C)
        rc = -1;
    for (int fam = 0; rc == 0 && fam < HUNT_NFAMILIES; fam++) {
        uint64_t st = hunt_family_seed((t->seed ? t->seed : 0x7C5C0BE5ull) ^ 0xF17F17ull, fam);
        for (size_t q = 0; q < ntiles; q++)
            hunt_fill_tile(t, fam, &st, A + q * ta, B + q * tb, C + q * mn);
        for (size_t e = 0; rc == 0 && e < HUNT_FIT_PER_FAMILY; e++) {
            /* spread over rows and columns: element e of tile e / mn */
            size_t q = e / mn, r = e % mn, i = r % (size_t)t->m, j = (r * 7 + r / (size_t)t->m) % (size_t)t->n;
            for (int kk = 0; kk < t->k; kk++) {
                a[kk] = A[q * ta + i * (size_t)t->k + (size_t)kk];
                b[kk] = B[q * tb + (size_t)kk * t->n + j];
            }
            rc = cset_add_bits(s, hunt_family_name(fam), t->k, a, b, C[q * mn + i * (size_t)t->n + j]);
        }
    }
    free(A);
    free(B);
    free(C);
    return rc;
}

int infer_build_cases(const infer_target *t, cset *s)
{
    int rc = 0;
    rc |= fam_special(s, t);
    rc |= fam_nan_payload(s, t);
    rc |= fam_convert(s, t);
    rc |= fam_subnormal(s, t);
    rc |= fam_align(s, t);
    rc |= fam_wide(s, t);
    rc |= fam_round(s, t);
    rc |= fam_round2(s, t);
    rc |= fam_block(s, t);
    s->hunt_from = s->n;
    rc |= fam_hunt(s, t);
    s->hunt_to = s->n;
    rc |= fam_random(s, t, t->random_cases ? t->random_cases : 4096,
                     t->seed ? t->seed : 0x7C5C0BE5ull);
    return rc ? -1 : 0;
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

int infer_run_cases(const infer_target *t, infer_case *cases, size_t n, char *err, size_t errlen)
{
    int m = t->m, nn = t->n, k = t->k;
    int per = m < nn ? m : nn;
    if (per < 1 || k < 1) {
        snprintf(err, errlen, "infer: bad shape m%dn%dk%d", m, nn, k);
        return -1;
    }
    size_t ntiles = (n + (size_t)per - 1) / (size_t)per;
    size_t ta = (size_t)m * k, tb = (size_t)k * nn, tc = (size_t)m * nn;
    uint64_t *A = calloc(ntiles * ta + 1, sizeof *A), *B = calloc(ntiles * tb + 1, sizeof *B);
    uint64_t *C = calloc(ntiles * tc + 1, sizeof *C), *D = calloc(ntiles * tc + 1, sizeof *D);
    if (!A || !B || !C || !D) {
        free(A);
        free(B);
        free(C);
        free(D);
        snprintf(err, errlen, "infer: out of memory");
        return -1;
    }
    /* Unused rows/columns stay +0 bit patterns (0 is +0 in every format). */
    for (size_t i = 0; i < n; i++) {
        size_t tile = i / (size_t)per;
        int d = (int)(i % (size_t)per);
        for (int kk = 0; kk < k; kk++) {
            A[tile * ta + (size_t)d * k + kk] = cases[i].a[kk];
            B[tile * tb + (size_t)kk * nn + d] = cases[i].b[kk];
        }
        C[tile * tc + (size_t)d * nn + d] = cases[i].c;
    }
    int rc = t->run(t->ctx, ntiles, A, B, C, D, err, errlen);
    if (rc == 0)
        for (size_t i = 0; i < n; i++) {
            size_t tile = i / (size_t)per;
            int d = (int)(i % (size_t)per);
            cases[i].d = D[tile * tc + (size_t)d * nn + d];
        }
    free(A);
    free(B);
    free(C);
    free(D);
    return rc;
}
