/* The SASS checker on stored disassembly (tests/data/sass/README.md says
 * where each sample comes from): matching loops pass, and missing, merged,
 * hoisted, unrolled and emulated MMAs are told apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "probes/sass.h"
#include "tests/testutil.h"

static tc_sass *load(const char *file)
{
    char path[256], err[200];
    snprintf(path, sizeof path, "tests/data/sass/%s", file);
    char *text = tc_slurp(path);
    assert_true(strlen(text) > 0);
    tc_sass *s = tc_sass_parse(text, err, sizeof err);
    free(text);
    assert_non_null(s);
    return s;
}

static tc_sass_check check(const char *file, const char *fn, const char *stem, int expected)
{
    tc_sass *s = load(file);
    tc_sass_check c;
    int rc = tc_sass_check_loop(s, fn, stem, expected, &c);
    assert_int_equal(rc, c.usable ? 0 : -1);
    tc_sass_free(s);
    return c;
}

static void test_parser_finds_every_function(void **state)
{
    tc_sass *s = load("mma_sm90a.sass");
    assert_int_equal(tc_sass_function_count(s), 4);
    const char *want[] = {"ex_s8", "ex_f64", "ex_e4m3", "ex_f16"};
    for (size_t i = 0; i < 4; i++) {
        bool found = false;
        for (size_t j = 0; j < tc_sass_function_count(s); j++)
            found |= !strcmp(tc_sass_function_name(s, j), want[i]);
        assert_true(found);
        assert_true(tc_sass_instruction_count(s, want[i]) > 10);
    }
    assert_int_equal(tc_sass_instruction_count(s, "nope"), -1);
    tc_sass_free(s);
}

static void test_text_without_functions_is_an_error(void **state)
{
    char err[200] = "";
    assert_null(tc_sass_parse("Fatbin elf code:\n================\narch = sm_90a\n", err, sizeof err));
    assert_non_null(strstr(err, "Function"));
}

static void test_matching_loops_pass(void **state)
{
    tc_sass_check c = check("mma_sm90a.sass", "ex_f16", "HMMA", 8);
    assert_int_equal(c.verdict, TC_SASS_MATCH);
    assert_true(c.usable);
    assert_false(c.emulated);
    assert_string_equal(c.opcode, "HMMA.16816.F32");
    assert_int_equal(c.in_loop, 8);
    assert_int_equal(c.outside_loop, 0);

    c = check("mma_sm90a.sass", "ex_s8", "IMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_MATCH);
    assert_string_equal(c.opcode, "IMMA.16832.S8.S8");
    c = check("mma_sm90a.sass", "ex_f64", "DMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_MATCH);
    c = check("wgmma_f16_sm90a.sass", "wg_f16", "HGMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_MATCH);
    assert_string_equal(c.opcode, "HGMMA.64x256x16.F32");
}

/* The count must be exact: one more or one fewer than built is refused. */
static void test_count_must_be_exact(void **state)
{
    tc_sass_check c = check("mma_sm90a.sass", "ex_f16", "HMMA", 9);
    assert_int_equal(c.verdict, TC_SASS_MERGED);
    assert_false(c.usable);
    c = check("mma_sm90a.sass", "ex_f16", "HMMA", 7);
    assert_int_equal(c.verdict, TC_SASS_EXTRA);
    assert_false(c.usable);
    /* Twice the count built is two SASS MMAs per PTX MMA: emulated, not a match. */
    c = check("mma_sm90a.sass", "ex_f16", "HMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_EMULATED);
    assert_int_equal(c.per_mma, 2);
    assert_true(c.emulated);
    assert_non_null(strstr(c.message, "ex_f16"));
}

/* FP8 mma on sm_90 (src/emu.cu): 2 HMMA.16816 per mma, F2FP conversions in the loop. */
static void test_fp8_mma_on_sm90_is_emulated(void **state)
{
    tc_sass_check c = check("fp8_mma_emulated_sm90a.sass", "emu_e4m3", "HMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_EMULATED);
    assert_true(c.usable);
    assert_true(c.emulated);
    assert_int_equal(c.per_mma, 2);
    assert_string_equal(c.opcode, "HMMA.16816.F32");
    assert_int_equal(c.conversions, 18);
    assert_int_equal(c.conversions_in_loop, 8);
    assert_non_null(strstr(c.message, "emulated"));
    /* Expecting a native FP8 opcode gives the same verdict. */
    c = check("fp8_mma_emulated_sm90a.sass", "emu_e4m3", "QMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_EMULATED);
    assert_int_equal(c.per_mma, 2);
}

/* src/ex.cu's FP8 loop: unchanging operands let ptxas merge the emulation's
 * products, 2 HMMA for 4 mma: refused, not labelled emulated. */
static void test_fp8_mma_with_unchanging_operands_is_merged(void **state)
{
    tc_sass_check c = check("mma_sm90a.sass", "ex_e4m3", "HMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_MERGED);
    assert_int_equal(c.in_loop, 2);
    assert_int_equal(c.conversions_in_loop, 0);
    assert_false(c.usable);
}

static void test_missing_mma_is_refused(void **state)
{
    tc_sass_check c = check("edited_missing_sm90a.sass", "ex_f16", "HMMA", 8);
    assert_int_equal(c.verdict, TC_SASS_MISSING);
    assert_false(c.usable);
    c = check("mma_sm90a.sass", "no_such_kernel", "HMMA", 8);
    assert_int_equal(c.verdict, TC_SASS_NO_FUNCTION);
    assert_false(c.usable);
    /* Another opcode that is not a whole number per MMA is not emulation. */
    c = check("mma_sm90a.sass", "ex_f16", "QMMA", 3);
    assert_int_equal(c.verdict, TC_SASS_MISSING);
    assert_false(c.usable);
}

static void test_merged_mma_is_refused(void **state)
{
    tc_sass_check c = check("nonvolatile_merged_sm90a.sass", "neg_hoisted", "HMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_MERGED);
    assert_int_equal(c.in_loop, 1);
    assert_false(c.usable);
    c = check("edited_wgmma_merged_sm90a.sass", "wg_f16", "HGMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_MERGED);
    assert_int_equal(c.in_loop, 3);
    /* The same file's other kernel kept its 8 distinct MMAs. */
    c = check("nonvolatile_merged_sm90a.sass", "neg_merged", "HMMA", 8);
    assert_int_equal(c.verdict, TC_SASS_MATCH);
}

static void test_hoisted_mma_is_refused(void **state)
{
    tc_sass_check c = check("edited_hoisted_sm90a.sass", "ex_f16", "HMMA", 8);
    assert_int_equal(c.verdict, TC_SASS_HOISTED);
    assert_int_equal(c.outside_loop, 2);
    assert_int_equal(c.in_loop, 6);
    assert_false(c.usable);
}

static void test_unrolled_loop_is_refused(void **state)
{
    tc_sass_check c = check("nonvolatile_unrolled_sm90a.sass", "neg_hoist2", "HMMA", 1);
    assert_int_equal(c.verdict, TC_SASS_UNROLLED);
    assert_int_equal(c.loops_with_mma, 3);
    assert_false(c.usable);
}

/* A real ptxas outcome (C7514): 4 HGMMA per iteration, each waited for. */
static void test_serialized_wgmma_is_refused(void **state)
{
    tc_sass_check c = check("wgmma_serialized_sm90a.sass", "tct_wgmma_m64n256k16_f32_f16_f16_i4", "HGMMA", 4);
    assert_int_equal(c.verdict, TC_SASS_SERIALIZED);
    assert_int_equal(c.in_loop, 4);
    assert_int_equal(c.waits_in_loop, 4);
    assert_false(c.usable);
    /* The pipelined loop has one wait for its 4 wgmmas. */
    c = check("wgmma_f16_sm90a.sass", "wg_f16", "HGMMA", 4);
    assert_int_equal(c.waits_in_loop, 1);
    assert_int_equal(c.verdict, TC_SASS_MATCH);
}

/* fuzz_sass found a loop of 1 HMMA and 3 DMMA passed as 4 HMMA ("match"):
 * only a loop of the expected opcode alone matches. */
static void test_mixed_loop_is_refused(void **state)
{
    static const char text[] = "\t\tFunction : mixed\n"
                               "        /*0000*/  HMMA.16816.F32 R8, R4, R12, RZ ;\n"
                               "        /*0010*/  DMMA.8x8x4 R16, R10, R12, R4 ;\n"
                               "        /*0020*/  DMMA.8x8x4 R20, R10, R12, R16 ;\n"
                               "        /*0030*/  DMMA.8x8x4 R4, R10, R12, R20 ;\n"
                               "        /*0040*/  @!P0 BRA 0x0 ;\n"
                               "        /*0050*/  EXIT ;\n";
    char err[200];
    tc_sass *s = tc_sass_parse(text, err, sizeof err);
    assert_non_null(s);
    tc_sass_check c;
    assert_int_equal(tc_sass_check_loop(s, "mixed", "HMMA", 4, &c), -1);
    assert_int_equal(c.verdict, TC_SASS_EXTRA);
    assert_int_equal(c.in_loop, 4);
    assert_int_equal(c.expected_in_loop, 1);
    assert_false(c.usable);
    tc_sass_free(s);
    /* the same loop of HMMA alone matches */
    char same[sizeof text];
    memcpy(same, text, sizeof text);
    for (char *p = same; (p = strstr(p, "DMMA.8x8x4")) != NULL;)
        memcpy(p, "HMMA.16816", 10);
    assert_non_null(s = tc_sass_parse(same, err, sizeof err));
    assert_int_equal(tc_sass_check_loop(s, "mixed", "HMMA", 4, &c), 0);
    assert_int_equal(c.verdict, TC_SASS_MATCH);
    tc_sass_free(s);
}

/* The build's SASS file holds tc_sass_format's text, not cuobjdump's: it
 * must read back to what the full text gives, function by function, and
 * every loop check must say the same of it. */
static void same_checks(const tc_sass *a, const tc_sass *b)
{
    static const char *const stems[] = {"HMMA", "HGMMA", "IMMA", "IGMMA", "DMMA", "QGMMA", "QMMA"};
    assert_int_equal(tc_sass_function_count(a), tc_sass_function_count(b));
    for (size_t i = 0; i < tc_sass_function_count(a); i++) {
        const char *fn = tc_sass_function_name(a, i);
        assert_string_equal(fn, tc_sass_function_name(b, i));
        assert_int_equal(tc_sass_instruction_count(a, fn), tc_sass_instruction_count(b, fn));
        for (size_t k = 0; k < sizeof stems / sizeof stems[0]; k++)
            for (int expected = 1; expected <= 8; expected++) {
                tc_sass_check x, y;
                assert_int_equal(tc_sass_check_loop(a, fn, stems[k], expected, &x),
                                 tc_sass_check_loop(b, fn, stems[k], expected, &y));
                assert_int_equal(x.verdict, y.verdict);
                assert_int_equal(x.usable, y.usable);
                assert_string_equal(x.opcode, y.opcode);
                assert_int_equal(x.in_loop, y.in_loop);
                assert_int_equal(x.expected_in_loop, y.expected_in_loop);
                assert_int_equal(x.outside_loop, y.outside_loop);
                assert_int_equal(x.loops_with_mma, y.loops_with_mma);
                assert_int_equal(x.conversions_in_loop, y.conversions_in_loop);
                assert_int_equal(x.waits_in_loop, y.waits_in_loop);
                assert_string_equal(x.message, y.message);
            }
    }
}

static void test_format_reads_back_the_same(void **state)
{
    static const char *const files[] = {
        "sass/mma_sm90a.sass", "sass/wgmma_f16_sm90a.sass", "sass/wgmma_serialized_sm90a.sass",
        "sass/fp8_mma_emulated_sm90a.sass", "sass/nonvolatile_merged_sm90a.sass",
        "sass/nonvolatile_unrolled_sm90a.sass", "sass/edited_hoisted_sm90a.sass", "sass/edited_missing_sm90a.sass",
        "sass/edited_wgmma_merged_sm90a.sass"};
    char err[200];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "tests/data/%s", files[i]);   /* whole cuobjdump listings */
        char *text = tc_slurp(path);
        tc_sass *a = tc_sass_parse(text, err, sizeof err);
        assert_non_null(a);
        char *f1 = tc_sass_format(a);
        tc_sass *b = tc_sass_parse(f1, err, sizeof err);
        assert_non_null(b);
        same_checks(a, b);
        char *f2 = tc_sass_format(b);
        assert_string_equal(f1, f2);   /* a fixed point: nothing lost or added by a second pass */
        assert_true(strlen(f1) * 8 < strlen(text));   /* the operands and encodings gone: 9.7-13x smaller */
        free(f2);
        free(f1);
        tc_sass_free(b);
        tc_sass_free(a);
        free(text);
    }
    /* nvdisasm's labels become cuobjdump's addresses; a loop still a loop */
    static const char labels[] = "\t\tFunction : lab\n"
                                 "        /*0000*/  MOV R1, c[0x0][0x28] ;\n"
                                 ".L_x_1:\n"
                                 "        /*0010*/  HMMA.16816.F32 R8, R4, R12, R8 ;\n"
                                 "        /*0020*/  HMMA.16816.F32 R8, R4, R12, R8 ;\n"
                                 "        /*0030*/  @!P0 BRA `(.L_x_1) ;\n"
                                 "        /*0040*/  EXIT ;\n";
    tc_sass *a = tc_sass_parse(labels, err, sizeof err);
    assert_non_null(a);
    char *f = tc_sass_format(a);
    assert_non_null(strstr(f, "BRA 0x10 ;"));
    tc_sass *b = tc_sass_parse(f, err, sizeof err);
    assert_non_null(b);
    same_checks(a, b);
    tc_sass_check c;
    assert_int_equal(tc_sass_check_loop(b, "lab", "HMMA", 2, &c), 0);
    free(f);
    tc_sass_free(b);
    tc_sass_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parser_finds_every_function),
        cmocka_unit_test(test_text_without_functions_is_an_error),
        cmocka_unit_test(test_matching_loops_pass),
        cmocka_unit_test(test_count_must_be_exact),
        cmocka_unit_test(test_fp8_mma_on_sm90_is_emulated),
        cmocka_unit_test(test_fp8_mma_with_unchanging_operands_is_merged),
        cmocka_unit_test(test_missing_mma_is_refused),
        cmocka_unit_test(test_merged_mma_is_refused),
        cmocka_unit_test(test_hoisted_mma_is_refused),
        cmocka_unit_test(test_unrolled_loop_is_refused),
        cmocka_unit_test(test_serialized_wgmma_is_refused),
        cmocka_unit_test(test_mixed_loop_is_refused),
        cmocka_unit_test(test_format_reads_back_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
