/* The bench record's writer (reports/record_bench.h). */
#include "reports/record_bench.h"

#include <stdio.h>
#include <string.h>

/* Measured numbers: negative means unknown or not measured (null). */
static json_t *known(double v)
{
    return v < 0 ? json_null() : json_real(v);
}

static json_t *known_int(long long v)
{
    return v < 0 ? json_null() : json_integer(v);
}

json_t *tc_bench_header(const tc_bench_machine *m, const tc_run_info *run)
{
    json_t *h = tc_record_header("bench", run, NULL, 0);
    json_t *x = json_object();
    json_object_set_new(x, "pci_bus_id", json_string(m->pci_bus_id));
    json_object_set_new(x, "rated_sm_clock_mhz", known(m->rated_sm_clock_mhz));
    json_object_set_new(x, "cuda_driver_api", json_string(m->cuda_driver_api));
    json_object_set_new(x, "nvml", m->nvml ? json_true() : json_string(m->nvml_why));
    json_object_set_new(x, "max_sm_clock_mhz", m->run.clock_mhz > 0 ? json_integer(m->run.clock_mhz) : json_null());
    json_object_set_new(x, "idle_sm_clock_mhz", known_int(m->idle_sm_clock_mhz));
    json_object_set_new(x, "power_limit_w", known(m->power_limit_w));
    json_object_set_new(x, "temperature_c", known_int(m->temperature_c));
    json_object_set_new(x, "sass_source", m->sass_read ? json_string(m->sass_source) : json_null());
    if (!m->sass_read)
        json_object_set_new(x, "sass_error", json_string(m->sass_error));
    json_object_set_new(h, "machine", x);
    return h;
}

static json_t *check_json(const tc_bench_check *c)
{
    return json_pack("{s:s, s:b, s:b, s:s, s:i, s:i, s:i, s:i, s:s}", "verdict", c->verdict, "usable", c->usable,
                     "emulated", c->emulated, "opcode", c->opcode, "expected", c->expected, "in_loop", c->in_loop,
                     "per_mma", c->per_mma, "conversions_in_loop", c->conversions_in_loop, "message", c->message);
}

static json_t *nvml_json(json_t *o, const tc_bench_nvml *s)
{
    json_object_set_new(o, "nvml_samples", json_integer(s->samples));
    json_object_set_new(o, "sm_clock_mhz_mean", known(s->sm_clock_mean));
    json_object_set_new(o, "sm_clock_mhz_min", known(s->sm_clock_min));
    json_object_set_new(o, "sm_clock_mhz_max", known(s->sm_clock_max));
    json_object_set_new(o, "power_w_mean", known(s->power_mean));
    json_object_set_new(o, "power_w_max", known(s->power_max));
    if (s->throttle_known) {
        char hex[24];
        snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)s->throttle);
        json_object_set_new(o, "throttle_reasons", json_string(hex));
        json_object_set_new(o, "throttle_names", json_string(s->throttle_names));
    } else {
        json_object_set_new(o, "throttle_reasons", json_null());
    }
    return o;
}

static json_t *whole_json(const tc_bench_whole *w)
{
    json_t *o = json_pack("{s:f, s:f, s:i, s:I, s:f}", "tflops", w->tflops, "ms", w->ms, "blocks", w->blocks,
                          "iterations", (json_int_t)w->iterations, "fma_per_clk_per_sm_from_cycles", w->fma_from_cycles);
    if (w->fma_at_nvml_clock >= 0)
        json_object_set_new(o, "fma_per_clk_per_sm_at_nvml_clock", json_real(w->fma_at_nvml_clock));
    return nvml_json(o, &w->nvml);
}

/* SCHEMA.md "bench" table: {"ilp","warps","fma_clk_sm"} per point, null
 * where the point did not run (that occupancy not reached); wgmma says its
 * staging ("no swizzle", "128-byte swizzle"), both measured. */
static json_t *table_json(const tc_bench_result *r)
{
    json_t *t = json_array();
    for (int m = 0; m < r->nmodes; m++)
        for (int i = 0; i < TC_BENCH_ILP; i++)
            for (int w = 0; w < r->nwarps; w++) {
                json_t *p = json_pack("{s:i, s:i, s:o}", "ilp", i + 1, "warps", r->warps[w], "fma_clk_sm",
                                      known(r->fma[m][i][w]));
                if (r->wgmma)
                    json_object_set_new(p, "staging", json_string(m ? "128-byte swizzle" : "no swizzle"));
                json_array_append_new(t, p);
            }
    return t;
}

static const char *const status_key[] = {NULL, "not_timed", "refused", "error"};

