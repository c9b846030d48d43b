/* Timing without a GPU: the peak table, NVML's absence handled as unknown,
 * the bench command's contract on a machine with no GPU, and the recorded
 * H100 baseline (reports/baselines/h100-bench.json.gz) checked for the
 * properties the bench promises (SASS verified, wgmma >= 97% of peak,
 * latency spread <= 1 cycle, fractions consistent with the peaks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "probes/nvml.h"
#include "probes/probes.h"
#include "probes/timing.h"
#include "reports/reports.h"
#include "tests/record_out.h"
#include "tests/testutil.h"

static void test_peak_table_follows_input_type_and_sparsity(void **state)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    assert_true(n > 0);
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        double p = tc_timing_peak_fma_per_clk(&cat[i]);
        const char *a = cat[i].a->name;
        double dense = !strcmp(a, "f16") || !strcmp(a, "bf16") ? 2048
                       : !strcmp(a, "tf32")                       ? 1024
                       : !strcmp(a, "f64")                        ? 128
                                                                  : 4096;
        assert_true(p > 0);
        assert_true(p == dense * (cat[i].sparse ? 2 : 1));
        seen++;
    }
    assert_int_equal(seen, (int)n);
}

static void test_throttle_names(void **state)
{
    char buf[200];
    tc_nvml_throttle_names(0, buf, sizeof buf);
    assert_string_equal(buf, "");
    tc_nvml_throttle_names(0x4 | 0x8, buf, sizeof buf);
    assert_string_equal(buf, "sw_power_cap,hw_slowdown");
    tc_nvml_throttle_names(0x1000, buf, sizeof buf);
    assert_string_equal(buf, "other:0x1000");
    char tiny[8];
    tc_nvml_throttle_names(0x1ff, tiny, sizeof tiny);
    assert_true(strlen(tiny) < sizeof tiny);
}

/* A missing library or device gives NULL and readings of "unknown". */
static void test_nvml_absent_is_unknown_not_failure(void **state)
{
    char why[200] = "";
    tc_nvml *n = tc_nvml_open("ffff:ff:ff.f", why, sizeof why);
    if (n) { /* a machine with NVML: the bus id does not exist */
        tc_nvml_close(n);
        fail_msg("NVML opened a device that does not exist");
    }
    assert_true(strlen(why) > 0);
    tc_nvml_reading r;
    tc_nvml_read(NULL, &r);
    assert_int_equal(r.sm_clock_mhz, -1);
    assert_true(r.power_w < 0);
    assert_false(r.throttle_known);
    tc_nvml_sampler *s = tc_nvml_sample_start(NULL, 1);
    tc_nvml_summary sum;
    tc_nvml_sample_stop(s, &sum);
    assert_int_equal(sum.samples, 0);
    assert_true(sum.sm_clock_mean < 0);
}

static bool have_gpu(void)
{
    tc_run_result r = tc_run_cli("bench --if-gpu --json --instr mma.m16n8k16.f32.f16.f16.f32 --no-cublas");
    bool gpu = strstr(r.out, "\"skipped\"") == NULL;
    tc_run_result_free(&r);
    return gpu;
}

static void test_bench_without_gpu(void **state)
{
    if (have_gpu())
        skip();
    tc_run_result r = tc_run_cli("bench --if-gpu --json");
    assert_int_equal(r.status, 0);
    json_t *figs = tc_out_objects(r.out, "bench --if-gpu --json", "figure"); /* a record of one figure */
    assert_int_equal(json_array_size(figs), 1);
    json_t *o = json_incref(json_array_get(figs, 0));
    json_decref(figs);
    assert_string_equal(json_string_value(json_object_get(o, "bench")), "gpu");
    assert_true(json_is_null(json_object_get(o, "value")));
    assert_non_null(json_object_get(o, "machine"));
    assert_non_null(json_string_value(json_object_get(o, "skipped")));
    json_decref(o);
    tc_run_result_free(&r);

    r = tc_run_cli("bench");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "tcscope bench: "));
    assert_string_equal(r.out, "");
    tc_run_result_free(&r);
}

