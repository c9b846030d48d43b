/* tcscope gemm cases: inputs from a seed, one library GEMM, sampled outputs
 * against the exact products of the original and of the rounded inputs,
 * the throughput, and (with infer) the inferred structure's predictions. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm.h"
#include "cases/gemm_internal.h"
#include "cases/sweep_internal.h"
#include "oracle/oracle.h"

static const tc_gemm_path paths[] = {
    {"f16", &tc_f16, &tc_f16, "wgmma.m64n256k16.f32.f16.f16", false, "A, B f16; FP32 compute and output", NULL, {0}},
    {"bf16", &tc_bf16, &tc_bf16, "wgmma.m64n256k16.f32.bf16.bf16", false, "A, B bf16; FP32 compute and output", NULL, {0}},
    {"tf32", &tc_f32, &tc_f32, "wgmma.m64n256k8.f32.tf32.tf32", false,
     "A, B f32 with CUBLAS_COMPUTE_32F_FAST_TF32; FP32 output", NULL, {0}},
    {"e4m3", &tc_e4m3, &tc_e4m3, "wgmma.m64n256k32.f32.e4m3.e4m3", true,
     "A, B e4m3, scales 1, FAST_ACCUM off; FP32 output", NULL, {0}},
    {"e4m3-fast", &tc_e4m3, &tc_e4m3, "wgmma.m64n256k32.f32.e4m3.e4m3", true,
     "A, B e4m3, scales 1, CUBLASLT_MATMUL_DESC_FAST_ACCUM on; FP32 output", NULL, {0}},
    {"e5m2", &tc_e5m2, &tc_e4m3, "wgmma.m64n256k32.f32.e5m2.e4m3", true,
     "A e5m2, B e4m3 (cuBLASLt has no e5m2 x e5m2), FAST_ACCUM off; FP32 output", NULL, {0}},
    {"e5m2-fast", &tc_e5m2, &tc_e4m3, "wgmma.m64n256k32.f32.e5m2.e4m3", true,
     "A e5m2, B e4m3, CUBLASLT_MATMUL_DESC_FAST_ACCUM on; FP32 output", NULL, {0}},
    {"f32", &tc_f32, &tc_f32, NULL, false, "A, B f32, CUBLAS_COMPUTE_32F (no tensor cores); FP32 output", NULL, {0}},
    {"f32-bf16x9", &tc_f32, &tc_f32, NULL, false,
     "A, B f32, CUBLAS_COMPUTE_32F_EMULATED_16BFX9 (3 bf16 terms per input), emulation strategy EAGER "
     "(CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR); FP32 output; algo.emulation_support says whether the chosen "
     "algorithm can emulate", NULL, {0}},
    /* tcscope's own kernel: one accumulator from +0 over all of K, one
     * wgmma (K 16 f16, 32 e4m3) per step, no split-K (gemm_wgmma.cu). */
    {"tcscope-wgmma-f16", &tc_f16, &tc_f16, "wgmma.m64n128k16.f32.f16.f16", false,
     "tcscope's own GEMM (probes/cuda/gemm_wgmma.cu): A, B f16, wgmma.m64n128k16.f32.f16.f16 from shared memory "
     "(128-byte swizzle, cp.async, 4 stages), CTA tile 128x128 of two warpgroups, one FP32 accumulator per output "
     "over all of K from +0, no split-K; FP32 output", "tcscope-wgmma", {16, 0, 1, GEMM_COMBINE_SEQ, 0}},
    {"tcscope-wgmma-e4m3", &tc_e4m3, &tc_e4m3, "wgmma.m64n128k32.f32.e4m3.e4m3", true,
     "tcscope's own GEMM (probes/cuda/gemm_wgmma.cu): A, B e4m3, scales 1, wgmma.m64n128k32.f32.e4m3.e4m3 from "
     "shared memory (128-byte swizzle, cp.async, 4 stages), CTA tile 128x128 of two warpgroups, one FP32 "
     "accumulator per output over all of K from +0 (no promotion), no split-K; FP32 output", "tcscope-wgmma",
     {32, 0, 1, GEMM_COMBINE_SEQ, 0}},
};

const tc_gemm_path *tc_gemm_paths(size_t *count)
{
    *count = sizeof paths / sizeof paths[0];
    return paths;
}

const tc_gemm_path *tc_gemm_path_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        if (!strcmp(paths[i].name, name))
            return &paths[i];
    return NULL;
}

void *gemm_alloc(size_t count, size_t size)
{
    void *p = count && size ? calloc(count, size) : malloc(1);
    if (!p) {
        fprintf(stderr, "tcscope: out of memory (%zu x %zu bytes)\n", count, size);
        exit(2);
    }
    return p;
}

