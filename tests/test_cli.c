/* The CLI dispatcher: help, unknown commands and exit statuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "probes/probes.h"
#include "tests/testutil.h"

static void help_exits_zero(void **state)
{
    tc_run_result r = tc_run_cli("--help");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\n  formats "));   /* each command with its summary */
    assert_non_null(strstr(r.out, "\n  choose "));
    tc_run_result_free(&r);
}

static void unknown_command_exits_two(void **state)
{
    tc_run_result r = tc_run_cli("frobnicate");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown command 'frobnicate'"));
    tc_run_result_free(&r);
}

static void no_command_exits_two(void **state)
{
    tc_run_result r = tc_run_cli("");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "usage"));
    tc_run_result_free(&r);
}

/* One backend rule: without --backend, run, sweep, cases and audit take the
 * GPU when there is one, else the recorded model, which they say on stderr
 * and name as the backend in their output (text and JSON). Without a driver
 * the message says so, not "driver version is insufficient". */
static void one_backend_rule(void **state)
{
    char err[384];
    tc_backend *g = tc_backend_open("gpu", err, sizeof err);
    if (g) {
        tc_backend_close(g);
        skip(); /* a GPU here: the default is the GPU, nothing falls back */
    }
    if (access("/proc/driver/nvidia/version", R_OK) != 0) /* no driver: never "driver version is insufficient" */
        assert_null(strstr(err, "insufficient"));
    static const char *const cmds[][2] = {
        {"run --instr mma.m16n8k8.f32.f16.f16.f32 --a 1 --b 1 --c 0", "on model:h100"},
        {"run --instr mma.m16n8k8.f32.f16.f16.f32 --a 1 --b 1 --c 0 --json", "\"backend\":\"model:h100\""},
        {"sweep --formats f16 --chain 1..2 --trials 2 --json", "\"backend\":\"model:h100\""},
        {"cases --instr mma.m16n8k8.f32.f16.f16.f32 cases/library/fasi2021.case", "on model:h100"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        tc_run_result r = tc_run_cli(cmds[i][0]);
        if (!strstr(r.err, "RECORDED MODEL model:h100") || !strstr(r.out, cmds[i][1]))
            fail_msg("'%s': status %d\nstdout: %.400s\nstderr: %.400s", cmds[i][0], r.status, r.out, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_exits_zero),
        cmocka_unit_test(unknown_command_exits_two),
        cmocka_unit_test(no_command_exits_two),
        cmocka_unit_test(one_backend_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
