/* make regress without a GPU: the committed H100 chain sweep replayed through
 * the model with the committed profile must give the same statistics, step
 * for step, for every sweep whose instruction has a verified fingerprint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "probes/probes.h"
#include "tests/testutil.h"

static void h100_sweep_replays_through_the_model(void **state)
{
    /* paths of this process: two test runs on one machine must not share them */
    char cmd[512], dir[64], log[80];
    snprintf(dir, sizeof dir, "/tmp/tcs-regress-%d", (int)getpid());
    snprintf(log, sizeof log, "%s.out", dir);
    snprintf(cmd, sizeof cmd, "TCSCOPE=%s REGRESS_OUT=%s tools/regress.sh reports/baselines/h100-sweep.json >%s 2>&1",
             tc_cli_path(), dir, log);
    int st = system(cmd);
    char *out = tc_slurp(log);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, log);
    if (system(cmd) != 0)
        print_message("could not remove %s\n", dir);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        fail_msg("regress failed:\n%s", out);
    assert_non_null(strstr(out, "no difference"));
    /* Every sweep of the baseline was compared: f16, bf16, tf32, both FP8
     * formats (the emulated mma.sync), f64 (DMMA) and the host f32 baseline. */
    assert_null(strstr(out, "sweep f16 mma.m16n8k16.f32.f16.f16.f32 k=16 normal from=f32 round=rne scale=none: in OLD only"));
    assert_non_null(strstr(out, "same: 7 objects compared"));
    assert_null(strstr(out, "not compared"));
    free(out);
}

/* tcscope regress: no GPU means exit 2 unless --model asks for the replay;
 * with --model, a baseline profile with one field changed by hand is named
 * (exit 1) and the committed one passes (exit 0). */
static void regress_command_names_a_changed_field(void **state)
{
    char err[384];
    tc_backend *g = tc_backend_open("gpu", err, sizeof err);
    if (!g) {
        tc_run_result r = tc_run_cli("regress");
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "no GPU ("));
        assert_non_null(strstr(r.err, "--model"));
        tc_run_result_free(&r);
    } else
        tc_backend_close(g);
    const char *two = "--instr mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k16.f32.bf16.bf16.f32 --count 20000";
    char cmd[512], dir[64], prof[96];
    snprintf(dir, sizeof dir, "/tmp/tcs-regress-cmd-%d", (int)getpid());
    snprintf(prof, sizeof prof, "%s.profile", dir);
    snprintf(cmd, sizeof cmd, "regress --model %s --out %s", two, dir);
    tc_run_result r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "RECORDED MODEL REPLAYED, NOT HARDWARE"));
    assert_non_null(strstr(r.out, "2 same, 0 differ"));
    tc_run_result_free(&r);
    /* the baseline with align_bits 25 -> 24 for the f16 mma: the backend (the
     * committed model) disagrees, the refit says which field moved */
    char *p = tc_slurp("oracle/profiles/h100.profile");
    char *at = strstr(strstr(p, "[instr mma.m16n8k8.f32.f16.f16.f32]"), "align_bits = 25");
    assert_non_null(at);
    at[14] = '4';
    FILE *f = fopen(prof, "w");
    assert_non_null(f);
    fputs(p, f);
    fclose(f);
    free(p);
    snprintf(cmd, sizeof cmd, "regress --model %s --profile %s --out %s", two, prof, dir);
    r = tc_run_cli(cmd);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "mma.m16n8k8.f32.f16.f16.f32                  DIFFERS arithmetic align_bits"));
    assert_non_null(strstr(r.out, "\"24\" -> \"25\""));
    assert_non_null(strstr(r.out, "mma.m16n8k16.f32.bf16.bf16.f32               same"));
    tc_run_result_free(&r);
    /* block 8 -> 4: the refit's evidence rejects 4 (the record's value is the JSON
     * number 4, the profile's text "4"): the difference carries that deciding
     * case (a crafted "block" family case), not the proof's failure */
    p = tc_slurp("oracle/profiles/h100.profile");
    at = strstr(strstr(p, "[instr mma.m16n8k8.f32.f16.f16.f32]"), "block = 8");
    assert_non_null(at);
    at[8] = '4';
    f = fopen(prof, "w");
    assert_non_null(f);
    fputs(p, f);
    fclose(f);
    free(p);
    snprintf(cmd, sizeof cmd, "regress --model --instr mma.m16n8k8.f32.f16.f16.f32 --count 20000 --profile %s --out %s --json",
             prof, dir);
    r = tc_run_cli(cmd);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\"old\":\"4\",\"new\":\"8\",\"field\":\"block\",\"case\":{\"family\":\"block\""));
    tc_run_result_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", dir, prof);
    assert_int_equal(system(cmd), 0);
    r = tc_run_cli("regress --model --backend exact");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    r = tc_run_cli("regress --model --jobs 0");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
}

