/* A library path on the application's data (cases/app.h app_eval_lib):
 * quantize as app_eval does, convert as the path does, sum every sampled
 * output with the instruction model + the path's accumulation structure
 * (cases/gemm_struct.c), undo the scales exactly, compare with the exact
 * products of the original and of the multiplied inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/app_internal.h"
#include "cases/gemm_internal.h"

#define BATCH_ELEMS ((size_t)1 << 22)   /* operand elements per gemm_struct_dots call (memory bound) */

static bool converts_to_tf32(tc_gemm_incvt c)
{
    return c == GEMM_IN_TF32_RZ || c == GEMM_IN_TF32_RNA || c == GEMM_IN_TF32_RNE;
}

/* One pass over lines of k operand elements (A's rows, then B's columns),
 * the lines spread over the cores; each line's work its own, so the bits
 * are those of one pass on one thread. */
typedef struct {
    int rows, k;
    uint64_t *Aq, *Bq;                 /* the quantized operands (converted in place) */
    const tc_format *ua, *ub;          /* their upload formats */
    const tc_format *fa, *fb;          /* what the tensor core multiplies */
    tc_gemm_incvt incvt;
    const double *sa, *sb;
    double *ar, *br;                   /* multiplied(): the values multiplied, descaled exactly (NULL: not wanted) */
} line_job;

static void convert_lines(void *ctx, size_t lo, size_t hi)
{
    const line_job *j = ctx;
    for (size_t l = lo; l < hi; l++) {
        bool a = l < (size_t)j->rows;
        size_t i = a ? l : l - (size_t)j->rows;
        gemm_convert_inputs(j->incvt, a ? j->ua : j->ub, (a ? j->Aq : j->Bq) + i * (size_t)j->k, (size_t)j->k);
    }
}

static void multiplied_lines(void *ctx, size_t lo, size_t hi)
{
    const line_job *j = ctx;
    for (size_t l = lo; l < hi; l++) {
        bool a = l < (size_t)j->rows;
        size_t i = a ? l : l - (size_t)j->rows;
        const uint64_t *q = (a ? j->Aq : j->Bq) + i * (size_t)j->k;
        double *v = (a ? j->ar : j->br) + i * (size_t)j->k, scale = (a ? j->sa : j->sb)[i];
        const tc_format *f = a ? j->fa : j->fb;
        for (int x = 0; x < j->k; x++)
            v[x] = tc_decode_to_f64(f, q[x]) / scale;
    }
}

/* The GPU walk's operands: A's rows as 32-bit elements, B as k x cols
 * (Bq holds B's columns), a block of 64 x 64 at a time so that both sides
 * stay in cache; and the FP32 results descaled exactly. */
typedef struct {
    int rows, cols, k;
    const uint64_t *Aq, *Bq;
    uint32_t *a, *b;
    const uint32_t *out;
    const double *sa, *sb;
    double *got;
} walk_io;

#define TILE 64

static void walk_inputs(void *ctx, size_t lo, size_t hi)
{
    const walk_io *w = ctx;
    size_t k = (size_t)w->k, cols = (size_t)w->cols, rows = (size_t)w->rows;
    for (size_t t = lo; t < hi; t++) {
        if (t < rows) {   /* row t of A */
            for (size_t x = 0; x < k; x++)
                w->a[t * k + x] = (uint32_t)w->Aq[t * k + x];
            continue;
        }
        size_t j0 = (t - rows) * TILE, j1 = j0 + TILE < cols ? j0 + TILE : cols;   /* columns of B */
        for (size_t x0 = 0; x0 < k; x0 += TILE)
            for (size_t j = j0; j < j1; j++)
                for (size_t x = x0; x < x0 + TILE && x < k; x++)
                    w->b[x * cols + j] = (uint32_t)w->Bq[j * k + x];
    }
}

static void walk_outputs(void *ctx, size_t lo, size_t hi)
{
    const walk_io *w = ctx;
    for (size_t i = lo; i < hi; i++)
        for (size_t j = 0; j < (size_t)w->cols; j++) {
            size_t e = i * (size_t)w->cols + j;
            w->got[e] = tc_decode_to_f64(&tc_f32, w->out[e]) / (w->sa[i] * w->sb[j]);
        }
}