static void test_bench_bad_input(void **state)
{
    tc_run_result r = tc_run_cli("bench --instr mma.m99n8k16.nope");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown instruction 'mma.m99n8k16.nope'"));
    tc_run_result_free(&r);
    r = tc_run_cli("bench --frobnicate");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown option '--frobnicate'"));
    tc_run_result_free(&r);
    r = tc_run_cli("bench --cublas-size 1000");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    r = tc_run_cli("bench --instr");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    /* a list (what audit's timing child gets: its share), each item checked */
    r = tc_run_cli("bench --instr mma.m16n8k16.f32.f16.f16.f32,mma.m99n8k16.nope");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown instruction 'mma.m99n8k16.nope'"));
    tc_run_result_free(&r);
    r = tc_run_cli("bench --instr mma.m16n8k16.f32.f16.f16.f32,");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "empty item"));
    tc_run_result_free(&r);
}

/* On a GPU, a list times exactly its instructions, in catalogue order. */
static void test_bench_times_a_list(void **state)
{
    if (!have_gpu())
        skip();
    tc_run_result r = tc_run_cli("bench --json --no-cublas --instr mma.m16n8k8.f32.tf32.tf32.f32,"
                                 "mma.m16n8k16.f32.f16.f16.f32");
    assert_int_equal(r.status, 0);
    json_t *objs = tc_out_objects(r.out, "bench --json", "bench");
    assert_int_equal(json_array_size(objs), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(objs, 0), "instr")),
                        "mma.m16n8k16.f32.f16.f16.f32");
    assert_string_equal(json_string_value(json_object_get(json_array_get(objs, 1), "instr")),
                        "mma.m16n8k8.f32.tf32.tf32.f32");
    json_decref(objs);
    tc_run_result_free(&r);
}

/* ---- the recorded H100 run ---- */

static json_t *baseline(void)
{
    char err[300];
    json_t *rec = tc_json_load_file("reports/baselines/h100-bench.json.gz", 0, err, sizeof err);
    if (!rec)
        fail_msg("%s", err);
    return rec;
}

static void test_baseline_names_its_machine(void **state)
{
    json_t *rec = baseline();
    json_t *m = json_object_get(rec, "machine");
    assert_non_null(strstr(json_string_value(json_object_get(m, "gpu")), "H100"));
    assert_int_equal(json_integer_value(json_object_get(m, "sm")), 90);
    assert_true(json_integer_value(json_object_get(m, "sm_count")) > 100);
    assert_non_null(json_string_value(json_object_get(m, "cuda_runtime")));
    assert_true(json_number_value(json_object_get(rec, "elapsed_s")) <= 300);
    json_decref(rec);
}

