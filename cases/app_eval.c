/* One candidate on the application's data: quantize with the scaling, run
 * the instruction over K chunk by chunk on the backend (chained or with FP32
 * promotion), descale, and compare with the exact dot products of the
 * original and of the rounded inputs (cases/app.h says how). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/app_internal.h"
#include "cases/sweep_internal.h"
#include "oracle/oracle.h"
#include "probes/model_gpu_exact.h"

#define E8M0_MIN_EXP (-127)
#define E8M0_MAX_EXP 127

/* An E8M0 scale: sweep_pow2_scale (the largest 2^j with amax * 2^j <= max
 * finite), clamped to E8M0's range 2^-127 .. 2^127. */
static double e8m0_scale(const tc_format *f, double amax)
{
    int e;
    frexp(sweep_pow2_scale(f, amax), &e);
    e -= 1;
    return ldexp(1.0, e < E8M0_MIN_EXP ? E8M0_MIN_EXP : e > E8M0_MAX_EXP ? E8M0_MAX_EXP : e);
}

/* Lines [lo, hi) of app_quantize's job, on this thread. */
typedef struct {
    const tc_format *f;
    app_scaling sc;
    double tensor_amax;
    const double *x;
    int k, kp, nblk;
    uint64_t *bits;
    double *scale;
} quantize_job;

static void quantize_lines(void *ctx, size_t lo, size_t hi)
{
    const quantize_job *q = ctx;
    const tc_format *f = q->f;
    app_scaling sc = q->sc;
    int k = q->k, nblk = q->nblk;
    tc_rounding r = {.mode = TC_RNE, .ovf = sweep_is_fp8(f) ? TC_OVF_SAT : TC_OVF_INF};
    for (size_t i = lo; i < hi; i++) {
        const double *row = q->x + i * (size_t)k;
        for (int b = 0; b < nblk; b++) {
            int from = sc == APP_SCALE_BLOCK32 ? b * APP_BLOCK : 0;
            int to = sc == APP_SCALE_BLOCK32 ? (from + APP_BLOCK < k ? from + APP_BLOCK : k) : k;
            double amax = 0;
            for (int j = from; j < to; j++)
                amax = fmax(amax, fabs(row[j]));
            double s = sc == APP_SCALE_NONE ? 1
                       : sc == APP_SCALE_TENSOR ? e8m0_scale(f, q->tensor_amax)
                                                : e8m0_scale(f, amax);
            q->scale[i * (size_t)nblk + (size_t)b] = s;
            for (int j = from; j < to; j++)
                q->bits[i * (size_t)q->kp + (size_t)j] = tc_encode_f64(f, row[j] * s, r);
        }
    }
}

/* Quantizes `lines` vectors of length k (row i at x + i*k) into bits with
 * padded length kp (zeros beyond k), one scale per (line, block); the
 * lines spread over the cores (every line on its own: the same bits). */
void app_quantize(const tc_format *f, app_scaling sc, double tensor_amax, const double *x, int lines, int k,
                     int kp, int nblk, uint64_t *bits, double *scale)
{
    if (!sweep_is_fp8(f))   /* scaling is for FP8 (E8M0 scales); wider formats are fed as they are */
        sc = APP_SCALE_NONE;
    quantize_job q = {f, sc, tensor_amax, x, k, kp, nblk, bits, scale};
    oracle_parallel((size_t)lines, (size_t)lines * (size_t)k, quantize_lines, &q);
}

/* ---- exact references, cached across candidates --------------------------- */

typedef struct {
    char key[96];
    double *ref;
} cache_entry;
static cache_entry cache[64];
static size_t ncache;
static tc_model_gpu *ref_gpu;           /* app_reference_use */
static tc_model_gpu_count *ref_count;

void app_reference_use(tc_model_gpu *g, tc_model_gpu_count *count)
{
    ref_gpu = g;
    ref_count = count;
}

void app_reference_cache_clear(void)
{
    for (size_t i = 0; i < ncache; i++)
        free(cache[i].ref);
    ncache = 0;
}

/* The exact products sum_k a[i][k] * b[j][k] of rows x cols (a: rows x k,
 * b: cols x k, as doubles), each rounded once to f64 (RNE): the integer
 * exact sums (probes/model_gpu_exact.h: the oracle's bits, an output with a
 * non-finite operand from the MPFR oracle) on the GPU app_reference_use
 * gave, else on the CPU's cores; after a CUDA failure (said on stderr) the
 * CPU's. */
