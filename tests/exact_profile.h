/* A profile file holding the model's correctly rounded setting
 * (model_params_exact: RNE, overflow to Inf) for catalogue entries: for
 * tests that run the software tensor core of oracle/model.h where the
 * expectations are computed by the MPFR oracle (oracle/exact.c), so that
 * one implementation is checked against the other, not against itself. */
#ifndef TC_TEST_EXACT_PROFILE_H
#define TC_TEST_EXACT_PROFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/model.h"
#include "oracle/profile.h"
#include "probes/probes.h"

/* Writes the profile to path (names: n catalogue names; NULL: every dense
 * floating-point entry). 0, or -1 with err set. */
static inline int tc_write_exact_profile(const char *path, const char *const *names, size_t n, char *err,
                                         size_t errlen)
{
    model_profile p;
    memset(&p, 0, sizeof p);
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    size_t count = names ? n : ncat;
    int rc = 0;
    for (size_t i = 0; !rc && i < count; i++) {
        const tc_instr *ins = names ? tc_instr_by_name(names[i]) : &cat[i];
        if (!ins) {
            snprintf(err, errlen, "no instruction %s", names[i]);
            rc = -1;
            break;
        }
        if (!names && (ins->sparse || tc_format_is_int(ins->a)))
            continue;
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        model_params mp = model_params_exact(f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
        if (profile_set(&p, ins->name, &mp)) {
            snprintf(err, errlen, "profile_set %s failed", ins->name);
            rc = -1;
        }
    }
    if (!rc) {
        FILE *f = fopen(path, "w");
        rc = f ? profile_write(f, &p) : -1;
        if (f && fclose(f) != 0)
            rc = -1;
        if (rc)
            snprintf(err, errlen, "cannot write %s", path);
    }
    profile_free(&p);
    return rc;
}

/* The same for every dense floating-point entry, in a fresh file under
 * /tmp; writes "model:PATH" into spec (path: a char[] of at least 32). */
static inline int tc_exact_profile_backend(char *path, char *spec, size_t speclen, char *err, size_t errlen)
{
    strcpy(path, "/tmp/tcs-exact-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errlen, "mkstemp failed");
        return -1;
    }
    close(fd);
    snprintf(spec, speclen, "model:%s", path);
    return tc_write_exact_profile(path, NULL, 0, err, errlen);
}

#endif
