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
#include "tests/record_out.h"
#include "tests/testutil.h"

#define REC "tests/data/records/"
#define FILES "--sweep " REC "synthetic-model-sweep.json --sweep " REC "exact-f64-sweep.json "
#define BENCH "--bench " REC "synthetic-bench.json "

/* Runs choose --json and returns the objects of the record it printed
 * (recorded_choice objects), or none when it failed as wanted. */
static json_t *choose(const char *args, int want_status)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "choose --json %s", args);
    tc_run_result r = tc_run_cli(cmd);
    if (r.status != want_status)
        fail_msg("choose %s: status %d, stderr %s", args, r.status, r.err);
    json_t *out = r.status == 0 ? tc_out_objects(r.out, cmd, "recorded_choice") : json_array();
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
    json_t *res = choose(FILES BENCH " --max-rel-err 1e300", 0), *bench = load_objects(REC "synthetic-bench.json", "bench");
    json_t *sweeps = all_sweeps();
    /* With a bound every sweep meets, every sweep with a bench figure is ranked, fastest first. */
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
    snprintf(args, sizeof args, FILES "--bench %s --max-rel-err 1e300", path);
    json_t *res = choose(args, 0), *orig = choose(FILES BENCH "--max-rel-err 1e300", 0);
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
        {FILES "--metric mean", "bad --metric 'mean'"},
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

/* ---- application mode ------------------------------------------------------
 * Small workloads (8 x 8 sampled outputs) so the ASan build stays quick; the
 * figures are compared with each other and with facts derived here, never
 * with numbers typed in from a run. */
#define APP "choose --json --m 64 --n 64 --outputs 8 --backend model:h100 --no-library "   /* instruction chains ranked (test_choose_lib: library paths) */

/* Runs an application-mode choose; checks its output is a valid
 * tcscope-record/1 (loaded back through the record reader) and returns its
 * choice objects. */
static json_t *app_choose(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, APP "%s", args);
    tc_run_result r = tc_run_cli(cmd);
    if (r.status != 0)
        fail_msg("%s: status %d, stderr %s", cmd, r.status, r.err);
    char path[] = "/tmp/tcs-choiceXXXXXX";
    int fd = mkstemp(path);
    assert_true(write(fd, r.out, strlen(r.out)) == (ssize_t)strlen(r.out));
    close(fd);
    tc_record rec;
    char err[256];
    if (tc_record_load(path, &rec, err, sizeof err))
        fail_msg("%s: not a valid record: %s", cmd, err);
    unlink(path);
    assert_string_equal(tc_record_header_kind(rec.header), "choice");
    json_t *o = tc_record_objects_of(&rec, "choice"), *copy = json_deep_copy(o);
    json_decref(o);
    tc_record_free(&rec);
    tc_run_result_free(&r);
    assert_true(json_array_size(copy) > 0);
    return copy;
}

static const json_t *choice_for(const json_t *res, const char *instr, const char *strategy)
{
    size_t i;
    json_t *c;
    json_array_foreach(res, i, c) if (!strcmp(json_string_value(json_object_get(c, "instr")), instr) &&
                                      !strcmp(json_string_value(json_object_get(c, "strategy")), strategy)) return c;
    fail_msg("no choice for %s %s", instr, strategy);
    return NULL;
}

static double num(const json_t *c, const char *field)
{
    return tc_json_number(json_object_get(c, field));
}

/* Writes n float32 values as a raw file; returns the path (static buffer per call site). */
static void write_raw(char *path, const float *v, size_t n)
{
    int fd = mkstemp(path);
    assert_true(write(fd, v, n * sizeof *v) == (ssize_t)(n * sizeof *v));
    close(fd);
}

/* A .npy file: version 1, the header text given, then the data bytes. */
static void write_npy(char *path, const char *header, const void *data, size_t n)
{
    int fd = mkstemp(path);
    unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0};
    size_t hl = strlen(header);
    pre[8] = (unsigned char)(hl & 0xff);
    pre[9] = (unsigned char)(hl >> 8);
    assert_true(write(fd, pre, 10) == 10);
    assert_true(write(fd, header, hl) == (ssize_t)hl);
    if (n)
        assert_true(write(fd, data, n) == (ssize_t)n);
    close(fd);
}

