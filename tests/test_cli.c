/* The CLI dispatcher: help, unknown commands and exit statuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(help_exits_zero),
        cmocka_unit_test(unknown_command_exits_two),
        cmocka_unit_test(no_command_exits_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
