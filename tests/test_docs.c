/* The documentation's promises (issue 31): README.md stays a front page of at
 * most 150 lines, and every relative link of README.md and of every doc/ page names a
 * file or folder of this repository (a page linked before it is written, or a
 * path outside the tree, fails here). Run from the repository root, as every
 * test is. The scanner is proved on planted pages first. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"

enum { README_MAX_LINES = 150 };

/* Lines of a text (a last line without '\n' counts, as wc -l does not: stricter). */
static int count_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        if (*p == '\n' || p[1] == '\0')
            n++;
    return n;
}

/* A target that leaves the page: a URL scheme, a mail address, or an anchor of the page itself. */
static int is_external(const char *t, size_t n)
{
    if (n && t[0] == '#')
        return 1;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == ':')
            return 1;
        if (t[i] == '/' || t[i] == '.')
            break;
    }
    return 0;
}

/* Whether the target (relative to the page's folder, anchor dropped) is a
 * file or folder inside root. */
static int resolves(const char *root, const char *page, const char *t, size_t n)
{
    char path[PATH_MAX], real[PATH_MAX], rroot[PATH_MAX];
    size_t end = 0;
    while (end < n && t[end] != '#' && t[end] != ' ')
        end++;
    if (end == 0)
        return 1;
    const char *slash = strrchr(page, '/');
    int dir = slash ? (int)(slash - page) : 0;
    if (t[0] == '/')
        return 0;   /* an absolute path names no file of the repository */
    snprintf(path, sizeof path, "%s/%.*s%s%.*s", root, dir, page, dir ? "/" : "", (int)end, t);
    struct stat st;
    if (stat(path, &st) != 0 || !realpath(path, real) || !realpath(root, rroot))
        return 0;
    size_t rl = strlen(rroot);
    return strncmp(real, rroot, rl) == 0 && (real[rl] == '/' || real[rl] == '\0');
}

/* Counts the relative links of PAGE (a path under root) that do not resolve,
 * printing each; fenced code blocks and inline code are not links. */
static int broken_links(const char *root, const char *page)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", root, page);
    char *text = tc_slurp(path);
    int bad = 0, fenced = 0, line = 1;
    for (char *p = text; *p; p++) {
        if ((p == text || p[-1] == '\n') && strncmp(p, "```", 3) == 0)
            fenced = !fenced;
        if (*p == '\n')
            line++;
        if (fenced)
            continue;
        if (*p == '`') {   /* skip inline code */
            char *q = strchr(p + 1, '`');
            if (q && !memchr(p + 1, '\n', (size_t)(q - p - 1)))
                p = q;
            continue;
        }
        if (p[0] != ']' || p[1] != '(')
            continue;
        char *t = p + 2, *close = strchr(t, ')');
        if (!close)
            break;
        size_t n = (size_t)(close - t);
        if (!is_external(t, n) && !resolves(root, page, t, n)) {
            fprintf(stderr, "%s:%d: link to %.*s names no file of the repository\n", page, line, (int)n, t);
            bad++;
        }
        p = close;
    }
    free(text);
    return bad;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The scanner on planted pages: it must find what is broken and nothing else. */
static void test_scanner_finds_planted_links(void **state)
{
    (void)state;
    char root[] = "/tmp/tcs-docsXXXXXX";
    assert_non_null(mkdtemp(root));
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s/doc", root);
    assert_int_equal(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/doc/a.md", root);
    write_file(p, "[ok](b.md#x) [up](../top.md) [web](https://example.org) [self](#here)\n"
                  "`[code](nowhere.md)`\n```\n[fenced](nowhere.md)\n```\n");
    snprintf(p, sizeof p, "%s/doc/b.md", root);
    write_file(p, "[missing](missing.md) [outside](../../etc/passwd) [absolute](/etc/passwd)\n");
    snprintf(p, sizeof p, "%s/top.md", root);
    write_file(p, "[a](doc/a.md) [gone](doc/python.md)\n");
    assert_int_equal(broken_links(root, "doc/a.md"), 0);
    assert_int_equal(broken_links(root, "doc/b.md"), 3);
    assert_int_equal(broken_links(root, "top.md"), 1);
    assert_int_equal(count_lines("a\nb\n"), 2);
    assert_int_equal(count_lines("a\nb"), 2);
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    assert_int_equal(system(cmd), 0);
}

static void test_readme_is_short(void **state)
{
    (void)state;
    char *text = tc_slurp("README.md");
    int n = count_lines(text);
    free(text);
    if (n > README_MAX_LINES)
        fail_msg("README.md has %d lines; at most %d (the rest belongs in doc/)", n, README_MAX_LINES);
    assert_true(n > 10);   /* it was read */
}

static void test_every_link_resolves(void **state)
{
    (void)state;
    int bad = broken_links(".", "README.md"), pages = 0;
    DIR *d = opendir("doc");
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".md") == 0) {
            char page[PATH_MAX];
            snprintf(page, sizeof page, "doc/%s", e->d_name);
            bad += broken_links(".", page);
            pages++;
        }
    }
    closedir(d);
    assert_true(pages >= 8);   /* the guides, findings, design, contributing */
    if (bad)
        fail_msg("%d links name no file of the repository (listed above)", bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scanner_finds_planted_links),
        cmocka_unit_test(test_readme_is_short),
        cmocka_unit_test(test_every_link_resolves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
