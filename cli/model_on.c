/* --model-on (cli/model_on.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/model_on.h"
#include "probes/model_gpu_fit.h"

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

/* A fit's cases on mo's GPU: the handle and where its counts go. */
typedef struct {
    cli_model_on *mo;
    tc_model_gpu_fit *s;
} fit_set;

static int fit_open(void *ctx, const infer_case *cs, size_t n, int k, void **set, char *err, size_t errlen)
{
    cli_model_on *mo = ctx;
    size_t kk = (size_t)k;
    uint64_t *a = malloc(n * kk * 8), *b = malloc(n * kk * 8), *c = malloc(n * 8), *d = malloc(n * 8);
    fit_set *fs = calloc(1, sizeof *fs);
    int rc = -1;
    if (!a || !b || !c || !d || !fs) {
        snprintf(err, errlen, "GPU fit: out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(a + i * kk, cs[i].a, kk * 8);
        memcpy(b + i * kk, cs[i].b, kk * 8);
        c[i] = cs[i].c;
        d[i] = cs[i].d;
    }
    fs->mo = mo;
    rc = tc_model_gpu_fit_open(mo->gpu, k, n, a, b, c, d, &fs->s, err, errlen);
    if (rc == 0) {
        *set = fs;
        fs = NULL;
    }
out:
    free(a), free(b), free(c), free(d), free(fs);
    return rc;
}

static int fit_count(void *set, const model *const *ms, size_t nv, size_t *bad, size_t *host, char *err,
                     size_t errlen)
{
    fit_set *fs = set;
    size_t cpu0 = fs->mo->fit.cpu;
    int rc = tc_model_gpu_fit_count(fs->s, ms, nv, bad, &fs->mo->fit, err, errlen);
    *host = fs->mo->fit.cpu - cpu0;
    return rc;
}

static void fit_close(void *set)
{
    fit_set *fs = set;
    tc_model_gpu_fit_close(fs->s);
    free(fs);
}

static const infer_fit_ops fit_ops = {fit_open, fit_count, fit_close};

const infer_fit_ops *cli_model_on_fit_ops(const cli_model_on *mo)
{
    /* TCSCOPE_FIT_ON=cpu: the cores count, the rest as it was, to measure
     * the two against each other in one build (records say which counted:
     * fit_evaluations) */
    const char *env = getenv("TCSCOPE_FIT_ON");
    if (env && strcmp(env, "cpu") && strcmp(env, "gpu"))
        fprintf(stderr, "tcscope: TCSCOPE_FIT_ON=%.40s is not cpu or gpu: the GPU counts\n", env);
    return mo->gpu && !(env && !strcmp(env, "cpu")) ? &fit_ops : NULL;
}

void cli_model_on_attach(cli_model_on *mo, infer_target *t)
{
    t->model_run = cli_model_on_run;
    t->model_ctx = mo;
    t->fit = cli_model_on_fit_ops(mo);
    t->fit_ctx = mo;
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