json_t *tc_bench_object(const tc_bench_result *r)
{
    bool timed_table = r->best_fma > 0;
    json_t *o = json_pack("{s:s, s:s}", "kind", "bench", "instr", r->instr);
    /* the figures every reader uses, in the order the older file's reader made them */
    json_object_set_new(o, "latency_cycles", r->nlat ? json_real(r->latency) : json_null());
    json_object_set_new(o, "throughput_fma_clk_sm", timed_table ? json_real(r->best_fma) : json_null());
    json_object_set_new(o, "fraction_of_peak", timed_table && r->peak > 0 ? json_real(r->best_fma / r->peak) : json_null());
    json_object_set_new(o, "tflops", r->has_whole ? json_real(r->whole[0].tflops) : json_null());
    json_object_set_new(o, "tflops_zero", r->has_whole ? json_real(r->whole[1].tflops) : json_null());
    json_object_set_new(o, "sm_clock_mhz", r->has_whole ? known(r->whole[0].nvml.sm_clock_mean) : json_null());
    if (r->nlat) {
        json_t *runs = json_array();
        for (int i = 0; i < r->nlat; i++)
            json_array_append_new(runs, json_real(r->lat_runs[i]));
        json_object_set_new(o, "latency_cycles_runs", runs);
    }
    if (r->checked) {
        json_object_set_new(o, "sass", json_string(r->sass_opcode));
        json_object_set_new(o, "emulated", json_boolean(r->emulated));
    }
    /* the detail */
    if (r->status != TC_BENCH_TIMED)
        json_object_set_new(o, status_key[r->status], json_string(r->why));
    json_object_set_new(o, "api", json_string(r->api));
    json_object_set_new(o, "sass_expected", json_string(r->sass_expected));
    json_object_set_new(o, "peak_fma_clk_sm", r->peak > 0 ? json_real(r->peak) : json_null());
    if (r->checked) {
        json_object_set_new(o, "sass_verdict", json_string(r->sass_verdict));
        if (r->emulated)
            json_object_set_new(o, "emulation", json_string(r->emulation));
        json_t *k = json_object();
        for (int i = r->wgmma ? 0 : 1; i <= TC_BENCH_ILP; i++) {
            char key[16];
            snprintf(key, sizeof key, i ? "ilp%d" : "latency", i);
            json_object_set_new(k, key, check_json(&r->kernel[i]));
        }
        json_object_set_new(o, "sass_kernels", k);
    }
    if (r->nlat)
        json_object_set_new(o, "latency_spread_cycles", json_real(r->latency_spread));
    if (r->nmodes) {
        json_object_set_new(o, "table", table_json(r));
        json_object_set_new(o, "table_iterations", json_integer(r->table_iters));
    }
    if (timed_table) {
        json_object_set_new(o, "best_ilp", json_integer(r->best_ilp));
        json_object_set_new(o, "best_warps_per_sm", json_integer(r->best_warps));
        if (r->wgmma)
            json_object_set_new(o, "staging", json_string(r->best_mode ? "128-byte swizzle" : "no swizzle"));
        if (r->at_point)   /* regress's quick pass: the throughput at this one point, no table */
            json_object_set_new(o, "point_only", json_true());
    }
    if (r->issue_interval >= 0)
        json_object_set_new(o, "issue_interval_cycles", json_real(r->issue_interval));
    if (r->has_whole)
        json_object_set_new(o, "whole_gpu", json_pack("{s:o, s:o}", "random", whole_json(&r->whole[0]), "zero",
                                                      whole_json(&r->whole[1])));
    else if (r->whole_skipped && r->status == TC_BENCH_TIMED)
        json_object_set_new(o, "whole_gpu", json_null());
    return o;
}

static json_t *figure(const char *bench, const char *instr, json_t *value, const char *unit, const char *machine)
{
    return json_pack("{s:s, s:s, s:o, s:o, s:s, s:s}", "kind", "figure", "bench", bench, "instr",
                     instr ? json_string(instr) : json_null(), "value", value, "unit", unit, "machine", machine);
}

json_t *tc_bench_cublas_figure(const tc_bench_gemm *c, const char *machine)
{
    char label[64];
    snprintf(label, sizeof label, "cublas_gemm_%d_%s", c->size, c->type);
    json_t *o = figure(label, c->type, c->ok ? json_real(c->tflops) : json_null(), "TFLOP/s", machine);
    json_object_set_new(o, "m", json_integer(c->size));
    json_object_set_new(o, "n", json_integer(c->size));
    json_object_set_new(o, "k", json_integer(c->size));
    json_object_set_new(o, "library", json_string(c->library));
    if (!c->ok) {
        json_object_set_new(o, "error", json_string(c->error));
        return o;
    }
    json_object_set_new(o, "tflops_best", json_real(c->tflops_best));
    json_object_set_new(o, "ms_mean", json_real(c->ms_mean));
    return nvml_json(o, &c->nvml);
}

json_t *tc_bench_elapsed_figure(double seconds, const char *machine)
{
    return figure("elapsed", NULL, json_real(seconds), "s", machine);
}

json_t *tc_bench_timing(const json_t *b)
{
    static const char *const keys[] = {"instr", "latency_cycles", "throughput_fma_clk_sm", "fraction_of_peak",
                                       "tflops", "tflops_zero", "sm_clock_mhz", "latency_cycles_runs", "sass",
                                       "emulated", "best_ilp", "best_warps_per_sm", "staging", NULL};
    json_t *o = json_pack("{s:s}", "kind", "bench");
    for (const char *const *k = keys; *k; k++) {
        json_t *v = json_object_get(b, *k);
        if (v)
            json_object_set_new(o, *k, json_deep_copy(v));
    }
    return o;
}
