/* The recorded deciding inputs of the H200 refit (issue #28), replayed: for
 * every instruction the pool is regenerated and checked against its hash,
 * the committed h200 profile reproduces every recorded hardware answer, and
 * decide infer recomputes from the answers the committed table of fields
 * decided by construction / sampled only / undecided, count for count, and
 * names the H200 for every field h100.profile holds otherwise. */
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

/* The sanitized build replays the refit's instructions and a few others
 * (the whole record takes ~25 s optimized, several minutes sanitized); the
 * optimized build the whole record and its table. */
#if defined(__SANITIZE_ADDRESS__)
#define SOME "mma.m16n8k32.f16.e4m3.e5m2.f16,mma.m16n8k32.f16.e5m2.e4m3.f16,wgmma.m64n256k8.f32.tf32.tf32," \
             "mma.m16n8k16.f32.bf16.bf16.f32,mma.m16n8k8.f64.f64.f64.f64"
#define WHOLE false
#else
#define SOME "all --compare h100"
#define WHOLE true
#endif

/* Lines of out that contain s. */
static int count_lines(const char *out, const char *s)
{
    int n = 0;
    for (const char *p = out; (p = strstr(p, s)); p += strlen(s))
        n++;
    return n;
}

static void the_answers_give_the_committed_table(void **state)
{
    if (access(RECORD, R_OK) != 0) {
        print_message("%s is not committed yet (tools/device/decide.sh makes it)\n", RECORD);
        skip();
    }
    tc_run_result r = tc_run_cli("decide infer --in " RECORD " --profile h200 --instr " SOME);
    bool ok = r.status == 0 && strstr(r.out, "; 0 whose profile entry misses an answer");
    if (!ok)
        print_message("decide infer exit %d: %s%s", r.status, r.err, r.out);
    if (!ok || !WHOLE) {
        tc_run_result_free(&r);
        assert_true(ok);
        return;
    }
    /* every field h100.profile holds otherwise names the GPU whose answers decided it (it once
       named whatever instruction a reused buffer held by then) */
    int holds = count_lines(r.out, " holds "), named = count_lines(r.out, "; decided on NVIDIA H200: ");
    if (holds == 0 || holds != named)
        print_message("%d fields of h100 differ, %d name the H200:\n%s", holds, named, r.out);
    assert_true(holds > 0 && holds == named);
    char *table = tc_slurp(TABLE);
    const char *at = strstr(r.out, "| field |");
    bool same = table && at && table[0] && strncmp(at, table, strlen(table)) == 0;
    if (!same)
        print_message("the table decide infer recomputes differs from %s:\n%s", TABLE, at ? at : r.out);
    free(table);
    tc_run_result_free(&r);
    assert_true(same);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_answers_give_the_committed_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
