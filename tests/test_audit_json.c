/* tcscope audit --json prints a whole record (header, one object per
 * instruction, trailer), in one process (--jobs 1) and with child processes
 * (--jobs 2, whose children print objects only): tc_record_load accepts it,
 * it has exactly one header and one trailer, and `compare` reads it and
 * finds it equal to the record the run wrote into its folder; the header
 * names the model that computed the expected answers (model_on), every
 * object how many it computed (model_elements). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reports/reports.h"
#include "tests/testutil.h"

#define INSTRS "mma.m16n8k8.f32.f16.f16.f32,mma.m16n8k8.f32.bf16.bf16.f32"

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++)
        n++;
    return n;
}

static void json_is_a_record(int jobs)
{
    char cmd[600], path[64], out[64];
    /* distinct for each build (run at the same time) and checkout: a folder
     * another run holds is refused (reports/outdir_lock.c) */
#if defined(__SANITIZE_ADDRESS__)
    const char *build = "san";
#else
    const char *build = "opt";
#endif
    snprintf(out, sizeof out, "build/tcs-audit-json-%s%d", build, jobs);
    snprintf(path, sizeof path, "build/tcs-audit-json-%s%d.jsonl", build, jobs);
    snprintf(cmd, sizeof cmd,
             "audit --backend exact --instr " INSTRS " --count 500 --no-timing --json --jobs %d --out %s --force", jobs,
             out);
    tc_run_result r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(r.out, f);
    fclose(f);
    /* one header first, one trailer last, two objects between */
    assert_int_equal(count(r.out, "\"schema\":\"tcscope-record/1\""), 1);
    assert_int_equal(strncmp(r.out, "{\"schema\":", 10), 0);
    assert_int_equal(count(r.out, "\n"), 4);
    assert_non_null(strstr(r.out, "\n{\"kind\":\"end\",\"objects\":2}\n"));
    assert_int_equal(count(r.out, "{\"kind\":\"end\""), 1);
    tc_run_result_free(&r);
    tc_record rec;
    char err[600];
    if (tc_record_load(path, &rec, err, sizeof err) != 0)
        fail_msg("audit --json --jobs %d: %s", jobs, err);
    assert_int_equal(json_array_size(rec.objects), 2);
    const char *on = json_string_value(json_object_get(rec.header, "model_on"));
    assert_non_null(on);
    assert_true(!strcmp(on, "cpu") || !strncmp(on, "gpu:", 4));
    json_t *o;
    size_t i;
    bool f16 = false, bf16 = false;
    json_array_foreach(rec.objects, i, o)
    {
        const char *in = json_string_value(json_object_get(o, "instr"));
        f16 |= !strcmp(in, "mma.m16n8k8.f32.f16.f16.f32");
        bf16 |= !strcmp(in, "mma.m16n8k8.f32.bf16.bf16.f32");
        json_t *v = json_object_get(o, "verification");
        assert_true(json_is_true(json_object_get(v, "verified")));
        /* the proof's tiles, each computed by the model the header names */
        json_t *me = json_object_get(o, "model_elements");
        json_int_t gpu = json_integer_value(json_object_get(me, "gpu")), cpu = json_integer_value(json_object_get(me, "cpu"));
        assert_true(gpu + cpu > 0 && gpu + cpu <= json_integer_value(json_object_get(v, "elements")));
        if (!strcmp(on, "cpu"))
            assert_int_equal(gpu, 0);
    }
    assert_true(f16 && bf16);
    tc_record_free(&rec);
    snprintf(cmd, sizeof cmd, "compare %s %s", path, path);
    r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    /* the printed record says what the written one says */
    snprintf(cmd, sizeof cmd, "compare %s %s/audit.jsonl", path, out);
    r = tc_run_cli(cmd);
    if (r.status != 0)
        fail_msg("compare with the written record: exit %d\n%s%s", r.status, r.out, r.err);
    tc_run_result_free(&r);
    unlink(path);
}

static void audit_json_one_process(void **state)
{
    (void)state;
    json_is_a_record(1);
}

static void audit_json_two_jobs(void **state)
{
    (void)state;
    json_is_a_record(2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(audit_json_one_process),
        cmocka_unit_test(audit_json_two_jobs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