static double *exact_products(const double *a, const double *b, int rows, int cols, int k)
{
    size_t na = (size_t)rows * k, nb = (size_t)cols * k, no = (size_t)rows * cols;
    uint64_t *A = app_calloc(na, sizeof *A), *B = app_calloc(nb, sizeof *B), *D = app_calloc(no, sizeof *D);
    memcpy(A, a, na * 8);   /* the doubles' bits */
    memcpy(B, b, nb * 8);
    char err[256];
    tc_model_gpu_count spare = {0}, *count = ref_count ? ref_count : &spare;
    bool done = ref_gpu && !tc_model_gpu_exact_dots(ref_gpu, rows, cols, k, A, B, D, count, err, sizeof err);
    if (ref_gpu && !done)
        fprintf(stderr, "tcscope: exact references on the GPU: %s; the CPU computes them\n", err);
    if (!done && tc_model_gpu_exact_dots(NULL, rows, cols, k, A, B, D, count, err, sizeof err)) {
        fprintf(stderr, "tcscope: exact references: %s\n", err);   /* K within choose's limit: not reached */
        exit(2);
    }
    double *out = app_calloc(no, sizeof *out);
    memcpy(out, D, no * 8);
    free(A), free(B), free(D);
    return out;
}

const double *app_reference_find(const char *key, app_stages *st)
{
    for (size_t i = 0; i < ncache; i++)
        if (!strcmp(cache[i].key, key)) {
            st->references_shared++;
            return cache[i].ref;
        }
    return NULL;
}

const double *app_reference(const char *key, const double *a, const double *b, int rows, int cols, int k,
                            app_stages *st)
{
    const double *have = app_reference_find(key, st);
    if (have)
        return have;
    double t0 = app_now_s();
    if (ncache == sizeof cache / sizeof cache[0])
        app_reference_cache_clear();
    cache_entry *e = &cache[ncache++];
    snprintf(e->key, sizeof e->key, "%s", key);
    e->ref = exact_products(a, b, rows, cols, k);
    st->references_computed++;
    st->references_s += app_now_s() - t0;
    return e->ref;
}

/* ---- the instruction over K ------------------------------------------------ */

typedef struct {
    const app_candidate *c;
    int kp, steps, nblk, rp, cp, tr, tc;   /* padded K, chunks, scale blocks, padded rows/cols, tiles */
    const uint64_t *Aq, *Bq;               /* rp x kp, cp x kp */
    const double *sa, *sb;                  /* scales [line][block] */
} chain_job;

/* Adds each D element, descaled, into the promotion register acc. */
static void fold(const chain_job *j, const uint64_t *D, int blk, double *acc)
{
    const tc_format *fd = j->c->ins->d;
    int m = j->c->ins->m, n = j->c->ins->n;
    for (int i = 0; i < j->c->rows; i++)
        for (int jj = 0; jj < j->c->cols; jj++) {
            size_t t = (size_t)(i / m) * j->tc + jj / n;
            double d = tc_decode_to_f64(fd, D[(t * m + i % m) * n + jj % n]);
            double inv = 1 / (j->sa[(size_t)i * j->nblk + blk] * j->sb[(size_t)jj * j->nblk + blk]);
            double *a = &acc[(size_t)i * j->c->cols + jj];
            /* d * inv is exact (inv a power of two); the add into the FP32
             * register is one RNE rounding (f64 for a DMMA). */
            *a = fd == &tc_f64 ? *a + d * inv : (double)((float)*a + (float)(d * inv));
        }
}

static int run_chain(tc_backend *b, const chain_job *j, double *got, char *err, size_t len)
{
    const tc_instr *ins = j->c->ins;
    int m = ins->m, n = ins->n, kk = ins->k;
    size_t nt = (size_t)j->tr * j->tc;
    uint64_t *A = app_calloc(nt * m * kk, 8), *B = app_calloc(nt * kk * n, 8);
    uint64_t *C = app_calloc(nt * m * n, 8), *D = app_calloc(nt * m * n, 8);
    double *acc = app_calloc((size_t)j->c->rows * j->c->cols, sizeof *acc);
    int promote = j->c->promote, rc = 0;
    for (int s = 0; s < j->steps && !rc; s++) {
        for (int ti = 0; ti < j->tr; ti++)
            for (int tj = 0; tj < j->tc; tj++) {
                size_t t = (size_t)ti * j->tc + tj;
                for (int i = 0; i < m; i++)
                    memcpy(&A[(t * m + i) * kk], &j->Aq[(size_t)(ti * m + i) * j->kp + (size_t)s * kk], 8 * kk);
                for (int x = 0; x < kk; x++)
                    for (int c = 0; c < n; c++)
                        B[(t * kk + x) * n + c] = j->Bq[(size_t)(tj * n + c) * j->kp + (size_t)s * kk + x];
            }
        rc = tc_backend_mma(b, ins, nt, A, B, C, D, err, len);
        bool last = s + 1 == j->steps, boundary = promote && ((s + 1) * kk) % promote == 0;
        if (!rc && (boundary || (promote && last))) {
            fold(j, D, j->nblk > 1 ? (s * kk) / APP_BLOCK : 0, acc);
            memset(C, 0, nt * m * n * 8);   /* the next run of MMAs starts from +0 */
        } else
            memcpy(C, D, nt * m * n * 8);
    }
    if (!rc && !promote)   /* chained: descale the final D exactly (powers of two) */
        for (int i = 0; i < j->c->rows; i++)
            for (int jj = 0; jj < j->c->cols; jj++) {
                size_t t = (size_t)(i / m) * j->tc + jj / n;
                double d = tc_decode_to_f64(ins->d, D[(t * m + i % m) * n + jj % n]);
                acc[(size_t)i * j->c->cols + jj] = d / (j->sa[(size_t)i * j->nblk] * j->sb[(size_t)jj * j->nblk]);
            }
    memcpy(got, acc, (size_t)j->c->rows * j->c->cols * sizeof *got);
    free(A), free(B), free(C), free(D), free(acc);
    return rc;
}

