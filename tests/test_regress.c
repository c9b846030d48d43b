/* make regress without a GPU: the committed H100 chain sweep replayed through
 * the model with the committed profile must give the same statistics, step
 * for step, for every sweep whose instruction has a verified fingerprint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h100_sweep_replays_through_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
