/* round: an exact MPFR value rounded once into a format.
 *
 * The value's top 64 bits plus a sticky bit carry everything a rounding into
 * any format of <= 64 bits of precision needs, so tc_encode rounds once. */
#include "oracle/oracle.h"

#include <limits.h>

uint64_t oracle_round(const tc_format *f, const mpfr_t x, tc_rounding r)
{
    tc_value v = {.cls = TC_FINITE, .sign = mpfr_signbit(x) != 0, .exp = 0, .sig = 0};
    if (mpfr_nan_p(x)) {
        v.cls = TC_NAN;
        v.sign = false;
        return tc_encode(f, v, false, r);
    }
    if (mpfr_inf_p(x)) {
        v.cls = TC_INF;
        return tc_encode(f, v, false, r);
    }
    if (mpfr_zero_p(x)) {
        v.cls = TC_ZERO;
        return tc_encode(f, v, false, r);
    }
    mpz_t z;
    mpz_init(z);
    long e = (long)mpfr_get_z_2exp(z, x);   /* x = z * 2^e exactly */
    mpz_abs(z, z);
    long bits = (long)mpz_sizeinbase(z, 2);
    bool sticky = false;
    if (bits > 64) {
        long drop = bits - 64;
        sticky = mpz_scan1(z, 0) < (mp_bitcnt_t)drop;
        mpz_tdiv_q_2exp(z, z, (mp_bitcnt_t)drop);
        e += drop;
    } else {
        mpz_mul_2exp(z, z, (mp_bitcnt_t)(64 - bits));
        e -= 64 - bits;
    }
    v.sig = (uint64_t)mpz_getlimbn(z, 0);
    mpz_clear(z);
    /* Far beyond any format's range: clamping keeps the rounding the same. */
    if (e > INT_MAX / 2)
        e = INT_MAX / 2;
    if (e < INT_MIN / 2)
        e = INT_MIN / 2;
    v.exp = (int32_t)e;
    return tc_encode(f, v, sticky, r);
}
