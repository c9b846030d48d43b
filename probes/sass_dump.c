/* The disassembly of this program's kernels (probes/sass.h tc_sass_dump):
 * a given file, or cuobjdump run on this program.
 *
 * Why per cubin and at once: `cuobjdump -sass` of the whole program (the
 * executors of every architecture, the form kernels, the timing kernels)
 * took 24 to 26 s on the H200 host, most of `regress`'s timing pass. The
 * SASS checks need only the kernels whose names begin with a prefix (tct_:
 * the timing kernels), which live in a few cubins of one architecture: those
 * are extracted into a private folder (cuobjdump -xelf), the ones holding
 * the prefix in their symbols chosen, and each disassembled by its own
 * cuobjdump, all at once; the texts are joined (the parser reads "Function :"
 * sections in any order). Where that fails (an older cuobjdump, no mktemp),
 * the architecture's whole disassembly, then everything, as before. */
#include "probes/sass.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* All a stream holds, NUL-ended, or NULL when empty. Closes it; *status is
 * pclose's (pipes) or fclose's. */
static char *slurp(FILE *f, bool is_pipe, int *status)
{
    size_t cap = 1 << 20, len = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            char *b2 = realloc(buf, cap * 2);
            if (!b2) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b2;
            cap *= 2;
        }
    }
    *status = is_pipe ? pclose(f) : fclose(f);
    if (buf && len == 0) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[len] = '\0';
    return buf;
}

static char *run(const char *cmd)
{
    FILE *p = popen(cmd, "r");
    if (!p)
        return NULL;
    int st;
    char *text = slurp(p, true, &st);
    if (text && st != 0) {
        free(text);
        text = NULL;
    }
    return text;
}

char *tc_sass_dump(const char *path, const char *arch, const char *prefix, char *err, size_t errlen)
{
    if (path) {
        FILE *f = fopen(path, "r");
        int st;
        char *text = f ? slurp(f, false, &st) : NULL;
        if (!text)
            snprintf(err, errlen, "cannot read the SASS file %s", path);
        return text;
    }
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(err, errlen, "cannot find this program's path to disassemble it");
        return NULL;
    }
    self[n] = '\0';
    const char *tool = getenv("TCSCOPE_CUOBJDUMP");
    if (!tool)
        tool = access("/usr/local/cuda/bin/cuobjdump", X_OK) == 0 ? "/usr/local/cuda/bin/cuobjdump" : "cuobjdump";
    /* both go into a shell command between single quotes: a quote in
     * either would end the quoting, so such a path is refused */
    if (strchr(self, '\'') || strchr(tool, '\'')) {
        snprintf(err, errlen, "cannot disassemble: a quote in the path of this program or of TCSCOPE_CUOBJDUMP");
        return NULL;
    }
    char cmd[3000];
    /* the cubins of arch that hold prefix, each disassembled at once; any
     * cuobjdump failing fails the whole (then the slower ways below) */
    snprintf(cmd, sizeof cmd,
             "d=$(mktemp -d) || exit 1; trap 'rm -rf \"$d\"' EXIT; cd \"$d\" || exit 1; "
             "'%s' -xelf %s '%s' >/dev/null 2>&1 || exit 1; pids=; "
             "for f in *.cubin; do if grep -q '%s' \"$f\"; then '%s' -sass \"$f\" >\"$f.sass\" 2>/dev/null & "
             "pids=\"$pids $!\"; fi; done; [ -n \"$pids\" ] || exit 1; "
             "for p in $pids; do wait $p || exit 1; done; cat ./*.sass",
             tool, arch, self, prefix, tool);
    char *text = run(cmd);
    if (text)
        return text;
    snprintf(cmd, sizeof cmd, "'%s' -sass -arch %s '%s' 2>/dev/null", tool, arch, self);
    if ((text = run(cmd)))
        return text;
    snprintf(cmd, sizeof cmd, "'%s' -sass '%s' 2>/dev/null", tool, self);
    if ((text = run(cmd)))
        return text;
    snprintf(err, errlen, "no SASS: '%.200s' failed (install the CUDA toolkit's cuobjdump, set TCSCOPE_CUOBJDUMP, or "
                          "give --sass FILE)", cmd);
    return NULL;
}
