/* exact_scaled: the correctly rounded block-scaled dot (oracle.h,
 * oracle_dot_scaled_exact). Each operand is multiplied by its block's scale
 * first, which is exact (a scale is a power of two or a 4-bit significand),
 * then the sum is exact_dot's: the same exact fixed point as every other
 * oracle answer, and none of the model's code. */
#include <stdlib.h>

#include "oracle/exact_acc.h"

/* x * s in IEEE classes: NaN wins, 0 * Inf is NaN, then Inf, then zero
 * (keeping x's sign: a scale has none). */
static exact_val scaled(tc_value x, tc_value s)
{
    tc_value v = x;
    bool zero = x.cls == TC_ZERO || s.cls == TC_ZERO, inf = x.cls == TC_INF || s.cls == TC_INF;
    if (x.cls == TC_NAN || s.cls == TC_NAN || (zero && inf))
        v.cls = TC_NAN;
    else if (inf)
        v.cls = TC_INF;
    else if (zero)
        v.cls = TC_ZERO;
    else {
        v.sig = x.sig * s.sig;   /* at most 53 + 4 bits: operands are FP8 or narrower, scales 4 bits */
        v.exp = x.exp + s.exp;
    }
    if (v.cls != TC_FINITE)
        v.sig = 0;
    return exact_val_of(v);
}

uint64_t oracle_dot_scaled_exact(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                                 uint64_t c, const oracle_scales *s, tc_rounding r)
{
    size_t n = k > 0 ? (size_t)k : 1;
    exact_val *xa = exact_xmalloc(n * sizeof *xa), *xb = exact_xmalloc(n * sizeof *xb);
    for (int i = 0; i < k; i++) {
        tc_value sa = tc_decode(s->fmt, s->a[i / s->block], false);
        tc_value sb = tc_decode(s->fmt, s->b[i / s->block], false);
        xa[i] = scaled(tc_decode(f.a, a[i], false), sa);
        xb[i] = scaled(tc_decode(f.b, b[i], false), sb);
    }
    exact_val xc = exact_val_of(tc_decode(f.c, c, false));
    exact_sum sum;
    exact_dot(xa, 1, xb, 1, k, &xc, r.mode, &sum);
    uint64_t d = exact_sum_round(&sum, f.d, r);
    exact_sum_free(&sum);
    free(xa);
    free(xb);
    return d;
}
