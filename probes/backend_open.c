/* tc_backend_open: a backend spec to the file that opens it. "corpus:PATH"
 * (recorded answers, probes/backend_dots.c) is a function backend of
 * probes/backend.c, so it is routed here, above both, and every other spec
 * (exact, model:PROFILE, gpu[:N][:jit]) goes to tc_backend_open_builtin. */
#include <string.h>

#include "probes/probes.h"

tc_backend *tc_backend_open(const char *spec, char *err, size_t errlen)
{
    if (spec && !strncmp(spec, "corpus:", 7))
        return tc_backend_open_dots(spec + 7, err, errlen);
    return tc_backend_open_builtin(spec, err, errlen);
}
