/* One vocabulary across commands (issue 31): one name per concept, the old
 * spellings kept as aliases that warn on stderr and do exactly what the new
 * name does; every number option takes the syntax its --help shows (1e5,
 * 5%); values printed decimal first. Everything here runs the CLI. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define INS "mma.m16n8k16.f32.f16.f16.f32"
#define RECORDED "choose --sweep tests/data/records/synthetic-model-sweep.json --chain 1 "

#define run tc_run_clif   /* tests/testutil.h */

/* A record's "date":"..." (and any "elapsed_s" number) blanked: the runs
 * compared are a second apart. */
static void undate(char *s)
{
    static const char *const keys[] = {"\"date\":\"", "\"elapsed_s\":"};
    for (int k = 0; k < 2; k++)
        for (char *p = s; (p = strstr(p, keys[k])); ) {
            p += strlen(keys[k]);
            while (*p && *p != '"' && *p != ',' && *p != '}')
                *p++ = '-';
        }
}

/* An old spelling: a one-line warning naming the new one, and the same
 * output and status as the new spelling. */
static void same_as(const char *old_args, const char *new_args, const char *warning)
{
    tc_run_result o = run("%s", old_args), n = run("%s", new_args);
    undate(o.out);
    undate(n.out);
    if (o.status != n.status || strcmp(o.out, n.out))
        fail_msg("'%s' (status %d) differs from '%s' (status %d)\nold: %.300s\nnew: %.300s\nstderr: %.300s", old_args,
                 o.status, new_args, n.status, o.out, n.out, o.err);
    if (!strstr(o.err, warning))
        fail_msg("'%s' does not warn '%s': %.300s", old_args, warning, o.err);
    if (strstr(n.err, "old name") || strstr(n.err, "old spelling"))
        fail_msg("'%s' warns: %.300s", new_args, n.err);
    char *line = strstr(o.err, warning);
    while (line > o.err && line[-1] != '\n')
        line--;
    assert_non_null(strchr(line, '\n'));   /* one line */
    tc_run_result_free(&o);
    tc_run_result_free(&n);
}

static void old_spellings_warn_and_do_the_same(void **state)
{
    (void)state;
    same_as("verify --backend exact --profile h100 --instr " INS " --n 200 --hunt-n 4 --json",
            "verify --backend exact --profile h100 --instr " INS " --count 200 --hunt-count 4 --json",
            "--n is the old name of --count");
    same_as("verify --backend exact --profile h100 --instr " INS " --count 200 --hunt-n 4 --json",
            "verify --backend exact --profile h100 --instr " INS " --count 200 --hunt-count 4 --json",
            "--hunt-n is the old name of --hunt-count");
    same_as("hunt --backend exact --profile h100 --instr " INS " --n 20 --json",
            "hunt --backend exact --profile h100 --instr " INS " --count 20 --json", "--n is the old name of --count");
    same_as("record corpus --backend model:h100 --instr " INS " --n 30 --seed 3",
            "record corpus --backend model:h100 --instr " INS " --count 30 --seed 3", "--n is the old name of --count");
    same_as("sweep --backend exact --formats e4m3 --chain 1..2 --trials 2 --scale pertensor --json",
            "sweep --backend exact --formats e4m3 --chain 1..2 --trials 2 --scaling per-tensor --json",
            "--scale is the old name of --scaling");
    same_as("sweep --backend exact --formats e4m3 --chain 1..2 --trials 2 --scaling pertensor --json",
            "sweep --backend exact --formats e4m3 --chain 1..2 --trials 2 --scaling per-tensor --json",
            "pertensor is an old spelling of per-tensor");
    same_as(RECORDED "--stat median", RECORDED "--metric median", "--stat is the old name of --metric");
    same_as("choose --m 16 --n 16 --k 16 --outputs 8 --backend model:h100 --no-library --samples /nonexistent.npy",
            "choose --m 16 --n 16 --k 16 --outputs 8 --backend model:h100 --no-library --samples-file /nonexistent.npy",
            "--samples is the old name of --samples-file");
    /* regress prints its wall time: the option's parse is compared, the run stopped after it */
    same_as("regress --model --timing-tol 5 --no-such-option", "regress --model --timing-tol 5% --no-such-option",
            "--timing-tol 5 is the old spelling of 5%");
    same_as("bench --device 1 --if-gpu", "bench --backend gpu:1 --if-gpu", "write --backend gpu:N");
    /* no help, man page or completion offers an old name */
    static const char *const gone[][2] = {{"audit", "--n"},   {"audit", "--hunt-n"}, {"verify", "--n"},
                                          {"hunt", "--sample"}, {"sweep", "--scale"}, {"choose", "--stat"},
                                          {"choose", "--samples"}, {"bench", "--device"}, {"record", "--n"}};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++) {
        tc_run_result h = run("help --options %s", gone[i][0]);
        char want[64];
        snprintf(want, sizeof want, "\n%s\n", gone[i][1]);
        char *text = malloc(strlen(h.out) + 2);
        sprintf(text, "\n%s", h.out);
        if (strstr(text, want))
            fail_msg("tcscope help --options %s lists the old %s", gone[i][0], gone[i][1]);
        free(text);
        tc_run_result_free(&h);
    }
    tc_run_result m = run("help --man");
    assert_null(strstr(m.out, "\\-\\-hunt\\-n"));
    assert_null(strstr(m.out, "\\-\\-stat "));
    tc_run_result_free(&m);
}