#define E4M3_CHAIN "mma.m16n8k32.f32.e4m3.e4m3.f32"

static void quantization_of_the_inputs_is_counted(void **state)
{
    /* Values exactly representable in e4m3 (3 fraction bits) and values that
     * are not (1.1 = 1.0001100..b, 0.3, 1.7: rounding moves each by up to
     * 2^-4 relative). With K = 64 every partial sum of products of the first
     * set is a multiple of 2^-4 below 2^8 (each |product| <= 2.25): exact in
     * an FP32 accumulator, so the e4m3 chain is exact against the original. */
    static const float exact[] = {1, -1, 0.5f, -0.5f, 0.75f, -0.75f, 1.5f, -1.5f};
    static const float inexact[] = {1.1f, -1.1f, 0.3f, -0.3f, 1.7f, -1.7f, 0.9f, -0.9f};
    char pe[] = "/tmp/tcs-exactXXXXXX", pi[] = "/tmp/tcs-inexactXXXXXX";
    write_raw(pe, exact, 8);
    write_raw(pi, inexact, 8);
    char args[512];
    snprintf(args, sizeof args, "--k 64 --metric median --samples-file %s", pe);
    json_t *re = app_choose(args);
    snprintf(args, sizeof args, "--k 64 --metric median --samples-file %s", pi);
    json_t *ri = app_choose(args);
    const json_t *ce = choice_for(re, E4M3_CHAIN, "chained"), *ci = choice_for(ri, E4M3_CHAIN, "chained");
    assert_true(num(ce, "error") == 0);
    assert_true(num(ce, "error_vs_rounded") == 0);
    /* Not representable: the rounding of the inputs shows against the original
     * (e4m3 keeps 3 fraction bits: 1.1 -> 1.125, 0.3 -> 0.3125, ...), while
     * against the rounded inputs the FP32 accumulation alone is far smaller. */
    assert_true(num(ci, "error") > 1e-3);
    assert_true(num(ci, "error") > 100 * num(ci, "error_vs_rounded"));
    unlink(pe);
    unlink(pi);
    json_decref(re);
    json_decref(ri);
    /* Normal data: for every FP8 candidate the error against the original is
     * at least the error against the rounded inputs at every statistic. */
    json_t *rn = app_choose("--k 256");
    size_t i;
    json_t *c;
    int fp8 = 0;
    json_array_foreach(rn, i, c)
    {
        const char *f = json_string_value(json_object_get(c, "format"));
        if (strcmp(f, "e4m3") && strcmp(f, "e5m2"))
            continue;
        fp8++;
        const json_t *o = json_object_get(c, "vs_original"), *r = json_object_get(c, "vs_rounded");
        static const char *const st[] = {"median", "p90", "normwise"};
        for (size_t s = 0; s < 3; s++)
            assert_true(num(o, st[s]) >= num(r, st[s]));
        assert_int_equal(json_integer_value(json_object_get(o, "outputs")), 64);
    }
    assert_true(fp8 >= 4);
    json_decref(rn);
}

static void error_above_one_is_never_recommended(void **state)
{
    /* The max relative error over outputs of normal data: near-cancelling
     * dot products make FP8's exceed 1. Even with a bound of 1e9 no
     * candidate with error > 1 is ranked, and with no bound neither. */
    static const char *const runs[] = {"--k 512 --metric max --max-rel-err 1e9", "--k 512 --metric max"};
    for (size_t r = 0; r < 2; r++) {
        json_t *res = app_choose(runs[r]);
        size_t i, above = 0, ranked = 0;
        json_t *c;
        json_array_foreach(res, i, c)
        {
            double e = num(c, "error");
            if (json_is_integer(json_object_get(c, "rank"))) {
                ranked++;
                assert_true(e <= 1);
            }
            if (e > 1) {
                above++;
                assert_true(json_is_true(json_object_get(c, "excluded")));
                assert_non_null(strstr(json_string_value(json_object_get(c, "reason")), "> 1"));
            }
        }
        assert_true(above > 0);
        assert_true(ranked > 0);
        json_decref(res);
    }
}

