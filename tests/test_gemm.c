/* tcscope gemm without a GPU: the structure inference recovers the
 * structure a simulated library was built with (several chunk / promotion
 * / split-K / combine settings on FP8, f16, bf16 and tf32 paths), refuses
 * to fit a library that has no such structure (correctly rounded outputs),
 * the predictor agrees with an independent computation (model_dot over
 * each accumulator run, FP32 additions written out here), a wrong
 * structure predicts visibly fewer outputs, and the command without a GPU
 * exits 2 with a message. Split-K slices cut unevenly in K tiles and met
 * from the last slice to the first (what cuBLASLt's tf32 path did at
 * 256 x 256 x 65536 on the H100) are recovered too. */
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
#include "oracle/profile.h"
#include "probes/probes.h"
#include "reports/record_gemm.h"
#include "tests/testutil.h"

#define PROFILE "oracle/profiles/h100.profile"

static tc_gemm_inferred infer_sim(const char *path, tc_gemm_struct s, int m, int k)
{
    tc_gemm_lib lib;
    char err[512];
    assert_int_equal(tc_gemm_lib_sim(&lib, PROFILE, &s, GEMM_IN_AS_UPLOADED, err, sizeof err), 0);
    tc_gemm_inferred r;
    int rc = tc_gemm_infer(&lib, tc_gemm_path_by_name(path), m, m, k, &r, err, sizeof err);
    if (rc)
        fail_msg("%s", err);
    tc_gemm_lib_sim_free(&lib);
    return r;
}

/* Both structures give the same bits on random inputs of the path. */
static void same_outputs(const char *path, tc_gemm_struct x, tc_gemm_struct y, int k)
{
    char err[512];
    const tc_gemm_path *p = tc_gemm_path_by_name(path);
    model *md = tc_gemm_model(p, PROFILE, err, sizeof err);
    assert_non_null(md);
    uint64_t *a = calloc((size_t)k, 8), *b = calloc((size_t)k, 8);
    tc_rounding rn = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
    srand(5);
    for (int t = 0; t < 20; t++) {
        for (int i = 0; i < k; i++) {
            a[i] = tc_encode_f64(p->a, (rand() / (double)RAND_MAX - 0.3) * 4, rn);
            b[i] = tc_encode_f64(p->b, (rand() / (double)RAND_MAX - 0.3) * 4, rn);
        }
        assert_int_equal(tc_gemm_struct_dot(&x, md, k, a, b), tc_gemm_struct_dot(&y, md, k, a, b));
    }
    free(a), free(b);
    model_free(md);
}

static void expect_struct(const char *path, tc_gemm_struct given, tc_gemm_struct want, int k)
{
    tc_gemm_inferred r = infer_sim(path, given, 32, k);
    if (!r.consistent)
        fail_msg("%s: %s", path, r.why);
    assert_int_equal(r.s.chunk, want.chunk);
    assert_int_equal(r.s.promote, want.promote);
    assert_int_equal(r.s.splitk, want.splitk);
    assert_int_equal(r.s.combine, want.combine);
    assert_int_equal(r.s.slice_unit, want.slice_unit);
    if (memcmp(&given, &want, sizeof given))
        same_outputs(path, given, r.s, k);   /* another form of the same arithmetic */
    tc_gemm_inferred_free(&r);
}

