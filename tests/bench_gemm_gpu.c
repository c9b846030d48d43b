/* make bench: the gemm predictor's rate (products of the GEMM's dot products
 * per second, every output of an M x N x K GEMM predicted) with the CPU
 * model (gemm_predict on all cores, what `tcscope gemm` and `choose` run
 * without a GPU) and, where the GPU model opens, with the GPU model
 * (gemm_predict_on: one thread per output); the GPU's answers must equal
 * the CPU's on the shape both compute ("differences"), and a third line per
 * path gives the ratio of the rates, measured in the same run. The GPU also
 * computes every output of a 2048 x 2048 x 4096 GEMM, its rate in a line of
 * its own and in the ratio; `bench_gemm_gpu S K` makes that S x S x K (S a
 * multiple of 128 up to 16384, K of 64 up to 65536: 8192 8192 is the whole
 * 8192^3 GEMM of issue 29's choose target, every output on the GPU).
 * Likewise choose's exact references: the MPFR oracle on the CPU
 * (oracle_mma_exact, 64 x 64 outputs) against the GPU's integer exact sums
 * (probes/model_gpu_exact.h, the same S x S x K), and their ratio. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cases/gemm_internal.h"
#include "oracle/profile.h"
#include "probes/model_gpu_exact.h"

#define CPU_M 128

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
    {"f16", {16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}},
    {"e4m3", {32, 128, 2, GEMM_COMBINE_SEQ, 0, {0}, {0}}},
};

static int k_len = 4096;   /* K of every GEMM of the run */

/* Every output of an m x m x K GEMM of path b on g (NULL: gemm_predict on
 * the CPU) into d: products per second, or -1 after a message. */
static double rate(tc_model_gpu *g, const bench_path *b, const char *profile, int m, uint32_t *d,
                   tc_model_gpu_count *cnt)
{
    char err[512];
    const tc_gemm_path *p = tc_gemm_path_by_name(b->path);
    tc_gemm_case c = {.m = m, .n = m, .k = k_len, .dist = SWEEP_NORMAL, .seed = 29};
    size_t mn = (size_t)m * m;
    uint32_t *A = gemm_alloc((size_t)m * k_len, 4), *B = gemm_alloc((size_t)k_len * m, 4);
    gemm_uploads(p, &c, A, B);
    int *ii = gemm_alloc(mn, sizeof *ii), *jj = gemm_alloc(mn, sizeof *jj);
    for (size_t e = 0; e < mn; e++)
        ii[e] = (int)(e / (size_t)m), jj[e] = (int)(e % (size_t)m);
    double t0 = now();
    int rc = g ? gemm_predict_on(g, p, profile, &b->s, GEMM_IN_AS_UPLOADED, A, B, m, m, k_len, mn, NULL, NULL, d, cnt,
                                 err, sizeof err)
               : gemm_predict(p, profile, &b->s, GEMM_IN_AS_UPLOADED, A, B, m, k_len, mn, ii, jj, d, err, sizeof err);
    double s = now() - t0;
    free(A), free(B), free(ii), free(jj);
    if (rc) {
        fprintf(stderr, "bench_gemm_gpu: %s\n", err);
        return -1;
    }
    return (double)mn * k_len / s;
}

/* Normal-ish doubles' bits (a sum of 4 uniforms, centred), n of them. */
static uint64_t *doubles(size_t n, uint64_t seed)
{
    uint64_t *v = gemm_alloc(n, 8), s = seed | 1;
    for (size_t i = 0; i < n; i++) {
        double x = -2;
        for (int r = 0; r < 4; r++) {
            s ^= s << 13, s ^= s >> 7, s ^= s << 17;
            x += (double)(s >> 11) * 0x1p-53;
        }
        memcpy(&v[i], &x, 8);
    }
    return v;
}

/* Exact products per second of an m x m x K GEMM: the oracle (g NULL) or
 * the GPU's exact sums; -1 after a message. */
