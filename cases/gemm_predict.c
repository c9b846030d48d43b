/* The gemm predictor: a path's instruction model (as the profile has it,
 * or reading FP32 operands for full-f32), the sampled outputs predicted
 * under a structure and an input conversion, and the conversion inferred:
 * every candidate predicts the same outputs and the one that predicts
 * most of them bit for bit is used (one fit: decided; several: the
 * outputs cannot tell them apart). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "oracle/oracle.h"
#include "oracle/profile.h"

model *tc_gemm_model(const tc_gemm_path *p, const char *profile_path, char *err, size_t errlen)
{
    if (!p->instr) {
        snprintf(err, errlen, "path %s runs no tensor-core instruction: no model predicts it", p->name);
        return NULL;
    }
    const tc_instr *ins = tc_instr_by_name(p->instr);
    model_profile prof;
    if (!ins || profile_load(profile_path, &prof, err, errlen) != 0) {
        if (!ins)
            snprintf(err, errlen, "no instruction %s in the catalogue", p->instr);
        return NULL;
    }
    const model_params *mp = profile_lookup(&prof, p->instr);
    model *m = NULL;
    if (!mp)
        snprintf(err, errlen, "%s has no entry for %s", profile_path, p->instr);
    else
        m = model_new(mp, (oracle_formats){ins->a, ins->b, ins->c, ins->d}, err, errlen);
    profile_free(&prof);
    return m;
}

/* The instruction model for conversion c: the profile's own, (full-f32)
 * the same instruction reading FP32 operands with no conversion at all, or
 * (fp8-as-f16) the 16-bit mma.sync's. */
model *gemm_model_in(const tc_gemm_path *p, const char *profile_path, tc_gemm_incvt c, char *err, size_t errlen)
{
    if (c == GEMM_IN_FP8_AS_F16) {
        if (!p->fp8) {
            snprintf(err, errlen, "path %s: fp8-as-f16 widens FP8 inputs only", p->name);
            return NULL;
        }
        tc_gemm_path f16 = *p;
        f16.a = f16.b = &tc_f16, f16.instr = GEMM_F16_MMA_SYNC;
        return tc_gemm_model(&f16, profile_path, err, errlen);
    }
    if (c != GEMM_IN_FULL_F32)
        return tc_gemm_model(p, profile_path, err, errlen);
    const tc_instr *ins = p->instr ? tc_instr_by_name(p->instr) : NULL;
    model_profile prof;
    if (!ins) {
        snprintf(err, errlen, "path %s has no instruction model", p->name);
        return NULL;
    }
    if (profile_load(profile_path, &prof, err, errlen) != 0)
        return NULL;
    const model_params *mp = profile_lookup(&prof, p->instr);
    model *m = NULL;
    if (!mp) {
        snprintf(err, errlen, "%s has no entry for %s", profile_path, p->instr);
    } else {
        model_params q = *mp;
        q.cvt_a.convert = q.cvt_b.convert = false;
        m = model_new(&q, (oracle_formats){&tc_f32, &tc_f32, ins->c, ins->d}, err, errlen);
    }
    profile_free(&prof);
    return m;
}

/* The predictions of outputs [lo, hi) of one gemm_predict call, on one thread. */
typedef struct {
    const tc_gemm_path *p;
    const tc_gemm_struct *s;
    const model *md;
    tc_gemm_incvt c;
    const uint32_t *A, *B;
    const int *ii, *jj;
    int n, k;
    uint32_t *pred;
} predict_job;

static void predict_range(void *ctx, size_t lo, size_t hi)
{
    const predict_job *j = ctx;
    size_t k = (size_t)j->k, batch = gemm_batch(j->k);
    batch = batch < hi - lo ? batch : hi - lo;
    uint64_t *a = gemm_alloc(batch * k, sizeof *a), *b = gemm_alloc(batch * k, sizeof *b);
    for (size_t s0 = lo; s0 < hi; s0 += batch) {
        size_t nb = hi - s0 < batch ? hi - s0 : batch;
        gemm_gather(j->A, j->B, j->n, j->k, nb, j->ii + s0, j->jj + s0, a, b);
        gemm_convert_inputs(j->c, j->p->a, a, nb * k);
        gemm_convert_inputs(j->c, j->p->b, b, nb * k);
        if (!j->md)   /* FP32 FMA chains */
            gemm_widen_f32(j->p->a, a, nb * k), gemm_widen_f32(j->p->b, b, nb * k);
        gemm_struct_dots(j->s, j->md, j->k, nb, a, b, j->pred + s0);   /* model_mma inline: one thread */
    }
    free(a), free(b);
}

/* The outputs are spread over the cores once, each thread predicting its
 * own with the shared (immutable) model: every output is computed alone,
 * so the split changes no bit; model_mma's own threads (K / chunk starts
 * a call) stay off. */
int gemm_predict(const tc_gemm_path *p, const char *profile_path, const tc_gemm_struct *s, tc_gemm_incvt c,
                 const uint32_t *A, const uint32_t *B, int n, int k, size_t nout, const int *ii, const int *jj,
                 uint32_t *pred, char *err, size_t errlen)
{
    model *md = gemm_model_in(p, profile_path, c, err, errlen);
    if (!md)
        return -1;
    predict_job j = {p, s, md, c, A, B, ii, jj, n, k, pred};
    oracle_parallel(nout, nout * (size_t)k, predict_range, &j);
    model_free(md);
    return 0;
}

void gemm_predict_fma(const tc_gemm_path *p, const tc_gemm_struct *s, const uint32_t *A, const uint32_t *B, int n,
                      int k, size_t nout, const int *ii, const int *jj, uint32_t *pred)
{
    predict_job j = {p, s, NULL, GEMM_IN_AS_UPLOADED, A, B, ii, jj, n, k, pred};
    oracle_parallel(nout, nout * (size_t)k, predict_range, &j);
}

int gemm_infer_incvt(const tc_gemm_path *p, const char *profile_path, const tc_gemm_struct *s, const uint32_t *A,
                     const uint32_t *B, int n, int k, size_t nout, const int *ii, const int *jj, const uint32_t *got,
                     tc_gemm_incvt_result *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->ncand = tc_gemm_incvt_candidates(p, o->cand);
    o->used = o->cand[0];
    if (o->ncand == 1)   /* no choice: nothing to infer */
        return 0;
    o->tried = nout;
    size_t best_n = 0;
    int best = -1;
    uint32_t *pred = gemm_alloc(nout, sizeof *pred);
    for (int x = 0; x < o->ncand; x++) {
        if (gemm_predict(p, profile_path, s, o->cand[x], A, B, n, k, nout, ii, jj, pred, err, errlen) != 0) {
            free(pred);
            return -1;
        }
        for (size_t e = 0; e < nout; e++)
            o->bit_exact[x] += pred[e] == got[e];
        if (best < 0 || o->bit_exact[x] > best_n)
            best = x, best_n = o->bit_exact[x];
    }
    free(pred);
    o->used = o->cand[best];
    return 0;
}
