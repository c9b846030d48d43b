/* The bench record (reports/record_bench.h) against the older bench file.
 *
 * The committed H100 bench (reports/baselines/h100-bench.json.gz, the timing
 * probes' single-document "tcscope-bench" file) is read here, field by field
 * under its own names, into the structs the timing probes now hand over;
 * the writer turns them into a tcscope-record/1 bench record, which must
 * pass the schema checks and hold, for every instruction, the very objects
 * reports/bench_import.c makes from the old file (every field it makes, the
 * same JSON value), and keep what that reader drops (the SASS checks, the
 * table, the whole-GPU runs, the cuBLAS runs, ...) equal to the old file's. A small old file
 * with an instruction not timed, one refused and one stopped by an error
 * checks the objects of instructions without numbers the same way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/record_bench.h"
#include "reports/reports.h"
#include "tests/testutil.h"

#define BASELINE "reports/baselines/h100-bench.json.gz"

static double num(const json_t *o, const char *key, double unknown)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : unknown;
}

static void str(char *dst, size_t n, const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    snprintf(dst, n, "%s", s ? s : "");
}

static void nvml_of(const json_t *w, tc_bench_nvml *s)
{
    s->samples = (int)json_integer_value(json_object_get(w, "nvml_samples"));
    s->sm_clock_mean = num(w, "sm_clock_mhz_mean", -1);
    s->sm_clock_min = num(w, "sm_clock_mhz_min", -1);
    s->sm_clock_max = num(w, "sm_clock_mhz_max", -1);
    s->power_mean = num(w, "power_w_mean", -1);
    s->power_max = num(w, "power_w_max", -1);
    const char *hex = json_string_value(json_object_get(w, "throttle_reasons"));
    s->throttle_known = hex != NULL;
    s->throttle = hex ? strtoull(hex, NULL, 16) : 0;
    str(s->throttle_names, sizeof s->throttle_names, w, "throttle_names");
}

/* One instruction of the old file as the probes' struct (strings borrowed from in). */
static void result_of(const json_t *in, tc_bench_result *r)
{
    memset(r, 0, sizeof *r);
    r->instr = json_string_value(json_object_get(in, "instr"));
    r->api = json_string_value(json_object_get(in, "api"));
    r->sass_expected = json_string_value(json_object_get(in, "sass_expected"));
    r->peak = num(in, "peak_fma_per_clk_per_sm", 0);
    static const char *const why[] = {NULL, "not_timed", "refused", "error"};
    for (int s = 1; s < 4; s++)
        if (json_object_get(in, why[s])) {
            r->status = (tc_bench_status)s;
            str(r->why, sizeof r->why, in, why[s]);
        }
    const json_t *k = json_object_get(in, "sass_kernels");
    r->checked = json_is_object(k);
    r->wgmma = json_object_get(k, "latency") != NULL;
    for (int i = r->wgmma ? 0 : 1; r->checked && i <= TC_BENCH_ILP; i++) {
        char key[16];
        snprintf(key, sizeof key, i ? "ilp%d" : "latency", i);
        const json_t *c = json_object_get(k, key);
        tc_bench_check *x = &r->kernel[i];
        str(x->verdict, sizeof x->verdict, c, "verdict");
        x->usable = json_is_true(json_object_get(c, "usable"));
        x->emulated = json_is_true(json_object_get(c, "emulated"));
        str(x->opcode, sizeof x->opcode, c, "opcode");
        x->expected = (int)json_integer_value(json_object_get(c, "expected"));
        x->in_loop = (int)json_integer_value(json_object_get(c, "in_loop"));
        x->per_mma = (int)json_integer_value(json_object_get(c, "per_mma"));
        x->conversions_in_loop = (int)json_integer_value(json_object_get(c, "conversions_in_loop"));
        str(x->message, sizeof x->message, c, "message");
    }
    str(r->sass_verdict, sizeof r->sass_verdict, in, "sass");
    str(r->sass_opcode, sizeof r->sass_opcode, in, "sass_opcode");
    r->emulated = json_is_true(json_object_get(in, "emulated"));
    str(r->emulation, sizeof r->emulation, in, "emulation");
    const json_t *runs = json_object_get(in, "latency_cycles_runs");
    r->nlat = (int)json_array_size(runs);
    assert_true(r->nlat == 0 || r->nlat == TC_BENCH_LAT_RUNS);
    for (int i = 0; i < r->nlat; i++)
        r->lat_runs[i] = json_number_value(json_array_get(runs, (size_t)i));
    r->latency = num(in, "latency_cycles", -1);
    r->latency_spread = num(in, "latency_spread_cycles", -1);
    const json_t *t = json_object_get(in, "table");
    if (json_is_object(t)) {
        const json_t *other = json_object_get(t, "other_staging_fma_per_clk_per_sm");
        r->nmodes = other ? 2 : 1;
        r->best_mode = !strcmp(json_string_value(json_object_get(t, "staging")) ? json_string_value(json_object_get(t, "staging")) : "",
                               "128-byte swizzle");
        const json_t *w = json_object_get(t, "warps_per_sm");
        r->nwarps = (int)json_array_size(w);
        assert_true(r->nwarps <= TC_BENCH_WARPS);
        for (int i = 0; i < r->nwarps; i++)
            r->warps[i] = (int)json_integer_value(json_array_get(w, (size_t)i));
        r->table_iters = (int)json_integer_value(json_object_get(t, "iterations"));
        for (int m = 0; m < r->nmodes; m++) {
            const json_t *tab = m == r->best_mode ? json_object_get(t, "fma_per_clk_per_sm") : other;
            for (int i = 0; i < TC_BENCH_ILP; i++)
                for (int c = 0; c < r->nwarps; c++) {
                    const json_t *v = json_array_get(json_array_get(tab, (size_t)i), (size_t)c);
                    r->fma[m][i][c] = json_is_number(v) ? json_number_value(v) : -1;
                }
        }
    }
    r->best_fma = num(in, "best_fma_per_clk_per_sm", 0);
    r->best_ilp = (int)json_integer_value(json_object_get(in, "best_ilp"));
    r->best_warps = (int)json_integer_value(json_object_get(in, "best_warps_per_sm"));
    r->issue_interval = num(in, "issue_interval_cycles", -1);
    const json_t *whole = json_object_get(in, "whole_gpu");
    r->whole_skipped = json_is_null(whole);
    r->has_whole = json_is_object(whole);
    for (int z = 0; r->has_whole && z < 2; z++) {
        const json_t *w = json_object_get(whole, z ? "zero" : "random");
        tc_bench_whole *x = &r->whole[z];
        x->tflops = num(w, "tflops", -1);
        x->ms = num(w, "ms", -1);
        x->blocks = (int)json_integer_value(json_object_get(w, "blocks"));
        x->iterations = json_integer_value(json_object_get(w, "iterations"));
        x->fma_from_cycles = num(w, "fma_per_clk_per_sm_from_cycles", -1);
        x->fma_at_nvml_clock = num(w, "fma_per_clk_per_sm_at_nvml_clock", -1);
        nvml_of(w, &x->nvml);
    }
}