static void test_baseline_timings_keep_their_promises(void **state)
{
    json_t *rec = baseline();
    json_t *list = json_object_get(rec, "instructions");
    size_t i, timed = 0, wg_dense = 0;
    json_t *r;
    json_array_foreach(list, i, r) {
        const char *name = json_string_value(json_object_get(r, "instr"));
        const tc_instr *ins = tc_instr_by_name(name);
        assert_non_null(ins);
        if (json_object_get(r, "not_timed") || json_object_get(r, "refused"))
            continue;
        assert_null(json_object_get(r, "error"));
        timed++;
        /* SASS: the ILP-1 kernel was checked and usable; emulated iff the
         * checker said so. */
        const char *sass = json_string_value(json_object_get(r, "sass"));
        bool emulated = json_is_true(json_object_get(r, "emulated"));
        assert_true(!strcmp(sass, "match") || !strcmp(sass, "emulated"));
        if (!strcmp(sass, "emulated"))
            assert_true(emulated);
        /* Latency: 5 runs, spread <= 1 cycle, the spread recorded is theirs. */
        json_t *runs = json_object_get(r, "latency_cycles_runs");
        assert_int_equal(json_array_size(runs), 5);
        double lo = 1e300, hi = 0;
        for (size_t k = 0; k < 5; k++) {
            double c = json_number_value(json_array_get(runs, k));
            lo = fmin(lo, c);
            hi = fmax(hi, c);
        }
        assert_true(hi - lo <= 1.0);
        assert_true(fabs(json_number_value(json_object_get(r, "latency_spread_cycles")) - (hi - lo)) < 1e-6);
        /* The best point is the table's maximum, its fraction is best/peak. */
        double best = json_number_value(json_object_get(r, "best_fma_per_clk_per_sm"));
        json_t *tab = json_object_get(json_object_get(r, "table"), "fma_per_clk_per_sm");
        double mx = 0;
        size_t a, b2;
        json_t *row, *v;
        json_array_foreach(tab, a, row) json_array_foreach(row, b2, v) mx = fmax(mx, json_number_value(v));
        assert_true(fabs(mx - best) <= 1e-7 * best);
        double frac = json_number_value(json_object_get(r, "fraction_of_peak"));
        assert_true(fabs(frac - best / tc_timing_peak_fma_per_clk(ins)) < 1e-7);
        if (!strcmp(ins->api, "wgmma") && !ins->sparse)
            wg_dense++;
        /* Whole-GPU runs were recorded for random and zero inputs. */
        json_t *w = json_object_get(r, "whole_gpu");
        assert_true(json_number_value(json_object_get(json_object_get(w, "random"), "tflops")) > 0);
        assert_true(json_number_value(json_object_get(json_object_get(w, "zero"), "tflops")) > 0);
    }
    assert_true(timed > 0);
    assert_true(wg_dense > 0);
    /* Every dense wgmma type reaches 97% of its peak at its best shape and point. */
    json_t *types = json_object_get(rec, "wgmma_type_best");
    assert_true(json_object_size(types) >= 12);
    const char *key;
    json_t *tb;
    json_object_foreach(types, key, tb) {
        const char *best_name = json_string_value(json_object_get(tb, "instr"));
        assert_non_null(tc_instr_by_name(best_name));
        assert_false(tc_instr_by_name(best_name)->sparse);
        assert_true(json_number_value(json_object_get(tb, "fraction_of_peak")) >= 0.97);
    }
    /* The library reference, same run. */
    json_t *cl = json_object_get(rec, "cublas");
    assert_int_equal(json_array_size(cl), 4);
    json_array_foreach(cl, i, r) {
        assert_int_equal(json_integer_value(json_object_get(r, "m")), 8192);
        assert_true(json_number_value(json_object_get(r, "tflops")) > 0);
    }
    json_decref(rec);
}

/* What the record must satisfy whatever the numbers are, and doc/findings.md's
 * timing sentence: every catalogue entry timed once; no point of any table
 * above the instruction's peak (fraction <= 1); the latency the mean of its
 * runs; latency grows with wgmma's N; and "every dense wgmma type reaches
 * 99.4-99.8% of its per-SM-per-clock peak at N=256; latency ... 201 cycles at
 * N=256 and 77 at N=8; mma.sync k16 runs at 66% of peak; FP8 mma.sync at
 * 21-27%", each to doc/findings.md's rounding. */
/* The number `key` of the record's line for `name`. */
static double field_of(json_t *list, const char *name, const char *key)
{
    size_t i;
    json_t *r;
    json_array_foreach(list, i, r) if (!strcmp(json_string_value(json_object_get(r, "instr")), name)) return json_number_value(
        json_object_get(r, key));
    fail_msg("%s: not in the bench record", name);
    return 0;
}
#define frac_of(list, name) field_of(list, name, "fraction_of_peak")
#define latency_of(list, name) field_of(list, name, "latency_cycles")

