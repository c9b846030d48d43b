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

/* Scratch folders of this program: distinct for the sanitized and the
 * optimized build, which tests/run-tests may run at the same time, and
 * for every checkout (under its build/: a run into a folder another run
 * holds is refused, reports/outdir_lock.c). */
#if defined(__SANITIZE_ADDRESS__)
#define T "build/tcs-audit-san-"
#else
#define T "build/tcs-audit-opt-"
#endif

/* The exact backend must be fitted and verified like any target. */
static void audit_of_exact_backend_is_verified(void **state)
{
    assert_int_equal(system("rm -rf " T "new"), 0);
    tc_run_result r = tc_run_cli("audit --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 "
                                 "--count 2000 --no-timing --out " T "new/deeper/exact --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"instr\":\"mma.m16n8k16.f32.f16.f16.f32\""));
    assert_non_null(strstr(r.out, "\"verified\":true"));
    assert_non_null(strstr(r.out, "\"mismatches\":0"));
    tc_run_result_free(&r);
    /* The output folder is created with its parents. */
    char *rec = tc_slurp("" T "new/deeper/exact/audit.jsonl");
    assert_non_null(strstr(rec, "{\"kind\":\"end\",\"objects\":1}"));
    free(rec);
}

/* A synthetic tensor core (13 kept bits, truncating 1+8+13-bit accumulator)
 * must be recognised from its answers alone. */
static void audit_recovers_a_narrow_accumulator(void **state)
{
    tc_run_result r = tc_run_cli("audit --backend model:tests/profiles/narrow-acc.profile "
                                 "--instr wgmma.m64n8k32.f32.e4m3.e4m3 --count 2000 --no-timing "
                                 "--out " T "narrow --force --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"align_bits\":13,"));   /* a JSON number (reports/SCHEMA.md) */
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
    tc_run_result r = tc_run_cli("audit --instr mma.m16n8k8.f32.bf16.bf16.f32 --count 1000 "
                                 "--out " T "fallback --force");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.err, "RECORDED MODEL"));
    assert_non_null(strstr(r.out, "[RECORDED MODEL, NOT HARDWARE]"));
    assert_non_null(strstr(r.out, "VERIFIED"));
    tc_run_result_free(&r);
}

static void shards_merge_into_one_record(void **state)
{
    const char *base = "audit --backend exact --count 500 --no-timing --instr "
                       "mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k8.f32.bf16.bf16.f32";
    char cmd[512];
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "%s --shard %d/2 --out " T "s%d --force", base, i, i);
        tc_run_result r = tc_run_cli(cmd);
        assert_int_equal(r.status, 0);
        tc_run_result_free(&r);
    }
    tc_run_result r = tc_run_cli("audit --merge " T "s0," T "s1 "
                                 "--out " T "merged --profile-name merged --force");
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    char *rec = tc_slurp("" T "merged/audit.jsonl");
    assert_non_null(strstr(rec, "mma.m16n8k8.f32.f16.f16.f32"));
    assert_non_null(strstr(rec, "mma.m16n8k8.f32.bf16.bf16.f32"));
    assert_non_null(strstr(rec, "{\"kind\":\"end\",\"objects\":2}"));
    free(rec);
    char *prof = tc_slurp("" T "merged/merged.profile");
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
 * 2026-11-24: the H100 said 0xb800 where the fit of that morning
 * (tests/profiles/fp8-before-refit.profile) says 0xb7ff; model:h100, refit
 * with it, says 0xb800. Each backend's own answer must be the one recorded,
 * and each fit must explain it (fit_mismatches counts the given case). */
static void given_counterexamples_are_asked_again(void **state)
{
    static const char *const backends[2][2] = {{"model:h100", "b800"},
                                               {"model:tests/profiles/fp8-before-refit.profile", "b7ff"}};
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd,
                 "audit --backend %s --instr mma.m16n8k32.f16.e4m3.e5m2.f16 --count 2000 --no-timing "
                 "--counterexamples tests/data/hunt-fp8-subnormal.jsonl --out " T "ce%d --force",
                 backends[i][0], i);
        tc_run_result r = tc_run_cli(cmd);
        assert_int_equal(r.status, 0);
        tc_run_result_free(&r);
        char path[64], d[17];
        snprintf(path, sizeof path, "" T "ce%d/audit.jsonl", i);
        char *rec = tc_slurp(path);
        assert_non_null(strstr(rec, "\"extra\":[{\"a\":[\"0x9\",\"0x8\",\"0xa\""));
        assert_non_null(strstr(rec, "\"fit_mismatches\":0"));
        free(rec);
        first_extra_answer(path, d);
        assert_string_equal(d, backends[i][1]);
    }
}

#define JOBS_INSTRS "mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k8.f32.bf16.bf16.f32,mma.m16n8k4.f32.tf32.tf32.f32"

/* A record without its header line (run id, date): the objects and trailer. */
static char *record_body(const char *path)
{
    char *rec = tc_slurp(path);
    assert_non_null(rec);
    char *nl = strchr(rec, '\n');
    assert_non_null(nl);
    memmove(rec, nl + 1, strlen(nl + 1) + 1);
    return rec;
}

