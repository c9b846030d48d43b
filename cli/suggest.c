/* "did you mean": the nearest known name to a mistyped one (an option, an
 * instruction, a format), by edit distance with transpositions. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "formats/formats.h"
#include "probes/probes.h"

/* Optimal string alignment distance: insertions, deletions, substitutions
 * and swaps of neighbours ("bf61" is one step from "bf16"). */
static size_t distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    size_t *d = malloc((n + 1) * (m + 1) * sizeof *d);
    if (!d)
        return (size_t)-1;
#define D(i, j) d[(i) * (m + 1) + (j)]
    for (size_t i = 0; i <= n; i++)
        D(i, 0) = i;
    for (size_t j = 0; j <= m; j++)
        D(0, j) = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t best = D(i - 1, j - 1) + (a[i - 1] != b[j - 1]);
            if (D(i - 1, j) + 1 < best)
                best = D(i - 1, j) + 1;
            if (D(i, j - 1) + 1 < best)
                best = D(i, j - 1) + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && D(i - 2, j - 2) + 1 < best)
                best = D(i - 2, j - 2) + 1;
            D(i, j) = best;
        }
    size_t r = D(n, m);
#undef D
    free(d);
    return r;
}

const char *cli_nearest(const char *word, const char *const *names, size_t n)
{
    /* A few edits for a long name, one for a short one: "f8" is not "f16"'s typo. */
    size_t len = strlen(word), limit = len <= 4 ? 1 : len / 5 > 2 ? len / 5 : 2;
    const char *best = NULL;
    size_t best_d = limit + 1;
    for (size_t k = 0; k < n; k++) {
        size_t dk = distance(word, names[k]);
        if (dk < best_d) {
            best_d = dk;
            best = names[k];
        }
    }
    return best;
}

int cli_unknown_instr(const char *cmd, const char *opt, const char *name)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names)
        return cli_fail(cmd, "out of memory");
    for (size_t i = 0; i < n; i++)
        names[i] = cat[i].name;
    const char *near = cli_nearest(name, names, n);
    cli_fail(cmd, "%s%sunknown instruction '%s' (%s%s%ssee tcscope list)", opt ? opt : "", opt ? ": " : "",
             name, near ? "did you mean " : "", near ? near : "", near ? "? " : "");
    free(names);
    return TC_EXIT_USAGE;
}

/* Names people use for more than one format: every candidate is named
 * (the unambiguous ones, fp16, bfloat16, ..., are formats/'s aliases). */
static const char *format_alias(const char *low)
{
    static const char *const alias[][2] = {{"fp8", "e4m3 or e5m2"}, {"float8", "e4m3 or e5m2"},
                                           {"fp6", "e3m2 or e2m3"}, {"float6", "e3m2 or e2m3"}};
    for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
        if (!strcmp(low, alias[i][0]))
            return alias[i][1];
    return NULL;
}

const tc_format *cli_format_named(const char *cmd, const char *opt, const char *name, tc_format *scratch)
{
    /* a generic eXmY format keeps a pointer to its name: the lowercase copy must outlive the call */
    static char ring[32][64];
    static unsigned next;
    char *low = ring[next++ % 32];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof ring[0]; i++)
        low[i] = (char)tolower((unsigned char)name[i]);
    low[i] = '\0';
    const tc_format *f = name[i] ? NULL : tc_format_by_name(low, scratch);   /* E4M3 is e4m3 */
    if (f)
        return f;
    const char *alias = name[i] ? NULL : format_alias(low);
    if (alias)
        cli_fail(cmd, "%s%sunknown format '%s' (did you mean %s? see tcscope formats)", opt ? opt : "", opt ? ": " : "",
                 name, alias);
    else
        cli_unknown_format(cmd, opt, name);
    return NULL;
}

int cli_unknown_format(const char *cmd, const char *opt, const char *name)
{
    size_t n;
    const tc_format *const *list = tc_format_list(&n);
    const char *names[64];
    size_t m = 0;
    for (size_t i = 0; i < n && m < 64; i++)
        names[m++] = list[i]->name;
    const char *near = cli_nearest(name, names, m);
    return cli_fail(cmd, "%s%sunknown format '%s' (%s%s%ssee tcscope formats)", opt ? opt : "", opt ? ": " : "",
                    name, near ? "did you mean " : "", near ? near : "", near ? "? " : "");
}
