/* Whole text files, bounded and NUL-free (oracle/textfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/textfile.h"

char *tc_read_text(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    const char *why = buf ? NULL : "out of memory";
    while (!why && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n > TC_TEXT_FILE_MAX)
            why = "larger than 64 MB";
        else if (n + 1 == cap) {
            char *nb = realloc(buf, cap * 2);
            if (nb)
                buf = nb, cap *= 2;
            else
                why = "out of memory";
        }
    }
    int rd_errno = ferror(f) ? errno : 0;
    if (!why && ferror(f))
        why = strerror(rd_errno ? rd_errno : EIO);
    if (f != stdin)
        fclose(f);
    if (why) {
        snprintf(err, errlen, "%s: cannot read: %s", path, why);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    const char *nul = memchr(buf, '\0', n);
    if (nul) {
        int line = 1;
        for (const char *p = buf; p < nul; p++)
            line += *p == '\n';
        snprintf(err, errlen, "%s:%d: NUL byte in the file", path, line);
        free(buf);
        return NULL;
    }
    if (len)
        *len = n;
    return buf;
}
