/* What every candidate of choose for an application is written with,
 * instruction chains (reports/choose_app.c) and library paths
 * (reports/choose_lib.c) alike: its error statistics, the workload behind
 * its figures, and why it is not ranked (reports/choose_app_internal.h). */
#include <math.h>
#include <stdio.h>

#include "reports/choose_app_internal.h"
#include "reports/reports.h"

json_t *choose_stats_json(const app_stats *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "median", tc_json_real_or_null(s->median));
    json_object_set_new(o, "p90", tc_json_real_or_null(s->p90));
    json_object_set_new(o, "p99", tc_json_real_or_null(s->p99));
    json_object_set_new(o, "max", tc_json_real_or_null(s->max));
    json_object_set_new(o, "normwise", tc_json_real_or_null(s->normwise));
    json_object_set_new(o, "outputs", json_integer((json_int_t)s->n));
    json_object_set_new(o, "zero_reference", json_integer((json_int_t)s->zero_ref));
    json_object_set_new(o, "not_finite", json_integer((json_int_t)s->nonfinite));
    return o;
}

json_t *choose_stages_json(const app_result *r)
{
    const app_stages *s = &r->stages;
    double known = s->inputs_s + s->model_s + s->references_s + s->metrics_s;
    return json_pack("{s:f, s:f, s:{s:f, s:f, s:f}, s:f, s:i, s:i, s:f, s:f}", "inputs_s", s->inputs_s, "model_s",
                     s->model_s, "model", "gpu_kernel_s", s->model_kernel_s, "gpu_copy_s", s->model_copy_s, "cpu_s",
                     s->model_cpu_s, "references_s", s->references_s, "references_computed",
                     s->references_computed, "references_shared", s->references_shared, "metrics_s", s->metrics_s,
                     "other_s", r->seconds - known > 0 ? r->seconds - known : 0.0);
}

json_t *choose_workload_json(const app_data *d, const tc_choose_app_opts *o, app_scaling sc)
{
    return json_pack("{s:i, s:i, s:i, s:s, s:s, s:s, s:i, s:i, s:i, s:s, s:o}", "m", d->m, "n", d->n, "k", d->k,
                     "dist", o->dist->desc, "scaling", app_scaling_name(sc), "scale_format",
                     sc == APP_SCALE_NONE ? "none" : "e8m0", "outputs", o->rows * o->cols, "sample_rows", o->rows,
                     "sample_cols", o->cols, "backend", o->backend, "seed",
                     tc_json_bits(d->seed));
}

/* The reason a candidate is not ranked, or NULL. */
const char *choose_exclusion(const app_result *r, const tc_choose_app_opts *o, double tf, char *why, size_t len)
{
    double e = app_stats_get(&r->vs_orig, o->metric);
    if (r->vs_orig.nonfinite) {
        snprintf(why, len, "%zu of %zu outputs not finite (overflow or NaN)", r->vs_orig.nonfinite, r->outputs);
        return why;
    }
    if (isnan(e)) {
        snprintf(why, len, "no output with a nonzero exact value: %s error undefined", o->metric);
        return why;
    }
    if (e > 1) {
        snprintf(why, len, "%s relative error %.3g > 1: no correct digit", o->metric, e);
        return why;
    }
    if (!isnan(o->bound) && e > o->bound) {
        snprintf(why, len, "%s relative error %.3g > bound %.3g", o->metric, e, o->bound);
        return why;
    }
    if (isnan(tf) && !isnan(o->bound)) {
        snprintf(why, len, "meets the bound, but no throughput record for the instruction: not ranked");
        return why;
    }
    return NULL;
}
