/* tcscope audit end to end on software backends: the fingerprint it infers,
 * the labelled fallback to the recorded model, sharding + merge, bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>

#include "probes/probes.h"
#include "tests/testutil.h"

/* The exact backend must be fitted and verified like any target. */
static void audit_of_exact_backend_is_verified(void **state)
{
    assert_int_equal(system("rm -rf /tmp/tcs-audit-new"), 0);
    tc_run_result r = tc_run_cli("audit --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 "
                                 "--n 2000 --no-timing --out /tmp/tcs-audit-new/deeper/exact --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"instr\":\"mma.m16n8k16.f32.f16.f16.f32\""));
    assert_non_null(strstr(r.out, "\"verified\":true"));
    assert_non_null(strstr(r.out, "\"mismatches\":0"));
    tc_run_result_free(&r);
    /* The output folder is created with its parents. */
    char *rec = tc_slurp("/tmp/tcs-audit-new/deeper/exact/audit.jsonl");
    assert_non_null(strstr(rec, "{\"kind\":\"end\",\"objects\":1}"));
    free(rec);
}

/* A synthetic tensor core (13 kept bits, truncating 1+8+13-bit accumulator)
 * must be recognised from its answers alone. */
static void audit_recovers_a_narrow_accumulator(void **state)
{
    tc_run_result r = tc_run_cli("audit --backend model:tests/profiles/narrow-acc.profile "
                                 "--instr wgmma.m64n8k32.f32.e4m3.e4m3 --n 2000 --no-timing "
                                 "--out /tmp/tcs-audit-narrow --force --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"align_bits\":\"13\""));
    assert_non_null(strstr(r.out, "\"acc\":\"e8m13:rz\""));
    assert_non_null(strstr(r.out, "\"verified\":true"));
    tc_run_result_free(&r);
}

/* Without a GPU the audit runs on the recorded model and says so. */
static void fallback_is_labelled_as_the_recorded_model(void **state)
{
    char err[384];
    tc_backend *g = tc_backend_open("gpu", err, sizeof err);
    if (g) { /* a GPU here: the audit would run on it, there is no fallback to see */
        tc_backend_close(g);
        skip();
    }
    tc_run_result r = tc_run_cli("audit --instr mma.m16n8k8.f32.bf16.bf16.f32 --n 1000 "
                                 "--out /tmp/tcs-audit-fallback --force");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "RECORDED MODEL"));
    assert_non_null(strstr(r.out, "[RECORDED MODEL, NOT HARDWARE]"));
    assert_non_null(strstr(r.out, "VERIFIED"));
    tc_run_result_free(&r);
}

static void shards_merge_into_one_record(void **state)
{
    const char *base = "audit --backend exact --n 500 --no-timing --instr "
                       "mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k8.f32.bf16.bf16.f32";
    char cmd[512];
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s --shard %d/2 --out /tmp/tcs-audit-s%d --force", base, i, i);
        tc_run_result r = tc_run_cli(cmd);
        assert_int_equal(r.status, 0);
        tc_run_result_free(&r);
    }
    tc_run_result r = tc_run_cli("audit --merge /tmp/tcs-audit-s0,/tmp/tcs-audit-s1 "
                                 "--out /tmp/tcs-audit-merged --profile-name merged --force");
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    char *rec = tc_slurp("/tmp/tcs-audit-merged/audit.jsonl");
    assert_non_null(strstr(rec, "mma.m16n8k8.f32.f16.f16.f32"));
    assert_non_null(strstr(rec, "mma.m16n8k8.f32.bf16.bf16.f32"));
    assert_non_null(strstr(rec, "{\"kind\":\"end\",\"objects\":2}"));
    free(rec);
    char *prof = tc_slurp("/tmp/tcs-audit-merged/merged.profile");
    assert_non_null(strstr(prof, "[instr mma.m16n8k8.f32.f16.f16.f32]"));
    assert_non_null(strstr(prof, "[instr mma.m16n8k8.f32.bf16.bf16.f32]"));
    /* one run id: the merge's, not the shards' */
    const char *id = strstr(prof, "\nrun_id = ");
    assert_non_null(id);
    assert_null(strstr(id + 1, "\nrun_id = "));
    free(prof);
}

/* The recorded answer of the first counterexample (the given one: the
 * refit rounds' come after it) in a one-instruction audit record. */
