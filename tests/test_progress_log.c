/* Progress off a terminal (issue 31; the rule: doc/commands.md "Progress"):
 * every command that counts its work writes plain lines to a log once the
 * run has lasted the interval (TCSCOPE_PROGRESS_S, 10 s at first, 30 s
 * after, by default), nothing on a run shorter than that, and nothing at all
 * under --quiet. Here the interval is 1 ms, so quick runs show the lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <time.h>

#include "tests/testutil.h"
#include "probes/clock.h"

#define INSTRS "mma.m16n8k16.f32.f16.f16.f32,mma.m16n8k16.f32.bf16.bf16.f32"

/* Each command (%s: a scratch folder) and the label its lines start with. */
static const char *const runs[][2] = {
    {"verify --backend model:h100 --profile h100 --instr mma.m16n8k16.f32.f16.f16.f32 --count 20000", "verify"},
    {"hunt --backend model:h100 --instr " INSTRS " --count 2000 --samples 0", "hunt"},
    {"gemm --backend model:h100 --path f16 --m 32 --n 32 --k 64,128 --samples 64 --reps 0", "gemm"},
    {"cases --backend model:h100 --instr 'mma.m16n8k16.*' cases/library/fasi2021.case", "cases"},
    {"sweep --backend exact --formats f16 --chain 1..3 --trials 20 --dist normal --json", "sweep f16"},
    {"decide export --profile h200 --instr mma.m16n8k16.f32.f16.f16.f32 --out %s/dec --force", "decide export"},
    {"record corpus --backend model:h100 --instr " INSTRS " --count 5000 --seed 1", "record corpus"},
};

/* The progress lines of label in text ("label: done/total (..."); any
 * other progress text (a bar, a carriage return) fails the test. */
static int progress_lines(char *text, const char *label)
{
    if (strchr(text, '\r'))
        fail_msg("a carriage return in a log: '%s'", text);
    int n = 0;
    size_t ll = strlen(label);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        unsigned long done, total;
        if (!strncmp(line, label, ll) && sscanf(line + ll, ": %lu/%lu", &done, &total) == 2) {
            if (done > total || (!strstr(line, " so far") && !strstr(line, " done in ")))
                fail_msg("not a progress line: '%s'", line);
            n++;
        }
    }
    return n;
}

static tc_run_result run(const char *fmt, double *secs)
{
    char args[600];
    snprintf(args, sizeof args, fmt, tc_tmp_root());
    double t0 = tc_now_s();
    tc_run_result r = tc_run_cli(args);
    *secs = tc_now_s() - t0;
    if (r.status != 0 && r.status != 1)
        fail_msg("tcscope %s: status %d, %s", args, r.status, r.err);
    return r;
}

static void long_runs_write_plain_lines_to_a_log(void **state)
{
    (void)state;
    setenv("TCSCOPE_PROGRESS_S", "0.001", 1);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        double secs;
        tc_run_result r = run(runs[i][0], &secs);
        if (progress_lines(r.err, runs[i][1]) < 1)
            fail_msg("tcscope %s: no progress line in the log", runs[i][0]);
        tc_run_result_free(&r);
    }
    unsetenv("TCSCOPE_PROGRESS_S");
}

static void quiet_writes_none(void **state)
{
    (void)state;
    setenv("TCSCOPE_PROGRESS_S", "0.001", 1);
    char args[512];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        double secs;
        snprintf(args, sizeof args, "%s --quiet", runs[i][0]);   /* the %s of the scratch folder stays */
        tc_run_result r = run(args, &secs);
        if (progress_lines(r.err, runs[i][1]))
            fail_msg("tcscope %s: progress in the log: %s", args, r.err);
        tc_run_result_free(&r);
    }
    unsetenv("TCSCOPE_PROGRESS_S");
}

/* The default: nothing before 10 s (the runs here take less, except on a
 * machine so loaded that one lasts longer: then its lines are right). */
static void quick_runs_write_none(void **state)
{
    (void)state;
    unsetenv("TCSCOPE_PROGRESS_S");
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        double secs;
        tc_run_result r = run(runs[i][0], &secs);
        if (secs < 10 && progress_lines(r.err, runs[i][1]))
            fail_msg("tcscope %s (%.1f s): progress in the log: %s", runs[i][0], secs, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_runs_write_plain_lines_to_a_log),
        cmocka_unit_test(quiet_writes_none),
        cmocka_unit_test(quick_runs_write_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
