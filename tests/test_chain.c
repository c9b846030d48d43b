/* The chain oracle: exact steps give zero error, per-step and whole-chain
 * references agree where they must (step 1) and differ where they must
 * (later steps), the whole-chain value equals plain MPFR matrix products at
 * high precision (every operation checked exact), long chains are fast, and
 * Inf/NaN spread by the IEEE rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/formats.h"
#include "oracle/chain.h"
#include "oracle/oracle.h"

#if defined(__SANITIZE_ADDRESS__)
#define LONG_LEN 25
#else
#define LONG_LEN 100
#endif

static const tc_rounding RNE = {TC_RNE, TC_OVF_INF, false, 0, false};
static const oracle_formats H = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};

static uint64_t rng = 0x0123456789ABCDEFull;

static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Random f16 with exponent field bias + e0 + [0, spread), random sign. */
static uint64_t rand_f16(int e0, int spread)
{
    uint64_t ex = (uint64_t)(15 + e0 + (int)(rnd64() % (uint64_t)spread));
    return ((rnd64() & 1) << 15) | (ex << 10) | (rnd64() & 0x3FF);
}

static uint64_t *alloc_bits(size_t n)
{
    uint64_t *p = calloc(n ? n : 1, sizeof *p);
    assert_non_null(p);
    return p;
}

/* Plain MPFR: Y = Y*B + C at precision prec, every operation exact. */
static void slow_chain_step(mpfr_t *y, int m, int k, const uint64_t *B, const uint64_t *C,
                            const oracle_formats *f, mpfr_prec_t prec)
{
    mpfr_t *ny = malloc((size_t)m * (size_t)k * sizeof(mpfr_t));
    mpfr_t p, b;
    mpfr_init2(p, prec);
    mpfr_init2(b, 64);
    for (int r = 0; r < m; r++)
        for (int j = 0; j < k; j++) {
            mpfr_ptr acc = ny[r * k + j];
            mpfr_init2(acc, prec);
            if (C)
                mpfr_set_d(acc, tc_decode_to_f64(f->c, C[r * k + j]), MPFR_RNDN);
            else
                mpfr_set_zero(acc, 1);
            for (int kk = 0; kk < k; kk++) {
                mpfr_set_d(b, tc_decode_to_f64(f->b, B[kk * k + j]), MPFR_RNDN);
                assert_int_equal(mpfr_mul(p, y[r * k + kk], b, MPFR_RNDN), 0);
                assert_int_equal(mpfr_add(acc, acc, p, MPFR_RNDN), 0);
            }
        }
    for (int i = 0; i < m * k; i++) {
        mpfr_swap(y[i], ny[i]);
        mpfr_clear(ny[i]);
    }
    free(ny);
    mpfr_clears(p, b, (mpfr_ptr)0);
}

static void chain_of_exact_steps_has_zero_error(void **state)
{
    int m = 16, k = 16, len = 20;
    size_t mk = (size_t)m * k, kk = (size_t)k * k;
    uint64_t *A0 = alloc_bits(mk), *B = alloc_bits(len * kk);
    uint64_t *X = alloc_bits(len * mk), *D = alloc_bits(len * mk);
    oracle_err *es = malloc(len * mk * sizeof *es), *ec = malloc(len * mk * sizeof *ec);
    for (size_t i = 0; i < mk; i++)
        A0[i] = rand_f16(-1, 3);
    /* B_i: a signed permutation times 2 or 1/2 (alternating): exact in f16. */
    for (int i = 0; i < len; i++) {
        uint64_t scale = i % 2 ? 0x3800 : 0x4000;   /* 0.5 or 2 */
        int shift = (int)(rnd64() % (uint64_t)k);
        for (int r = 0; r < k; r++)
            B[i * kk + r * k + (r + shift) % k] = scale | ((rnd64() & 1) << 15);
    }
    oracle_chain_rounded(H, m, k, 1, len, A0, B, NULL, RNE, RNE, X, D);
    oracle_chain_errors(H, m, k, 1, len, A0, B, NULL, X, D, es, ec);
    for (size_t i = 0; i < len * mk; i++) {
        assert_true(es[i].ulps == 0);
        assert_true(ec[i].ulps == 0);
    }
    free(A0);
    free(B);
    free(X);
    free(D);
    free(es);
    free(ec);
}