static void first_extra_answer(const char *path, char out[17])
{
    char *rec = tc_slurp(path), *line = strstr(rec, "\n{\"kind\":\"audit\"");
    assert_non_null(line);
    json_error_t je;
    json_t *o = json_loadb(line + 1, strcspn(line + 1, "\n"), 0, &je);
    assert_non_null(o);
    json_t *ans = json_object_get(o, "answers");
    size_t count = (size_t)json_integer_value(json_object_get(ans, "count"));
    size_t nextra = json_array_size(json_object_get(ans, "extra"));
    int digits = (int)json_integer_value(json_object_get(ans, "digits"));
    const char *bits = json_string_value(json_object_get(ans, "bits"));
    assert_true(nextra >= 1 && count >= nextra && digits >= 1 && digits <= 16);
    assert_int_equal(strlen(bits), count * (size_t)digits);
    snprintf(out, 17, "%.*s", digits, bits + (count - nextra) * (size_t)digits);
    json_decref(o);
    free(rec);
}

/* --counterexamples: a hunt's failure joins the fit as a counterexample,
 * answered again by the audit's own backend (the file's "hw" is a pointer,
 * not evidence). The committed record is the H100 hunt's one failure of
 * 2026-11-24: the GPU said 0xb800, the model then 0xb7ff. */
static void given_counterexamples_are_asked_again(void **state)
{
    const char *ce = "--counterexamples tests/data/hunt-fp8-subnormal.jsonl";
    char cmd[512];
    /* model:h100 answers as the model does: 0xb7ff, whatever the file says */
    snprintf(cmd, sizeof cmd, "audit --backend model:h100 --instr mma.m16n8k32.f16.e4m3.e5m2.f16 --n 2000 "
                              "--no-timing %s --out /tmp/tcs-audit-ce --force", ce);
    tc_run_result r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    char *rec = tc_slurp("/tmp/tcs-audit-ce/audit.jsonl");
    assert_non_null(strstr(rec, "\"extra\":[{\"a\":[\"0x9\",\"0x8\",\"0xa\""));
    assert_non_null(strstr(rec, "\"fit_mismatches\":0"));
    free(rec);
    /* a planted difference (26 kept bits) answers 0xb800 there, and the fit
     * explains the given case too (fit_mismatches counts it) */
    snprintf(cmd, sizeof cmd, "audit --backend model:tests/profiles/fp8-align26.profile --instr "
                              "mma.m16n8k32.f16.e4m3.e5m2.f16 --n 2000 --no-timing %s --out /tmp/tcs-audit-ce26 --force", ce);
    r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    rec = tc_slurp("/tmp/tcs-audit-ce26/audit.jsonl");
    assert_non_null(strstr(rec, "\"fit_mismatches\":0"));
    assert_non_null(strstr(rec, "\"align_bits\":\"26\""));
    free(rec);
    /* the given case is the last answer recorded (after the crafted ones):
     * the backend's, b7ff from model:h100, b800 from the planted profile */
    char a[17], b[17];
    first_extra_answer("/tmp/tcs-audit-ce/audit.jsonl", a);
    first_extra_answer("/tmp/tcs-audit-ce26/audit.jsonl", b);
    assert_string_equal(a, "b7ff");
    assert_string_equal(b, "b800");
}

static void bad_input_exits_two(void **state)
{
    static const char *const cases[][2] = {
        {"audit --backend exact --instr mma.bogus", "unknown instruction 'mma.bogus'"},
        {"audit --backend exact --shard 3/2", "bad --shard '3/2'"},
        {"audit --backend exact --n 0", "bad --n '0' (a whole number in 1..1000000000)"},
        {"audit --backend exact --n=12x", "bad --n '12x'"},
        {"audit --backend exact --seed=-1", "bad --seed '-1'"},
        {"audit --backend exact --instr mma.m16n8k8.f32.f16.f16.f32 --timing /nonexistent.json",
         "--timing"},
        {"audit --backend nope", "unknown backend 'nope'"},
        {"audit --frobnicate", "unknown option '--frobnicate'"},
        {"audit --merge /nonexistent-dir", "--merge"},
        {"audit --backend exact --instr mma.m16n8k32.f16.e4m3.e5m2.f16 --counterexamples /nonexistent.jsonl",
         "--counterexamples"},
        {"audit --backend exact --instr mma.m16n8k32.f16.e4m3.e5m2.f16 --counterexamples "
         "tests/data/hostile/hunt-bad-failure.jsonl", "malformed failures"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_run_result r = tc_run_cli(cases[i][0]);
        if (r.status != 2 || !strstr(r.err, cases[i][1]))
            fail_msg("'%s': status %d, stderr: %s", cases[i][0], r.status, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(audit_of_exact_backend_is_verified),
        cmocka_unit_test(audit_recovers_a_narrow_accumulator),
        cmocka_unit_test(fallback_is_labelled_as_the_recorded_model),
        cmocka_unit_test(shards_merge_into_one_record),
        cmocka_unit_test(given_counterexamples_are_asked_again),
        cmocka_unit_test(bad_input_exits_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
