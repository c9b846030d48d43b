/* hunt's GPU path, for the CLI: every selected instruction that the GPU
 * path takes (cases/hunt_gpu.h: a profile entry, floating-point formats, on
 * this backend, what the GPU model computes) hunted first, in windows, its
 * results kept for cmd_hunt to write in catalogue order beside the host
 * path's. */
#ifndef TC_CLI_HUNT_BATCH_H
#define TC_CLI_HUNT_BATCH_H

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
} hunt_batch;

/* list[0..nlist) through hg (NULL: none; every job_of is NONE). The
 * progress line counts the instructions done. 0, or -1 with err. */
int hunt_batch_run(hunt_batch *b, hunt_gpu *hg, tc_backend *be, const model_profile *prof, const tc_instr **list,
                   size_t nlist, size_t per_family, uint64_t seed, size_t want, tc_progress *prog, char *err,
                   size_t errlen);
void hunt_batch_free(hunt_batch *b);

#endif