/* The FP32 originals: A then B from one stream per matrix. */
static void draw(float *x, size_t n, uint64_t seed, const char *stream, sweep_dist d)
{
    sweep_rng r;
    sweep_rng_seed(&r, seed, stream);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)sweep_draw(&r, d, 8);
}

typedef struct {
    const tc_format *f;
    const float *x;
    uint32_t *out;
} upload_job;

static void upload_range(void *ctx, size_t lo, size_t hi)
{
    const upload_job *j = ctx;
    tc_rounding r = {.mode = TC_RNE, .ovf = sweep_is_fp8(j->f) ? TC_OVF_SAT : TC_OVF_INF};
    for (size_t i = lo; i < hi; i++)
        j->out[i] = (uint32_t)tc_encode_f32(j->f, j->x[i], r);
}

/* Element by element, spread over the cores (an 8192^3 case uploads 2^27). */
static void upload(const tc_format *f, const float *x, size_t n, uint32_t *out)
{
    upload_job j = {f, x, out};
    oracle_parallel(n, n, upload_range, &j);
}

/* nout distinct outputs, a seeded partial shuffle (all of them, in order,
 * when nout >= m * n). */
static size_t pick_samples(int m, int n, size_t want, uint64_t seed, int *ii, int *jj)
{
    size_t total = (size_t)m * n, nout = want < total ? want : total;
    if (nout == total) {
        for (size_t e = 0; e < total; e++)
            ii[e] = (int)(e / n), jj[e] = (int)(e % n);
        return nout;
    }
    uint32_t *idx = gemm_alloc(total, sizeof *idx);
    for (size_t e = 0; e < total; e++)
        idx[e] = (uint32_t)e;
    sweep_rng r;
    sweep_rng_seed(&r, seed, "gemm-samples");
    for (size_t s = 0; s < nout; s++) {
        size_t t = s + sweep_rng_next(&r) % (total - s);
        uint32_t x = idx[s];
        idx[s] = idx[t], idx[t] = x;
        ii[s] = (int)(idx[s] / n), jj[s] = (int)(idx[s] % n);
    }
    free(idx);
    return nout;
}

size_t gemm_batch(int k)
{
    size_t b = ((size_t)1 << 22) / (size_t)(k > 0 ? k : 1);
    return b ? b : 1;
}

void gemm_gather(const uint32_t *A, const uint32_t *B, int n, int k, int i, int j, uint64_t *a, uint64_t *b)
{
    for (int kk = 0; kk < k; kk++) {
        a[kk] = A[(size_t)i * k + kk];
        b[kk] = B[(size_t)kk * n + j];
    }
}

/* The errors of outputs [lo, hi) of one errors() call, on one thread. */
typedef struct {
    oracle_formats f;
    const uint32_t *A, *B, *got;
    const int *ii, *jj;
    int n, k;
    size_t batch;
    oracle_err *e;
} err_job;

static void err_range(void *ctx, size_t lo, size_t hi)
{
    const err_job *j = ctx;
    size_t k = (size_t)j->k, batch = j->batch < hi - lo ? j->batch : hi - lo;
    uint64_t *a = gemm_alloc(batch * k, sizeof *a), *b = gemm_alloc(batch * k, sizeof *b);
    uint64_t *d = gemm_alloc(batch, sizeof *d);
    for (size_t s0 = lo; s0 < hi; s0 += batch) {
        size_t nb = hi - s0 < batch ? hi - s0 : batch;
        for (size_t t = 0; t < nb; t++) {
            gemm_gather(j->A, j->B, j->n, j->k, j->ii[s0 + t], j->jj[s0 + t], a + t * k, b + t * k);
            d[t] = j->got[s0 + t];
        }
        oracle_mma_err(j->f, 1, 1, j->k, nb, a, b, NULL, d, j->e + s0);   /* inline: inside oracle_parallel */
    }
    free(a), free(b), free(d);
}

/* Errors of the sampled outputs against the exact sum_k A[i][k] B[k][j]
 * of inputs in formats fa, fb, summarised. The outputs are spread over the
 * cores once (each error is its own output's: the split changes no bit);
 * batches keep each thread's memory bounded. */