static void machine_of(const json_t *m, tc_bench_machine *x)
{
    memset(x, 0, sizeof *x);
    snprintf(x->run.backend, sizeof x->run.backend, "gpu");
    str(x->run.device, sizeof x->run.device, m, "gpu");
    str(x->run.driver, sizeof x->run.driver, m, "driver");
    str(x->run.cuda, sizeof x->run.cuda, m, "cuda_runtime");
    x->run.sm = (int)json_integer_value(json_object_get(m, "sm"));
    x->run.sm_count = (int)json_integer_value(json_object_get(m, "sm_count"));
    x->run.clock_mhz = (int)json_integer_value(json_object_get(m, "max_sm_clock_mhz"));
    str(x->pci_bus_id, sizeof x->pci_bus_id, m, "pci_bus_id");
    x->rated_sm_clock_mhz = num(m, "rated_sm_clock_mhz", -1);
    str(x->cuda_driver_api, sizeof x->cuda_driver_api, m, "cuda_driver_api");
    x->nvml = json_is_true(json_object_get(m, "nvml"));
    str(x->nvml_why, sizeof x->nvml_why, m, "nvml");
    x->idle_sm_clock_mhz = (int)num(m, "idle_sm_clock_mhz", -1);
    x->power_limit_w = num(m, "power_limit_w", -1);
    x->temperature_c = (int)num(m, "temperature_c", -1);
    x->sass_read = json_is_string(json_object_get(m, "sass_source"));
    str(x->sass_source, sizeof x->sass_source, m, "sass_source");
    str(x->sass_error, sizeof x->sass_error, m, "sass_error");
}

