/* A backend's facts as a record header's run facts (cli/run_info.h). */
#include "cli/run_info.h"

#include <stdio.h>

tc_run_info cli_run_info(const tc_backend_info *info)
{
    tc_run_info r = {0};
    if (!info)
        return r;
    snprintf(r.backend, sizeof r.backend, "%s", info->backend);
    snprintf(r.device, sizeof r.device, "%s", info->device);
    snprintf(r.driver, sizeof r.driver, "%s", info->driver);
    snprintf(r.cuda, sizeof r.cuda, "%s", info->cuda);
    snprintf(r.compiler, sizeof r.compiler, "%s", info->compiler);
    r.sm = info->sm;
    r.sm_count = info->sm_count;
    r.clock_mhz = info->clock_mhz;
    return r;
}

json_t *cli_record_header(const char *kind, const tc_backend_info *info, const uint64_t *seeds, size_t nseeds)
{
    tc_run_info r = cli_run_info(info);
    return tc_record_header(kind, info ? &r : NULL, seeds, nseeds);
}
