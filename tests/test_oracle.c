/* The exact oracle on sums a person can check by hand: cancellation, tails
 * only an exact sum keeps, overflow, NaN, signed zeros, subnormal results,
 * every rounding mode on one sum; and the error metrics' definitions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"
#include "oracle/oracle.h"

static const tc_rounding RNE = {TC_RNE, TC_OVF_INF, false, 0, false};

static tc_rounding mode(tc_round m)
{
    tc_rounding r = RNE;
    r.mode = m;
    return r;
}

/* Bits of a value that f must hold exactly (the test fails otherwise). */
static uint64_t B(const tc_format *f, double x)
{
    uint64_t b = tc_encode_f64(f, x, RNE);
    assert_true(tc_decode_to_f64(f, b) == x || (isnan(x) && isnan(tc_decode_to_f64(f, b))));
    return b;
}

static double D(const tc_format *f, uint64_t bits)
{
    return tc_decode_to_f64(f, bits);
}

static const oracle_formats F32 = {&tc_f32, &tc_f32, &tc_f32, &tc_f32};

/* d = sum a[i]*1 + c in f32, every value given as a double. */
static uint64_t sum_f32(int k, const double *a, double c, tc_rounding r)
{
    uint64_t ab[16], bb[16];
    for (int i = 0; i < k; i++) {
        ab[i] = B(&tc_f32, a[i]);
        bb[i] = B(&tc_f32, 1.0);
    }
    return oracle_dot_exact(F32, k, ab, bb, B(&tc_f32, c), r);
}

static void exact_cancellation_leaves_the_small_term(void **state)
{
    double a[] = {0x1p100, 1.0, -0x1p100};
    assert_true(D(&tc_f32, sum_f32(3, a, 0, RNE)) == 1.0);
    double b[] = {0x1.fffffep100, 0x1p-100, -0x1.fffffep100};
    assert_true(D(&tc_f32, sum_f32(3, b, 0x1p-120, RNE)) == 0x1p-100 + 0x1p-120);
    /* The exact value keeps every bit: 2^-100 + 2^-149 */
    mpfr_t v, want;
    mpfr_inits2(64, v, want, (mpfr_ptr)0);
    uint64_t ab[3] = {B(&tc_f32, 0x1p100), B(&tc_f32, 0x1p-100), B(&tc_f32, -0x1p100)};
    uint64_t bb[3] = {B(&tc_f32, 1), B(&tc_f32, 1), B(&tc_f32, 1)};
    oracle_dot_value(F32, 3, ab, bb, 1 /* 2^-149 */, v);
    mpfr_set_ui_2exp(want, (1ul << 49) + 1, -149, MPFR_RNDN);
    assert_int_equal(mpfr_cmp(v, want), 0);
    mpfr_clears(v, want, (mpfr_ptr)0);
}

static void tail_below_half_ulp_breaks_the_tie(void **state)
{
    /* 1 + 2^-24 is a tie in f32 (ulp 2^-23): RNE goes to 1. A tail of
     * 2^-70, or a product 2^-100 * 2^-100, makes it round up: only an exact
     * sum sees it. */
    double tie[] = {1.0, 0x1p-24};
    assert_true(D(&tc_f32, sum_f32(2, tie, 0, RNE)) == 1.0);
    double tail[] = {1.0, 0x1p-24, 0x1p-70};
    assert_true(D(&tc_f32, sum_f32(3, tail, 0, RNE)) == 1.0 + 0x1p-23);
    double neg_tail[] = {1.0, 0x1p-24, -0x1p-70};
    assert_true(D(&tc_f32, sum_f32(3, neg_tail, 0, RNE)) == 1.0);
    uint64_t a[3] = {B(&tc_f32, 1), B(&tc_f32, 0x1p-24), B(&tc_f32, 0x1p-100)};
    uint64_t b[3] = {B(&tc_f32, 1), B(&tc_f32, 1), B(&tc_f32, 0x1p-100)};
    assert_true(D(&tc_f32, oracle_dot_exact(F32, 3, a, b, 0, RNE)) == 1.0 + 0x1p-23);
    /* The same in f64 with a 2^-2000 tail (products of subnormal range). */
    oracle_formats f64 = {&tc_f64, &tc_f64, &tc_f64, &tc_f64};
    uint64_t x[3] = {B(&tc_f64, 1), B(&tc_f64, 0x1p-53), B(&tc_f64, 0x1p-1000)};
    uint64_t y[3] = {B(&tc_f64, 1), B(&tc_f64, 1), B(&tc_f64, 0x1p-1000)};
    assert_true(D(&tc_f64, oracle_dot_exact(f64, 3, x, y, B(&tc_f64, 0), RNE)) == 1.0 + 0x1p-52);
    x[2] = B(&tc_f64, -0x1p-1000);
    assert_true(D(&tc_f64, oracle_dot_exact(f64, 3, x, y, B(&tc_f64, 0), RNE)) == 1.0);
}

