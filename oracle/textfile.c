/* Whole text files, bounded and NUL-free (oracle/textfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/textfile.h"

size_t tc_utf8_char_len(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80)
        return 1;
    size_t n;
    unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
    if (u[0] >= 0xC2 && u[0] <= 0xDF)
        n = 2;
    else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
        n = 3;
        if (u[0] == 0xE0)
            lo = 0xA0; /* overlong */
        if (u[0] == 0xED)
            hi = 0x9F; /* surrogates */
    } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
        n = 4;
        if (u[0] == 0xF0)
            lo = 0x90; /* overlong */
        if (u[0] == 0xF4)
            hi = 0x8F; /* above U+10FFFF */
    } else
        return 0;
    if (u[1] < lo || u[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (u[i] < 0x80 || u[i] > 0xBF)
            return 0;
    return n;
}

/* The line of p in buf (1 for the first). */
static int line_of(const char *buf, const char *p)
{
    int line = 1;
    for (const char *q = buf; q < p; q++)
        line += *q == '\n';
    return line;
}

char *tc_read_text(const char *path, size_t *len, char *err, size_t errlen)
{
    return tc_read_text_max(path, TC_TEXT_FILE_MAX, len, err, errlen);
}

char *tc_read_text_max(const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *buf = malloc(cap);
    const char *why = buf ? NULL : "out of memory";
    char big[64];
    snprintf(big, sizeof big, "larger than %zu MB", max >> 20);
    while (!why && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n > max)
            why = big;
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
        snprintf(err, errlen, "%s:%d: NUL byte in the file", path, line_of(buf, nul));
        free(buf);
        return NULL;
    }
    /* a byte outside UTF-8 would pass the parser and then fail as JSON
     * (json_string refuses it) after the run, or print raw */
    for (const char *p = buf, *end = buf + n; p < end;) {
        size_t c = tc_utf8_char_len(p);
        if (!c) {
            snprintf(err, errlen, "%s:%d: byte \\x%02X is not UTF-8 (the file must be UTF-8 text)", path,
                     line_of(buf, p), (unsigned char)*p);
            free(buf);
            return NULL;
        }
        p += c;
    }
    if (len)
        *len = n;
    return buf;
}
