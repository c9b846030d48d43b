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
#include "probes/clock.h"

/* Outputs [lo, hi) on this thread: all, or (flag set) those flagged. */
typedef struct {
    const mfmt *f64;
    int cols, k;
    const uint64_t *a, *b;
    const unsigned char *flag;
    uint64_t *out;
    size_t oracle;   /* outputs the oracle computed (atomic) */
    bool window;     /* every product in the 192-bit window at base (exact_dot_core.h) */
    int base;
} exact_job;

/* The lowest and highest set bit of a slice's nonzero finite values
 * (exact_bit_range), a slice an item. */
#define RANGE_SLICES 64
typedef struct {
    const uint64_t *v;
    size_t n;
    int lo[RANGE_SLICES], hi[RANGE_SLICES];
    bool any[RANGE_SLICES];
} range_job;

static void range_slices(void *ctx, size_t s0, size_t s1)
{
    range_job *r = ctx;
    for (size_t s = s0; s < s1; s++) {
        size_t from = r->n * s / RANGE_SLICES, to = r->n * (s + 1) / RANGE_SLICES;
        int lo = 0, hi = 0;
        bool any = false;
        for (size_t i = from; i < to; i++) {
            int l, h;
            if (!exact_bit_range(r->v[i], &l, &h))
                continue;
            lo = any && lo < l ? lo : l;
            hi = any && hi > h ? hi : h;
            any = true;
        }
        r->lo[s] = lo, r->hi[s] = hi, r->any[s] = any;
    }
}

/* v's set bits span [2^lo, 2^(hi + 1)); false when v holds no nonzero finite value. */
static bool bit_range(const uint64_t *v, size_t n, int *lo, int *hi)
{
    range_job *r = calloc(1, sizeof *r);
    bool any = false;
    if (!r)
        return false;   /* no window: the limbs sum every output */
    r->v = v, r->n = n;
    oracle_parallel(RANGE_SLICES, n, range_slices, r);
    for (int s = 0; s < RANGE_SLICES; s++)
        if (r->any[s]) {
            *lo = any && *lo < r->lo[s] ? *lo : r->lo[s];
            *hi = any && *hi > r->hi[s] ? *hi : r->hi[s];
            any = true;
        }
    free(r);
    return any;
}

/* Whether every product of a and b lies in one 192-bit window
 * (exact_dot_f64_window), and its base: the lowest bits' weights added. */
static bool window_of(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, int k, int *base)
{
    int la, ha, lb, hb;
    if (!bit_range(a, na, &la, &ha) || !bit_range(b, nb, &lb, &hb))
        return false;
    *base = la + lb;
    return ha + hb + 2 - *base <= exact_window_top(k);
}

static void exact_range(void *ctx, size_t lo, size_t hi)
{
    exact_job *j = ctx;
    oracle_formats f = {&tc_f64, &tc_f64, &tc_f64, &tc_f64};
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    for (size_t e = lo; e < hi; e++) {
        if (j->flag && !j->flag[e])
            continue;
        const uint64_t *a = j->a + e / (size_t)j->cols * (size_t)j->k, *b = j->b + e % (size_t)j->cols * (size_t)j->k;
        if ((!j->window || exact_dot_f64_window(j->f64, j->k, a, 1, b, 1, j->base, &j->out[e])) &&
            exact_dot_f64(j->f64, j->k, a, 1, b, 1, &j->out[e])) {
            j->out[e] = oracle_dot_exact(f, j->k, a, b, 0, r);
            __atomic_fetch_add(&j->oracle, 1, __ATOMIC_RELAXED);
        }
    }
}

#if TC_HAVE_CUDA
/* B (cols x k) as k x cols, a block of 64 columns an item, in tiles that
 * stay in cache; the blocks spread over the cores. */
typedef struct {
    int cols, k;
    const uint64_t *b;
    uint64_t *bt;
} transpose_job;

static void transpose_blocks(void *ctx, size_t lo, size_t hi)
{
    const transpose_job *t = ctx;
    size_t cols = (size_t)t->cols, k = (size_t)t->k;
    for (size_t blk = lo; blk < hi; blk++) {
        size_t c0 = blk * 64, c1 = c0 + 64 < cols ? c0 + 64 : cols;
        for (size_t q0 = 0; q0 < k; q0 += 64)
            for (size_t c = c0; c < c1; c++)
                for (size_t q = q0; q < q0 + 64 && q < k; q++)
                    t->bt[q * cols + c] = t->b[c * k + q];
    }
}
#endif

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
    exact_job j = {&f64, cols, k, a, b, NULL, out, 0, false, 0};
    j.window = window_of(a, (size_t)rows * (size_t)k, b, (size_t)cols * (size_t)k, k, &j.base);
    if (!g) {
        double t0 = tc_now_s();
        oracle_parallel(no, no * (size_t)k, exact_range, &j);
        count->cpu += no;
        count->cpu_s += tc_now_s() - t0;
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
    transpose_job tj = {cols, k, b, bt};
    oracle_parallel(((size_t)cols + 63) / 64, (size_t)cols * (size_t)k, transpose_blocks, &tj);
    size_t declined = 0;
    tc_mgpu_times tm = {0, 0};
    int rc = tc_mgpu_exact(tc_model_gpu_device(g), &f64, rows, cols, k, a, bt, j.window, j.base, out, flag,
                           &declined, &tm, err, errlen);
    free(bt);
    if (rc == 0) {
        count->copy_s += tm.copy_s;
        count->kernel_s += tm.kernel_s;
        double t0 = tc_now_s();
        if (declined) {
            j.flag = flag;
            oracle_parallel(no, declined * (size_t)k, exact_range, &j);
        }
        count->cpu_s += tc_now_s() - t0;
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
