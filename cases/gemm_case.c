/* tcscope gemm cases: inputs from a seed, one library GEMM, sampled outputs
 * against the exact products of the original and of the rounded inputs,
 * the throughput, and (with infer) the inferred structure's predictions. */
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
     "over all of K from +0, no split-K; FP32 output", "tcscope-wgmma", {16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}},
    {"tcscope-wgmma-e4m3", &tc_e4m3, &tc_e4m3, "wgmma.m64n128k32.f32.e4m3.e4m3", true,
     "tcscope's own GEMM (probes/cuda/gemm_wgmma.cu): A, B e4m3, scales 1, wgmma.m64n128k32.f32.e4m3.e4m3 from "
     "shared memory (128-byte swizzle, cp.async, 4 stages), CTA tile 128x128 of two warpgroups, one FP32 "
     "accumulator per output over all of K from +0 (no promotion), no split-K; FP32 output", "tcscope-wgmma",
     {32, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}},
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
        gemm_gather(j->A, j->B, j->n, j->k, nb, j->ii + s0, j->jj + s0, a, b);
        for (size_t t = 0; t < nb; t++)
            d[t] = j->got[s0 + t];
        oracle_mma_err(j->f, 1, 1, j->k, nb, a, b, NULL, d, j->e + s0);   /* inline: inside oracle_parallel */
    }
    free(a), free(b), free(d);
}

/* Errors of the sampled outputs against the exact sum_k A[i][k] B[k][j]
 * of inputs in formats fa, fb, summarised. The outputs are spread over the
 * cores once (each error is its own output's: the split changes no bit);
 * batches keep each thread's memory bounded. */
void gemm_errors(const tc_format *fa, const tc_format *fb, const uint32_t *A, const uint32_t *B, int n, int k,
                 size_t nout, const int *ii, const int *jj, const uint32_t *got, oracle_err_stats *st)
{
    err_job j = {{fa, fb, &tc_f32, &tc_f32}, A, B, got, ii, jj, n, k, 0, gemm_alloc(nout, sizeof(oracle_err))};
    j.batch = gemm_batch(k);
    oracle_parallel(nout, nout * (size_t)k, err_range, &j);
    oracle_err_summarize(j.e, nout, st);
    free(j.e);
}

/* The first sampled outputs, positions and bits: with the seed and the
 * distribution (the inputs are drawn again) a CPU replays the prediction. */
static void keep_outputs(tc_gemm_case_result *res, size_t nout, const int *ii, const int *jj, const uint32_t *got)
{
    size_t n = nout < GEMM_RECORDED_OUTPUTS ? nout : GEMM_RECORDED_OUTPUTS;
    res->nrec = n;
    res->ii = gemm_alloc(n, sizeof *res->ii), res->jj = gemm_alloc(n, sizeof *res->jj);
    res->got = gemm_alloc(n, sizeof *res->got);
    memcpy(res->ii, ii, n * sizeof *ii), memcpy(res->jj, jj, n * sizeof *jj), memcpy(res->got, got, n * sizeof *got);
}

static void facts(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c, tc_gemm_case_result *res)
{
    memset(res, 0, sizeof *res);
    res->path = p;
    res->c = *c;
    /* An own kernel on the GPU is not cuBLASLt's; under the simulation the
     * library stays "sim". */
    bool own = p->kernel && strcmp(lib->name, "sim");
    snprintf(res->library, sizeof res->library, "%s", own ? p->kernel : lib->name);
    snprintf(res->device, sizeof res->device, "%s", lib->device);
    res->library_version = own ? 0 : lib->version;
    res->saturating = sweep_is_fp8(p->a);
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

void tc_gemm_case_result_free(tc_gemm_case_result *res)
{
    free(res->ii), free(res->jj), free(res->got);
    tc_gemm_inferred_free(&res->st.r);
    res->ii = res->jj = NULL, res->got = NULL;
}

void tc_gemm_run_case(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c, tc_gemm_case_result *res)
{
    facts(lib, p, c, res);
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
    res->status = lib->run(lib->ctx, p, c->m, c->n, c->k, ua, ub, nout, ii, jj, got, c->warmup, c->reps,
                           &res->ms_median, &res->algo, res->err, sizeof res->err);
    if (res->status != 0)
        goto out;
    res->samples = nout;
    keep_outputs(res, nout, ii, jj, got);
    gemm_errors(&tc_f32, &tc_f32, oa, ob, c->n, c->k, nout, ii, jj, got, &res->vs_original);
    gemm_errors(p->a, p->b, ua, ub, c->n, c->k, nout, ii, jj, got, &res->vs_rounded);
    if (c->infer)
        gemm_infer_and_predict(lib, p, c, ua, ub, nout, ii, jj, got, &res->st);
out:
    free(oa), free(ob), free(ua), free(ub), free(ii), free(jj), free(got);
}