int app_eval(tc_backend *b, const app_data *d, const app_candidate *c, app_result *r, char *err, size_t len)
{
    double t0 = app_now_s();
    memset(&r->stages, 0, sizeof r->stages);
    const tc_instr *ins = c->ins;
    int k = d->k, kk = ins->k;
    if (c->rows > d->rows || c->cols > d->cols) {
        snprintf(err, len, "candidate wants %d x %d outputs, the data has %d x %d", c->rows, c->cols, d->rows,
                 d->cols);
        return -1;
    }
    chain_job j = {.c = c, .kp = (k + kk - 1) / kk * kk};
    j.steps = j.kp / kk;
    j.nblk = c->scaling == APP_SCALE_BLOCK32 ? (k + APP_BLOCK - 1) / APP_BLOCK : 1;
    j.tr = (c->rows + ins->m - 1) / ins->m;
    j.tc = (c->cols + ins->n - 1) / ins->n;
    j.rp = j.tr * ins->m;
    j.cp = j.tc * ins->n;
    uint64_t *Aq = app_calloc((size_t)j.rp * j.kp, 8), *Bq = app_calloc((size_t)j.cp * j.kp, 8);
    double *sa = app_calloc((size_t)j.rp * j.nblk, sizeof *sa), *sb = app_calloc((size_t)j.cp * j.nblk, sizeof *sb);
    app_quantize(ins->a, c->scaling, d->amax_a, d->A, c->rows, k, j.kp, j.nblk, Aq, sa);
    app_quantize(ins->b, c->scaling, d->amax_b, d->B, c->cols, k, j.kp, j.nblk, Bq, sb);
    j.Aq = Aq, j.Bq = Bq, j.sa = sa, j.sb = sb;
    size_t no = (size_t)c->rows * c->cols;
    double *got = app_calloc(no, sizeof *got), t1 = app_now_s();
    r->stages.inputs_s = t1 - t0;
    int rc = run_chain(b, &j, got, err, len);
    r->stages.model_s = app_now_s() - t1;
    if (!rc) {
        /* The rounded inputs, descaled exactly, for the second reference. */
        double *ar = app_calloc((size_t)c->rows * k, sizeof *ar), *br = app_calloc((size_t)c->cols * k, sizeof *br);
        for (int i = 0; i < c->rows; i++)
            for (int x = 0; x < k; x++)
                ar[(size_t)i * k + x] = tc_decode_to_f64(ins->a, Aq[(size_t)i * j.kp + x]) /
                                        sa[(size_t)i * j.nblk + (j.nblk > 1 ? x / APP_BLOCK : 0)];
        for (int i = 0; i < c->cols; i++)
            for (int x = 0; x < k; x++)
                br[(size_t)i * k + x] = tc_decode_to_f64(ins->b, Bq[(size_t)i * j.kp + x]) /
                                        sb[(size_t)i * j.nblk + (j.nblk > 1 ? x / APP_BLOCK : 0)];
        char key[96];
        snprintf(key, sizeof key, "orig %dx%d", c->rows, c->cols);
        const double *ref_o = app_reference(key, d->A, d->B, c->rows, c->cols, k, &r->stages);
        snprintf(key, sizeof key, "%s/%s/%s %dx%d", ins->a->name, ins->b->name, app_scaling_name(c->scaling),
                 c->rows, c->cols);
        const double *ref_r = app_reference(key, ar, br, c->rows, c->cols, k, &r->stages);
        app_stats_both(got, ref_o, ref_r, no, r);
        r->outputs = no;
        free(ar), free(br);
    }
    free(Aq), free(Bq), free(sa), free(sb), free(got);
    r->seconds = app_now_s() - t0;
    return rc;
}