static void per_step_and_whole_chain_errors(void **state)
{
    int m = 8, k = 16, len = 12;
    size_t nchains = 3, mk = (size_t)m * k, kk = (size_t)k * k;
    size_t per = (size_t)len * mk;
    uint64_t *A0 = alloc_bits(nchains * mk), *B = alloc_bits(nchains * len * kk);
    uint64_t *C = alloc_bits(nchains * per);
    uint64_t *X = alloc_bits(nchains * per), *D = alloc_bits(nchains * per);
    oracle_err *es = malloc(nchains * per * sizeof *es), *ec = malloc(nchains * per * sizeof *ec);
    for (size_t i = 0; i < nchains * mk; i++)
        A0[i] = rand_f16(-1, 3);
    for (size_t i = 0; i < nchains * len * kk; i++)
        B[i] = rand_f16(-5, 3);   /* entries ~1/16: the chain neither explodes nor dies */
    for (size_t i = 0; i < nchains * per; i++)
        C[i] = 0x3C000000u + (rnd64() & 0x7FFFFF) + ((rnd64() & 1) << 31);   /* +-[2^-7, 2^-6) */
    oracle_chain_rounded(H, m, k, nchains, len, A0, B, C, RNE, RNE, X, D);
    oracle_chain_errors(H, m, k, nchains, len, A0, B, C, X, D, es, ec);
    double chain_max_last = 0;
    for (size_t c = 0; c < nchains; c++) {
        /* The backend's inputs were really what it says. */
        assert_memory_equal(X + c * per, A0 + c * mk, mk * sizeof *X);
        for (size_t i = 0; i < per; i++)
            assert_true(fabs(es[c * per + i].ulps) <= 0.5);   /* each D_i correctly rounded */
        for (size_t i = 0; i < mk; i++)   /* step 1: the same exact value */
            assert_true(es[c * per + i].ulps == ec[c * per + i].ulps);
        for (size_t i = (size_t)(len - 1) * mk; i < per; i++)
            if (fabs(ec[c * per + i].ulps) > chain_max_last)
                chain_max_last = fabs(ec[c * per + i].ulps);
    }
    /* The f16 conversions between steps cost far more than half an f32 ulp. */
    assert_true(chain_max_last > 16);

    /* The whole-chain value is exactly plain MPFR's. */
    const mpfr_prec_t prec = 4000;
    mpfr_t *y = malloc(mk * sizeof(mpfr_t)), v;
    mpfr_init2(v, 64);
    for (size_t i = 0; i < mk; i++) {
        mpfr_init2(y[i], prec);
        mpfr_set_d(y[i], tc_decode_to_f64(&tc_f16, A0[i]), MPFR_RNDN);
    }
    oracle_chain *ch = oracle_chain_new(H, m, k, A0);
    for (int s = 0; s < len; s++) {
        oracle_chain_step(ch, B + (size_t)s * kk, C + (size_t)s * mk);
        slow_chain_step(y, m, k, B + (size_t)s * kk, C + (size_t)s * mk, &H, prec);
        for (int r = 0; r < m; r++)
            for (int j = 0; j < k; j++) {
                oracle_chain_value(ch, r, j, v);
                assert_true(mpfr_equal_p(v, y[r * k + j]));
                assert_int_equal(oracle_chain_round(ch, r, j, &tc_f32, RNE),
                                 oracle_round(&tc_f32, y[r * k + j], RNE));
            }
    }
    assert_int_equal(oracle_chain_len(ch), len);
    oracle_chain_free(ch);
    for (size_t i = 0; i < mk; i++)
        mpfr_clear(y[i]);
    free(y);
    mpfr_clear(v);
    free(A0);
    free(B);
    free(C);
    free(X);
    free(D);
    free(es);
    free(ec);
}

