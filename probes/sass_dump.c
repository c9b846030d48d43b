/* The disassembly of this program's kernels (probes/sass.h tc_sass_dump):
 * a given file, the build's file beside this program, or cuobjdump run on
 * this program.
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
 * the architecture's whole disassembly, then everything, as before.
 *
 * Why the build's file: even so the read took 2.5 to 3.0 s on the H200
 * nodes at the start of every timed command. A build with cuobjdump writes
 * the same text beside the binary (PROGRAM.sass, tc_sass_write_build) under
 * a header naming the binary's GNU build-id; it is read instead only when
 * that id is this process's, so a file from another build (a rebuilt or
 * copied binary) is never taken for this one's. */
#include "probes/sass.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/build_id.h"

/* All a stream holds, NUL-ended; NULL when empty or when closing it
 * (pclose for a pipe: the command's exit status; fclose) fails. Closes it. */
static char *slurp(FILE *f, bool is_pipe)
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
    int status = is_pipe ? pclose(f) : fclose(f);
    if (buf && (len == 0 || status != 0)) {
        free(buf);
        buf = NULL;
    }
    if (buf)
        buf[len] = '\0';
    return buf;
}

static char *run(const char *cmd)
{
    /* "e": the pipe is not inherited by the children the program starts
     * meanwhile (the read runs on a thread beside them, probes/sass_reader.c) */
    FILE *p = popen(cmd, "re");
    return p ? slurp(p, true) : NULL;
}

/* cmd formatted (NULL when it does not fit: a cut command is never run)
 * and run. */
static char *run_formatted(char *cmd, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *run_formatted(char *cmd, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(cmd, len, fmt, ap);
    va_end(ap);
    return n >= 0 && (size_t)n < len ? run(cmd) : NULL;
}

char *tc_sass_disassemble(const char *exe, const char *arch, const char *prefix, char *err, size_t errlen)
{
    const char *tool = getenv("TCSCOPE_CUOBJDUMP");
    if (!tool)
        tool = access("/usr/local/cuda/bin/cuobjdump", X_OK) == 0 ? "/usr/local/cuda/bin/cuobjdump" : "cuobjdump";
    /* each goes into a shell command between single quotes: a quote in one
     * would end the quoting, so it is refused */
    if (strchr(exe, '\'') || strchr(tool, '\'') || strchr(arch, '\'') || strchr(prefix, '\'')) {
        snprintf(err, errlen, "cannot disassemble: a quote in the path of %s or of TCSCOPE_CUOBJDUMP, or in %s or %s",
                 exe, arch, prefix);
        return NULL;
    }
    char cmd[3 * PATH_MAX];
    /* the cubins of arch that hold prefix, each disassembled at once; any
     * cuobjdump failing fails the whole (then the slower ways below) */
    char *text = run_formatted(
        cmd, sizeof cmd,
        "d=$(mktemp -d) || exit 1; trap 'rm -rf \"$d\"' EXIT; cd \"$d\" || exit 1; "
        "'%s' -xelf '%s' '%s' >/dev/null 2>&1 || exit 1; pids=; "
        "for f in *.cubin; do if grep -q '%s' \"$f\"; then '%s' -sass \"$f\" >\"$f.sass\" 2>/dev/null & "
        "pids=\"$pids $!\"; fi; done; [ -n \"$pids\" ] || exit 1; "
        "for p in $pids; do wait $p || exit 1; done; cat ./*.sass",
        tool, arch, exe, prefix, tool);
    if (text || (text = run_formatted(cmd, sizeof cmd, "'%s' -sass -arch '%s' '%s' 2>/dev/null", tool, arch, exe)) ||
        (text = run_formatted(cmd, sizeof cmd, "'%s' -sass '%s' 2>/dev/null", tool, exe)))
        return text;
    snprintf(err, errlen, "no SASS: '%.200s' failed (install the CUDA toolkit's cuobjdump, set TCSCOPE_CUOBJDUMP, or "
                          "give --sass FILE)", cmd);
    return NULL;
}

int tc_sass_build_header(char *buf, size_t len, const char *build_id, const char *arch, const char *prefix)
{
    int n = snprintf(buf, len, "# tcscope-sass build-id %s arch %s prefix %s\n", build_id, arch, prefix);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

char *tc_sass_from_build_file(const char *path, const char *arch, const char *prefix)
{
    char id[TC_BUILD_ID_HEX], want[512], got[512];
    if (tc_build_id_self(id) != 0 || tc_sass_build_header(want, sizeof want, id, arch, prefix) != 0)
        return NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    /* the header alone is read first: another build's file costs no more */
    if (!fgets(got, sizeof got, f) || strcmp(got, want)) {
        fclose(f);
        return NULL;
    }
    return slurp(f, false);
}

static void say_from(char *from, size_t fromlen, const char *what)
{
    if (from)
        snprintf(from, fromlen, "%s", what);
}

char *tc_sass_dump(const char *path, const char *arch, const char *prefix, char *from, size_t fromlen, char *err,
                   size_t errlen)
{
    if (path) {
        FILE *f = fopen(path, "r");
        char *text = f ? slurp(f, false) : NULL;
        if (!text)
            snprintf(err, errlen, "cannot read the SASS file %s", path);
        else
            say_from(from, fromlen, path);
        return text;
    }
    char self[PATH_MAX], built[PATH_MAX + 8];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || (size_t)n >= sizeof self - 1) {
        snprintf(err, errlen, "cannot find this program's path to disassemble it");
        return NULL;
    }
    self[n] = '\0';
    snprintf(built, sizeof built, "%s.sass", self);
    char *text = tc_sass_from_build_file(built, arch, prefix);
    if (text) {
        say_from(from, fromlen, built);
        return text;
    }
    if ((text = tc_sass_disassemble(self, arch, prefix, err, errlen)))
        say_from(from, fromlen, "cuobjdump");
    return text;
}