/* The GPU model walks structure s over K k (tc_model_gpu_gemm_unsupported). */
static bool walk_takes(const tc_gemm_struct *s, const model *md, int k)
{
    tc_model_gemm_chain ch;
    gemm_chain_of(s, k, &ch);
    return s->splitk <= TC_MGEMM_MAX_SLICES && !tc_model_gpu_gemm_unsupported(md, &ch, k);
}

/* Every output of the rows x cols block by the GPU model, the FP32 results
 * descaled exactly into got; the layout's time into inputs_s, the walk's
 * (its kernels, copies and CPU share apart) into model_s. 0, or -1 + err. */
static int on_gpu(const app_lib_candidate *c, const model *md, const uint64_t *Aq, const uint64_t *Bq,
                  const double *sa, const double *sb, int rows, int cols, int k, double *got,
                  tc_model_gpu_count *count, app_stages *st, char *err, size_t len)
{
    double t0 = app_now_s();
    size_t no = (size_t)rows * cols, tiles = ((size_t)cols + TILE - 1) / TILE;
    uint32_t *out = app_calloc(no, 4);
    walk_io w = {rows, cols, k, Aq, Bq, app_calloc((size_t)rows * k, 4), app_calloc((size_t)k * cols, 4), out, sa,
                 sb, got};
    oracle_parallel((size_t)rows + tiles, ((size_t)rows + (size_t)cols) * (size_t)k, walk_inputs, &w);
    tc_model_gemm_chain ch;
    gemm_chain_of(&c->s, k, &ch);
    tc_model_gpu_count before = *count;
    double t1 = app_now_s();
    st->inputs_s += t1 - t0;
    int rc = tc_model_gpu_gemm(c->gpu, md, &ch, rows, cols, k, w.a, w.b, no, NULL, NULL, out, count, err, len);
    if (!rc)
        oracle_parallel((size_t)rows, no, walk_outputs, &w);
    st->model_s += app_now_s() - t1;
    st->model_kernel_s += count->kernel_s - before.kernel_s;
    st->model_copy_s += count->copy_s - before.copy_s;
    st->model_cpu_s += count->cpu_s - before.cpu_s;
    free(w.a), free(w.b), free(out);
    return rc;
}

/* Every output of the rows x cols block by the CPU's predictor (the
 * structure as cases/gemm_struct.c sums it), a batch of outputs at a time;
 * the FP32 results descaled exactly into got. */
static void on_cpu(const app_lib_candidate *c, const model *md, const uint64_t *Aq, const uint64_t *Bq,
                   const double *sa, const double *sb, int cols, int k, size_t no, double *got,
                   tc_model_gpu_count *count, app_stages *st)
{
    double t0 = app_now_s();
    size_t batch = BATCH_ELEMS / (size_t)k ? BATCH_ELEMS / (size_t)k : 1;
    uint64_t *a = app_calloc(batch * (size_t)k, 8), *b = app_calloc(batch * (size_t)k, 8);
    uint32_t *out = app_calloc(batch, sizeof *out);
    for (size_t e0 = 0; e0 < no; e0 += batch) {
        size_t nb = no - e0 < batch ? no - e0 : batch;
        for (size_t t = 0; t < nb; t++) {   /* output e = (i, j): row i of A, column j of B */
            size_t i = (e0 + t) / (size_t)cols, j = (e0 + t) % (size_t)cols;
            memcpy(a + t * k, Aq + i * k, (size_t)k * 8);
            memcpy(b + t * k, Bq + j * k, (size_t)k * 8);
        }
        gemm_struct_dots(&c->s, md, k, nb, a, b, out);
        for (size_t t = 0; t < nb; t++) {
            size_t i = (e0 + t) / (size_t)cols, j = (e0 + t) % (size_t)cols;
            /* the FP32 output times 1 / (sa * sb): exact, powers of two */
            got[e0 + t] = tc_decode_to_f64(&tc_f32, out[t]) / (sa[i] * sb[j]);
        }
        count->cpu += nb;
    }
    free(a), free(b), free(out);
    double s = app_now_s() - t0;
    st->model_s += s;
    st->model_cpu_s += s;
}

