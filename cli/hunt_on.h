/* The proof's hunt families and random tiles on the GPU path
 * (cases/hunt_gpu.h) for the commands that prove a fit (audit, verify): when
 * the backend is a GPU and the model is the GPU model on that GPU,
 * verify_run's hunt families are drawn from the "tile" stream and checked on
 * the GPU (infer_target.hunt_run), else verify_hunt runs them on the host
 * ("family" stream), as before; its random tiles, the same tiles either way,
 * are drawn and checked on the GPU from RANDOM_GPU_MIN elements on
 * (infer_target.random_run). The records say which (reports/SCHEMA.md:
 * hunt_draw, hunt_path, random_path). */
#ifndef TC_CLI_HUNT_ON_H
#define TC_CLI_HUNT_ON_H

#include "cases/hunt_gpu.h"
#include "cli/model_on.h"

typedef struct {
    hunt_gpu *h;              /* NULL: the host path for every instruction */
    const tc_instr *ins;      /* the instruction of the target being proved (set per instruction) */
    cli_model_on *mo;         /* the GPU model's element counts go to mo->count */
    char why[256];            /* why h is NULL */
    size_t draw_min;          /* fewer elements per family: the tiles drawn on the host (cli/hunt_on.c) */
    size_t random_min;        /* fewer random elements: the random tiles on the host (cli/hunt_on.c) */
} cli_hunt_on;

/* The GPU path of backend be with mo's model when it can run; else h NULL
 * and why says why (never an error: the host path is always there). */
void cli_hunt_on_open(cli_hunt_on *ho, tc_backend *be, cli_model_on *mo);
void cli_hunt_on_close(cli_hunt_on *ho);
/* An infer_hunt_fn with ctx a cli_hunt_on: 1 (the host path) when there is
 * no GPU path or hunt_gpu_unsupported refuses ho->ins. */
int cli_hunt_on_run(void *ctx, const infer_target *t, const model *m, size_t n_per_family, uint64_t seed,
                    verify_result *r, char *err, size_t errlen);
/* The same for verify's random tiles (n elements): 1 (the host's cores)
 * also below ho->random_min elements. */
int cli_random_on_run(void *ctx, const infer_target *t, const model *m, size_t n, uint64_t seed, verify_result *r,
                      char *err, size_t errlen);

#endif
