/* The model against independent references:
 *  - its rounding core against tc_encode (formats/),
 *  - the exact setting against oracle_dot_exact on >= 10^6 random cases per
 *    format pair (-O2 build; fewer under ASAN),
 *  - its int128 fast path against its GMP reference (model_force_slow) on
 *    random parameters (every path: tests/test_model_reference.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/model.h"
#include "oracle/model_internal.h"
#include "oracle/oracle.h"

#if defined(__SANITIZE_ADDRESS__)
#define EQUIV_CASES 20000
#define FASTSLOW_CASES 20000
#else
#define EQUIV_CASES 1000000
#define FASTSLOW_CASES 300000
#endif

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned rndn(unsigned n)
{
    return (unsigned)(rnd64() % n);
}

/* A random finite value of f with exponent in [emin_bias + lo, .. + hi] of
 * its range; covers normal, subnormal and zero. */
static uint64_t rnd_bits_in(const tc_format *f, int elo, int ehi)
{
    int m = f->mbits;
    int top = (1 << f->ebits) - 1;
    int lo = elo < 0 ? 0 : elo, hi = ehi > top - 1 ? top - 1 : ehi;
    if (hi < lo)
        hi = lo;
    uint64_t e = (uint64_t)(lo + (int)rndn((unsigned)(hi - lo + 1)));
    uint64_t frac = rnd64() & ((1ull << m) - 1);
    uint64_t s = rnd64() & 1;
    uint64_t bits = (s << (f->ebits + m)) | (e << m) | frac;
    if (f->specials == TC_SPECIALS_FN && e == (uint64_t)top && frac == (1ull << m) - 1)
        bits ^= 1;   /* keep it finite */
    return bits << f->shift;
}

/* Inputs from one of several distributions: uniform bit patterns (specials
 * included), values near 1, the whole exponent range, cancelling pairs. */
static void rnd_inputs(oracle_formats f, int k, uint64_t *a, uint64_t *b, uint64_t *c, int dist)
{
    int ta = (1 << f.a->ebits) - 1, tb = (1 << f.b->ebits) - 1, tcx = (1 << f.c->ebits) - 1;
    for (int i = 0; i < k; i++) {
        switch (dist) {
        case 0:
            a[i] = (rnd64() & tc_format_mask(f.a)) & ~((1ull << f.a->shift) - 1);
            b[i] = (rnd64() & tc_format_mask(f.b)) & ~((1ull << f.b->shift) - 1);
            break;
        case 1:
            a[i] = rnd_bits_in(f.a, f.a->bias - 3, f.a->bias + 3);
            b[i] = rnd_bits_in(f.b, f.b->bias - 3, f.b->bias + 3);
            break;
        case 2:
            a[i] = rnd_bits_in(f.a, 0, ta - 1);
            b[i] = rnd_bits_in(f.b, 0, tb - 1);
            break;
        default:
            if (i % 2 == 1) {   /* cancel the previous product, perturbed */
                a[i] = a[i - 1] ^ (1ull << (f.a->ebits + f.a->mbits + f.a->shift));
                b[i] = b[i - 1] ^ ((rnd64() & 3) << f.b->shift);
            } else {
                a[i] = rnd_bits_in(f.a, f.a->bias - 8, f.a->bias + 8);
                b[i] = rnd_bits_in(f.b, f.b->bias - 8, f.b->bias + 8);
            }
            break;
        }
    }
    if (dist == 0)
        *c = rnd64() & tc_format_mask(f.c);
    else if (dist == 2)
        *c = rnd_bits_in(f.c, 0, tcx - 1);
    else if (rndn(4) == 0)
        *c = 0;
    else
        *c = rnd_bits_in(f.c, f.c->bias - 10, f.c->bias + 10);
}

/* ---- the rounding core ---- */

