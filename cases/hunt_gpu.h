/* The hunt on the GPU, end to end: per instruction and round, every
 * family's tiles drawn on the GPU (the "tile" stream of cases/hunt.h, by
 * the host's own code: cases/hunt_draw.h), packed there to the executor's
 * widths, run by the instruction (tc_backend_mma_dev), computed by the GPU
 * model on the same buffers (tc_model_gpu_mma_dev) and compared there; only
 * counts and the few elements the host must see come back: those the GPU
 * model declines (computed here by model_dot, as tc_model_gpu_finish does)
 * and those that differ (their inputs, for the record's failures).
 *
 * The results are verify_hunt's for the same tiles (HUNT_DRAW_TILE): every
 * element counted once per family, mismatches real differences, failures
 * kept by verify_keep_failure. Sparse instructions (mma.sp, wgmma.sp) draw
 * the compressed tile as cases/audit.c's target does (K halved): the kept
 * positions are the first of every group, so the compressed A is the drawn
 * A and every tile's metadata registers are the same
 * (hunt_gpu_sparse_meta; tests/test_hunt_tile.c checks this against
 * tc_sparse_compress). The executor's poison protocol is
 * probes/backend_gpu.c's: D poisoned with 0xFF, and only when some element
 * still holds it, a second run with 0xA5 and a failure on an element never
 * written or differing between the runs.
 *
 * Where it cannot run (a backend that is not a GPU, the model on the CPU or
 * on another GPU, an instruction the GPU model refuses), hunt_gpu_open or
 * hunt_gpu_unsupported says why and the caller takes the host path. */
#ifndef TC_HUNT_GPU_H
#define TC_HUNT_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/verify.h"
#include "oracle/model.h"
#include "probes/model_gpu.h"
#include "probes/probes.h"

typedef struct hunt_gpu hunt_gpu;

/* The GPU hunt of backend be with the GPU model mg; NULL with why not. */
hunt_gpu *hunt_gpu_open(tc_backend *be, tc_model_gpu *mg, char *err, size_t errlen);
void hunt_gpu_close(hunt_gpu *h);

/* NULL when ins, with the model m of target t, runs on the GPU path; else why not. */
const char *hunt_gpu_unsupported(const infer_target *t, const tc_instr *ins, const model *m);

/* The metadata registers every hunt tile of sparse instruction ins gets
 * (the compressed tile's kept positions are always the first of each
 * group): *n of them (32 or 128). 0, or -1 with err. */
#define HUNT_SPARSE_META_MAX 128
int hunt_gpu_sparse_meta(const tc_instr *ins, uint32_t *regs, int *n, char *err, size_t errlen);

/* verify_hunt(t, m, n_per_family, seed) with HUNT_DRAW_TILE, on the GPU:
 * adds to *r (elements, mismatches, failures, stage seconds) and to *count
 * (the model's elements: the GPU's, and the CPU's declined ones, and their
 * seconds). want > 0 asks for the replay sample: the hardware's first want
 * answers of every family into sample[f * want ..] (*sampled true), when
 * the first round holds them (else *sampled false: the caller runs them).
 * t->progress is called after every round. 0, or -1 with err. */
int hunt_gpu_run(hunt_gpu *h, const infer_target *t, const tc_instr *ins, const model *m, size_t n_per_family,
                 uint64_t seed, size_t want, uint64_t *sample, bool *sampled, verify_result *r,
                 tc_model_gpu_count *count, char *err, size_t errlen);

/* verify_run's random tiles (n elements: verify_random_tiles's tiles of
 * the proof's stream, cases/random_draw.h) on the GPU path: the same tiles
 * as the host's cores draw, each from its start state (a pass over the
 * stream on the host, at most one call a case), drawn, run, modelled and compared
 * on the GPU; adds to *r (elements and mismatches per distribution,
 * failures, stage seconds) and *count. 0, or -1 with err. */
int hunt_gpu_random(hunt_gpu *h, const infer_target *t, const tc_instr *ins, const model *m, size_t n, uint64_t seed,
                    verify_result *r, tc_model_gpu_count *count, char *err, size_t errlen);

/* One instruction of hunt_gpu_run_all: t, ins, m as for hunt_gpu_run,
 * sample (want * HUNT_NFAMILIES words, or NULL when want is 0); r, count and
 * sampled receive its results (r zeroed by the caller). */
typedef struct {
    const infer_target *t;
    const tc_instr *ins;
    const model *m;
    uint64_t *sample;
    bool sampled;
    verify_result r;
    tc_model_gpu_count count;
} hunt_gpu_job;

/* hunt_gpu_run for each of jobs[0..n), the instructions in windows: the
 * tiles of many instructions drawn by one launch (one thread per tile: a
 * wide tile's instruction alone leaves most of the GPU idle), a window
 * drawn while the one before runs, and the declined elements computed on
 * the CPU (a thread of its own) while the GPU goes on. An instruction
 * whose tiles take more than one round runs alone. done(ctx, j) is called
 * for every job in order once its results are final. The environment
 * variable TCSCOPE_HUNT_GPU_SERIAL runs one instruction after another (the
 * results are the same). 0, or -1 with err (the jobs after the failing one
 * are not run). */
int hunt_gpu_run_all(hunt_gpu *h, hunt_gpu_job *jobs, size_t n, size_t n_per_family, uint64_t seed, size_t want,
                     void (*done)(void *ctx, size_t j), void *ctx, char *err, size_t errlen);

/* Where the wall time of the last hunt_gpu_run_all went, beyond its jobs'
 * stages (which overlap): the windows drawn, the seconds waited for a
 * window's draw, the declined elements the CPU computed and its seconds,
 * and the tail: seconds waited for the CPU after the GPU's last job. */
typedef struct {
    size_t windows, declined;
    double draw_wait_s, cpu_s, tail_s, wall_s;
} hunt_gpu_stats;
void hunt_gpu_last_stats(const hunt_gpu *h, hunt_gpu_stats *out);

#endif
