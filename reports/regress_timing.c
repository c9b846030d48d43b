/* regress's timing baseline and decision (reports/regress_timing.h). */
#include "reports/regress_timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* A figure of an object: its number, or -1 when absent, null or not positive. */
static double figure(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) && json_number_value(v) > 0 ? json_number_value(v) : -1;
}

/* The best point an object names (an audit's timing or a bench object). */
static bool point_of(const json_t *o, tc_bench_point *p)
{
    const json_t *ilp = json_object_get(o, "best_ilp"), *warps = json_object_get(o, "best_warps_per_sm");
    const json_t *staging = json_object_get(o, "staging");
    if (!json_is_integer(ilp) || !json_is_integer(warps))
        return false;
    json_int_t i = json_integer_value(ilp), w = json_integer_value(warps);
    if (i < 1 || i > TC_BENCH_ILP || w < 1 || w > 1024)
        return false;
    int mode = 0;
    if (staging) {
        const char *s = json_string_value(staging);
        if (!s || (strcmp(s, "no swizzle") && strcmp(s, "128-byte swizzle")))
            return false;
        mode = !strcmp(s, "128-byte swizzle");
    }
    *p = (tc_bench_point){(int)i, (int)w, mode};
    return true;
}

/* bench's object of instr measured at exactly the figures of t: the same run. */
static const json_t *same_run(const tc_record *bench, const char *instr, const tc_timing_base *t)
{
    size_t i;
    const json_t *o;
    json_array_foreach(bench ? bench->objects : NULL, i, o) {
        const char *name = json_string_value(json_object_get(o, "instr"));
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (!name || !kind || strcmp(name, instr) || strcmp(kind, "bench"))
            continue;
        if (t->latency > 0 && t->throughput > 0 && figure(o, "latency_cycles") == t->latency &&
            figure(o, "throughput_fma_clk_sm") == t->throughput)
            return o;
    }
    return NULL;
}

long tc_timing_bases(const tc_record *audit, const tc_record *bench, tc_timing_base **out, char *err, size_t len)
{
    *out = NULL;
    size_t n = 0, i;
    const json_t *o;
    json_array_foreach(audit->objects, i, o)
        n += json_is_object(json_object_get(o, "timing")) && json_is_string(json_object_get(o, "instr"));
    if (n == 0)
        return 0;
    tc_timing_base *b = calloc(n, sizeof *b);
    if (!b) {
        snprintf(err, len, "out of memory");
        return -1;
    }
    size_t k = 0;
    json_array_foreach(audit->objects, i, o) {
        const json_t *t = json_object_get(o, "timing");
        const char *name = json_string_value(json_object_get(o, "instr"));
        if (!json_is_object(t) || !name)
            continue;
        tc_timing_base *x = &b[k++];
        snprintf(x->instr, sizeof x->instr, "%s", name);
        x->latency = figure(t, "latency_cycles");
        x->throughput = figure(t, "throughput_fma_clk_sm");
        x->point_from = "";
        const json_t *from;
        if (point_of(t, &x->point))
            x->has_point = true, x->point_from = "audit record";
        else if ((from = same_run(bench, name, x)) && point_of(from, &x->point))
            x->has_point = true, x->point_from = "bench record";
    }
    *out = b;
    return (long)n;
}

unsigned tc_timing_moved(const tc_timing_figures *base, const tc_timing_figures *now, double tol)
{
    unsigned m = 0;
    if (base->latency > 0 && now->latency > 0 && fabs(now->latency - base->latency) > tol * base->latency)
        m |= TC_TIMING_LATENCY;
    if (base->throughput > 0 && now->throughput > 0 &&
        fabs(now->throughput - base->throughput) > tol * base->throughput)
        m |= TC_TIMING_THROUGHPUT;
    return m;
}

int tc_timing_decide(const tc_timing_base *base, double tol, tc_timing_measure_fn measure, void *ctx,
                     tc_timing_figures *used, bool *full_used)
{
    tc_timing_figures was = {base->latency, base->throughput};
    *full_used = !base->has_point;
    int rc = measure(ctx, *full_used, used);
    if (rc != 0 && *full_used)
        return -1;
    unsigned m = rc == 0 ? tc_timing_moved(&was, used, tol) : 0;
    if (rc == 0 && (m == 0 || *full_used))
        return (int)m;
    /* a quick figure moved, or the point gave none (its kernel no longer
     * fits, or its SASS changed while other ILPs' did not): the table
     * decides, as a full bench would have */
    *full_used = true;
    if (measure(ctx, true, used) != 0)
        return -1;
    return (int)tc_timing_moved(&was, used, tol);
}
