/* Every command's help against its parser: each option the binary lists
 * (tcscope help --options CMD, read from the command's table) is in its
 * --help and is accepted by its parser; options read off the sources by hand
 * are listed; an option not in the table exits 2; --version is the version
 * records carry; the man page and the bash completion come from the same
 * tables; "did you mean" for options, instructions and formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testutil.h"

/* Lines of text as an array (the text is cut in place). */
static size_t split_lines(char *text, char **lines, size_t max)
{
    size_t n = 0;
    for (char *save = NULL, *t = strtok_r(text, "\n", &save); t && n < max; t = strtok_r(NULL, "\n", &save))
        lines[n++] = t;
    return n;
}

static tc_run_result run_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static tc_run_result run_fmt(const char *fmt, ...)
{
    char args[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return tc_run_cli(args);
}

/* The option's line in --help: "  NAME" then " ARG" (a value) or two blanks
 * or the end of the line (a flag). -1: not listed. */
static int help_line(const char *help, const char *name, bool *takes_value)
{
    char head[96];
    snprintf(head, sizeof head, "\n  %s", name);
    const char *p = strstr(help, head);
    if (!p)
        return -1;
    p += strlen(head);
    if (*p != ' ' && *p != '\n')
        return help_line(p, name, takes_value);
    *takes_value = p[0] == ' ' && p[1] != ' ';
    return 0;
}

static char *commands(size_t *n, char **names, size_t max)
{
    tc_run_result r = tc_run_cli("help --commands");
    assert_int_equal(r.status, 0);
    free(r.err);
    *n = split_lines(r.out, names, max);
    return r.out;
}

static void every_command_lists_and_accepts_its_options(void **state)
{
    char *names[64];
    size_t ncmd;
    char *keep = commands(&ncmd, names, 64);
    assert_true(ncmd >= 13);   /* formats convert list run record audit verify hunt cases sweep bench compare choose */
    size_t checked = 0;
    for (size_t c = 0; c < ncmd; c++) {
        tc_run_result h = run_fmt("%s --help", names[c]);
        assert_int_equal(h.status, 0);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: tcscope %s ", names[c]);
        assert_memory_equal(h.out, usage, strlen(usage));
        tc_run_result h2 = run_fmt("help %s", names[c]);   /* the same text both ways */
        assert_int_equal(h2.status, 0);
        assert_string_equal(h2.out, h.out);
        tc_run_result o = run_fmt("help --options %s", names[c]);
        assert_int_equal(o.status, 0);
        char *opts[128];
        size_t nopt = split_lines(o.out, opts, 128);
        assert_true(nopt >= 3);   /* --json or one more, --help, --version */
        for (size_t k = 0; k < nopt; k++) {
            bool takes_value = false;
            if (help_line(h.out, opts[k], &takes_value) != 0)
                fail_msg("tcscope %s --help does not list %s", names[c], opts[k]);
            if (!strcmp(opts[k], "--help") || !strcmp(opts[k], "--version"))
                continue;
            /* Accepted: the parser goes past it to the bogus option after it
             * (or stops at its value "x"): nothing runs, exit 2 either way. */
            tc_run_result p = run_fmt("%s %s %s --tcscope-no-such-option", names[c], opts[k], takes_value ? "x" : "");
            char refused[128];
            snprintf(refused, sizeof refused, "unknown option '%s'", opts[k]);
            if (p.status != 2 || strstr(p.err, refused))
                fail_msg("tcscope %s %s: status %d, %s", names[c], opts[k], p.status, p.err);
            tc_run_result_free(&p);
            checked++;
        }
        tc_run_result_free(&h);
        tc_run_result_free(&h2);
        tc_run_result_free(&o);
    }
    assert_true(checked >= 80);
    free(keep);
}

/* Options found by reading cli/cmd_*.c before the tables existed (grep for
 * cli_opt( and strcmp(argv[i], "--"), several in no help text then). */
static void options_from_the_sources_are_documented(void **state)
{
    static const char *const known[][2] = {
        {"audit", "--no-timing"}, {"audit", "--no-cases"}, {"audit", "--counterexamples"}, {"audit", "--hunt-count"},
        {"audit", "--shard"},     {"audit", "--force"},    {"audit", "--merge"},           {"audit", "--timing"},
        {"audit", "--profile-name"}, {"compare", "--subset"}, {"compare", "--threshold"}, {"sweep", "--like"},
        {"sweep", "--threads"},   {"sweep", "--render"},   {"sweep", "--from"},            {"sweep", "--scaling"},
        {"hunt", "--samples"},    {"hunt", "--out"},       {"bench", "--if-gpu"},          {"bench", "--no-cublas"},
        {"bench", "--cublas-size"}, {"bench", "--sass"},   {"bench", "--backend"},         {"convert", "--sat"},
        {"convert", "--nosat"},   {"convert", "--ftz"},    {"convert", "--daz"},           {"convert", "--rbits"},
        {"list", "--all"},        {"run", "--check-layout"}, {"run", "--cvt"},            {"choose", "--need-inf-nan"},
        {"choose", "--sweep"},    {"verify", "--hunt-count"},  {"cases", "--emit"},            {"formats", "--json"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        tc_run_result h = run_fmt("%s --help", known[i][0]);
        bool v;
        assert_int_equal(h.status, 0);
        if (help_line(h.out, known[i][1], &v) != 0)
            fail_msg("tcscope %s --help does not list %s", known[i][0], known[i][1]);
        tc_run_result_free(&h);
    }
}

static void option_not_in_the_table_exits_two(void **state)
{
    char *names[64];
    size_t ncmd;
    char *keep = commands(&ncmd, names, 64);
    for (size_t c = 0; c < ncmd; c++) {
        tc_run_result r = run_fmt("%s --no-such-option", names[c]);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "unknown option '--no-such-option'"));
        assert_string_equal(r.out, "");
        tc_run_result_free(&r);
    }
    free(keep);
    /* one transposition / one letter away: named */
    tc_run_result r = tc_run_cli("audit --no-timign");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "did you mean --no-timing?"));
    tc_run_result_free(&r);
    r = tc_run_cli("sweep --thread 2");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "did you mean --threads?"));
    tc_run_result_free(&r);
    r = tc_run_cli("help nosuchcommand");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
}

