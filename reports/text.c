/* Untrusted text made safe to print and to put in JSON (reports/text.h). */
#include <stdio.h>
#include <string.h>

#include "reports/text.h"

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

void tc_utf8_repair(char *s)
{
    while (*s) {
        size_t n = tc_utf8_char_len(s);
        if (n == 0) {
            *s++ = '?';
            continue;
        }
        s += n;
    }
}

void tc_text_escape(const char *in, char *out, size_t len, bool keep_newlines)
{
    if (!len)
        return;
    size_t o = 0;
    while (*in) {
        unsigned char c = (unsigned char)*in;
        size_t n = tc_utf8_char_len(in);
        bool plain = n > 1 || (n == 1 && (c >= 0x20 || c == '\t' || (c == '\n' && keep_newlines)) && c != 0x7F);
        size_t need = plain ? n : 4;
        if (o + need >= len)
            break;
        if (plain)
            memcpy(out + o, in, n);
        else
            snprintf(out + o, 5, "\\x%02X", c);
        o += need;
        in += plain ? n : 1;
    }
    out[o] = '\0';
}

void tc_text_cut(const char *in, char out[TC_TEXT_CUT_MAX])
{
    char safe[300]; /* enough to see whether there are more than 64 bytes */
    tc_text_escape(in ? in : "", safe, sizeof safe, false);
    if (strlen(safe) <= 64) {
        memcpy(out, safe, strlen(safe) + 1); /* at most 65 bytes */
        return;
    }
    tc_text_escape(in, out, 57, false); /* 56 bytes, cut at a character */
    strcat(out, "...(long)");
}
