/* tcscope decide on the command line: bad input exits 2 with a message; an
 * export, the model asked, and infer give the statuses they should (sampled
 * only without answers, by construction with answers the profile gives,
 * exit 1 and the misses as a hunt record when it does not); a record whose
 * answers were cut or whose pool changed is refused. Scratch folders under
 * build/, one per build. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "oracle/model_fields.h"
#include "tests/testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define T "build/tcs-decide-san"
#else
#define T "build/tcs-decide-opt"
#endif
/* h100 and h200 agree on this one; on the e4m3 x e5m2 one h100 widens A to f16 and h200 does not */
#define SAME "mma.m16n8k8.f32.bf16.bf16.f32"
#define DIFF "mma.m16n8k32.f16.e4m3.e5m2.f16"

static void expect(const char *args, int status, const char *in_err)
{
    tc_run_result r = tc_run_cli(args);
    bool ok = r.status == status && (!in_err || strstr(r.err, in_err));
    if (!ok)
        print_message("tcscope %s: exit %d (want %d), stderr: %s\n", args, r.status, status, r.err);
    tc_run_result_free(&r);
    assert_true(ok);
}

static void bad_input_exits_two(void **state)
{
    expect("decide", 2, "needs a mode");
    expect("decide frob", 2, "unknown mode");
    expect("decide export --out " T "/x", 2, "--profile");
    expect("decide export --profile no-such-profile --out " T "/x", 2, "unknown profile");
    expect("decide export --profile h200 --instr no.such.instr --out " T "/x", 2, "unknown instruction");
    expect("decide ask --in x --out " T "/x", 2, "--backend");
    expect("decide infer", 2, "--in");
    expect("decide infer --in reports/baselines/h200-audit.jsonl.gz", 2, "holds no decide object");
    expect("decide export --profile h200 --out " T "/x --count 0", 2, "--count");
    expect("decide export --profile h200 --out " T "/x --compare h100", 2, "infer only");
}

static void export_ask_infer(void **state)
{
    /* h200.profile before its refit (DIFF read its e4m3 A unwidened): the questions come from it,
     * model:h100 (the refit's values) answers as the hardware did */
    int rc = system("mkdir -p " T " && sed '/^\\[instr " DIFF "\\]/,/^a_convert/ s/^a_convert = f16:rne/a_convert = none/' "
                    "oracle/profiles/h200.profile > " T "/old.profile && ! cmp -s oracle/profiles/h200.profile " T "/old.profile");
    assert_int_equal(rc, 0);
    expect("decide export --profile " T "/old.profile --instr " SAME "," DIFF " --count 64 --mutations 100 --out " T
           "/exp --force",
           0, NULL);
    tc_run_result r = tc_run_cli("decide infer --in " T "/exp/decide.jsonl");
    assert_int_equal(r.status, 0);
    /* nothing answered yet: no field decided by construction, every one left to sampled evidence */
    char all[128];
    snprintf(all, sizeof all, "| **all %d fields x 2 instructions** | **0 (0.00%%)** | **%d (100.00%%)** |",
             model_field_count(), 2 * model_field_count());
    assert_non_null(strstr(r.out, all));
    tc_run_result_free(&r);
    /* the model of the other profile as the hardware: the e4m3 x e5m2 entry misses answers */
    r = tc_run_cli("decide ask --backend model:h100 --in " T "/exp/decide.jsonl --out " T "/ask --force");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, DIFF));
    tc_run_result_free(&r);
    char *hunt = tc_slurp(T "/ask/hunt.jsonl");
    assert_non_null(strstr(hunt, "\"family\":\"decide\""));
    free(hunt);
    r = tc_run_cli("decide infer --in " T "/ask/decide.jsonl --compare h100");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "; 1 whose profile entry misses an answer"));
    /* the profile that agrees: nothing undecided (fields with pairs the small budget left open: sampled) */
    const char *line = strstr(r.out, SAME "                construction ");
    assert_non_null(line);
    assert_non_null(strstr(line, "undecided  0  inputs"));
    assert_true(strstr(line, "undecided  0  inputs") < strchr(line, '\n'));
    tc_run_result_free(&r);
    /* judged against the profile that answered: every field decided */
    r = tc_run_cli("decide infer --in " T "/ask/decide.jsonl --instr " SAME " --profile h100 --pairs");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "excluded by input"));
    tc_run_result_free(&r);
    /* the refit's counterexamples are taken by audit */
    expect("audit --backend model:h100 --instr " DIFF " --count 2000 --hunt-count 100 --no-timing --counterexamples " T
           "/ask/hunt.jsonl --out " T "/refit --force",
           0, NULL);
    /* and the refit reproduces every deciding input's answer (a fit this small may pick another
       explanation than the profile's; the deciding inputs built from it are the next round's question) */
    r = tc_run_cli("decide infer --in " T "/ask/decide.jsonl --instr " DIFF " --profile " T "/refit/audit.profile");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "; 0 whose profile entry misses an answer"));
    tc_run_result_free(&r);
}

