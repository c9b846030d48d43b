/* make regress without a GPU: the committed H100 chain sweep replayed through
 * the model with the committed profile must give the same statistics, step
 * for step, for every sweep whose instruction has a verified fingerprint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h100_sweep_replays_through_the_model),
        cmocka_unit_test(regress_command_names_a_changed_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
