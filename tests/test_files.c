/* What the commands write (issue 14, reproducers 14 and 15): only inside
 * --out, never through a link, an earlier record kept unless --force, and a
 * device error in the middle of an audit (TCSCOPE_FAULT_AFTER) ends with exit
 * 2, the instructions finished before it kept in a record marked partial
 * that compare refuses. Software backends; every folder under one mkdtemp. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <sys/stat.h>

#include "tests/testutil.h"

/* Two integer instructions: an audit of each is exactly one batch (the
 * control run against the exact sum), so batch N is instruction N. */
#define INT1 "mma.m16n8k32.s32.s8.s8.s32"
#define INT2 "mma.m16n8k32.s32.s8.u8.s32"
#define AUDIT_INTS "audit --backend exact --instr " INT1 "," INT2 " --count 100 --no-timing"

#define run tc_run_clif   /* tests/testutil.h */

static void expect_status(tc_run_result *r, int status, const char *in_err)
{
    if (r->status != status || (in_err && !strstr(r->err, in_err)))
        fail_msg("status %d (wanted %d), stderr: %s", r->status, status, r->err);
    tc_run_result_free(r);
}

/* Every line of a JSON Lines file as an array (the record reader refuses a
 * partial record; the test reads it line by line itself). */
static json_t *lines_of(const char *path)
{
    json_t *a = json_array();
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_t *o = json_loads(line, 0, NULL);
        assert_non_null(o);
        json_array_append_new(a, o);
    }
    free(line);
    fclose(f);
    return a;
}

static void a_link_at_a_report_name_is_not_followed(void **state)
{
    char out[256], target[256], link[300];
    snprintf(out, sizeof out, "%s/linked", tc_tmp_root());
    snprintf(target, sizeof target, "%s/precious.txt", tc_tmp_root());
    snprintf(link, sizeof link, "%s/audit.md", out);
    assert_int_equal(mkdir(out, 0777), 0);
    assert_int_equal(tc_put_file(target, "precious\n"), 0);
    assert_int_equal(symlink(target, link), 0);
    tc_run_result r = run(AUDIT_INTS " --out %s", out);
    expect_status(&r, 2, "symbolic link");
    r = run(AUDIT_INTS " --out %s --force", out);
    expect_status(&r, 2, "symbolic link");
    char *t = tc_slurp(target);
    assert_string_equal(t, "precious\n");
    free(t);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode)); /* the link itself is left alone too */
    /* --out itself a link to a folder: refused, nothing written behind it */
    char outlink[300];
    snprintf(outlink, sizeof outlink, "%s/outlink", tc_tmp_root());
    assert_int_equal(symlink(out, outlink), 0);
    r = run(AUDIT_INTS " --out %s", outlink);
    expect_status(&r, 2, "symbolic link");
    snprintf(link, sizeof link, "%s/audit.jsonl", out);
    assert_int_not_equal(access(link, F_OK), 0);
}

static void names_from_options_stay_inside_out(void **state)
{
    char out[256], escaped[256];
    snprintf(out, sizeof out, "%s/a/b", tc_tmp_root());
    snprintf(escaped, sizeof escaped, "%s/ESCAPED.profile", tc_tmp_root());
    /* reproducer 14: --out /tmp/a/b --profile-name ../../ESCAPED */
    tc_run_result r = run("audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16 --count 100 --no-timing --out %s "
                          "--profile-name ../../ESCAPED",
                          out);
    expect_status(&r, 2, "--profile-name");
    assert_int_not_equal(access(escaped, F_OK), 0);
    assert_int_not_equal(access(out, F_OK), 0); /* refused before anything was made */
    static const char *const bad[] = {"/etc/x", "sub/x", ".hidden", ".."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = run(AUDIT_INTS " --out %s --profile-name '%s'", out, bad[i]);
        expect_status(&r, 2, "bad --profile-name");
    }
    /* bench's old --out FILE: the name part must be a plain name too */
    r = run("bench --out %s/.json", tc_tmp_root());
    expect_status(&r, 2, "bad output name");
}

static void an_earlier_record_is_kept_without_force(void **state)
{
    char out[256], rec[300];
    snprintf(out, sizeof out, "%s/keep", tc_tmp_root());
    snprintf(rec, sizeof rec, "%s/audit.jsonl", out);
    tc_run_result r = run(AUDIT_INTS " --seed 1 --out %s", out);
    expect_status(&r, 0, NULL);
    char *first = tc_slurp(rec);
    assert_non_null(strstr(first, "\"seeds\":[\"0x1\"]"));
    r = run(AUDIT_INTS " --seed 2 --out %s", out);
    expect_status(&r, 2, "give --force");
    char *again = tc_slurp(rec);
    assert_string_equal(again, first); /* byte for byte */
    free(again);
    r = run("compare %s %s", rec, rec);
    expect_status(&r, 0, NULL);
    /* --force replaces it with the new run's record, which compare reads */
    r = run(AUDIT_INTS " --seed 2 --out %s --force", out);
    expect_status(&r, 0, NULL);
    char *second = tc_slurp(rec);
    assert_non_null(strstr(second, "\"seeds\":[\"0x2\"]"));
    free(second);
    r = run("compare %s %s", rec, rec);
    expect_status(&r, 0, NULL);
    /* bench's old --out FILE keeps an existing file the same way (checked before any GPU is needed) */
    r = run("bench --out %s", rec);
    expect_status(&r, 2, "give --force");
    again = tc_slurp(rec);
    assert_non_null(strstr(again, "\"seeds\":[\"0x2\"]"));
    free(again);
    free(first);
}

