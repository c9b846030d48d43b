/* tcscope verify, end to end: the model in its exact setting against the
 * MPFR oracle (two implementations) is verified (exit 0), a different
 * profile is not (exit 1, with the failing inputs), sparse instructions on
 * their kept terms, one flipped output bit is caught, and bad input exits 2
 * with a one-line message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cases/verify.h"
#include "oracle/oracle.h"
#include "probes/probes.h"
#include "tests/record_out.h"
#include "tests/testutil.h"

#define INSTR "--instr mma.m16n8k16.f32.f16.f16.f32"
#define SYNTH "tests/profiles/synthetic.profile"

/* The exact setting of oracle/model.h (tests/profiles/exact.profile) against
 * the exact backend (the MPFR oracle of oracle/exact.c): not one code path
 * checked against itself. */
static void test_exact_model_against_the_oracle_is_verified(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend exact --profile tests/profiles/exact.profile " INSTR " --count 20000");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 mismatches: VERIFIED"));
    tc_run_result_free(&r);
}

/* A target: the exact oracle, with one bit of one output flipped on its
 * first call when flip is set (a deliberately broken tensor core). */
typedef struct {
    oracle_formats f;
    int m, n, k;
    bool flip;
    int calls;
} flip_target;

static int flip_run(void *ctx, size_t ntiles, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D,
                    char *err, size_t errlen)
{
    flip_target *t = ctx;
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    oracle_mma_exact(t->f, t->m, t->n, t->k, ntiles, A, B, C, D, rne);
    if (t->flip && t->calls == 0)
        D[37] ^= 1; /* the last bit of one element: one ulp */
    t->calls++;
    return 0;
}

/* verify's claim is bit-exactness: on the flipped target it finds exactly
 * the one element that differs; on the same target unflipped, none. */
static void test_one_flipped_output_bit_is_caught(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    flip_target ft = {{ins->a, ins->b, ins->c, ins->d}, ins->m, ins->n, ins->k, false, 0};
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = ft.f, .run = flip_run, .ctx = &ft};
    model_params p = model_params_exact(ft.f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    verify_result v;
    char err[256];
    for (int flip = 0; flip < 2; flip++) {
        ft.flip = flip;
        ft.calls = 0;
        if (verify_run(&t, &p, 5000, 512, 7, &v, err, sizeof err))
            fail_msg("verify: %s", err);
        assert_true(v.n >= 5000);
        assert_int_equal(v.mismatches, (size_t)flip);
        assert_int_equal(v.nfails, (size_t)flip);
        if (flip)
            assert_int_equal(v.fails[0].model_d ^ v.fails[0].c.d, 1);
        verify_result_free(&v);
    }
}

static void test_other_profile_is_not_verified_and_shows_inputs(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:" SYNTH " --profile tests/profiles/exact.profile " INSTR
                                 " --count 5000 --json");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\"verified\":false"));
    assert_non_null(strstr(r.out, "\"failure\":1"));
    assert_non_null(strstr(r.out, "\"d_model\":\"0x"));
    tc_record rec = tc_out_record(r.out, "verify --json"); /* one verify object, then one per failure */
    json_t *v = tc_record_objects_of(&rec, "verify"), *f = tc_record_objects_of(&rec, "verify_failure");
    assert_int_equal(json_array_size(v), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rec.objects, 0), "kind")), "verify");
    assert_true(json_array_size(f) >= 1);
    assert_true(json_integer_value(json_object_get(json_array_get(v, 0), "mismatches")) >= (json_int_t)json_array_size(f));
    json_decref(v), json_decref(f);
    tc_record_free(&rec);
    tc_run_result_free(&r);
}

/* A sparse instruction is verified on the K/2 terms it sums: the recorded
 * H100 fingerprint against the H100 model holds, against the exact backend
 * it fails with K/2-term inputs shown. */
static void test_sparse_instruction_is_verified_on_its_kept_terms(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:h100 --profile h100 --instr wgmma.sp.m64n8k32.f32.f16.f16 "
                                 "--count 5000");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 mismatches: the model checked against itself"));
    tc_run_result_free(&r);
    r = tc_run_cli("verify --backend exact --profile h100 --instr mma.sp.m16n8k32.f32.f16.f16.f32 --count 5000 --json");
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
        "verify --backend model:" SYNTH " --profile " SYNTH " " INSTR " --count 0",
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

/* The model with a profile against model:the same profile checks nothing
 * about hardware: said so, never VERIFIED (issue 31); the record marks it. A
 * model against another arithmetic is a real check and is not marked. */
static void test_model_against_itself_says_so(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:h100 --profile h100 " INSTR " --count 2000");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "VERIFIED"));
    assert_non_null(strstr(r.out, "the model checked against itself"));
    assert_non_null(strstr(r.out, "proves nothing about any GPU"));
    tc_run_result_free(&r);
    r = tc_run_cli("verify --backend model:h100 --profile oracle/profiles/h100.profile " INSTR " --count 2000 --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"self_check\":true"));
    tc_run_result_free(&r);
    r = tc_run_cli("verify --backend exact --profile tests/profiles/exact.profile " INSTR " --count 2000 --json");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "self_check"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_model_against_the_oracle_is_verified),
        cmocka_unit_test(test_one_flipped_output_bit_is_caught),
        cmocka_unit_test(test_other_profile_is_not_verified_and_shows_inputs),
        cmocka_unit_test(test_sparse_instruction_is_verified_on_its_kept_terms),
        cmocka_unit_test(test_bad_input_exits_2_with_a_message),
        cmocka_unit_test(test_model_against_itself_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
