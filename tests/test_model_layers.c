/* The model's files call each other without a loop (issue 15): an edge
 * X -> Y when the object of oracle/X.c uses a symbol (nm: U) that the
 * object of oracle/Y.c defines, over every oracle/model*.o of this build;
 * the graph must be a DAG, with the dispatch (model.c) above the fast paths
 * and the reference (model_reference.c) below them. Before the reference
 * was split out, model.c and model_fast.c called each other, which this
 * test reports as a cycle. */
#include <glob.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#if defined(__SANITIZE_ADDRESS__)
#define OBJS "build/san/oracle/model*.o"
#else
#define OBJS "build/opt/oracle/model*.o"
#endif

enum { MAXF = 32, MAXSYM = 4096 };

typedef struct {
    char name[256];
    int file;   /* defining file, or -1 for a use */
} sym;

static char files[MAXF][64];
static int nfiles;
static bool edge[MAXF][MAXF];

/* Symbols of one object: defined (T, D, B, R) or used (U). */
static int read_syms(const char *path, int file, sym *out, int n)
{
    char cmd[512], line[512];
    snprintf(cmd, sizeof cmd, "nm %s", path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    while (fgets(line, sizeof line, p) && n < MAXSYM) {
        char a[256], b[256], c[256];
        int k = sscanf(line, "%255s %255s %255s", a, b, c);
        if (k == 2 && strcmp(a, "U") == 0) {
            snprintf(out[n].name, sizeof out[n].name, "%s", b);
            out[n++].file = -1 - file;
        } else if (k == 3 && strchr("TDBR", b[0]) && b[1] == '\0') {
            snprintf(out[n].name, sizeof out[n].name, "%s", c);
            out[n++].file = file;
        }
    }
    assert_int_equal(pclose(p), 0);
    return n;
}

static int state[MAXF];   /* 0 unseen, 1 on the path, 2 done */

static bool has_cycle(int u)
{
    state[u] = 1;
    for (int v = 0; v < nfiles; v++) {
        if (!edge[u][v])
            continue;
        if (state[v] == 1) {
            fprintf(stderr, "cycle through %s -> %s\n", files[u], files[v]);
            return true;
        }
        if (state[v] == 0 && has_cycle(v))
            return true;
    }
    state[u] = 2;
    return false;
}

static int file_index(const char *name)
{
    for (int i = 0; i < nfiles; i++)
        if (strcmp(files[i], name) == 0)
            return i;
    fail_msg("no object %s in %s", name, OBJS);
    return -1;
}

/* true if v is reachable from u */
static bool reaches(int u, int v)
{
    bool seen[MAXF] = {false}, grew = true;
    seen[u] = true;
    while (grew) {
        grew = false;
        for (int a = 0; a < nfiles; a++)
            for (int b = 0; b < nfiles; b++)
                if (seen[a] && edge[a][b] && !seen[b])
                    seen[b] = grew = true;
    }
    return seen[v];
}

static void test_model_files_form_a_dag(void **st)
{
    glob_t g;
    assert_int_equal(glob(OBJS, 0, NULL, &g), 0);
    static sym syms[MAXSYM];
    int n = 0;
    for (size_t i = 0; i < g.gl_pathc && nfiles < MAXF; i++) {
        const char *base = strrchr(g.gl_pathv[i], '/') + 1;
        snprintf(files[nfiles], sizeof files[nfiles], "%.*s", (int)(strlen(base) - 2), base);
        n = read_syms(g.gl_pathv[i], nfiles, syms, n);
        nfiles++;
    }
    globfree(&g);
    int nedges = 0;
    for (int u = 0; u < n; u++) {
        if (syms[u].file >= 0)
            continue;
        for (int d = 0; d < n; d++)
            if (syms[d].file >= 0 && strcmp(syms[u].name, syms[d].name) == 0) {
                int from = -1 - syms[u].file, to = syms[d].file;
                if (from != to && !edge[from][to]) {
                    edge[from][to] = true;
                    printf("%s.c -> %s.c (%s)\n", files[from], files[to], syms[u].name);
                    nedges++;
                }
            }
    }
    assert_true(nfiles >= 8 && nedges >= 10);   /* the objects were read */
    for (int u = 0; u < nfiles; u++)
        assert_false(state[u] == 0 && has_cycle(u));
    /* the layers: dispatch above the fast paths, the reference below them */
    int top = file_index("model"), ref = file_index("model_reference"), fmt = file_index("model_fmt");
    static const char *const fast[] = {"model_int64", "model_int128", "model_wide", "model_avx512"};
    for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++) {
        int f = file_index(fast[i]);
        assert_true(reaches(top, f) && reaches(f, fmt) && !reaches(ref, f) && !reaches(f, top));
    }
    assert_true(reaches(ref, fmt) && !reaches(fmt, ref));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_files_form_a_dag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
