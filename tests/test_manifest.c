/* reports/baselines/MANIFEST (tools/manifest.py, reports/SCHEMA.md "The
 * manifest"): the committed one lists every file under reports/baselines/
 * with its size and sha256; and the check fails when a file is missing from
 * a manifest, a line names an absent file, or a hash differs: shown on a
 * scratch folder whose manifest this test writes itself, the hashes from
 * coreutils' sha256sum, not from the tool under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/testutil.h"

static char dir[] = "/tmp/tcs-manifestXXXXXX";

/* Runs the check on the scratch folder (or, dir NULL, the committed one):
 * its exit status, and its output in out (freed by the caller). */
static int check(const char *in, char **out)
{
    char log[] = "/tmp/tcs-manifest-logXXXXXX";
    int fd = mkstemp(log);
    close(fd);
    char cmd[512];
    if (in)
        snprintf(cmd, sizeof cmd, "python3 tools/manifest.py check --dir %s > %s 2>&1", in, log);
    else
        snprintf(cmd, sizeof cmd, "python3 tools/manifest.py check > %s 2>&1", log);
    int st = system(cmd);
    *out = tc_slurp(log);
    unlink(log);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void put(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The manifest line of one scratch file: path, size, sha256 (sha256sum),
 * and the human columns. */
static void manifest_line(FILE *m, const char *name)
{
    char cmd[256], hex[65] = "";
    snprintf(cmd, sizeof cmd, "cd %s && sha256sum -- %s && stat -c %%s -- %s", dir, name, name);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    long size = -1;
    char got[256];
    assert_int_equal(fscanf(p, "%64s %255s %ld", hex, got, &size), 3);
    assert_int_equal(pclose(p), 0);
    fprintf(m, "%s\t%ld\t%s\t2026-11-28\t-\t-\twritten by tests/test_manifest.c\ttests/test_manifest.c\t-\n", name,
            size, hex);
}

static int scratch(void **state)
{
    if (!mkdtemp(dir))
        return -1;
    char sub[64];
    snprintf(sub, sizeof sub, "%s/km", dir);
    if (mkdir(sub, 0700))
        return -1;
    put("a.jsonl", "{\"kind\":\"end\",\"objects\":0}\n");
    put("km/b.txt", "rows\n");
    char path[128];
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    FILE *m = fopen(path, "w");
    fputs("# a scratch manifest\n", m);
    manifest_line(m, "a.jsonl");
    manifest_line(m, "km/b.txt");
    fclose(m);
    return 0;
}

static int cleanup(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf -- %s", dir);
    return system(cmd);
}

static void the_committed_manifest_matches_the_files(void **state)
{
    char *out;
    int rc = check(NULL, &out);
    if (rc)
        fail_msg("tools/manifest.py check (exit %d):\n%s", rc, out);
    assert_non_null(strstr(out, "every file listed, every hash the same"));
    free(out);
}

static void a_true_manifest_passes(void **state)
{
    char *out;
    assert_int_equal(check(dir, &out), 0);
    assert_non_null(strstr(out, "2 files, every file listed"));
    free(out);
}

static void a_file_missing_from_the_manifest_fails(void **state)
{
    put("new.jsonl", "{}\n");
    char *out;
    assert_int_equal(check(dir, &out), 1);
    assert_non_null(strstr(out, "new.jsonl: not in the manifest"));
    free(out);
    char path[128];
    snprintf(path, sizeof path, "%s/new.jsonl", dir);
    unlink(path);
    assert_int_equal(check(dir, &out), 0);
    free(out);
}

static void a_changed_file_fails(void **state)
{
    put("km/b.txt", "rowz\n");   /* same size, another sha256 */
    char *out;
    assert_int_equal(check(dir, &out), 1);
    assert_non_null(strstr(out, "km/b.txt: size or sha256 differs"));
    free(out);
    put("km/b.txt", "rows\n");
    assert_int_equal(check(dir, &out), 0);
    free(out);
}

static void an_absent_file_fails(void **state)
{
    char path[128];
    snprintf(path, sizeof path, "%s/a.jsonl", dir);
    unlink(path);
    char *out;
    assert_int_equal(check(dir, &out), 1);
    assert_non_null(strstr(out, "a.jsonl: in the manifest but absent"));
    free(out);
    snprintf(path, sizeof path, "%s/MANIFEST", dir);
    unlink(path);
    assert_int_equal(check(dir, &out), 1);   /* and no manifest at all */
    assert_non_null(strstr(out, "absent (make manifest writes it)"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_committed_manifest_matches_the_files),
        cmocka_unit_test(a_true_manifest_passes),
        cmocka_unit_test(a_file_missing_from_the_manifest_fails),
        cmocka_unit_test(a_changed_file_fails),
        cmocka_unit_test(an_absent_file_fails),
    };
    return cmocka_run_group_tests(tests, scratch, cleanup);
}