static void every_mode_on_one_sum(void **state)
{
    struct {
        tc_round m;
        double pos, neg;   /* results of +(1 + 2^-24) and -(1 + 2^-24) */
    } t[] = {
        {TC_RNE, 1.0, -1.0},
        {TC_RNA, 1.0 + 0x1p-23, -1.0 - 0x1p-23},
        {TC_RZ, 1.0, -1.0},
        {TC_RU, 1.0 + 0x1p-23, -1.0},
        {TC_RD, 1.0, -1.0 - 0x1p-23},
        {TC_RO, 1.0 + 0x1p-23, -1.0 - 0x1p-23},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double p[] = {1.0, 0x1p-24}, n[] = {-1.0, -0x1p-24};
        assert_true(D(&tc_f32, sum_f32(2, p, 0, mode(t[i].m))) == t[i].pos);
        assert_true(D(&tc_f32, sum_f32(2, n, 0, mode(t[i].m))) == t[i].neg);
    }
    /* 1 + 3*2^-25 (above the tie): nearest modes go up, RZ stays. */
    double q[] = {1.0, 0x1p-24, 0x1p-25};
    assert_true(D(&tc_f32, sum_f32(3, q, 0, mode(TC_RNE))) == 1.0 + 0x1p-23);
    assert_true(D(&tc_f32, sum_f32(3, q, 0, mode(TC_RNA))) == 1.0 + 0x1p-23);
    assert_true(D(&tc_f32, sum_f32(3, q, 0, mode(TC_RZ))) == 1.0);
}

static void overflow_to_inf_or_max_by_mode(void **state)
{
    oracle_formats h = {&tc_f16, &tc_f16, &tc_f16, &tc_f16};
    uint64_t a[2] = {B(&tc_f16, 65504), B(&tc_f16, 65504)};
    uint64_t b[2] = {B(&tc_f16, 1), B(&tc_f16, 1)};
    uint64_t c = B(&tc_f16, 0);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RNE)), 0x7C00);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RZ)), 0x7BFF);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RU)), 0x7C00);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RD)), 0x7BFF);
    b[0] = b[1] = B(&tc_f16, -1);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RNE)), 0xFC00);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RZ)), 0xFBFF);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RU)), 0xFBFF);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, mode(TC_RD)), 0xFC00);
    /* Overflowing intermediate sums do not matter: only the exact total. */
    uint64_t x[3] = {B(&tc_f16, 65504), B(&tc_f16, 65504), B(&tc_f16, -65504)};
    uint64_t y[3] = {B(&tc_f16, 1), B(&tc_f16, 1), B(&tc_f16, 1)};
    assert_int_equal(oracle_dot_exact(h, 3, x, y, c, RNE), 0x7BFF);
    /* Satfinite: max in every mode. */
    tc_rounding sat = RNE;
    sat.ovf = TC_OVF_SAT;
    b[0] = b[1] = B(&tc_f16, 1);
    assert_int_equal(oracle_dot_exact(h, 2, a, b, c, sat), 0x7BFF);
}

