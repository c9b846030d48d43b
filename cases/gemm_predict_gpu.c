/* The gemm predictor on the GPU model (cases/gemm_internal.h
 * gemm_predict_on): the structure as the plain chain probes/model_gpu_gemm.h
 * walks, the inputs converted once for the whole GEMM, every output asked
 * for walked by one GPU thread (g NULL: the same walk on the CPU's cores,
 * what tests compare with gemm_predict where there is no GPU). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

void gemm_chain_of(const tc_gemm_struct *s, int k, tc_model_gemm_chain *ch)
{
    memset(ch, 0, sizeof *ch);
    ch->chunk = s->chunk > 0 ? s->chunk : 1;
    ch->run = s->promote > 0 ? s->promote : 0;
    ch->nslices = s->splitk > 1 ? s->splitk : 1;
    /* every order named: one the walk lacks must not pass for SEQ */
    ch->combine = s->combine == GEMM_COMBINE_SEQ        ? TC_MGEMM_SEQ
                  : s->combine == GEMM_COMBINE_PAIRWISE ? TC_MGEMM_PAIRWISE
                  : s->combine == GEMM_COMBINE_REVERSE  ? TC_MGEMM_REVERSE
                                                        : TC_MGEMM_OTHER;
    if (ch->nslices <= TC_MGEMM_MAX_SLICES)
        gemm_struct_bounds(s, k, ch->bounds);
}

/* x[0..n) (bits of upload format f) as the tensor core sees them under c,
 * into y, a block at a time through gemm_convert_inputs. */
static void convert32(tc_gemm_incvt c, const tc_format *f, const uint32_t *x, uint32_t *y, size_t n)
{
    enum { BLOCK = 1 << 16 };
    uint64_t *w = gemm_alloc(BLOCK, sizeof *w);
    for (size_t i0 = 0; i0 < n; i0 += BLOCK) {
        size_t nb = n - i0 < BLOCK ? n - i0 : BLOCK;
        for (size_t i = 0; i < nb; i++)
            w[i] = x[i0 + i];
        gemm_convert_inputs(c, f, w, nb);
        for (size_t i = 0; i < nb; i++)
            y[i0 + i] = (uint32_t)w[i];
    }
    free(w);
}

static bool converts(tc_gemm_incvt c)
{
    return c == GEMM_IN_TF32_RZ || c == GEMM_IN_TF32_RNA || c == GEMM_IN_TF32_RNE || c == GEMM_IN_FP8_AS_F16;
}

int gemm_predict_on(tc_model_gpu *g, const tc_gemm_path *p, const char *profile_path, const tc_gemm_struct *s,
                    tc_gemm_incvt c, const uint32_t *A, const uint32_t *B, int m, int n, int k, size_t nout,
                    const int *ii, const int *jj, uint32_t *pred, tc_model_gpu_count *count, char *err,
                    size_t errlen)
{
    model *md = gemm_model_in(p, profile_path, c, err, errlen);
    if (!md)
        return -1;
    tc_model_gemm_chain ch;
    gemm_chain_of(s, k, &ch);
    if (s->splitk > TC_MGEMM_MAX_SLICES || tc_model_gpu_gemm_unsupported(md, &ch, k)) {
        model_free(md);   /* the CPU predictor computes what the walk does not take */
        int *ai = NULL, *aj = NULL;
        if (!ii) {   /* every output, row-major */
            ai = gemm_alloc(nout, sizeof *ai), aj = gemm_alloc(nout, sizeof *aj);
            for (size_t e = 0; e < nout; e++)
                ai[e] = (int)(e / (size_t)n), aj[e] = (int)(e % (size_t)n);
        }
        int rc = gemm_predict(p, profile_path, s, c, A, B, n, k, nout, ii ? ii : ai, jj ? jj : aj, pred, err, errlen);
        free(ai), free(aj);
        count->cpu += rc ? 0 : nout;
        return rc;
    }
    uint32_t *ca = NULL, *cb = NULL;
    if (converts(c)) {
        ca = gemm_alloc((size_t)m * (size_t)k, sizeof *ca), cb = gemm_alloc((size_t)k * (size_t)n, sizeof *cb);
        convert32(c, p->a, A, ca, (size_t)m * (size_t)k);
        convert32(c, p->b, B, cb, (size_t)k * (size_t)n);
    }
    int rc = tc_model_gpu_gemm(g, md, &ch, m, n, k, ca ? ca : A, cb ? cb : B, nout, ii, jj, pred, count, err, errlen);
    free(ca), free(cb);
    model_free(md);
    return rc;
}
