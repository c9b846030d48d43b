/* The input conversion of a library GEMM (cases/gemm.h tc_gemm_incvt):
 * the candidates, the model each implies, the prediction of sampled
 * outputs under a structure and a conversion, and the inference: every
 * candidate predicts the same outputs and the ones that predict all of
 * them fit (one fit: decided; several: the outputs cannot tell them apart). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "oracle/oracle.h"
#include "oracle/profile.h"

static const char *const names[] = {"as-uploaded", "tf32-rz", "tf32-rna", "tf32-rne", "full-f32", "fp8-as-f16"};

const char *tc_gemm_incvt_name(tc_gemm_incvt c)
{
    return gemm_name_of(names, sizeof names / sizeof names[0], (int)c);
}

bool tc_gemm_incvt_parse(const char *s, tc_gemm_incvt *out)
{
    int i = gemm_name_index(names, sizeof names / sizeof names[0], s);
    if (i >= 0)
        *out = (tc_gemm_incvt)i;
    return i >= 0;
}

/* An enumeration's name from its table ("?" out of range), and back (-1: none). */
const char *gemm_name_of(const char *const *table, size_t n, int v)
{
    return v >= 0 && (size_t)v < n ? table[v] : "?";
}

int gemm_name_index(const char *const *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, table[i]))
            return (int)i;
    return -1;
}

int tc_gemm_incvt_candidates(const tc_gemm_path *p, tc_gemm_incvt *out)
{
    if (!p->instr || strstr(p->instr, ".tf32.") == NULL) {
        out[0] = GEMM_IN_AS_UPLOADED;
        return 1;
    }
    out[0] = GEMM_IN_TF32_RZ, out[1] = GEMM_IN_TF32_RNA, out[2] = GEMM_IN_TF32_RNE, out[3] = GEMM_IN_FULL_F32;
    return 4;
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

/* The elements (of upload format f) as the tensor core sees them under c:
 * FP32 containers in, tf32 containers out for the rounding candidates; FP8
 * in, f16 out (exact) for fp8-as-f16. */
void gemm_convert_inputs(tc_gemm_incvt c, const tc_format *f, uint64_t *x, size_t n)
{
    if (c == GEMM_IN_FP8_AS_F16) {
        tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
        for (size_t i = 0; i < n; i++)
            x[i] = tc_encode_f64(&tc_f16, tc_decode_to_f64(f, x[i]), rne);
        return;
    }
    tc_round mode = c == GEMM_IN_TF32_RZ ? TC_RZ : c == GEMM_IN_TF32_RNA ? TC_RNA : TC_RNE;
    if (c != GEMM_IN_TF32_RZ && c != GEMM_IN_TF32_RNA && c != GEMM_IN_TF32_RNE)
        return;
    tc_rounding r = {.mode = mode, .ovf = TC_OVF_INF};
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)x[i];
        float v;
        memcpy(&v, &u, sizeof v);
        x[i] = tc_encode_f32(&tc_tf32, v, r);
    }
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