/* Each "; NAME LO..HI" range that --help prints for a count: its HI, written
 * as --help writes it (1e9), is taken. An unknown option after it stops the
 * command before it runs: the message must be about that option, not the
 * number. */
static void every_count_takes_what_its_help_shows(void **state)
{
    (void)state;
    tc_run_result cmds = run("help --commands");
    int checked = 0;
    for (char *c = strtok(cmds.out, "\n"); c; c = strtok(NULL, "\n")) {
        char cmd[32];
        snprintf(cmd, sizeof cmd, "%s", c);
        tc_run_result h = run("%s --help", cmd);
        for (char *l = h.out; (l = strstr(l, "\n  --")); l++) {
            char name[64], *eol = strchr(l + 1, '\n'), *dots;
            if (sscanf(l + 3, "%63s", name) != 1 || !eol)
                continue;
            /* the help of an option whose line wrapped is on the next line */
            char *end = strchr(eol + 1, '\n');
            if (end && strncmp(eol + 1, "    ", 4) == 0)
                eol = end;
            char line[1024];
            snprintf(line, sizeof line, "%.*s", (int)(eol - l), l);
            if (!(dots = strstr(line, "..")) || !strstr(line, "; "))
                continue;
            char hi[32];
            if (sscanf(dots + 2, "%31[0-9e]", hi) != 1 || !strchr(hi, 'e'))
                continue;   /* only the ranges written with an exponent need the test */
            tc_run_result r = run("%s %s %s --no-such-option", cmd, name, hi);
            if (!strstr(r.err, "unknown option '--no-such-option'"))
                fail_msg("tcscope %s %s %s (as --help writes it) refused: %s", cmd, name, hi, r.err);
            tc_run_result_free(&r);
            checked++;
        }
        tc_run_result_free(&h);
    }
    tc_run_result_free(&cmds);
    assert_true(checked >= 8);   /* audit, verify, regress, hunt, record, run, sweep, gemm... */
}

