/* The records' JSON conventions for one value or one line: bits as a hex
 * string, NaN and Inf as null, one compact object per line
 * (reports/reports.h, reports/reports_internal.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reports/reports.h"
#include "reports/reports_internal.h"

json_t *tc_json_bits(uint64_t bits)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)bits);
    return json_string(buf);
}

bool tc_json_get_bits(const json_t *j, uint64_t *bits)
{
    const char *s = json_string_value(j);
    if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s + 2, &end, 16);
    if (*end || errno)
        return false;
    *bits = v;
    return true;
}

json_t *tc_json_real_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

double tc_json_number(const json_t *j)
{
    return json_is_number(j) ? json_number_value(j) : NAN;
}

int rep_write_line(FILE *f, const json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    if (!s)
        return -1;
    int rc = fputs(s, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
    free(s);
    return rc;
}