static void test_round_core_matches_tc_encode(void **state)
{
    const tc_format *fs[] = {&tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32, &tc_f32, &tc_e2m1, &tc_e3m2};
    const tc_round modes[] = {TC_RNE, TC_RNA, TC_RZ, TC_RU, TC_RD, TC_RO};
    const tc_overflow ovfs[] = {TC_OVF_INF, TC_OVF_SAT, TC_OVF_NAN};
    long n = 0;
    for (size_t fi = 0; fi < sizeof fs / sizeof fs[0]; fi++) {
        mfmt mf;
        assert_true(mfmt_init(&mf, fs[fi]));
        int emin = tc_format_emin(fs[fi]), emax = tc_format_emax(fs[fi]);
        for (int it = 0; it < 40000; it++) {
            tc_value v = {TC_FINITE, rnd64() & 1, 0, rnd64() >> rndn(64)};
            if (v.sig == 0)
                v.sig = 1;
            int bl = 64 - __builtin_clzll(v.sig);
            v.exp = emin - fs[fi]->mbits - 3 - bl + (int)rndn((unsigned)(emax - emin + fs[fi]->mbits + 8));
            bool sticky = rndn(3) == 0;
            tc_rounding r = {modes[rndn(6)], ovfs[rndn(3)], rndn(4) == 0, 0, false};
            uint64_t want = tc_encode(fs[fi], v, sticky, r);
            mval got = mfmt_round(&mf, v.sign, v.sig, v.exp, sticky, r.mode, r.ftz, r.ovf);
            /* A NaN result: tc_encode may sign it; the model uses one pattern. */
            uint64_t gb = got.cls == MV_NAN && tc_classify(fs[fi], want) == TC_NAN ? want
                                                                                  : mfmt_encode(&mf, got);
            if (want != gb)
                fail_msg("%s sig=0x%llx exp=%d sticky=%d mode=%s ovf=%s ftz=%d: want 0x%llx got 0x%llx",
                         fs[fi]->name, (unsigned long long)v.sig, (int)v.exp, sticky,
                         tc_round_name(r.mode), tc_overflow_name(r.ovf), r.ftz,
                         (unsigned long long)want, (unsigned long long)gb);
            n++;
        }
    }
    assert_true(n > 0);
}

static void test_decode_matches_tc_decode(void **state)
{
    const tc_format *fs[] = {&tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_e2m1, &tc_e3m2, &tc_e2m3};
    for (size_t fi = 0; fi < sizeof fs / sizeof fs[0]; fi++) {
        mfmt mf;
        assert_true(mfmt_init(&mf, fs[fi]));
        for (uint64_t bits = 0; bits < (1ull << fs[fi]->storage_bits); bits++) {
            tc_value v = tc_decode(fs[fi], bits, false);
            mval w = mfmt_decode(&mf, bits, false);
            static const int cls_of[] = {MV_ZERO, MV_FINITE, MV_INF, MV_NAN};
            assert_int_equal(cls_of[v.cls], w.cls);
            if (v.cls != TC_NAN)
                assert_int_equal(v.sign, w.sign);
            if (v.cls == TC_FINITE) {
                /* same value: sig * 2^exp */
                int sh = __builtin_ctzll(v.sig) - __builtin_ctzll(w.sig);
                assert_int_equal(v.sig >> __builtin_ctzll(v.sig), w.sig >> __builtin_ctzll(w.sig));
                assert_int_equal(v.exp + sh, w.lsb);
            }
            tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
            if (v.cls != TC_NAN)
                assert_int_equal(mfmt_encode(&mf, w), tc_encode(fs[fi], v, false, r));
        }
    }
}

/* ---- exact setting == oracle ---- */

typedef struct {
    const char *name;
    const tc_format *a, *b, *c, *d;
} fpair;

static const fpair pairs[] = {
    {"e4m3.e4m3->f32", &tc_e4m3, &tc_e4m3, &tc_f32, &tc_f32},
    {"e5m2.e5m2->f32", &tc_e5m2, &tc_e5m2, &tc_f32, &tc_f32},
    {"e4m3.e5m2->f32", &tc_e4m3, &tc_e5m2, &tc_f32, &tc_f32},
    {"e5m2.e4m3->f16", &tc_e5m2, &tc_e4m3, &tc_f16, &tc_f16},
    {"f16.f16->f32", &tc_f16, &tc_f16, &tc_f32, &tc_f32},
    {"f16.f16->f16", &tc_f16, &tc_f16, &tc_f16, &tc_f16},
    {"bf16.bf16->f32", &tc_bf16, &tc_bf16, &tc_f32, &tc_f32},
    {"tf32.tf32->f32", &tc_tf32, &tc_tf32, &tc_f32, &tc_f32},
    {"f64.f64->f64", &tc_f64, &tc_f64, &tc_f64, &tc_f64},
};

