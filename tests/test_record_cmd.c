/* tcscope record and its aliases in run: record corpus and run --random,
 * record chains and run --random --chain, record layout and run
 * --check-layout write the same bytes for the same arguments (model:h100;
 * but the date in the header of a record);
 * a list's corpus and chain lines are the ones tc_corpus_run or
 * tc_chain_run and reports/record_corpus.h give for each instruction called
 * directly (neither command, nor cases/recording.c, in between); another seed changes them; "all" chains
 * use twins (same_as); bad combinations exit 2 with a message naming them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "tests/corpus_lines.h"
#include "tests/testutil.h"

#define BACKEND "--backend model:h100 "
/* a .rs twin after its shared-memory instruction: its line says inputs_of */
#define LIST "mma.m16n8k16.f32.f16.f16.f32,wgmma.m64n8k16.f32.f16.f16,wgmma.m64n8k16.f32.f16.f16.rs"
static const char *const list[] = {"mma.m16n8k16.f32.f16.f16.f32", "wgmma.m64n8k16.f32.f16.f16",
                                   "wgmma.m64n8k16.f32.f16.f16.rs"};

/* stdout of a command that must succeed with nothing on stderr. */
static char *out_of(const char *args)
{
    tc_run_result r = tc_run_cli(args);
    if (r.status != 0 || r.err[0])
        fail_msg("tcscope %s: status %d, %s", args, r.status, r.err);
    free(r.err);
    return r.out;
}

static size_t lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* The record's header has the date it was written: equal but for it. */
static void drop_date(char *s)
{
    char *d = strstr(s, "\"date\":\"");
    assert_non_null(d);
    char *end = strchr(d + 8, '"');
    assert_non_null(end);
    memmove(d, end + 1, strlen(end + 1) + 1);
}

/* The lines of a record "corpus" or "chains" (SCHEMA.md "Raw GPU records")
 * between its header, which names the record, the backend and the seed, and
 * its trailer, which counts them (fresh string). */
static char *body(const char *rec, const char *record, uint64_t seed)
{
    char head[96], seeds[48], tail[64];
    snprintf(head, sizeof head, "{\"schema\":\"tcscope-record/1\",\"record\":\"%s\",", record);
    snprintf(seeds, sizeof seeds, "\"seeds\":[\"0x%llx\"],\"backend\":\"model:h100\"", (unsigned long long)seed);
    const char *b = strchr(rec, '\n');
    assert_non_null(b);
    assert_memory_equal(rec, head, strlen(head));
    char *first = strndup(rec, (size_t)(b - rec));
    assert_non_null(strstr(first, seeds));
    free(first);
    snprintf(tail, sizeof tail, "{\"kind\":\"end\",\"objects\":%zu}\n", lines(rec) - 2);
    size_t n = strlen(rec), t = strlen(tail);
    assert_true(n > t);
    assert_string_equal(rec + n - t, tail);
    return strndup(b + 1, n - t - (size_t)(b + 1 - rec));
}

/* The lines of LIST written one call each, producer then writer
 * (tests/corpus_lines.h, bypassing cases/recording.c and the CLI):
 * corpus (len 0) or chains without twins, as a named list records them. */
static char *direct(size_t n, int len, uint64_t seed, const tc_rounding *cvt)
{
    char err[384], *buf = NULL;
    size_t size = 0;
    tc_backend *b = tc_backend_open("model:h100", err, sizeof err);
    assert_non_null(b);
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++) {
        const tc_instr *ins = tc_instr_by_name(list[i]);
        assert_non_null(ins);
        int rc = len ? tc_chain_line(b, ins, n, len, *cvt, seed, NULL, NULL, f, err, sizeof err)
                     : tc_corpus_line(b, ins, n, seed, f, err, sizeof err);
        if (rc)
            fail_msg("%s: %s", list[i], err);
    }
    fclose(f);
    tc_backend_close(b);
    return buf;
}

