/* hunt's GPU path, for the CLI: every selected instruction that the GPU
 * path takes (cases/hunt_gpu.h: a profile entry, floating-point formats, on
 * this backend, what the GPU model computes), hunted in windows, its
 * results kept for cmd_hunt to write in catalogue order beside the host
 * path's. The batch runs here (hunt_batch_run) or on a thread of its own
 * (hunt_batch_start), so that the host path's instructions (f64: the CPU's
 * model) run beside it; cmd_hunt then waits for each job in turn. */
#ifndef TC_CLI_HUNT_BATCH_H
#define TC_CLI_HUNT_BATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/audit.h"
#include "cases/hunt_gpu.h"
#include "oracle/profile.h"
#include "reports/render.h"

#define HUNT_BATCH_NONE SIZE_MAX

typedef struct {
    size_t n;                   /* jobs */
    size_t *job_of;             /* per instruction of the list: its job, or HUNT_BATCH_NONE (the host path) */
    hunt_gpu_job *jobs;
    audit_backend_ctx *ctx;     /* per job: what its target's run reads */
    infer_target *t;
    model **m;
    uint64_t *samples;          /* want * HUNT_NFAMILIES per job */
    /* the run: its arguments, the jobs finished (in order), its end */
    hunt_gpu *hg;
    size_t per_family, want;
    uint64_t seed;
    tc_progress *prog;          /* NULL on a thread of its own */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool threaded, finished;
    size_t done;
    int rc;
    char err[512];
} hunt_batch;

/* The jobs of list[0..nlist) that hg takes (hg NULL: none; every job_of is
 * NONE), their models compiled. 0, or -1 with err. */
int hunt_batch_plan(hunt_batch *b, hunt_gpu *hg, tc_backend *be, const model_profile *prof, const tc_instr **list,
                    size_t nlist, size_t per_family, uint64_t seed, size_t want, char *err, size_t errlen);
/* The planned jobs run here, the progress line counting them. 0, or -1 with err. */
int hunt_batch_run(hunt_batch *b, tc_progress *prog, char *err, size_t errlen);
/* The planned jobs run on a thread of their own; 0, or -1 with err (none started). */
int hunt_batch_start(hunt_batch *b, char *err, size_t errlen);
/* Waits until job j is finished: 0, or -1 with the run's error. */
int hunt_batch_wait(hunt_batch *b, size_t j, char *err, size_t errlen);
/* The thread's end waited for (nothing without one). */
void hunt_batch_join(hunt_batch *b);
/* hunt_batch_join, then everything freed. */
void hunt_batch_free(hunt_batch *b);

#endif
