/* tcscope audit end to end on software backends: the fingerprint it infers,
 * the labelled fallback to the recorded model, sharding + merge, bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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
        {"audit --frobnicate", "unknown argument '--frobnicate'"},
        {"audit --merge /nonexistent-dir", "--merge"},
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
        cmocka_unit_test(bad_input_exits_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
