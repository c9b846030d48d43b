/* Hostile input (issue 14): every reproducer of the bad-input sweep, each
 * ending in exit 2 with a message that names the problem, on the binary of
 * this build (the sanitized test runs build/san/tcscope, so a sanitizer
 * report there fails the test through its exit status and stderr). The
 * inputs are in tests/data/hostile/ (copied from ../shared/repro/). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "oracle/value.h"
#include "probes/backend_corpus.h"
#include "tests/testutil.h"

#define H "tests/data/hostile/"

/* Exit 2, the message in stderr, and no sanitizer report. */
static void expect_usage(const char *args, const char *msg)
{
    tc_run_result r = tc_run_cli(args);
    if (r.status != 2 || !strstr(r.err, msg) || strstr(r.err, "Sanitizer"))
        fail_msg("tcscope %s\n  exit %d (want 2), stderr:\n%s  (want '%s')", args, r.status, r.err, msg);
    tc_run_result_free(&r);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Items 1 and 13: a count past its range is refused before anything is
 * sized by it (it used to wrap, overflow a heap buffer, or "verify" 1687
 * elements for 2^64-1), and nothing is written. */
static void audit_n_out_of_range(void **state)
{
    expect_usage("audit --backend exact --instr mma.m16n8k32.s32.s8.s8.s32 --no-timing "
                 "--count 9223372036854775808 --out /tmp/tcs-hostile-never",
                 "bad --count '9223372036854775808' (a whole number in 1..1000000000");
    expect_usage("audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16 --no-timing "
                 "--count 18446744073709551615 --out /tmp/tcs-hostile-never", "bad --count '18446744073709551615'");
    expect_usage("audit --backend exact --count 1000000001 --out /tmp/tcs-hostile-never", "1..1000000000");
    expect_usage("audit --backend exact --count 0 --out /tmp/tcs-hostile-never", "bad --count '0'");
    expect_usage("audit --backend exact --count -5 --out /tmp/tcs-hostile-never", "bad --count '-5'");
    expect_usage("verify --backend exact --profile oracle/profiles/h100.profile "
                 "--instr mma.m16n8k8.f16.f16.f16.f16 --count 0x10", "bad --count '0x10'");
    assert_false(exists("/tmp/tcs-hostile-never"));
}

/* --model-on: a value that is no model place, or a GPU that does not open
 * (none here, or no GPU 999 anywhere), is refused before anything runs. */
static void model_on_refused(void **state)
{
    const char *h = "hunt --backend model:h100 --instr mma.m16n8k8.f16.f16.f16.f16 --n 10";
    char args[256];
    snprintf(args, sizeof args, "%s --model-on gpx:1", h);
    expect_usage(args, "--model-on takes gpu, gpu:N or cpu, not 'gpx:1'");
    snprintf(args, sizeof args, "%s --model-on gpu:999", h);
    expect_usage(args, "--model-on gpu:999: ");
    expect_usage("verify --backend exact --profile h100 --instr mma.m16n8k8.f16.f16.f16.f16 --n 10 --model-on gpu:x",
                 "--model-on takes gpu, gpu:N or cpu, not 'gpu:x'");
    expect_usage("audit --backend model:h100 --instr mma.m16n8k8.f16.f16.f16.f16 --count 10 --no-timing "
                 "--out /tmp/tcs-hostile-never --model-on gpx",
                 "--model-on takes gpu, gpu:N or cpu, not 'gpx'");
    expect_usage("regress --model --instr mma.m16n8k8.f16.f16.f16.f16 --count 10 --out /tmp/tcs-hostile-never "
                 "--model-on cpu:0", "--model-on takes gpu, gpu:N or cpu, not 'cpu:0'");
    assert_false(exists("/tmp/tcs-hostile-never"));
}

/* The integer control now runs in chunks of 2^16 outputs: a proof over
 * three chunks still covers every element, with the same operands. */
static void audit_control_in_chunks(void **state)
{
    char dir[] = "/tmp/tcs-hostile-XXXXXX", args[256];
    assert_non_null(mkdtemp(dir));
    snprintf(args, sizeof args, "audit --backend exact --instr mma.m16n8k32.s32.s8.s8.s32 --no-timing "
                                "--count 140000 --hunt-count 1000 --json --out %s/a", dir);
    tc_run_result r = tc_run_cli(args);
    assert_int_equal(r.status, 0);
    /* 140000 elements and the hunt's 11 x 1000 (no family applies to integers: cases/audit.c
     * run_control) round up to 1180 tiles of 16 x 8 */
    assert_non_null(strstr(r.out, "\"elements\":151040,\"mismatches\":0,\"verified\":true"));
    tc_run_result_free(&r);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* Item 2: "vary = a" read past the end of the word. */
static void vary_without_index(void **state)
{
    expect_usage("cases " H "casefile-vary-a-min.case", "casefile-vary-a-min.case:2: bad vary target 'a'");
    expect_usage("cases " H "casefile-vary-a-overread.case", ":8: bad vary target 'a' (a[I], b[I] or c)");
}

/* Item 3: a record's strings reach gnuplot as text, never as commands.
 * The labels below would each create a file if gnuplot or a shell ran
 * them; the plots must be drawn (gnuplot did run) and no file appear. */
static void plot_labels_run_nothing(void **state)
{
    char dir[] = "/tmp/tcs-hostile-XXXXXX", path[400], args[512], mark[300];
    assert_non_null(mkdtemp(dir));
    snprintf(mark, sizeof mark, "%s/PWNED", dir);
    char *rec = tc_slurp(H "sweep-render-gnuplot-injection.json");
    const char *from = "`touch /tmp/tcscope-PWNED`";
    char *at = strstr(rec, from);
    assert_non_null(at);
    static const char *const labels[] = {
        "`touch %s1`", "$(touch %s2)", "\\\"; system(\\\"touch %s3\\\"); x=\\\"", "'; system('touch %s4'); x='",
        "@{`touch %s5`}^_", "x\\n! touch %s6\\nplot 1",
    };
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++) {
        char label[256];
        snprintf(label, sizeof label, labels[i], mark);
        snprintf(path, sizeof path, "%s/rec%zu.json", dir, i);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%.*s%s%s", (int)(at - rec), rec, label, at + strlen(from));
        fclose(f);
        snprintf(args, sizeof args, "sweep --render %s --out %s/out%zu", path, dir, i);
        tc_run_result r = tc_run_cli(args);
        if (r.status != 0)
            fail_msg("%s: exit %d: %s", args, r.status, r.err);
        tc_run_result_free(&r);
        snprintf(path, sizeof path, "%s/out%zu/rec%zu-p90.svg", dir, i, i);
        char *svg = tc_slurp(path);
        assert_non_null(strstr(svg, "<svg"));
        assert_non_null(strstr(svg, "touch")); /* the label is in the legend, as text */
        free(svg);
        snprintf(path, sizeof path, "%s%zu", mark, i + 1);
        if (exists(path))
            fail_msg("label %zu ran a command: %s exists", i, path);
    }
    free(rec);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* Items 4 and 5: a NUL byte used to end the profile silently. */
static void profile_with_nul(void **state)
{
    expect_usage("run --backend model:" H "profile-nul-truncation.profile --instr mma.m16n8k8.f16.f16.f16.f16 "
                 "--a nan --b 1 --c 0", "profile-nul-truncation.profile:31: NUL byte in the file");
    expect_usage("list --backend model:" H "profile-nul-after-first-section.profile",
                 "profile-nul-after-first-section.profile:36: NUL byte in the file");
}

/* Item 6: a NUL byte and garbage after a record line's JSON. */
static void record_with_nul(void **state)
{
    expect_usage("compare reports/baselines/h100-sweep.json " H "record-nul-trailing-garbage.json",
                 "record-nul-trailing-garbage.json:2: NUL byte in the line");
}

/* Item 7: a difference whose message was cut inside a UTF-8 character
 * was counted but not listed ("changed: (null)"). */
static void compare_utf8_cut(void **state)
{
    static const char *const pairs[] = {"key", "value"};
    for (size_t i = 0; i < 2; i++) {
        char args[256];
        snprintf(args, sizeof args, "compare " H "compare-utf8-%s-old.jsonl " H "compare-utf8-%s-new.jsonl",
                 pairs[i], pairs[i]);
        tc_run_result r = tc_run_cli(args);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.out, "changed: audit mma.m16n8k8.f16.f16.f16.f16: fingerprint."));
        assert_null(strstr(r.out, "(null)"));
        assert_non_null(strstr(r.out, "1 difference"));
        tc_run_result_free(&r);
        strcat(args, " --json");
        r = tc_run_cli(args);
        assert_int_equal(r.status, 1);
        assert_non_null(strstr(r.out, "{\"kind\":\"difference\",\"difference\":{\"kind\":\"audit\""));
        assert_non_null(strstr(r.out, "\"message\":\"audit mma.m16n8k8.f16.f16.f16.f16: fingerprint."));
        tc_run_result_free(&r);
    }
}

