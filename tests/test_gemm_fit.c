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
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/gemm_fit_fixture.h"

#define PROFILE "oracle/profiles/h100.profile"
#define M 64
#define N 64
#define K 1024
#define NOUT 1024

static void make(fixture *x, const char *path, const tc_gemm_struct *truth, tc_gemm_incvt cv, bool fma,
                 const tc_format *out, int disturb_every)
{
    char err[256] = "";
    assert_int_equal(fixture_make(x, path, M, N, K, NOUT, truth, cv, fma, out, disturb_every, PROFILE, err,
                                  sizeof err), 0);
}

static void fit(const fixture *x, int chunk, bool fma, const tc_format *out, bool exhaustive, gemm_fit_out *o,
                uint32_t *pred)
{
    char err[256] = "";
    assert_int_equal(fixture_fit(x, PROFILE, chunk, fma, out, exhaustive, o, pred, err, sizeof err), 0);
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

static const tc_gemm_struct split3 = {32, 128, 3, GEMM_COMBINE_SEQ, 128, {0}, {0}};

static void test_explained_e4m3(void **state)
{
    (void)state;
    fixture x;
    make(&x, "e4m3", &split3, GEMM_IN_AS_UPLOADED, false, &tc_f32, 0);
    gemm_fit_out o;
    same(&x, 32, false, &tc_f32, 1, &o);
    assert_int_equal(o.best_n, NOUT);
    assert_int_equal(o.s.splitk, 3);   /* the outputs tell the slices apart */
    fixture_free(&x);
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
    fixture_free(&x);
}

static void test_f16_output(void **state)
{
    (void)state;
    const tc_gemm_struct s = {16, 256, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    fixture x;
    make(&x, "f16", &s, GEMM_IN_AS_UPLOADED, false, &tc_f16, 0);
    same(&x, 16, false, &tc_f16, 1, NULL);
    fixture_free(&x);
}

static void test_fma_chains(void **state)
{
    (void)state;
    const tc_gemm_struct s = {1, 256, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    fixture x;
    make(&x, "f32", &s, GEMM_IN_AS_UPLOADED, true, &tc_f32, 0);
    gemm_fit_out o;
    same(&x, 1, true, &tc_f32, 1, &o);
    assert_int_equal(o.best_n, NOUT);
    fixture_free(&x);
}

static void test_tf32_conversions(void **state)
{
    (void)state;
    const tc_gemm_struct s = {8, 128, 4, GEMM_COMBINE_PAIRWISE, 0, {0}, {0}};
    fixture x;
    make(&x, "tf32", &s, GEMM_IN_TF32_RNE, false, &tc_f32, 0);
    gemm_fit_out o;
    same(&x, 8, false, &tc_f32, 1, &o);
    assert_int_equal(o.cv, GEMM_IN_TF32_RNE);
    assert_int_equal(o.ncv, 4);
    fixture_free(&x);
}

/* ceil(1024 / 3) = 342 in units of 128: 384, cuts at 384 and 768 (the
 * last slice 256); gemm_struct_bounds' units of 128 cut at 256 and 640. */
static void test_ceil_split(void **state)
{
    (void)state;
    tc_gemm_struct s = {32, 128, 3, GEMM_COMBINE_SEQ, TC_GEMM_CUTS, {0, 384, 768, K}, {0}};
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
    fixture_free(&x);
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