/* --jobs: the instructions dealt out to children (a slice each), merged in
 * catalogue order: the same record objects and profile as one process,
 * with a child per instruction (--jobs 3) and with a child auditing two
 * (--jobs 2). */
static void jobs_match_one_process(void **state)
{
    tc_run_result r = tc_run_cli("audit --backend model:h100 --instr " JOBS_INSTRS " --count 3000 --jobs 1 --no-timing "
                                 "--out " T "j1 --force");
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    r = tc_run_cli("audit --backend model:h100 --instr " JOBS_INSTRS " --count 3000 --jobs 3 --no-timing "
                   "--out " T "j3 --force");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3 instructions, 3 at a time"));
    tc_run_result_free(&r);
    char *a = record_body("" T "j1/audit.jsonl"), *b = record_body("" T "j3/audit.jsonl");
    assert_string_equal(a, b);
    assert_non_null(strstr(b, "{\"kind\":\"end\",\"objects\":3}"));
    free(a), free(b);
    a = tc_slurp("" T "j1/audit.profile");
    b = tc_slurp("" T "j3/audit.profile");
    *strstr(a, "run_id = ") = '\0'; /* the run ids differ, the rest must not */
    *strstr(b, "run_id = ") = '\0';
    assert_string_equal(a, b);
    free(a), free(b);
    r = tc_run_cli("audit --backend model:h100 --instr " JOBS_INSTRS " --count 3000 --jobs 2 --no-timing "
                   "--out " T "j2 --force");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "3 instructions, 2 at a time"));
    tc_run_result_free(&r);
    a = record_body("" T "j1/audit.jsonl"), b = record_body("" T "j2/audit.jsonl");
    assert_string_equal(a, b);
    free(a), free(b);
    a = tc_slurp("" T "j1/audit.profile");
    b = tc_slurp("" T "j2/audit.profile");
    *strstr(a, "run_id = ") = '\0';
    *strstr(b, "run_id = ") = '\0';
    assert_string_equal(a, b);
    free(a), free(b);
}

/* A device fault in the children (TCSCOPE_FAULT_AFTER=1: each child's first
 * batch fails) stops the run with exit 2 and a partial record compare
 * refuses; --resume then finishes it, and a second --resume keeps every
 * part and runs nothing. */
static void jobs_fault_then_resume(void **state)
{
    const char *cmd = "audit --backend model:h100 --instr " JOBS_INSTRS " --count 3000 --jobs 2 --no-timing "
                      "--out " T "jr";
    assert_int_equal(system("rm -rf " T "jr"), 0);
    setenv("TCSCOPE_FAULT_AFTER", "1", 1);
    tc_run_result r = tc_run_cli(cmd);
    unsetenv("TCSCOPE_FAULT_AFTER");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--resume continues"));
    tc_run_result_free(&r);
    r = tc_run_cli("compare " T "jr/audit.jsonl " T "jr/audit.jsonl");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    char resume[512];
    snprintf(resume, sizeof resume, "%s --resume", cmd);
    r = tc_run_cli(resume);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--resume: 0 of 3 instructions kept"));
    tc_run_result_free(&r);
    r = tc_run_cli(resume);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--resume: 3 of 3 instructions kept"));
    tc_run_result_free(&r);
    r = tc_run_cli("compare " T "jr/audit.jsonl " T "j1/audit.jsonl");
    assert_int_equal(r.status, 0); /* the same fingerprints as one process (jobs_match_one_process ran first) */
    tc_run_result_free(&r);
    /* a part whose run did not finish (its marker says running) is run again */
    assert_int_equal(system("sed -i 's/\"state\":\"done\"/\"state\":\"running\"/' "
                            "" T "jr/parts/mma.m16n8k4.f32.tf32.tf32.f32/audit.run"), 0);
    r = tc_run_cli(resume);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "--resume: 2 of 3 instructions kept"));
    assert_non_null(strstr(r.out, "mma.m16n8k4.f32.tf32.tf32.f32"));
    assert_null(strstr(r.out, "mma.m16n8k8.f32.f16.f16.f32 "));
    tc_run_result_free(&r);
}

static void bad_input_exits_two(void **state)
{
    static const char *const cases[][2] = {
        {"audit --backend exact --instr mma.bogus", "unknown instruction 'mma.bogus'"},
        {"audit --backend exact --shard 3/2", "bad --shard '3/2'"},
        {"audit --backend exact --count 0", "bad --count '0' (a whole number in 1..1000000000"},
        {"audit --backend exact --count=12x", "bad --count '12x'"},
        {"audit --backend exact --seed=-1", "bad --seed '-1'"},
        {"audit --backend exact --instr mma.m16n8k8.f32.f16.f16.f32 --timing /nonexistent.json",
         "--timing"},
        {"audit --backend nope", "unknown backend 'nope'"},
        {"audit --frobnicate", "unknown option '--frobnicate'"},
        {"audit --merge /nonexistent-dir", "--merge"},
        {"audit --backend exact --jobs 0", "bad --jobs '0'"},
        {"audit --backend exact --jobs 1025", "bad --jobs '1025'"},
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
        cmocka_unit_test(jobs_match_one_process),
        cmocka_unit_test(jobs_fault_then_resume),
        cmocka_unit_test(bad_input_exits_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