static void test_baseline_is_physical_and_backs_the_readme(void **state)
{
    json_t *rec = baseline();
    json_t *list = json_object_get(rec, "instructions");
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    unsigned char *seen = calloc(ncat, 1);
    size_t i;
    json_t *r;
    json_array_foreach(list, i, r) {
        const tc_instr *ins = tc_instr_by_name(json_string_value(json_object_get(r, "instr")));
        assert_non_null(ins);
        assert_int_equal(seen[ins - cat]++, 0);
        double peak = tc_timing_peak_fma_per_clk(ins);
        assert_true(fabs(json_number_value(json_object_get(r, "peak_fma_per_clk_per_sm")) - peak) < 1e-9 * peak);
        size_t a, b;
        json_t *row, *v;
        size_t points = 0; /* null: a point not run (that occupancy not reached) */
        json_array_foreach(json_object_get(json_object_get(r, "table"), "fma_per_clk_per_sm"), a, row)
            json_array_foreach(row, b, v) if (!json_is_null(v)) {
                assert_true(json_number_value(v) > 0 && json_number_value(v) <= peak);
                points++;
            }
        assert_true(points > 0);
        double sum = 0, lat = json_number_value(json_object_get(r, "latency_cycles"));
        json_t *runs = json_object_get(r, "latency_cycles_runs");
        json_array_foreach(runs, a, v) sum += json_number_value(v);
        assert_true(lat > 0 && fabs(lat - sum / (double)json_array_size(runs)) <= 1.0);
    }
    for (size_t k = 0; k < ncat; k++)
        if (!seen[k])
            fail_msg("%s: not in the bench record", cat[k].name);
    free(seen);
    /* doc/findings.md, to its rounding */
    json_t *types = json_object_get(rec, "wgmma_type_best");
    const char *key;
    json_t *tb;
    json_object_foreach(types, key, tb) {
        double f = json_number_value(json_object_get(tb, "fraction_of_peak"));
        assert_true(f >= 0.9935 && f < 0.9985);
    }
    assert_true(fabs(latency_of(list, "wgmma.m64n256k16.f32.f16.f16") - 201) < 0.5);
    assert_true(fabs(latency_of(list, "wgmma.m64n8k16.f32.f16.f16") - 77) < 0.5);
    static const int wn[] = {8, 16, 32, 64, 128, 256};
    for (size_t k = 1; k < 6; k++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "wgmma.m64n%dk16.f32.f16.f16", wn[k - 1]);
        snprintf(b, sizeof b, "wgmma.m64n%dk16.f32.f16.f16", wn[k]);
        assert_true(latency_of(list, a) < latency_of(list, b));
    }
    static const char *const k16[] = {"mma.m16n8k16.f16.f16.f16.f16", "mma.m16n8k16.f32.f16.f16.f32",
                                      "mma.m16n8k16.f32.bf16.bf16.f32"};
    for (size_t k = 0; k < 3; k++)
        assert_true(fabs(frac_of(list, k16[k]) - 0.66) < 0.005);
    static const char *const fp8[] = {"e4m3", "e5m2"};
    for (size_t x = 0; x < 2; x++)
        for (size_t y = 0; y < 2; y++)
            for (int d = 0; d < 2; d++) {
                char name[64];
                snprintf(name, sizeof name, "mma.m16n8k32.%s.%s.%s.%s", d ? "f16" : "f32", fp8[x], fp8[y],
                         d ? "f16" : "f32");
                double f = frac_of(list, name);
                assert_true(f >= 0.205 && f < 0.275);
            }
    json_decref(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_peak_table_follows_input_type_and_sparsity),
        cmocka_unit_test(test_throttle_names),
        cmocka_unit_test(test_nvml_absent_is_unknown_not_failure),
        cmocka_unit_test(test_bench_without_gpu),
        cmocka_unit_test(test_bench_times_a_list),
        cmocka_unit_test(test_bench_bad_input),
        cmocka_unit_test(test_baseline_names_its_machine),
        cmocka_unit_test(test_baseline_timings_keep_their_promises),
        cmocka_unit_test(test_baseline_is_physical_and_backs_the_readme),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