/* Item 8: "vary = tiles 65536" on the largest wgmma asked 13 GB. */
static void vary_budget(void **state)
{
    expect_usage("cases --backend exact " H "casefile-tiles-65536.case",
                 "casefile-tiles-65536.case:6: bad tiles '65536': expected an integer in 2..4096");
}

/* Item 9: a --like record's settings are checked as the options are. */
static void sweep_like_out_of_range(void **state)
{
    expect_usage("sweep --like " H "sweep-like-logrange1000.json", "field 'log_range' is 1000, outside 1..60");
}

/* Item 10: empty values in lists (strtok merged them away). */
static void empty_list_values(void **state)
{
    expect_usage("cases --backend exact " H "casefile-double-comma.case", ":4: a: empty value in the list");
    expect_usage("cases --backend exact " H "casefile-leading-comma.case", ":4: a: empty value in the list");
    expect_usage("cases --backend exact " H "casefile-trailing-comma.case", ":4: a: empty value in the list");
    expect_usage("run --instr mma.m16n8k8.f16.f16.f16.f16 --a 1, --b 1 --c 0", "--a: empty value in '1,'");
    expect_usage("run --instr mma.m16n8k8.f16.f16.f16.f16 --a ,1 --b 1 --c 0", "--a: empty value in ',1'");
    expect_usage("run --instr mma.m16n8k8.f16.f16.f16.f16 --a 1 --b 1,,1 --c 0", "--b: empty value in '1,,1'");
    expect_usage("sweep --backend exact --formats f16,,bf16", "--formats: empty name in 'f16,,bf16'");
}

