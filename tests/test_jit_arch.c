/* The Ampere and Ada kernels on Hopper (tools/device/jit-arch.sh, one H200,
 * 2026-11-28): the warp-level executors built as compute_80 and as
 * compute_89 PTX only, so the driver JIT compiled them for the H200, each
 * audited over the instructions of its architecture, beside the same tree's
 * sm_90a build audited over compute_89's list. Checked here on the records as
 * committed: each names the build it audited; every instruction verified;
 * and `tcscope compare --subset` finds no difference (fingerprint, evidence
 * and counters) between either JIT build and the sm_90a build, over every
 * instruction the JIT build has. A JIT that lowered an instruction to other
 * arithmetic would show here as a fingerprint change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "reports/reports.h"
#include "tests/testutil.h"

#define SM90A "reports/baselines/h200-jit-sm90a.jsonl.gz"

/* Loads path; checks its compiler names `build` (or only sm_90a SASS when
 * build is NULL) and that every audit object verified. Returns the count. */
static size_t verified_audits(const char *path, const char *build)
{
    tc_record rec;
    char err[1024];
    if (tc_record_load(path, &rec, err, sizeof err))
        fail_msg("%s", err);
    const char *compiler = json_string_value(json_object_get(rec.header, "compiler"));
    assert_non_null(compiler);
    if (build)
        assert_non_null(strstr(compiler, build));
    else
        assert_null(strstr(compiler, "warp-level executors"));
    size_t i, n = 0;
    json_t *o;
    json_array_foreach(rec.objects, i, o) {
        if (!json_object_get(o, "instr"))
            continue;
        if (!json_is_true(json_object_get(json_object_get(o, "verification"), "verified")))
            fail_msg("%s: %s not verified", path, json_string_value(json_object_get(o, "instr")));
        n++;
    }
    tc_record_free(&rec);
    return n;
}

static void same_as_sm90a(const char *path, const char *build, size_t expect_at_least)
{
    size_t n = verified_audits(path, build);
    assert_true(n >= expect_at_least);
    tc_run_result r = tc_run_clif("compare %s %s --subset", SM90A, path);
    char want[64];
    snprintf(want, sizeof want, "same: %zu objects compared, no difference", n);
    if (r.status != 0 || !strstr(r.out, want))
        fail_msg("compare %s: exit %d, wanted \"%s\":\n%s%s", path, r.status, want, r.out, r.err);
    tc_run_result_free(&r);
}

static void sm90a_build_verified(void **state)
{
    assert_true(verified_audits(SM90A, NULL) >= 37);
}

/* Ampere's 25 warp-level instructions (f16, bf16, tf32, f64, int8, mma.sp). */
static void compute_80_jit_same_as_sm90a(void **state)
{
    same_as_sm90a("reports/baselines/h200-jit-compute_80.jsonl.gz", "compute_80", 25);
}

/* Ada's adds the FP8 mma and mma.sp forms. */
static void compute_89_jit_same_as_sm90a(void **state)
{
    same_as_sm90a("reports/baselines/h200-jit-compute_89.jsonl.gz", "compute_89", 37);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sm90a_build_verified),
        cmocka_unit_test(compute_80_jit_same_as_sm90a),
        cmocka_unit_test(compute_89_jit_same_as_sm90a),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