/* The header's run facts, from the old file's machine as machine_of read
 * them (in tcscope, cli_run_info makes them from the probe's). */
static tc_run_info run_of(const tc_bench_machine *x)
{
    tc_run_info r = {0};
    snprintf(r.backend, sizeof r.backend, "%s", x->run.backend);
    snprintf(r.device, sizeof r.device, "%s", x->run.device);
    snprintf(r.driver, sizeof r.driver, "%s", x->run.driver);
    snprintf(r.cuda, sizeof r.cuda, "%s", x->run.cuda);
    r.sm = x->run.sm, r.sm_count = x->run.sm_count, r.clock_mhz = x->run.clock_mhz;
    return r;
}

/* Equal JSON, or absent from both (json_equal(NULL, NULL) is false). */
static bool same(const json_t *x, const json_t *y)
{
    return (!x && !y) || json_equal(x, y);
}

/* Writes the old file's content as a bench record through the writer, reads
 * it back with the record reader (every check), and returns it. */
static tc_record written(const json_t *doc, const char *name)
{
    tc_bench_machine m;
    machine_of(json_object_get(doc, "machine"), &m);
    tc_run_info run = run_of(&m);
    tc_record rec = tc_record_new(tc_bench_header(&m, &run));
    char err[300], path[200];
    size_t i;
    json_t *in;
    tc_bench_result *r = malloc(sizeof *r);
    json_array_foreach(json_object_get(doc, "instructions"), i, in) {
        result_of(in, r);
        if (tc_record_add(&rec, tc_bench_object(r), err, sizeof err))
            fail_msg("%s: %s", r->instr, err);
    }
    free(r);
    json_array_foreach(json_object_get(doc, "cublas"), i, in) {
        tc_bench_gemm g = {.type = json_string_value(json_object_get(in, "type")),
                           .size = (int)json_integer_value(json_object_get(in, "m")),
                           .library = json_string_value(json_object_get(in, "library")),
                           .ok = !json_object_get(in, "error"),
                           .tflops = num(in, "tflops", -1), .tflops_best = num(in, "tflops_best", -1),
                           .ms_mean = num(in, "ms_mean", -1)};
        str(g.error, sizeof g.error, in, "error");
        nvml_of(in, &g.nvml);
        if (tc_record_add(&rec, tc_bench_cublas_figure(&g, m.run.device), err, sizeof err))
            fail_msg("cublas %s: %s", g.type, err);
    }
    if (json_object_get(doc, "elapsed_s") &&
        tc_record_add(&rec, tc_bench_elapsed_figure(num(doc, "elapsed_s", -1), m.run.device), err, sizeof err))
        fail_msg("elapsed: %s", err);
    snprintf(path, sizeof path, "%s/%s", tc_tmp_root(), name);
    if (tc_record_save(path, &rec, err, sizeof err))
        fail_msg("save: %s", err);
    tc_record_free(&rec);
    if (tc_record_load(path, &rec, err, sizeof err))
        fail_msg("the written bench record is refused: %s", err);
    return rec;
}

/* Every field of the old reader's object, equal in the new one; the detail
 * the old reader dropped, equal to the old file's. */