/* The chunk is the instruction's K (32 FP8, 16 f16/bf16, 8 tf32). */
static void test_inference_recovers_given_structures(void **state)
{
    (void)state;
    const tc_gemm_combine SEQ = GEMM_COMBINE_SEQ, PW = GEMM_COMBINE_PAIRWISE;
    expect_struct("e4m3", (tc_gemm_struct){32, 128, 1, SEQ, 0, {0}, {0}}, (tc_gemm_struct){32, 128, 1, SEQ, 0, {0}, {0}}, 1024);
    expect_struct("e4m3-fast", (tc_gemm_struct){32, 0, 1, SEQ, 0, {0}, {0}}, (tc_gemm_struct){32, 0, 1, SEQ, 0, {0}, {0}}, 1024);
    expect_struct("e5m2", (tc_gemm_struct){32, 64, 4, SEQ, 0, {0}, {0}}, (tc_gemm_struct){32, 64, 4, SEQ, 0, {0}, {0}}, 1024);
    expect_struct("f16", (tc_gemm_struct){16, 64, 4, PW, 0, {0}, {0}}, (tc_gemm_struct){16, 64, 4, PW, 0, {0}, {0}}, 1024);
    expect_struct("tf32", (tc_gemm_struct){8, 32, 2, SEQ, 0, {0}, {0}}, (tc_gemm_struct){8, 32, 2, SEQ, 0, {0}, {0}}, 256);
    /* Indistinguishable by any output, so reported in one form (and the
     * two shown to give the same bits): split-K slices with one
     * accumulator each, summed in K order, are runs of K/S; 8 slices met
     * pairwise are 4 slices of two runs met pairwise. */
    expect_struct("f16", (tc_gemm_struct){16, 0, 4, SEQ, 0, {0}, {0}}, (tc_gemm_struct){16, 256, 1, SEQ, 0, {0}, {0}}, 1024);
    expect_struct("bf16", (tc_gemm_struct){16, 0, 8, PW, 0, {0}, {0}}, (tc_gemm_struct){16, 64, 4, PW, 0, {0}, {0}}, 512);
}

/* Uneven split-K as the H100's tf32 256x256x65536 case had it (15 slices
 * cut in K tiles of 32, the tiles left over on the last slices, slices met
 * from the last to the first), here at K 2048: 64 tiles, 11 slices of 4
 * then 4 of 5. Recovered as given, and neither equal slices nor a K-order
 * fold, nor tiles of 16, nor the extra tiles on the first slices, would
 * fit its runs: the cut written out here. */
static void test_inference_recovers_uneven_reverse_split(void **state)
{
    (void)state;
    const tc_gemm_struct given = {8, 0, 15, GEMM_COMBINE_REVERSE, 32, {0}, {0}};
    expect_struct("tf32", given, given, 2048);
    expect_struct("f16", (tc_gemm_struct){16, 64, 5, GEMM_COMBINE_REVERSE, 64, {0}, {0}},
                  (tc_gemm_struct){16, 64, 5, GEMM_COMBINE_REVERSE, 64, {0}, {0}}, 1472);   /* 23 tiles: 4, 4, 5, 5, 5 */
    /* Three slices met last to first are s0 + (s1 + s2): the pairwise tree. */
    expect_struct("f16", (tc_gemm_struct){16, 64, 3, GEMM_COMBINE_REVERSE, 64, {0}, {0}},
                  (tc_gemm_struct){16, 64, 3, GEMM_COMBINE_PAIRWISE, 64, {0}, {0}}, 1088);   /* 17 tiles: 5, 6, 6 */
    int b[16], want[16];
    gemm_struct_bounds(&given, 2048, b);
    for (int t = 0, pos = 0; t <= 15; t++, pos += t <= 11 ? 128 : 160)
        want[t] = pos;
    assert_memory_equal(b, want, sizeof b);
    tc_gemm_inferred r = infer_sim("tf32", given, 32, 2048);
    assert_true(r.consistent);
    assert_int_equal(r.nruns, 15);
    for (int t = 0; t < 15; t++)
        assert_int_equal(r.run_start[t], want[t]);
    for (int j = 1; j < 15; j++)   /* slice 0 is added last: every meeting is the root */
        assert_int_equal(r.lca[j], 15);
    tc_gemm_inferred_free(&r);
}

/* A "library" whose outputs are the correctly rounded products: no step
 * cuts a small term, so no chunk/promotion/split-K structure fits it. */