/* The Pareto flag, checked against its definition on the output itself:
 * among the candidates that carry it, a front member is dominated by none,
 * any other by at least one (at least as fast and accurate, better in one). */
static void check_pareto(const json_t *res)
{
    size_t i, j, front = 0;
    json_t *c, *o;
    json_array_foreach(res, i, c)
    {
        json_t *p = json_object_get(c, "pareto");
        if (!p)
            continue;
        bool dominated = false;
        json_array_foreach(res, j, o)
        {
            if (j == i || !json_object_get(o, "pareto"))
                continue;
            double t = num(c, "tflops"), e = num(c, "error"), t2 = num(o, "tflops"), e2 = num(o, "error");
            dominated |= t2 >= t && e2 <= e && (t2 > t || e2 < e);
        }
        assert_true(json_is_true(p) == !dominated);
        front += json_is_true(p);
    }
    assert_true(front >= 1);
}

static void ranked_by_throughput_with_a_bound_by_error_without(void **state)
{
    json_t *bench = load_objects(REC "synthetic-bench.json", "bench");
    json_t *res = app_choose("--k 128 --max-rel-err 0.5 --bench " REC "synthetic-bench.json");
    size_t i;
    json_t *c;
    double last = INFINITY;
    json_array_foreach(res, i, c)
    {
        if (!json_is_integer(json_object_get(c, "rank")))
            continue;
        double tf = recorded_tflops(bench, json_string_value(json_object_get(c, "instr")));
        assert_true(tf == num(c, "tflops"));
        assert_true(tf <= last);
        assert_true(num(c, "error") <= 0.5);
        last = tf;
    }
    assert_true(last < INFINITY);
    /* Per API and formats the instruction with a recorded figure stands for
     * its group: m16n8k16 (in the bench record), not m16n8k8 (catalogue-first, no figure). */
    assert_true(recorded_tflops(bench, "mma.m16n8k16.f32.f16.f16.f32") ==
                num(choice_for(res, "mma.m16n8k16.f32.f16.f16.f32", "chained"), "tflops"));
    check_pareto(res);
    json_decref(res);
    /* No bound: listed by error, the smallest first. */
    res = app_choose("--k 128");
    last = -1;
    json_array_foreach(res, i, c) if (json_is_integer(json_object_get(c, "rank")))
    {
        assert_true(num(c, "error") >= last);
        last = num(c, "error");
    }
    json_decref(res);
    json_decref(bench);
}

/* line ("\nRecommended: ...") is one line, the text's last. */
static bool is_last_line(const char *line)
{
    const char *nl = strchr(line + 1, '\n');
    return !nl || nl[1] == '\0';
}

/* Without a bound, recorded sweeps are not ranked by speed (the fastest is
 * the least accurate): by error, the smallest first, and the answer says why
 * nothing is recommended (issue 31, as application mode does). */
static void recorded_without_a_bound_ranks_by_error(void **state)
{
    json_t *res = choose(FILES BENCH, 0);
    size_t i, ranked = 0;
    json_t *c;
    double last = -1;
    json_array_foreach(res, i, c) if (json_is_integer(json_object_get(c, "rank")))
    {
        assert_true(json_number_value(json_object_get(c, "error")) >= last);
        last = json_number_value(json_object_get(c, "error"));
        ranked++;
    }
    assert_true(ranked >= 5);
    json_decref(res);
    tc_run_result r = tc_run_cli("choose " FILES BENCH);
    assert_int_equal(r.status, 0);
    const char *line = strstr(r.out, "\nRecommended: none yet, because no --max-rel-err was given");
    assert_non_null(line);
    assert_true(is_last_line(line));
    /* depth 1 (the default): an FP8 error of 0 is explained, not left to read as the most accurate format */
    assert_non_null(strstr(r.out, "(at depth 1 the error is the arithmetic's alone"));
    tc_run_result_free(&r);
    r = tc_run_cli("choose " FILES BENCH " --max-rel-err 50%");
    assert_int_equal(r.status, 0);
    line = strstr(r.out, "\nRecommended: ");
    assert_non_null(line);
    assert_non_null(strstr(line, "because it is the fastest meeting p90 <= 0.5"));
    assert_true(is_last_line(line));
    tc_run_result_free(&r);
}