static void same_objects(const char *old_path, const json_t *doc, const tc_record *record)
{
    tc_record fresh_bench = {record->header, tc_record_objects_of(record, "bench")}, *fresh = &fresh_bench;
    tc_record old;
    char err[300];
    if (tc_record_load_any(old_path, &old, err, sizeof err))
        fail_msg("%s: %s", old_path, err);
    const json_t *list = json_object_get(doc, "instructions");
    assert_int_equal(json_array_size(old.objects), json_array_size(list));
    assert_int_equal(json_array_size(fresh->objects), json_array_size(list));
    static const char *const header_fields[] = {"record", "gpu", "driver", "cuda", "sm", "sm_count", "clock_mhz", NULL};
    for (const char *const *f = header_fields; *f; f++)
        if (!json_equal(json_object_get(old.header, *f), json_object_get(fresh->header, *f)))
            fail_msg("header %s differs", *f);
    size_t i, compared = 0;
    json_t *a;
    json_array_foreach(old.objects, i, a) {
        const json_t *b = json_array_get(fresh->objects, i), *in = json_array_get(list, i);
        const char *key;
        json_t *v;
        json_object_foreach(a, key, v) {
            if (!json_equal(v, json_object_get(b, key)))
                fail_msg("%s: %s differs from the old reader's", json_string_value(json_object_get(a, "instr")), key);
            compared++;
        }
        /* what the old reader dropped: kept, as the old file had it */
        static const char *const same_as_old[] = {"sass_kernels", "whole_gpu", "latency_spread_cycles", "best_ilp",
                                                  "best_warps_per_sm", "issue_interval_cycles", "emulation",
                                                  "not_timed", "refused", "error", "api", "sass_expected", NULL};
        for (const char *const *f = same_as_old; *f; f++)
            if (!same(json_object_get(in, *f), json_object_get(b, *f)))
                fail_msg("%s: %s is not the old file's", json_string_value(json_object_get(a, "instr")), *f);
        assert_true(same(json_object_get(in, "peak_fma_per_clk_per_sm"), json_object_get(b, "peak_fma_clk_sm")));
        if (json_object_get(in, "sass"))
            assert_true(json_equal(json_object_get(in, "sass"), json_object_get(b, "sass_verdict")));
        /* the table: every point of the old file's (both stagings for wgmma) */
        const json_t *t = json_object_get(in, "table"), *pts = json_object_get(b, "table");
        size_t npts = 0, p;
        json_t *pt;
        json_array_foreach(pts, p, pt) {
            bool swz = !strcmp(json_string_value(json_object_get(pt, "staging")) ? json_string_value(json_object_get(pt, "staging")) : "",
                               "128-byte swizzle");
            const char *staging = json_string_value(json_object_get(t, "staging"));
            bool best = !staging || swz == !strcmp(staging, "128-byte swizzle");
            const json_t *tab = json_object_get(t, best ? "fma_per_clk_per_sm" : "other_staging_fma_per_clk_per_sm");
            int ilp = (int)json_integer_value(json_object_get(pt, "ilp")), warps = (int)json_integer_value(json_object_get(pt, "warps"));
            size_t col = SIZE_MAX, c;
            json_t *w;
            json_array_foreach(json_object_get(t, "warps_per_sm"), c, w) if (json_integer_value(w) == warps) col = c;
            assert_true(col != SIZE_MAX);
            if (!json_equal(json_array_get(json_array_get(tab, (size_t)ilp - 1), col), json_object_get(pt, "fma_clk_sm")))
                fail_msg("%s: table point ilp %d warps %d differs", json_string_value(json_object_get(a, "instr")), ilp, warps);
            npts++;
        }
        size_t want = 0, r;
        json_t *row;
        json_array_foreach(json_object_get(t, "fma_per_clk_per_sm"), r, row) want += json_array_size(row);
        json_array_foreach(json_object_get(t, "other_staging_fma_per_clk_per_sm"), r, row) want += json_array_size(row);
        assert_int_equal(npts, want);
    }
    assert_true(compared >= 9 * json_array_size(list)); /* the reader's figures were there to compare */
    tc_record_free(&old);
    json_decref(fresh_bench.objects);
}