/* The injected device error at batch 2 stops the audit in INT2: INT1 is kept,
 * exactly as a run without the fault recorded it, in a partial record. One
 * process (--jobs 1): the batches are counted across instructions there;
 * tests/test_audit.c has the fault in --jobs children. */
static void a_device_error_keeps_what_was_done(void **state)
{
    char good[256], bad[256], rec[300];
    snprintf(good, sizeof good, "%s/nofault", tc_tmp_root());
    snprintf(bad, sizeof bad, "%s/fault", tc_tmp_root());
    tc_run_result r = run(AUDIT_INTS " --jobs 1 --out %s", good);
    expect_status(&r, 0, NULL);
    setenv("TCSCOPE_FAULT_AFTER", "2", 1);
    r = run(AUDIT_INTS " --jobs 1 --out %s", bad);
    unsetenv("TCSCOPE_FAULT_AFTER");
    assert_non_null(strstr(r.err, INT2 ": injected device error at batch 2"));
    assert_non_null(strstr(r.err, "stopped at instruction 2 of 2"));
    expect_status(&r, 2, NULL);

    snprintf(rec, sizeof rec, "%s/audit.jsonl", good);
    json_t *full = lines_of(rec);
    snprintf(rec, sizeof rec, "%s/audit.jsonl", bad);
    json_t *part = lines_of(rec);
    assert_int_equal(json_array_size(full), 4); /* header, INT1, INT2, end */
    assert_int_equal(json_array_size(part), 3); /* header, INT1, partial */
    assert_true(json_equal(json_array_get(part, 1), json_array_get(full, 1)));
    json_t *trailer = json_array_get(part, 2);
    assert_string_equal(json_string_value(json_object_get(trailer, "kind")), "partial");
    assert_int_equal(json_integer_value(json_object_get(trailer, "objects")), 1);
    json_decref(full);
    json_decref(part);
    /* compare refuses it as incomplete */
    r = run("compare %s/nofault/audit.jsonl %s", tc_tmp_root(), rec);
    expect_status(&r, 2, "partial record");
    /* the run's marker says it stopped and why */
    snprintf(rec, sizeof rec, "%s/audit.run", bad);
    char *m = tc_slurp(rec);
    assert_non_null(strstr(m, "\"state\":\"stopped\""));
    assert_non_null(strstr(m, "injected device error"));
    free(m);
    snprintf(rec, sizeof rec, "%s/audit.md", bad);
    assert_int_not_equal(access(rec, F_OK), 0); /* no report that reads as a finished audit */

    /* a fault inside a floating-point instruction's inference: nothing of it kept */
    setenv("TCSCOPE_FAULT_AFTER", "3", 1);
    r = run("audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16 --count 100 --no-timing --out %s --force", bad);
    unsetenv("TCSCOPE_FAULT_AFTER");
    expect_status(&r, 2, "stopped at instruction 1 of 1");
    snprintf(rec, sizeof rec, "%s/audit.jsonl", bad);
    part = lines_of(rec);
    assert_int_equal(json_array_size(part), 2); /* header, partial */
    json_decref(part);
    snprintf(rec, sizeof rec, "%s/audit.profile", bad);
    char *prof = tc_slurp(rec);
    assert_null(strstr(prof, "[instr "));
    assert_non_null(strstr(prof, "partial = "));
    free(prof);

    /* a sweep stopped by a device error writes no record */
    setenv("TCSCOPE_FAULT_AFTER", "1", 1);
    r = run("sweep --backend model:h100 --formats f16 --chain 3 --trials 2 --out %s/sweep", tc_tmp_root());
    unsetenv("TCSCOPE_FAULT_AFTER");
    expect_status(&r, 2, "injected device error");
    snprintf(rec, sizeof rec, "%s/sweep/sweep.json", tc_tmp_root());
    assert_int_not_equal(access(rec, F_OK), 0);
    /* a bad hook value is refused, not ignored */
    setenv("TCSCOPE_FAULT_AFTER", "0", 1);
    r = run(AUDIT_INTS " --out %s/never", tc_tmp_root());
    unsetenv("TCSCOPE_FAULT_AFTER");
    expect_status(&r, 2, "TCSCOPE_FAULT_AFTER");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_link_at_a_report_name_is_not_followed),
        cmocka_unit_test(names_from_options_stay_inside_out),
        cmocka_unit_test(an_earlier_record_is_kept_without_force),
        cmocka_unit_test(a_device_error_keeps_what_was_done),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