static void long_chain_k16_rounds_each_step_correctly(void **state)
{
    int m = 16, k = 16, len = LONG_LEN;
    size_t mk = (size_t)m * k, kk = (size_t)k * k;
    uint64_t *A0 = alloc_bits(mk), *B = alloc_bits(len * kk);
    uint64_t *X = alloc_bits(len * mk), *D = alloc_bits(len * mk);
    oracle_err *es = malloc(len * mk * sizeof *es), *ec = malloc(len * mk * sizeof *ec);
    for (size_t i = 0; i < mk; i++)
        A0[i] = rand_f16(-1, 3);
    for (size_t i = 0; i < len * kk; i++)
        B[i] = rand_f16(-4, 3);
    oracle_chain_rounded(H, m, k, 1, len, A0, B, NULL, RNE, RNE, X, D);
    /* Its speed is a figure of `make bench` (bench_oracle: oracle.chain.f16.f32.k16.len100), not a test. */
    oracle_chain_errors(H, m, k, 1, len, A0, B, NULL, X, D, es, ec);
    for (size_t i = 0; i < len * mk; i++)
        assert_true(fabs(es[i].ulps) <= 0.5);
    /* The last step's exact value against plain MPFR. */
    const mpfr_prec_t prec = 12000;
    mpfr_t *y = malloc(mk * sizeof(mpfr_t)), v;
    mpfr_init2(v, 64);
    for (size_t i = 0; i < mk; i++) {
        mpfr_init2(y[i], prec);
        mpfr_set_d(y[i], tc_decode_to_f64(&tc_f16, A0[i]), MPFR_RNDN);
    }
    oracle_chain *ch = oracle_chain_new(H, m, k, A0);
    for (int s = 0; s < len; s++) {
        oracle_chain_step(ch, B + (size_t)s * kk, NULL);
        slow_chain_step(y, m, k, B + (size_t)s * kk, NULL, &H, prec);
    }
    oracle_err e;
    for (int i = 0; i < m * k; i++) {
        oracle_chain_value(ch, i / k, i % k, v);
        assert_true(mpfr_equal_p(v, y[i]));
        oracle_err_of(&tc_f32, D[(size_t)(len - 1) * mk + (size_t)i], y[i], &e);
        assert_true(e.ulps == ec[(size_t)(len - 1) * mk + (size_t)i].ulps);
    }
    oracle_chain_free(ch);
    for (size_t i = 0; i < mk; i++)
        mpfr_clear(y[i]);
    free(y);
    mpfr_clear(v);
    free(A0);
    free(B);
    free(X);
    free(D);
    free(es);
    free(ec);
}

/* A0[0][0] = +Inf through B = identity: (0,0) stays +Inf, (0,j) is
 * Inf * 0 = NaN, other rows finite; next step with B = -identity: the NaNs
 * stay, (0,0) becomes -Inf... and the single-step oracle agrees. */
static void inf_and_nan_spread_by_ieee_rules(void **state)
{
    int m = 4, k = 4;
    uint64_t A0[16], I[16], N[16], D[16];
    for (int i = 0; i < 16; i++) {
        A0[i] = rand_f16(-1, 3);
        I[i] = i % 5 == 0 ? 0x3C00 : 0x0000;
        N[i] = i % 5 == 0 ? 0xBC00 : 0x0000;
    }
    A0[0] = 0x7C00;
    oracle_chain *ch = oracle_chain_new(H, m, k, A0);
    oracle_chain_step(ch, I, NULL);
    oracle_mma_exact(H, m, k, k, 1, A0, I, NULL, D, RNE);
    assert_int_equal(oracle_chain_round(ch, 0, 0, &tc_f32, RNE), 0x7F800000);
    for (int j = 1; j < k; j++)
        assert_int_equal(oracle_chain_round(ch, 0, j, &tc_f32, RNE), tc_f32.nan_bits);
    for (int i = 0; i < 16; i++)
        assert_int_equal(oracle_chain_round(ch, i / k, i % k, &tc_f32, RNE), D[i]);
    oracle_chain_step(ch, N, NULL);
    assert_int_equal(oracle_chain_round(ch, 0, 0, &tc_f32, RNE), tc_f32.nan_bits);
    mpfr_t v;
    mpfr_init2(v, 64);
    oracle_chain_value(ch, 1, 1, v);
    assert_true(mpfr_cmp_d(v, -tc_decode_to_f64(&tc_f16, A0[5])) == 0);
    mpfr_clear(v);
    oracle_chain_free(ch);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_of_exact_steps_has_zero_error),
        cmocka_unit_test(per_step_and_whole_chain_errors),
        cmocka_unit_test(long_chain_k16_rounds_each_step_correctly),
        cmocka_unit_test(inf_and_nan_spread_by_ieee_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
