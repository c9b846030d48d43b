/* Output folders and run markers (reports/outdir.c, reports/run_marker.c):
 * names stay inside the folder, files appear whole or not at all, links are
 * never written through, an existing file is kept without force, and a record
 * beside a run marker is read only when that run wrote it and finished. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <sys/stat.h>

#include "reports/reports.h"
#include "tests/testutil.h"

/* A fresh folder NAME in the test folder (removed first). */
static void fresh(const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", tc_tmp_root(), name);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    assert_int_equal(system(cmd), 0);
}

/* Names in a folder, '\n'-separated and sorted, "." and ".." left out. */
static char *listing(const char *path)
{
    struct dirent **ents;
    int n = scandir(path, &ents, NULL, alphasort);
    assert_true(n >= 0);
    size_t cap = 4096, o = 0;
    char *s = calloc(cap, 1);
    for (int i = 0; i < n; i++) {
        if (strcmp(ents[i]->d_name, ".") && strcmp(ents[i]->d_name, ".."))
            o += (size_t)snprintf(s + o, cap - o, "%s\n", ents[i]->d_name);
        free(ents[i]);
    }
    free(ents);
    return s;
}

static void names_must_be_plain(void **state)
{
    static const char *const good[] = {"audit.jsonl", "h100.profile", "a-b_c.d", "x"};
    static const char *const bad[] = {"", ".", "..", "../x", "../../ESCAPED", "a/b", "/etc/passwd", ".hidden",
                                      "a\nb", "a\033b"};
    char err[256];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        assert_true(tc_out_name_ok(good[i], err, sizeof err));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        if (tc_out_name_ok(bad[i], err, sizeof err))
            fail_msg("'%s' accepted as an output name", bad[i]);
        assert_non_null(strstr(err, "bad output name"));
        assert_null(strchr(err, '\033')); /* a control character is not echoed */
    }
    char longname[TC_OUT_NAME_MAX + 2];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_false(tc_out_name_ok(longname, err, sizeof err));
    longname[TC_OUT_NAME_MAX] = '\0';
    assert_true(tc_out_name_ok(longname, err, sizeof err));
}