static void record_corpus_is_run_random(void **state)
{
    (void)state;
    char *rec = out_of("record corpus " BACKEND "--instr " LIST " --count 300 --seed 9");
    char *run = out_of("run " BACKEND "--instr " LIST " --random 300 --seed 9");
    char *ref = direct(300, 0, 9, NULL), *lines_rec = body(rec, "corpus", 9);
    assert_int_equal(lines(lines_rec), 3);
    assert_non_null(strstr(rec, "\"inputs_of\":\"wgmma.m64n8k16.f32.f16.f16\""));
    assert_string_equal(lines_rec, ref);
    drop_date(rec), drop_date(run);
    assert_string_equal(rec, run);
    char *other = out_of("record corpus " BACKEND "--instr " LIST " --count 300 --seed 10"),
         *lines_other = body(other, "corpus", 10);
    assert_int_equal(lines(lines_other), 3);
    assert_string_not_equal(lines_other, lines_rec); /* the seed reaches the inputs */
    free(rec), free(run), free(ref), free(other), free(lines_rec), free(lines_other);
}

static void record_chains_is_run_chain(void **state)
{
    (void)state;
    /* a list, with an explicit cvt: the lines written one by one */
    char *rec = out_of("record chains " BACKEND "--instr " LIST " --count 2 --len 3 --cvt rz,inf --seed 5");
    char *run = out_of("run " BACKEND "--instr " LIST " --random 2 --chain 3 --cvt rz,inf --seed 5");
    tc_rounding rz = {.mode = TC_RZ, .ovf = TC_OVF_INF};
    char *ref = direct(2, 3, 5, &rz), *lines_rec = body(rec, "chains", 5);
    assert_int_equal(lines(lines_rec), 3);
    assert_non_null(strstr(rec, "\"cvt\":{\"round\":\"rz\",\"overflow\":\"inf\"}"));
    assert_string_equal(lines_rec, ref);
    drop_date(rec), drop_date(run);
    assert_string_equal(rec, run);
    free(rec), free(run), free(ref), free(lines_rec);
    /* all, default cvt: twins written as same_as, the same either way */
    rec = out_of("record chains " BACKEND "--instr all --count 1 --len 2 --seed 5");
    run = out_of("run " BACKEND "--instr all --random 1 --chain 2 --seed 5");
    free(body(rec, "chains", 5));
    assert_true(lines(rec) > 100);
    assert_non_null(strstr(rec, "\"same_as\":"));
    drop_date(rec), drop_date(run);
    assert_string_equal(rec, run);
    free(rec), free(run);
}

static void record_layout_is_run_check_layout(void **state)
{
    (void)state;
    /* all: what model:h100 cannot run (the integer entries) is skipped,
     * said on stderr by the command that ran */
    tc_run_result rec_r = tc_run_cli("record layout " BACKEND "--instr all");
    tc_run_result run_r = tc_run_cli("run " BACKEND "--instr all --check-layout");
    assert_int_equal(rec_r.status, 0);
    assert_int_equal(run_r.status, 0);
    assert_true(lines(rec_r.out) > 100);
    assert_null(strstr(rec_r.out, "FAIL"));
    assert_string_equal(rec_r.out, run_r.out);
    assert_non_null(strstr(rec_r.err, "tcscope record: skipped mma.m16n8k32.s32.s8.s8.s32: "));
    assert_non_null(strstr(run_r.err, "tcscope run: skipped mma.m16n8k32.s32.s8.s8.s32: "));
    assert_int_equal(lines(rec_r.err), lines(run_r.err));
    tc_run_result_free(&rec_r);
    tc_run_result_free(&run_r);
    char *rec, *run;
    rec = out_of("record layout " BACKEND "--instr " LIST " --json");
    run = out_of("run " BACKEND "--instr " LIST " --check-layout --json");
    assert_int_equal(lines(rec), 5); /* header, three layout objects, end */
    assert_non_null(strstr(rec, "\"kind\":\"layout\",\"instr\":\"wgmma.m64n8k16.f32.f16.f16.rs\""));
    drop_date(rec), drop_date(run);
    assert_string_equal(rec, run);
    free(rec), free(run);
}

