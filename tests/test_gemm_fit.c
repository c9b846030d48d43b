/* The structure fit's pruned scoring (cases/gemm_fit.c: a structure stops
 * scoring once it can no longer change what is kept) against the
 * exhaustive one (every structure on every output): the same best
 * structure and conversion, counts, best four with their descriptions,
 * per-conversion bests, unexplained outputs and predictions; on outputs a
 * structure predicts (explained), on the same outputs with a share of them
 * disturbed (unexplained: weak pruning, the unexplained list settled from
 * stopped structures), on a 16-bit output, on FP32 FMA chains and on tf32
 * (four conversions); and pruning did stop some structures (the fast path
 * was taken); an uneven split (ceil(K / S) in whole units, the rest to the
 * last slice, as CUTLASS cuts) is found. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cases/gemm_internal.h"

#define PROFILE "oracle/profiles/h100.profile"
#define M 64
#define N 64
#define K 1024
#define NOUT 1024

static uint64_t rng = 12345;

static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Finite elements of f in [-1, 1] times scale (the probe's verify inputs
 * scale A's blocks of 32 along K by 2^-5 .. 2^5; here A's and B's by
 * 2^-8 .. 2^8, so that FP8 products also make sums that round). */
static uint32_t element(const tc_format *f, double scale)
{
    double v = ((double)(rnd() % 2000) / 1000.0 - 1.0) * scale;
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
    if (f == &tc_f32) {
        float x = (float)v * (1.0f + (float)(rnd() % 1000) * 1e-7f);
        return gemm_bits_of(x);
    }
    return (uint32_t)tc_encode_f64(f, v, r);
}

typedef struct {
    const tc_gemm_path *p;
    uint32_t *A, *B, *got;
    int ii[NOUT], jj[NOUT], run_start[K];
    int nruns;
} fixture;

static void make(fixture *x, const char *path, const tc_gemm_struct *truth, tc_gemm_incvt cv, bool fma,
                 const tc_format *out, int disturb_every)
{
    x->p = tc_gemm_path_by_name(path);
    assert_non_null(x->p);
    x->A = gemm_alloc((size_t)M * K, sizeof *x->A), x->B = gemm_alloc((size_t)K * N, sizeof *x->B);
    x->got = gemm_alloc(NOUT, sizeof *x->got);
    for (int i = 0; i < M; i++)
        for (int k0 = 0; k0 < K; k0 += 32) {
            double scale = ldexp(1, (int)(rnd() % 17) - 8);
            for (int kk = k0; kk < k0 + 32; kk++)
                x->A[(size_t)i * K + kk] = element(x->p->a, scale);
        }
    for (int j = 0; j < N; j++)
        for (int k0 = 0; k0 < K; k0 += 32) {
            double scale = ldexp(1, (int)(rnd() % 17) - 8);
            for (int kk = k0; kk < k0 + 32; kk++)
                x->B[(size_t)kk * N + j] = element(x->p->b, scale);
        }
    for (int e = 0; e < NOUT; e++)
        x->ii[e] = e / 32 * 2, x->jj[e] = e % 32 * 2;
    /* the runs: every promote positions of each slice */
    int cut[TC_GEMM_MAX_SLICES + 1];
    gemm_struct_bounds(truth, K, cut);
    x->nruns = 0;
    for (int t = 0; t < truth->splitk; t++)
        for (int s = cut[t]; s < cut[t + 1]; s += truth->promote ? truth->promote : cut[t + 1] - cut[t])
            x->run_start[x->nruns++] = s;
    char err[256] = "";
    if (fma) {   /* FP32 FMA chains from +0 a run, runs added in FP32: written out here */
        for (int e = 0; e < NOUT; e++) {
            float sum = 0;
            for (int r = 0; r < x->nruns; r++) {
                float acc = 0;
                int end = r + 1 < x->nruns ? x->run_start[r + 1] : K;
                for (int kk = x->run_start[r]; kk < end; kk++)
                    acc = fmaf(gemm_f32_of(x->A[(size_t)x->ii[e] * K + kk]),
                               gemm_f32_of(x->B[(size_t)kk * N + x->jj[e]]), acc);
                sum = r ? sum + acc : acc;
            }
            x->got[e] = gemm_bits_of(sum);
        }
    } else {
        assert_int_equal(gemm_predict(x->p, PROFILE, truth, cv, x->A, x->B, N, K, NOUT, x->ii, x->jj, x->got, err,
                                      sizeof err), 0);
    }
    for (int e = 0; e < NOUT; e++) {
        x->got[e] = gemm_round_out(out, x->got[e]);
        if (disturb_every && e % disturb_every == 0)
            x->got[e] ^= 1;
    }
}

static void fit(const fixture *x, int chunk, bool fma, const tc_format *out, bool exhaustive, gemm_fit_out *o,
                uint32_t *pred)
{
    gemm_fit_in in = {x->p, PROFILE, K, N, 16, chunk, out, x->nruns, x->run_start, x->A, x->B, NOUT, x->ii, x->jj,
                      x->got, fma, true, pred, exhaustive, GEMM_IN_AS_UPLOADED, false};
    char err[256] = "";
    assert_int_equal(gemm_fit_structure(&in, o, err, sizeof err), 0);
}

