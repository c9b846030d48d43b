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

/* The values the tensor core multiplies, descaled exactly: lines x k doubles. */
static double *multiplied(const tc_format *f, const uint64_t *q, const double *scale, int lines, int k)
{
    double *v = app_calloc((size_t)lines * k, sizeof *v);
    for (int i = 0; i < lines; i++)
        for (int x = 0; x < k; x++)
            v[(size_t)i * k + x] = tc_decode_to_f64(f, q[(size_t)i * k + x]) / scale[i];
    return v;
}

/* The GPU model walks structure s over K k (tc_model_gpu_gemm_unsupported). */
static bool walk_takes(const tc_gemm_struct *s, const model *md, int k)
{
    tc_model_gemm_chain ch;
    gemm_chain_of(s, k, &ch);
    return s->splitk <= TC_MGEMM_MAX_SLICES && !tc_model_gpu_gemm_unsupported(md, &ch, k);
}

/* Every output of the rows x cols block by the GPU model: A's rows and B
 * (k x cols, row-major: Bq holds B's columns) as 32-bit elements, the FP32
 * results descaled exactly into got. 0, or -1 + err. */
static int on_gpu(const app_lib_candidate *c, const model *md, const uint64_t *Aq, const uint64_t *Bq,
                  const double *sa, const double *sb, int rows, int cols, int k, double *got,
                  tc_model_gpu_count *count, char *err, size_t len)
{
    size_t no = (size_t)rows * cols;
    uint32_t *a = app_calloc((size_t)rows * k, 4), *b = app_calloc((size_t)k * cols, 4), *out = app_calloc(no, 4);
    for (size_t i = 0; i < (size_t)rows * k; i++)
        a[i] = (uint32_t)Aq[i];
    for (size_t j = 0; j < (size_t)cols; j++)
        for (size_t x = 0; x < (size_t)k; x++)
            b[x * cols + j] = (uint32_t)Bq[j * k + x];
    tc_model_gemm_chain ch;
    gemm_chain_of(&c->s, k, &ch);
    int rc = tc_model_gpu_gemm(c->gpu, md, &ch, rows, cols, k, a, b, no, NULL, NULL, out, count, err, len);
    for (size_t e = 0; e < no && !rc; e++)
        got[e] = tc_decode_to_f64(&tc_f32, out[e]) / (sa[e / (size_t)cols] * sb[e % (size_t)cols]);
    free(a), free(b), free(out);
    return rc;
}

int app_eval_lib(const app_data *d, const app_lib_candidate *c, app_result *r, char *err, size_t len)
{
    double t0 = app_now_s();
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
    gemm_convert_inputs(c->incvt, c->p->a, Aq, (size_t)rows * k);   /* tf32: what the tensor core takes of FP32 */
    gemm_convert_inputs(c->incvt, c->p->b, Bq, (size_t)cols * k);
    const tc_format *wide = c->incvt == GEMM_IN_FP8_AS_F16 ? &tc_f16 : NULL;   /* FP8 widened for mma.sync */
    const tc_format *fa = converts_to_tf32(c->incvt) ? &tc_tf32 : wide ? wide : c->p->a;
    const tc_format *fb = converts_to_tf32(c->incvt) ? &tc_tf32 : wide ? wide : c->p->b;
    size_t no = (size_t)rows * cols, batch = BATCH_ELEMS / (size_t)k ? BATCH_ELEMS / (size_t)k : 1;
    double *got = app_calloc(no, sizeof *got);
    tc_model_gpu_count spare = {0}, *count = c->count ? c->count : &spare;
    int rc = 0;
    if (c->walk && walk_takes(&c->s, md, k)) {   /* else the CPU's, below */
        rc = on_gpu(c, md, Aq, Bq, sa, sb, rows, cols, k, got, count, err, len);
        batch = 0;   /* nothing left for the CPU */
    }
    uint64_t *a = app_calloc(batch * (size_t)k, 8), *b = app_calloc(batch * (size_t)k, 8);
    uint32_t *out = app_calloc(batch, sizeof *out);
    for (size_t e0 = 0; batch && e0 < no; e0 += batch) {
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
    if (rc) {
        free(Aq), free(Bq), free(sa), free(sb), free(a), free(b), free(out), free(got);
        model_free(md);
        return -1;
    }
    double *ar = multiplied(fa, Aq, sa, rows, k), *br = multiplied(fb, Bq, sb, cols, k);
    char key[96];
    snprintf(key, sizeof key, "orig %dx%d", rows, cols);
    const double *ref_o = app_reference(key, d->A, d->B, rows, cols, k);
    snprintf(key, sizeof key, "%s/%s/%s/%s %dx%d", fa->name, fb->name, tc_gemm_incvt_name(c->incvt),
             app_scaling_name(c->scaling), rows, cols);
    const double *ref_r = app_reference(key, ar, br, rows, cols, k);
    app_stats_of(got, ref_o, no, &r->vs_orig);
    app_stats_of(got, ref_r, no, &r->vs_rounded);
    r->outputs = no;
    free(Aq), free(Bq), free(sa), free(sb), free(a), free(b), free(out), free(got), free(ar), free(br);
    model_free(md);
    r->seconds = app_now_s() - t0;
    return 0;
}