static void numbers_as_help_writes_them(void **state)
{
    (void)state;
    tc_run_result a = run("verify --backend exact --profile h100 --instr " INS " --count 2e2 --json"),
                  b = run("verify --backend exact --profile h100 --instr " INS " --count 200 --json");
    assert_int_equal(a.status, b.status);   /* 1: the h100 model is not the exact oracle */
    assert_null(strstr(a.err, "bad --count"));
    undate(a.out);
    undate(b.out);
    assert_string_equal(a.out, b.out);
    tc_run_result_free(&a);
    tc_run_result_free(&b);
    a = run("%s", RECORDED "--max-rel-err 5%");
    b = run("%s", RECORDED "--max-rel-err 0.05");
    assert_int_equal(a.status, b.status);
    assert_string_equal(a.out, b.out);
    assert_null(strstr(a.err, "bad --max-rel-err"));
    tc_run_result_free(&a);
    tc_run_result_free(&b);
    static const char *const bad[][2] = {
        {"verify --backend exact --profile h100 --instr " INS " --count 1.5e0", "bad --count '1.5e0'"},
        {"verify --backend exact --profile h100 --instr " INS " --count 1e-1", "bad --count '1e-1'"},
        {"verify --backend exact --profile h100 --instr " INS " --count 2e9", "bad --count '2e9'"},
        {"verify --backend exact --profile h100 --instr " INS " --count 1e99999", "bad --count '1e99999'"},
        {RECORDED "--max-rel-err 0%", "bad --max-rel-err '0%'"},
        {RECORDED "--max-rel-err 5%%", "bad --max-rel-err"},
        {"regress --model --timing-tol 150%", "bad --timing-tol '150%'"},
        {"regress --model --timing-tol 101", "bad --timing-tol '101'"},
        /* digits past 31 were cut (fuzz_args): 31 of these zeros read as --threads 0 (all cores) */
        {"sweep --backend exact --formats f16 --chain 1..2 --trials 2 --threads 000000000000000000000000000000000005e0",
         "bad --threads '000000000000000000000000000000000005e0'"},
        /* a list's item was cut at 31 bytes: this one read as 16 */
        {"choose --m 64 --n 64 --k 256 --outputs 8 --backend model:h100 --max-rel-err 1e-2 --no-library "
         "--report /dev/null/x --sweep-k 00000000000000000000000000000016x", "bad --sweep-k '00000000000000000000000000000016x'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_run_result r = run("%s", bad[i][0]);
        if (r.status != 2 || !strstr(r.err, bad[i][1]))
            fail_msg("'%s': status %d, stderr %s", bad[i][0], r.status, r.err);
        tc_run_result_free(&r);
    }
}

/* The same distribution names in choose and sweep; what one of them lacks is said. */
static void one_distribution_vocabulary(void **state)
{
    (void)state;
    tc_run_result r = run("choose --m 16 --n 16 --k 16 --outputs 8 --backend model:h100 --no-library --dist loguniform:4");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "loguniform"));
    tc_run_result_free(&r);
    r = run("sweep --backend exact --formats f16 --chain 1..2 --trials 2 --dist lognormal");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "lognormal is choose's"));
    tc_run_result_free(&r);
}

/* Decimal first, bits beside. */
static void values_print_decimal_first(void **state)
{
    (void)state;
    tc_run_result r = run("formats");
    assert_int_equal(r.status, 0);
    char *e4m3 = strstr(r.out, "\ne4m3 ");
    assert_non_null(e4m3);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)strcspn(e4m3 + 1, "\n"), e4m3 + 1);
    assert_non_null(strstr(line, " 448 "));
    assert_non_null(strstr(line, " 0.001953125 "));   /* the smallest subnormal, 2^-9 */
    assert_null(strstr(line, "0x1.cp+8"));
    tc_run_result_free(&r);
    r = run("run --backend exact --instr " INS " --a 1 --b 3 --c 0");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  D          3 = 0x1.8p+1   bits 0x40400000"));
    tc_run_result_free(&r);
    r = run("convert --to e4m3 0.3");
    assert_non_null(strstr(r.out, ": 0.3125 = 0x1.4p-2   bits 0x2a"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(old_spellings_warn_and_do_the_same),
        cmocka_unit_test(every_count_takes_what_its_help_shows),
        cmocka_unit_test(numbers_as_help_writes_them),
        cmocka_unit_test(one_distribution_vocabulary),
        cmocka_unit_test(values_print_decimal_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
