/* tcscope formats / convert on the command line: output, JSON, and a
 * one-line error with exit status 2 for every bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "formats/formats.h"
#include "tests/testutil.h"

/* Exit 2, nothing on stdout, one line on stderr naming the problem. */
static void expect_usage_error(const char *args, const char *input, const char *want)
{
    tc_run_result r = tc_run_cli_stdin(args, input);
    if (r.status != 2 || !strstr(r.err, want))
        fail_msg("tcscope %s: status %d, stderr '%s' (wanted '%s')", args, r.status, r.err, want);
    const char *nl = strchr(r.err, '\n');
    assert_true(nl && nl[1] == '\0');   /* exactly one line */
    tc_run_result_free(&r);
}

static void bad_inputs_exit_two_with_one_line(void **state)
{
    expect_usage_error("convert --to e4m3 0x1p", NULL, "bad hex float '0x1p': missing exponent digits");
    expect_usage_error("convert --to e4m3 bits:0x1ff", NULL, "wider than e4m3's 8 bits");
    expect_usage_error("convert --to f16 1e+", NULL, "bad decimal '1e+': missing exponent digits");
    expect_usage_error("convert --to f17 1", NULL, "unknown format 'f17'");
    expect_usage_error("convert --to f16 --round rq 1", NULL, "unknown rounding mode 'rq'");
    expect_usage_error("convert --to f16 --ovf wrap 1", NULL, "unknown overflow mode 'wrap'");
    expect_usage_error("convert --to f16", "1\n\n2\n", "empty line 2");
    expect_usage_error("convert --to f16 -", "1.5\nzz\n", "bad value 'zz'");
    expect_usage_error("convert 1", NULL, "missing --to");
    expect_usage_error("convert --to", NULL, "needs a value");
    expect_usage_error("convert --to f16 --frob 1", NULL, "unknown option '--frob'");
    expect_usage_error("convert --to f16 --rbits -1 1", NULL, "bad --rbits");
    expect_usage_error("formats --bogus", NULL, "unknown option '--bogus'");
}

/* JSON: one object per value, bits as "0x..", values as hex floats, and
 * the fields agree with the library on the same input. */
static void convert_json_matches_library(void **state)
{
    tc_run_result r = tc_run_cli("convert --to e4m3 --round rz --sat --json 0.1 -500 bits:0x38 nan");
    assert_int_equal(r.status, 0);
    const char *want_in[] = {"0.1", "-500", "bits:0x38", "nan"};
    char *line = r.out;
    for (int k = 0; k < 4; k++) {
        char *nl = strchr(line, '\n');
        assert_non_null(nl);
        *nl = '\0';
        json_error_t e;
        json_t *o = json_loads(line, 0, &e);
        assert_non_null(o);
        assert_string_equal(json_string_value(json_object_get(o, "input")), want_in[k]);
        assert_string_equal(json_string_value(json_object_get(o, "format")), "e4m3");
        assert_string_equal(json_string_value(json_object_get(o, "round")), "rz");
        assert_string_equal(json_string_value(json_object_get(o, "overflow")), "sat");
        const char *bits = json_string_value(json_object_get(o, "bits"));
        assert_true(bits && !strncmp(bits, "0x", 2));
        uint64_t b = strtoull(bits, NULL, 16);
        tc_rounding rr = {.mode = TC_RZ, .ovf = TC_OVF_SAT};
        uint64_t want = k == 0 ? tc_encode_f64(&tc_e4m3, 0.1, rr)
                        : k == 1 ? tc_encode_f64(&tc_e4m3, -500.0, rr)
                        : k == 2 ? 0x38 : tc_e4m3.nan_bits;
        assert_int_equal(b, want);
        char hex[64];
        tc_value_to_hex(tc_decode(&tc_e4m3, b, false), hex, sizeof hex);
        assert_string_equal(json_string_value(json_object_get(o, "value")), hex);
        json_decref(o);
        line = nl + 1;
    }
    tc_run_result_free(&r);
}

static void convert_reads_stdin_and_prints_exact_values(void **state)
{
    tc_run_result r = tc_run_cli_stdin("convert --to f32", "1e-45\n-0x1.8p-9\n");
    assert_int_equal(r.status, 0);
    /* 1e-45 rounds to the smallest subnormal, printed exactly in decimal. */
    assert_non_null(strstr(r.out, "bits 0x00000001 = 0x1p-149 = 1.40129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125e-45"));
    assert_non_null(strstr(r.out, "-0x1.8p-9 -> f32 rne/inf: bits 0xbb400000"));
    tc_run_result_free(&r);
}

static void formats_json_lists_every_format(void **state)
{
    tc_run_result r = tc_run_cli("formats --json");
    assert_int_equal(r.status, 0);
    size_t n;
    const tc_format *const *list = tc_format_list(&n);
    size_t lines = 0;
    for (char *p = r.out; (p = strchr(p, '\n')); p++)
        lines++;
    assert_int_equal(lines, n);
    for (size_t i = 0; i < n; i++) {
        char key[64];
        snprintf(key, sizeof key, "{\"name\":\"%s\"", list[i]->name);
        assert_non_null(strstr(r.out, key));
    }
    char mx[64];
    tc_value_to_hex(tc_format_max(&tc_e4m3), mx, sizeof mx);
    char want[96];
    snprintf(want, sizeof want, "\"max\":\"%s\"", mx);
    assert_non_null(strstr(r.out, want));
    tc_run_result_free(&r);
    r = tc_run_cli("formats");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "e4m3"));
    assert_non_null(strstr(r.out, "tf32"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_inputs_exit_two_with_one_line),
        cmocka_unit_test(convert_json_matches_library),
        cmocka_unit_test(convert_reads_stdin_and_prints_exact_values),
        cmocka_unit_test(formats_json_lists_every_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
