/* tc_probe_infer (cases/probe.h): the masking products read, then each
 * class of output blocks fitted and every verify output predicted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "cases/gemm_probe_internal.h"

/* The first verify outputs (2^27 exact products at most: the exact sums
 * cost more than the predictions) against the exact products of the
 * uploaded inputs and of the FP32 originals they were rounded from. */
static void errors(const tc_probe_design *d, const uint32_t *A, const uint32_t *B, tc_probe_result *r)
{
    size_t cap = ((size_t)1 << 27) / (size_t)d->k, n = r->nout < cap ? r->nout : cap;
    gemm_errors(d->path->a, d->path->b, A, B, d->n, d->k, n, r->vi, r->vj, r->vgot, &r->vs_rounded);
    uint32_t *oa = gemm_alloc((size_t)d->m * d->k, sizeof *oa), *ob = gemm_alloc((size_t)d->k * d->n, sizeof *ob);
    tc_probe_verify_originals(d, oa, ob);
    gemm_errors(&tc_f32, &tc_f32, oa, ob, d->n, d->k, n, r->vi, r->vj, r->vgot, &r->vs_original);
    free(oa), free(ob);
}

int tc_probe_infer(const tc_probe_design *d, const char *profile_path, const uint32_t *const D[PROBE_NPRODUCTS],
                   const uint32_t *verify_A, const uint32_t *verify_B, const tc_probe_tick *tick,
                   tc_probe_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->out = &tc_f32;
    probe_read_step(d, D[PROBE_STEP], r);
    probe_read_runs(d, D[PROBE_RUNS], r);
    if (tick)
        tick->fn(tick->ctx, 0, (size_t)r->nclass + 1);
    if (probe_fit(d, profile_path, D[PROBE_VERIFY], verify_A, verify_B, tick, r, err, errlen))
        return -1;
    errors(d, verify_A, verify_B, r);
    if (tick)
        tick->fn(tick->ctx, (size_t)r->nclass + 1, (size_t)r->nclass + 1);
    r->explained = r->n > 0 && r->bit_exact * 1000 >= r->n * 999;
    if (!r->explained)
        snprintf(r->why + strlen(r->why), sizeof r->why - strlen(r->why), "%sthe best structure predicts %zu of "
                 "%zu verify outputs bit for bit (99.9%% needed)", r->why[0] ? "; " : "", r->bit_exact, r->n);
    return 0;
}

void tc_probe_result_free(tc_probe_result *r)
{
    for (int c = 0; c < r->nclass; c++)
        free(r->cls[c].run_start);
    free(r->cls), free(r->block_class), free(r->vi), free(r->vj), free(r->vgot), free(r->vpred);
    r->cls = NULL, r->block_class = NULL, r->vi = r->vj = NULL, r->vgot = r->vpred = NULL;
    r->nclass = 0;
}