static void nan_and_inf_follow_ieee(void **state)
{
    uint64_t inf = 0x7F800000, ninf = 0xFF800000, nan = 0x7FC00001;
    uint64_t one = B(&tc_f32, 1), zero = B(&tc_f32, 0);
    uint64_t a[2], b[2] = {one, one};
    /* NaN anywhere -> the format's NaN */
    a[0] = nan;
    a[1] = one;
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, zero, RNE), tc_f32.nan_bits);
    a[0] = one;
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, nan, RNE), tc_f32.nan_bits);
    /* 0 * Inf */
    a[0] = inf;
    b[0] = zero;
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, one, RNE), tc_f32.nan_bits);
    /* Inf - Inf between products, and between a product and C */
    b[0] = one;
    a[1] = ninf;
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, one, RNE), tc_f32.nan_bits);
    a[1] = one;
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, ninf, RNE), tc_f32.nan_bits);
    /* Inf + finite = Inf, of the product's sign */
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, one, RNE), inf);
    b[0] = B(&tc_f32, -2);
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, one, RNE), ninf);
    /* Finite products whose sum overflows f32 are not Inf - Inf: no NaN */
    uint64_t big = B(&tc_f32, 0x1p127);
    uint64_t p[2] = {big, big}, q[2] = {big, B(&tc_f32, -0x1p127)};
    assert_int_equal(oracle_dot_exact(F32, 2, p, q, one, RNE), one);
    /* The exact value is NaN / Inf too */
    mpfr_t v;
    mpfr_init2(v, 53);
    a[0] = inf;
    b[0] = zero;
    oracle_dot_value(F32, 2, a, b, one, v);
    assert_true(mpfr_nan_p(v));
    b[0] = one;
    oracle_dot_value(F32, 2, a, b, one, v);
    assert_true(mpfr_inf_p(v) && mpfr_sgn(v) > 0);
    mpfr_clear(v);
}

static void signed_zeros_follow_ieee(void **state)
{
    uint64_t pz = B(&tc_f32, 0), nz = 0x80000000, one = B(&tc_f32, 1), m1 = B(&tc_f32, -1);
    uint64_t a[2], b[2];
    /* -0 * 1 + -0 = -0 (all terms -0) */
    a[0] = nz;
    b[0] = one;
    assert_int_equal(oracle_dot_exact(F32, 1, a, b, nz, RNE), nz);
    /* -0 * 1 + +0 = +0, but -0 under RD */
    assert_int_equal(oracle_dot_exact(F32, 1, a, b, pz, RNE), pz);
    assert_int_equal(oracle_dot_exact(F32, 1, a, b, pz, mode(TC_RD)), nz);
    /* 0 * -1 + -0 = -0 */
    a[0] = pz;
    b[0] = m1;
    assert_int_equal(oracle_dot_exact(F32, 1, a, b, nz, RNE), nz);
    /* x + (-x) = +0 in every mode but RD, which gives -0 */
    a[0] = one;
    a[1] = one;
    b[0] = one;
    b[1] = m1;
    tc_round modes[] = {TC_RNE, TC_RNA, TC_RZ, TC_RU, TC_RO};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        assert_int_equal(oracle_dot_exact(F32, 2, a, b, nz, mode(modes[i])), pz);
    assert_int_equal(oracle_dot_exact(F32, 2, a, b, nz, mode(TC_RD)), nz);
    /* A nonzero result that underflows keeps its sign: -2^-100 * 2^-100 */
    a[0] = B(&tc_f32, -0x1p-100);
    b[0] = B(&tc_f32, 0x1p-100);
    assert_int_equal(oracle_dot_exact(F32, 1, a, b, pz, RNE), nz);
    assert_int_equal(oracle_dot_exact(F32, 1, a, b, pz, mode(TC_RD)), 0x80000001);
    /* K = 0: d is c */
    assert_int_equal(oracle_dot_exact(F32, 0, a, b, nz, RNE), nz);
    /* A tile without C adds +0: -0 * 1 gives +0, -0 under RD */
    uint64_t d;
    a[0] = nz;
    b[0] = one;
    oracle_mma_exact(F32, 1, 1, 1, 1, a, b, NULL, &d, RNE);
    assert_int_equal(d, pz);
    oracle_mma_exact(F32, 1, 1, 1, 1, a, b, NULL, &d, mode(TC_RD));
    assert_int_equal(d, nz);
}

