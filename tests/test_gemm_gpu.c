/* The gemm predictor on the GPU model (cases/gemm_predict_gpu.c, probes/
 * model_gpu_gemm*.{h,c}, probes/cuda/model_gpu_gemm.cu):
 *   - the walk kernel's SASS histogram holds integer opcodes only (skipped
 *     until a GPU machine has written one);
 *   - mgemm_f32_add, the integer FP32 addition the walk meets runs and
 *     slices with, equals the CPU's float addition bit for bit on normal,
 *     subnormal, cancelling, far-apart and special operands, and the
 *     pairwise tree it meets slices with is gemm_combine's for 1..64 slices;
 *   - the walk on the CPU (gemm_predict_on with no GPU: the kernel's own
 *     source, compiled for the CPU) gives gemm_predict's bits for every
 *     output of GEMMs of each path, input conversion, chunk, promotion,
 *     split-K cut and combine order, sampled and whole;
 *   - choose's library-path evaluation (app_eval_lib) gives the same error
 *     statistics with the walk as with the CPU's predictor, tf32 and FP8
 *     with per-row scales, and counts its outputs where they were computed;
 *   - the exact references are computed once per data set and shared by
 *     the candidates that multiply the same values, with the statistics of
 *     a cache of each candidate's own; the stages of every evaluation add
 *     up within its seconds;
 *   - on a GPU (skipped without one) the kernel gives gemm_predict's bits
 *     for the same GEMMs and app_eval_lib the same statistics, also with
 *     the exact references on the GPU (probes/model_gpu_exact.h), and counts
 *     every output as the GPU's or the CPU's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cases/app.h"
#include "cases/app_internal.h"
#include "cases/sweep_internal.h"
#include "cases/gemm_internal.h"
#include "probes/model_gpu_gemm_core.h"
#include "tests/sass_histogram.h"

#define PROFILE "oracle/profiles/h100.profile"

/* The GEMM walk's kernel (probes/cuda/model_gpu_gemm.cu): its histogram from
 * a GPU machine (tools/device/gemm-gpu.sh; a machine without cuobjdump cannot write it),
 * committed as tests/data/model_gpu_gemm_sass.txt or named by
 * TC_MODEL_GPU_GEMM_SASS; skipped until there is one. */
static void test_gemm_sass_is_integer_only(void **state)
{
    const char *env = getenv("TC_MODEL_GPU_GEMM_SASS"), *path = env ? env : "tests/data/model_gpu_gemm_sass.txt";
    char *text = slurp(path), why[256];
    if (!text) {
        if (env)
            fail_msg("cannot read %s", path);
        printf("no %s yet (a GPU machine's tools/device/gemm-gpu.sh writes it)\n", path);
        skip();
    }
    const char *bad = check_histogram(text, "tc_model_gpu_gemm_kernel", why, sizeof why);
    if (bad)
        fail_msg("%s: %s", path, bad);
    free(text);
}

/* ---- the FP32 addition ---- */

