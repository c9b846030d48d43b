/* tcscope formats / convert on the command line: output, JSON, and a
 * one-line error with exit status 2 for every bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "formats/formats.h"
#include "tests/record_out.h"
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

/* JSON: one object per value, bits as "0x..", values as hex floats; the
 * bits and values derived by hand, not by the library (e4m3: bias 7, 3
 * fraction bits, max 0x7e = 1.75 * 2^8 = 448, NaN 0x7f):
 *   0.1  = 1.6 * 2^-4: exponent field -4 + 7 = 3, fraction 0.6 * 8 = 4.8,
 *          toward zero 4 (0b100): 0 0011 100 = 0x1c = 1.5 * 2^-4 = 0x1.8p-4
 *   -500 beyond 448: saturated to -448: 1 1111 110 = 0xfe = -0x1.cp+8
 *   bits:0x38 = 0 0111 000: 2^(7-7) = 1 = 0x1p+0, taken as is
 *   nan  -> 0x7f, the only NaN pattern of e4m3 (either sign: 0x7f first) */
static void convert_json_gives_hand_derived_bits(void **state)
{
    tc_run_result r = tc_run_cli("convert --to e4m3 --round rz --sat --json 0.1 -500 bits:0x38 nan");
    assert_int_equal(r.status, 0);
    static const char *const want_in[] = {"0.1", "-500", "bits:0x38", "nan"};
    static const char *const want_bits[] = {"0x1c", "0xfe", "0x38", "0x7f"};
    static const char *const want_value[] = {"0x1.8p-4", "-0x1.cp+8", "0x1p+0", "nan"};
    json_t *conv = tc_out_objects(r.out, "convert --json", "conversion"); /* a record, one object a value */
    assert_int_equal(json_array_size(conv), 4);
    for (int k = 0; k < 4; k++) {
        json_t *o = json_array_get(conv, k);
        assert_string_equal(json_string_value(json_object_get(o, "input")), want_in[k]);
        assert_string_equal(json_string_value(json_object_get(o, "format")), "e4m3");
        assert_string_equal(json_string_value(json_object_get(o, "round")), "rz");
        assert_string_equal(json_string_value(json_object_get(o, "overflow")), "sat");
        assert_string_equal(json_string_value(json_object_get(o, "bits")), want_bits[k]);
        assert_string_equal(json_string_value(json_object_get(o, "value")), want_value[k]);
    }
    json_decref(conv);
    tc_run_result_free(&r);
}

static void convert_reads_stdin_and_prints_exact_values(void **state)
{
    tc_run_result r = tc_run_cli_stdin("convert --to f32", "1e-45\n-0x1.8p-9\n");
    assert_int_equal(r.status, 0);
    /* 1e-45 rounds to the smallest subnormal, printed exactly in decimal. */
    assert_non_null(strstr(r.out, "1.40129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125e-45 = 0x1p-149   bits 0x00000001"));
    assert_non_null(strstr(r.out, "-0x1.8p-9 -> f32 rne/inf: -0.0029296875 = -0x1.8p-9   bits 0xbb400000"));
    tc_run_result_free(&r);
}

static void formats_json_lists_every_format(void **state)
{
    tc_run_result r = tc_run_cli("formats --json");
    assert_int_equal(r.status, 0);
    size_t n;
    const tc_format *const *list = tc_format_list(&n);
    json_t *fmts = tc_out_objects(r.out, "formats --json", "format"); /* a record, one object a format */
    assert_int_equal(json_array_size(fmts), n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(fmts, i), "name")), list[i]->name);
    json_decref(fmts);
    /* e4m3's max by hand: 0 1111 110 = 1.75 * 2^(15-7) = 448 = 0x1.cp+8 */
    assert_non_null(strstr(r.out, "\"name\":\"e4m3\""));
    assert_non_null(strstr(r.out, "\"max\":\"0x1.cp+8\""));
    tc_run_result_free(&r);
    r = tc_run_cli("formats");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "e4m3"));
    assert_non_null(strstr(r.out, "tf32"));
    tc_run_result_free(&r);
}