/* The old file's cuBLAS runs and wall time: figure objects after the bench objects. */
static void same_figures(const json_t *doc, const tc_record *fresh)
{
    json_t *figs = tc_record_objects_of(fresh, "figure");
    const json_t *cl = json_object_get(doc, "cublas");
    assert_int_equal(json_array_size(figs), json_array_size(cl) + 1);
    size_t i;
    json_t *c;
    json_array_foreach(cl, i, c) {
        const json_t *f = json_array_get(figs, i);
        char label[64];
        snprintf(label, sizeof label, "cublas_gemm_%lld_%s", (long long)json_integer_value(json_object_get(c, "m")),
                 json_string_value(json_object_get(c, "type")));
        assert_string_equal(json_string_value(json_object_get(f, "bench")), label);
        assert_true(json_equal(json_object_get(c, "tflops"), json_object_get(f, "value")));
        static const char *const keys[] = {"m", "n", "k", "library", "tflops_best", "ms_mean", "nvml_samples",
                                           "sm_clock_mhz_mean", "power_w_mean", "power_w_max", "throttle_reasons",
                                           "throttle_names", "error", NULL};
        for (const char *const *k = keys; *k; k++)
            if (!same(json_object_get(c, *k), json_object_get(f, *k)))
                fail_msg("%s: %s is not the old file's", label, *k);
    }
    const json_t *e = json_array_get(figs, json_array_size(cl));
    assert_string_equal(json_string_value(json_object_get(e, "bench")), "elapsed");
    assert_true(json_equal(json_object_get(doc, "elapsed_s"), json_object_get(e, "value")));
    json_decref(figs);
}

static void test_committed_bench_rewritten_as_record(void **state)
{
    char err[300];
    json_t *doc = tc_json_load_file(BASELINE, 0, err, sizeof err);
    if (!doc)
        fail_msg("%s", err);
    assert_true(json_array_size(json_object_get(doc, "instructions")) > 200);
    tc_record fresh = written(doc, "h100-bench.jsonl");
    assert_string_equal(tc_record_header_kind(fresh.header), "bench");
    same_objects(BASELINE, doc, &fresh);
    same_figures(doc, &fresh);
    /* the machine readings beside the header's fields */
    const json_t *m = json_object_get(doc, "machine"), *x = json_object_get(fresh.header, "machine");
    static const char *const mf[] = {"pci_bus_id", "rated_sm_clock_mhz", "cuda_driver_api", "nvml", "max_sm_clock_mhz",
                                     "idle_sm_clock_mhz", "power_limit_w", "temperature_c", "sass_source", NULL};
    for (const char *const *f = mf; *f; f++)
        if (!same(json_object_get(m, *f), json_object_get(x, *f)))
            fail_msg("machine %s differs", *f);
    tc_record_free(&fresh);
    json_decref(doc);
}

/* Instructions without numbers, in the old file's form (as probes/timing.c
 * wrote them: the fields set before it stopped). */
static const char *const small_doc =
    "{\"record\":\"tcscope-bench\",\"version\":1,\"machine\":{\"gpu\":\"G\",\"driver\":\"\",\"cuda_runtime\":\"13.0\","
    "\"sm\":90,\"sm_count\":132,\"nvml\":\"libnvidia-ml.so.1: not found\",\"max_sm_clock_mhz\":null},\"instructions\":["
    "{\"instr\":\"mma.a\",\"api\":\"mma\",\"sass_expected\":\"HMMA\",\"peak_fma_per_clk_per_sm\":2048.0,"
    "\"not_timed\":\"no timing kernel for this instruction (not implemented)\"},"
    "{\"instr\":\"mma.b\",\"api\":\"mma\",\"sass_expected\":\"HMMA\",\"peak_fma_per_clk_per_sm\":null,\"sass_kernels\":{%s},"
    "\"sass\":\"absent\",\"sass_opcode\":\"\",\"emulated\":false,\"refused\":\"mma_b_i1: no HMMA in the loop\"},"
    "{\"instr\":\"mma.c\",\"api\":\"mma\",\"sass_expected\":\"HMMA\",\"peak_fma_per_clk_per_sm\":1024.0,\"sass_kernels\":{%s},"
    "\"sass\":\"emulated\",\"sass_opcode\":\"HMMA.16816.F32\",\"emulated\":true,"
    "\"emulation\":\"2 HMMA.16816.F32 per PTX instruction, 0 conversions in the ILP-1 loop\","
    "\"latency_cycles_runs\":[30.5,30.25,30.5,30.75,30.0],\"latency_cycles\":30.4,\"latency_spread_cycles\":0.75,"
    "\"error\":\"an illegal memory access was encountered\"}]}";