/* Application mode ends with one line that answers; tcscope's own kernels are
 * references, never ranked or recommended; the HTML report has no "?" (a
 * missing field once printed as "?" and made every candidate a library path). */
static void application_answers_in_one_line(void **state)
{
    const char *cmd = "choose --m 256 --n 256 --k 256 --outputs 8 --backend model:h100 --max-rel-err 1%";
    tc_run_result r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    const char *line = strstr(r.out, "\nRecommended: ");
    if (!line)
        fail_msg("%s: no Recommended line:\n%s", cmd, r.out);
    assert_true(is_last_line(line));
    assert_non_null(strstr(line, " because "));
    assert_null(strstr(line, "tcscope-wgmma"));
    assert_non_null(strstr(r.out, "\ntcscope's own kernels, for reference"));
    assert_non_null(strstr(r.out, "\nref  tcscope-wgmma tcscope-wgmma-f16"));
    tc_run_result_free(&r);
    const char *jcmd = "choose --json --m 256 --n 256 --k 256 --outputs 8 --backend model:h100 --max-rel-err 1%";
    r = tc_run_cli(jcmd);
    assert_int_equal(r.status, 0);
    json_t *res = tc_out_objects(r.out, jcmd, "choice");
    tc_run_result_free(&r);
    size_t i, refs = 0;
    json_t *c;
    json_array_foreach(res, i, c)
    {
        const char *cand = json_string_value(json_object_get(c, "candidate"));
        if (cand && strstr(cand, "tcscope-wgmma")) {
            assert_true(json_is_true(json_object_get(c, "reference")));
            assert_true(json_is_null(json_object_get(c, "rank")));
            assert_null(json_object_get(c, "pareto"));
            refs++;
        }
    }
    assert_int_equal(refs, 2);
    json_decref(res);
    /* no bound: nothing recommended, the reason said */
    r = tc_run_cli("choose --m 256 --n 256 --k 256 --outputs 8 --backend model:h100");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\nRecommended: none yet, because no --max-rel-err was given"));
    tc_run_result_free(&r);
    /* the HTML report */
    char dir[] = "/tmp/tcs-choose-htmlXXXXXX", html[64], run[256];
    assert_non_null(mkdtemp(dir));
    snprintf(run, sizeof run, "%s --report %s/r --sweep-k 16,64", cmd, dir);
    r = tc_run_cli(run);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    snprintf(html, sizeof html, "%s/r/choose.html", dir);
    char *text = tc_slurp(html);
    assert_true(strlen(text) > 1000);
    const char *q = strchr(text, '?');
    if (q)
        fail_msg("choose.html has a '?': ...%.80s...", q > text + 40 ? q - 40 : text);
    assert_non_null(strstr(text, "Recommended: cublaslt"));
    free(text);
    snprintf(run, sizeof run, "rm -rf %s", dir);
    assert_int_equal(system(run), 0);
}

