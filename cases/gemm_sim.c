/* The simulated library (cases/gemm.h tc_gemm_lib_sim): a "library"
 * whose GEMM is the predictor's (cases/gemm_predict.c) under a given
 * structure and input conversion, so that inference can be checked
 * against a structure known in advance, without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

typedef struct {
    char profile[4096];
    tc_gemm_struct s;
    tc_gemm_incvt incvt;
} sim_ctx;

static int sim_run(void *ctx, const tc_gemm_path *p, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                   size_t nout, const int *ii, const int *jj, uint32_t *out, int warmup, int reps, double *ms,
                   tc_gemm_algo *algo, char *err, size_t errlen)
{
    (void)m, (void)warmup, (void)reps;
    const sim_ctx *c = ctx;
    memset(algo, 0, sizeof *algo);
    algo->algo_id = -1;   /* no cuBLASLt algorithm: the structure below is the whole story */
    algo->emulation = -1;
    algo->splitk = c->s.splitk;
    *ms = 0;
    /* A path without the conversion (not tf32) takes its inputs as uploaded. */
    tc_gemm_incvt cand[8], cv = GEMM_IN_AS_UPLOADED;
    int nc = tc_gemm_incvt_candidates(p, cand);
    for (int x = 0; x < nc; x++)
        if (cand[x] == c->incvt)
            cv = c->incvt;
    return gemm_predict(p, c->profile, &c->s, cv, A, B, n, k, nout, ii, jj, out, err, errlen) ? 1 : 0;
}

int tc_gemm_lib_sim(tc_gemm_lib *lib, const char *profile_path, const tc_gemm_struct *s, tc_gemm_incvt incvt,
                    char *err, size_t errlen)
{
    sim_ctx *c = gemm_alloc(1, sizeof *c);
    if (snprintf(c->profile, sizeof c->profile, "%s", profile_path) >= (int)sizeof c->profile) {
        snprintf(err, errlen, "profile path too long");
        free(c);
        return -1;
    }
    c->s = *s;
    c->incvt = incvt;
    memset(lib, 0, sizeof *lib);
    snprintf(lib->name, sizeof lib->name, "sim");
    snprintf(lib->device, sizeof lib->device, "model (%s) + chunk %d, promote %d, splitk %d, %s, slice unit %d, "
             "inputs %s", profile_path, s->chunk, s->promote, s->splitk, tc_gemm_combine_name(s->combine),
             s->slice_unit, tc_gemm_incvt_name(incvt));
    lib->run = sim_run;
    lib->ctx = c;
    return 0;
}

void tc_gemm_lib_sim_free(tc_gemm_lib *lib)
{
    free(lib->ctx);
    lib->ctx = NULL;
}
