/* The recorded deciding inputs of the H200 refit (issue #28), replayed: for
 * every instruction the pool is regenerated and checked against its hash,
 * the committed h200 profile reproduces every recorded hardware answer, and
 * decide infer recomputes from the answers the committed table of fields
 * decided by construction / sampled only / undecided, count for count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/testutil.h"

#define RECORD "reports/baselines/h200-decide.jsonl.gz"
#define TABLE "reports/baselines/h200-decide.md"

static void the_answers_give_the_committed_table(void **state)
{
    if (access(RECORD, R_OK) != 0) {
        print_message("%s is not committed yet (tools/device/decide.sh makes it)\n", RECORD);
        skip();
    }
    tc_run_result r = tc_run_cli("decide infer --in " RECORD " --profile h200");
    if (r.status != 0)
        fail_msg("decide infer exit %d: %s%s", r.status, r.err, r.out);
    assert_non_null(strstr(r.out, "; 0 whose profile entry misses an answer"));
    char *table = tc_slurp(TABLE);
    assert_non_null(table);
    const char *at = strstr(r.out, "| field |");
    assert_non_null(at);
    if (strncmp(at, table, strlen(table)) != 0)
        fail_msg("the table decide infer recomputes differs from %s:\n%s", TABLE, at);
    free(table);
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_answers_give_the_committed_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
