/* The data tcscope reads at run time (model profiles, recorded baselines),
 * found from the binary's own place, never from the working folder: an
 * installed binary (PREFIX/bin/tcscope) reads PREFIX/share/tcscope; one in
 * a source tree's build/ (build/tcscope, build/san/tests/test_x) reads the
 * tree it was built in. The shared library (build/libtcscope.so, compiled
 * with TC_SHARED_LIB) looks from its own file too, since the binary that
 * loaded it (python3) says nothing about where tcscope's data is: the
 * tree's build/libtcscope.so reads the tree, the Python package's
 * tcscope/lib/libtcscope.so reads tcscope/share/tcscope. */
#if TC_SHARED_LIB
#include <dlfcn.h>
#endif
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/probes.h"

/* rel in the data near the file `file` (its folder's ../share/tcscope, or
 * the trees up to three levels above it). */
static bool data_near(const char *file, const char *rel, char *path, size_t len)
{
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s", file) >= (int)sizeof dir)
        return false;
    char *slash = strrchr(dir, '/');
    if (!slash)
        return false;
    *slash = '\0';
    static const char *const up[] = {"/../share/tcscope", "/..", "/../..", "/../../.."};
    for (size_t i = 0; i < sizeof up / sizeof up[0]; i++) {
        int w = snprintf(path, len, "%s%s/%s", dir, up[i], rel);
        if (w > 0 && (size_t)w < len && access(path, R_OK) == 0)
            return true;
    }
    return false;
}

bool tc_data_path(const char *rel, char *path, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        if (data_near(exe, rel, path, len))
            return true;
    }
#if TC_SHARED_LIB
    Dl_info info;
    char lib[PATH_MAX];
    if (dladdr((const void *)tc_data_path, &info) && info.dli_fname && realpath(info.dli_fname, lib))
        return data_near(lib, rel, path, len);
#endif
    return false;
}
