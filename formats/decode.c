/* bits -> exact value. */
#include <string.h>

#include "formats/formats.h"

static tc_value decode_int(const tc_format *f, uint64_t bits)
{
    tc_value v = {.cls = TC_ZERO, .sign = false, .exp = 0, .sig = 0};
    int w = f->storage_bits;
    uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
    bits &= mask;
    if (f->has_sign && (bits >> (w - 1)) & 1) {
        v.sign = true;
        bits = (~bits + 1) & mask;   /* magnitude of the two's complement */
        if (bits == 0)
            bits = 1ull << (w - 1);
    }
    if (bits) {
        v.cls = TC_FINITE;
        v.sig = bits;
    }
    return v;
}

tc_value tc_decode(const tc_format *f, uint64_t bits, bool daz)
{
    if (f->specials == TC_SPECIALS_INT)
        return decode_int(f, bits);
    tc_value v = {.cls = TC_FINITE, .sign = false, .exp = 0, .sig = 0};
    uint64_t b = (bits & tc_format_mask(f)) >> f->shift;
    uint64_t frac = b & ((1ull << f->mbits) - 1);
    uint64_t ecode = (b >> f->mbits) & ((1ull << f->ebits) - 1);
    uint64_t top = (1ull << f->ebits) - 1;
    if (f->has_sign)
        v.sign = (b >> (f->ebits + f->mbits)) & 1;

    if (f->specials == TC_SPECIALS_E8M0) {
        if (ecode == top)
            v.cls = TC_NAN;
        v.sig = 1;
        v.exp = (int32_t)ecode - f->bias;
        return v;
    }
    if (ecode == top) {
        if (f->specials == TC_SPECIALS_IEEE) {
            v.cls = frac ? TC_NAN : TC_INF;
            return v;
        }
        if (f->specials == TC_SPECIALS_FN && frac == (1ull << f->mbits) - 1) {
            v.cls = TC_NAN;
            return v;
        }
    }
    if (ecode == 0) {
        if (frac == 0 || daz) {
            v.cls = TC_ZERO;
            return v;
        }
        v.sig = frac;
        v.exp = 1 - f->bias - f->mbits;
        return v;
    }
    v.sig = frac | (1ull << f->mbits);
    v.exp = (int32_t)ecode - f->bias - f->mbits;
    return v;
}

tc_class tc_classify(const tc_format *f, uint64_t bits)
{
    return tc_decode(f, bits, false).cls;
}

/* Exact value -> double; values outside double's range become +-Inf or 0
 * (only f64 reaches them and it is exact). */
static double value_to_double(tc_value v)
{
    double d;
    switch (v.cls) {
    case TC_NAN:
        return __builtin_nan("");
    case TC_INF:
        d = __builtin_inf();
        break;
    case TC_ZERO:
        d = 0.0;
        break;
    default:
        d = __builtin_ldexp((double)v.sig, v.exp);
        break;
    }
    return v.sign ? -d : d;
}

double tc_decode_to_f64(const tc_format *f, uint64_t bits)
{
    if (f == &tc_f64 || (f->ebits == 11 && f->mbits == 52 && f->bias == 1023 &&
                         f->specials == TC_SPECIALS_IEEE && f->shift == 0)) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    return value_to_double(tc_decode(f, bits, false));
}

float tc_decode_to_f32(const tc_format *f, uint64_t bits)
{
    return (float)tc_decode_to_f64(f, bits);
}