static int exact_run(void *ctx, const tc_gemm_path *p, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                     size_t nout, const int *ii, const int *jj, uint32_t *out, int warmup, int reps, double *ms,
                     tc_gemm_algo *algo, char *err, size_t errlen)
{
    uint64_t *a = calloc((size_t)k, 8), *b = calloc((size_t)k, 8), d;
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    for (size_t e = 0; e < nout; e++) {
        for (int kk = 0; kk < k; kk++)
            a[kk] = A[(size_t)ii[e] * k + kk], b[kk] = B[(size_t)kk * n + jj[e]];
        oracle_mma_exact((oracle_formats){p->a, p->b, &tc_f32, &tc_f32}, 1, 1, k, 1, a, b, NULL, &d, r);
        out[e] = (uint32_t)d;
    }
    free(a), free(b);
    *ms = 0;
    return 0;
}

static void test_inference_refuses_a_library_without_the_structure(void **state)
{
    (void)state;
    tc_gemm_lib lib = {.name = "exact", .run = exact_run};
    tc_gemm_inferred r;
    char err[512];
    assert_int_equal(tc_gemm_infer(&lib, tc_gemm_path_by_name("f16"), 32, 32, 256, &r, err, sizeof err), 0);
    assert_false(r.consistent);
    assert_int_equal(r.s.chunk, 2);   /* the small term survives next to the cancelled large ones */
    tc_gemm_inferred_free(&r);
}

/* The same library through a case with --infer: not a bare verdict but
 * "unexplained", the best candidates' rates and the outputs none predicts. */
static void test_unexplained_says_what(void **state)
{
    (void)state;
    tc_gemm_lib lib = {.name = "exact", .run = exact_run};
    tc_gemm_case c = {.m = 32, .n = 32, .k = 256, .seed = 3, .samples = 300, .infer = true, .profile = PROFILE};
    json_t *rec = tc_gemm_case_record(&lib, tc_gemm_path_by_name("f16"), &c);
    json_t *st = json_object_get(rec, "structure");
    assert_string_equal(json_string_value(json_object_get(st, "status")), "unexplained");
    json_t *cands = json_object_get(st, "best_candidates");
    assert_true(json_array_size(cands) > 0);
    json_t *best = json_array_get(cands, 0);
    assert_true(json_integer_value(json_object_get(best, "bit_exact")) < json_integer_value(json_object_get(best, "n")));
    assert_true(json_array_size(json_object_get(st, "unexplained_outputs")) > 0);
    json_decref(rec);
}

static float f32(uint64_t u)
{
    uint32_t w = (uint32_t)u;
    float x;
    memcpy(&x, &w, 4);
    return x;
}

/* The predictor against a second computation: each accumulator run is one
 * model_dot of the instruction model (its own steps of `block` inside),
 * runs added in FP32 here, slices added in K order. */
static void test_predictor_matches_model_dot_per_run(void **state)
{
    (void)state;
    char err[512];
    const tc_gemm_path *p = tc_gemm_path_by_name("e4m3");
    model *md = tc_gemm_model(p, PROFILE, err, sizeof err);
    assert_non_null(md);
    enum { K = 512 };
    uint64_t a[K], b[K];
    tc_rounding rn = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
    srand(7);
    static const int promote[] = {0, 32, 128}, splitk[] = {1, 2, 4};
    int tested = 0;
    for (int trial = 0; trial < 40; trial++) {
        for (int i = 0; i < K; i++) {
            a[i] = tc_encode_f64(&tc_e4m3, (rand() / (double)RAND_MAX - 0.5) * 8, rn);
            b[i] = tc_encode_f64(&tc_e4m3, (rand() / (double)RAND_MAX - 0.5) * 8, rn);
        }
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++) {
                tc_gemm_struct s = {32, promote[x], splitk[y], GEMM_COMBINE_SEQ, 0, {0}, {0}};
                int len = K / s.splitk, run = s.promote ? s.promote : len;
                float d = 0;
                for (int t = 0; t < s.splitk; t++) {
                    float slice = 0;
                    for (int r0 = t * len; r0 < (t + 1) * len; r0 += run) {
                        float v = f32(model_dot(md, run, a + r0, b + r0, 0));
                        slice = r0 == t * len ? v : slice + v;
                    }
                    d = t == 0 ? slice : d + slice;
                }
                uint32_t want;
                memcpy(&want, &d, 4);
                assert_int_equal(tc_gemm_struct_dot(&s, md, K, a, b), want);
                tested++;
            }
    }
    assert_int_equal(tested, 360);
    model_free(md);
}

