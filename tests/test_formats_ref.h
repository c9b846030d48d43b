/* An independent reference for the format tests, written with MPFR and
 * sharing no code with formats/: reads a pattern's fields into an MPFR
 * number, and rounds an MPFR number into a format by the rules of
 * formats.h (the tc_overflow table), choosing between the two neighbours
 * that MPFR's directed roundings give. */
#ifndef TC_TEST_FORMATS_REF_H
#define TC_TEST_FORMATS_REF_H

#include <mpfr.h>
#include <stdbool.h>
#include <stdint.h>

#include "formats/formats.h"

enum { REF_FIN, REF_INF, REF_NAN };

/* Format constants derived from the descriptor fields alone. */
static inline int ref_p(const tc_format *f) { return f->mbits + 1; }
static inline long ref_emin(const tc_format *f)
{
    return f->specials == TC_SPECIALS_E8M0 ? -f->bias : 1 - f->bias;
}

/* The value the fields of `bits` spell, per the format's special policy. */
static inline int ref_read_fields(const tc_format *f, uint64_t bits, mpfr_t out)
{
    uint64_t b = bits >> f->shift;
    uint64_t M = b & ((1ull << f->mbits) - 1);
    uint64_t E = (b >> f->mbits) & ((1ull << f->ebits) - 1);
    uint64_t Etop = (1ull << f->ebits) - 1;
    int s = f->has_sign ? (int)((b >> (f->ebits + f->mbits)) & 1) : 0;
    if (f->specials == TC_SPECIALS_INT) {
        int w = f->storage_bits;
        uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
        uint64_t v = bits & mask;
        if (f->has_sign && (v >> (w - 1))) {
            mpfr_set_ui(out, (unsigned long)((~v + 1) & mask), MPFR_RNDN);
            if (((~v + 1) & mask) == 0)
                mpfr_set_ui_2exp(out, 1, w - 1, MPFR_RNDN);
            mpfr_neg(out, out, MPFR_RNDN);
        } else {
            mpfr_set_ui(out, (unsigned long)v, MPFR_RNDN);
        }
        return REF_FIN;
    }
    if (f->specials == TC_SPECIALS_E8M0) {
        if (E == Etop)
            return REF_NAN;
        mpfr_set_ui_2exp(out, 1, (long)E - f->bias, MPFR_RNDN);
        return REF_FIN;
    }
    if (E == Etop && f->specials == TC_SPECIALS_IEEE) {
        if (M)
            return REF_NAN;
        mpfr_set_inf(out, s ? -1 : 1);
        return REF_INF;
    }
    if (E == Etop && f->specials == TC_SPECIALS_FN && M == (1ull << f->mbits) - 1)
        return REF_NAN;
    if (E == 0)
        mpfr_set_ui_2exp(out, (unsigned long)M, 1 - f->bias - f->mbits, MPFR_RNDN);
    else
        mpfr_set_ui_2exp(out, (unsigned long)(M | (1ull << f->mbits)),
                         (long)E - f->bias - f->mbits, MPFR_RNDN);
    if (s)
        mpfr_neg(out, out, MPFR_RNDN);   /* -0 too */
    return REF_FIN;
}

/* Largest finite magnitude, from the fields of the top finite code. */
static inline void ref_max(const tc_format *f, mpfr_t out)
{
    uint64_t allones = (1ull << (f->ebits + f->mbits)) - 1, code;
    if (f->specials == TC_SPECIALS_IEEE)
        code = allones - (1ull << f->mbits);
    else if (f->specials == TC_SPECIALS_NONE)
        code = allones;
    else
        code = allones - 1;
    ref_read_fields(f, code << f->shift, out);
}

/* The grid step (ulp) at magnitude |y| (y on the grid or between two
 * points): 2^(max(exponent, emin) - (p-1)). */
static inline long ref_ulp_exp(const tc_format *f, const mpfr_t y)
{
    long e = mpfr_zero_p(y) ? ref_emin(f) : mpfr_get_exp(y) - 1;
    if (e < ref_emin(f))
        e = ref_emin(f);
    return e - (ref_p(f) - 1);
}

/* |x| rounded down and up onto the format's grid with an unbounded
 * exponent range above (lo <= |x| <= hi), through MPFR's own subnormal
 * emulation. */
static inline void ref_neighbours(const tc_format *f, const mpfr_t ax, mpfr_t lo, mpfr_t hi)
{
    mpfr_exp_t emin0 = mpfr_get_emin();
    int p = ref_p(f);
    mpfr_t t;
    mpfr_init2(t, p);
    /* MPFR exponents are one more than the binary exponent; the smallest
     * grid point is 2^(emin - (p-1)). */
    mpfr_set_emin(ref_emin(f) - (p - 1) + 1);
    int inex = mpfr_set(t, ax, MPFR_RNDD);
    inex = mpfr_check_range(t, inex, MPFR_RNDD);
    mpfr_subnormalize(t, inex, MPFR_RNDD);
    mpfr_set(lo, t, MPFR_RNDN);
    inex = mpfr_set(t, ax, MPFR_RNDU);
    inex = mpfr_check_range(t, inex, MPFR_RNDU);
    mpfr_subnormalize(t, inex, MPFR_RNDU);
    mpfr_set(hi, t, MPFR_RNDN);
    mpfr_set_emin(emin0);
    mpfr_clear(t);
}

/* Whether grid point y (>= 0) has an odd last significand bit. */
static inline bool ref_odd(const tc_format *f, const mpfr_t y)
{
    if (mpfr_zero_p(y))
        return false;
    mpfr_t t;
    mpfr_init2(t, 256);
    mpfr_mul_2si(t, y, -ref_ulp_exp(f, y), MPFR_RNDN);   /* integer: y / ulp */
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    bool odd = !mpfr_integer_p(t);
    mpfr_clear(t);
    return odd;
}