static json_t *errors(const tc_format *fa, const tc_format *fb, const uint32_t *A, const uint32_t *B, int n, int k,
                      size_t nout, const int *ii, const int *jj, const uint32_t *got)
{
    err_job j = {{fa, fb, &tc_f32, &tc_f32}, A, B, got, ii, jj, n, k, 0, gemm_alloc(nout, sizeof(oracle_err))};
    j.batch = gemm_batch(k);
    oracle_parallel(nout, nout * (size_t)k, err_range, &j);
    oracle_err *e = j.e;
    oracle_err_stats st;
    oracle_err_summarize(e, nout, &st);
    free(e);
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer((json_int_t)st.n));
    json_object_set_new(o, "n_nan", json_integer((json_int_t)st.n_nan));
    json_object_set_new(o, "n_exact", json_integer((json_int_t)st.n_exact));
    json_object_set_new(o, "n_within_half_ulp", json_integer((json_int_t)st.n_half));
    json_object_set_new(o, "n_within_one_ulp", json_integer((json_int_t)st.n_one));
    json_object_set_new(o, "max_ulps", json_real(st.max_ulps));
    json_object_set_new(o, "median_ulps", json_real(st.median_ulps));
    json_object_set_new(o, "mean_ulps", json_real(st.mean_ulps));
    json_object_set_new(o, "max_rel", json_real(st.max_rel));
    json_object_set_new(o, "min_correct_bits", json_real(st.min_bits));
    return o;
}

/* The first sampled outputs, positions and bits: with the seed and the
 * distribution (the inputs are drawn again) a CPU replays the prediction. */
static json_t *outputs_json(size_t nout, const int *ii, const int *jj, const uint32_t *got)
{
    size_t n = nout < GEMM_RECORDED_OUTPUTS ? nout : GEMM_RECORDED_OUTPUTS;
    json_t *o = json_object(), *ia = json_array(), *ja = json_array();
    char *hex = gemm_alloc(n * 8 + 1, 1);
    for (size_t e = 0; e < n; e++) {
        json_array_append_new(ia, json_integer(ii[e]));
        json_array_append_new(ja, json_integer(jj[e]));
        snprintf(hex + e * 8, 9, "%08X", got[e]);
    }
    json_object_set_new(o, "n", json_integer((json_int_t)n));
    json_object_set_new(o, "meaning", json_string("the first n sampled outputs: D[i[e]][j[e]] has the FP32 bits "
                                                  "d_hex[8e .. 8e+7]"));
    json_object_set_new(o, "i", ia);
    json_object_set_new(o, "j", ja);
    json_object_set_new(o, "d_hex", json_string(hex));
    free(hex);
    return o;
}

static json_t *algo_json(const tc_gemm_algo *g)
{
    static const char *const red[] = {"none", "inplace", "compute_type", "?", "output_type"};
    json_t *o = json_object();
    json_object_set_new(o, "algo_id", json_integer(g->algo_id));
    json_object_set_new(o, "tile_id", json_integer(g->tile_id));
    json_object_set_new(o, "splitk", json_integer(g->splitk));
    json_object_set_new(o, "reduction_scheme", json_string(g->reduction_scheme >= 0 && g->reduction_scheme <= 4
                                                               ? red[g->reduction_scheme] : "?"));
    json_object_set_new(o, "cta_swizzling", json_integer(g->swizzle));
    json_object_set_new(o, "custom_option", json_integer(g->custom_option));
    json_object_set_new(o, "stages_id", json_integer(g->stages_id));
    json_object_set_new(o, "inner_shape_id", json_integer(g->inner_shape_id));
    json_object_set_new(o, "cluster_shape_id", json_integer(g->cluster_shape_id));
    json_object_set_new(o, "emulation_support", g->emulation < 0 ? json_null() : json_boolean(g->emulation));
    json_object_set_new(o, "workspace_bytes", json_integer((json_int_t)g->workspace));
    json_object_set_new(o, "waves", json_real(g->waves));
    return o;
}

static json_t *header(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c)
{
    json_t *o = json_object();
    /* An own kernel on the GPU is not cuBLASLt's; under the simulation the
     * library stays "sim". */
    bool own = p->kernel && strcmp(lib->name, "sim");
    json_object_set_new(o, "library", json_string(own ? p->kernel : lib->name));
    json_object_set_new(o, "device", json_string(lib->device));
    json_object_set_new(o, "library_version", json_integer(own ? 0 : lib->version));
    json_object_set_new(o, "path", json_string(p->name));
    json_object_set_new(o, "path_note", json_string(p->note));
    json_object_set_new(o, "m", json_integer(c->m));
    json_object_set_new(o, "n", json_integer(c->n));
    json_object_set_new(o, "k", json_integer(c->k));
    json_object_set_new(o, "dist", json_string(sweep_dist_name(c->dist)));
    if (c->dist == SWEEP_LOGUNIFORM)
        json_object_set_new(o, "dist_log_range", json_integer(8));   /* magnitudes 2^u, u in [-8, 8] */
    json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
    json_object_set_new(o, "original_inputs", json_string("f32"));
    json_object_set_new(o, "uploaded_a", json_string(p->a->name));
    json_object_set_new(o, "uploaded_b", json_string(p->b->name));
    json_object_set_new(o, "rounding_to_upload", json_string(sweep_is_fp8(p->a) ? "rne, saturating" : "rne"));
    if (p->built.chunk)
        json_object_set_new(o, "structure_by_construction", tc_gemm_struct_json(&p->built, c->k));
    return o;
}