/* A case on the simulated library: the inferred structure predicts every
 * sampled output; predicting with a different promotion interval does not. */
static void test_case_predicts_the_simulated_library(void **state)
{
    (void)state;
    char err[512];
    tc_gemm_lib lib;
    tc_gemm_struct s = {32, 128, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    assert_int_equal(tc_gemm_lib_sim(&lib, PROFILE, &s, GEMM_IN_AS_UPLOADED, err, sizeof err), 0);
    tc_gemm_case c = {.m = 32, .n = 32, .k = 1024, .dist = SWEEP_NORMAL, .seed = 3, .samples = 300,
                      .infer = true, .profile = PROFILE};
    json_t *r = tc_gemm_case_record(&lib, tc_gemm_path_by_name("e4m3"), &c);
    json_t *st = json_object_get(r, "structure");
    assert_true(json_is_true(json_object_get(st, "consistent")));
    json_t *pr = json_object_get(st, "prediction");
    assert_int_equal(json_integer_value(json_object_get(pr, "n")), 300);
    assert_int_equal(json_integer_value(json_object_get(pr, "bit_exact")), 300);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "inferred"), "promote")), 128);
    /* errors are reported against both references, and they differ (FP8 rounding of the inputs) */
    double vs_orig = json_real_value(json_object_get(json_object_get(r, "error_vs_original"), "median_ulps"));
    double vs_round = json_real_value(json_object_get(json_object_get(r, "error_vs_rounded"), "median_ulps"));
    assert_true(vs_orig > vs_round);
    json_decref(r);
    tc_gemm_lib_sim_free(&lib);

    /* The same library, predicted with one accumulator per slice: not all bit-exact. */
    model *md = tc_gemm_model(tc_gemm_path_by_name("e4m3"), PROFILE, err, sizeof err);
    tc_gemm_struct wrong = {32, 0, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    uint64_t a[1024], b[1024];
    tc_rounding rn = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
    int differ = 0;
    srand(11);
    for (int t = 0; t < 50; t++) {
        for (int i = 0; i < 1024; i++) {
            a[i] = tc_encode_f64(&tc_e4m3, rand() / (double)RAND_MAX * 4, rn);
            b[i] = tc_encode_f64(&tc_e4m3, rand() / (double)RAND_MAX * 4, rn);
        }
        differ += tc_gemm_struct_dot(&s, md, 1024, a, b) != tc_gemm_struct_dot(&wrong, md, 1024, a, b);
    }
    assert_true(differ > 25);
    model_free(md);
}

/* The tf32 input conversion of a simulated library is recovered from its
 * outputs, whichever of the four it was built with: exactly that one
 * predicts every output tried, the others fewer, and the case predicts
 * all of its outputs with it. */
static void test_tf32_input_conversion_recovered(void **state)
{
    (void)state;
    static const tc_gemm_incvt given[] = {GEMM_IN_TF32_RZ, GEMM_IN_TF32_RNA, GEMM_IN_TF32_RNE, GEMM_IN_FULL_F32};
    for (int g = 0; g < 4; g++) {
        char err[512];
        tc_gemm_lib lib;
        tc_gemm_struct s = {8, 64, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}};
        assert_int_equal(tc_gemm_lib_sim(&lib, PROFILE, &s, given[g], err, sizeof err), 0);
        tc_gemm_case c = {.m = 32, .n = 32, .k = 256, .dist = SWEEP_NORMAL, .seed = 4, .samples = 600,
                          .infer = true, .profile = PROFILE};
        json_t *r = tc_gemm_case_record(&lib, tc_gemm_path_by_name("tf32"), &c);
        json_t *st = json_object_get(r, "structure"), *ic = json_object_get(st, "input_conversion");
        assert_string_equal(json_string_value(json_object_get(ic, "used")), tc_gemm_incvt_name(given[g]));
        assert_true(json_is_true(json_object_get(ic, "decided")));
        json_t *cands = json_object_get(ic, "candidates");
        assert_int_equal(json_array_size(cands), 4);
        for (size_t x = 0; x < 4; x++) {
            json_t *e = json_array_get(cands, x);
            bool is_given = !strcmp(json_string_value(json_object_get(e, "conversion")), tc_gemm_incvt_name(given[g]));
            json_int_t n = json_integer_value(json_object_get(e, "bit_exact"));
            if (is_given)
                assert_int_equal(n, 600);
            else
                assert_true(n < 600);
        }
        json_t *pr = json_object_get(st, "prediction");
        assert_int_equal(json_integer_value(json_object_get(pr, "bit_exact")), 600);
        json_decref(r);
        tc_gemm_lib_sim_free(&lib);
    }
}