/* The flags of one conversion, each expectation derived by hand:
 *   f16: max 65504 = (2 - 2^-10) * 2^15, ulp there 32; e4m3: max 448, no Inf
 *   (overflow without --sat is its NaN 0x7f); e2m1: max 6 = 1.1b * 2^2, 2
 *   bits of precision; s8: -128..127.
 * A finite input overflows when its rounding with the format's precision and
 * an unbounded exponent exceeds max; saturated: a finite result stands for an
 * overflow or an Inf; inexact: the result's value is not the input's. */
static void convert_flags_inexact_overflow_saturated(void **state)
{
    static const struct {
        const char *args, *bits;
        bool inexact, overflow, saturated;
    } t[] = {
        {"--to e4m3 --sat 1e6", "0x7e", true, true, true},        /* beyond 448, clamped to it */
        {"--to e4m3 1e6", "0x7f", true, true, false},             /* no Inf: NaN, not saturated */
        {"--to f16 0.333333333333333333333", "0x3555", true, false, false},   /* 1/3 needs infinite bits */
        {"--to f16 70000", "0x7c00", true, true, false},          /* to Inf */
        {"--to f16 --round rz 70000", "0x7bff", true, true, true},   /* IEEE: RZ overflow gives max */
        {"--to f16 65504", "0x7bff", false, false, false},        /* max itself */
        {"--to f16 65519", "0x7bff", true, false, false},         /* below 65504 + 16: rounds down */
        {"--to f16 65520", "0x7c00", true, true, false},          /* the tie goes to even 2^16 > max */
        {"--to f16 --sat inf", "0x7bff", true, false, true},      /* Inf is no overflow; clamped */
        {"--to f16 -- -inf", "0xfc00", false, false, false},
        {"--to f16 nan", "0x7fff", false, false, false},
        {"--to f16 bits:0x3c01", "0x3c01", false, false, false},   /* bits taken as given */
        {"--to e2m1 7", "0x7", true, true, true},                 /* 1.11b*2^2: tie to even 8 > 6 */
        {"--to e2m1 6.9", "0x7", true, false, false},             /* below the tie: 6 */
        {"--to s8 300", "0x7f", true, true, true},
        {"--to s8 -- -128.5", "0x80", true, false, false},        /* tie to even -128: in range */
        {"--to s8 -- -129", "0x80", true, true, true},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        char args[128];
        snprintf(args, sizeof args, "convert --json %s", t[i].args);
        tc_run_result r = tc_run_cli(args);
        assert_int_equal(r.status, 0);
        json_t *conv = tc_out_objects(r.out, args, "conversion");
        assert_int_equal(json_array_size(conv), 1);
        json_t *o = json_array_get(conv, 0);
        json_t *fl = json_object_get(o, "flags");
        if (!fl || strcmp(json_string_value(json_object_get(o, "bits")), t[i].bits) ||
            json_is_true(json_object_get(fl, "inexact")) != t[i].inexact ||
            json_is_true(json_object_get(fl, "overflow")) != t[i].overflow ||
            json_is_true(json_object_get(fl, "saturated")) != t[i].saturated)
            fail_msg("tcscope %s: %s", args, r.out);
        json_decref(conv);
        tc_run_result_free(&r);
    }
    /* the text says the same */
    tc_run_result r = tc_run_cli("convert --to e4m3 --sat 1e6 448");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "1e6 -> e4m3 rne/sat: 448 = 0x1.cp+8   bits 0x7e"));
    assert_non_null(strstr(r.out, "flags: inexact overflow saturated\n448 -> "));
    assert_non_null(strstr(r.out, "flags: none\n"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_inputs_exit_two_with_one_line),
        cmocka_unit_test(convert_json_gives_hand_derived_bits),
        cmocka_unit_test(convert_reads_stdin_and_prints_exact_values),
        cmocka_unit_test(formats_json_lists_every_format),
        cmocka_unit_test(convert_flags_inexact_overflow_saturated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