/* The reference result: class and value (signed, -0 kept) of rounding x
 * into f with r (x exact, NaN/Inf allowed). Returns REF_FIN/REF_INF/REF_NAN;
 * a finite result is in `y`, which must have precision >= 64. */
static inline int ref_round(const tc_format *f, const mpfr_t x, tc_rounding r, mpfr_t y)
{
    bool e8m0 = f->specials == TC_SPECIALS_E8M0, none = f->specials == TC_SPECIALS_NONE;
    bool ieee = f->specials == TC_SPECIALS_IEEE;
    if (mpfr_nan_p(x))
        return none ? (ref_max(f, y), REF_FIN) : REF_NAN;
    bool neg = mpfr_signbit(x) && !e8m0;
    int sres = REF_FIN;
    mpfr_t ax, lo, hi, d1, d2, mx;
    mpfr_inits2(2048, ax, lo, hi, d1, d2, mx, (mpfr_ptr)0);
    mpfr_abs(ax, x, MPFR_RNDN);
    ref_max(f, mx);
    if (mpfr_inf_p(x)) {
        if (none || r.ovf == TC_OVF_SAT)
            mpfr_set(y, mx, MPFR_RNDN);
        else if (ieee)
            sres = REF_INF;
        else
            sres = REF_NAN;
        goto done;
    }
    if (mpfr_zero_p(ax)) {
        mpfr_set_zero(y, 1);
        if (e8m0)
            mpfr_set_ui_2exp(y, 1, -f->bias, MPFR_RNDN);
        goto done;
    }
    ref_neighbours(f, ax, lo, hi);
    bool up;
    if (mpfr_equal_p(lo, hi)) {
        up = false;
    } else {
        mpfr_sub(d1, ax, lo, MPFR_RNDN);   /* exact at 2048 bits for these inputs */
        mpfr_sub(d2, hi, ax, MPFR_RNDN);
        int c = mpfr_cmp(d1, d2);
        switch (r.mode) {
        case TC_RNE: up = c > 0 || (c == 0 && ref_odd(f, lo)); break;
        case TC_RNA: up = c >= 0; break;
        case TC_RZ: up = false; break;
        case TC_RU: up = !neg; break;
        case TC_RD: up = neg; break;
        case TC_RO: up = !ref_odd(f, lo); break;
        default: {
            /* first 32 bits of (|x| - lo) / ulp */
            mpfr_sub(d1, ax, lo, MPFR_RNDN);
            mpfr_mul_2si(d1, d1, 32 - ref_ulp_exp(f, lo), MPFR_RNDN);
            mpfr_floor(d1, d1);
            unsigned long frac = mpfr_get_ui(d1, MPFR_RNDN);
            up = frac + r.rbits >= (1ul << 32);
        }
        }
    }
    mpfr_set(y, up ? hi : lo, MPFR_RNDN);
    if (mpfr_cmp(y, mx) > 0) {
        bool away = r.mode == TC_RNE || r.mode == TC_RNA || r.mode == TC_RS ||
                    (r.mode == TC_RU && !neg) || (r.mode == TC_RD && neg);
        if (none || r.ovf == TC_OVF_SAT)
            mpfr_set(y, mx, MPFR_RNDN);
        else if (e8m0 || r.ovf == TC_OVF_NAN)
            sres = REF_NAN;
        else if (!away)
            mpfr_set(y, mx, MPFR_RNDN);
        else
            sres = ieee ? REF_INF : REF_NAN;
        goto done;
    }
    if (e8m0 && mpfr_zero_p(y))
        mpfr_set_ui_2exp(y, 1, -f->bias, MPFR_RNDN);
    if (r.ftz && !mpfr_zero_p(y) && mpfr_get_exp(y) - 1 < ref_emin(f))
        mpfr_set_zero(y, 1);
done:
    if (sres == REF_FIN && neg)
        mpfr_neg(y, y, MPFR_RNDN);
    if (sres == REF_INF)
        mpfr_set_inf(y, neg ? -1 : 1);
    mpfr_clears(ax, lo, hi, d1, d2, mx, (mpfr_ptr)0);
    return sres;
}

/* Whether `got` (bits of f) is the reference result: same class, same value,
 * same sign of zero; a NaN must be the bits the policy names: the canonical
 * f->nan_bits for a NaN input, else (overflow) S.nan_bits. */
static inline bool ref_matches(const tc_format *f, const mpfr_t x, tc_rounding r, uint64_t got)
{
    mpfr_t y, g;
    mpfr_inits2(2048, y, g, (mpfr_ptr)0);
    int want = ref_round(f, x, r, y);
    int have = ref_read_fields(f, got, g);
    bool ok = want == have;
    if (ok && want == REF_NAN) {
        uint64_t sign = (mpfr_signbit(x) && !mpfr_nan_p(x) && f->has_sign)
                            ? 1ull << (f->ebits + f->mbits) : 0;
        ok = got == (mpfr_nan_p(x) ? f->nan_bits : (f->nan_bits | (sign << f->shift)));
    } else if (ok) {
        ok = mpfr_equal_p(y, g) || (mpfr_zero_p(y) && mpfr_zero_p(g));
        if (ok && mpfr_zero_p(y))
            ok = mpfr_signbit(y) == mpfr_signbit(g);
        if (ok && want == REF_INF)
            ok = mpfr_signbit(y) == mpfr_signbit(g);
    }
    mpfr_clears(y, g, (mpfr_ptr)0);
    return ok;
}

#endif
