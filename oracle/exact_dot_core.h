/* The exact dot product of two vectors of doubles, rounded once to f64
 * (RNE), in integers only: written once for the CPU and the GPU as the
 * model's arithmetic is (oracle/model_core.h), so the GPU can compute the
 * exact references of every output of a GEMM (probes/model_gpu_exact.h).
 *
 * Every product of two finite doubles is P * 2^L with P < 2^106 and
 * L in [-2148, 1942]; the sum is held exactly in EXACT_DOT_LIMBS signed
 * 64-bit limbs of 32 bits each (bit 0 weighs 2^-2148), each product added
 * or subtracted in 32-bit pieces: a limb moves by less than 2^32 a product,
 * so 2^20 products (K up to 2^20) never overflow it before the carries are
 * propagated once at the end. Then the top 65 or more bits and a sticky bit
 * are rounded by the model's one rounding (mfmt_round). */
#ifndef TC_EXACT_DOT_CORE_H
#define TC_EXACT_DOT_CORE_H

#include "oracle/model_core.h"

#define EXACT_DOT_BIAS 2148              /* -(smallest product lsb exponent) */
#define EXACT_DOT_LIMBS 136              /* 4196 bits of products, 20 of carries, a sign: 4352 */
#define EXACT_DOT_MAX_K (1 << 20)

/* Significand and lsb exponent of a finite double's bits; false for Inf/NaN. */
static inline TC_HD bool exact_dot_decode(uint64_t u, uint64_t *sig, int *lsb)
{
    int e = (int)((u >> 52) & 0x7ff);
    if (e == 0x7ff)
        return false;
    *sig = (u & ((UINT64_C(1) << 52) - 1)) | (e ? UINT64_C(1) << 52 : 0);
    *lsb = (e ? e : 1) - 1075;
    return true;
}

/* sum_{q<k} a[q * sa] * b[q * sb] (double bits) rounded to f64 (RNE, Inf on
 * overflow; an exact zero is +0). 0 with *out, or -1 for a non-finite
 * operand or k over EXACT_DOT_MAX_K (the caller's oracle computes those). */
static inline TC_HD int exact_dot_f64(const mfmt *f64, int k, const uint64_t *a, size_t sa, const uint64_t *b,
                                      size_t sb, uint64_t *out)
{
    int64_t limb[EXACT_DOT_LIMBS];
    if (k > EXACT_DOT_MAX_K)
        return -1;
    for (int i = 0; i < EXACT_DOT_LIMBS; i++)
        limb[i] = 0;
    for (int q = 0; q < k; q++) {
        uint64_t x = a[(size_t)q * sa], y = b[(size_t)q * sb], mx, my;
        int lx, ly;
        if (!exact_dot_decode(x, &mx, &lx) || !exact_dot_decode(y, &my, &ly))
            return -1;
        if (!mx || !my)
            continue;
        u128 p = (u128)mx * my;
        int pos = lx + ly + EXACT_DOT_BIAS, at = pos >> 5, s = pos & 31;
        bool neg = ((x ^ y) >> 63) != 0;
        /* the first piece: the low 32 - s bits of p at bit s of limb at */
        int64_t piece = (int64_t)(((uint64_t)p << s) & 0xffffffffu);
        limb[at] += neg ? -piece : piece;
        p >>= 32 - s;
        for (int i = at + 1; p != 0; i++, p >>= 32) {
            piece = (int64_t)((uint64_t)p & 0xffffffffu);
            limb[i] += neg ? -piece : piece;
        }
    }
    /* carries up; a negative total is negated and carried again */
    for (int i = 0; i + 1 < EXACT_DOT_LIMBS; i++) {
        int64_t c = limb[i] >> 32;
        limb[i] -= c * ((int64_t)1 << 32);
        limb[i + 1] += c;
    }
    int sign = limb[EXACT_DOT_LIMBS - 1] < 0;
    if (sign) {
        for (int i = 0; i < EXACT_DOT_LIMBS; i++)
            limb[i] = -limb[i];
        for (int i = 0; i + 1 < EXACT_DOT_LIMBS; i++) {
            int64_t c = limb[i] >> 32;
            limb[i] -= c * ((int64_t)1 << 32);
            limb[i + 1] += c;
        }
    }
    int h = EXACT_DOT_LIMBS - 1;
    while (h >= 0 && limb[h] == 0)
        h--;
    if (h < 0) {
        *out = 0;
        return 0;
    }
    /* the top three limbs (at least 65 bits), the rest as a sticky bit */
    u128 mag = 0;
    int lo = h >= 2 ? h - 2 : 0;
    for (int i = h; i >= lo; i--)
        mag = (mag << 32) | (uint64_t)limb[i];
    bool sticky = false;
    for (int i = 0; i < lo; i++)
        sticky = sticky || limb[i] != 0;
    mval v = mfmt_round(f64, sign, mag, lo * 32 - EXACT_DOT_BIAS, sticky, TC_RNE, false, TC_OVF_INF);
    *out = mfmt_encode(f64, v);
    return 0;
}

#endif