/* Results in the subnormal range of each output format, rounded there. */
static void subnormal_results_in_each_output_format(void **state)
{
    const tc_format *outs[] = {&tc_f16, &tc_bf16, &tc_f32, &tc_e5m2, &tc_e4m3, &tc_f64};
    for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
        const tc_format *d = outs[i];
        int p = tc_format_precision(d), emin = tc_format_emin(d);
        int se = emin - p + 1;
        double sub = ldexp(1, se);   /* least subnormal */
        oracle_formats f = {&tc_f64, &tc_f64, &tc_f64, d};
        tc_rounding sat = RNE;
        sat.ovf = TC_OVF_SAT;
        /* Values below f64's own range come as products v * 2^400 * 2^-400.
         * 3 * sub / 2 + 2^-200 sub: above the tie, to 2 sub; without the
         * tail a tie to even (2 sub); 5 sub / 2 ties to even 2 sub, RNA 3. */
        uint64_t a[2] = {B(&tc_f64, ldexp(1.5, se + 400)), B(&tc_f64, ldexp(1, se + 200))};
        uint64_t b[2] = {B(&tc_f64, 0x1p-400), B(&tc_f64, 0x1p-400)};
        uint64_t z = B(&tc_f64, 0);
        assert_true(D(d, oracle_dot_exact(f, 2, a, b, z, sat)) == 2 * sub);
        assert_true(D(d, oracle_dot_exact(f, 1, a, b, z, sat)) == 2 * sub);
        a[0] = B(&tc_f64, ldexp(2.5, se + 400));
        assert_true(D(d, oracle_dot_exact(f, 1, a, b, z, sat)) == 2 * sub);
        tc_rounding rna = sat;
        rna.mode = TC_RNA;
        assert_true(D(d, oracle_dot_exact(f, 1, a, b, z, rna)) == 3 * sub);
        /* half the least subnormal: 0 under RNE, sub under RU and RNA */
        a[0] = B(&tc_f64, ldexp(0.5, se + 400));
        assert_true(D(d, oracle_dot_exact(f, 1, a, b, z, sat)) == 0);
        tc_rounding ru = sat;
        ru.mode = TC_RU;
        assert_true(D(d, oracle_dot_exact(f, 1, a, b, z, ru)) == sub);
        assert_true(D(d, oracle_dot_exact(f, 1, a, b, z, rna)) == sub);
    }
}

static void integer_mma_is_exact(void **state)
{
    oracle_formats f = {&tc_s8, &tc_s8, &tc_s32, &tc_s32};
    uint64_t a[4] = {0x80, 0x7F, 0xFF, 0x01};   /* -128, 127, -1, 1 */
    uint64_t b[4] = {0x80, 0x80, 0x05, 0x7F};   /* -128, -128, 5, 127 */
    /* 16384 - 16256 - 5 + 127 + 1000 = 1250 */
    assert_int_equal(oracle_dot_exact(f, 4, a, b, 1000, RNE), 1250);
    assert_int_equal(oracle_dot_exact(f, 4, a, b, (uint64_t)(uint32_t)-1250, RNE),
                     (uint64_t)(uint32_t)-1000);
}

/* The int64 path (oracle_mma_int) gives the general oracle's saturated
 * answer on every element, for each s8/u8 pairing, with accumulators next to
 * both s32 limits so that sums cross them; and its wrapped answer is that
 * sum modulo 2^32, the sum taken here through the formats' own decoding. */
static void integer_mma_int64_path_is_the_oracle(void **state)
{
    const tc_format *ab[2] = {&tc_s8, &tc_u8};
    int m = 16, n = 8, k = 32;
    size_t nt = 64, per = (size_t)m * n;
    uint64_t *A = malloc(nt * m * k * 8), *Bm = malloc(nt * k * n * 8), *C = malloc(nt * per * 8);
    uint64_t *E = malloc(nt * per * 8), *S = malloc(nt * per * 8), *W = malloc(nt * per * 8);
    assert_non_null(A), assert_non_null(Bm), assert_non_null(C), assert_non_null(E), assert_non_null(S);
    assert_non_null(W);
    uint64_t st = 1;
    size_t crossed = 0;
    for (int fa = 0; fa < 2; fa++)
        for (int fb = 0; fb < 2; fb++) {
            oracle_formats f = {ab[fa], ab[fb], &tc_s32, &tc_s32};
            for (size_t i = 0; i < nt * m * k; i++)
                A[i] = (st = st * 6364136223846793005ull + 1442695040888963407ull) >> 56;
            for (size_t i = 0; i < nt * k * n; i++)
                Bm[i] = (st = st * 6364136223846793005ull + 1442695040888963407ull) >> 56;
            for (size_t i = 0; i < nt * per; i++) {
                st = st * 6364136223846793005ull + 1442695040888963407ull;
                C[i] = i % 3 == 0 ? 0x7FFF0000u + (st >> 48) : i % 3 == 1 ? 0x80000000u + (st >> 48) : st >> 32;
            }
            assert_int_equal(oracle_mma_int(f, m, n, k, nt, A, Bm, C, S, W), 0);
            oracle_mma_exact(f, m, n, k, nt, A, Bm, C, E, RNE);
            for (size_t t = 0; t < nt; t++)
                for (int i = 0; i < m; i++)
                    for (int j = 0; j < n; j++) {
                        size_t o = t * per + (size_t)i * n + (size_t)j;
                        assert_int_equal(S[o], E[o]);
                        int64_t sum = (int64_t)D(&tc_s32, C[o]);
                        for (int kk = 0; kk < k; kk++)
                            sum += (int64_t)D(f.a, A[(t * m + i) * k + kk]) * (int64_t)D(f.b, Bm[(t * k + kk) * n + j]);
                        assert_int_equal(W[o], (uint64_t)sum & 0xFFFFFFFFu);
                        crossed += W[o] != S[o];
                    }
        }
    assert_true(crossed > 100); /* the limits were crossed, both ways of answering were tried */
    /* formats it does not hold exactly are refused, nothing written */
    oracle_formats fl = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};
    assert_int_equal(oracle_mma_int(fl, m, n, k, nt, A, Bm, C, S, W), -1);
    oracle_formats wide = {&tc_s32, &tc_s8, &tc_s32, &tc_s32};
    assert_int_equal(oracle_mma_int(wide, m, n, k, nt, A, Bm, C, S, W), -1);
    free(A), free(Bm), free(C), free(E), free(S), free(W);
}