static void check_equivalence(const fpair *fp)
{
    oracle_formats f = {fp->a, fp->b, fp->c, fp->d};
    static const tc_round modes[] = {TC_RNE, TC_RZ, TC_RU, TC_RD, TC_RNA, TC_RO};
    static const int ks[] = {1, 2, 3, 4, 8, 16, 32};
    model *ms[6][2];
    char err[200];
    for (int mi = 0; mi < 6; mi++)
        for (int s = 0; s < 2; s++) {
            tc_rounding r = {modes[mi], s ? TC_OVF_SAT : TC_OVF_INF, false, 0, false};
            model_params p = model_params_exact(f, r);
            ms[mi][s] = model_new(&p, f, err, sizeof err);
            assert_non_null(ms[mi][s]);
        }
    uint64_t a[32], b[32], c;
    long bad = 0;
    for (long it = 0; it < EQUIV_CASES; it++) {
        int k = ks[rndn(7)];
        int dist = (int)rndn(4);
        int mi = it % 4 == 0 ? (int)rndn(6) : 0;
        int s = rndn(8) == 0;
        rnd_inputs(f, k, a, b, &c, dist);
        tc_rounding r = {modes[mi], s ? TC_OVF_SAT : TC_OVF_INF, false, 0, false};
        uint64_t want = oracle_dot_exact(f, k, a, b, c, r);
        uint64_t got = model_dot(ms[mi][s], k, a, b, c);
        if (want != got && bad++ < 5) {
            fprintf(stderr, "%s k=%d dist=%d mode=%s: oracle 0x%llx model 0x%llx c=0x%llx a0=0x%llx b0=0x%llx\n",
                    fp->name, k, dist, tc_round_name(r.mode), (unsigned long long)want,
                    (unsigned long long)got, (unsigned long long)c, (unsigned long long)a[0],
                    (unsigned long long)b[0]);
        }
    }
    for (int mi = 0; mi < 6; mi++)
        for (int s = 0; s < 2; s++)
            model_free(ms[mi][s]);
    if (bad)
        fail_msg("%s: %ld of %d cases differ from the exact oracle", fp->name, bad, EQUIV_CASES);
}

#define EQUIV_TEST(i)                                                      \
    static void test_exact_setting_equals_oracle_##i(void **state)        \
    {                                                                      \
        check_equivalence(&pairs[i]);                                      \
    }
EQUIV_TEST(0)
EQUIV_TEST(1)
EQUIV_TEST(2)
EQUIV_TEST(3)
EQUIV_TEST(4)
EQUIV_TEST(5)
EQUIV_TEST(6)
EQUIV_TEST(7)
EQUIV_TEST(8)

/* f64 operands, one product per step, the sum rounded to nearest in f64
 * each time, C first: a chain of IEEE fused multiply-adds, which the C
 * library's fma computes independently. */
