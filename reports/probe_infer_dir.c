/* tcscope probe infer (cases/probe.h tc_probe_infer_dir). */
#include <stdio.h>

#include "cases/probe.h"

int tc_probe_infer_dir(const char *dir, const char *profile, const char *record_out, char *summary, size_t summarylen,
                       char *err, size_t errlen)
{
    (void)dir, (void)profile, (void)record_out, (void)summary, (void)summarylen;
    snprintf(err, errlen, "probe infer: not in this build yet (export only)");
    return -1;
}