/* Pruned and exhaustive agree on everything they report. */
static void same(const fixture *x, int chunk, bool fma, const tc_format *out, size_t min_pruned,
                 gemm_fit_out *fast_out)
{
    gemm_fit_out fast, full;
    uint32_t *pf = gemm_alloc(NOUT, sizeof *pf), *pe = gemm_alloc(NOUT, sizeof *pe);
    fit(x, chunk, fma, out, false, &fast, pf);
    fit(x, chunk, fma, out, true, &full, pe);
    assert_true(fast.have && full.have);
    assert_true(tc_gemm_struct_same(&fast.s, &full.s));
    assert_int_equal(fast.cv, full.cv);
    assert_int_equal(fast.nfit, full.nfit);
    assert_int_equal(fast.best_n, full.best_n);
    assert_int_equal(fast.ncand, full.ncand);
    for (int c = 0; c < fast.ncand; c++) {
        assert_string_equal(fast.cand[c].desc, full.cand[c].desc);
        assert_int_equal(fast.cand[c].bit_exact, full.cand[c].bit_exact);
    }
    assert_int_equal(fast.ncv, full.ncv);
    assert_memory_equal(fast.cvt_bit_exact, full.cvt_bit_exact, sizeof fast.cvt_bit_exact);
    assert_int_equal(fast.nunexplained, full.nunexplained);
    assert_memory_equal(fast.unexplained, full.unexplained, (size_t)fast.nunexplained * sizeof fast.unexplained[0]);
    assert_memory_equal(pf, pe, NOUT * sizeof *pf);
    assert_int_equal(full.pruned, 0);
    assert_true(fast.pruned >= min_pruned);
    assert_int_equal(fast.scored + fast.pruned, full.scored);
    if (fast_out)
        *fast_out = fast;
    free(pf), free(pe);
}

static void unmake(fixture *x)
{
    free(x->A), free(x->B), free(x->got);
}

static const tc_gemm_struct split3 = {32, 128, 3, GEMM_COMBINE_SEQ, 128, {0}};

static void test_explained_e4m3(void **state)
{
    (void)state;
    fixture x;
    make(&x, "e4m3", &split3, GEMM_IN_AS_UPLOADED, false, &tc_f32, 0);
    gemm_fit_out o;
    same(&x, 32, false, &tc_f32, 1, &o);
    assert_int_equal(o.best_n, NOUT);
    assert_int_equal(o.s.splitk, 3);   /* the outputs tell the slices apart */
    unmake(&x);
}

static void test_unexplained_e4m3(void **state)
{
    (void)state;
    fixture x;
    make(&x, "e4m3", &split3, GEMM_IN_AS_UPLOADED, false, &tc_f32, 3);   /* a third of the outputs off */
    gemm_fit_out o;
    same(&x, 32, false, &tc_f32, 0, &o);
    assert_true(o.best_n < NOUT);
    assert_int_equal(o.nunexplained, TC_GEMM_KEEP);
    unmake(&x);
}

static void test_f16_output(void **state)
{
    (void)state;
    const tc_gemm_struct s = {16, 256, 2, GEMM_COMBINE_SEQ, 0, {0}};
    fixture x;
    make(&x, "f16", &s, GEMM_IN_AS_UPLOADED, false, &tc_f16, 0);
    same(&x, 16, false, &tc_f16, 1, NULL);
    unmake(&x);
}

static void test_fma_chains(void **state)
{
    (void)state;
    const tc_gemm_struct s = {1, 256, 2, GEMM_COMBINE_SEQ, 0, {0}};
    fixture x;
    make(&x, "f32", &s, GEMM_IN_AS_UPLOADED, true, &tc_f32, 0);
    gemm_fit_out o;
    same(&x, 1, true, &tc_f32, 1, &o);
    assert_int_equal(o.best_n, NOUT);
    unmake(&x);
}

static void test_tf32_conversions(void **state)
{
    (void)state;
    const tc_gemm_struct s = {8, 128, 4, GEMM_COMBINE_PAIRWISE, 0, {0}};
    fixture x;
    make(&x, "tf32", &s, GEMM_IN_TF32_RNE, false, &tc_f32, 0);
    gemm_fit_out o;
    same(&x, 8, false, &tc_f32, 1, &o);
    assert_int_equal(o.cv, GEMM_IN_TF32_RNE);
    assert_int_equal(o.ncv, 4);
    unmake(&x);
}

/* ceil(1024 / 3) = 342 in units of 128: 384, cuts at 384 and 768 (the
 * last slice 256); gemm_struct_bounds' units of 128 cut at 256 and 640. */
static void test_ceil_split(void **state)
{
    (void)state;
    tc_gemm_struct s = {32, 128, 3, GEMM_COMBINE_SEQ, TC_GEMM_CUTS, {0, 384, 768, K}};
    fixture x;
    make(&x, "e4m3", &s, GEMM_IN_AS_UPLOADED, false, &tc_f32, 0);
    gemm_fit_out o;
    same(&x, 32, false, &tc_f32, 1, &o);
    assert_int_equal(o.best_n, NOUT);
    int cut[TC_GEMM_MAX_SLICES + 1];
    gemm_struct_bounds(&o.s, K, cut);
    assert_int_equal(o.s.splitk, 3);
    assert_int_equal(cut[1], 384);
    assert_int_equal(cut[2], 768);
    unmake(&x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explained_e4m3),  cmocka_unit_test(test_unexplained_e4m3),
        cmocka_unit_test(test_f16_output),      cmocka_unit_test(test_fma_chains),
        cmocka_unit_test(test_tf32_conversions), cmocka_unit_test(test_ceil_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