static void test_wide_block_of_one_is_an_fma_chain(void **state)
{
    oracle_formats f = {&tc_f64, &tc_f64, &tc_f64, &tc_f64};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    p.block = 1;
    p.acc_exact = false;
    p.acc_fmt = tc_f64;
    p.acc_round = TC_RNE;
    char err[200];
    model *m = model_new(&p, f, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    uint64_t a[16], b[16], c;
    long bad = 0, differs_from_exact = 0;
    for (long it = 0; it < EQUIV_CASES / 10; it++) {
        int k = 1 + (int)rndn(16);
        rnd_inputs(f, k, a, b, &c, 1 + (int)rndn(3));
        double acc, x, y;
        memcpy(&acc, &c, sizeof acc);
        for (int i = 0; i < k; i++) {
            memcpy(&x, &a[i], sizeof x);
            memcpy(&y, &b[i], sizeof y);
            acc = fma(x, y, acc);
        }
        uint64_t want, got = model_dot(m, k, a, b, c);
        memcpy(&want, &acc, sizeof want);
        if (acc != acc)
            want = p.nan_bits;
        if (got != want && bad++ < 5)
            fprintf(stderr, "k=%d: fma chain 0x%llx model 0x%llx\n", k, (unsigned long long)want,
                    (unsigned long long)got);
        differs_from_exact += got != oracle_dot_exact(f, k, a, b, c, r);
    }
    model_free(m);
    assert_int_equal(bad, 0);
    assert_true(differs_from_exact > 0);
    /* a finite alignment window is not a wide setting */
    p.align_bits = 60;
    assert_null(model_new(&p, f, err, sizeof err));
    assert_non_null(strstr(err, "alignment"));
}

/* Output ftz: the exact setting with ftz equals the oracle with ftz. */
static void test_exact_setting_ftz_equals_oracle(void **state)
{
    oracle_formats f = {&tc_f16, &tc_f16, &tc_f16, &tc_f16};
    tc_rounding r = {TC_RNE, TC_OVF_INF, true, 0, false};
    model_params p = model_params_exact(f, r);
    char err[200];
    model *m = model_new(&p, f, err, sizeof err);
    assert_non_null(m);
    uint64_t a[4], b[4], c;
    for (int it = 0; it < EQUIV_CASES / 20; it++) {
        for (int i = 0; i < 4; i++) {
            a[i] = rnd_bits_in(&tc_f16, 0, 6);
            b[i] = rnd_bits_in(&tc_f16, 10, 16);
        }
        c = rnd_bits_in(&tc_f16, 0, 2);
        assert_int_equal(oracle_dot_exact(f, 4, a, b, c, r), model_dot(m, 4, a, b, c));
    }
    model_free(m);
}

/* ---- fast path == GMP path ---- */

static model_params rnd_params(oracle_formats f)
{
    tc_rounding r0 = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r0);
    static const tc_round modes[] = {TC_RNE, TC_RZ, TC_RU, TC_RD, TC_RNA, TC_RO};
    p.block = 1 + (int)rndn(16);
    p.c_mode = rndn(2) ? MODEL_C_FIRST : MODEL_C_LAST;
    p.c_round = modes[rndn(6)];
    p.align_with_acc = rndn(2);
    p.exp_ref = rndn(2) ? MODEL_EXP_NOMINAL : MODEL_EXP_NORMALIZED;
    p.align_bits = rndn(5) == 0 ? MODEL_EXACT : (int)rndn(80);
    p.align_round = (model_align_round)rndn(3);
    p.carry_bits = rndn(3) == 0 ? 1 + (int)rndn(6) : MODEL_UNLIMITED;
    p.acc_exact = rndn(3) == 0;
    p.acc_fmt = rndn(2) ? tc_f32 : tc_f16;
    p.acc_round = modes[rndn(6)];
    p.ftz_acc = rndn(4) == 0;
    p.out_round = modes[rndn(6)];
    p.ftz_out = rndn(4) == 0;
    p.ftz_a = rndn(4) == 0;
    p.ftz_b = rndn(4) == 0;
    p.ftz_c = rndn(4) == 0;
    if (rndn(3) == 0) {
        p.prod_bits = 4 + (int)rndn(20);
        p.prod_round = modes[rndn(6)];
    }
    if (rndn(4) == 0)
        p.prod_flush_exp = -30 - (int)rndn(100);
    if (p.block >= 4 && p.block % 2 == 0 && rndn(4) == 0)
        p.split_runs = 2;
    return p;
}

