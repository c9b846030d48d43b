/* Numbers on the command line: every count and seed of every command is
 * read here, so each has one syntax and a range checked before it is used
 * to size anything (a count's range is in its command's option table, cli/options.h,
 * which --help prints). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "probes/probes.h"
#include "reports/text.h"

/* Decimal, or hex after 0x; digits only: no sign, blank or suffix (strtoull
 * alone would take "-1" as 2^64-1 and " 5" as 5). */
static bool parse_u64(const char *v, bool hex_ok, unsigned long long *x)
{
    int base = 10;
    if (hex_ok && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        base = 16;
        v += 2;
    }
    if (!*v)
        return false;
    for (const char *p = v; *p; p++)
        if (base == 10 ? !isdigit((unsigned char)*p) : !isxdigit((unsigned char)*p))
            return false;
    char *end;
    errno = 0;
    *x = strtoull(v, &end, base);
    return !errno && !*end;
}

/* "1e5", "2.5e6", "1E+9": a whole number written as --help writes one,
 * rewritten as its digits ("100000") so parse_u64 reads it exactly; false
 * for a value that is not whole ("1.5e0") or not of that form, and for
 * more digits than buf holds (cut, 35 zeros and a 5 read as 0). */
static bool sci_digits(const char *v, char *buf, size_t len)
{
    size_t n = 0, frac = 0;
    const char *p = v;
    for (; isdigit((unsigned char)*p); p++) {
        if (n == len - 1)
            return false;
        buf[n++] = *p;
    }
    if (n == 0)
        return false;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++, frac++) {
            if (n == len - 1)
                return false;
            buf[n++] = *p;
        }
    if (*p != 'e' && *p != 'E')
        return false;
    p++;
    if (*p == '+')
        p++;
    if (!isdigit((unsigned char)*p) || strlen(p) > 2)
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    long exp = strtol(p, NULL, 10) - (long)frac;
    for (; exp < 0; exp++) {   /* the fraction's digits must be zeros the exponent moves back */
        if (buf[n - 1] != '0')
            return false;
        n--;
    }
    if (n + (size_t)exp >= len)
        return false;
    for (; exp > 0; exp--)
        buf[n++] = '0';
    buf[n] = '\0';
    return true;
}

bool cli_count(const char *cmd, const char *opt, const char *v, unsigned long long lo,
               unsigned long long hi, unsigned long long *out)
{
    unsigned long long x;
    char digits[32];
    bool ok = parse_u64(v, false, &x) || (sci_digits(v, digits, sizeof digits) && parse_u64(digits, false, &x));
    if (!ok || x < lo || x > hi) {
        cli_fail(cmd, "bad %s '%s' (a whole number in %llu..%llu, as 100000 or 1e5)", opt, v, lo, hi);
        return false;
    }
    *out = x;
    return true;
}

bool cli_index_of(const char *cmd, const char *opt, const char *v, unsigned hi, unsigned *i, unsigned *n)
{
    unsigned long long a, b;
    const char *slash = strchr(v, '/');
    char first[32];
    snprintf(first, sizeof first, "%.*s", slash && slash - v < 31 ? (int)(slash - v) : 31, v);
    if (!slash || slash - v > 20 || !parse_u64(first, false, &a) || !parse_u64(slash + 1, false, &b) || b < 1 || b > hi || a >= b) {
        cli_fail(cmd, "bad %s '%s' (I/N: whole numbers, 0 <= I < N <= %u)", opt, v, hi);
        return false;
    }
    *i = (unsigned)a;
    *n = (unsigned)b;
    return true;
}

bool cli_count_int(const char *cmd, const char *opt, const char *v, int lo, int hi, int *out)
{
    unsigned long long x;
    if (lo < 0 || !cli_count(cmd, opt, v, (unsigned long long)lo, (unsigned long long)hi, &x))
        return false;
    *out = (int)x;
    return true;
}

