/* The model's format arithmetic: decode, encode, and its single rounding
 * routine. Kept separate from formats/ so the hot path works on wide
 * fixed-point magnitudes (u128) without building tc_value first; the tests
 * check it against tc_encode. */
#include "oracle/model_internal.h"

bool mfmt_init(mfmt *out, const tc_format *f)
{
    if (!f || !f->has_sign || f->specials == TC_SPECIALS_INT || f->specials == TC_SPECIALS_E8M0)
        return false;
    if (f->ebits < 2 || f->ebits > 11 || f->mbits < 0 || f->mbits > 52)
        return false;
    out->ebits = f->ebits;
    out->mbits = f->mbits;
    out->bias = f->bias;
    out->shift = f->shift;
    out->specials = f->specials;
    out->nan_bits = f->nan_bits;
    out->emin = 1 - f->bias;
    int top = (1 << f->ebits) - 1;
    uint64_t full = (UINT64_C(1) << (f->mbits + 1)) - 1;
    switch (f->specials) {
    case TC_SPECIALS_IEEE:
        out->emax = top - 1 - f->bias;
        out->maxsig = full;
        break;
    case TC_SPECIALS_FN:   /* only the all-ones code is NaN */
        out->emax = top - f->bias;
        out->maxsig = full - 1;
        break;
    default:
        out->emax = top - f->bias;
        out->maxsig = full;
        break;
    }
    return true;
}

void mfmt_container(mfmt *out, const mfmt *f)
{
    *out = *f;
    out->mbits = f->mbits + f->shift;
    out->shift = 0;
    out->maxsig = (f->maxsig << f->shift) | ((UINT64_C(1) << f->shift) - 1);
    out->nan_bits = f->nan_bits;
}

bool model_same_format(const tc_format *x, const tc_format *y)
{
    return x->ebits == y->ebits && x->mbits == y->mbits && x->bias == y->bias &&
           x->shift == y->shift && x->specials == y->specials && x->has_sign == y->has_sign;
}

mval mfmt_decode(const mfmt *f, uint64_t bits, bool daz)
{
    return mfmt_decode_inline(f, bits, daz);
}

uint64_t mfmt_encode(const mfmt *f, mval v)
{
    int m = f->mbits;
    uint64_t sign = (uint64_t)v.sign << (m + f->ebits);
    uint64_t top = (UINT64_C(1) << f->ebits) - 1;
    uint64_t bits;
    switch (v.cls) {
    case MV_NAN:
        return f->nan_bits;
    case MV_INF:
        bits = sign | (top << m);
        break;
    case MV_ZERO:
        bits = sign;
        break;
    default: {
        uint64_t hidden = UINT64_C(1) << m;
        uint64_t biased = v.sig >= hidden ? (uint64_t)(v.e + f->bias) : 0;
        bits = sign | (biased << m) | (v.sig & (hidden - 1));
        break;
    }
    }
    return bits << f->shift;
}

/* The overflowed result, as tc_encode gives it: NaN under the NaN policy,
 * Inf where the format and the direction allow it (FN formats: NaN), else
 * the largest finite. */
static mval overflow_result(const mfmt *f, int sign, tc_round mode, tc_overflow ovf)
{
    mval v = {0};
    v.sign = (uint8_t)sign;
    bool away = mode == TC_RNE || mode == TC_RNA || (mode == TC_RU && !sign) ||
                (mode == TC_RD && sign);
    if (f->specials != TC_SPECIALS_NONE && ovf != TC_OVF_SAT) {
        if (ovf == TC_OVF_NAN || (away && f->specials == TC_SPECIALS_FN)) {
            v.cls = MV_NAN;
            return v;
        }
        if ((away || ovf == MODEL_OVF_FORCE_INF) && f->specials == TC_SPECIALS_IEEE) {
            v.cls = MV_INF;
            return v;
        }
    }
    v.cls = MV_FINITE;
    v.sig = f->maxsig;
    v.e = f->emax;
    v.lsb = f->emax - f->mbits;
    return v;
}

mval mfmt_round(const mfmt *f, int sign, u128 mag, int lsb, bool sticky,
                tc_round mode, bool ftz, tc_overflow ovf)
{
    mval v = {0};
    v.sign = (uint8_t)sign;
    int m = f->mbits;
    /* The common case first: a 64-bit magnitude that lands in the normal
     * range (overflow and the rest take the general path below). */
    if (!sticky && (uint64_t)(mag >> 64) == 0 && (uint64_t)mag != 0) {
        uint64_t q;
        int tl;
        if (mfmt_round_normal(f, sign, (uint64_t)mag, lsb, mode, &q, &tl)) {
            v.cls = MV_FINITE;
            v.sig = q;
            v.lsb = tl;
            v.e = tl + m;
            return v;
        }
    }
    if (mag == 0) {
        if (!sticky) {
            v.cls = MV_ZERO;
            return v;
        }
        /* Only "something tiny" is known: any value far below half the
         * smallest subnormal rounds the same way. */
        mag = 1;
        lsb = f->emin - m - 4;
        sticky = false;
    }
    int n = bitlen128(mag);
    int e = lsb + n - 1;
    int tl = (e > f->emin ? e : f->emin) - m;   /* weight of the result's last bit */
    int sh = tl - lsb;
    uint64_t q;
    bool half = false, rest = sticky;
    if (sh <= 0) {
        q = (uint64_t)(mag << -sh);
    } else if (sh > 128) {
        q = 0;
        rest = true;
    } else {
        q = sh >= 128 ? 0 : (uint64_t)(mag >> sh);
        half = (mag >> (sh - 1)) & 1;
        if (sh >= 2)
            rest = rest || (mag & ((((u128)1) << (sh - 1)) - 1)) != 0;
    }
    q += model_round_up(mode, sign, q & 1, half, rest);
    if (q >> (m + 1)) {
        q >>= 1;
        tl++;
    }
    if (q == 0) {
        v.cls = MV_ZERO;
        return v;
    }
    uint64_t hidden = UINT64_C(1) << m;
    if (q < hidden) {
        if (ftz) {
            v.cls = MV_ZERO;
            return v;
        }
        v.e = f->emin;
    } else {
        v.e = tl + m;
    }
    if (v.e > f->emax || (v.e == f->emax && q > f->maxsig))
        return overflow_result(f, sign, mode, ovf);
    v.cls = MV_FINITE;
    v.sig = q;
    v.lsb = tl;
    return v;
}
