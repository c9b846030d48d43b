/* Exact GEMM outputs (probes/model_gpu_exact.h): the integer sum on the
 * CPU's cores, or on the GPU (probes/cuda/model_gpu_exact.cu), with the
 * outputs it declines (a non-finite operand) from the MPFR oracle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/exact_dot_core.h"
#include "oracle/oracle.h"
#include "probes/model_gpu_exact.h"
#include "probes/model_gpu_run.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Outputs [lo, hi) on this thread: all, or (flag set) those flagged. */
typedef struct {
    const mfmt *f64;
    int cols, k;
    const uint64_t *a, *b;
    const unsigned char *flag;
    uint64_t *out;
    size_t oracle;   /* outputs the oracle computed (atomic) */
} exact_job;

static void exact_range(void *ctx, size_t lo, size_t hi)
{
    exact_job *j = ctx;
    oracle_formats f = {&tc_f64, &tc_f64, &tc_f64, &tc_f64};
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    for (size_t e = lo; e < hi; e++) {
        if (j->flag && !j->flag[e])
            continue;
        const uint64_t *a = j->a + e / (size_t)j->cols * (size_t)j->k, *b = j->b + e % (size_t)j->cols * (size_t)j->k;
        if (exact_dot_f64(j->f64, j->k, a, 1, b, 1, &j->out[e])) {
            j->out[e] = oracle_dot_exact(f, j->k, a, b, 0, r);
            __atomic_fetch_add(&j->oracle, 1, __ATOMIC_RELAXED);
        }
    }
}

int tc_model_gpu_exact_dots(tc_model_gpu *g, int rows, int cols, int k, const uint64_t *a, const uint64_t *b,
                            uint64_t *out, tc_model_gpu_count *count, char *err, size_t errlen)
{
    if (rows < 1 || cols < 1 || k < 1 || k > EXACT_DOT_MAX_K) {
        snprintf(err, errlen, "exact GEMM outputs: %d x %d x %d out of range (K at most 2^20)", rows, cols, k);
        return -1;
    }
    mfmt f64;
    mfmt_init(&f64, &tc_f64);
    size_t no = (size_t)rows * (size_t)cols;
    exact_job j = {&f64, cols, k, a, b, NULL, out, 0};
    if (!g) {
        double t0 = now_s();
        oracle_parallel(no, no * (size_t)k, exact_range, &j);
        count->cpu += no;
        count->cpu_s += now_s() - t0;
        return 0;
    }
#if TC_HAVE_CUDA
    unsigned char *flag = calloc(no, 1);
    uint64_t *bt = malloc((size_t)k * (size_t)cols * sizeof *bt);   /* B as k x cols: a warp reads one row */
    if (!flag || !bt) {
        free(flag), free(bt);
        snprintf(err, errlen, "exact GEMM outputs: out of memory");
        return -1;
    }
    for (size_t c = 0; c < (size_t)cols; c++)
        for (size_t q = 0; q < (size_t)k; q++)
            bt[q * (size_t)cols + c] = b[c * (size_t)k + q];
    size_t declined = 0;
    tc_mgpu_times tm = {0, 0};
    int rc = tc_mgpu_exact(tc_model_gpu_device(g), &f64, rows, cols, k, a, bt, out, flag, &declined, &tm, err,
                           errlen);
    free(bt);
    if (rc == 0) {
        count->copy_s += tm.copy_s;
        count->kernel_s += tm.kernel_s;
        double t0 = now_s();
        if (declined) {
            j.flag = flag;
            oracle_parallel(no, declined * (size_t)k, exact_range, &j);
        }
        count->cpu_s += now_s() - t0;
        count->cpu += declined;
        count->gpu += no - declined;
    }
    free(flag);
    return rc;
#else
    snprintf(err, errlen, "GPU model: this tcscope was built without nvcc (no CUDA)");
    return -1;
#endif
}
