/* --model-on (cli/model_on.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/model_on.h"

/* N of "gpu:N" (a backend or a --model-on value), else -1. */
static int gpu_index(const char *s)
{
    if (!s || strncmp(s, "gpu:", 4) || s[4] < '0' || s[4] > '9')
        return -1;
    char *end;
    long n = strtol(s + 4, &end, 10);
    return (*end == '\0' || *end == ':') && n < 1024 ? (int)n : -1;
}

int cli_model_on_check(const char *cmd, const char *spec)
{
    if (!spec || !strcmp(spec, "cpu") || !strcmp(spec, "gpu") || gpu_index(spec) >= 0)
        return TC_EXIT_OK;
    return cli_fail(cmd, "--model-on takes gpu, gpu:N or cpu, not '%s'", spec);
}

int cli_model_on_open(const char *cmd, const char *spec, const char *backend, cli_model_on *mo)
{
    memset(mo, 0, sizeof *mo);
    snprintf(mo->name, sizeof mo->name, "cpu");
    int rc = cli_model_on_check(cmd, spec);
    if (rc != TC_EXIT_OK || (spec && !strcmp(spec, "cpu")))
        return rc;
    int dev = spec && strcmp(spec, "gpu") ? gpu_index(spec) : gpu_index(backend);
    char err[256];
    mo->gpu = tc_model_gpu_open(dev < 0 ? 0 : dev, err, sizeof err);
    if (!mo->gpu)
        return spec ? cli_fail(cmd, "--model-on %s: %s", spec, err) : TC_EXIT_OK;
    snprintf(mo->name, sizeof mo->name, "%s", tc_model_gpu_name(mo->gpu));
    return TC_EXIT_OK;
}

void cli_model_on_close(cli_model_on *mo)
{
    tc_model_gpu_close(mo->gpu);
    mo->gpu = NULL;
}

int cli_model_on_run(void *ctx, const model *m, int mrows, int ncols, int k, size_t ntiles, const uint64_t *A,
               const uint64_t *B, const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    cli_model_on *mo = ctx;
    return tc_model_gpu_mma(mo->gpu, m, mrows, ncols, k, ntiles, A, B, C, D, &mo->count, err, errlen);
}

void cli_model_on_attach(cli_model_on *mo, infer_target *t)
{
    t->model_run = cli_model_on_run;
    t->model_ctx = mo;
}

json_t *cli_model_on_take(cli_model_on *mo)
{
    json_t *o = json_pack("{s:I, s:I}", "gpu", (json_int_t)mo->count.gpu, "cpu", (json_int_t)mo->count.cpu);
    mo->count.gpu = mo->count.cpu = 0;
    return o;
}

void cli_model_on_stages(const cli_model_on *mo, const double stage_s[VERIFY_NSTAGES], double wall_s)
{
    double sum = 0;
    printf("# stages:");
    for (int i = 0; i < VERIFY_NSTAGES; i++) {
        sum += stage_s[i];
        printf("%s %s %.2f s", i ? "," : "", verify_stage_name(i), stage_s[i]);
        if (i == VERIFY_STAGE_MODEL && mo->gpu)
            printf(" (%s: copies %.2f s, kernel %.2f s, CPU share %.2f s)", mo->name, mo->count.copy_s,
                   mo->count.kernel_s, mo->count.cpu_s);
        if (i == VERIFY_STAGE_EXECUTE)
            printf(" (its copies included)");
    }
    printf("; rest %.2f s of %.2f s\n", wall_s > sum ? wall_s - sum : 0.0, wall_s);
}
