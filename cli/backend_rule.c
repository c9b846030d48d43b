/* The one backend rule of every command: the backend asked for with
 * --backend; else the GPU when there is one; else the recorded model
 * (model:h100), said on stderr and named in every output as the backend. */
#include <stdio.h>

#include "cli/cli.h"
#include "probes/probes.h"

tc_backend *cli_backend_open(const char *cmd, const char *spec, bool *fallback)
{
    char err[512];
    if (fallback)
        *fallback = false;
    if (spec) {
        tc_backend *b = tc_backend_open(spec, err, sizeof err);
        if (!b)
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
