/* tcscope choose: the ranking follows the recorded data. The records in
 * tests/data/records/ are test data (sweeps by our own code on the model
 * backend with a synthetic profile and on the exact backend; a bench record
 * with made-up round numbers), not GPU data. Expected answers are computed
 * here from those files, never typed in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "reports/reports.h"
#include "tests/testutil.h"

#define REC "tests/data/records/"
#define FILES "--sweep " REC "synthetic-model-sweep.json --sweep " REC "exact-f64-sweep.json "
#define BENCH "--bench " REC "synthetic-bench.json "

/* Runs choose --json and returns its lines as an array of objects. */
static json_t *choose(const char *args, int want_status)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "choose --json %s", args);
    tc_run_result r = tc_run_cli(cmd);
    if (r.status != want_status)
        fail_msg("choose %s: status %d, stderr %s", args, r.status, r.err);
    json_t *out = json_array();
    for (char *save = NULL, *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_t *o = json_loads(line, 0, NULL);
        assert_non_null(o);
        json_array_append_new(out, o);
    }
    tc_run_result_free(&r);
    return out;
}

static json_t *load_objects(const char *path, const char *kind)
{
    tc_record r;
    char err[256];
    if (tc_record_load(path, &r, err, sizeof err))
        fail_msg("%s", err);
    json_t *o = tc_record_objects_of(&r, kind);
    json_t *copy = json_deep_copy(o);
    json_decref(o);
    tc_record_free(&r);
    return copy;
}

static double recorded_tflops(const json_t *bench, const char *instr)
{
    size_t i;
    json_t *b;
    json_array_foreach(bench, i, b) if (!strcmp(json_string_value(json_object_get(b, "instr")), instr)) return
        json_number_value(json_object_get(b, "tflops"));
    return NAN;
}

/* Every sweep object of both files, in file order. */
static json_t *all_sweeps(void)
{
    json_t *a = load_objects(REC "synthetic-model-sweep.json", "sweep");
    json_t *b = load_objects(REC "exact-f64-sweep.json", "sweep");
    json_array_extend(a, b);
    json_decref(b);
    return a;
}

static double p90_at(const json_t *sweep, int depth)
{
    return json_number_value(json_object_get(json_array_get(json_object_get(sweep, "steps"), (size_t)depth - 1), "p90"));
}

static const json_t *entry_for(const json_t *res, const char *fmt)
{
    size_t i;
    json_t *c;
    json_array_foreach(res, i, c) if (!strcmp(json_string_value(json_object_get(c, "format")), fmt)) return c;
    fail_msg("no entry for %s", fmt);
    return NULL;
}

static void ranking_follows_recorded_throughput(void **state)
{
    json_t *res = choose(FILES BENCH, 0), *bench = load_objects(REC "synthetic-bench.json", "bench");
    json_t *sweeps = all_sweeps();
    /* Without constraints every sweep with a bench figure is ranked, fastest first. */
    size_t ranked = 0, i;
    json_t *c, *s;
    double last = INFINITY;
    json_array_foreach(res, i, c)
    {
        if (!json_is_integer(json_object_get(c, "rank")))
            continue;
        ranked++;
        assert_int_equal(json_integer_value(json_object_get(c, "rank")), (json_int_t)ranked);
        double tf = recorded_tflops(bench, json_string_value(json_object_get(c, "instr")));
        assert_true(tf == json_number_value(json_object_get(c, "tflops")));
        assert_true(tf <= last);
        last = tf;
    }
    size_t expect = 0;
    json_array_foreach(sweeps, i, s) expect += !isnan(recorded_tflops(bench, json_string_value(json_object_get(s, "instr"))));
    assert_int_equal(ranked, expect);
    assert_true(ranked >= 5);
    /* f32 (host baseline) has no bench figure: listed, not ranked. */
    assert_true(json_is_null(json_object_get(entry_for(res, "f32"), "rank")));
    json_decref(res);
    json_decref(bench);
    json_decref(sweeps);
}

static void error_tolerance_splits_by_recorded_error(void **state)
{
    json_t *sweeps = all_sweeps();
    /* A tolerance between the recorded p90 errors of f16 and bf16 at depth 10. */
    double ef16 = p90_at(entry_for(sweeps, "f16"), 10), ebf16 = p90_at(entry_for(sweeps, "bf16"), 10);
    assert_true(ef16 < ebf16);
    double tol = sqrt(ef16 * ebf16);
    char args[512];
    snprintf(args, sizeof args, FILES BENCH "--chain 10 --max-rel-err %.17g", tol);
    json_t *res = choose(args, 0);
    size_t i;
    json_t *s;
    json_array_foreach(sweeps, i, s)
    {
        const char *fmt = json_string_value(json_object_get(s, "format"));
        const json_t *c = entry_for(res, fmt);
        double e = p90_at(s, 10);
        assert_true(json_number_value(json_object_get(c, "error")) == e);
        if (e > tol) {
            assert_true(json_is_true(json_object_get(c, "excluded")));
            assert_non_null(strstr(json_string_value(json_object_get(c, "reason")), "p90 relative error"));
        } else
            assert_null(json_object_get(c, "excluded"));
    }
    json_decref(res);
    json_decref(sweeps);
}

