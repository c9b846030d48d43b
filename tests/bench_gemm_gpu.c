/* make bench: the gemm predictor's rate (products of the GEMM's dot products
 * per second, every output of an M x N x K GEMM predicted) with the CPU
 * model (gemm_predict on all cores, what `tcscope gemm` and `choose` run
 * without a GPU) and, where the GPU model opens, with the GPU model
 * (gemm_predict_on: one thread per output); the GPU's answers must equal
 * the CPU's on the shape both compute ("differences"), and a third line per
 * path gives the ratio of the rates, measured in the same run. The GPU also
 * computes a 2048 x 2048 GEMM (outputs CPU_M^2 x 256), its rate in a line of
 * its own and in the ratio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cases/gemm_internal.h"
#include "oracle/profile.h"

#define CPU_M 128
#define GPU_M 2048
#define K 4096

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    const char *path;
    tc_gemm_struct s;
} bench_path;

static const bench_path paths[] = {
    {"f16", {16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}}},
    {"e4m3", {32, 128, 2, GEMM_COMBINE_SEQ, 0, {0}}},
};

/* Every output of an m x m x K GEMM of path b on g (NULL: gemm_predict on
 * the CPU) into d: products per second, or -1 after a message. */
static double rate(tc_model_gpu *g, const bench_path *b, const char *profile, int m, uint32_t *d,
                   tc_model_gpu_count *cnt)
{
    char err[512];
    const tc_gemm_path *p = tc_gemm_path_by_name(b->path);
    tc_gemm_case c = {.m = m, .n = m, .k = K, .dist = SWEEP_NORMAL, .seed = 29};
    size_t mn = (size_t)m * m;
    uint32_t *A = gemm_alloc((size_t)m * K, 4), *B = gemm_alloc((size_t)K * m, 4);
    gemm_uploads(p, &c, A, B);
    int *ii = gemm_alloc(mn, sizeof *ii), *jj = gemm_alloc(mn, sizeof *jj);
    for (size_t e = 0; e < mn; e++)
        ii[e] = (int)(e / (size_t)m), jj[e] = (int)(e % (size_t)m);
    double t0 = now();
    int rc = g ? gemm_predict_on(g, p, profile, &b->s, GEMM_IN_AS_UPLOADED, A, B, m, m, K, mn, NULL, NULL, d, cnt,
                                 err, sizeof err)
               : gemm_predict(p, profile, &b->s, GEMM_IN_AS_UPLOADED, A, B, m, K, mn, ii, jj, d, err, sizeof err);
    double s = now() - t0;
    free(A), free(B), free(ii), free(jj);
    if (rc) {
        fprintf(stderr, "bench_gemm_gpu: %s\n", err);
        return -1;
    }
    return (double)mn * K / s;
}

int main(void)
{
    char path[1100], machine[200];
    if (!tc_profile_path("h100", path, sizeof path)) {
        fprintf(stderr, "bench_gemm_gpu: no h100 profile\n");
        return 2;
    }
    char err[512];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    snprintf(machine, sizeof machine, "%ld CPU threads%s%s", sysconf(_SC_NPROCESSORS_ONLN), g ? ", GPU model on " : "",
             g ? tc_model_gpu_name(g) : "");
    size_t mn = (size_t)CPU_M * CPU_M;
    uint32_t *cpu = gemm_alloc(mn, 4), *gpu = gemm_alloc(mn, 4), *big = g ? gemm_alloc((size_t)GPU_M * GPU_M, 4) : NULL;
    int rc = 0;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0] && !rc; i++) {
        const bench_path *b = &paths[i];
        double c = rate(NULL, b, path, CPU_M, cpu, NULL);
        if (c < 0) {
            rc = 2;
            break;
        }
        printf("{\"bench\": \"gemm predict %s %dx%dx%d, CPU model\", \"value\": %.4g, \"unit\": \"products/s\", "
               "\"machine\": \"%s\"}\n", b->path, CPU_M, CPU_M, K, c, machine);
        if (!g)
            continue;
        tc_model_gpu_count cnt = {0};
        double same = rate(g, b, path, CPU_M, gpu, &cnt), at = same >= 0 ? rate(g, b, path, GPU_M, big, &cnt) : -1;
        if (same < 0 || at < 0) {
            rc = 2;
            break;
        }
        size_t diffs = 0;
        for (size_t e = 0; e < mn; e++)
            diffs += cpu[e] != gpu[e];
        printf("{\"bench\": \"gemm predict %s %dx%dx%d, GPU model\", \"value\": %.4g, \"unit\": \"products/s\", "
               "\"differences\": %zu, \"machine\": \"%s\"}\n"
               "{\"bench\": \"gemm predict %s %dx%dx%d, GPU model\", \"value\": %.4g, \"unit\": \"products/s\", "
               "\"outputs\": {\"gpu\": %zu, \"cpu\": %zu}, \"kernel_s\": %.3f, \"copy_s\": %.3f, \"machine\": \"%s\"}\n"
               "{\"bench\": \"gemm predict %s, GPU model (%d^2 outputs) over CPU model (%d^2)\", \"value\": %.4g, "
               "\"unit\": \"ratio\", \"same_shape_ratio\": %.4g, \"machine\": \"%s\"}\n",
               b->path, CPU_M, CPU_M, K, same, diffs, machine, b->path, GPU_M, GPU_M, K, at, cnt.gpu, cnt.cpu,
               cnt.kernel_s, cnt.copy_s, machine, b->path, GPU_M, CPU_M, at / c, same / c, machine);
        if (diffs)
            rc = 1;
    }
    free(cpu), free(gpu), free(big);
    tc_model_gpu_close(g);
    return rc;
}