static void did_you_mean_instructions_and_formats(void **state)
{
    tc_run_result r = tc_run_cli("run --instr mma.m16n8k16.f32.f16.f16.f33 --a 1 --b 1 --c 0");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown instruction 'mma.m16n8k16.f32.f16.f16.f33' "
                                  "(did you mean mma.m16n8k16.f32.f16.f16.f32?"));
    tc_run_result_free(&r);
    r = tc_run_cli("convert --to bf61 1");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown format 'bf61' (did you mean bf16?"));
    tc_run_result_free(&r);
    r = tc_run_cli("sweep --backend exact --formats f16,e4m3x");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown format 'e4m3x' (did you mean e4m3?"));
    tc_run_result_free(&r);
    /* nothing near: no guess */
    r = tc_run_cli("convert --to zzzzzz 1");
    assert_int_equal(r.status, 2);
    assert_null(strstr(r.err, "did you mean"));
    tc_run_result_free(&r);
    r = tc_run_cli("audit --backend exact --instr mma.m16n8k16.f32.f16.f16.f32,wgmma.m64n8k16.f32.f16.f16x");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "did you mean wgmma.m64n8k16.f32.f16.f16?"));
    tc_run_result_free(&r);
}

/* --version prints what records say in tcscope_version (one definition,
 * reports/record.c). */
static void version_is_the_records_version(void **state)
{
    tc_run_result v = tc_run_cli("--version");
    assert_int_equal(v.status, 0);
    assert_memory_equal(v.out, "tcscope ", 8);
    char *nl = strchr(v.out, '\n');
    assert_non_null(nl);
    assert_true(nl - v.out > 8);
    *nl = '\0';
    const char *ver = v.out + 8;
    tc_run_result v2 = tc_run_cli("audit --version");
    assert_int_equal(v2.status, 0);
    assert_memory_equal(v2.out, v.out, strlen(v.out));
    tc_run_result rec = tc_run_cli("sweep --backend exact --formats f16 --chain 2 --trials 1 --json");
    assert_int_equal(rec.status, 0);
    char want[256];
    snprintf(want, sizeof want, "\"tcscope_version\":\"%s\"", ver);
    if (!strstr(rec.out, want))
        fail_msg("no %s in the record: %.300s", want, rec.out);
    tc_run_result_free(&v);
    tc_run_result_free(&v2);
    tc_run_result_free(&rec);
}

/* The man page: every command and option, hyphens escaped for roff, and
 * no groff warning where groff is installed. */