/* The originals of the last shape: every path of a shape runs on the same
 * inputs, so they are drawn once (the 4096^3 case draws 2^25 of them). */
static struct {
    int m, n, k;
    uint64_t seed;
    sweep_dist dist;
    float *a, *b;
} drawn;

static void originals(const tc_gemm_case *c, const float **xa, const float **xb)
{
    if (!drawn.a || drawn.m != c->m || drawn.n != c->n || drawn.k != c->k || drawn.seed != c->seed ||
        drawn.dist != c->dist) {
        free(drawn.a), free(drawn.b);
        drawn.a = gemm_alloc((size_t)c->m * c->k, sizeof *drawn.a);
        drawn.b = gemm_alloc((size_t)c->k * c->n, sizeof *drawn.b);
        draw(drawn.a, (size_t)c->m * c->k, c->seed, "gemm-A", c->dist);
        draw(drawn.b, (size_t)c->k * c->n, c->seed, "gemm-B", c->dist);
        drawn.m = c->m, drawn.n = c->n, drawn.k = c->k, drawn.seed = c->seed, drawn.dist = c->dist;
    }
    *xa = drawn.a, *xb = drawn.b;
}

void gemm_uploads(const tc_gemm_path *p, const tc_gemm_case *c, uint32_t *ua, uint32_t *ub)
{
    const float *xa, *xb;
    originals(c, &xa, &xb);
    upload(p->a, xa, (size_t)c->m * c->k, ua);
    upload(p->b, xb, (size_t)c->k * c->n, ub);
}

json_t *tc_gemm_run_case(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c)
{
    json_t *rec = header(lib, p, c);
    size_t na = (size_t)c->m * c->k, nb = (size_t)c->k * c->n;
    const float *xa, *xb;
    originals(c, &xa, &xb);
    uint32_t *oa = gemm_alloc(na, sizeof *oa), *ob = gemm_alloc(nb, sizeof *ob);
    uint32_t *ua = gemm_alloc(na, sizeof *ua), *ub = gemm_alloc(nb, sizeof *ub);
    upload(&tc_f32, xa, na, oa);
    upload(&tc_f32, xb, nb, ob);
    gemm_uploads(p, c, ua, ub);
    size_t want = c->samples ? c->samples : 1;
    size_t cap = want < (size_t)c->m * c->n ? want : (size_t)c->m * c->n;
    int *ii = gemm_alloc(cap, sizeof *ii), *jj = gemm_alloc(cap, sizeof *jj);
    size_t nout = pick_samples(c->m, c->n, want, c->seed, ii, jj);
    uint32_t *got = gemm_alloc(nout, sizeof *got);
    tc_gemm_algo algo;
    memset(&algo, 0, sizeof algo);
    double ms = 0;
    char err[512] = "";
    int rc = lib->run(lib->ctx, p, c->m, c->n, c->k, ua, ub, nout, ii, jj, got, c->warmup, c->reps, &ms, &algo, err,
                      sizeof err);
    if (rc != 0) {
        json_object_set_new(rec, rc > 0 ? "skipped" : "error", json_string(err));
        goto out;
    }
    if (!p->kernel)   /* cuBLASLt's choice; an own kernel has none */
        json_object_set_new(rec, "algo", algo_json(&algo));
    if (c->reps > 0) {
        json_t *t = json_object();
        json_object_set_new(t, "warmup", json_integer(c->warmup));
        json_object_set_new(t, "reps", json_integer(c->reps));
        json_object_set_new(t, "ms_median", json_real(ms));
        json_object_set_new(t, "tflops", json_real(ms > 0 ? 2.0 * c->m * c->n * c->k / (ms * 1e-3) / 1e12 : 0));
        json_object_set_new(t, "method", json_string("cudaEvent around each launch; median"));
        json_object_set_new(rec, "timing", t);
    }
    json_object_set_new(rec, "samples", json_integer((json_int_t)nout));
    json_object_set_new(rec, "outputs", outputs_json(nout, ii, jj, got));
    json_object_set_new(rec, "error_vs_original",
                        errors(&tc_f32, &tc_f32, oa, ob, c->n, c->k, nout, ii, jj, got));
    json_object_set_new(rec, "error_vs_rounded", errors(p->a, p->b, ua, ub, c->n, c->k, nout, ii, jj, got));
    if (c->infer)
        json_object_set_new(rec, "structure", gemm_infer_and_predict(lib, p, c, ua, ub, nout, ii, jj, got));
out:
    free(oa), free(ob), free(ua), free(ub), free(ii), free(jj), free(got);
    return rec;
}
