/* gemm records (reports/record_gemm.h): what `gemm --json` prints is a
 * tcscope-record/1 (tc_record_parse, the schema checker) whose cases the
 * one gemm reader returns; the same cases written as the older
 * tcscope-gemm lines read back equal (but for the lines' "version"); a
 * record cut before its trailer, with a wrong count, data after the
 * trailer, another kind of object, or a case without its path is refused,
 * one ended "partial" is read with the reason in its header; and
 * --time-limit stops between cases with a whole record that says how many
 * cases were planned. The case writer on hand-filled results, for what a
 * run without a GPU never shows: the timing object, cuBLASLt's algo, a
 * skip, a failed inference and a failed prediction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <math.h>

#include "reports/record_gemm.h"
#include "reports/reports.h"
#include "tests/testutil.h"

#define SIM "gemm --backend model:h100 --m 16 --n 16 --samples 40 --json "

/* What a sim run printed, checked as a record; its cases through the gemm reader. */
static json_t *sim_cases(const char *args, char **text, json_t **header)
{
    tc_run_result u = tc_run_cli(args);
    if (u.status != 0)
        fail_msg("%s: status %d: %s", args, u.status, u.err);
    tc_record rec;
    char err[600];
    if (tc_record_parse(u.out, "gemm --json", &rec, err, sizeof err))
        fail_msg("%s", err);
    assert_string_equal(tc_record_header_kind(rec.header), "gemm");
    json_t *cases = tc_gemm_records_parse(u.out, "gemm --json", header, err, sizeof err);
    if (!cases)
        fail_msg("%s", err);
    assert_int_equal(json_array_size(cases), json_array_size(rec.objects));
    tc_record_free(&rec);
    *text = strdup(u.out);
    tc_run_result_free(&u);
    return cases;
}

static void test_record_and_older_lines_read_alike(void **state)
{
    (void)state;
    char *text, err[600];
    json_t *hdr;
    json_t *cases = sim_cases(SIM "--path f16,e4m3 --k 64", &text, &hdr);
    assert_int_equal(json_array_size(cases), 2);
    assert_int_equal(json_integer_value(json_object_get(hdr, "cases_planned")), 2);
    assert_string_equal(json_string_value(json_object_get(hdr, "library")), "sim");
    /* the same cases as older lines: no kind, "record" and "version" instead */
    size_t cap = 1 << 20, len = 0, i;
    char *lines = calloc(cap, 1);
    json_t *c;
    json_array_foreach(cases, i, c) {
        assert_string_equal(json_string_value(json_object_get(c, "kind")), "gemm");
        json_t *line = json_deep_copy(c);
        json_object_del(line, "kind");
        json_object_set_new(line, "record", json_string("tcscope-gemm"));
        json_object_set_new(line, "version", json_integer(2));
        char *s = json_dumps(line, JSON_COMPACT);
        len += (size_t)snprintf(lines + len, cap - len, "%s\n", s);
        free(s);
        json_decref(line);
    }
    json_t *sentinel = json_object(), *lhdr = sentinel;   /* must be set to NULL: no header */
    json_t *old = tc_gemm_records_parse(lines, "lines", &lhdr, err, sizeof err);
    if (!old)
        fail_msg("%s", err);
    assert_null(lhdr);
    json_decref(sentinel);
    assert_int_equal(json_array_size(old), 2);
    json_array_foreach(old, i, c) {
        assert_null(json_object_get(c, "record"));
        assert_int_equal(json_integer_value(json_object_get(c, "version")), 2);
        json_object_del(c, "version");
        assert_true(json_equal(c, json_array_get(cases, i)));
    }
    json_decref(old), json_decref(cases), json_decref(hdr);
    free(lines), free(text);
}

/* text with its last line (the trailer) replaced by tail (NULL: dropped). */
static char *with_tail(const char *text, const char *tail)
{
    size_t n = strlen(text) - 1;   /* the final newline */
    while (n > 0 && text[n - 1] != '\n')
        n--;
    char *s = calloc(n + (tail ? strlen(tail) : 0) + 2, 1);
    memcpy(s, text, n);
    if (tail)
        strcat(strcat(s, tail), "\n");
    return s;
}

static void expect_refused(const char *text, const char *why)
{
    char err[600] = "";
    json_t *hdr = NULL;
    json_t *c = tc_gemm_records_parse(text, "t", &hdr, err, sizeof err);
    if (c)
        fail_msg("read, want refused (%s)", why);
    assert_null(hdr);
    if (!strstr(err, why))
        fail_msg("message '%s' does not say '%s'", err, why);
}

static void test_cut_partial_and_foreign_records(void **state)
{
    (void)state;
    char *text, err[600];
    json_t *hdr;
    json_t *cases = sim_cases(SIM "--path f16,bf16 --k 32", &text, &hdr);
    json_decref(cases), json_decref(hdr);

    char *s = with_tail(text, NULL);   /* a killed run */
    expect_refused(s, "no trailer");
    free(s);
    s = with_tail(text, "{\"kind\":\"end\",\"objects\":3}");
    expect_refused(s, "the trailer says 3 cases");
    free(s);
    s = with_tail(text, "{\"kind\":\"end\",\"objects\":2}\n{\"kind\":\"end\",\"objects\":2}");
    expect_refused(s, "data after the trailer");
    free(s);
    s = with_tail(text, "{\"kind\":\"sweep\",\"path\":\"f16\",\"k\":32}\n{\"kind\":\"end\",\"objects\":3}");
    expect_refused(s, "another kind");
    free(s);
    s = with_tail(text, "{\"kind\":\"gemm\",\"k\":32}\n{\"kind\":\"end\",\"objects\":3}");
    expect_refused(s, "not a gemm case");
    free(s);
    expect_refused("{\"record\":\"tcscope-sweep\",\"path\":\"f16\",\"k\":32}\n", "neither a gemm record");
    expect_refused("{\"record\":\"tcscope-gemm\",\"k\":32}\n", "without its path and k");
    expect_refused("", "no gemm case");

    /* a run stopped by an error: its finished cases are read, the reason kept */
    s = with_tail(text, "{\"kind\":\"partial\",\"objects\":2,\"stopped\":\"device lost\"}");
    cases = tc_gemm_records_parse(s, "t", &hdr, err, sizeof err);
    if (!cases)
        fail_msg("%s", err);
    assert_int_equal(json_array_size(cases), 2);
    assert_string_equal(json_string_value(json_object_get(hdr, "stopped")), "device lost");
    json_decref(cases), json_decref(hdr);
    free(s), free(text);
}