/* The fleet record's lines but those that differ from run to run (the
 * date, the command line, wall times). */
static char *steady_lines(const char *text)
{
    char *copy = strdup(text), *kept = calloc(strlen(text) + 1, 1), *save = NULL;
    assert_true(copy && kept);
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        if (!strstr(l, "\"date\"") && !strstr(l, "\"command\": \"tcscope ") && !strstr(l, "\"wall_s\""))
            strcat(strcat(kept, l), "\n");
    free(copy);
    return kept;
}

/* gpu:all (two fake GPUs running model:h100, cli/fleet.h's test hook): the
 * workers of record corpus run it as run --random's do, the same fleet
 * record but for the command line it names. */
static void record_corpus_on_a_fleet_is_run_random(void **state)
{
    (void)state;
    setenv("TCSCOPE_FAKE_GPUS", "2", 1);
    tc_run_result rec = tc_run_cli("record corpus --backend gpu:all --instr " LIST " --count 100 --seed 4");
    tc_run_result run = tc_run_cli("run --backend gpu:all --instr " LIST " --random 100 --seed 4");
    unsetenv("TCSCOPE_FAKE_GPUS");
    assert_int_equal(rec.status, 0);
    assert_int_equal(run.status, 0);
    assert_non_null(strstr(rec.out, "\"command\": \"tcscope record corpus --backend gpu:all"));
    assert_non_null(strstr(rec.out, "\"fake_gpus\": true"));
    char *a = steady_lines(rec.out), *b = steady_lines(run.out);
    assert_true(lines(a) > 10);
    assert_string_equal(a, b);
    free(a), free(b);
    tc_run_result_free(&rec);
    tc_run_result_free(&run);
}

static void bad_combinations_exit_two(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"record --instr all", "which recording? corpus, chains or layout"},
        {"record corpses --instr all", "unknown mode 'corpses'"},
        {"record corpus layout --instr all", "one mode only"},
        {"record corpus --count 3", "--instr NAME is required"},
        {"record corpus --instr all", "record corpus needs --count N"},
        {"record chains --instr all --count 3", "record chains needs --len LEN"},
        {"record corpus --instr all --count 3 --len 2", "--len only applies to record chains"},
        {"record layout --instr all --cvt rz", "--cvt only applies to record chains"},
        {"record layout --instr all --seed 2", "--seed does not apply to record layout"},
        {"record chains --instr all --count 3 --len 2 --cvt rs", "--cvt: bad rounding in 'rs'"},
        {"record corpus --instr all --count 0", "bad --count '0'"},
        {"record chains --instr all --count 100000 --len 100", "--count 100000 --len 100: "},
        {"record corpus " BACKEND "--instr mma.nosuch --count 3", "mma.nosuch"},
        {"record layout --backend gpu:all --instr all", "runs record corpus only"},
        {"run --instr all --random 3 --check-layout", "--random and --check-layout do not go together"},
        {"record corpus " BACKEND "--instr all --count 3 --json", "--json only applies to record layout"},
        {"record chains " BACKEND "--instr all --count 3 --len 2 --json", "--json only applies to record layout"},
        {"run " BACKEND "--instr all --random 3 --json", "--json does not go with --random"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_run_result r = tc_run_cli(cases[i][0]);
        if (r.status != 2 || !strstr(r.err, cases[i][1]) || r.out[0])
            fail_msg("tcscope %s: status %d, stderr '%s', want 2 and '%s'", cases[i][0], r.status, r.err,
                     cases[i][1]);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_corpus_is_run_random),
        cmocka_unit_test(record_chains_is_run_chain),
        cmocka_unit_test(record_layout_is_run_check_layout),
        cmocka_unit_test(record_corpus_on_a_fleet_is_run_random),
        cmocka_unit_test(bad_combinations_exit_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
