/* tcscope verify, end to end on the model backend: a profile against itself
 * is verified (exit 0), against a different one it is not (exit 1, with the
 * failing inputs), sparse instructions on their kept terms, and bad input
 * exits 2 with a one-line message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/testutil.h"

#define INSTR "--instr mma.m16n8k16.f32.f16.f16.f32"
#define SYNTH "tests/profiles/synthetic.profile"

static void test_profile_against_itself_is_verified(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:" SYNTH " --profile " SYNTH " " INSTR " --n 20000");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 mismatches: VERIFIED"));
    tc_run_result_free(&r);
}

static void test_other_profile_is_not_verified_and_shows_inputs(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:" SYNTH " --profile tests/profiles/exact.profile " INSTR
                                 " --n 5000 --json");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\"verified\":false"));
    assert_non_null(strstr(r.out, "\"failure\":1"));
    assert_non_null(strstr(r.out, "\"d_model\":\"0x"));
    tc_run_result_free(&r);
}

/* A sparse instruction is verified on the K/2 terms it sums: the recorded
 * H100 fingerprint against the H100 model holds, against the exact backend
 * it fails with K/2-term inputs shown. */
static void test_sparse_instruction_is_verified_on_its_kept_terms(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:h100 --profile h100 --instr wgmma.sp.m64n8k32.f32.f16.f16 "
                                 "--n 5000");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 mismatches: VERIFIED"));
    tc_run_result_free(&r);
    r = tc_run_cli("verify --backend exact --profile h100 --instr mma.sp.m16n8k32.f32.f16.f16.f32 --n 5000 --json");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\"failure\":1"));
    assert_non_null(strstr(r.out, "\"k\":16"));
    tc_run_result_free(&r);
}

static void test_bad_input_exits_2_with_a_message(void **state)
{
    static const char *const args[] = {
        "verify --backend model:" SYNTH " --profile " SYNTH " --instr mma.nope",
        "verify --backend model:" SYNTH " --profile no-such-profile " INSTR,
        "verify --backend model:" SYNTH " --profile " SYNTH " " INSTR " --n 0",
        "verify --backend model:" SYNTH " --profile " SYNTH,
        "verify --backend model:" SYNTH " --profile " SYNTH " --instr mma.m16n8k4.f64.f64.f64.f64",
        "verify --backend model:" SYNTH " --profile tests/profiles/synthetic.profile " INSTR " --bogus",
    };
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        tc_run_result r = tc_run_cli(args[i]);
        if (r.status != 2 || strncmp(r.err, "tcscope", 7) != 0)
            fail_msg("'%s': status %d, stderr '%s'", args[i], r.status, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_against_itself_is_verified),
        cmocka_unit_test(test_other_profile_is_not_verified_and_shows_inputs),
        cmocka_unit_test(test_sparse_instruction_is_verified_on_its_kept_terms),
        cmocka_unit_test(test_bad_input_exits_2_with_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