/* The region the first H200 refit missed: the H200 floors f16-output sums at 2^-46
 * (h200-thirdparty-settled), and h200.profile said none until the refit of 2026-11-29.
 * From the profile as it was (none), the deciding inputs asked of the model as it is now (-46,
 * the H200's answers) must miss an answer, and judged against the refit profile they must
 * exclude "none" and every other floor of the range; an audit given the misses and the other
 * deciding inputs (the hunt record decide ask writes) refits the floor to -46. */
#define F16 "mma.m16n8k8.f16.f16.f16.f16"
static void an_f16_output_floor_is_decided(void **state)
{
    int rc = system("mkdir -p " T " && sed '/^\\[instr " F16 "\\]/,/^align_floor/ "
                    "s/^align_floor = -46/align_floor = none/' oracle/profiles/h200.profile > " T
                    "/none.profile && ! cmp -s oracle/profiles/h200.profile " T "/none.profile");
    assert_int_equal(rc, 0);
    expect("decide export --profile " T "/none.profile --instr " F16 " --out " T "/fl --force", 0, NULL);
    tc_run_result r = tc_run_cli("decide ask --backend model:h200 --in " T "/fl/decide.jsonl --out " T "/fla --force");
    assert_int_equal(r.status, 1);
    tc_run_result_free(&r);
    r = tc_run_cli("decide infer --in " T "/fla/decide.jsonl --profile h200 --pairs");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  align_floor = none: excluded by input"));
    assert_non_null(strstr(r.out, "  align_floor = -45: excluded by input"));
    assert_non_null(strstr(r.out, "  align_floor = -47: excluded by input"));
    assert_non_null(strstr(r.out, "| `align_floor` | 1 | 0 | 0 |"));
    tc_run_result_free(&r);
    /* the refit from the misses and the other deciding inputs beside them finds the floor */
    expect("audit --backend model:h200 --instr " F16 " --count 2000 --hunt-count 100 --no-timing "
           "--counterexamples " T "/fla/hunt.jsonl --out " T "/flr --force",
           0, NULL);
    char *refit = tc_slurp(T "/flr/audit.profile");
    assert_non_null(refit);
    assert_non_null(strstr(refit, "\nalign_floor = -46\n"));
    free(refit);
    /* a malformed deciding input is refused, as a malformed failure is */
    rc = system("sed -E 's/\"deciding\":\\[\\{\"family\":\"decide\"/\"deciding\":[{\"family\":7/' " T
                "/fla/hunt.jsonl > " T "/badd.jsonl && grep -q '\"family\":7' " T "/badd.jsonl");
    assert_int_equal(rc, 0);
    expect("audit --backend model:h200 --instr " F16 " --count 2000 --no-timing --counterexamples " T
           "/badd.jsonl --out " T "/flb --force",
           2, "deciding[0]");
}

static void changed_records_are_refused(void **state)
{
    expect("decide export --profile h200 --instr " SAME " --count 64 --mutations 100 --out " T "/c --force", 0,
           NULL);
    expect("decide ask --backend model:h200 --in " T "/c/decide.jsonl --out " T "/c2 --force", 0, NULL);
    /* one hex digit of the answers cut */
    int rc = system("sed -E 's/(\"hw\":\"[0-9a-f]*)[0-9a-f]\"/\\1\"/' " T "/c2/decide.jsonl > " T "/cut.jsonl");
    assert_int_equal(rc, 0);
    expect("decide infer --in " T "/cut.jsonl", 2, "hw");
    rc = system("sed -E 's/\"pool_hash\":\"0x[0-9a-f]{16}\"/\"pool_hash\":\"0x0000000000000001\"/' " T
                "/c2/decide.jsonl > " T "/hash.jsonl");
    assert_int_equal(rc, 0);
    expect("decide infer --in " T "/hash.jsonl", 2, "pool_hash");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_input_exits_two),
        cmocka_unit_test(export_ask_infer),
        cmocka_unit_test(an_f16_output_floor_is_decided),
        cmocka_unit_test(changed_records_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