static uint32_t hw_add(uint32_t a, uint32_t b)
{
    volatile float x = gemm_f32_of(a), y = gemm_f32_of(b);
    float s = x + y;
    return gemm_bits_of(s);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static void test_f32_add_is_the_cpus(void **state)
{
    (void)state;
    mfmt f32;
    assert_true(mfmt_init(&f32, &tc_f32));
    static const uint32_t special[] = {0, 0x80000000, 1, 0x80000001, 0x7fffff, 0x800000, 0x807fffff, 0x7f7fffff,
                                       0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
                                       0x3f800000, 0xbf800000, 0x33800000, 0x4b800000};
    size_t ns = sizeof special / sizeof special[0], diffs = 0, n = 0;
    for (size_t i = 0; i < ns; i++)
        for (size_t j = 0; j < ns; j++, n++)
            diffs += mgemm_f32_add(&f32, special[i], special[j]) != hw_add(special[i], special[j]);
    uint64_t s = 88172645463325252ull;
    for (int r = 0; r < 4000000; r++, n++) {
        uint32_t a = (uint32_t)rng(&s), b = (uint32_t)rng(&s);
        switch (r & 3) {
        case 0:   /* any bits */
            break;
        case 1:   /* near cancellation: b ~ -a */
            b = (a ^ 0x80000000u) + (uint32_t)(rng(&s) % 9) - 4;
            break;
        case 2: {   /* exponents 0..80 apart: around the 64 where the exact sum leaves 128 bits */
            uint32_t ea = (a >> 23) & 0xff, d = (uint32_t)(rng(&s) % 81);
            b = (b & 0x807fffffu) | ((ea > d ? ea - d : 0) << 23);
            break;
        }
        default:   /* subnormals and the smallest normals */
            a &= 0x80ffffffu, b &= 0x80ffffffu;
        }
        uint32_t got = mgemm_f32_add(&f32, a, b), want = hw_add(a, b);
        if (got != want && diffs++ < 5)
            print_message("%08x + %08x: integer %08x, float %08x\n", a, b, got, want);
    }
    if (diffs)
        fail_msg("%zu of %zu FP32 additions differ", diffs, n);
}

/* The slices met as the walk meets them (the pairwise tree on its own
 * stack) and as gemm_combine does, for every slice count 1..64. */
static void test_pairwise_is_gemm_combine(void **state)
{
    (void)state;
    mfmt f32;
    assert_true(mfmt_init(&f32, &tc_f32));
    uint64_t s = 7;
    for (int S = 1; S <= TC_MGEMM_MAX_SLICES; S++)
        for (int r = 0; r < 50; r++) {
            uint32_t v[TC_MGEMM_MAX_SLICES];
            float f[TC_MGEMM_MAX_SLICES];
            for (int t = 0; t < S; t++) {   /* magnitudes 2^-20 .. 2^20, either sign: rounding in every add */
                uint32_t e = 107 + (uint32_t)(rng(&s) % 41);
                v[t] = (uint32_t)(rng(&s) & 0x807fffffu) | (e << 23);
                f[t] = gemm_f32_of(v[t]);
            }
            tc_gemm_struct pw = {.splitk = S, .combine = GEMM_COMBINE_PAIRWISE};
            assert_int_equal(mgemm_pairwise(&f32, v, S), gemm_bits_of(gemm_combine(f, &pw)));
        }
}

/* ---- whole GEMMs ---- */

typedef struct {
    const char *path;
    tc_gemm_incvt cv;
    tc_gemm_struct s;
    int m, n, k;
    sweep_dist dist;
} gemm_shape;

static const gemm_shape shapes[] = {
    {"f16", GEMM_IN_AS_UPLOADED, {16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, 24, 40, 1000, SWEEP_NORMAL},
    {"bf16", GEMM_IN_AS_UPLOADED, {16, 0, 4, GEMM_COMBINE_PAIRWISE, 0, {0}, {0}}, 16, 48, 512, SWEEP_LOGUNIFORM},
    {"tf32", GEMM_IN_TF32_RZ, {8, 0, 15, GEMM_COMBINE_REVERSE, 32, {0}, {0}}, 16, 16, 1000, SWEEP_NORMAL},
    {"tf32", GEMM_IN_TF32_RNA, {8, 64, 3, GEMM_COMBINE_SEQ, 0, {0}, {0}}, 16, 24, 768, SWEEP_LOGUNIFORM},
    {"tf32", GEMM_IN_FULL_F32, {8, 0, 2, GEMM_COMBINE_PAIRWISE, 0, {0}, {0}}, 8, 40, 520, SWEEP_NORMAL},
    {"e4m3", GEMM_IN_AS_UPLOADED, {32, 128, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}}, 16, 32, 1024, SWEEP_NORMAL},
    {"e4m3", GEMM_IN_FP8_AS_F16, {16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, 16, 16, 333, SWEEP_LOGUNIFORM},
    {"e5m2", GEMM_IN_AS_UPLOADED, {32, 96, 3, GEMM_COMBINE_REVERSE, TC_GEMM_CUTS, {0, 100, 544, 600}, {0}}, 24, 16, 600,
     SWEEP_INTS},
    {"f16", GEMM_IN_AS_UPLOADED, {64, 0, 5, GEMM_COMBINE_PAIRWISE, 0, {0}, {0}}, 8, 16, 4096, SWEEP_INTS},
    /* JAX's XOR tree of slices (the walk leaves it to the CPU's predictor) */
    {"bf16", GEMM_IN_AS_UPLOADED, {16, 0, 8, GEMM_COMBINE_XOR, 0, {0}, {2, 0, 1}}, 16, 16, 640, SWEEP_NORMAL},
};

/* Every output of shape x by gemm_predict, then by the walk on g (NULL: the
 * CPU), all of D and a sampled list; the counts add up. */
static void compare(tc_model_gpu *g, const gemm_shape *x)
{
    char err[512];
    const tc_gemm_path *p = tc_gemm_path_by_name(x->path);
    assert_non_null(p);
    tc_gemm_case c = {.m = x->m, .n = x->n, .k = x->k, .dist = x->dist, .seed = 29};
    size_t mn = (size_t)x->m * x->n;
    uint32_t *A = gemm_alloc((size_t)x->m * x->k, 4), *B = gemm_alloc((size_t)x->k * x->n, 4);
    gemm_uploads(p, &c, A, B);
    int *ii = gemm_alloc(mn, sizeof *ii), *jj = gemm_alloc(mn, sizeof *jj), *si = gemm_alloc(mn, sizeof *si),
        *sj = gemm_alloc(mn, sizeof *sj);
    for (size_t e = 0; e < mn; e++) {
        ii[e] = (int)(e / (size_t)x->n), jj[e] = (int)(e % (size_t)x->n);
        si[e] = (int)(e * 7 % (size_t)x->m), sj[e] = (int)(e * 13 % (size_t)x->n);   /* repeats some */
    }
    uint32_t *want = gemm_alloc(mn, 4), *got = gemm_alloc(mn, 4);
    if (gemm_predict(p, PROFILE, &x->s, x->cv, A, B, x->n, x->k, mn, ii, jj, want, err, sizeof err))
        fail_msg("%s", err);
    tc_model_gpu_count cnt = {0};
    if (gemm_predict_on(g, p, PROFILE, &x->s, x->cv, A, B, x->m, x->n, x->k, mn, NULL, NULL, got, &cnt, err,
                        sizeof err))
        fail_msg("%s", err);
    size_t diffs = 0;
    for (size_t e = 0; e < mn; e++)
        if (got[e] != want[e] && diffs++ < 3)
            print_message("%s %s: D[%d][%d] walked %08x, predicted %08x\n", x->path, tc_gemm_incvt_name(x->cv),
                          ii[e], jj[e], got[e], want[e]);
    if (diffs)
        fail_msg("%s: %zu of %zu outputs differ", x->path, diffs, mn);
    assert_int_equal(cnt.gpu + cnt.cpu, mn);
    if (!g)
        assert_int_equal(cnt.gpu, 0);
    if (gemm_predict(p, PROFILE, &x->s, x->cv, A, B, x->n, x->k, mn, si, sj, want, err, sizeof err) ||
        gemm_predict_on(g, p, PROFILE, &x->s, x->cv, A, B, x->m, x->n, x->k, mn, si, sj, got, &cnt, err, sizeof err))
        fail_msg("%s", err);
    for (size_t e = 0; e < mn; e++)
        if (got[e] != want[e])
            fail_msg("%s: sampled output %zu walked %08x, predicted %08x", x->path, e, got[e], want[e]);
    assert_int_equal(cnt.gpu + cnt.cpu, 2 * mn);
    free(A), free(B), free(ii), free(jj), free(si), free(sj), free(want), free(got);
}

static void test_walk_on_cpu_is_the_predictor(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        compare(NULL, &shapes[i]);
}

/* A structure the walk does not take (a step over 64 positions) goes to
 * gemm_predict, counted as the CPU's. */
static void test_unsupported_goes_to_cpu(void **state)
{
    (void)state;
    char err[512];
    const tc_gemm_path *p = tc_gemm_path_by_name("f16");
    tc_gemm_struct s = {128, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    model *md = tc_gemm_model(p, PROFILE, err, sizeof err);
    tc_model_gemm_chain ch;
    gemm_chain_of(&s, 256, &ch);
    assert_non_null(tc_model_gpu_gemm_unsupported(md, &ch, 256));
    model_free(md);
    tc_gemm_case c = {.m = 4, .n = 4, .k = 256, .dist = SWEEP_NORMAL, .seed = 1};
    uint32_t A[4 * 256], B[256 * 4], got[16], want[16];
    int ii[16], jj[16];
    gemm_uploads(p, &c, A, B);
    for (int e = 0; e < 16; e++)
        ii[e] = e / 4, jj[e] = e % 4;
    tc_model_gpu_count cnt = {0};
    assert_int_equal(gemm_predict(p, PROFILE, &s, GEMM_IN_AS_UPLOADED, A, B, 4, 256, 16, ii, jj, want, err,
                                  sizeof err), 0);
    assert_int_equal(gemm_predict_on(NULL, p, PROFILE, &s, GEMM_IN_AS_UPLOADED, A, B, 4, 4, 256, 16, NULL, NULL, got,
                                     &cnt, err, sizeof err), 0);
    assert_memory_equal(got, want, sizeof got);
    assert_int_equal(cnt.cpu, 16);
}

/* app_eval_lib of two candidates with the walk on g (NULL: the CPU) and
 * without it: the same statistics, the outputs counted. */
static void app_same_on(tc_model_gpu *g, int rows, int cols, int k)
{
    char err[512];
    app_dist dist;
    assert_true(app_dist_parse("lognormal:0,2", &dist, err, sizeof err));
    app_data d;
    size_t no = (size_t)rows * cols;
    assert_true(app_data_make(&d, &dist, 512, 512, k, rows, cols, 5, false, err, sizeof err));
    app_lib_candidate cand[] = {
        {.p = tc_gemm_path_by_name("tf32"), .s = {8, 0, 3, GEMM_COMBINE_REVERSE, 0, {0}, {0}},
         .incvt = GEMM_IN_TF32_RNA},
        {.p = tc_gemm_path_by_name("e4m3"), .s = {32, 128, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, .scaling = APP_SCALE_ROW},
    };
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        app_lib_candidate c = cand[i];
        c.profile = PROFILE, c.rows = rows, c.cols = cols;
        tc_model_gpu_count n0 = {0}, n1 = {0};
        app_result r0, r1;
        c.count = &n0;
        assert_int_equal(app_eval_lib(&d, &c, &r0, err, sizeof err), 0);
        c.walk = true, c.gpu = g, c.count = &n1;
        if (app_eval_lib(&d, &c, &r1, err, sizeof err))
            fail_msg("%s", err);
        assert_memory_equal(&r0.vs_orig, &r1.vs_orig, sizeof r0.vs_orig);
        assert_memory_equal(&r0.vs_rounded, &r1.vs_rounded, sizeof r0.vs_rounded);
        assert_int_equal(n0.cpu, no);
        assert_int_equal(n0.gpu, 0);
        assert_int_equal(n1.gpu + n1.cpu, no);
        assert_true(g ? n1.gpu > 0 : n1.cpu == no);
        if (g) {   /* and with the exact references on the GPU: the oracle's bits, so the same statistics */
            tc_model_gpu_count refs = {0};
            app_reference_cache_clear();
            app_reference_use(g, &refs);
            if (app_eval_lib(&d, &c, &r1, err, sizeof err))
                fail_msg("%s", err);
            app_reference_use(NULL, NULL);
            app_reference_cache_clear();
            assert_memory_equal(&r0.vs_orig, &r1.vs_orig, sizeof r0.vs_orig);
            assert_memory_equal(&r0.vs_rounded, &r1.vs_rounded, sizeof r0.vs_rounded);
            assert_int_equal(refs.gpu + refs.cpu, 2 * no);   /* two references of every output */
        }
    }
    app_data_free(&d);
    app_dist_free(&dist);
    app_reference_cache_clear();
}

/* 20 x 30 outputs; 66 x 129: the walk's operands laid out in 64 x 64
 * blocks, the last of each side partial. */
static void app_same(tc_model_gpu *g)
{
    app_same_on(g, 20, 30, 700);
    app_same_on(g, 66, 129, 150);
}

/* The stages of an evaluation: none negative, together within its seconds. */
static void stages_sane(const app_result *r)
{
    const app_stages *t = &r->stages;
    assert_true(t->inputs_s >= 0 && t->model_s >= 0 && t->references_s >= 0 && t->metrics_s >= 0);
    assert_true(t->model_kernel_s >= 0 && t->model_copy_s >= 0 && t->model_cpu_s >= 0);
    assert_true(t->model_kernel_s + t->model_copy_s + t->model_cpu_s <= t->model_s + 1e-6);
    assert_true(t->inputs_s + t->model_s + t->references_s + t->metrics_s <= r->seconds + 1e-6);
}

/* The exact references are computed once per data set and shared by every
 * candidate that multiplies the same values: the same statistics as each
 * candidate with a cache of its own, each reference computed once. */
static void test_references_shared(void **state)
{
    (void)state;
    char err[512];
    app_dist dist;
    assert_true(app_dist_parse("normal", &dist, err, sizeof err));
    app_data d;
    assert_true(app_data_make(&d, &dist, 64, 64, 300, 24, 40, 9, false, err, sizeof err));
    app_lib_candidate cand[] = {
        {.p = tc_gemm_path_by_name("f16"), .s = {16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}},
        {.p = tc_gemm_path_by_name("f16"), .s = {16, 64, 2, GEMM_COMBINE_PAIRWISE, 0, {0}, {0}}},
        {.p = tc_gemm_path_by_name("e4m3"), .s = {32, 128, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, .scaling = APP_SCALE_ROW},
    };
    enum { N = sizeof cand / sizeof cand[0] };
    static const int computed[N] = {2, 0, 1}, shared[N] = {0, 2, 1};   /* orig + f16, f16 again, e4m3's own */
    app_result alone[N], together[N];
    app_reference_cache_clear();
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < N; i++) {
            app_lib_candidate c = cand[i];
            c.profile = PROFILE, c.rows = 24, c.cols = 40, c.incvt = GEMM_IN_AS_UPLOADED;
            if (pass == 0 || i == 0)   /* alone: a cache of its own; together: one for all */
                app_reference_cache_clear();
            app_result *r = pass ? &together[i] : &alone[i];
            if (app_eval_lib(&d, &c, r, err, sizeof err))
                fail_msg("%s", err);
            stages_sane(r);
            assert_int_equal(r->stages.references_computed, pass ? computed[i] : 2);
            assert_int_equal(r->stages.references_shared, pass ? shared[i] : 0);
            if (pass && !computed[i])
                assert_true(r->stages.references_s == 0);
        }
    for (int i = 0; i < N; i++) {
        assert_memory_equal(&alone[i].vs_orig, &together[i].vs_orig, sizeof alone[i].vs_orig);
        assert_memory_equal(&alone[i].vs_rounded, &together[i].vs_rounded, sizeof alone[i].vs_rounded);
    }
    /* the two f16 structures differ, their statistics against the shared references too */
    assert_true(memcmp(&together[0].vs_rounded, &together[1].vs_rounded, sizeof together[0].vs_rounded));
    app_reference_cache_clear();
    app_data_free(&d);
    app_dist_free(&dist);
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* app_stats_of's quantiles (a radix selection over the errors' bits on
 * every core, for 10^7 and more outputs) are the nearest ranks of the
 * sorted errors, and its counts and normwise error those of one loop: many
 * equal errors, Inf, few values, errors over many binades, zero
 * references; up to 300007 outputs (several slices of the selection). */
static void test_stats_are_the_sorted_ranks(void **state)
{
    (void)state;
    uint64_t s = 3;
    static const size_t ns[] = {1, 2, 3, 10, 99, 1000, 100003, 300007};
    for (size_t x = 0; x < sizeof ns / sizeof ns[0]; x++)
        for (int kind = 0; kind < 5; kind++) {
            size_t n = ns[x], m = 0, zero = 0, nonfinite = 0;
            double *got = gemm_alloc(n, 8), *ref = gemm_alloc(n, 8), *rel = gemm_alloc(n, 8), num = 0, den = 0;
            for (size_t i = 0; i < n; i++) {
                ref[i] = 1.0 + (double)(rng(&s) % 7);
                uint64_t r = rng(&s);
                got[i] = kind == 0 ? ref[i] * (1 + (double)(r % 1000) * 1e-6)       /* spread */
                         : kind == 1 ? ref[i] * (1 + (double)(r % 3) * 0.25)         /* few values */
                         : kind == 2 ? (r % 50 ? ref[i] : INFINITY)                  /* equal, some Inf */
                         : kind == 3 ? ref[i] * (1 + ldexp(1.0, -(int)(r % 60)))     /* many binades */
                                     : (r % 5 ? ref[i] * 1.5 : 0.25);                /* zero references */
                if (kind == 4 && r % 5 == 0)
                    ref[i] = 0;
                nonfinite += !isfinite(got[i]);
                num += (got[i] - ref[i]) * (got[i] - ref[i]), den += ref[i] * ref[i];
                if (ref[i] == 0) {
                    zero++;
                    continue;
                }
                rel[m] = fabs(got[i] - ref[i]) / ref[i];
                rel[m] = isfinite(got[i]) ? rel[m] : INFINITY;
                m++;
            }
            app_stats st;
            app_stats_of(got, ref, n, &st);
            assert_int_equal(st.n, m);
            assert_int_equal(st.zero_ref, zero);
            assert_int_equal(st.nonfinite, nonfinite);
            double nw = nonfinite ? INFINITY : den > 0 ? sqrt(num) / sqrt(den) : NAN;
            assert_true(st.normwise == nw || (isnan(st.normwise) && isnan(nw)));
            if (!m) {
                assert_true(isnan(st.median) && isnan(st.max));
            } else {
                qsort(rel, m, 8, cmp_d);
                assert_true(st.median == sweep_quantile_sorted(rel, m, 0.5));
                assert_true(st.p90 == sweep_quantile_sorted(rel, m, 0.9));
                assert_true(st.p99 == sweep_quantile_sorted(rel, m, 0.99));
                assert_true(st.max == rel[m - 1]);
            }
            free(got), free(ref), free(rel);
        }
}

static void test_choose_walk_is_the_cpus(void **state)
{
    (void)state;
    app_same(NULL);
}

static void test_walk_on_gpu_is_the_predictor(void **state)
{
    (void)state;
    char err[512];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    if (!g) {
        print_message("no GPU model: %s\n", err);
        skip();
    }
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        compare(g, &shapes[i]);
    /* one larger GEMM: several thread blocks per row, many rows */
    gemm_shape big = {"f16", GEMM_IN_AS_UPLOADED, {16, 0, 4, GEMM_COMBINE_PAIRWISE, 0, {0}, {0}}, 256, 300, 2048,
                      SWEEP_NORMAL};
    compare(g, &big);
    app_same(g);
    print_message("GEMM walk on %s: every output equal to gemm_predict\n", tc_model_gpu_name(g));
    tc_model_gpu_close(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemm_sass_is_integer_only),
        cmocka_unit_test(test_f32_add_is_the_cpus),
        cmocka_unit_test(test_pairwise_is_gemm_combine),
        cmocka_unit_test(test_walk_on_cpu_is_the_predictor),
        cmocka_unit_test(test_unsupported_goes_to_cpu),
        cmocka_unit_test(test_choose_walk_is_the_cpus),
        cmocka_unit_test(test_stats_are_the_sorted_ranks),
        cmocka_unit_test(test_references_shared),
        cmocka_unit_test(test_walk_on_gpu_is_the_predictor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
