/* The proof's hunt on the GPU path (cli/hunt_on.h). */
#include "cli/hunt_on.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/verify.h"

/* Below this many elements per family the tile stream is drawn on the host's
 * cores: the GPU's draw gives each tile one thread, so it lasts as long as a
 * tile's draw whatever the count, while the host's lasts in proportion to
 * it (H200, regress's slices of 6250 per family: doc/findings.md). The
 * tiles, and so the results, are the same either way. */
#define HUNT_GPU_DRAW_MIN 65536

/* Below this many random elements the proof's random tiles stay on the
 * host's cores (drawn a round ahead on every core): the GPU path's one
 * thread a tile and its pass over the stream for the tiles' starts pay off
 * only with many tiles (on two H200s at 10^6 an instruction the default
 * audit's random seconds were 13.0 on the GPU path and 16.7 on the host's,
 * at 2e7 one process's 0.98 against 1.42 s: doc/findings.md). The tiles,
 * and so the results, are the same either way. */
#define RANDOM_GPU_MIN 1000000

/* A count from environment variable name, or dflt (said on stderr when not a count). */
static size_t env_count(const char *name, size_t dflt)
{
    const char *env = getenv(name);
    char *end = NULL;
    unsigned long long v = env && isdigit((unsigned char)env[0]) ? strtoull(env, &end, 10) : 0;
    bool given = end && !*end;
    if (env && !given)
        fprintf(stderr, "tcscope: %s=%.40s is not a count: %zu kept\n", name, env, dflt);
    return given ? (size_t)v : dflt;
}

void cli_hunt_on_open(cli_hunt_on *ho, tc_backend *be, cli_model_on *mo)
{
    memset(ho, 0, sizeof *ho);
    ho->mo = mo;
    if (!mo->gpu) {
        snprintf(ho->why, sizeof ho->why, "the model is on the CPU");
        return;
    }
    ho->h = hunt_gpu_open(be, mo->gpu, ho->why, sizeof ho->why);
    if (!ho->h && !ho->why[0])
        snprintf(ho->why, sizeof ho->why, "not available");
    /* other bounds, to measure the two paths against each other */
    ho->draw_min = env_count("TCSCOPE_HUNT_GPU_DRAW_MIN", HUNT_GPU_DRAW_MIN);
    ho->random_min = env_count("TCSCOPE_RANDOM_GPU_MIN", RANDOM_GPU_MIN);
}

void cli_hunt_on_close(cli_hunt_on *ho)
{
    hunt_gpu_close(ho->h);
    ho->h = NULL;
}

int cli_hunt_on_run(void *ctx, const infer_target *t, const model *m, size_t n_per_family, uint64_t seed,
                    verify_result *r, char *err, size_t errlen)
{
    cli_hunt_on *ho = ctx;
    if (!ho->h || !ho->ins || hunt_gpu_unsupported(t, ho->ins, m))
        return 1;
    if (n_per_family < ho->draw_min) {   /* few tiles: the host draws the same tiles sooner */
        verify_hunt_ahead *a = verify_hunt_start(t, n_per_family, seed, HUNT_DRAW_TILE, err, errlen);
        r->hunt_host_draw = true;
        return a ? verify_hunt_finish(a, t, m, r, err, errlen) : -1;
    }
    bool sampled = false;
    return hunt_gpu_run(ho->h, t, ho->ins, m, n_per_family, seed, 0, NULL, &sampled, r, &ho->mo->count, err,
                        errlen);
}

int cli_random_on_run(void *ctx, const infer_target *t, const model *m, size_t n, uint64_t seed, verify_result *r,
                      char *err, size_t errlen)
{
    cli_hunt_on *ho = ctx;
    if (!ho->h || !ho->ins || n < ho->random_min || hunt_gpu_unsupported(t, ho->ins, m))
        return 1;
    return hunt_gpu_random(ho->h, t, ho->ins, m, n, seed, r, &ho->mo->count, err, errlen);
}
