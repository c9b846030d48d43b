/* The build's SASS file (probes/sass.h tc_sass_write_build): the
 * disassembly of a freshly linked binary, written beside it once at build
 * time so that its timed commands need not run cuobjdump at every start
 * (2.5 to 3.0 s on the H200 nodes). The header names the binary's build-id:
 * tc_sass_from_build_file takes the text only for that very binary. */
#include "probes/sass.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/build_id.h"

/* header and text to path through path.tmp renamed into place: a reader
 * (or a build stopped half-way) never sees a part of the file. */
static int write_whole(const char *path, const char *header, const char *text, char *err, size_t errlen)
{
    char tmp[PATH_MAX];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    FILE *f = fopen(tmp, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
        return -1;
    }
    bool ok = fputs(header, f) >= 0 && fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    if (ok && rename(tmp, path) == 0)
        return 0;
    snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    if (unlink(tmp) != 0 && errno != ENOENT)
        snprintf(err, errlen, "cannot write %s, nor remove %s: %s", path, tmp, strerror(errno));
    return -1;
}

int tc_sass_write_build(const char *exe, const char *out_path, const char *arch, const char *prefix, char *err,
                        size_t errlen)
{
    /* an earlier build's file goes whatever happens next: the binary it
     * described is gone (it would be ignored anyway, at the cost of reading
     * its header) */
    if (unlink(out_path) != 0 && errno != ENOENT) {
        snprintf(err, errlen, "cannot remove the old %s: %s", out_path, strerror(errno));
        return -1;
    }
    char id[TC_BUILD_ID_HEX], header[512];
    if (tc_build_id_of_file(exe, id) != 0) {
        snprintf(err, errlen, "%s has no GNU build-id: a file beside it could never be told its own", exe);
        return -1;
    }
    if (tc_sass_build_header(header, sizeof header, id, arch, prefix) != 0) {
        snprintf(err, errlen, "the architecture or prefix is too long for the header");
        return -1;
    }
    char *text = tc_sass_disassemble(exe, arch, prefix, err, errlen);
    if (!text)
        return -1;
    /* what the checks read of it, in the same syntax: cuobjdump's text of
     * the H200 build was 197 MB, mostly operands and encodings */
    tc_sass *s = tc_sass_parse(text, err, errlen);
    free(text);
    if (!s)
        return -1;
    char *compact = tc_sass_format(s);
    tc_sass_free(s);
    int rc = write_whole(out_path, header, compact, err, errlen);
    free(compact);
    return rc;
}
