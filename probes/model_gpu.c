/* The GPU model (probes/model_gpu.h): what the kernel computes, what the
 * CPU computes, and the count of each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/model_internal.h"
#include "oracle/oracle.h"
#include "probes/model_gpu.h"
#include "probes/model_gpu_run.h"
#include "probes/clock.h"

struct tc_model_gpu {
    tc_mgpu *g;
    int dev;
    char name[16];
    size_t pending;   /* elements of the launch tc_model_gpu_mma_dev_start left running */
};

const char *tc_model_gpu_unsupported(const model *m, int k)
{
    if (k > MODEL_ELEMENT_MAX_K)
        return "K over MODEL_ELEMENT_MAX_K (64)";
    return NULL;
}

#if TC_HAVE_CUDA

tc_model_gpu *tc_model_gpu_open(int dev, char *err, size_t errlen)
{
    tc_model_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "GPU model: out of memory");
        return NULL;
    }
    if (tc_mgpu_open(dev, &g->g, err, errlen)) {
        free(g);
        return NULL;
    }
    g->dev = dev;
    snprintf(g->name, sizeof g->name, "gpu:%d", dev);
    return g;
}

void tc_model_gpu_close(tc_model_gpu *g)
{
    if (!g)
        return;
    tc_mgpu_close(g->g);
    free(g);
}

#else

tc_model_gpu *tc_model_gpu_open(int dev, char *err, size_t errlen)
{
    snprintf(err, errlen, "GPU model: this tcscope was built without nvcc (no CUDA)");
    return NULL;
}

void tc_model_gpu_close(tc_model_gpu *g)
{
    free(g);
}

#endif

const char *tc_model_gpu_name(const tc_model_gpu *g)
{
    return g->name;
}

int tc_model_gpu_device(const tc_model_gpu *g)
{
    return g->dev;
}

/* Elements the kernel left holding TC_MODEL_GPU_DECLINED, on the CPU: every
 * such element is recomputed (an output format of 64 bits could hold that
 * pattern as an answer; recomputing it gives the same bits). They take the
 * CPU's slowest path (the GMP reference: a few percent of the elements of
 * the tiny, overflow and zero_terms hunt families, which sit together in a
 * batch of every family), so the declined elements themselves, not the
 * tiles, are shared out over every core (oracle_parallel): each core gets
 * as many. */
typedef struct {
    const model *m;
    int mr, nc, k;
    const uint64_t *A, *B, *C;
    uint64_t *D;
    const size_t *at;   /* the declined outputs, in order */
} finish_job;

static void finish_range(void *ctx, size_t lo, size_t hi)
{
    const finish_job *j = ctx;
    size_t mn = (size_t)j->mr * (size_t)j->nc, nc = (size_t)j->nc;
    uint64_t col[MODEL_ELEMENT_MAX_K];
    for (size_t x = lo; x < hi; x++) {
        size_t o = j->at[x], t = o / mn, e = o % mn, i = e / nc, c = e % nc;
        const uint64_t *b = j->B + t * (size_t)j->k * nc;
        for (int q = 0; q < j->k; q++)
            col[q] = b[(size_t)q * nc + c];
        j->D[o] = model_dot(j->m, j->k, j->A + t * (size_t)j->mr * (size_t)j->k + i * (size_t)j->k, col, j->C[o]);
    }
}

int tc_model_gpu_finish(const model *m, int mrows, int ncols, int k, size_t ntiles, const uint64_t *A,
                        const uint64_t *B, const uint64_t *C, uint64_t *D, size_t *declined, char *err,
                        size_t errlen)
{
    size_t total = ntiles * (size_t)mrows * (size_t)ncols, n = 0;
    *declined = 0;
    for (size_t o = 0; o < total; o++)
        n += D[o] == TC_MODEL_GPU_DECLINED;
    if (!n)
        return 0;
    if (k > MODEL_ELEMENT_MAX_K) {
        snprintf(err, errlen, "GPU model: K %d over %d", k, MODEL_ELEMENT_MAX_K);
        return -1;
    }
    size_t *at = malloc(n * sizeof *at);
    if (!at) {
        snprintf(err, errlen, "GPU model: out of memory");
        return -1;
    }
    for (size_t o = 0, x = 0; o < total; o++)
        if (D[o] == TC_MODEL_GPU_DECLINED)
            at[x++] = o;
    finish_job j = {m, mrows, ncols, k, A, B, C, D, at};
    oracle_parallel(n, n * (size_t)k * 64, finish_range, &j);
    free(at);
    *declined = n;
    return 0;
}

