/* Sweep results as record objects, and the time per step from a bench record. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/sweep_record.h"

const json_t *tc_bench_find(const tc_record *bench, const char *instr)
{
    if (!bench || !bench->objects)
        return NULL;
    size_t i;
    json_t *o;
    json_array_foreach(bench->objects, i, o)
    {
        const char *kind = json_string_value(json_object_get(o, "kind"));
        const char *in = json_string_value(json_object_get(o, "instr"));
        if (kind && in && !strcmp(in, instr)) {
            if (!strcmp(kind, "bench"))
                return o;
            if (!strcmp(kind, "audit") && json_is_object(json_object_get(o, "timing")))
                return json_object_get(o, "timing");
        }
    }
    return NULL;
}

double tc_step_seconds(const json_t *bench, int m, int n, int k)
{
    double tflops = tc_json_number(json_object_get(bench, "tflops"));
    if (!(tflops > 0))
        return NAN;
    return 2.0 * m * n * k / (tflops * 1e12);
}

json_t *tc_record_sweep_new(const sweep_params *p, const sweep_result *r, const json_t *bench)
{
    char seed[24];
    snprintf(seed, sizeof seed, "0x%llx", (unsigned long long)p->seed);
    double step_s = bench ? tc_step_seconds(bench, r->m, r->k, r->k) : NAN;
    json_t *steps = json_array();
    for (int i = 0; i < p->chain; i++) {
        const sweep_step *s = &r->steps[i];
        json_t *o = json_pack("{s:i}", "step", i + 1);
        json_object_set_new(o, "median", tc_json_real_or_null(s->median));
        json_object_set_new(o, "p90", tc_json_real_or_null(s->p90));
        json_object_set_new(o, "max", tc_json_real_or_null(s->max));
        json_object_set_new(o, "local_median", tc_json_real_or_null(s->local_median));
        json_object_set_new(o, "local_p90", tc_json_real_or_null(s->local_p90));
        json_object_set_new(o, "local_max", tc_json_real_or_null(s->local_max));
        json_object_set_new(o, "overflow", json_real(s->overflow));
        json_object_set_new(o, "nan", json_real(s->nan));
        json_object_set_new(o, "n", json_integer((json_int_t)s->n));
        json_object_set_new(o, "time_s", tc_json_real_or_null(step_s));
        json_array_append_new(steps, o);
    }
    json_t *o = json_pack("{s:s, s:s, s:s, s:i, s:i, s:s, s:s, s:s, s:s, s:i, s:s, s:i, s:I, s:o}", "kind", "sweep",
                          "format", p->fmt->name, "instr", r->instr_name, "m", r->m, "k", r->k, "dist",
                          sweep_dist_name(p->dist), "from", p->from_f32 ? "f32" : "direct", "round",
                          tc_round_name(p->round), "scale", r->scaled ? "pertensor" : "none", "trials", p->trials,
                          "seed", seed, "chain", p->chain, "cvt_mismatches", (json_int_t)r->cvt_mismatches,
                          "steps", steps);
    json_object_set_new(o, "chain_path", json_string(r->chain_path ? r->chain_path : ""));
    if (p->dist == SWEEP_LOGUNIFORM)
        json_object_set_new(o, "log_range", json_integer(p->log_range));
    json_object_set_new(o, "tflops", bench ? tc_json_real_or_null(tc_json_number(json_object_get(bench, "tflops")))
                                           : json_null());
    return o;
}