/* Item 11: a corpus line's ntiles sized an 11 GB allocation before the
 * line was checked; and a line whose hex is shorter than ntiles says. */
static void corpus_line_budget(void **state)
{
    char *line = tc_slurp(H "corpus-line-ntiles-oom.jsonl"), err[256] = "";
    tc_corpus_rec rec;
    assert_int_equal(tc_corpus_parse(line, &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "ntiles 11111111 out of range"));
    free(line);
    const char *small = "{\"instr\":\"mma.m16n8k8.f16.f16.f16.f16\",\"seed\":0,\"ntiles\":2,\"a\":\"0000\","
                        "\"b\":\"\",\"c\":\"\",\"d\":\"\"}";
    assert_int_equal(tc_corpus_parse(small, &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "input hex missing, of the wrong length"));
}

/* Item 12: text with a stray quote was read but could not be written back. */
static void casefile_stray_quote(void **state)
{
    expect_usage("cases --backend exact " H "casefile-roundtrip-quote.case",
                 "casefile-roundtrip-quote.case:13: a quote inside text");
}

/* Item 16: --formats was cut at 1024 bytes (the sweep then ran f32). */
static void sweep_long_format_list(void **state)
{
    char args[1200];
    snprintf(args, sizeof args, "sweep --backend exact --chain 2 --trials 2 --formats ");
    size_t n = strlen(args);
    memset(args + n, ',', 1018);
    snprintf(args + n + 1018, sizeof args - n - 1018, "float16");
    expect_usage(args, "--formats: empty name in ',,,,");
    expect_usage("sweep --backend exact --formats f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,"
                 "f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16,f16",
                 "--formats: more than 32 formats or instructions");
}

/* Item 17: a NUL ended the value and the rest of the line was dropped;
 * a directory as input gave exit 0 and no output. */
static void convert_stdin(void **state)
{
    tc_run_result r = tc_run_cli_bytes("convert --to f16 -", "1\0junk\n", 7);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "NUL byte in line 1 on standard input"));
    assert_string_equal(r.out, "");
    tc_run_result_free(&r);
    r = tc_run_cli_from("convert --to f16 -", "tests/data");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "cannot read standard input: Is a directory"));
    tc_run_result_free(&r);
    r = tc_run_cli_from("convert --to f16 -", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no value on standard input"));
    tc_run_result_free(&r);
}

/* Item 18: a hex float's digits move its exponent too; "0x0." + 2^29
 * zeros + "1p0" wrapped the int32 exponent to +inf. The whole exponent is
 * now held to +-10^8 like the 'p' part: 2^25 zeros already exceed it. */