int tc_model_gpu_mma(tc_model_gpu *g, const model *m, int mrows, int ncols, int k, size_t ntiles,
                     const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D,
                     tc_model_gpu_count *count, char *err, size_t errlen)
{
    size_t mn = (size_t)mrows * ncols;
    if (tc_model_gpu_unsupported(m, k) || ncols > 1024 || !g) {
        double t0 = tc_now_s();
        model_mma(m, mrows, ncols, k, ntiles, A, B, C, D);
        count->cpu += ntiles * mn;
        count->cpu_s += tc_now_s() - t0;
        return 0;
    }
#if TC_HAVE_CUDA
    int order[MODEL_ELEMENT_MAX_K];
    bool ordered = model_step_order(&m->p, k, order);
    /* launches of at most 2^24 outputs: bounded device memory */
    size_t chunk = ((size_t)1 << 24) / (mn ? mn : 1);
    chunk = chunk < 1 ? 1 : chunk;
    for (size_t t0 = 0; t0 < ntiles; t0 += chunk) {
        size_t nt = ntiles - t0 < chunk ? ntiles - t0 : chunk, declined = 0;
        const uint64_t *a = A + t0 * mrows * (size_t)k, *b = B + t0 * (size_t)k * ncols, *c = C + t0 * mn;
        uint64_t *d = D + t0 * mn;
        tc_mgpu_times tm = {0, 0};
        if (tc_mgpu_mma(g->g, m, ordered ? order : NULL, mrows, ncols, k, nt, a, b, c, d, &declined, &tm, err,
                        errlen))
            return -1;
        count->copy_s += tm.copy_s;
        count->kernel_s += tm.kernel_s;
        double cpu_t0 = tc_now_s();
        size_t cpu = 0;
        if (declined && tc_model_gpu_finish(m, mrows, ncols, k, nt, a, b, c, d, &cpu, err, errlen))
            return -1;
        count->cpu_s += tc_now_s() - cpu_t0;
        count->cpu += cpu;
        count->gpu += nt * mn - cpu;
    }
    return 0;
#else
    snprintf(err, errlen, "GPU model: this tcscope was built without nvcc (no CUDA)");
    return -1;
#endif
}

int tc_model_gpu_mma_dev_start(tc_model_gpu *g, const model *m, int mrows, int ncols, int k, size_t ntiles,
                               const uint64_t *dA, const uint64_t *dB, const uint64_t *dC, uint64_t *dD,
                               tc_model_gpu_count *count, char *err, size_t errlen)
{
    const char *why = tc_model_gpu_unsupported(m, k);
    if (why || ncols > 1024 || !g || ntiles < 1) {
        snprintf(err, errlen, "GPU model: %s (internal error: the caller checks first)",
                 why ? why : ntiles < 1 ? "no tiles" : "a tile over 1024 columns");
        return -1;
    }
#if TC_HAVE_CUDA
    int order[MODEL_ELEMENT_MAX_K];
    bool ordered = model_step_order(&m->p, k, order);
    tc_mgpu_times tm = {0, 0};
    int rc = tc_mgpu_mma_dev_start(g->g, m, ordered ? order : NULL, mrows, ncols, k, ntiles, dA, dB, dC, dD, &tm,
                                   err, errlen);
    count->copy_s += tm.copy_s;
    g->pending = rc ? 0 : ntiles * (size_t)mrows * (size_t)ncols;
    return rc;
#else
    snprintf(err, errlen, "GPU model: this tcscope was built without nvcc (no CUDA)");
    return -1;
#endif
}

int tc_model_gpu_mma_dev_end(tc_model_gpu *g, size_t *declined, tc_model_gpu_count *count, char *err,
                             size_t errlen)
{
    *declined = 0;
#if TC_HAVE_CUDA
    tc_mgpu_times tm = {0, 0};
    if (tc_mgpu_mma_dev_end(g->g, declined, &tm, err, errlen))
        return -1;
    count->copy_s += tm.copy_s;
    count->kernel_s += tm.kernel_s;
    count->gpu += g->pending - *declined;
    g->pending = 0;
    return 0;
#else
    snprintf(err, errlen, "GPU model: this tcscope was built without nvcc (no CUDA)");
    return -1;
#endif
}

int tc_model_gpu_mma_dev(tc_model_gpu *g, const model *m, int mrows, int ncols, int k, size_t ntiles,
                         const uint64_t *dA, const uint64_t *dB, const uint64_t *dC, uint64_t *dD, size_t *declined,
                         tc_model_gpu_count *count, char *err, size_t errlen)
{
    *declined = 0;
    return tc_model_gpu_mma_dev_start(g, m, mrows, ncols, k, ntiles, dA, dB, dC, dD, count, err, errlen) ||
                   tc_model_gpu_mma_dev_end(g, declined, count, err, errlen)
               ? -1
               : 0;
}
