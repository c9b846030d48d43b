/* The folders' dependency arrows (doc/design.md "The pipeline"): formats/ ->
 * oracle/ -> probes/ -> cases/ -> reports/ (probes/ runs the model of
 * oracle/, cases/ drives probes/, reports/ writes what cases/ and probes/
 * hand it). A file may include its own folder's headers and those of
 * folders before it, never one after: the data flows one way, and a
 * producer never knows how its results are written. cli/ and tests/ sit on
 * top and may include anything. Every #include "DIR/..." of every source
 * file under the five folders is checked; the scanner itself is checked on
 * a planted violation first, so that a scanner finding nothing cannot pass. */
#include <dirent.h>
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

static const char *const order[] = {"formats", "oracle", "probes", "cases", "reports"};
#define NLAYERS (int)(sizeof order / sizeof order[0])

static int rank_of(const char *dir, size_t len)
{
    for (int i = 0; i < NLAYERS; i++)
        if (strlen(order[i]) == len && !strncmp(order[i], dir, len))
            return i;
    return -1;   /* cli/, tests/, a system path: not a layer */
}

static int is_source(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcmp(dot, ".c") || !strcmp(dot, ".h") || !strcmp(dot, ".cu") || !strcmp(dot, ".cuh") ||
                   !strcmp(dot, ".def"));
}

/* Includes in path that reach a later layer than rank: printed, counted. */
static int file_violations(const char *path, int rank)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int bad = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        const char *p = line + strspn(line, " \t");
        if (strncmp(p, "#include", 8))
            continue;
        p = strchr(p, '"');
        const char *slash = p ? strchr(p + 1, '/') : NULL;
        if (!p || !slash)
            continue;
        int to = rank_of(p + 1, (size_t)(slash - p - 1));
        if (to > rank) {
            fprintf(stderr, "  %s:%d includes a later layer (%s -> %.*s)\n", path, lineno, order[rank],
                    (int)(slash - p - 1), p + 1);
            bad++;
        }
    }
    fclose(f);
    return bad;
}

/* Every source file under dir (recursively), as layer rank. */
static int tree_violations(const char *dir, int rank, int *files)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int bad = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        assert_int_equal(lstat(path, &st), 0);
        if (S_ISDIR(st.st_mode))
            bad += tree_violations(path, rank, files);
        else if (S_ISREG(st.st_mode) && is_source(e->d_name)) {
            bad += file_violations(path, rank);
            (*files)++;
        }
    }
    closedir(d);
    return bad;
}

/* The scanner sees an upward include, and not a sideways or downward one. */
static void test_scanner_finds_a_planted_violation(void **state)
{
    (void)state;
    char dir[] = "/tmp/tcs-layersXXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/x.c", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "#include <stdio.h>\n#include \"probes/probes.h\"\n  #include \"reports/reports.h\"\n"
               "#include \"formats/formats.h\"\n#include \"cli/cli.h\"\n");
    fclose(f);
    int files = 0;
    assert_int_equal(tree_violations(dir, 1 /* as oracle/ */, &files), 2);   /* probes/, reports/ */
    assert_int_equal(files, 1);
    assert_int_equal(tree_violations(dir, 4 /* as reports/ */, &files), 0);
    remove(path);
    rmdir(dir);
}

static void test_no_folder_includes_a_later_one(void **state)
{
    (void)state;
    int bad = 0, files = 0;
    for (int i = 0; i < NLAYERS; i++)
        bad += tree_violations(order[i], i, &files);
    fprintf(stderr, "  %d source files of %d folders checked, %d upward includes\n", files, NLAYERS, bad);
    assert_true(files > 100);   /* run from the repository root, on the whole tree */
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scanner_finds_a_planted_violation),
        cmocka_unit_test(test_no_folder_includes_a_later_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
