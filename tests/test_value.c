/* oracle/value: the CLI value notation, parsed exactly; every malformed
 * input refused with a message naming the problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include <mpfr.h>

#include "formats/formats.h"
#include "oracle/value.h"
#include "tests/test_formats_ref.h"

static tc_parsed_value parse_ok(const char *text, const tc_format *f)
{
    tc_parsed_value p;
    char err[200];
    if (!tc_value_parse(text, f, &p, err, sizeof err))
        fail_msg("'%s' refused: %s", text, err);
    return p;
}

static void parse_bad(const char *text, const tc_format *f, const char *want)
{
    tc_parsed_value p;
    char err[200] = "";
    if (tc_value_parse(text, f, &p, err, sizeof err))
        fail_msg("'%s' accepted", text);
    if (!strstr(err, want))
        fail_msg("'%s': message '%s' lacks '%s'", text, err, want);
}

/* Hex floats are exact: the parsed value equals what MPFR reads. */
static void hex_floats_are_exact(void **state)
{
    const char *cases[] = {"0x1.8p-9", "-0X.Fp3", "0x1p+0", "0xABCDEF.123p-40", "0x0p0",
                           "0x1.fffffffffffffp1023", "0x1p-1074", "+0x10p-3"};
    mpfr_t a, b;
    mpfr_inits2(256, a, b, (mpfr_ptr)0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_parsed_value p = parse_ok(cases[i], NULL);
        assert_false(p.sticky);
        assert_false(p.is_bits);
        mpfr_strtofr(a, cases[i], NULL, 16, MPFR_RNDN);   /* exact at 256 bits */
        if (p.v.cls == TC_ZERO)
            mpfr_set_zero(b, p.v.sign ? -1 : 1);
        else
            mpfr_set_ui_2exp(b, p.v.sig, p.v.exp, MPFR_RNDN);
        if (p.v.sign)
            mpfr_neg(b, b, MPFR_RNDN);
        if (!mpfr_equal_p(a, b))
            fail_msg("%s parsed wrong", cases[i]);
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
}

/* Decimals: the 64-bit truncation plus a sticky bit, so rounding into any
 * format is the correctly rounded result of the decimal itself. */
static void decimals_round_once(void **state)
{
    const char *cases[] = {"0.1", "1e-30", "65519.99999999999999999", "448", "464",
                           "464.00000000000000000000000001", "-2.5", "3.4028235677973366e38",
                           "1e-45", "0.000000059604644775390625"};
    mpfr_t x, y;
    mpfr_inits2(400, x, y, (mpfr_ptr)0);
    const tc_format *fs[] = {&tc_e4m3, &tc_f16, &tc_bf16, &tc_f32, &tc_e5m2};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t k = 0; k < 5; k++) {
            const tc_format *f = fs[k];
            tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
            uint64_t bits;
            char err[100];
            assert_true(tc_value_parse_to_bits(cases[i], f, r, &bits, err, sizeof err));
            /* Reference: MPFR reads the decimal at 400 bits (far more than
             * these need) and the independent MPFR rounding of
             * test_formats_ref.h rounds it into f. */
            mpfr_strtofr(x, cases[i], NULL, 10, MPFR_RNDN);
            if (!ref_matches(f, x, r, bits))
                fail_msg("'%s' -> %s 0x%llx differs from MPFR", cases[i], f->name,
                         (unsigned long long)bits);
        }
    /* A tie in decimal that is not a tie after truncation would be caught:
     * 464 is exactly the e4m3 midpoint (ties to 448), a hair above is not. */
    uint64_t b1, b2;
    char err[100];
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
    assert_true(tc_value_parse_to_bits("464", &tc_e4m3, r, &b1, err, sizeof err));
    assert_true(tc_value_parse_to_bits("464.00000000000000000000000001", &tc_e4m3,
                                       (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF}, &b2,
                                       err, sizeof err));
    assert_int_not_equal(b1, b2);
    mpfr_clears(x, y, (mpfr_ptr)0);
}

static void specials_and_bits(void **state)
{
    assert_int_equal(parse_ok("inf", NULL).v.cls, TC_INF);
    assert_true(parse_ok("-Infinity", NULL).v.sign);
    assert_int_equal(parse_ok("nan", NULL).v.cls, TC_NAN);
    tc_parsed_value p = parse_ok("bits:0x38", &tc_e4m3);
    assert_true(p.is_bits);
    assert_int_equal(p.bits, 0x38);
    assert_int_equal(parse_ok("bits:0x3f802000", &tc_tf32).bits, 0x3f802000);
    assert_int_equal(parse_ok("-0", NULL).v.cls, TC_ZERO);
    assert_true(parse_ok("-0", NULL).v.sign);
}

static void malformed_values_are_named(void **state)
{
    parse_bad("0x1p", NULL, "missing exponent digits");
    parse_bad("0x1.8", NULL, "missing 'p' exponent");
    parse_bad("0x", NULL, "no hex digits");
    parse_bad("0x1.8p3z", NULL, "unexpected character 'z'");
    parse_bad("0x1..8p3", NULL, "two points");
    parse_bad("1e+", NULL, "missing exponent digits");
    parse_bad("1e", NULL, "missing exponent digits");
    parse_bad("1.2.3", NULL, "unexpected character '.'");
    parse_bad("abc", NULL, "not a number");
    parse_bad("", NULL, "empty");
    parse_bad(" 1", NULL, "not a number");
    parse_bad("1e999999999", NULL, "exponent out of range");
    parse_bad("bits:0x1ff", &tc_e4m3, "wider than e4m3's 8 bits");
    parse_bad("bits:0x38", NULL, "need a format");
    parse_bad("bits:38", &tc_e4m3, "expected bits:0x");
    parse_bad("bits:0x3f801000", &tc_tf32, "low 13 bits unused");
    parse_bad("bits:0x1g", &tc_f16, "unexpected character 'g'");
}

static void decimal_printing_is_exact(void **state)
{
    char buf[400];
    tc_value v = {.cls = TC_FINITE, .sig = 13, .exp = -7};   /* 0.1015625 */
    assert_true(tc_value_to_decimal(v, buf, sizeof buf));
    assert_string_equal(buf, "0.1015625");
    v = (tc_value){.cls = TC_FINITE, .sig = 7, .exp = 6};
    assert_true(tc_value_to_decimal(v, buf, sizeof buf));
    assert_string_equal(buf, "448");
    v = (tc_value){.cls = TC_FINITE, .sig = 1, .exp = -149, .sign = true};
    assert_true(tc_value_to_decimal(v, buf, sizeof buf));
    /* MPFR prints the same digits (the expansion is finite). */
    mpfr_t x;
    mpfr_init2(x, 24);
    mpfr_set_ui_2exp(x, 1, -149, MPFR_RNDN);
    mpfr_neg(x, x, MPFR_RNDN);
    char ref[400];
    mpfr_snprintf(ref, sizeof ref, "%.104Re", x);
    assert_string_equal(buf, ref);
    mpfr_clear(x);
    v = (tc_value){.cls = TC_FINITE, .sig = 3, .exp = -1};
    assert_true(tc_value_to_decimal(v, buf, sizeof buf));
    assert_string_equal(buf, "1.5");
    v = (tc_value){.cls = TC_FINITE, .sig = 1, .exp = -4};
    assert_true(tc_value_to_decimal(v, buf, sizeof buf));
    assert_string_equal(buf, "0.0625");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hex_floats_are_exact),
        cmocka_unit_test(decimals_round_once),
        cmocka_unit_test(specials_and_bits),
        cmocka_unit_test(malformed_values_are_named),
        cmocka_unit_test(decimal_printing_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
