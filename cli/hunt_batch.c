/* hunt's GPU path for the CLI (cli/hunt_batch.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/hunt_batch.h"

static void job_done(void *ctx, size_t j)
{
    hunt_batch *b = ctx;
    if (b->threaded)
        pthread_mutex_lock(&b->mu);
    b->done = j + 1;
    if (b->threaded) {
        pthread_cond_broadcast(&b->cv);
        pthread_mutex_unlock(&b->mu);
    } else if (b->prog)
        tc_progress_update(b->prog, b->done < b->n ? b->done : b->n);
}

int hunt_batch_plan(hunt_batch *b, hunt_gpu *hg, tc_backend *be, const model_profile *prof, const tc_instr **list,
                    size_t nlist, size_t per_family, uint64_t seed, size_t want, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    b->hg = hg;
    b->per_family = per_family;
    b->seed = seed;
    b->want = want;
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
    return 0;
}

int hunt_batch_run(hunt_batch *b, tc_progress *prog, char *err, size_t errlen)
{
    if (!b->n)
        return 0;
    b->prog = prog;
    tc_progress_start(prog, "hunt (GPU path)", b->n);
    int rc = hunt_gpu_run_all(b->hg, b->jobs, b->n, b->per_family, b->seed, b->want, job_done, b, err, errlen);
    tc_progress_clear(prog);
    b->finished = true;
    return rc;
}

static void *batch_thread(void *arg)
{
    hunt_batch *b = arg;
    char err[512] = "";
    int rc = hunt_gpu_run_all(b->hg, b->jobs, b->n, b->per_family, b->seed, b->want, job_done, b, err, sizeof err);
    pthread_mutex_lock(&b->mu);
    b->rc = rc;
    snprintf(b->err, sizeof b->err, "%s", err);
    b->finished = true;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

int hunt_batch_start(hunt_batch *b, char *err, size_t errlen)
{
    if (!b->n) {
        b->finished = true;
        return 0;
    }
    if (pthread_mutex_init(&b->mu, NULL)) {
        snprintf(err, errlen, "cannot start the GPU path's thread");
        return -1;
    }
    if (pthread_cond_init(&b->cv, NULL)) {
        pthread_mutex_destroy(&b->mu);
        snprintf(err, errlen, "cannot start the GPU path's thread");
        return -1;
    }
    b->threaded = true;
    if (pthread_create(&b->th, NULL, batch_thread, b)) {
        b->threaded = false;
        pthread_cond_destroy(&b->cv);
        pthread_mutex_destroy(&b->mu);
        snprintf(err, errlen, "cannot start the GPU path's thread");
        return -1;
    }
    return 0;
}

int hunt_batch_wait(hunt_batch *b, size_t j, char *err, size_t errlen)
{
    if (!b->threaded) {   /* run here, or its thread ended: every job it finished is done */
        if (b->done > j || (!b->n && !j))
            return 0;
        snprintf(err, errlen, "%s", b->err[0] ? b->err : "the GPU path stopped before this instruction");
        return -1;
    }
    pthread_mutex_lock(&b->mu);
    while (b->done <= j && !b->finished)
        pthread_cond_wait(&b->cv, &b->mu);
    int rc = b->done > j ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "%s", b->err[0] ? b->err : "the GPU path stopped before this instruction");
    pthread_mutex_unlock(&b->mu);
    return rc;
}

void hunt_batch_join(hunt_batch *b)
{
    if (b->threaded) {
        pthread_join(b->th, NULL);
        pthread_cond_destroy(&b->cv);
        pthread_mutex_destroy(&b->mu);
        b->threaded = false;
    }
}

void hunt_batch_free(hunt_batch *b)
{
    hunt_batch_join(b);
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
