/* model_field_text: value syntax shared by the field table's rows. */
#include "oracle/model_field_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool mft_parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) {
        *out = true;
        return true;
    }
    if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) {
        *out = false;
        return true;
    }
    return false;
}

bool mft_parse_word(const char *v, const char *off, const char *on, bool *out)
{
    if (strcmp(v, off) && strcmp(v, on))
        return false;
    *out = !strcmp(v, on);
    return true;
}

bool mft_parse_int(const char *v, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < lo || x > hi)
        return false;
    *out = (int)x;
    return true;
}

bool mft_parse_round(const char *v, tc_round *out)
{
    return tc_round_parse(v, out) && *out != TC_RS;
}

static bool parse_format(const char *name, tc_format *out)
{
    tc_format scratch;
    const tc_format *f = tc_format_by_name(name, &scratch);
    if (!f || f->specials == TC_SPECIALS_INT || f->specials == TC_SPECIALS_E8M0)
        return false;
    *out = *f;
    if (f == &scratch) {
        out->name = NULL;   /* points into the caller's text; model_format_name rebuilds it */
        /* the name it will be written as must read back as this very format:
         * "e04m03" is written "e4m3", which names FP8 E4M3 (no Inf), and
         * "e8m00" is written "e8m0", the MX scale (tests/fuzz/fuzz_profile.c) */
        char canon[40];
        tc_format again;
        const tc_format *g = tc_format_by_name(model_format_name(out, canon, sizeof canon), &again);
        if (g != &again)
            return false;
    }
    return true;
}

bool mft_parse_fmt_round(const char *v, tc_format *fmt, tc_round *r)
{
    const char *colon = strchr(v, ':');
    if (!colon || colon == v || (size_t)(colon - v) >= 32)
        return false;
    char name[32];
    memcpy(name, v, (size_t)(colon - v));
    name[colon - v] = '\0';
    return parse_format(name, fmt) && mft_parse_round(colon + 1, r);
}

void mft_print_fmt_round(char *buf, size_t len, const tc_format *fmt, tc_round r)
{
    char name[40];
    snprintf(buf, len, "%s:%s", model_format_name(fmt, name, sizeof name), tc_round_name(r));
}
