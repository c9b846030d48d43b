/* hunt's GPU path for the CLI (cli/hunt_batch.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/hunt_batch.h"

typedef struct {
    tc_progress *prog;
    const hunt_batch *b;
} batch_progress;

static void job_done(void *ctx, size_t j)
{
    batch_progress *bp = ctx;
    tc_progress_update(bp->prog, j + 1 < bp->b->n ? j + 1 : bp->b->n);
}

int hunt_batch_run(hunt_batch *b, hunt_gpu *hg, tc_backend *be, const model_profile *prof, const tc_instr **list,
                   size_t nlist, size_t per_family, uint64_t seed, size_t want, tc_progress *prog, char *err,
                   size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->job_of = malloc((nlist + 1) * sizeof *b->job_of);
    b->jobs = calloc(nlist + 1, sizeof *b->jobs);
    b->ctx = calloc(nlist + 1, sizeof *b->ctx);
    b->t = calloc(nlist + 1, sizeof *b->t);
    b->m = calloc(nlist + 1, sizeof *b->m);
    b->samples = calloc(want * HUNT_NFAMILIES * (nlist + 1) + 1, sizeof *b->samples);
    if (!b->job_of || !b->jobs || !b->ctx || !b->t || !b->m || !b->samples) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < nlist; i++) {
        b->job_of[i] = HUNT_BATCH_NONE;
        const model_params *p = profile_lookup(prof, list[i]->name);
        char why[256];
        size_t j = b->n;
        b->ctx[j] = (audit_backend_ctx){be, list[i]};
        b->t[j] = audit_target(&b->ctx[j], seed);
        if (!hg || !p || !hunt_applies(&b->t[j]) || !tc_backend_supports(be, list[i], why, sizeof why))
            continue;
        if (!(b->m[j] = model_new(p, b->t[j].f, err, errlen))) {
            char why2[512];
            snprintf(why2, sizeof why2, "%s", err);
            snprintf(err, errlen, "%.100s: %.380s", list[i]->name, why2);
            return -1;
        }
        if (hunt_gpu_unsupported(&b->t[j], list[i], b->m[j])) {   /* the host path's */
            model_free(b->m[j]);
            b->m[j] = NULL;
            continue;
        }
        b->jobs[j] = (hunt_gpu_job){.t = &b->t[j], .ins = list[i], .m = b->m[j],
                                    .sample = want ? b->samples + j * want * HUNT_NFAMILIES : NULL};
        b->job_of[i] = j;
        b->n++;
    }
    if (!b->n)
        return 0;
    tc_progress_start(prog, "hunt (GPU path)", b->n);
    batch_progress bp = {prog, b};
    int rc = hunt_gpu_run_all(hg, b->jobs, b->n, per_family, seed, want, job_done, &bp, err, errlen);
    tc_progress_clear(prog);
    return rc;
}

void hunt_batch_free(hunt_batch *b)
{
    for (size_t j = 0; j < b->n; j++) {
        verify_result_free(&b->jobs[j].r);
        model_free(b->m[j]);
    }
    free(b->job_of);
    free(b->jobs);
    free(b->ctx);
    free(b->t);
    free(b->m);
    free(b->samples);
    memset(b, 0, sizeof *b);
}