int app_eval_lib(const app_data *d, const app_lib_candidate *c, app_result *r, char *err, size_t len)
{
    double t0 = app_now_s();
    memset(&r->stages, 0, sizeof r->stages);
    app_stages *st = &r->stages;
    int k = d->k, rows = c->rows, cols = c->cols;
    if (c->scaling == APP_SCALE_BLOCK32) {
        snprintf(err, len, "path %s: block32 scaling is not what the recorded library path does", c->p->name);
        return -1;
    }
    if (rows > d->rows || cols > d->cols) {
        snprintf(err, len, "candidate wants %d x %d outputs, the data has %d x %d", rows, cols, d->rows, d->cols);
        return -1;
    }
    model *md = gemm_model_in(c->p, c->profile, c->incvt, err, len);
    if (!md)
        return -1;
    uint64_t *Aq = app_calloc((size_t)rows * k, 8), *Bq = app_calloc((size_t)cols * k, 8);
    double *sa = app_calloc((size_t)rows, sizeof *sa), *sb = app_calloc((size_t)cols, sizeof *sb);
    app_quantize(c->p->a, c->scaling, d->amax_a, d->A, rows, k, k, 1, Aq, sa);
    app_quantize(c->p->b, c->scaling, d->amax_b, d->B, cols, k, k, 1, Bq, sb);
    const tc_format *wide = c->incvt == GEMM_IN_FP8_AS_F16 ? &tc_f16 : NULL;   /* FP8 widened for mma.sync */
    line_job lj = {rows, k, Aq, Bq, c->p->a, c->p->b,
                   converts_to_tf32(c->incvt) ? &tc_tf32 : wide ? wide : c->p->a,
                   converts_to_tf32(c->incvt) ? &tc_tf32 : wide ? wide : c->p->b, c->incvt, sa, sb, NULL, NULL};
    size_t lines = (size_t)rows + (size_t)cols, elems = lines * (size_t)k;
    /* tf32: what the tensor core takes of FP32 */
    oracle_parallel(lines, elems, convert_lines, &lj);
    size_t no = (size_t)rows * cols;
    double *got = app_calloc(no, sizeof *got);
    tc_model_gpu_count spare = {0}, *count = c->count ? c->count : &spare;
    st->inputs_s += app_now_s() - t0;
    int rc = 0;
    if (c->walk && walk_takes(&c->s, md, k))   /* else the CPU's */
        rc = on_gpu(c, md, Aq, Bq, sa, sb, rows, cols, k, got, count, st, err, len);
    else
        on_cpu(c, md, Aq, Bq, sa, sb, cols, k, no, got, count, st);
    if (rc) {
        free(Aq), free(Bq), free(sa), free(sb), free(got);
        model_free(md);
        return -1;
    }
    char key[96];
    snprintf(key, sizeof key, "orig %dx%d", rows, cols);
    const double *ref_o = app_reference(key, d->A, d->B, rows, cols, k, st);
    snprintf(key, sizeof key, "%s/%s/%s/%s %dx%d", lj.fa->name, lj.fb->name, tc_gemm_incvt_name(c->incvt),
             app_scaling_name(c->scaling), rows, cols);
    /* the values multiplied: made only when no earlier candidate's reference has them */
    const double *ref_r = app_reference_find(key, st);
    if (!ref_r) {
        double t1 = app_now_s();
        lj.ar = app_calloc((size_t)rows * k, sizeof *lj.ar), lj.br = app_calloc((size_t)cols * k, sizeof *lj.br);
        oracle_parallel(lines, elems, multiplied_lines, &lj);
        st->inputs_s += app_now_s() - t1;
        ref_r = app_reference(key, lj.ar, lj.br, rows, cols, k, st);
        free(lj.ar), free(lj.br);
    }
    app_stats_both(got, ref_o, ref_r, no, r);
    r->outputs = no;
    free(Aq), free(Bq), free(sa), free(sb), free(got);
    model_free(md);
    r->seconds = app_now_s() - t0;
    return 0;
}