bool cli_u64(const char *cmd, const char *opt, const char *v, uint64_t max, uint64_t *out)
{
    unsigned long long x;
    if (!parse_u64(v, true, &x) || x > max) {
        cli_fail(cmd, "bad %s '%s' (0..%#llx, decimal or 0x hex)", opt, v, (unsigned long long)max);
        return false;
    }
    *out = x;
    return true;
}

bool cli_seed(const char *cmd, const char *opt, const char *v, uint64_t *out)
{
    return cli_u64(cmd, opt, v, UINT64_MAX, out);
}

const char *cli_safe(const char *s)
{
    static char ring[8][400];
    static unsigned next;
    char *out = ring[next++ % 8];
    tc_text_escape(s ? s : "", out, sizeof ring[0], false);
    return out;
}

const char *cli_str(const struct json_t *obj, const char *key)
{
    const char *v = json_string_value(json_object_get(obj, key));
    return v ? cli_safe(v) : "?";
}

int cli_list_check(const char *cmd, const char *opt, const char *text, bool instrs)
{
    char *copy = strdup(text), *rest = copy, *t;
    if (!copy)
        return cli_fail(cmd, "out of memory");
    int rc = TC_EXIT_OK;
    while (rc == TC_EXIT_OK && (t = strsep(&rest, ",")) != NULL)
        if (!*t)
            rc = cli_fail(cmd, "%s: empty item in '%s'", opt, text);
        else if (instrs && strcmp(text, "all") && !tc_instr_by_name(t))
            rc = cli_unknown_instr(cmd, opt, t);
    free(copy);
    return rc;
}

bool cli_instr_selected(const char *sel, const char *name)
{
    if (!strcmp(sel, "all"))
        return true;
    size_t n = strlen(name);
    for (const char *p = sel; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

int cli_list_add(char **list, const char *item)
{
    size_t have = *list ? strlen(*list) : 0, len = strlen(item);
    char *t = realloc(*list, have + len + 2);
    if (!t)
        return -1;
    if (have)
        t[have++] = ',';
    memcpy(t + have, item, len + 1);
    *list = t;
    return 0;
}

bool cli_pos_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v > 0) || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool cli_fraction(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !isfinite(v) || isspace((unsigned char)*s))
        return false;
    if (*end == '%') {
        v /= 100;
        end++;
    }
    if (*end || !(v >= lo && v <= hi))
        return false;
    *out = v;
    return true;
}

bool cli_tolerance(const char *cmd, const char *opt, const char *v, double *out)
{
    double x;
    bool percent = strchr(v, '%') != NULL;
    if (!cli_fraction(v, 0, 100, &x) || (percent && x > 1)) {
        cli_fail(cmd, "bad %s '%s' (0.05 or 5%%, at most 100%%)", opt, v);
        return false;
    }
    if (!percent && x >= 1) {   /* the old spelling: a bare percentage ("5") */
        cli_warn(cmd, "%s %s is the old spelling of %g%% (write %g%% or %g)", opt, v, x, x, x / 100);
        x /= 100;
    }
    *out = x;
    return true;
}

bool cli_range(const char *s, double *lo, double *hi)
{
    const char *colon = strchr(s, ':');
    if (!colon)
        return false;
    char a[64];
    snprintf(a, sizeof a, "%.*s", (int)(colon - s), s);
    return cli_pos_double(a, lo) && cli_pos_double(colon + 1, hi) && *lo < *hi;
}

bool cli_count_list(const char *cmd, const char *opt, const char *v, int lo, int hi, int max, int *out, int *n)
{
    *n = 0;
    for (const char *p = v;;) {
        size_t len = strcspn(p, ",");
        if (*n == max) {
            cli_fail(cmd, "%s: at most %d values", opt, max);
            return false;
        }
        char *item = strndup(p, len);   /* whole: a cut item ("016x" as "016") would pass */
        if (!item) {
            cli_fail(cmd, "out of memory");
            return false;
        }
        bool ok = cli_count_int(cmd, opt, item, lo, hi, &out[(*n)++]);
        free(item);
        if (!ok)
            return false;
        p += len;
        if (!*p)
            return true;
        p++;
    }
}