static const char *str_at(const json_t *o, const char *a, const char *b)
{
    return json_string_value(json_object_get(b ? json_object_get(o, a) : o, b ? b : a));
}

static void test_case_writer_branches(void **state)
{
    (void)state;
    int ii[2] = {0, 5}, jj[2] = {3, 7};
    uint32_t got[2] = {0x3F800000u, 0xBF800000u};
    tc_gemm_case_result r = {.path = tc_gemm_path_by_name("f16"), .c = {.m = 1024, .n = 1024, .k = 1024, .reps = 10,
                             .warmup = 3}, .library = "cublaslt", .ms_median = 2.0, .samples = 2, .nrec = 2,
                             .ii = ii, .jj = jj, .got = got};
    r.algo.reduction_scheme = 1, r.algo.emulation = -1, r.algo.algo_id = 21;
    json_t *o = tc_gemm_case_json(&r);
    json_t *t = json_object_get(o, "timing");
    /* 2 * 1024^3 flops in 2 ms: 2^31 / 2e-3 / 1e12 TFLOP/s */
    assert_true(fabs(json_real_value(json_object_get(t, "tflops")) - 1.073741824) < 1e-12);
    assert_int_equal(json_integer_value(json_object_get(t, "reps")), 10);
    assert_int_equal(json_integer_value(json_object_get(t, "warmup")), 3);
    assert_string_equal(str_at(o, "algo", "reduction_scheme"), "inplace");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "algo"), "algo_id")), 21);
    assert_true(json_is_null(json_object_get(json_object_get(o, "algo"), "emulation_support")));
    assert_string_equal(str_at(o, "outputs", "d_hex"), "3F800000BF800000");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(json_object_get(o, "outputs"), "j"), 1)), 7);
    assert_null(json_object_get(o, "structure"));
    json_decref(o);
    /* An own kernel: no algo, its built structure; reps 0: no timing. */
    r.path = tc_gemm_path_by_name("tcscope-wgmma-f16"), r.c.reps = 0;
    o = tc_gemm_case_json(&r);
    assert_null(json_object_get(o, "algo"));
    assert_null(json_object_get(o, "timing"));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(o, "structure_by_construction"), "chunk")), 16);
    json_decref(o);
    /* A failed inference: the structure says only why; a failed prediction
     * keeps the structure and its tree, without a prediction. */
    r.c.infer = true, r.st.failed = true;
    snprintf(r.st.error, sizeof r.st.error, "no luck");
    o = tc_gemm_case_json(&r);
    assert_string_equal(str_at(o, "structure", "error"), "no luck");
    assert_int_equal(json_object_size(json_object_get(o, "structure")), 1);
    json_decref(o);
    r.st.failed = false, r.st.unpredicted = true, r.st.r.s = (tc_gemm_struct){16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}};
    snprintf(r.st.prediction_error, sizeof r.st.prediction_error, "no model");
    o = tc_gemm_case_json(&r);
    assert_string_equal(str_at(o, "structure", "prediction_error"), "no model");
    assert_non_null(strstr(str_at(o, "structure", "tree_svg"), "<svg"));
    assert_null(json_object_get(json_object_get(o, "structure"), "prediction"));
    json_decref(o);
    /* A skip: the case's facts and why, nothing measured. */
    r.status = 1;
    snprintf(r.err, sizeof r.err, "no algorithm");
    o = tc_gemm_case_json(&r);
    assert_string_equal(str_at(o, "skipped", NULL), "no algorithm");
    assert_null(json_object_get(o, "samples"));
    assert_null(json_object_get(o, "error"));
    json_decref(o);
}

static void test_time_limit_ends_the_record(void **state)
{
    (void)state;
    char *text;
    json_t *hdr;
    /* the first case always runs; any second would end after 1 us */
    json_t *cases = sim_cases(SIM "--path f16,bf16,e4m3 --k 32 --time-limit 1e-6", &text, &hdr);
    assert_int_equal(json_array_size(cases), 1);
    assert_int_equal(json_integer_value(json_object_get(hdr, "cases_planned")), 3);
    assert_true(json_real_value(json_object_get(hdr, "time_limit_s")) == 1e-6);
    json_decref(cases), json_decref(hdr);
    free(text);
    static const char *const bad[] = {"0", "-1", "abc", "nan", "5s"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char cmd[200];
        snprintf(cmd, sizeof cmd, SIM "--path f16 --k 32 --time-limit %s", bad[i]);
        tc_run_result u = tc_run_cli(cmd);
        if (u.status != 2 || !strstr(u.err, "--time-limit"))
            fail_msg("--time-limit %s: status %d (%s), want 2", bad[i], u.status, u.err);
        tc_run_result_free(&u);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_and_older_lines_read_alike),
        cmocka_unit_test(test_cut_partial_and_foreign_records),
        cmocka_unit_test(test_time_limit_ends_the_record),
        cmocka_unit_test(test_case_writer_branches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