static void man_page_lists_every_option(void **state)
{
    tc_run_result m = tc_run_cli("help --man");
    assert_int_equal(m.status, 0);
    assert_memory_equal(m.out, ".TH TCSCOPE 1 ", 14);
    char *names[64];
    size_t ncmd;
    char *keep = commands(&ncmd, names, 64);
    for (size_t c = 0; c < ncmd; c++) {
        char want[128];
        snprintf(want, sizeof want, ".SS \"tcscope %s ", names[c]);
        assert_non_null(strstr(m.out, want));
        tc_run_result o = run_fmt("help --options %s", names[c]);
        char *opts[128];
        size_t nopt = split_lines(o.out, opts, 128);
        for (size_t k = 0; k < nopt; k++) {
            if (!strcmp(opts[k], "--help") || !strcmp(opts[k], "--version") || !strcmp(opts[k], "--quiet"))
                continue;
            char roff[128] = ".B ", *w = roff + 3;
            for (const char *p = opts[k]; *p; p++)
                w += *p == '-' ? sprintf(w, "\\-") : sprintf(w, "%c", *p);
            if (!strstr(m.out, roff))
                fail_msg("no '%s' in the man page (tcscope %s)", roff, names[c]);
        }
        tc_run_result_free(&o);
    }
    free(keep);
    if (system("command -v groff >/dev/null 2>&1") == 0) {
        char path[] = "/tmp/tcs-manXXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0 && write(fd, m.out, strlen(m.out)) == (ssize_t)strlen(m.out));
        close(fd);
        char cmd[256];
        snprintf(cmd, sizeof cmd, "groff -man -Tutf8 -ww -z %s 2>&1 | grep -q . && exit 1; exit 0", path);
        int st = system(cmd);
        unlink(path);
        assert_int_equal(st, 0);
    }
    tc_run_result_free(&m);
}

/* The bash completion asks the binary it completes for its tables. */
static void bash_completion_uses_the_tables(void **state)
{
    static const char *const cases[][2] = {
        {"au", "audit"},
        {"audit --no-t", "--no-timing"},
        {"sweep --thr", "--threads"},
        {"help co", "convert compare"},
        {"rec", "record"},
        {"record --l", "--len"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024], out[] = "/tmp/tcs-compXXXXXX";
        close(mkstemp(out));
        snprintf(cmd, sizeof cmd,
                 "bash -c 'source doc/completion/tcscope.bash && COMP_WORDS=(%s %s) && "
                 "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _tcscope && echo ${COMPREPLY[*]}' >%s 2>&1",
                 tc_cli_path(), cases[i][0], out);
        assert_int_equal(system(cmd), 0);
        char *got = tc_slurp(out);
        unlink(out);
        char want[128], seen[512];
        snprintf(want, sizeof want, "%s\n", cases[i][1]);
        snprintf(seen, sizeof seen, "%s", got);
        free(got);
        if (strcmp(seen, want))
            fail_msg("completing '%s': got '%s', want '%s'", cases[i][0], seen, cases[i][1]);
    }
}

/* The zsh completion, where zsh is installed: compadd and _files stubbed to
 * print what they are given (zsh itself filters by the typed prefix). */
static void zsh_completion_uses_the_tables(void **state)
{
    if (system("command -v zsh >/dev/null 2>&1") != 0)
        skip();
    static const char *const cases[][3] = {
        {"au", "2", "formats convert list run record audit verify regress hunt cases sweep bench compare choose gemm import help --help --version"},
        {"audit --no-t", "3", "--backend --instr --out"},   /* the table's first three, in order */
        {"help co", "3", "formats convert list"},
        {"convert x", "3", "FILES"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024], out[] = "/tmp/tcs-compXXXXXX";
        close(mkstemp(out));
        snprintf(cmd, sizeof cmd,
                 "zsh -fc 'compadd() { [[ $1 == -- ]] && shift; print -r -- \"$*\"; }; _files() { print FILES; }; "
                 "f() { local -a words; words=(%s %s); CURRENT=%s; PREFIX=${words[-1]}; source doc/completion/_tcscope; }; f' "
                 ">%s 2>&1", tc_cli_path(), cases[i][0], cases[i][1], out);
        assert_int_equal(system(cmd), 0);
        char *got = tc_slurp(out), seen[512];
        unlink(out);
        snprintf(seen, sizeof seen, "%s", got);
        free(got);
        if (strncmp(seen, cases[i][2], strlen(cases[i][2])))
            fail_msg("zsh completing '%s': got '%s', want '%s...'", cases[i][0], seen, cases[i][2]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_command_lists_and_accepts_its_options),
        cmocka_unit_test(options_from_the_sources_are_documented),
        cmocka_unit_test(option_not_in_the_table_exits_two),
        cmocka_unit_test(did_you_mean_instructions_and_formats),
        cmocka_unit_test(version_is_the_records_version),
        cmocka_unit_test(man_page_lists_every_option),
        cmocka_unit_test(bash_completion_uses_the_tables),
        cmocka_unit_test(zsh_completion_uses_the_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