/* The tile form agrees with one dot per element, for every layout index. */
static void mma_tiles_match_dots(void **state)
{
    int m = 3, n = 5, k = 7;
    size_t nt = 400;   /* 400 * 15 * 8 terms: big enough to run on several threads */
    oracle_formats f = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};
    uint64_t *A = malloc(nt * m * k * 8), *Bm = malloc(nt * k * n * 8), *C = malloc(nt * m * n * 8);
    uint64_t *Dm = malloc(nt * m * n * 8);
    srand(7);
    for (size_t i = 0; i < nt * m * k; i++)
        A[i] = (uint64_t)(rand() & 0x7BFF) | (rand() & 1 ? 0x8000 : 0);
    for (size_t i = 0; i < nt * k * n; i++)
        Bm[i] = (uint64_t)(rand() & 0x7BFF) | (rand() & 1 ? 0x8000 : 0);
    for (size_t i = 0; i < nt * m * n; i++)
        C[i] = (uint64_t)rand() & 0x7F7FFFFF;
    oracle_mma_exact(f, m, n, k, nt, A, Bm, C, Dm, RNE);
    for (size_t t = 0; t < nt; t++)
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                uint64_t arow[7], bcol[7];
                for (int kk = 0; kk < k; kk++) {
                    arow[kk] = A[t * m * k + i * k + kk];
                    bcol[kk] = Bm[t * k * n + kk * n + j];
                }
                size_t e = t * m * n + i * n + j;
                assert_int_equal(Dm[e], oracle_dot_exact(f, k, arow, bcol, C[e], RNE));
            }
    free(A);
    free(Bm);
    free(C);
    free(Dm);
}

static void round_mpfr_value_once(void **state)
{
    mpfr_t x;
    mpfr_init2(x, 200);
    /* 1 + 2^-11 + 2^-150 into f16: above the tie by 2^-150 -> up */
    mpfr_set_ui(x, 1, MPFR_RNDN);
    mpfr_add_d(x, x, 0x1p-11, MPFR_RNDN);
    mpfr_t t;
    mpfr_init2(t, 2);
    mpfr_set_ui_2exp(t, 1, -150, MPFR_RNDN);
    mpfr_add(x, x, t, MPFR_RNDN);
    assert_int_equal(oracle_round(&tc_f16, x, RNE), 0x3C01);
    mpfr_sub(x, x, t, MPFR_RNDN);
    mpfr_sub(x, x, t, MPFR_RNDN);
    assert_int_equal(oracle_round(&tc_f16, x, RNE), 0x3C00);
    mpfr_set_nan(x);
    assert_int_equal(oracle_round(&tc_f16, x, RNE), tc_f16.nan_bits);
    mpfr_set_inf(x, -1);
    assert_int_equal(oracle_round(&tc_f16, x, RNE), 0xFC00);
    mpfr_set_zero(x, -1);
    assert_int_equal(oracle_round(&tc_f16, x, RNE), 0x8000);
    mpfr_clears(x, t, (mpfr_ptr)0);
}

