/* The data tcscope reads at run time (model profiles, recorded baselines),
 * found from the binary's own place, never from the working folder: an
 * installed binary (PREFIX/bin/tcscope) reads PREFIX/share/tcscope; one in
 * a source tree's build/ (build/tcscope, build/san/tests/test_x) reads the
 * tree it was built in. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probes/probes.h"

bool tc_data_path(const char *rel, char *path, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return false;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return false;
    *slash = '\0';
    static const char *const up[] = {"/../share/tcscope", "/..", "/../..", "/../../.."};
    for (size_t i = 0; i < sizeof up / sizeof up[0]; i++) {
        int w = snprintf(path, len, "%s%s/%s", exe, up[i], rel);
        if (w > 0 && (size_t)w < len && access(path, R_OK) == 0)
            return true;
    }
    return false;
}
