/* Profiles: text <-> model_params, and every malformed input named with
 * file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/profile.h"

static uint64_t rng_state = 12345;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned rndn(unsigned n)
{
    return (unsigned)(rnd64() % n);
}

static const tc_round modes[] = {TC_RNE, TC_RNA, TC_RZ, TC_RU, TC_RD, TC_RO};

static model_cvt rnd_cvt(void)
{
    model_cvt c = {0};
    if (rndn(2)) {
        static const tc_format *fs[] = {&tc_tf32, &tc_f16, &tc_bf16, &tc_e4m3};
        c.convert = true;
        c.fmt = *fs[rndn(4)];
        c.round = modes[rndn(6)];
    }
    return c;
}

static model_params rnd_params(void)
{
    model_params p;
    memset(&p, 0, sizeof p);
    p.cvt_a = rnd_cvt();
    p.cvt_b = rnd_cvt();
    p.ftz_a = rndn(2);
    p.ftz_b = rndn(2);
    p.ftz_c = rndn(2);
    p.prod_bits = rndn(2) ? MODEL_EXACT : 1 + (int)rndn(64);
    p.prod_round = p.prod_bits == MODEL_EXACT ? TC_RNE : modes[rndn(6)];
    p.prod_flush_exp = rndn(2) ? MODEL_NO_FLUSH : (int)rndn(400) - 300;
    p.block = 1 + (int)rndn(64);
    p.c_mode = (model_c_mode)rndn(2);
    p.c_round = modes[rndn(6)];
    p.align_with_acc = rndn(2);
    p.exp_ref = (model_exp_ref)rndn(2);
    p.align_bits = rndn(4) ? (int)rndn(100) : MODEL_EXACT;
    p.align_round = (model_align_round)rndn(3);
    p.carry_bits = rndn(2) ? MODEL_UNLIMITED : 1 + (int)rndn(64);
    p.acc_exact = rndn(3) == 0;
    if (!p.acc_exact) {
        tc_format scratch;
        const tc_format *f = rndn(2) ? &tc_f32 : tc_format_by_name("e8m30", &scratch);
        p.acc_fmt = *f;
        p.acc_fmt.name = NULL;
        p.acc_round = modes[rndn(6)];
    }
    p.ftz_acc = rndn(2);
    p.out_round = modes[rndn(6)];
    p.out_ovf = (tc_overflow)rndn(3);
    p.ftz_out = rndn(2);
    p.nan_bits = rnd64() & 0xFFFFFFFF;
    p.acc_ovf_inf = rndn(2);
    if (p.block % 2 == 0 && rndn(2))
        p.split_runs = p.block / 2;
    p.nan_prop = (model_nan_prop)rndn(MODEL_NAN_ORDERS);
    return p;
}

static void test_write_then_parse_gives_same_params(void **state)
{
    for (int it = 0; it < 300; it++) {
        model_profile pr = {0};
        model_params ps[3];
        char name[3][64];
        for (int i = 0; i < 3; i++) {
            ps[i] = rnd_params();
            snprintf(name[i], sizeof name[i], "mma.m16n8k%d.f32.f16.f16.f32", 8 * (i + 1));
            assert_int_equal(profile_set(&pr, name[i], &ps[i]), 0);
        }
        assert_int_equal(profile_add_note(&pr, "device", "model (no GPU)"), 0);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_int_equal(profile_write(f, &pr), 0);
        fclose(f);
        model_profile back;
        char err[256];
        if (profile_parse(text, "mem", &back, err, sizeof err) != 0)
            fail_msg("written profile does not parse: %s\n%s", err, text);
        assert_int_equal(back.count, 3);
        for (int i = 0; i < 3; i++) {
            const model_params *q = profile_lookup(&back, name[i]);
            assert_non_null(q);
            const char *first;
            int nd = model_params_diff(&ps[i], q, &first);
            if (nd)
                fail_msg("field %s did not survive the round trip:\n%s", first, text);
        }
        assert_int_equal(back.nnotes, 1);
        assert_string_equal(back.notes[0].value, "model (no GPU)");
        profile_free(&back);
        profile_free(&pr);
        free(text);
    }
}

static void test_synthetic_profile_loads_with_defaults_and_overrides(void **state)
{
    model_profile pr;
    char err[256];
    if (profile_load("tests/profiles/synthetic.profile", &pr, err, sizeof err) != 0)
        fail_msg("%s", err);
    assert_int_equal(pr.count, 4);
    const model_params *p = profile_lookup(&pr, "mma.m16n8k32.f32.e4m3.e4m3.f32");
    assert_non_null(p);
    assert_int_equal(p->block, 16);
    assert_int_equal(p->align_bits, 13);
    assert_int_equal(p->align_round, MODEL_ALIGN_FLOOR);
    assert_true(p->acc_exact);
    assert_true(p->cvt_a.convert);
    assert_int_equal(p->cvt_a.fmt.mbits, 10);
    assert_int_equal(p->nan_bits, tc_f32.nan_bits);   /* canonical of the f32 output */
    const model_params *h = profile_lookup(&pr, "mma.m16n8k16.f16.f16.f16.f16");
    assert_non_null(h);
    assert_int_equal(h->nan_bits, tc_f16.nan_bits);
    assert_true(h->ftz_out);
    assert_false(h->acc_exact);
    assert_int_equal(h->acc_fmt.mbits, 10);
    assert_null(profile_lookup(&pr, "mma.m16n8k4.f64.f64.f64.f64"));
    profile_free(&pr);
}

