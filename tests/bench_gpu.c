/* Executor throughput of the GPU backend: output elements per second for a
 * large batch of random tiles, end to end (packing, transfers, kernel,
 * poison check) and kernel alone. Without a GPU: one "skipped" line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/backend_corpus.h"
#include "probes/probes.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench(tc_backend *b, const char *name, size_t elems)
{
    const tc_instr *ins = tc_instr_by_name(name);
    const tc_backend_info *info = tc_backend_get_info(b);
    char err[384];
    if (!ins || !tc_backend_supports(b, ins, err, sizeof err)) {
        printf("{\"bench\": \"gpu_executor %s\", \"skipped\": \"not supported\", \"machine\": \"%s\"}\n", name,
               info->device);
        return 0;
    }
    size_t nt = tc_corpus_tiles(ins, elems);
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    uint64_t *A = malloc(nt * mk * 8), *B = malloc(nt * kn * 8), *C = malloc(nt * mn * 8), *D = malloc(nt * mn * 8);
    if (!A || !B || !C || !D) {
        fprintf(stderr, "bench_gpu: out of memory\n");
        return 1;
    }
    tc_corpus_inputs(ins, nt, 7, A, B, C);
    /* warm-up: module load, buffers, tables */
    if (tc_backend_mma(b, ins, nt, A, B, C, D, err, sizeof err)) {
        fprintf(stderr, "bench_gpu: %s\n", err);
        return 1;
    }
    double best = 1e30, kbest = 1e30;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        if (tc_backend_mma(b, ins, nt, A, B, C, D, err, sizeof err)) {
            fprintf(stderr, "bench_gpu: %s\n", err);
            return 1;
        }
        double t = now() - t0, kt = tc_backend_last_kernel_s(b);
        best = t < best ? t : best;
        kbest = kt < kbest ? kt : kbest;
    }
    double n = (double)(nt * mn);
    printf("{\"bench\": \"gpu_executor_end_to_end %s\", \"value\": %.4g, \"unit\": \"elements/s\", \"machine\": "
           "\"%s\", \"elements\": %.0f}\n",
           name, n / best, info->device, n);
    printf("{\"bench\": \"gpu_executor_kernel %s\", \"value\": %.4g, \"unit\": \"elements/s\", \"machine\": \"%s\", "
           "\"elements\": %.0f}\n",
           name, n / kbest, info->device, n);
    free(A);
    free(B);
    free(C);
    free(D);
    return 0;
}

int main(void)
{
    char err[384];
    tc_backend *b = tc_backend_open("gpu", err, sizeof err);
    if (!b) {
        printf("{\"bench\": \"gpu_executor\", \"skipped\": \"%s\", \"machine\": \"no GPU\"}\n", err);
        return 0;
    }
    int rc = bench(b, "mma.m16n8k16.f32.f16.f16.f32", (size_t)1 << 24);
    rc |= bench(b, "mma.m16n8k32.f32.e4m3.e4m3.f32", (size_t)1 << 24);
    rc |= bench(b, "wgmma.m64n256k16.f32.f16.f16", (size_t)1 << 24);
    rc |= bench(b, "wgmma.m64n256k32.f32.e4m3.e4m3.rs", (size_t)1 << 24);
    rc |= bench(b, "mma.sp.m16n8k32.f32.f16.f16.f32", (size_t)1 << 24);
    rc |= bench(b, "wgmma.sp.m64n256k32.f32.f16.f16", (size_t)1 << 24);
    tc_backend_close(b);
    return rc;
}
