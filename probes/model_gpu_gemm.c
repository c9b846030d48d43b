/* A GEMM's outputs from the instruction model (probes/model_gpu_gemm.h):
 * the plan every thread reads, the walk on the CPU's cores, or on the GPU
 * (probes/cuda/model_gpu_gemm.cu) with the outputs it declines walked here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/oracle.h"
#include "probes/model_gpu_gemm_core.h"
#include "probes/model_gpu_run.h"
#include "probes/clock.h"

/* FP32's constants when f is FP32 as the walk reads it (8 + 23 bits, no shift). */
static bool is_f32(const mfmt *f)
{
    return f->ebits == 8 && f->mbits == 23 && f->shift == 0 && f->specials == TC_SPECIALS_IEEE;
}

const char *tc_model_gpu_gemm_unsupported(const model *m, const tc_model_gemm_chain *ch, int k)
{
    if (m->wide)
        return "operands over 31 significant bits take the CPU's wide path";
    if (ch->chunk < 1 || ch->chunk > MODEL_ELEMENT_MAX_K)
        return "a step over MODEL_ELEMENT_MAX_K (64) positions";
    if (!is_f32(&m->cfmt) || !is_f32(&m->out))
        return "C or D not FP32";
    if (ch->combine == TC_MGEMM_OTHER)
        return "slices met in an order the walk lacks (an XOR tree)";
    if (ch->nslices < 1 || ch->nslices > TC_MGEMM_MAX_SLICES || ch->run < 0 || ch->combine < TC_MGEMM_SEQ ||
        ch->combine > TC_MGEMM_REVERSE || ch->bounds[0] != 0 || ch->bounds[ch->nslices] != k)
        return "slices out of range";
    for (int t = 0; t < ch->nslices; t++)
        if (ch->bounds[t] > ch->bounds[t + 1])
            return "slices out of order";
    return NULL;
}

static void plan_init(mgemm_plan *pl, const model *m, const tc_model_gemm_chain *ch)
{
    memset(pl, 0, sizeof *pl);
    pl->ch = *ch;
    mfmt_init(&pl->f32, &tc_f32);
    int idx[MODEL_ELEMENT_MAX_K];
    for (int len = 1; len <= ch->chunk; len++)
        if (model_step_order(&m->p, len, idx)) {
            pl->ordered[len] = 1;
            for (int i = 0; i < len; i++)
                pl->order[len][i] = (int8_t)idx[i];
        }
}

/* Outputs [lo, hi) walked on this thread; only those flagged when flag is
 * set (the GPU's declined ones). */
typedef struct {
    const model *m;
    const mgemm_plan *pl;
    int n, k;
    const uint32_t *A, *B;
    const int *ii, *jj;
    const unsigned char *flag;
    uint32_t *out;
} walk_job;

static void walk_range(void *ctx, size_t lo, size_t hi)
{
    const walk_job *j = ctx;
    for (size_t e = lo; e < hi; e++) {
        if (j->flag && !j->flag[e])
            continue;
        size_t i = j->ii ? (size_t)j->ii[e] : e / (size_t)j->n, c = j->jj ? (size_t)j->jj[e] : e % (size_t)j->n;
        mgemm_output(j->m, j->pl, j->A + i * (size_t)j->k, j->B + c, (size_t)j->n, &j->out[e]);
    }
}

int tc_model_gpu_gemm(tc_model_gpu *g, const model *m, const tc_model_gemm_chain *ch, int mrows, int n, int k,
                      const uint32_t *A, const uint32_t *B, size_t nout, const int *ii, const int *jj, uint32_t *out,
                      tc_model_gpu_count *count, char *err, size_t errlen)
{
    const char *no = tc_model_gpu_gemm_unsupported(m, ch, k);
    if (no || mrows < 1 || n < 1 || k < 1 || (!ii && nout != (size_t)mrows * (size_t)n) || (!ii != !jj)) {
        snprintf(err, errlen, "GPU model GEMM: %s (internal error)", no ? no : "shape and outputs disagree");
        return -1;
    }
    mgemm_plan *pl = malloc(sizeof *pl);
    if (!pl) {
        snprintf(err, errlen, "GPU model GEMM: out of memory");
        return -1;
    }
    plan_init(pl, m, ch);
    walk_job j = {m, pl, n, k, A, B, ii, jj, NULL, out};
    size_t work = nout * (size_t)k;
    int rc = 0;
    if (!g) {
        double t0 = tc_now_s();
        oracle_parallel(nout, work, walk_range, &j);
        count->cpu += nout;
        count->cpu_s += tc_now_s() - t0;
        free(pl);
        return 0;
    }
#if TC_HAVE_CUDA
    unsigned char *flag = calloc(nout ? nout : 1, 1);
    size_t declined = 0;
    tc_mgpu_times tm = {0, 0};
    if (!flag) {
        snprintf(err, errlen, "GPU model GEMM: out of memory");
        rc = -1;
    } else {
        rc = tc_mgpu_gemm(tc_model_gpu_device(g), m, pl, mrows, n, k, A, B, nout, ii, jj, out, flag, &declined, &tm,
                          err, errlen);
    }
    if (rc == 0) {
        count->copy_s += tm.copy_s;
        count->kernel_s += tm.kernel_s;
        double t0 = tc_now_s();
        if (declined) {
            j.flag = flag;
            oracle_parallel(nout, work, walk_range, &j);
        }
        count->cpu_s += tc_now_s() - t0;
        count->cpu += declined;
        count->gpu += nout - declined;
    }
    free(flag);
#else
    snprintf(err, errlen, "GPU model: this tcscope was built without nvcc (no CUDA)");
    rc = -1;
#endif
    free(pl);
    return rc;
}