static void test_fast_path_equals_gmp_path(void **state)
{
    long bad = 0, n = 0;
    uint64_t a[32], b[32], c;
    for (int pi = 0; n < FASTSLOW_CASES; pi++) {
        /* the last pair (f64) has no int64 kernel: model_wide.c computes it */
        const fpair *fp = &pairs[rndn(sizeof pairs / sizeof pairs[0] - 1)];
        oracle_formats f = {fp->a, fp->b, fp->c, fp->d};
        model_params p = rnd_params(f);
        char err[200];
        model *m = model_new(&p, f, err, sizeof err);
        if (!m)
            fail_msg("model_new: %s", err);
        for (int it = 0; it < 1000; it++, n++) {
            int k = 1 + (int)rndn(32);
            rnd_inputs(f, k, a, b, &c, (int)rndn(4));
            model_force_slow = 0;
            uint64_t fast = model_dot(m, k, a, b, c);
            model_force_slow = 1;
            uint64_t slow = model_dot(m, k, a, b, c);
            model_force_slow = 0;
            if (fast != slow && bad++ < 5)
                fprintf(stderr, "%s params #%d (block %d align %d %s carry %d acc_exact %d) k=%d: fast 0x%llx gmp 0x%llx\n",
                        fp->name, pi, p.block, p.align_bits, model_align_round_name(p.align_round),
                        p.carry_bits, p.acc_exact, k, (unsigned long long)fast, (unsigned long long)slow);
        }
        model_free(m);
    }
    if (bad)
        fail_msg("%ld of %ld elements differ between the int128 and GMP paths", bad, n);
}

/* Tensor-core-like settings (the ones model_mma's whole-tile kernel takes:
 * C first, a finite window, the accumulator in C's format). */
static model_params tc_like_params(oracle_formats f)
{
    static const int blocks[] = {4, 8, 16, 32};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    p.block = blocks[rndn(4)];
    p.align_bits = 13 + (int)rndn(14);
    p.align_round = (model_align_round)rndn(3);
    p.exp_ref = rndn(2) ? MODEL_EXP_NOMINAL : MODEL_EXP_NORMALIZED;
    p.align_with_acc = rndn(4) != 0;
    p.acc_exact = false;
    p.acc_fmt = *f.c;
    p.acc_round = rndn(2) ? TC_RZ : TC_RNE;
    p.out_round = rndn(2) ? TC_RZ : TC_RNE;
    if (rndn(3) == 0) {   /* an emulated split: K dealt to the steps in runs of 2, C last */
        p.split_runs = 2;
        p.c_mode = MODEL_C_LAST;
    }
    return p;
}

/* model_mma (threads, whole-tile kernels) gives model_dot's answers element
 * by element, for tensor-core-like and random settings and inputs of every
 * distribution, specials included. */
static void test_mma_tiles_equal_dot(void **state)
{
    enum { M = 16, N = 24, K = 32, NT = 12 };
    uint64_t *A = malloc(NT * M * K * 8), *B = malloc(NT * K * N * 8), *C = malloc(NT * M * N * 8),
             *D = malloc(NT * M * N * 8);
    uint64_t a[K], b[K], c;
    long bad = 0;
    for (int v = 0; v < 60; v++) {
        const fpair *fp = &pairs[rndn(sizeof pairs / sizeof pairs[0] - 1)];   /* narrow pairs */
        oracle_formats f = {fp->a, fp->b, fp->c, fp->d};
        model_params p = v % 3 ? tc_like_params(f) : rnd_params(f);
        char err[200];
        model *m = model_new(&p, f, err, sizeof err);
        if (!m)
            fail_msg("model_new: %s", err);
        int dist = v % 4;
        for (size_t t = 0; t < NT; t++) {
            for (int i = 0; i < M; i++) {   /* rows of A from one draw, columns of B from another */
                rnd_inputs(f, K, a, b, &c, dist);
                memcpy(A + (t * M + i) * K, a, sizeof a);
                for (int j = 0; j < N; j++)
                    C[(t * M + i) * N + j] = (j % 5 == 0) ? c : (rnd_inputs(f, 1, a, b, &c, dist), c);
            }
            for (int j = 0; j < N; j++) {
                rnd_inputs(f, K, a, b, &c, dist);
                for (int kk = 0; kk < K; kk++)
                    B[(t * K + kk) * N + j] = b[kk];
            }
        }
        model_set_threads(v % 2 ? 2 : 1);
        model_mma(m, M, N, K, NT, A, B, C, D);
        model_set_threads(0);
        for (size_t t = 0; t < NT; t++)
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    for (int kk = 0; kk < K; kk++) {
                        a[kk] = A[(t * M + i) * K + kk];
                        b[kk] = B[(t * K + kk) * N + j];
                    }
                    size_t o = (t * M + i) * N + j;
                    uint64_t want = model_dot(m, K, a, b, C[o]);
                    if (D[o] != want && bad++ < 5)
                        fprintf(stderr, "%s setting %d dist %d: tile 0x%llx dot 0x%llx\n", fp->name, v, dist,
                                (unsigned long long)D[o], (unsigned long long)want);
                }
        model_free(m);
    }
    free(A);
    free(B);
    free(C);
    free(D);
    assert_int_equal(bad, 0);
}

