/* The committed reports of reports/baselines/ are what `make report`
 * (tools/report.sh) renders from their records today, byte for byte: the
 * script is run into a temporary folder and every file compared with the
 * committed one; a difference names the file and its first differing line.
 * The plots (the .svg files and the sweep pages that inline them) are drawn
 * by gnuplot, whose SVG differs between its versions: they are compared
 * when this gnuplot is the one that drew the committed plots, and skipped
 * (said so) otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdbool.h>

#include "tests/testutil.h"

#define BASE "reports/baselines"

/* What tools/report.sh writes; the plots apart. */
static const char *const plain[] = {"h100-audit.md", "h100-audit.html", "h100-sweep.md", "h100-sweep-wgmma.md"};
static const char *const plotted[] = {"h100-sweep.html",       "h100-sweep-median.svg",       "h100-sweep-p90.svg",
                                      "h100-sweep-wgmma.html", "h100-sweep-wgmma-median.svg", "h100-sweep-wgmma-p90.svg"};
#define NPLAIN (sizeof plain / sizeof plain[0])
#define NPLOTTED (sizeof plotted / sizeof plotted[0])

static char dir[] = "/tmp/tcs-rbaseXXXXXX";

/* The whole file and its length; NULL when it cannot be read. */
static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    for (size_t got; (got = fread(buf + len, 1, cap - len, f)) > 0;)
        if ((len += got) == cap)
            buf = realloc(buf, cap *= 2);
    fclose(f);
    *n = len;
    return buf;
}

/* NULL when the two files are the same bytes, else why not (static text). */
static const char *differs(const char *fresh, const char *committed)
{
    static char why[600];
    size_t na, nb;
    char *a = read_all(fresh, &na), *b = read_all(committed, &nb);
    const char *res = NULL;
    if (!a || !b) {
        snprintf(why, sizeof why, "%s missing", a ? committed : fresh);
        res = why;
    } else if (na != nb || memcmp(a, b, na)) {
        size_t i = 0, line = 1;
        for (; i < na && i < nb && a[i] == b[i]; i++)
            line += a[i] == '\n';
        snprintf(why, sizeof why, "%s differs from %s (%zu vs %zu bytes): first at line %zu", committed, fresh, nb,
                 na, line);
        res = why;
    }
    free(a);
    free(b);
    return res;
}

static int render_all(void **state)
{
    if (!mkdtemp(dir))
        return -1;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "TCSCOPE=%s tools/report.sh %s >/dev/null", tc_cli_path(), dir);
    return system(cmd) == 0 ? 0 : -1;
}

static int remove_all(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void compare(const char *const *names, size_t n)
{
    char fresh[300], committed[300];
    for (size_t i = 0; i < n; i++) {
        snprintf(fresh, sizeof fresh, "%s/%s", dir, names[i]);
        snprintf(committed, sizeof committed, BASE "/%s", names[i]);
        const char *why = differs(fresh, committed);
        if (why)
            fail_msg("%s: run `make report` and commit it if the renderer changed on purpose", why);
    }
}

static void reports_without_plots_are_the_rendered_ones(void **state)
{
    compare(plain, NPLAIN);
}

/* "5.4 patchlevel 4" from gnuplot --version here and from a committed plot's <desc>. */
static void gnuplot_versions(char *here, char *drew, size_t len)
{
    here[0] = drew[0] = '\0';
    FILE *p = popen("gnuplot --version 2>/dev/null", "r");
    char line[200] = "";
    if (p && fgets(line, sizeof line, p) && !strncmp(line, "gnuplot ", 8))
        snprintf(here, len, "%.*s", (int)strcspn(line + 8, "\n"), line + 8);
    if (p)
        pclose(p);
    char *svg = tc_slurp(BASE "/h100-sweep-median.svg");
    const char *at = strstr(svg, "Produced by GNUPLOT ");
    if (at)
        snprintf(drew, len, "%.*s", (int)strcspn(at + 20, " <"), at + 20);
    if (at && strncmp(at + 20 + strlen(drew), " patchlevel ", 12) == 0) {
        const char *pl = at + 20 + strlen(drew) + 12;
        snprintf(drew + strlen(drew), len - strlen(drew), " patchlevel %.*s", (int)strcspn(pl, " <"), pl);
    }
    free(svg);
}

static void plots_are_the_rendered_ones(void **state)
{
    char here[100], drew[100];
    gnuplot_versions(here, drew, sizeof here);
    assert_true(drew[0]);
    if (strcmp(here, drew)) {
        print_message("# gnuplot here '%s', the committed plots by '%s': plots not compared\n", here, drew);
        skip();
    }
    compare(plotted, NPLOTTED);
}

/* The script wrote these files and no others (the lists above are its outputs). */
static void the_script_writes_exactly_these_files(void **state)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t seen = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        bool known = false;
        for (size_t i = 0; i < NPLAIN; i++)
            known |= !strcmp(e->d_name, plain[i]);
        for (size_t i = 0; i < NPLOTTED; i++)
            known |= !strcmp(e->d_name, plotted[i]);
        if (!known)
            fail_msg("tools/report.sh wrote %s, not in this test's lists", e->d_name);
        seen++;
    }
    closedir(d);
    assert_int_equal(seen, NPLAIN + NPLOTTED);
}

/* The comparison itself: one changed byte, and a missing file, are found. */
static void a_changed_byte_is_found(void **state)
{
    char copy[300], fresh[300];
    snprintf(fresh, sizeof fresh, "%s/%s", dir, plain[2]);
    snprintf(copy, sizeof copy, "%s/changed.md", dir);
    size_t n;
    char *text = read_all(fresh, &n);
    assert_non_null(text);
    assert_true(n > 100);
    text[n / 2] ^= 1;
    FILE *f = fopen(copy, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    free(text);
    assert_null(differs(fresh, BASE "/h100-sweep.md"));
    assert_non_null(strstr(differs(copy, BASE "/h100-sweep.md"), "differs"));
    assert_int_equal(unlink(copy), 0);
    assert_non_null(strstr(differs(copy, BASE "/h100-sweep.md"), "missing"));
}

/* audit --render: a record that is not there, and reports already in the
 * folder without --force, exit 2 with a message; nothing is replaced. */
static void render_refuses_bad_input(void **state)
{
    char args[400];
    snprintf(args, sizeof args, "audit --render %s/no-such.jsonl.gz --out %s/x", dir, dir);
    tc_run_result r = tc_run_cli(args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no-such.jsonl.gz"));
    tc_run_result_free(&r);
    snprintf(args, sizeof args, "audit --render " BASE "/h100-audit.jsonl.gz --out %s", dir);
    r = tc_run_cli(args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "h100-audit.md"));
    assert_string_equal(r.out, "");
    tc_run_result_free(&r);
    compare(plain, 2); /* the audit's pages there still the rendered ones */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reports_without_plots_are_the_rendered_ones),
        cmocka_unit_test(plots_are_the_rendered_ones),
        cmocka_unit_test(the_script_writes_exactly_these_files),
        cmocka_unit_test(a_changed_byte_is_found),
        cmocka_unit_test(render_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, render_all, remove_all);
}
