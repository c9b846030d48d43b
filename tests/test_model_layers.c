/* The model's files call each other without a loop (issue 15): an edge
 * X -> Y when the object of oracle/X.c uses a symbol (nm: U) that the
 * object of oracle/Y.c defines, over every oracle/ object of this build
 * (tests/file_graph.h); the graph must be a DAG, with the dispatch
 * (model_dot.c) above the fast paths and the reference (model_reference.c)
 * below them. Before the reference was split out, the dispatch and
 * model_fast.c called each other, which this test reports as a cycle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/file_graph.h"

#if defined(__SANITIZE_ADDRESS__)
#define BUILD "build/san"
#else
#define BUILD "build/opt"
#endif

static int file_index(const fg_graph *g, const char *name)
{
    int i = fg_index(g, name);
    if (i < 0)
        fail_msg("no object %s in %s/oracle", name, BUILD);
    return i;
}

static void test_model_files_form_a_dag(void **st)
{
    fg_graph *g = fg_new();
    assert_true(fg_read_folder(g, BUILD, "oracle"));
    fg_link(g);
    int nmodel = 0;
    for (int i = 0; i < g->nfiles; i++)
        nmodel += !strncmp(g->files[i], "oracle/model", 12);
    for (int u = 0; u < g->nfiles; u++)
        for (int v = 0; v < g->nfiles; v++)
            if (g->edge[u][v] && !strncmp(g->files[u], "oracle/model", 12))
                printf("%s.c -> %s.c (%s)\n", g->files[u], g->files[v], fg_why(g, u, v));
    assert_true(nmodel >= 8 && g->nedges >= 10);   /* the objects were read */
    assert_int_equal(fg_circles(g, stderr), 0);
    /* the layers: dispatch above the fast paths, the reference below them */
    int top = file_index(g, "oracle/model_dot"), ref = file_index(g, "oracle/model_reference"),
        fmt = file_index(g, "oracle/model_fmt");
    static const char *const fast[] = {"oracle/model_int64", "oracle/model_int128", "oracle/model_wide",
                                       "oracle/model_avx512"};
    for (size_t i = 0; i < sizeof fast / sizeof fast[0]; i++) {
        int f = file_index(g, fast[i]);
        assert_true(fg_reaches(g, top, f) && fg_reaches(g, f, fmt) && !fg_reaches(g, ref, f) &&
                    !fg_reaches(g, f, top));
    }
    assert_true(fg_reaches(g, ref, fmt) && !fg_reaches(g, fmt, ref));
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_files_form_a_dag),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
