/* Untrusted text made safe to print and to put in JSON (reports/text.h). */
#include <stdio.h>
#include <string.h>

#include "reports/text.h"

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
