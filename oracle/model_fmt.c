/* The model's formats: their constants and decode. Its encode and its
 * single rounding routine (mfmt_encode, mfmt_round) are in model_core.h,
 * for the CPU and the GPU. Kept separate from formats/ so the hot path works
 * on wide fixed-point magnitudes (u128) without building tc_value first;
 * the tests check it against tc_encode. */
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
