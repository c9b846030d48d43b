/* Compare's differences and the tests that make them, field by field:
 * exact values, and timing figures against a threshold from the runs'
 * spread (reports/compare_internal.h). The comparers of each kind of
 * object (reports/compare.c, reports/compare_cases.c) call these. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "reports/compare_internal.h"
#include "reports/text.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* (max - min) / median of a runs array; -1 when there are fewer than 2 runs. */
static double runs_spread(const json_t *runs)
{
    size_t n = json_array_size(runs);
    if (n < 2)
        return -1;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double x = tc_json_number(json_array_get(runs, i));
        if (isfinite(x))
            v[m++] = x;
    }
    double spread = -1;
    if (m >= 2) {
        qsort(v, m, sizeof *v, cmp_double);
        double med = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
        if (med != 0)
            spread = (v[m - 1] - v[0]) / fabs(med);
    }
    free(v);
    return spread;
}

double tc_compare_threshold(const json_t *old_runs, const json_t *new_runs,
                            const tc_compare_opts *o, bool *derived)
{
    double s = fmax(runs_spread(old_runs), runs_spread(new_runs));
    *derived = s >= 0;
    if (s < 0)
        return o->default_threshold;
    return fmax(o->min_threshold, o->noise_factor * s);
}

/* --- differences ---------------------------------------------------------- */

void cmp_add(cmp_diffs *dl, const char *kind, const char *key, const char *field,
                     json_t *oldv, json_t *newv, const char *fmt, ...)
{
    char msg[512], fld[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* a message or field cut inside a UTF-8 character is no JSON string:
     * repaired, so that the difference is counted and listed alike */
    snprintf(fld, sizeof fld, "%s", field);
    tc_utf8_repair(msg);
    tc_utf8_repair(fld);
    json_t *d = json_pack("{s:s, s:s, s:s}", "kind", kind, "instr", key, "field", fld);
    json_object_set_new(d, "old", oldv ? oldv : json_null());
    json_object_set_new(d, "new", newv ? newv : json_null());
    json_object_set_new(d, "message", json_string(msg));
    json_array_append_new(dl->diffs, d);
    dl->n++;
}

/* Short text of a JSON value for messages. */
void cmp_show(const json_t *v, char *buf, size_t len)
{
    if (!v) {
        snprintf(buf, len, "(absent)");
        return;
    }
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(6));
    snprintf(buf, len, "%s", s ? s : "?");
    free(s);
}

json_t *cmp_copy(const json_t *v)
{
    return v ? json_deep_copy(v) : json_null();
}

void cmp_exact(cmp_diffs *dl, const char *kind, const char *key, const char *prefix, const char *field,
               const json_t *a, const json_t *b)
{
    const json_t *x = json_object_get(a, field), *y = json_object_get(b, field);
    if ((!x && !y) || (x && y && json_equal(x, y)))
        return;
    char name[200], sx[120], sy[120];
    snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "", field);
    cmp_show(x, sx, sizeof sx);
    cmp_show(y, sy, sizeof sy);
    cmp_add(dl, kind, key, name, cmp_copy(x), cmp_copy(y), "%s %s: %s %s -> %s", kind, key, name, sx, sy);
}

/* Timing figures: lower is better for latency, higher for throughput; a
 * change either way beyond the threshold is reported. */
static const char *const timing_fields[] = {"latency_cycles", "throughput_fma_clk_sm", "tflops", NULL};

void cmp_timing(cmp_diffs *dl, const char *kind, const char *key, const json_t *a,
                           const json_t *b, const tc_compare_opts *o)
{
    for (const char *const *f = timing_fields; *f; f++) {
        double x = tc_json_number(json_object_get(a, *f)), y = tc_json_number(json_object_get(b, *f));
        if (isnan(x) && isnan(y))
            continue;
        if (isnan(x) != isnan(y)) {
            cmp_add(dl, kind, key, *f, cmp_copy(json_object_get(a, *f)),
                    cmp_copy(json_object_get(b, *f)), "%s %s: %s recorded in only one record",
                    kind, key, *f);
            continue;
        }
        char runs[64];
        snprintf(runs, sizeof runs, "%s_runs", *f);
        bool derived;
        double thr = tc_compare_threshold(json_object_get(a, runs), json_object_get(b, runs), o, &derived);
        double rel = x != 0 ? (y - x) / fabs(x) : (y != 0 ? INFINITY : 0);
        if (fabs(rel) <= thr)
            continue;
        cmp_add(dl, kind, key, *f, json_real(x), json_real(y),
                "%s %s: %s %.6g -> %.6g (%+.1f%%, threshold %.1f%% %s)", kind, key, *f, x, y,
                100 * rel, 100 * thr, derived ? "from the repeated runs" : "default: no repeated runs");
    }
    cmp_exact(dl, kind, key, "", "sass", a, b);
    cmp_exact(dl, kind, key, "", "emulated", a, b);
}