/* A wrapping sum register (carry_bits) under a grid floor far above every
 * term: the register is narrower than one bit there and keeps nothing (it
 * once shifted by a negative width: UBSan in an audit's candidate search). */
static void test_floor_above_a_wrapping_register_keeps_nothing(void **state)
{
    oracle_formats f = {&tc_bf16, &tc_bf16, &tc_f32, &tc_f32};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    p.acc_exact = false;
    p.acc_fmt = tc_f32;
    p.acc_round = TC_RZ;
    p.align_bits = 25;
    p.block = 8;
    p.carry_bits = 1;
    p.floored = true;
    p.align_floor = -158;
    char err[200];
    model *m = model_new(&p, f, err, sizeof err);
    assert_non_null(m);
    uint64_t a[8] = {0x0001, 0x0001}, b[8] = {0x0001, 0x0003}; /* products 2^-266, 3*2^-266 */
    assert_int_equal(model_dot(m, 8, a, b, 0), 0);
    assert_int_equal(model_dot(m, 8, a, b, 0x3f800000), 0x3f800000); /* C = 1 alone survives */
    model_free(m);
}

static void test_bad_params_refused_with_field_name(void **state)
{
    oracle_formats f = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    char err[200];
    p.block = 0;
    assert_null(model_new(&p, f, err, sizeof err));
    assert_non_null(strstr(err, "block"));
    p = model_params_exact(f, r);
    p.align_bits = -5;
    assert_null(model_new(&p, f, err, sizeof err));
    assert_non_null(strstr(err, "align_bits"));
    p = model_params_exact(f, r);
    p.acc_round = TC_RS;
    assert_null(model_new(&p, f, err, sizeof err));
    oracle_formats fi = {&tc_s8, &tc_s8, &tc_s32, &tc_s32};
    p = model_params_exact(f, r);
    assert_null(model_new(&p, fi, err, sizeof err));
    assert_non_null(strstr(err, "s8"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_core_matches_tc_encode),
        cmocka_unit_test(test_floor_above_a_wrapping_register_keeps_nothing),
        cmocka_unit_test(test_decode_matches_tc_decode),
        cmocka_unit_test(test_exact_setting_equals_oracle_0),
        cmocka_unit_test(test_exact_setting_equals_oracle_1),
        cmocka_unit_test(test_exact_setting_equals_oracle_2),
        cmocka_unit_test(test_exact_setting_equals_oracle_3),
        cmocka_unit_test(test_exact_setting_equals_oracle_4),
        cmocka_unit_test(test_exact_setting_equals_oracle_5),
        cmocka_unit_test(test_exact_setting_equals_oracle_6),
        cmocka_unit_test(test_exact_setting_equals_oracle_7),
        cmocka_unit_test(test_exact_setting_equals_oracle_8),
        cmocka_unit_test(test_wide_block_of_one_is_an_fma_chain),
        cmocka_unit_test(test_exact_setting_ftz_equals_oracle),
        cmocka_unit_test(test_fast_path_equals_gmp_path),
        cmocka_unit_test(test_mma_tiles_equal_dot),
        cmocka_unit_test(test_bad_params_refused_with_field_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
