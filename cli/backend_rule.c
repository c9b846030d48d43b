/* The one backend rule of every command: the backend asked for with
 * --backend; else the GPU when there is one; else the recorded model
 * (model:h100), said on stderr and named in every output as the backend. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "probes/probes.h"

/* A GPU that is not there (no build, no driver, no device), not a bad spec. */
static bool gpu_missing(const char *err)
{
    return strstr(err, TC_NO_GPU_BUILD) || strstr(err, "no NVIDIA driver") || strstr(err, "no usable") ||
           strstr(err, "insufficient");
}

int cli_no_gpu_instead(const char *cmd, const char *why, const char *instead)
{
    return cli_fail(cmd, "no GPU (%s); without one, %s", why, instead);
}

int cli_no_gpu(const char *cmd, const char *why)
{
    return cli_no_gpu_instead(cmd, why, "the recorded model answers: --backend " CLI_RECORDED_MODEL);
}

tc_backend *cli_backend_open(const char *cmd, const char *spec, bool *fallback)
{
    char err[512];
    if (fallback)
        *fallback = false;
    if (spec) {
        tc_backend *b = tc_backend_open(spec, err, sizeof err);
        if (!b && !strncmp(spec, "gpu", 3) && gpu_missing(err))
            cli_no_gpu(cmd, err);
        else if (!b)
            cli_fail(cmd, "backend %s: %s", spec, err);
        return b;
    }
    tc_backend *b = tc_backend_open("gpu", err, sizeof err);
    if (b)
        return b;
    fprintf(stderr,
            "tcscope %s: no GPU (%s).\n"
            "tcscope %s: using the RECORDED MODEL " CLI_RECORDED_MODEL " instead: every answer comes from the\n"
            "tcscope %s: software model with the profile an H100 audit wrote, not from hardware.\n",
            cmd, err, cmd, cmd);
    if (fallback)
        *fallback = true;
    b = tc_backend_open(CLI_RECORDED_MODEL, err, sizeof err);
    if (!b)
        cli_fail(cmd, "%s", err);
    return b;
}

int cli_arch_parse(const char *cmd, const char *arch, int *sm)
{
    *sm = tc_arch_parse(arch);
    if (*sm < 0)
        return cli_fail(cmd, "--arch %s: not an architecture tcscope builds (sm_70, sm_75, sm_80, sm_86, sm_89, sm_90a, "
                        "sm_100a, sm_120a)", arch);
    return TC_EXIT_OK;
}

int cli_backend_arch(const char *cmd, tc_backend *b, const char *arch)
{
    int sm = 0;
    if (!arch)
        return TC_EXIT_OK;
    if (cli_arch_parse(cmd, arch, &sm))
        return TC_EXIT_USAGE;
    const tc_backend_info *info = tc_backend_get_info(b);
    if (info->sm)
        return cli_fail(cmd, "--arch %s: %s is sm_%d, and its own architecture decides what it runs; --arch is for "
                        "the model backends", arch, info->device, info->sm);
    tc_backend_set_arch(b, sm);
    return TC_EXIT_OK;
}
