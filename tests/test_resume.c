/* A run into a folder where an earlier run of the same audit stopped (issue
 * 31): the finished instructions are named with --resume (keep them) and
 * --force (start over), never silently run again. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define A "mma.m16n8k16.f32.f16.f16.f32"
#define B "mma.m16n8k16.f32.bf16.bf16.f32"
#define C "mma.m16n8k8.f32.tf32.tf32.f32"
#define AUDIT "audit --backend model:h100 --count 2000 --no-timing --jobs 2 --out %s --instr "

#define run tc_run_clif   /* tests/testutil.h */

static void unfinished_parts_are_named_with_resume(void **state)
{
    (void)state;
    char dir[] = "/tmp/tcs-resumeXXXXXX", out[64], cmd[400];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/a", dir);
    tc_run_result r = run(AUDIT A "," B, out);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    /* what a run killed before its merge leaves: the parts, no top-level record */
    snprintf(cmd, sizeof cmd, "rm -f %s/audit.jsonl %s/audit.profile %s/audit.md %s/audit.html", out, out, out, out);
    assert_int_equal(system(cmd), 0);
    r = run(AUDIT A "," B "," C, out);
    if (r.status != 2 || !strstr(r.err, "unfinished run of this command: 2 of 3 instructions finished (" A ", " B ")") ||
        !strstr(r.err, "--resume keeps them") || !strstr(r.err, "--force starts over"))
        fail_msg("status %d, stderr %s", r.status, r.err);
    tc_run_result_free(&r);
    r = run(AUDIT A "," B "," C " --resume", out);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "# --resume: 2 of 3 instructions kept from the earlier run"));
    tc_run_result_free(&r);
    /* a folder of another command's parts (another count) is not this run's: nothing to resume */
    snprintf(cmd, sizeof cmd, "rm -f %s/audit.jsonl %s/audit.profile %s/audit.md %s/audit.html", out, out, out, out);
    assert_int_equal(system(cmd), 0);
    r = run("audit --backend model:h100 --count 3000 --no-timing --jobs 2 --out %s --instr " A, out);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unfinished_parts_are_named_with_resume),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
