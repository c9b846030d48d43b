/* The bench file `tcscope bench` wrote before it wrote bench records
 * ({"record":"tcscope-bench","version":1, "machine":{..},"instructions":[..]},
 * one JSON document; the committed baselines are in it) read as a
 * tcscope-record/1 bench record, so compare, sweep and choose use measured
 * timings whichever version produced them. The objects are those
 * reports/record_bench.c writes, without its detail fields
 * (tests/test_bench_record.c checks the two agree on every committed one). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reports/reports_internal.h"
#include "reports/reports.h"


static json_t *num_or_null(const json_t *v)
{
    return json_is_number(v) ? json_real(json_number_value(v)) : json_null();
}

static json_t *str_or_empty(const json_t *v)
{
    return json_string(json_is_string(v) ? json_string_value(v) : "");
}

static json_t *bench_object(const json_t *in)
{
    const json_t *rnd = json_object_get(json_object_get(in, "whole_gpu"), "random");
    const json_t *zero = json_object_get(json_object_get(in, "whole_gpu"), "zero");
    json_t *o = json_pack("{s:s, s:s}", "kind", "bench", "instr", json_string_value(json_object_get(in, "instr")));
    json_object_set_new(o, "latency_cycles", num_or_null(json_object_get(in, "latency_cycles")));
    json_object_set_new(o, "throughput_fma_clk_sm", num_or_null(json_object_get(in, "best_fma_per_clk_per_sm")));
    json_object_set_new(o, "fraction_of_peak", num_or_null(json_object_get(in, "fraction_of_peak")));
    json_object_set_new(o, "tflops", num_or_null(json_object_get(rnd, "tflops")));
    json_object_set_new(o, "tflops_zero", num_or_null(json_object_get(zero, "tflops")));
    json_object_set_new(o, "sm_clock_mhz", num_or_null(json_object_get(rnd, "sm_clock_mhz_mean")));
    const json_t *runs = json_object_get(in, "latency_cycles_runs");
    if (json_is_array(runs))
        json_object_set_new(o, "latency_cycles_runs", json_deep_copy(runs));
    const json_t *sass = json_object_get(in, "sass_opcode");
    if (json_is_string(sass))
        json_object_set_new(o, "sass", json_string(json_string_value(sass)));
    const json_t *emu = json_object_get(in, "emulated");
    if (json_is_boolean(emu))
        json_object_set_new(o, "emulated", json_boolean(json_is_true(emu)));
    /* the table's best point, as reports/record_bench.c writes it (regress
     * times it again): wgmma's staging is the table's, "no swizzle" in the
     * files made before both stagings were measured */
    const json_t *ilp = json_object_get(in, "best_ilp"), *warps = json_object_get(in, "best_warps_per_sm");
    if (json_is_integer(ilp) && json_is_integer(warps)) {
        json_object_set_new(o, "best_ilp", json_integer(json_integer_value(ilp)));
        json_object_set_new(o, "best_warps_per_sm", json_integer(json_integer_value(warps)));
        const char *staging = json_string_value(json_object_get(json_object_get(in, "table"), "staging"));
        if (json_object_get(json_object_get(in, "sass_kernels"), "latency"))   /* wgmma: its latency kernel */
            json_object_set_new(o, "staging", json_string(staging ? staging : "no swizzle"));
    }
    return o;
}

/* true when the document is the timing probes' bench file. */
static bool is_timing_bench(const json_t *doc)
{
    const char *r = json_string_value(json_object_get(doc, "record"));
    return r && !strcmp(r, "tcscope-bench");
}

int tc_record_load_any(const char *path, tc_record *rec, char *err, size_t len)
{
    if (tc_record_load(path, rec, err, len) == 0)
        return 0;
    char first_err[512];
    snprintf(first_err, sizeof first_err, "%s", err ? err : "");
    char doc_err[256];   /* unused: the record reader's reason is the one reported */
    json_t *doc = tc_json_load_file(path, JSON_REJECT_DUPLICATES, doc_err, sizeof doc_err);
    if (!doc || !is_timing_bench(doc)) {
        json_decref(doc);
        rep_set_err(err, len, "%s", first_err);   /* not the other format either: the record reader's reason */
        return -1;
    }
    if (json_integer_value(json_object_get(doc, "version")) != 1) {
        rep_set_err(err, len, "%s: tcscope-bench version %lld is not supported (this tcscope reads version 1)", path,
                (long long)json_integer_value(json_object_get(doc, "version")));
        json_decref(doc);
        return -1;
    }
    const json_t *m = json_object_get(doc, "machine"), *list = json_object_get(doc, "instructions");
    if (!json_is_object(m) || !json_is_array(list)) {
        rep_set_err(err, len, "%s: tcscope-bench without \"machine\" or \"instructions\"", path);
        json_decref(doc);
        return -1;
    }
    json_t *h = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:[]}", "schema", TC_RECORD_SCHEMA, "record", "bench",
                          "tcscope_version", "", "date", "", "host", "", "backend", "gpu", "seeds");
    json_object_set_new(h, "gpu", str_or_empty(json_object_get(m, "gpu")));
    json_object_set_new(h, "driver", str_or_empty(json_object_get(m, "driver")));
    json_object_set_new(h, "cuda", str_or_empty(json_object_get(m, "cuda_runtime")));
    const json_t *clk = json_object_get(m, "max_sm_clock_mhz");
    json_object_set_new(h, "clock_mhz", json_is_integer(clk) ? json_integer(json_integer_value(clk)) : json_null());
    json_object_set_new(h, "sm", json_is_integer(json_object_get(m, "sm")) ? json_deep_copy(json_object_get(m, "sm")) : json_null());
    json_object_set_new(h, "sm_count", json_is_integer(json_object_get(m, "sm_count"))
                                           ? json_deep_copy(json_object_get(m, "sm_count")) : json_null());
    json_object_set_new(h, "imported_from", json_string(path));
    *rec = tc_record_new(h);
    size_t i;
    json_t *in;
    json_array_foreach(list, i, in)
    {
        if (!json_is_string(json_object_get(in, "instr")))
            continue;
        if (tc_record_add(rec, bench_object(in), err, len)) {
            tc_record_free(rec);
            json_decref(doc);
            return -1;
        }
    }
    json_decref(doc);
    return 0;
}