static void dot_length_is_the_one_asked(void **state)
{
    /* The old choose excluded everything at K = 4096 (its records had K = 32):
     * now every candidate is evaluated at K, and f16 accumulation (f16 D fed
     * back as C) loses more over 4096 terms than over 32. */
    json_t *small = app_choose("--k 32"), *big = app_choose("--k 4096");
    size_t i;
    json_t *c;
    json_array_foreach(big, i, c) assert_int_equal(json_integer_value(json_object_get(json_object_get(c, "workload"), "k")), 4096);
    json_array_foreach(small, i, c) assert_int_equal(json_integer_value(json_object_get(json_object_get(c, "workload"), "k")), 32);
    const char *f16acc = "mma.m16n8k16.f16.f16.f16.f16";
    assert_true(num(choice_for(big, f16acc, "chained"), "error_vs_rounded") >
                2 * num(choice_for(small, f16acc, "chained"), "error_vs_rounded"));
    json_decref(small);
    json_decref(big);
}

static void npy_files_read_like_raw_ones(void **state)
{
    /* The same values as raw float32, as .npy float32 (2-D, C order) and as
     * .npy float64: the same draws, so the same errors. */
    float v[12];
    double w[12];
    for (int i = 0; i < 12; i++)
        v[i] = (float)(i - 5.5) / 3, w[i] = v[i];
    char raw[] = "/tmp/tcs-rawXXXXXX", f4[] = "/tmp/tcs-f4XXXXXX", f8[] = "/tmp/tcs-f8XXXXXX";
    write_raw(raw, v, 12);
    write_npy(f4, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }          \n", v, sizeof v);
    write_npy(f8, "{'descr': '<f8', 'fortran_order': True, 'shape': (12,), }\n", w, sizeof w);
    const char *paths[] = {raw, f4, f8};
    json_t *res[3];
    for (int i = 0; i < 3; i++) {
        char args[256];
        snprintf(args, sizeof args, "--k 64 --samples-file %s", paths[i]);
        res[i] = app_choose(args);
        unlink(paths[i]);
    }
    for (int i = 1; i < 3; i++) {
        assert_int_equal(json_array_size(res[i]), json_array_size(res[0]));
        for (size_t j = 0; j < json_array_size(res[0]); j++)
            assert_true(num(json_array_get(res[i], j), "error") == num(json_array_get(res[0], j), "error"));
    }
    for (int i = 0; i < 3; i++)
        json_decref(res[i]);
}

static void hostile_sample_files_exit_two(void **state)
{
    float one = 1, nan = NAN;
    static const struct {
        const char *header;   /* NULL: raw bytes below */
        const char *bytes;
        size_t nbytes, ndata;
        const char *msg;
    } bad[] = {
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }\n", NULL, 0, 4, "not little-endian float32"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }\n", NULL, 0, 4, "not little-endian float32"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }\n", NULL, 0, 4, "the file holds 4 data bytes"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }\n", NULL, 0, 0, "empty"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }\n", NULL, 0, 4, "too large"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }\n", NULL, 0, 4, "too large"},
        {"{'descr': '<f4', 'fortran_order': maybe, 'shape': (1,), }\n", NULL, 0, 4, "fortran_order"},
        {"{'descr': '<f4', 'shape': (1,), }\n", NULL, 0, 4, "lacks"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': 1, }\n", NULL, 0, 4, "no shape tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,x), }\n", NULL, 0, 4, "bad shape"},
        {NULL, "\x93NUMPY\x01\x00\xff\xff{}", 12, 0, "runs past the file"},
        {NULL, "\x93NUMPY\x09\x00\x10\x00", 10, 0, "unsupported .npy version"},
        {NULL, "\x93NUMPY\x01", 7, 0, "truncated"},
        {NULL, "\x93NUMPY\x01\x00\x04\x00{\0}\n", 14, 0, "NUL byte"},
        {NULL, "abcde", 5, 0, "not a whole number of float32"},
        {NULL, "", 0, 0, "not a whole number of float32"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char path[] = "/tmp/tcs-badXXXXXX";
        if (bad[i].header)
            write_npy(path, bad[i].header, &one, bad[i].ndata);
        else {
            int fd = mkstemp(path);
            if (bad[i].nbytes)
                assert_true(write(fd, bad[i].bytes, bad[i].nbytes) == (ssize_t)bad[i].nbytes);
            close(fd);
        }
        char cmd[512];
        snprintf(cmd, sizeof cmd, "choose --m 64 --n 64 --k 32 --samples-file %s", path);
        tc_run_result r = tc_run_cli(cmd);
        if (r.status != 2 || !strstr(r.err, bad[i].msg))
            fail_msg("case %zu: status %d, stderr '%s' (want '%s')", i, r.status, r.err, bad[i].msg);
        tc_run_result_free(&r);
        unlink(path);
    }
    /* A NaN among the values, and a file that does not exist. */
    char path[] = "/tmp/tcs-nanXXXXXX";
    float vals[2] = {one, nan};
    write_raw(path, vals, 2);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "choose --m 64 --n 64 --k 32 --samples-file %s", path);
    tc_run_result r = tc_run_cli(cmd);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "not finite"));
    tc_run_result_free(&r);
    unlink(path);
    static const char *const usage[][2] = {
        {"choose --m 64 --n 64 --k 32 --samples-file /nonexistent.npy", "/nonexistent.npy"},
        {"choose --m 64 --k 32", "needs --m, --n and --k"},
        {"choose --m 64 --n 64 --k 32 --dist normal:0,-1", "bad --dist"},
        {"choose --m 64 --n 64 --k 32 --dist cauchy", "bad --dist"},
        {"choose --m 64 --n 64 --k 32 --scaling block16", "bad --scaling"},
        {"choose --m 64 --n 64 --k 32 --metric mean", "bad --metric"},
        {"choose --m 64 --n 64 --k 2000000", "up to K"},
        {"choose --m 64 --n 64 --k 32 --chain 2", "exclude each other"},
    };
    for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++) {
        r = tc_run_cli(usage[i][0]);
        if (r.status != 2 || !strstr(r.err, usage[i][1]))
            fail_msg("'%s': status %d, stderr '%s'", usage[i][0], r.status, r.err);
        tc_run_result_free(&r);
    }
}