/* A given --record is read on a thread while the backend opens
 * (cli/regress_base.c) and checked before any check starts: the H200's
 * slim record (its answers in the H100's full record beside it) is taken,
 * a record of another kind is not (tests/test_hostile_read.c: the
 * messages), and neither reaches the checks. */
static void regress_reads_a_given_record_beside_the_backend(void **state)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/tcs-regress-rec-%d", (int)getpid());
    tc_run_result r = tc_run_clif("regress --backend model:h200 --profile h200 --record "
                                  "reports/baselines/h200-audit.jsonl.gz --instr mma.m16n8k8.f32.f16.f16.f32 "
                                  "--count 2000 --out %s", dir);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "1 same, 0 differ"));
    tc_run_result_free(&r);
    r = tc_run_clif("regress --backend model:h200 --profile h200 --record reports/baselines/h100-sweep.json "
                    "--instr mma.m16n8k8.f32.f16.f16.f32 --count 2000 --out %s", dir);
    assert_int_equal(r.status, 2);
    assert_null(strstr(r.out, "same"));
    tc_run_result_free(&r);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* The objects of the records in text (one or several, one after another),
 * each record's header left out (its date and run differ): a JSON array. */
static json_t *record_objects(const char *text)
{
    json_t *all = json_array();
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        json_t *o = json_loadb(p, len, 0, NULL);
        if (o && !json_object_get(o, "schema"))
            json_array_append(all, o);
        json_decref(o);
        p += len + (nl != NULL);
    }
    return all;
}

/* verify --instr A,B prints A's record and B's, each what verify --instr A
 * (B) alone prints; regress deals its instructions into --jobs slices, one
 * child each, and says the same of every instruction whatever the slicing. */
static void instructions_in_slices_say_the_same(void **state)
{
    const char *a = "mma.m16n8k8.f32.f16.f16.f32", *b = "wgmma.m64n8k16.f32.bf16.bf16";
    const char *common = "verify --backend model:h100 --profile h200 --count 3000 --json --instr";
    tc_run_result both = tc_run_clif("%s %s,%s", common, a, b);
    tc_run_result one = tc_run_clif("%s %s", common, a), two = tc_run_clif("%s %s", common, b);
    assert_int_equal(both.status, 0);
    assert_int_equal(one.status, 0);
    json_t *x = record_objects(both.out), *y = record_objects(one.out), *z = record_objects(two.out);
    assert_int_equal(json_array_size(x), 4);   /* verify, trailer; verify, trailer */
    json_array_extend(y, z);
    assert_true(json_equal(x, y));
    json_decref(x), json_decref(y), json_decref(z);
    tc_run_result_free(&both), tc_run_result_free(&one), tc_run_result_free(&two);
    /* a name the catalogue lacks anywhere in the list: exit 2 before anything runs */
    tc_run_result bad = tc_run_clif("%s %s,mma.nothing", common, a);
    assert_int_equal(bad.status, 2);
    assert_null(strstr(bad.out, "\"kind\":\"verify\""));
    tc_run_result_free(&bad);
    /* regress: one slice, then four */
    char dir[64];
    snprintf(dir, sizeof dir, "/tmp/tcs-regress-slices-%d", (int)getpid());
    const char *five = "mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k16.f32.bf16.bf16.f32,wgmma.m64n8k16.f32.bf16.bf16,"
                       "mma.m16n8k4.f64.f64.f64.f64,mma.m16n8k8.f32.tf32.tf32.f32";
    tc_run_result r1 = tc_run_clif("regress --model --instr %s --count 4000 --jobs 1 --out %s --json", five, dir);
    tc_run_result r4 = tc_run_clif("regress --model --instr %s --count 4000 --jobs 4 --out %s --json", five, dir);
    tc_run_result t4 = tc_run_clif("regress --model --instr %s --count 4000 --jobs 4 --out %s", five, dir);
    assert_int_equal(r1.status, 0);
    assert_int_equal(r4.status, 0);
    x = record_objects(r1.out), y = record_objects(r4.out);
    assert_int_equal(json_array_size(x), 6);
    assert_true(json_equal(x, y));
    assert_non_null(strstr(t4.out, "5 same, 0 differ"));
    assert_non_null(strstr(t4.out, "in 4 children"));
    assert_null(strstr(t4.err, "checked again"));   /* every answer came from the slices */
    json_decref(x), json_decref(y);
    tc_run_result_free(&r1), tc_run_result_free(&r4), tc_run_result_free(&t4);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h100_sweep_replays_through_the_model),
        cmocka_unit_test(regress_command_names_a_changed_field),
        cmocka_unit_test(regress_reads_a_given_record_beside_the_backend),
        cmocka_unit_test(instructions_in_slices_say_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
