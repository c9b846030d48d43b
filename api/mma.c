/* tcscope_mma: tiles of one instruction on the model (or exact) backend,
 * the same backend `tcscope run --backend model:PROFILE` opens. */
#include <stdio.h>
#include <string.h>

#include "api/api_internal.h"

int tcscope_mma(const char *instr, const char *profile, size_t ntiles, const uint64_t *A, const uint64_t *B,
                const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    API_ERR_BUF(err, errlen);
    const tc_instr *ins = api_instr(instr, err, errlen);
    if (!ins)
        return -1;
    if (ntiles && (!A || !B || !D))
        return api_fail(err, errlen, "tcscope_mma: A, B and D are required");
    if (!profile || !*profile)
        return api_fail(err, errlen, "tcscope_mma: no profile (a name such as h100, a path, or exact)");
    char spec[4200];
    /* a profile named like a backend ("gpu") is still a profile: only "exact" is not */
    int w = snprintf(spec, sizeof spec, "%s%s", strcmp(profile, "exact") ? "model:" : "", profile);
    if (w < 0 || (size_t)w >= sizeof spec)
        return api_fail(err, errlen, "tcscope_mma: profile path too long");
    tc_backend *b = tc_backend_open(spec, err, errlen);
    if (!b)
        return -1;
    int rc = tc_backend_mma(b, ins, ntiles, A, B, C, D, err, errlen);
    tc_backend_close(b);
    return rc;
}