/* ---- metrics ------------------------------------------------------------- */

static void set_exact(mpfr_t x, const tc_format *f, uint64_t bits)
{
    mpfr_set_prec(x, 64);
    mpfr_set_d(x, D(f, bits), MPFR_RNDN);
}

static void neighbours_are_one_ulp_away(void **state)
{
    const tc_format *fs[] = {&tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_f32, &tc_f64};
    mpfr_t x;
    mpfr_init2(x, 64);
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        const tc_format *f = fs[i];
        int p = tc_format_precision(f);
        /* 1.5 (mid-binade), a subnormal, and their neighbours by code. */
        double vals[] = {1.5, 3 * ldexp(1, tc_format_emin(f) - p + 1), -1.5};
        for (size_t v = 0; v < 3; v++) {
            uint64_t b = B(f, vals[v]);
            set_exact(x, f, b);
            assert_true(oracle_err_ulps(f, b, x) == 0);
            double up = vals[v] > 0 ? 1 : -1;   /* code + 1 moves away from zero */
            assert_true(oracle_err_ulps(f, b + 1, x) == up);
            assert_true(oracle_err_ulps(f, b - 1, x) == -up);
            assert_true(oracle_correct_bits(f, b, x) == p + 1);
        }
        /* At a power of two the binade below is finer: -1/2. */
        uint64_t one = B(f, 1.0);
        set_exact(x, f, one);
        assert_true(oracle_err_ulps(f, one + 1, x) == 1);
        assert_true(oracle_err_ulps(f, one - 1, x) == -0.5);
        /* x = 0: the least subnormal is one ulp */
        mpfr_set_zero(x, 1);
        assert_true(oracle_err_ulps(f, 1, x) == 1);
        assert_true(isinf(oracle_err_rel(f, 1, x)));
    }
    mpfr_clear(x);
}

static void ulps_are_exact_beyond_double(void **state)
{
    mpfr_t x, t;
    mpfr_init2(x, 2000);
    mpfr_init2(t, 2);
    /* x = 1 + 2^-1000: got = 1 in f16 is -2^-990 ulps, not 0 */
    mpfr_set_ui(x, 1, MPFR_RNDN);
    mpfr_set_ui_2exp(t, 1, -1000, MPFR_RNDN);
    mpfr_add(x, x, t, MPFR_RNDN);
    double u = oracle_err_ulps(&tc_f16, 0x3C00, x);
    assert_true(u == -0x1p-990);
    /* x = 1 + 2^-30: -2^-20 ulps, rel = 2^-30/(1+2^-30), 30 correct bits
     * capped at p + 1 = 12 */
    mpfr_set_ui(x, 1, MPFR_RNDN);
    mpfr_set_ui_2exp(t, 1, -30, MPFR_RNDN);
    mpfr_add(x, x, t, MPFR_RNDN);
    assert_true(oracle_err_ulps(&tc_f16, 0x3C00, x) == -0x1p-20);
    assert_true(oracle_err_rel(&tc_f16, 0x3C00, x) == 0x1p-30 / (1 + 0x1p-30));
    assert_true(oracle_correct_bits(&tc_f16, 0x3C00, x) == 12);
    /* got two ulps above 1 + 2^-30: about 2^-9 relative, ~9 bits */
    double bits = oracle_correct_bits(&tc_f16, 0x3C02, x);
    assert_true(bits > 8.9 && bits < 9.1);
    mpfr_clears(x, t, (mpfr_ptr)0);
}

/* Random exact values (100 bits, binades across f16's whole range, the
 * subnormals included): the RNE result is within 1/2 ulp, RZ within 1 ulp
 * and not above |x|; inside one binade consecutive codes are exactly one
 * ulp apart; rel = |ulps| * ulp / |x|. */
