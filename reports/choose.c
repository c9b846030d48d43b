/* Precision advice: filter the recorded candidates by the constraints, rank
 * the survivors by measured throughput, and keep every reason. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/choose.h"
#include "reports/sweep_record.h"

tc_choose_opts tc_choose_defaults(void)
{
    tc_choose_opts o = {.max_rel_err = NAN, .k = 0, .depth = 1, .stat = "p90"};
    return o;
}

static double value_of(tc_value v)
{
    return ldexp((double)v.sig, v.exp);
}

/* Why the format cannot hold [lo, hi], or NULL. Per-tensor scaling moves the
 * window, so then only the ratio hi/lo must fit max/min-normal. */
static bool range_fails(const tc_format *f, bool scaled, double lo, double hi, char *why, size_t len)
{
    double max = value_of(tc_format_max(f)), minn = value_of(tc_format_min_normal(f));
    if (scaled) {
        if (hi / lo <= max / minn)
            return false;
        snprintf(why, len, "range %g:%g spans 2^%.1f; %s's normal range spans 2^%.1f (%g / %g), even with per-tensor scaling",
                 lo, hi, log2(hi / lo), f->name, log2(max / minn), max, minn);
        return true;
    }
    if (hi <= max && lo >= minn)
        return false;
    snprintf(why, len, "range %g:%g is outside %s's normal range %g:%g (unscaled)", lo, hi, f->name, minn, max);
    return true;
}

/* The reason a candidate is excluded, or false when it meets every constraint. */
static bool excluded(const json_t *s, const tc_choose_opts *o, double *err_out, char *why, size_t len)
{
    const char *fname = json_string_value(json_object_get(s, "format"));
    tc_format scratch;
    const tc_format *f = tc_format_by_name(fname, &scratch);
    bool scaled = !strcmp(json_string_value(json_object_get(s, "scale")), "pertensor");
    json_int_t k = json_integer_value(json_object_get(s, "k"));
    json_t *steps = json_object_get(s, "steps");
    *err_out = NAN;
    if (!f) {
        snprintf(why, len, "unknown format '%s' in the record", fname);
        return true;
    }
    if ((size_t)o->depth > json_array_size(steps)) {
        snprintf(why, len, "the record has %zu chain steps, depth %d not measured", json_array_size(steps), o->depth);
        return true;
    }
    json_t *st = json_array_get(steps, (size_t)o->depth - 1);
    *err_out = tc_json_number(json_object_get(st, o->stat));
    double over = tc_json_number(json_object_get(st, "overflow")), nan = tc_json_number(json_object_get(st, "nan"));
    if (o->k > 0 && k < o->k) {
        snprintf(why, len, "measured with dot length %lld < K = %d", (long long)k, o->k);
        return true;
    }
    if (o->need_inf_nan && f->specials != TC_SPECIALS_IEEE) {
        snprintf(why, len, "%s has no Inf%s", fname, f->specials == TC_SPECIALS_FN ? " (only NaN)" : " or NaN");
        return true;
    }
    if (o->range_hi > 0 && range_fails(f, scaled, o->range_lo, o->range_hi, why, len))
        return true;
    if (over > 0 || nan > 0) {
        snprintf(why, len, "at depth %d %.3g%% of elements overflowed and %.3g%% became NaN", o->depth, 100 * over,
                 100 * nan);
        return true;
    }
    if (isnan(*err_out)) {
        snprintf(why, len, "no finite %s relative error recorded at depth %d", o->stat, o->depth);
        return true;
    }
    if (!isnan(o->max_rel_err) && *err_out > o->max_rel_err) {
        snprintf(why, len, "%s relative error %.3g at depth %d > %.3g", o->stat, *err_out, o->depth, o->max_rel_err);
        return true;
    }
    return false;
}

static json_t *candidate(const json_t *s, const tc_choose_opts *o, double err)
{
    json_t *c = json_pack("{s:n, s:s, s:s, s:s, s:i, s:O, s:s, s:s}", "rank", "format",
                          json_string_value(json_object_get(s, "format")), "instr",
                          json_string_value(json_object_get(s, "instr")), "stat", o->stat, "depth", o->depth, "k",
                          json_object_get(s, "k"), "scale", json_string_value(json_object_get(s, "scale")), "dist",
                          json_string_value(json_object_get(s, "dist")));
    json_object_set_new(c, "error", tc_json_real_or_null(err));
    return c;
}

static int by_error(const void *a, const void *b)
{
    double x = tc_json_number(json_object_get(*(json_t *const *)a, "error"));
    double y = tc_json_number(json_object_get(*(json_t *const *)b, "error"));
    return (x > y) - (x < y);
}

static int by_tflops_desc(const void *a, const void *b)
{
    double x = tc_json_number(json_object_get(*(json_t *const *)a, "tflops"));
    double y = tc_json_number(json_object_get(*(json_t *const *)b, "tflops"));
    return (x < y) - (x > y);
}

json_t *tc_choose(const json_t *sweeps, const tc_record *bench, const tc_choose_opts *o)
{
    json_t *ranked = json_array(), *unranked = json_array(), *out = json_array();
    size_t i;
    json_t *s;
    json_array_foreach(sweeps, i, s)
    {
        if (o->dist && strcmp(o->dist, json_string_value(json_object_get(s, "dist"))))
            continue;
        char why[400];
        double err;
        json_t *c;
        if (excluded(s, o, &err, why, sizeof why)) {
            c = candidate(s, o, err);
            json_object_set_new(c, "excluded", json_true());
            json_object_set_new(c, "reason", json_string(why));
            json_array_append_new(out, c);   /* exclusions go last: moved below */
            continue;
        }
        c = candidate(s, o, err);
        const json_t *b = tc_bench_find(bench, json_string_value(json_object_get(s, "instr")));
        double tf = b ? tc_json_number(json_object_get(b, "tflops")) : NAN;
        json_object_set_new(c, "tflops", tc_json_real_or_null(tf));
        if (isnan(tf)) {
            json_object_set_new(c, "note", json_string("no throughput record: not ranked"));
            json_array_append_new(unranked, c);
        } else
            json_array_append_new(ranked, c);
    }
    size_t n = json_array_size(ranked);
    json_t **v = malloc((n ? n : 1) * sizeof *v);
    for (i = 0; i < n; i++)
        v[i] = json_array_get(ranked, i);
    /* Without a bound, speed alone would rank the least accurate first: most accurate first then. */
    qsort(v, n, sizeof *v, isnan(o->max_rel_err) ? by_error : by_tflops_desc);
    json_t *result = json_array();
    for (i = 0; i < n; i++) {
        json_object_set_new(v[i], "rank", json_integer((json_int_t)i + 1));
        json_array_append(result, v[i]);
    }
    free(v);
    json_array_extend(result, unranked);
    json_array_extend(result, out);
    json_decref(ranked);
    json_decref(unranked);
    json_decref(out);
    return result;
}