static void swapped_throughput_swaps_the_ranking(void **state)
{
    /* A copy of the bench record with f16's and bf16's TFLOP/s exchanged. */
    char *text = tc_slurp(REC "synthetic-bench.json");
    json_t *bench = load_objects(REC "synthetic-bench.json", "bench");
    double f16 = recorded_tflops(bench, "mma.m16n8k16.f32.f16.f16.f32");
    double bf16 = recorded_tflops(bench, "mma.m16n8k16.f32.bf16.bf16.f32");
    assert_true(f16 > bf16);
    char path[] = "/tmp/tcs-benchXXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_t *o = json_loads(line, 0, NULL);
        const char *in = json_string_value(json_object_get(o, "instr"));
        if (in && !strcmp(in, "mma.m16n8k16.f32.f16.f16.f32"))
            json_object_set_new(o, "tflops", json_real(bf16));
        else if (in && !strcmp(in, "mma.m16n8k16.f32.bf16.bf16.f32"))
            json_object_set_new(o, "tflops", json_real(f16));
        char *s = json_dumps(o, JSON_COMPACT);
        fprintf(f, "%s\n", s);
        free(s);
        json_decref(o);
    }
    fclose(f);
    char args[512];
    snprintf(args, sizeof args, FILES "--bench %s", path);
    json_t *res = choose(args, 0), *orig = choose(FILES BENCH, 0);
    json_int_t r16 = json_integer_value(json_object_get(entry_for(res, "f16"), "rank"));
    json_int_t rb16 = json_integer_value(json_object_get(entry_for(res, "bf16"), "rank"));
    json_int_t o16 = json_integer_value(json_object_get(entry_for(orig, "f16"), "rank"));
    json_int_t ob16 = json_integer_value(json_object_get(entry_for(orig, "bf16"), "rank"));
    assert_true(o16 < ob16);
    assert_int_equal(r16, ob16);
    assert_int_equal(rb16, o16);
    unlink(path);
    free(text);
    json_decref(res);
    json_decref(orig);
    json_decref(bench);
}

static void inf_nan_and_range_exclude_by_format_facts(void **state)
{
    json_t *res = choose(FILES BENCH "--need-inf-nan", 0);
    assert_non_null(strstr(json_string_value(json_object_get(entry_for(res, "e4m3"), "reason")), "e4m3 has no Inf"));
    assert_null(json_object_get(entry_for(res, "e5m2"), "excluded"));
    json_decref(res);
    /* 2^60 of dynamic range: beyond FP8 even scaled, beyond f16's normal range
     * unscaled; bf16, tf32, f32, f64 hold it. */
    res = choose(FILES BENCH "--range 1e-9:1e9", 0);
    static const char *const out[] = {"e4m3", "e5m2", "f16"}, *const in[] = {"bf16", "tf32", "f32", "f64"};
    for (size_t i = 0; i < 3; i++)
        assert_non_null(strstr(json_string_value(json_object_get(entry_for(res, out[i]), "reason")), "range"));
    for (size_t i = 0; i < 4; i++)
        assert_null(json_object_get(entry_for(res, in[i]), "excluded"));
    json_decref(res);
}

static void depth_and_dot_length_beyond_the_record_are_excluded(void **state)
{
    json_t *res = choose(FILES BENCH "--chain 21", 0);
    size_t i;
    json_t *c;
    json_array_foreach(res, i, c)
    {
        assert_true(json_is_true(json_object_get(c, "excluded")));
        assert_non_null(strstr(json_string_value(json_object_get(c, "reason")), "depth 21 not measured"));
    }
    json_decref(res);
    res = choose(FILES BENCH "--k 16", 0);
    assert_non_null(strstr(json_string_value(json_object_get(entry_for(res, "tf32"), "reason")), "dot length 8 < K = 16"));
    assert_null(json_object_get(entry_for(res, "f16"), "excluded"));
    json_decref(res);
}

static void bad_input_exits_two(void **state)
{
    static const char *const bad[][2] = {
        {"--sweep /nonexistent.json", "/nonexistent.json"},
        {FILES "--max-rel-err -1", "bad --max-rel-err '-1'"},
        {FILES "--range 5:1", "bad --range '5:1'"},
        {FILES "--chain 0", "bad --chain '0'"},
        {FILES "--stat mean", "bad --stat 'mean'"},
        {"--sweep " REC "synthetic-bench.json", "no sweep object"},
        {FILES "--frob", "unknown option '--frob'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "choose %s", bad[i][0]);
        tc_run_result r = tc_run_cli(cmd);
        if (r.status != 2 || !strstr(r.err, bad[i][1]))
            fail_msg("'%s': status %d, stderr '%s'", cmd, r.status, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ranking_follows_recorded_throughput),
        cmocka_unit_test(error_tolerance_splits_by_recorded_error),
        cmocka_unit_test(swapped_throughput_swaps_the_ranking),
        cmocka_unit_test(inf_nan_and_range_exclude_by_format_facts),
        cmocka_unit_test(depth_and_dot_length_beyond_the_record_are_excluded),
        cmocka_unit_test(bad_input_exits_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