static void metrics_properties_on_random_values(void **state)
{
    const tc_format *f = &tc_f16;
    mpfr_t x[64], t;
    uint64_t got[64];
    oracle_err e[64], up[64];
    mpfr_init2(t, 200);
    srand(5);
    for (int i = 0; i < 64; i++) {
        mpfr_init2(x[i], 100);
        mpfr_set_ui(x[i], (unsigned long)rand() | 1ul << 40, MPFR_RNDN);
        mpfr_mul_2si(x[i], x[i], -40 + (rand() % 42) - 26, MPFR_RNDN);   /* [2^-26, 2^16) */
        mpfr_set_ui(t, (unsigned long)rand(), MPFR_RNDN);
        mpfr_mul_2si(t, t, (long)mpfr_get_exp(x[i]) - 90, MPFR_RNDN);   /* bits far below */
        mpfr_add(x[i], x[i], t, MPFR_RNDN);
        if (rand() & 1)
            mpfr_neg(x[i], x[i], MPFR_RNDN);
    }
    tc_round modes[] = {TC_RNE, TC_RZ};
    for (int mi = 0; mi < 2; mi++) {
        for (int i = 0; i < 64; i++)
            got[i] = oracle_round(f, x[i], mode(modes[mi]));
        oracle_err_vec(f, 64, got, (const mpfr_t *)x, e);
        for (int i = 0; i < 64; i++) {
            if (tc_classify(f, got[i]) == TC_INF)
                continue;   /* beyond 65504 */
            assert_true(fabs(e[i].ulps) <= (modes[mi] == TC_RNE ? 0.5 : 1.0));
            if (modes[mi] == TC_RZ)
                assert_true(e[i].ulps * mpfr_sgn(x[i]) <= 0);
            uint64_t next = got[i] + 1;   /* one code further from zero */
            oracle_err_vec(f, 1, &next, (const mpfr_t *)&x[i], &up[i]);
            long ue = oracle_ulp_exp(f, x[i]);
            /* got, next and x in one binade (or the subnormals): exactly one
             * ulp more (and exactly 1 when the errors are exact in double,
             * as in neighbours_are_one_ulp_away) */
            mpfr_set_d(t, D(f, got[i]), MPFR_RNDN);
            bool same = oracle_ulp_exp(f, t) == ue;
            mpfr_set_d(t, D(f, next), MPFR_RNDN);
            same = same && oracle_ulp_exp(f, t) == ue && tc_classify(f, next) == TC_FINITE;
            if (same) {
                double d = up[i].ulps - e[i].ulps;
                /* each error is rounded to double once: equal to 2^-50 */
                assert_true(fabs(d - (mpfr_sgn(x[i]) > 0 ? 1 : -1)) <= 0x1p-50);
            }
            mpfr_set_d(t, fabs(e[i].ulps), MPFR_RNDN);
            mpfr_mul_2si(t, t, ue, MPFR_RNDN);
            mpfr_div(t, t, x[i], MPFR_RNDN);
            assert_true(fabs(fabs(mpfr_get_d(t, MPFR_RNDN)) - e[i].rel) <= 1e-12 * e[i].rel);
        }
    }
    for (int i = 0; i < 64; i++)
        mpfr_clear(x[i]);
    mpfr_clear(t);
}

static void integer_formats_have_unit_ulp(void **state)
{
    mpfr_t x;
    mpfr_init2(x, 64);
    mpfr_set_d(x, 1000.25, MPFR_RNDN);
    assert_int_equal(oracle_ulp_exp(&tc_s32, x), 0);
    assert_true(oracle_err_ulps(&tc_s32, 1000, x) == -0.25);
    assert_true(oracle_err_ulps(&tc_s32, 1002, x) == 1.75);
    mpfr_clear(x);
}

static void special_errors(void **state)
{
    mpfr_t x;
    mpfr_init2(x, 53);
    mpfr_set_nan(x);
    assert_true(oracle_err_ulps(&tc_f32, tc_f32.nan_bits, x) == 0);
    assert_true(isnan(oracle_err_ulps(&tc_f32, 0x3F800000, x)));
    mpfr_set_inf(x, 1);
    assert_true(oracle_err_ulps(&tc_f32, 0x7F800000, x) == 0);
    assert_true(oracle_err_ulps(&tc_f32, 0x7F7FFFFF, x) == -INFINITY);
    mpfr_set_d(x, 1.0, MPFR_RNDN);
    assert_true(oracle_err_ulps(&tc_f32, 0x7F800000, x) == INFINITY);
    assert_true(isnan(oracle_err_ulps(&tc_f32, tc_f32.nan_bits, x)));
    /* Above max the top binade's ulp is used: 2^128 vs max */
    mpfr_set_ui_2exp(x, 1, 128, MPFR_RNDN);
    assert_true(oracle_err_ulps(&tc_f32, 0x7F7FFFFF, x) == -1);
    mpfr_clear(x);
}