static void folder_is_created_and_a_linked_folder_refused(void **state)
{
    char path[512], deep[600], link[600], err[600];
    fresh("made", path, sizeof path);
    snprintf(deep, sizeof deep, "%s/a/b/c", path);
    tc_outdir d;
    assert_int_equal(tc_outdir_open(&d, deep, false, err, sizeof err), 0);
    tc_outdir_close(&d);
    struct stat st;
    assert_int_equal(stat(deep, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    /* the output folder a symbolic link (to a real folder): refused, nothing written there */
    snprintf(link, sizeof link, "%s/link", path);
    assert_int_equal(symlink(deep, link), 0);
    assert_int_equal(tc_outdir_open(&d, link, true, err, sizeof err), -1);
    assert_non_null(strstr(err, "symbolic link"));
    /* a file where a folder should be */
    snprintf(link, sizeof link, "%s/file", path);
    assert_int_equal(tc_put_file(link, "x"), 0);
    snprintf(deep, sizeof deep, "%s/file/sub", path);
    assert_int_equal(tc_outdir_open(&d, deep, true, err, sizeof err), -1);
    assert_int_equal(tc_outdir_open(&d, "", true, err, sizeof err), -1);
}

static int emit_hello(FILE *f, const void *ctx)
{
    return fputs(ctx, f) < 0 ? -1 : 0;
}

static int emit_then_fail(FILE *f, const void *ctx)
{
    fputs("half a file", f);
    return -1;
}

static void writes_are_whole_kept_and_never_through_links(void **state)
{
    char path[512], file[600], target[600], err[600];
    fresh("w", path, sizeof path);
    tc_outdir d, force;
    assert_int_equal(tc_outdir_open(&d, path, false, err, sizeof err), 0);
    assert_int_equal(tc_outdir_open(&force, path, true, err, sizeof err), 0);
    assert_int_equal(tc_out_write(&d, "r.txt", emit_hello, "first\n", err, sizeof err), 0);
    snprintf(file, sizeof file, "%s/r.txt", path);
    char *got = tc_slurp(file);
    assert_string_equal(got, "first\n");
    free(got);
    /* kept without force, with a message that says how to replace it */
    assert_int_equal(tc_out_write(&d, "r.txt", emit_hello, "second\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "--force"));
    got = tc_slurp(file);
    assert_string_equal(got, "first\n");
    free(got);
    const char *names[] = {"r.txt"};
    assert_int_equal(tc_out_check_free(&d, names, 1, err, sizeof err), -1);
    assert_int_equal(tc_out_check_free(&force, names, 1, err, sizeof err), 0);
    /* replaced with force */
    assert_int_equal(tc_out_write(&force, "r.txt", emit_hello, "second\n", err, sizeof err), 0);
    got = tc_slurp(file);
    assert_string_equal(got, "second\n");
    free(got);
    /* a writer that fails leaves neither the name nor a temporary file */
    assert_int_equal(tc_out_write(&force, "half.txt", emit_then_fail, NULL, err, sizeof err), -1);
    /* a link at the name: not written through, not replaced, even with force */
    snprintf(target, sizeof target, "%s/target", tc_tmp_root());
    assert_int_equal(tc_put_file(target, "precious\n"), 0);
    snprintf(file, sizeof file, "%s/audit.md", path);
    assert_int_equal(symlink(target, file), 0);
    assert_int_equal(tc_out_write(&d, "audit.md", emit_hello, "evil\n", err, sizeof err), -1);
    assert_non_null(strstr(err, "symbolic link"));
    assert_int_equal(tc_out_write(&force, "audit.md", emit_hello, "evil\n", err, sizeof err), -1);
    const char *md[] = {"audit.md"};
    assert_int_equal(tc_out_check_free(&force, md, 1, err, sizeof err), -1);
    assert_int_equal(tc_out_remove(&force, "audit.md", err, sizeof err), -1);
    got = tc_slurp(target);
    assert_string_equal(got, "precious\n");
    free(got);
    /* names from elsewhere cannot leave the folder */
    assert_int_equal(tc_out_write(&force, "../escaped", emit_hello, "x", err, sizeof err), -1);
    assert_int_equal(tc_out_write(&force, "sub/x", emit_hello, "x", err, sizeof err), -1);
    char outside[600];
    snprintf(outside, sizeof outside, "%s/escaped", tc_tmp_root());
    assert_int_not_equal(access(outside, F_OK), 0);
    char *ls = listing(path);
    assert_string_equal(ls, ".lock\naudit.md\nr.txt\n"); /* no temporary file left behind; the run's lock */
    free(ls);
    tc_outdir_close(&force); /* a second open in the run that holds the lock: it stays */
    ls = listing(path);
    assert_string_equal(ls, ".lock\naudit.md\nr.txt\n");
    free(ls);
    tc_outdir_close(&d); /* the holder: removed */
    ls = listing(path);
    assert_string_equal(ls, "audit.md\nr.txt\n");
    free(ls);
}

static tc_record small_record(void)
{
    tc_run_info info = {.backend = "model:test", .device = "model (no GPU)"};
    uint64_t seed = 7, d[4] = {1, 2, 3, 4};
    tc_record r = tc_record_new(tc_record_header("corpus", &info, &seed, 1));
    assert_int_equal(tc_record_add(&r, tc_record_corpus_new("mma.m16n8k8.f16.f16.f16.f16", d, 4, 4, 0, NULL,
                                                            NULL, NULL),
                                   NULL, 0),
                     0);
    return r;
}

/* tc_record_load on path: 0 (read), or -1 with err containing want. */
static void load_expect(const char *path, const char *want)
{
    tc_record got;
    char err[1024] = "";
    int rc = tc_record_load(path, &got, err, sizeof err);
    if (!want) {
        if (rc != 0)
            fail_msg("%s refused: %s", path, err);
        tc_record_free(&got);
        return;
    }
    if (rc == 0 || !strstr(err, want))
        fail_msg("%s: rc %d, err '%s' (wanted '%s')", path, rc, err, want);
}

static char *arg_list[] = {"test", "--out", "x"};

static void a_record_is_read_only_when_its_run_finished(void **state)
{
    char path[512], rec[600], marker[600], err[600];
    fresh("runs", path, sizeof path);
    snprintf(rec, sizeof rec, "%s/demo.jsonl", path);
    snprintf(marker, sizeof marker, "%s/demo.run", path);
    const char *files[] = {"demo.jsonl"};
    tc_record r = small_record();

    /* run A: begun, record written, not ended: refused (killed here) */
    tc_outdir a;
    assert_int_equal(tc_outdir_open(&a, path, false, err, sizeof err), 0);
    assert_int_equal(tc_run_begin(&a, "demo", 3, arg_list, files, 1, err, sizeof err), 0);
    char *m = tc_slurp(marker);
    assert_non_null(strstr(m, "\"state\":\"running\""));
    assert_non_null(strstr(m, a.run_id));
    free(m);
    assert_int_equal(tc_record_write(&a, "demo.jsonl", &r, NULL, err, sizeof err), 0);
    load_expect(rec, "did not finish");
    /* ended: read */
    assert_int_equal(tc_run_end(&a, NULL, err, sizeof err), 0);
    load_expect(rec, NULL);
    char *rec_a = tc_slurp(rec);
    assert_non_null(strstr(rec_a, a.run_id));
    tc_outdir_close(&a);

    /* run B without force: refused before it starts, A's record and marker kept */
    tc_outdir b;
    assert_int_equal(tc_outdir_open(&b, path, false, err, sizeof err), 0);
    assert_int_equal(tc_run_begin(&b, "demo", 3, arg_list, files, 1, err, sizeof err), -1);
    assert_non_null(strstr(err, "--force"));
    tc_outdir_close(&b);
    load_expect(rec, NULL);

    /* run B with force, killed after its marker: A's record (put back as if
     * B had not removed it yet) is an earlier run's and refused */
    assert_int_equal(tc_outdir_open(&b, path, true, err, sizeof err), 0);
    assert_int_equal(tc_run_begin(&b, "demo", 3, arg_list, files, 1, err, sizeof err), 0);
    assert_int_not_equal(access(rec, F_OK), 0); /* force removed A's record */
    assert_int_equal(tc_put_file(rec, rec_a), 0);
    load_expect(rec, "not the record of the latest run");
    /* a record with no run id at all (written before markers existed) beside a marker */
    tc_record_save(rec, &r, err, sizeof err);
    load_expect(rec, "no run id");
    /* B stopped by a device error: its partial record and its marker both refuse */
    assert_int_equal(tc_record_write(&b, "demo.jsonl", &r, "injected: device lost", err, sizeof err), 0);
    assert_int_equal(tc_run_end(&b, "injected: device lost", err, sizeof err), 0);
    load_expect(rec, "partial record");
    m = tc_slurp(marker);
    assert_non_null(strstr(m, "\"state\":\"stopped\""));
    free(m);
    /* the same complete record under a finished marker of another id: refused */
    const char *other = "{\"schema\":\"tcscope-run/1\",\"run_id\":\"other\",\"state\":\"done\"}\n";
    assert_int_equal(tc_put_file(marker, other), 0);
    tc_record_write(&b, "demo.jsonl", &r, NULL, err, sizeof err); /* b has force */
    load_expect(rec, "not the record of the latest run");
    /* ... and under its own finished marker: read */
    char mk[300];
    snprintf(mk, sizeof mk, "{\"schema\":\"tcscope-run/1\",\"run_id\":\"%s\",\"state\":\"done\"}\n", b.run_id);
    assert_int_equal(tc_put_file(marker, mk), 0);
    load_expect(rec, NULL);
    /* a temporary file of the same run maps to the same marker */
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s/.demo.jsonl.tmp-0badf00d", path);
    assert_int_equal(tc_put_file(tmp, rec_a), 0);
    load_expect(tmp, "not the record of the latest run");
    /* an unreadable marker: the record cannot be told current */
    assert_int_equal(tc_put_file(marker, "garbage"), 0);
    load_expect(rec, "run marker");
    /* no marker of this name: a record kept or copied on its own is read */
    unlink(marker);
    load_expect(rec, NULL);
    free(rec_a);
    tc_outdir_close(&b);
    tc_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_must_be_plain),
        cmocka_unit_test(folder_is_created_and_a_linked_folder_refused),
        cmocka_unit_test(writes_are_whole_kept_and_never_through_links),
        cmocka_unit_test(a_record_is_read_only_when_its_run_finished),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
