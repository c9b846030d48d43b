/* tcscope gemm's CPU side spread over threads (oracle_parallel in
 * gemm_predict, errors(), the uploads): oracle_parallel covers every item
 * once and marks its ranges, so that model_mma inside runs on the range's
 * thread; the threaded prediction gives the bits each output gets computed
 * alone (tc_gemm_struct_dot, no batching, no threads) and the same bits
 * for 1, 2, 3 and 7 threads, also with fewer outputs than threads; a whole
 * simulated case (errors, inference, prediction) gives the same record
 * whatever the thread count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cases/gemm.h"
#include "tests/gemm_testutil.h"
#include "cases/gemm_internal.h"
#include "oracle/oracle.h"

#define PROFILE "oracle/profiles/h100.profile"

static const int thread_counts[] = {1, 2, 3, 7};

typedef struct {
    int *hits;
    int inside;   /* ranges that saw oracle_in_parallel() */
    int ranges;
} cover_ctx;

static void cover(void *ctx, size_t lo, size_t hi)
{
    cover_ctx *c = ctx;
    for (size_t i = lo; i < hi; i++)
        __atomic_fetch_add(&c->hits[i], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&c->inside, oracle_in_parallel(), __ATOMIC_RELAXED);
    __atomic_fetch_add(&c->ranges, 1, __ATOMIC_RELAXED);
}

static void test_parallel_covers_each_item_once(void **state)
{
    (void)state;
    enum { N = 1001 };
    for (size_t x = 0; x < sizeof thread_counts / sizeof *thread_counts; x++) {
        oracle_set_threads(thread_counts[x]);
        int hits[N] = {0};
        cover_ctx c = {hits, 0, 0};
        oracle_parallel(N, (size_t)1 << 20, cover, &c);
        for (int i = 0; i < N; i++)
            assert_int_equal(hits[i], 1);
        assert_int_equal(c.ranges, thread_counts[x]);
        assert_int_equal(c.inside, c.ranges);
        assert_false(oracle_in_parallel());
    }
    oracle_set_threads(0);
}

/* Case inputs of path p as uploaded, and nout sampled positions spread over D. */
static void case_inputs(const tc_gemm_path *p, tc_gemm_case *c, uint32_t **A, uint32_t **B, int **ii, int **jj,
                        size_t nout)
{
    *A = gemm_alloc((size_t)c->m * c->k, sizeof **A);
    *B = gemm_alloc((size_t)c->k * c->n, sizeof **B);
    gemm_uploads(p, c, *A, *B);
    *ii = gemm_alloc(nout, sizeof **ii), *jj = gemm_alloc(nout, sizeof **jj);
    for (size_t e = 0; e < nout; e++)
        (*ii)[e] = (int)(e * 7 % (size_t)c->m), (*jj)[e] = (int)(e * 13 % (size_t)c->n);
}

/* gemm_predict with every thread count against each output computed alone. */
static void predict_threads(const char *path, tc_gemm_struct s, int m, int k, size_t nout)
{
    char err[512];
    const tc_gemm_path *p = tc_gemm_path_by_name(path);
    tc_gemm_case c = {.m = m, .n = m, .k = k, .dist = SWEEP_NORMAL, .seed = 9};
    uint32_t *A, *B;
    int *ii, *jj;
    case_inputs(p, &c, &A, &B, &ii, &jj, nout);
    assert_true(nout * (size_t)k >= ((size_t)1 << 15));   /* enough work that oracle_parallel threads it */
    model *md = tc_gemm_model(p, PROFILE, err, sizeof err);
    assert_non_null(md);
    uint32_t *alone = gemm_alloc(nout, sizeof *alone), *pred = gemm_alloc(nout, sizeof *pred);
    uint64_t *a = gemm_alloc((size_t)k, sizeof *a), *b = gemm_alloc((size_t)k, sizeof *b);
    for (size_t e = 0; e < nout; e++) {
        gemm_gather(A, B, c.n, k, 1, &ii[e], &jj[e], a, b);
        alone[e] = tc_gemm_struct_dot(&s, md, k, a, b);
    }
    for (size_t x = 0; x < sizeof thread_counts / sizeof *thread_counts; x++) {
        oracle_set_threads(thread_counts[x]);
        memset(pred, 0, nout * sizeof *pred);
        if (gemm_predict(p, PROFILE, &s, GEMM_IN_AS_UPLOADED, A, B, c.n, k, nout, ii, jj, pred, err, sizeof err))
            fail_msg("%s", err);
        for (size_t e = 0; e < nout; e++)
            if (pred[e] != alone[e])
                fail_msg("%s, %d threads: output %zu predicted %08X, alone %08X", path, thread_counts[x], e,
                         pred[e], alone[e]);
    }
    oracle_set_threads(0);
    model_free(md);
    free(A), free(B), free(ii), free(jj), free(alone), free(pred), free(a), free(b);
}

static void test_threaded_prediction_is_each_output_alone(void **state)
{
    (void)state;
    predict_threads("e4m3", (tc_gemm_struct){32, 128, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}}, 32, 1024, 301);
    predict_threads("bf16", (tc_gemm_struct){16, 0, 4, GEMM_COMBINE_PAIRWISE, 0, {0}, {0}}, 48, 512, 400);
    predict_threads("tf32", (tc_gemm_struct){8, 0, 5, GEMM_COMBINE_REVERSE, 32, {0}, {0}}, 40, 1024, 64);
    /* fewer outputs than threads: some threads get none */
    predict_threads("f16", (tc_gemm_struct){16, 64, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, 16, 16384, 5);
}

/* The record of a simulated tf32 case (the conversion inferred too) run
 * on a number of threads. */
static json_t *sim_case(int threads)
{
    char err[512];
    oracle_set_threads(threads);
    tc_gemm_lib lib;
    tc_gemm_struct s = {8, 64, 3, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    assert_int_equal(tc_gemm_lib_sim(&lib, PROFILE, &s, GEMM_IN_TF32_RNA, err, sizeof err), 0);
    tc_gemm_case c = {.m = 32, .n = 48, .k = 768, .dist = SWEEP_NORMAL, .seed = 4, .samples = 700,
                      .infer = true, .profile = PROFILE};
    json_t *r = tc_gemm_case_record(&lib, tc_gemm_path_by_name("tf32"), &c);
    tc_gemm_lib_sim_free(&lib);
    oracle_set_threads(0);
    return r;
}

static void test_case_record_independent_of_threads(void **state)
{
    (void)state;
    json_t *one = sim_case(1);
    json_t *st = json_object_get(one, "structure");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "prediction"), "bit_exact")), 700);
    assert_non_null(json_object_get(one, "error_vs_original"));
    for (size_t x = 1; x < sizeof thread_counts / sizeof *thread_counts; x++) {
        json_t *r = sim_case(thread_counts[x]);
        if (!json_equal(one, r)) {
            char *s1 = json_dumps(one, JSON_COMPACT), *s2 = json_dumps(r, JSON_COMPACT);
            fail_msg("%d threads: the record differs from one thread's\n%.2000s\n%.2000s", thread_counts[x], s1, s2);
        }
        json_decref(r);
    }
    json_decref(one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallel_covers_each_item_once),
        cmocka_unit_test(test_threaded_prediction_is_each_output_alone),
        cmocka_unit_test(test_case_record_independent_of_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
