/* The proof's hunt on the GPU path (cli/hunt_on.h). */
#include "cli/hunt_on.h"

#include <stdio.h>
#include <string.h>

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
    bool sampled = false;
    return hunt_gpu_run(ho->h, t, ho->ins, m, n_per_family, seed, 0, NULL, &sampled, r, &ho->mo->count, err,
                        errlen);
}