/* A batch judged against itself: the correctly rounded bits are within half
 * an ulp, one code away is more than half and at most 3/2 (at a binade edge
 * the lower neighbour is 1/2 of the upper binade's ulp). */
static void batch_errors_and_summary(void **state)
{
    int m = 4, n = 4, k = 16;
    size_t nt = 64, ne = nt * m * n;
    oracle_formats f = {&tc_bf16, &tc_bf16, &tc_f32, &tc_f32};
    uint64_t *A = malloc(nt * m * k * 8), *Bm = malloc(nt * k * n * 8), *C = malloc(ne * 8);
    uint64_t *Dm = malloc(ne * 8);
    oracle_err *e = malloc(ne * sizeof *e);
    srand(11);
    for (size_t i = 0; i < nt * m * k; i++)
        A[i] = (uint64_t)(0x3C00 + (rand() & 0x7FF)) | (rand() & 1 ? 0x8000 : 0);
    for (size_t i = 0; i < nt * k * n; i++)
        Bm[i] = (uint64_t)(0x3C00 + (rand() & 0x7FF)) | (rand() & 1 ? 0x8000 : 0);
    for (size_t i = 0; i < ne; i++)
        C[i] = 0x3F000000u + ((uint64_t)rand() & 0xFFFFFF);
    oracle_mma_exact(f, m, n, k, nt, A, Bm, C, Dm, RNE);
    oracle_mma_err(f, m, n, k, nt, A, Bm, C, Dm, e);
    oracle_err_stats s;
    oracle_err_summarize(e, ne, &s);
    assert_int_equal(s.n, ne);
    assert_int_equal(s.n_nan, 0);
    assert_int_equal(s.n_half, ne);
    assert_true(s.max_ulps <= 0.5);
    assert_true(s.min_bits >= 24);
    /* one code further from zero */
    for (size_t i = 0; i < ne; i++)
        Dm[i] += 1;
    oracle_mma_err(f, m, n, k, nt, A, Bm, C, Dm, e);
    for (size_t i = 0; i < ne; i++)
        assert_true(fabs(e[i].ulps) >= 0.5 && fabs(e[i].ulps) <= 1.5);
    oracle_err_summarize(e, ne, &s);
    assert_true(s.n_one < ne);
    assert_true(s.median_ulps >= 0.5 && s.median_ulps <= 1.5);
    free(A);
    free(Bm);
    free(C);
    free(Dm);
    free(e);
}

static void summary_statistics_by_hand(void **state)
{
    oracle_err e[5] = {{0, 0, 25}, {-0.5, 1e-8, 24}, {2, 1e-7, 20}, {NAN, NAN, 0}, {1, 1e-8, 22}};
    oracle_err_stats s;
    oracle_err_summarize(e, 5, &s);
    assert_int_equal(s.n, 5);
    assert_int_equal(s.n_nan, 1);
    assert_int_equal(s.n_exact, 1);
    assert_int_equal(s.n_half, 2);
    assert_int_equal(s.n_one, 2);
    assert_true(s.max_ulps == 2);
    assert_true(s.median_ulps == 0.75);   /* of 0, 0.5, 1, 2 */
    assert_true(s.mean_ulps == 3.5 / 4);
    assert_true(s.max_rel == 1e-7);
    assert_true(s.min_bits == 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_cancellation_leaves_the_small_term),
        cmocka_unit_test(tail_below_half_ulp_breaks_the_tie),
        cmocka_unit_test(every_mode_on_one_sum),
        cmocka_unit_test(overflow_to_inf_or_max_by_mode),
        cmocka_unit_test(nan_and_inf_follow_ieee),
        cmocka_unit_test(signed_zeros_follow_ieee),
        cmocka_unit_test(subnormal_results_in_each_output_format),
        cmocka_unit_test(integer_mma_is_exact),
        cmocka_unit_test(integer_mma_int64_path_is_the_oracle),
        cmocka_unit_test(mma_tiles_match_dots),
        cmocka_unit_test(round_mpfr_value_once),
        cmocka_unit_test(neighbours_are_one_ulp_away),
        cmocka_unit_test(ulps_are_exact_beyond_double),
        cmocka_unit_test(metrics_properties_on_random_values),
        cmocka_unit_test(integer_formats_have_unit_ulp),
        cmocka_unit_test(special_errors),
        cmocka_unit_test(batch_errors_and_summary),
        cmocka_unit_test(summary_statistics_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
