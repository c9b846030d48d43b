/* No circle of files that call each other (issue 31), in any folder: the
 * file-level call graph of every object of this build (tests/file_graph.h:
 * X -> Y when X's object uses a symbol that Y's defines) must have no two
 * files that reach each other. A circle is printed file -> file with a
 * symbol that makes each arrow; the usual mend is to move the helper to the
 * file that owns it. The detector is first shown a planted circle of two
 * objects compiled here, so that a reader finding nothing cannot pass. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/file_graph.h"

#if defined(__SANITIZE_ADDRESS__)
#define BUILD "build/san"
#else
#define BUILD "build/opt"
#endif

/* cases/families, probes/cuda and cases/cuda (the CUDA objects, where nvcc
 * built them) are folders of their own in the build. */
static const char *const folders[] = {"formats", "oracle", "probes", "probes/cuda", "cases",
                                      "cases/families", "cases/cuda", "reports", "api", "cli"};

static void test_a_planted_circle_is_found(void **st)
{
    char dir[] = BUILD "/tests/cyclesXXXXXX", cwd[4096];
    assert_non_null(mkdtemp(dir));
    assert_non_null(getcwd(cwd, sizeof cwd));
    char cmd[1024];
    /* p/a.c and p/b.c call each other; p/d.c calls into them; obj/p/gone.o
     * has no source (a file since removed) and is not read */
    snprintf(cmd, sizeof cmd,
             "cd %s && mkdir -p p obj/p && printf 'int b(int);\\nint a(int x){return x ? b(x - 1) : 0;}\\n' > p/a.c && "
             "printf 'int a(int);\\nint b(int x){return x ? a(x - 1) : 1;}\\n"
             "int c(int);\\nint c(int x){return x;}\\n' > p/b.c && "
             "printf 'int c(int);\\nint d(int);\\nint d(int x){return c(x);}\\n' > p/d.c && "
             "cc -c p/a.c -o obj/p/a.o && cc -c p/b.c -o obj/p/b.o && cc -c p/d.c -o obj/p/d.o && "
             "cp obj/p/a.o obj/p/gone.o",
             dir);
    assert_int_equal(system(cmd), 0);
    fg_graph *g = fg_new();
    assert_int_equal(chdir(dir), 0);
    bool read = fg_read_folder(g, "obj", "p");
    assert_int_equal(chdir(cwd), 0);
    assert_true(read);
    fg_link(g);
    assert_int_equal(g->nfiles, 3);
    assert_int_equal(g->nedges, 3);   /* a -> b, b -> a, d -> b */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    assert_non_null(out);
    assert_int_equal(fg_circles(g, out), 1);
    fclose(out);
    assert_non_null(strstr(text, "p/a -> p/b (b)"));
    assert_non_null(strstr(text, "p/b -> p/a (a)"));
    assert_null(strstr(text, "p/d"));   /* d calls into the circle but is no part of it */
    free(text);
    free(g);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_no_circle_of_files(void **st)
{
    fg_graph *g = fg_new();
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        int before = g->nfiles;
        assert_true(fg_read_folder(g, BUILD, folders[i]));
        /* every folder but the CUDA ones (no nvcc, no objects) was built */
        if (!strstr(folders[i], "/cuda") && g->nfiles == before)
            fail_msg("no objects in %s/%s: build %s first", BUILD, folders[i],
                     strcmp(BUILD, "build/san") ? "build/tcscope" : "build/san/tcscope");
    }
    fg_link(g);
    printf("# %d files, %d arrows\n", g->nfiles, g->nedges);
    assert_true(g->nfiles >= 150 && g->nedges >= 400);   /* the objects were read */
    int n = fg_circles(g, stderr);
    if (n)
        fail_msg("%d circle(s) of files that call each other (above)", n);
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_planted_circle_is_found),
        cmocka_unit_test(test_no_circle_of_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