static void scaling_reaches_fp8_only(void **state)
{
    /* lognormal(0, 3): magnitudes from about e^-9 to e^9 within a block of
     * 32, beyond e4m3 unscaled (max 448, subnormals below 2^-6) in both
     * directions. Per-block E8M0 scales bring each block into range, so the
     * e4m3 error falls; f16 inputs are never scaled, so their figures do not
     * move at all. */
    json_t *none = app_choose("--k 256 --metric median --dist lognormal:0,3 --scaling none");
    json_t *blk = app_choose("--k 256 --metric median --dist lognormal:0,3 --scaling block32");
    const json_t *en = choice_for(none, E4M3_CHAIN, "chained"), *eb = choice_for(blk, E4M3_CHAIN, "fp32-promote-32");
    assert_string_equal(json_string_value(json_object_get(json_object_get(eb, "workload"), "scaling")), "block32");
    assert_string_equal(json_string_value(json_object_get(json_object_get(eb, "workload"), "scale_format")), "e8m0");
    assert_true(num(eb, "error") * 4 < num(en, "error"));
    const char *f16 = "mma.m16n8k16.f32.f16.f16.f32";
    assert_true(num(choice_for(none, f16, "chained"), "error") == num(choice_for(blk, f16, "chained"), "error"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(choice_for(blk, f16, "chained"), "workload"),
                                                           "scaling")), "none");
    json_decref(none);
    json_decref(blk);
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
        cmocka_unit_test(quantization_of_the_inputs_is_counted),
        cmocka_unit_test(error_above_one_is_never_recommended),
        cmocka_unit_test(ranked_by_throughput_with_a_bound_by_error_without),
        cmocka_unit_test(dot_length_is_the_one_asked),
        cmocka_unit_test(npy_files_read_like_raw_ones),
        cmocka_unit_test(hostile_sample_files_exit_two),
        cmocka_unit_test(scaling_reaches_fp8_only),
        cmocka_unit_test(recorded_without_a_bound_ranks_by_error),
        cmocka_unit_test(application_answers_in_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