static void test_instructions_without_numbers(void **state)
{
    char kernels[3000] = "", path[200];
    for (int i = 1; i <= 8; i++) {
        char k[360];
        snprintf(k, sizeof k, "%s\"ilp%d\":{\"verdict\":\"%s\",\"usable\":%s,\"emulated\":false,\"opcode\":\"\","
                 "\"expected\":%d,\"in_loop\":0,\"per_mma\":0,\"conversions_in_loop\":0,\"message\":\"m%d\"}",
                 i > 1 ? "," : "", i, i % 2 ? "absent" : "unchecked", i % 3 ? "false" : "true", 4 * i, i);
        strcat(kernels, k);
    }
    char *text = malloc(strlen(small_doc) + 2 * strlen(kernels) + 1);
    sprintf(text, small_doc, kernels, kernels);
    snprintf(path, sizeof path, "%s/small-bench.json", tc_tmp_root());
    assert_int_equal(tc_put_file(path, text), 0);
    free(text);
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc)
        fail_msg("the test's old file: %s", je.text);
    tc_record fresh = written(doc, "small-bench.jsonl");
    same_objects(path, doc, &fresh);
    /* no figure where nothing was measured, and the reason said */
    const json_t *a = json_array_get(fresh.objects, 0), *c = json_array_get(fresh.objects, 2);
    assert_true(json_is_null(json_object_get(a, "latency_cycles")));
    assert_null(json_object_get(a, "sass"));
    assert_string_equal(json_string_value(json_object_get(a, "not_timed")),
                        "no timing kernel for this instruction (not implemented)");
    assert_true(json_number_value(json_object_get(c, "latency_cycles")) == 30.4);
    assert_true(json_is_null(json_object_get(c, "throughput_fma_clk_sm")));
    assert_null(json_object_get(c, "table"));
    assert_string_equal(json_string_value(json_object_get(fresh.header, "gpu")), "G");
    assert_string_equal(json_string_value(json_object_get(json_object_get(fresh.header, "machine"), "nvml")),
                        "libnvidia-ml.so.1: not found");
    tc_record_free(&fresh);
    json_decref(doc);
}

/* An audit's timing (tc_bench_timing) is the old reader's object, byte for
 * byte as written: the detail stays in the bench record. */
static void test_timing_is_the_figures(void **state)
{
    tc_record old;
    char err[300];
    if (tc_record_load_any(BASELINE, &old, err, sizeof err))
        fail_msg("%s", err);
    json_t *doc = tc_json_load_file(BASELINE, 0, err, sizeof err);
    assert_non_null(doc);
    tc_bench_result *r = malloc(sizeof *r);
    size_t i;
    json_t *in;
    json_array_foreach(json_object_get(doc, "instructions"), i, in) {
        result_of(in, r);
        json_t *full = tc_bench_object(r), *t = tc_bench_timing(full);
        assert_non_null(json_object_get(full, "sass_kernels"));
        if (!json_equal(t, json_array_get(old.objects, i)))
            fail_msg("%s: the timing is not the old reader's object", r->instr);
        /* and in the same key order (records are written in it) */
        char *x = json_dumps(t, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
        char *y = json_dumps(json_array_get(old.objects, i), JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
        assert_string_equal(x, y);
        /* an old file's objects (what audit --timing h100-bench.json.gz reads) pass through unchanged */
        json_t *again = tc_bench_timing(json_array_get(old.objects, i));
        char *z = json_dumps(again, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
        assert_string_equal(z, y);
        json_decref(again);
        free(x), free(y), free(z);
        json_decref(full);
        json_decref(t);
    }
    free(r);
    json_decref(doc);
    tc_record_free(&old);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_committed_bench_rewritten_as_record),
        cmocka_unit_test(test_instructions_without_numbers),
        cmocka_unit_test(test_timing_is_the_figures),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