static double exact_rate(tc_model_gpu *g, int m, tc_model_gpu_count *cnt)
{
    char err[256];
    size_t na = (size_t)m * k_len, no = (size_t)m * m;
    uint64_t *a = doubles(na, 1), *b = doubles(na, 2), *out = gemm_alloc(no, 8);
    double t0 = now();
    int rc = 0;
    if (g) {
        rc = tc_model_gpu_exact_dots(g, m, m, k_len, a, b, out, cnt, err, sizeof err);
    } else {   /* what choose's references ran: B as k x m, the oracle on every core */
        uint64_t *bt = gemm_alloc(na, 8);
        for (size_t c = 0; c < (size_t)m; c++)
            for (size_t q = 0; q < (size_t)k_len; q++)
                bt[q * m + c] = b[c * k_len + q];
        t0 = now();
        oracle_mma_exact((oracle_formats){&tc_f64, &tc_f64, &tc_f64, &tc_f64}, m, m, k_len, 1, a, bt, NULL, out,
                         (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
        free(bt);
    }
    double s = now() - t0;
    free(a), free(b), free(out);
    if (rc) {
        fprintf(stderr, "bench_gemm_gpu: %s\n", err);
        return -1;
    }
    return (double)no * k_len / s;
}

int main(int argc, char **argv)
{
    char path[1100], machine[200];
    int gpu_m = 2048;
    if (argc == 3) {
        gpu_m = atoi(argv[1]), k_len = atoi(argv[2]);
        if (gpu_m < 128 || gpu_m > 16384 || gpu_m % 128 || k_len < 64 || k_len > 65536 || k_len % 64) {
            fprintf(stderr, "bench_gemm_gpu: S K: S a multiple of 128 in 128..16384, K of 64 in 64..65536\n");
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: bench_gemm_gpu [S K]\n");
        return 2;
    }
    if (!tc_profile_path("h100", path, sizeof path)) {
        fprintf(stderr, "bench_gemm_gpu: no h100 profile\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);   /* each figure out as it is measured (a task may time the run out) */
    char err[512];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    snprintf(machine, sizeof machine, "%ld CPU threads%s%s", sysconf(_SC_NPROCESSORS_ONLN), g ? ", GPU model on " : "",
             g ? tc_model_gpu_name(g) : "");
    size_t mn = (size_t)CPU_M * CPU_M;
    uint32_t *cpu = gemm_alloc(mn, 4), *gpu = gemm_alloc(mn, 4), *big = g ? gemm_alloc((size_t)gpu_m * gpu_m, 4) : NULL;
    int rc = 0;
    for (size_t i = 0; i < sizeof paths / sizeof paths[0] && !rc; i++) {
        const bench_path *b = &paths[i];
        double c = rate(NULL, b, path, CPU_M, cpu, NULL);
        if (c < 0) {
            rc = 2;
            break;
        }
        printf("{\"bench\": \"gemm predict %s %dx%dx%d, CPU model\", \"value\": %.4g, \"unit\": \"products/s\", "
               "\"machine\": \"%s\"}\n", b->path, CPU_M, CPU_M, k_len, c, machine);
        if (!g)
            continue;
        tc_model_gpu_count cnt = {0};
        tc_model_gpu_count small = {0};   /* the big GEMM's own counts in cnt */
        double same = rate(g, b, path, CPU_M, gpu, &small), at = same >= 0 ? rate(g, b, path, gpu_m, big, &cnt) : -1;
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
               "\"outputs\": {\"gpu\": %zu, \"cpu\": %zu}, \"kernel_s\": %.3f, \"copy_s\": %.3f, \"cpu_s\": %.3f, "
               "\"machine\": \"%s\"}\n"
               "{\"bench\": \"gemm predict %s, GPU model (%d^2 outputs) over CPU model (%d^2)\", \"value\": %.4g, "
               "\"unit\": \"ratio\", \"same_shape_ratio\": %.4g, \"machine\": \"%s\"}\n",
               b->path, CPU_M, CPU_M, k_len, same, diffs, machine, b->path, gpu_m, gpu_m, k_len, at, cnt.gpu, cnt.cpu,
               cnt.kernel_s, cnt.copy_s, cnt.cpu_s, machine, b->path, gpu_m, CPU_M, at / c, same / c, machine);
        if (diffs)
            rc = 1;
    }
    double oc = rc ? -1 : exact_rate(NULL, 64, NULL);
    if (oc >= 0)
        printf("{\"bench\": \"exact references 64x64x%d, MPFR oracle on the CPU\", \"value\": %.4g, "
               "\"unit\": \"products/s\", \"machine\": \"%s\"}\n", k_len, oc, machine);
    tc_model_gpu_count ecnt = {0};
    double eg = g && oc >= 0 ? exact_rate(g, gpu_m, &ecnt) : -1;
    if (eg >= 0)
        printf("{\"bench\": \"exact references %dx%dx%d, GPU exact sums\", \"value\": %.4g, \"unit\": "
               "\"products/s\", \"outputs\": {\"gpu\": %zu, \"cpu\": %zu}, \"kernel_s\": %.3f, \"copy_s\": %.3f, "
               "\"machine\": \"%s\"}\n"
               "{\"bench\": \"exact references, GPU (%d^2 outputs) over the CPU oracle (64^2)\", \"value\": %.4g, "
               "\"unit\": \"ratio\", \"machine\": \"%s\"}\n",
               gpu_m, gpu_m, k_len, eg, ecnt.gpu, ecnt.cpu, ecnt.kernel_s, ecnt.copy_s, machine, gpu_m, eg / oc,
               machine);
    if (oc < 0 || (g && eg < 0))
        rc = rc ? rc : 2;
    free(cpu), free(gpu), free(big);
    tc_model_gpu_close(g);
    return rc;
}
