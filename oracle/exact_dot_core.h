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

/* ---- the same sum in a 192-bit window ----------------------------------
 * Where every product of the GEMM lies in a window of the number line that
 * 192 bits hold (the data's magnitudes permitting: normal data in doubles,
 * and every sum of values rounded to FP8, FP16, BF16 or TF32 of such data),
 * three 64-bit words, two's complement, bit 0 weighing 2^base, hold the
 * exact sum in registers: no limb array in memory. The caller finds base
 * and the window's need from the operands (exact_window_of): the lowest set
 * bit of any operand of A plus that of B, and the highest, so that each
 * product p lies in [2^base, 2^(base + EXACT_WINDOW_TOP(k))) and k of them
 * never reach 2^191. A product outside (the caller's bounds wrong) makes
 * the function answer -1, the caller then summing with exact_dot_f64; the
 * rounding is exact_dot_f64's, so the bits are the same. */

/* Trailing zeros of x != 0 (model_hd.h has the leading ones). */
static inline TC_HD int exact_ctz64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return __ffsll((long long)x) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

/* The bits a product may reach above base in a sum of k < 2^kb of them: 190 - kb. */
static inline TC_HD int exact_window_top(int k)
{
    int kb = 0;
    while (kb < 31 && (1 << kb) <= k)
        kb++;
    return 190 - kb;
}

/* The exponent of the lowest set bit of a nonzero finite double's value
 * (lo) and of its highest (hi): the value lies in [2^lo, 2^(hi + 1)).
 * false for zero, Inf and NaN. */
static inline TC_HD bool exact_bit_range(uint64_t u, int *lo, int *hi)
{
    uint64_t sig;
    int lsb;
    if (!exact_dot_decode(u, &sig, &lsb) || !sig)
        return false;
    *lo = lsb + exact_ctz64(sig);
    *hi = lsb + 63 - tc_clz64(sig);
    return true;
}

static inline TC_HD int exact_dot_f64_window(const mfmt *f64, int k, const uint64_t *a, size_t sa,
                                             const uint64_t *b, size_t sb, int base, uint64_t *out)
{
    if (k > EXACT_DOT_MAX_K)
        return -1;
    int top = exact_window_top(k);
    uint64_t w0 = 0, w1 = 0, w2 = 0;
    for (int q = 0; q < k; q++) {
        uint64_t x = a[(size_t)q * sa], y = b[(size_t)q * sb], mx, my;
        int lx, ly;
        if (!exact_dot_decode(x, &mx, &lx) || !exact_dot_decode(y, &my, &ly))
            return -1;
        if (!mx || !my)
            continue;
        u128 p = (u128)mx * my;
        int pos = lx + ly - base;
        if (pos < 0) {   /* bits below base: only zeros may go */
            if (-pos > 127 || (p & ((((u128)1) << -pos) - 1)) != 0)
                return -1;
            p >>= -pos;
            pos = 0;
        }
        if (pos + bitlen128(p) > top)
            return -1;
        /* p << pos as three words: shifted within two words by r, then by whole words */
        uint64_t lo = (uint64_t)p, hi = (uint64_t)(p >> 64);
        int r = pos & 63, wsh = pos >> 6;
        uint64_t t0 = lo << r, t1 = (hi << r) | (r ? lo >> (64 - r) : 0), t2 = r ? hi >> (64 - r) : 0;
        uint64_t s0 = wsh == 0 ? t0 : 0, s1 = wsh == 0 ? t1 : wsh == 1 ? t0 : 0;
        uint64_t s2 = wsh == 0 ? t2 : wsh == 1 ? t1 : t0;
        /* add, or subtract as the complement plus one */
        uint64_t m = ((x ^ y) >> 63) ? ~UINT64_C(0) : 0, c = m & 1;
        s0 ^= m, s1 ^= m, s2 ^= m;
        uint64_t n0 = w0 + s0, c0 = n0 < w0;
        n0 += c;
        c0 += n0 < c;
        uint64_t n1 = w1 + s1, c1 = n1 < w1;
        n1 += c0;
        c1 += n1 < c0;
        w0 = n0, w1 = n1, w2 = w2 + s2 + c1;
    }
    int sign = (int)(w2 >> 63);
    if (sign) {   /* the magnitude: the complement plus one */
        w0 = ~w0, w1 = ~w1, w2 = ~w2;
        w0 += 1;
        uint64_t c0 = w0 == 0;
        w1 += c0;
        w2 += c0 & (w1 == 0);
    }
    if (!(w0 | w1 | w2)) {
        *out = 0;
        return 0;
    }
    /* the top 128 bits (all when fewer), the rest as a sticky bit */
    u128 mag;
    int lsb;
    bool sticky;
    if (w2) {
        int sh = 64 - tc_clz64(w2);   /* bits of w2: the top 128 start sh bits into w1 */
        mag = sh == 64 ? (((u128)w2 << 64) | w1) : (((u128)w2 << 64 | w1) << (64 - sh)) | (w0 >> sh);
        sticky = (sh == 64 ? w0 : w0 << (64 - sh)) != 0;
        lsb = base + sh;
    } else {
        mag = ((u128)w1 << 64) | w0;
        sticky = false;
        lsb = base;
    }
    mval v = mfmt_round(f64, sign, mag, lsb, sticky, TC_RNE, false, TC_OVF_INF);
    *out = mfmt_encode(f64, v);
    return 0;
}

#endif