static void hex_exponent_from_digits(void **state)
{
    size_t zeros = (size_t)1 << 25;
    char *text = malloc(zeros + 16), err[128];
    memcpy(text, "0x0.", 4);
    memset(text + 4, '0', zeros);
    strcpy(text + 4 + zeros, "1p0");
    tc_parsed_value v;
    assert_false(tc_value_parse(text, &tc_f16, &v, err, sizeof err));
    assert_non_null(strstr(err, "exponent out of range"));
    text[1] = 'x', text[2] = '1', text[3] = '0'; /* "0x10000...0.1p0": 2^(4 * 2^25) */
    assert_false(tc_value_parse(text, &tc_f16, &v, err, sizeof err));
    strcpy(text + 4 + zeros, "1p0\n");
    tc_run_result r = tc_run_cli_bytes("convert --to f16 -", text, strlen(text));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "exponent out of range"));
    tc_run_result_free(&r);
    free(text);
    /* the edges: 2^-(10^8) and 2^(10^8) are still values (0 and inf in f16) */
    assert_true(tc_value_parse("0x1p-100000000", &tc_f16, &v, err, sizeof err));
    assert_true(tc_value_parse("0x0.1p-99999996", &tc_f16, &v, err, sizeof err));
    assert_false(tc_value_parse("0x0.1p-99999997", &tc_f16, &v, err, sizeof err));
    assert_true(tc_value_parse("0x1p100000000", &tc_f16, &v, err, sizeof err));
}

/* Item 19: a NaN for an integer operand became 0. */
static void nan_for_integer_operand(void **state)
{
    expect_usage("run --instr mma.m16n8k32.s32.s8.s8.s32 --a nan --b 1 --c 0",
                 "--a: 'nan' is not representable in s8 (nearest 0x0p+0)");
    expect_usage("run --instr mma.m16n8k32.s32.s8.s8.s32 --a 1 --b -inf --c 0", "'-inf' is not representable in s8");
    expect_usage("run --instr mma.m16n8k32.s32.s8.s8.s32 --a 1 --b 1 --c nan", "'nan' is not representable in s32");
}

/* Item 20: seeds: run and verify took -1 (as 2^64-1) and overflowing digits. */
static void seeds_checked(void **state)
{
    static const char *const cmds[] = {
        "run --instr mma.m16n8k8.f16.f16.f16.f16 --a 1 --b 1 --c 0 --seed",
        "verify --backend exact --profile oracle/profiles/h100.profile --instr mma.m16n8k8.f16.f16.f16.f16 --seed",
        "audit --backend exact --no-timing --out /tmp/tcs-hostile-never --seed",
        "sweep --backend exact --seed",
    };
    static const char *const bad[] = {"-1", "99999999999999999999999", "0x", "' 5'", "5x", "010e"};
    for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++)
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            char args[300];
            snprintf(args, sizeof args, "%s %s", cmds[c], bad[b]);
            expect_usage(args, "bad --seed '");
        }
    assert_false(exists("/tmp/tcs-hostile-never"));
}

/* Item 21: an unknown name in an --instr list was ignored; --merge ","
 * merged nothing and said nothing. */
static void audit_lists(void **state)
{
    expect_usage("audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16,bogus --count 100 --no-timing "
                 "--out /tmp/tcs-hostile-never", "--instr: unknown instruction 'bogus'");
    expect_usage("audit --backend exact --instr ,mma.m16n8k8.f16.f16.f16.f16 --out /tmp/tcs-hostile-never",
                 "--instr: empty item in ',mma.m16n8k8.f16.f16.f16.f16'");
    expect_usage("audit --merge , --out /tmp/tcs-hostile-never", "--merge: empty item in ','");
    assert_false(exists("/tmp/tcs-hostile-never"));
}

/* Item 22: options that named nothing usable were accepted. */
static void choose_and_timing_inputs(void **state)
{
    expect_usage("choose --dist bogus", "bad --dist 'bogus' (normal, uniform, loguniform, ints)");
    expect_usage("choose --bench " H "compare-utf8-key-old.jsonl", "compare-utf8-key-old.jsonl holds no bench object");
    expect_usage("choose --sweep reports/baselines/h100-bench.json.gz", "h100-bench.json.gz holds no sweep object");
    expect_usage("audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16 --count 100 --timing "
                 "reports/baselines/h100-sweep.json --out /tmp/tcs-hostile-never",
                 "--timing reports/baselines/h100-sweep.json: the record holds no bench object");
    assert_false(exists("/tmp/tcs-hostile-never"));
}