static void test_exact_profile_is_the_exact_setting(void **state)
{
    model_profile pr;
    char err[256];
    if (profile_load("tests/profiles/exact.profile", &pr, err, sizeof err) != 0)
        fail_msg("%s", err);
    oracle_formats f = {&tc_tf32, &tc_tf32, &tc_f32, &tc_f32};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params want = model_params_exact(f, r);
    const model_params *got = profile_lookup(&pr, "mma.m16n8k8.f32.tf32.tf32.f32");
    assert_non_null(got);
    const char *first;
    if (model_params_diff(&want, got, &first))
        fail_msg("differs in %s", first);
    profile_free(&pr);
}

/* Each bad text must fail with exactly "SOURCE:LINE: " and a message naming the problem. */
typedef struct {
    const char *text;
    const char *want;   /* "bad:LINE: ...substring" */
} bad_case;

#define FULL                                                                     \
    "a_convert = none\nb_convert = none\na_ftz = no\nb_ftz = no\nc_ftz = no\n"   \
    "products = exact\nproduct_flush_below = none\nblock = 8\nc_mode = first\n"  \
    "c_round = rz\nalign_ref = all\nalign_exp = normalized\nalign_bits = 24\n"   \
    "align_round = trunc\ncarry_bits = unlimited\nacc = f32:rz\nacc_ftz = no\n"  \
    "out_round = rne\nout_overflow = inf\nout_ftz = no\n"
/* FULL is 20 lines; nan is the 21st field. */

static void test_malformed_profiles_name_file_and_line(void **state)
{
    static const bad_case cases[] = {
        {"[instr mma.x.f32]\n" FULL "nan = canonical\nspeed = 3\n", "bad:23: unknown key 'speed'"},
        {"[instr mma.x.f32]\n" FULL "nan = canonical\nblock = 4\n", "bad:23: duplicate key 'block' (first on line 9)"},
        {"[instr mma.x.f32]\nblock = 0\n", "bad:2: bad value '0' for 'block'"},
        {"[instr mma.x.f32]\nalign_bits = 1001\n", "bad:2: bad value '1001' for 'align_bits'"},
        {"[instr mma.x.f32]\nacc = f33:rz\n", "bad:2: bad value 'f33:rz' for 'acc'"},
        {"[instr mma.x.f32]\nout_round = rs\n", "bad:2: bad value 'rs' for 'out_round'"},
        {"[instr mma.x.f32]\nout_ftz = maybe\n", "bad:2: bad value 'maybe' for 'out_ftz'"},
        {"# c\n[instr mma.x.f32]\nblock = 4\n", "bad:2: [instr mma.x.f32]: missing field 'a_convert'"},
        {"[instr mma.x.f32]\n" FULL "\n[instr mma.y.f32]\n" FULL "nan = canonical\n",
         "bad:1: [instr mma.x.f32]: missing field 'nan'"},
        {"[instr mma.x.f32]\n" FULL "nan = canonical\n[instr mma.x.f32]\n", "bad:23: duplicate section [instr mma.x.f32]"},
        {"[default]\n[default]\n", "bad:2: duplicate section [default]"},
        {"[gpu]\n", "bad:1: unknown section [gpu]"},
        {"block = 3\n", "bad:1: key 'block' outside a section"},
        {"[instr mma.x.f32]\njust words\n", "bad:2: expected 'key = value'"},
        {"[instr mma.x.f32\n", "bad:1: malformed section header"},
        {"# nothing\n", "bad:1: no [instr NAME] section"},
        {"[instr mma.x.f16]\n" FULL "nan = 0x7FFFFFFF\n", "bad:1: [instr mma.x.f16]: nan bits wider than the output format"},
        {"[instr mma.x.f32]\n" FULL "nan = 7fff\n", "bad:22: bad value '7fff' for 'nan'"},
        {"[instr mma.x.f32]\nstep_split = interleaved:x\n", "bad:2: bad value 'interleaved:x' for 'step_split'"},
        {"[instr mma.x.f32]\nstep_split = pairs\n", "bad:2: bad value 'pairs' for 'step_split'"},
        /* generic spellings written back as a named format of other rules
         * (libFuzzer, fuzz_profile: e8m00 read, e8m0 written, the MX scale) */
        {"[instr mma.x.f32]\nacc = e8m00:rz\n", "bad:2: bad value 'e8m00:rz' for 'acc'"},
        {"[instr mma.x.f32]\nacc = e04m03:rz\n", "bad:2: bad value 'e04m03:rz' for 'acc'"},
        {"[instr mma.x.f32]\na_convert = e05m10:rne\n", "bad:2: bad value 'e05m10:rne' for 'a_convert'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        model_profile pr;
        char err[256] = "";
        int rc = profile_parse(cases[i].text, "bad", &pr, err, sizeof err);
        if (rc == 0)
            fail_msg("case %zu parsed but should fail with '%s'", i, cases[i].want);
        if (strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
            fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].want);
    }
}

static void test_missing_file_is_an_error_naming_it(void **state)
{
    model_profile pr;
    char err[256];
    assert_int_equal(profile_load("tests/profiles/no-such.profile", &pr, err, sizeof err), -1);
    assert_non_null(strstr(err, "tests/profiles/no-such.profile"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_then_parse_gives_same_params),
        cmocka_unit_test(test_synthetic_profile_loads_with_defaults_and_overrides),
        cmocka_unit_test(test_exact_profile_is_the_exact_setting),
        cmocka_unit_test(test_malformed_profiles_name_file_and_line),
        cmocka_unit_test(test_missing_file_is_an_error_naming_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