/* The rounding candidates are conversions of the FP32 container to tf32,
 * checked against bit arithmetic written here: RZ clears the 13 low bits;
 * RNE/RNA add half an ulp (RNE: less one on an even tie) and clear them. */
static void test_tf32_conversions_are_bit_arithmetic(void **state)
{
    (void)state;
    tc_gemm_struct one = {8, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    const tc_gemm_path *p = tc_gemm_path_by_name("tf32");
    enum { K = 8 };
    /* A[0][t] = x_t, B[t][0] = 1 for t = 0 only: D = x_0 converted (exact product, one term). */
    uint32_t A[K] = {0}, B[K] = {0};
    B[0] = 0x3F800000u;   /* 1.0f */
    static const uint32_t xs[] = {0x3F801000u, 0x3F803000u, 0x3F800FFFu, 0x3F801001u, 0xBF801000u, 0x40490FDBu};
    static const tc_gemm_incvt cv[] = {GEMM_IN_TF32_RZ, GEMM_IN_TF32_RNE, GEMM_IN_TF32_RNA, GEMM_IN_FULL_F32};
    int ii = 0;
    for (size_t x = 0; x < sizeof xs / sizeof xs[0]; x++) {
        uint32_t u = xs[x], low = u & 0x1FFFu, even = (u >> 13) & 1u;
        uint32_t want[4] = {u & ~0x1FFFu,
                            (low > 0x1000u || (low == 0x1000u && even)) ? (u & ~0x1FFFu) + 0x2000u : u & ~0x1FFFu,
                            low >= 0x1000u ? (u & ~0x1FFFu) + 0x2000u : u & ~0x1FFFu, u};
        A[0] = u;
        for (int c = 0; c < 4; c++) {
            uint32_t d;
            char err[256];
            assert_int_equal(gemm_predict(p, PROFILE, &one, cv[c], A, B, 1, K, 1, &ii, &ii, &d, err, sizeof err), 0);
            if (d != want[c])
                fail_msg("%s of 0x%08X: 0x%08X, want 0x%08X", tc_gemm_incvt_name(cv[c]), u, d, want[c]);
        }
    }
}

static void test_svg_draws_each_run(void **state)
{
    (void)state;
    tc_gemm_struct s = {32, 128, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    char *svg = tc_gemm_struct_svg(&s, 1024);
    int rects = 0;
    for (const char *q = svg; (q = strstr(q, "<rect")); q++)
        rects++;
    assert_int_equal(rects, 8);   /* 1024 / 2 / 128 runs per slice, 2 slices */
    assert_non_null(strstr(svg, "</svg>"));
    free(svg);
    /* 15 uneven slices met last to first: one leaf each, the 8th starting at 7 * 4352. */
    tc_gemm_struct rev = {8, 0, 15, GEMM_COMBINE_REVERSE, 32, {0}, {0}};
    svg = tc_gemm_struct_svg(&rev, 65536);
    rects = 0;
    for (const char *q = svg; (q = strstr(q, "<rect")); q++)
        rects++;
    assert_int_equal(rects, 15);
    assert_non_null(strstr(svg, ">30464</text>"));
    assert_non_null(strstr(svg, ">34848</text>"));
    assert_non_null(strstr(svg, "cut in units of 32, slices last to first"));
    free(svg);
}

/* The one text of a split (fitting's candidates, probe's summary, choose's
 * strategy): even, in whole K tiles, cut unevenly; when the cuts do not fit
 * the buffer, " ..." and the combine order still said. */
static void test_slices_text(void **state)
{
    (void)state;
    char buf[64];
    tc_gemm_struct s = {.chunk = 16, .splitk = 1, .combine = GEMM_COMBINE_SEQ};
    assert_string_equal(tc_gemm_slices_text(&s, buf, sizeof buf), "split-K 1, seq");
    s.splitk = 3, s.slice_unit = 256, s.combine = GEMM_COMBINE_PAIRWISE;
    assert_string_equal(tc_gemm_slices_text(&s, buf, sizeof buf), "split-K 3 in units of 256, pairwise");
    s.slice_unit = TC_GEMM_CUTS, s.combine = GEMM_COMBINE_REVERSE, s.splitk = 1;
    assert_string_equal(tc_gemm_slices_text(&s, buf, sizeof buf), "split-K 1, reverse");   /* was "cut at," */
    s.splitk = 3;
    s.cut[0] = 0, s.cut[1] = 341, s.cut[2] = 682, s.cut[3] = 1024;
    assert_string_equal(tc_gemm_slices_text(&s, buf, sizeof buf), "split-K 3 cut at 341 682, reverse");
    s.splitk = 16;
    for (int t = 0; t <= 16; t++)
        s.cut[t] = 4096 * t;
    char small[48];
    assert_string_equal(tc_gemm_slices_text(&s, small, sizeof small), "split-K 16 cut at 4096 8192 12288 ..., reverse");
}

static void test_cli_without_gpu(void **state)
{
    (void)state;
#if !TC_HAVE_CUDA
    tc_run_result r = tc_run_cli("gemm --path f16 --k 64");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no GPU ("));
    assert_non_null(strstr(r.err, "--backend model:h100"));
    tc_run_result_free(&r);
#endif
    tc_run_result u = tc_run_cli("gemm --k 24");
    assert_int_equal(u.status, 2);
    assert_non_null(strstr(u.err, "multiple of 16"));
    tc_run_result_free(&u);
    u = tc_run_cli("gemm --path f17");
    assert_int_equal(u.status, 2);
    assert_non_null(strstr(u.err, "unknown --path 'f17'"));
    tc_run_result_free(&u);
    u = tc_run_cli("gemm --backend model:h100 --sim 17,1");
    assert_int_equal(u.status, 2);
    assert_non_null(strstr(u.err, "bad --sim"));
    tc_run_result_free(&u);
    /* the self-test end to end: a record of one case, structure recovered, all predicted */
    u = tc_run_cli("gemm --backend model:h100 --path e5m2-fast --m 32 --n 32 --k 512 --samples 100 --sim 0,4 --json");
    assert_int_equal(u.status, 0);
    char err[600];
    json_t *cases = tc_gemm_records_parse(u.out, "gemm --json", NULL, err, sizeof err);
    if (!cases)
        fail_msg("%s", err);
    assert_int_equal(json_array_size(cases), 1);
    json_t *rec = json_incref(json_array_get(cases, 0));
    json_decref(cases);
    json_t *st = json_object_get(rec, "structure");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "inferred"), "promote")), 128);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "prediction"), "bit_exact")), 100);
    json_decref(rec);
    tc_run_result_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inference_recovers_given_structures),
        cmocka_unit_test(test_inference_recovers_uneven_reverse_split),
        cmocka_unit_test(test_inference_refuses_a_library_without_the_structure),
        cmocka_unit_test(test_unexplained_says_what),
        cmocka_unit_test(test_predictor_matches_model_dot_per_run),
        cmocka_unit_test(test_case_predicts_the_simulated_library),
        cmocka_unit_test(test_tf32_input_conversion_recovered),
        cmocka_unit_test(test_tf32_conversions_are_bit_arithmetic),
        cmocka_unit_test(test_svg_draws_each_run),
        cmocka_unit_test(test_slices_text),
        cmocka_unit_test(test_cli_without_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