/* Item 23: messages echoed a file's raw bytes (here ESC [31m too). */
static void messages_escape_binary(void **state)
{
    tc_run_result r = tc_run_cli("list --backend model:" H "profile-binary-key.profile");
    assert_int_equal(r.status, 2);
    /* refused as not UTF-8 (tc_read_text) before the key is read; the
     * control characters without the \xFF\xFE: tests/test_hostile_read.c */
    assert_non_null(strstr(r.err, "profile-binary-key.profile:1: byte \\xFF is not UTF-8"));
    for (const unsigned char *p = (const unsigned char *)r.err; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p >= 0x7F)
            fail_msg("raw byte 0x%02x in the message", *p);
    tc_run_result_free(&r);
}

/* Record strings reach the terminal escaped in choose's table too (a
 * record whose format and instruction hold terminal escape sequences). */
static void tables_escape_record_text(void **state)
{
    tc_run_result r = tc_run_cli("choose --sweep " H "sweep-escape-names.json.gz --max-rel-err 1e-2 --chain 10");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "f16\\x1B[31mRED"));
    for (const unsigned char *p = (const unsigned char *)r.out; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7F)
            fail_msg("raw byte 0x%02x in the table", *p);
    tc_run_result_free(&r);
}

/* Limits: every count is checked against its stated range, and the
 * budgets (chain lines, sweeps) before anything is allocated. */
static void count_ranges(void **state)
{
    expect_usage("run --instr all --random 0", "bad --random '0' (a whole number in 1..1000000");
    expect_usage("run --instr all --random 1000001", "1..1000000");
    expect_usage("run --instr mma.m16n8k16.f32.f16.f16.f32 --random 4 --chain 0", "bad --chain '0'");
    expect_usage("run --instr mma.m16n8k16.f32.f16.f16.f32 --random 4 --chain 1000001", "1..1000000");
    expect_usage("run --instr mma.m16n8k16.f32.f16.f16.f32 --random 1000 --chain 1000",
                 "exceed a line's 134217728 elements");
    expect_usage("run --instr all --random 100000 --chain 100", "exceed a line's 134217728 elements");
    expect_usage("sweep --backend exact --formats f16 --trials 1000000 --chain 100000",
                 "exceed the sweep budget of 134217728 elements");
    expect_usage("sweep --backend exact --trials 1000001", "bad --trials '1000001'");
    expect_usage("sweep --backend exact --chain 1..100001", "bad chain length '100001'");
    expect_usage("sweep --backend exact --dist loguniform:61", "bad loguniform range '61'");
    expect_usage("sweep --backend exact --threads 1025", "bad --threads '1025'");
    expect_usage("choose --k 0", "bad --k '0'");
    expect_usage("choose --chain 100001", "bad --chain '100001'");
    expect_usage("convert --to f16 --round rs --rbits 0x100000000 1", "bad --rbits '0x100000000'");
    expect_usage("bench --cublas-size 300", "bad --cublas-size '300'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(audit_n_out_of_range),
        cmocka_unit_test(model_on_refused),
        cmocka_unit_test(audit_control_in_chunks),
        cmocka_unit_test(vary_without_index),
        cmocka_unit_test(plot_labels_run_nothing),
        cmocka_unit_test(profile_with_nul),
        cmocka_unit_test(record_with_nul),
        cmocka_unit_test(compare_utf8_cut),
        cmocka_unit_test(vary_budget),
        cmocka_unit_test(sweep_like_out_of_range),
        cmocka_unit_test(empty_list_values),
        cmocka_unit_test(corpus_line_budget),
        cmocka_unit_test(casefile_stray_quote),
        cmocka_unit_test(sweep_long_format_list),
        cmocka_unit_test(convert_stdin),
        cmocka_unit_test(hex_exponent_from_digits),
        cmocka_unit_test(nan_for_integer_operand),
        cmocka_unit_test(seeds_checked),
        cmocka_unit_test(audit_lists),
        cmocka_unit_test(choose_and_timing_inputs),
        cmocka_unit_test(messages_escape_binary),
        cmocka_unit_test(tables_escape_record_text),
        cmocka_unit_test(count_ranges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
