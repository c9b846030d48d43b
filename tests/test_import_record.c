/* tcscope import km writes a tcscope-record/1 "dots" (SCHEMA.md "Raw GPU
 * records"): header naming the GPU folder, one dots object per set, the
 * trailer; tc_record_load checks it as a record, tc_dots_load reads it, and
 * reads the bare lines of before as well, but refuses the record cut before
 * its trailer. The data: a two-row set made here in the km layout
 * (GPU/FORMAT/{a,b,c,d}_GPU_..txt), the recorded D typed in as data, not
 * computed (the importer takes it as given). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probes/dots.h"
#include "reports/reports.h"
#include "tests/testutil.h"

static void put(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(tc_put_file(path, text), 0);
}

/* The first n lines of text into path. */
static void put_lines(const char *path, const char *text, int n)
{
    const char *e = text;
    for (int i = 0; i < n; i++)
        e = strchr(e, '\n') + 1;
    char *part = strndup(text, (size_t)(e - text));
    assert_int_equal(tc_put_file(path, part), 0);
    free(part);
}

static void import_writes_a_dots_record(void **state)
{
    char root[256], dir[320], out[256], path[512], err[512];
    snprintf(root, sizeof root, "%s/km", tc_tmp_root());
    snprintf(dir, sizeof dir, "%s/T4/fp16", root);
    assert_int_equal(mkdir(root, 0777), 0);
    snprintf(path, sizeof path, "%s/T4", root);
    assert_int_equal(mkdir(path, 0777), 0);
    assert_int_equal(mkdir(dir, 0777), 0);
    /* a, b: f32 bits in hex (1, 2); c, d: f32 bits in binary (0.5; 4.5 and 6.5) */
    put(dir, "a_T4_fp16.txt", "3f800000 3f800000\n3f800000 40000000\n");
    put(dir, "b_T4_fp16.txt", "40000000 40000000\n40000000 40000000\n");
    put(dir, "c_T4_fp32.txt", "00111111000000000000000000000000\n00111111000000000000000000000000\n");
    put(dir, "d_T4_fp32.txt", "01000000100100000000000000000000\n01000000110100000000000000000000\n");
    snprintf(out, sizeof out, "%s/out", tc_tmp_root());
    char args[700];
    snprintf(args, sizeof args, "import km %s --out %s", root, out);
    tc_run_result r = tc_run_cli(args);
    if (r.status != 0)
        fail_msg("import: %d %s", r.status, r.err);
    tc_run_result_free(&r);
    snprintf(path, sizeof path, "%s/km-t4.jsonl", out);
    char *text = tc_slurp(path);
    assert_non_null(text);
    /* header, one object, trailer */
    const char *l2 = strchr(text, '\n') + 1, *l3 = strchr(l2, '\n') + 1;
    assert_memory_equal(text, "{\"schema\":\"tcscope-record/1\",\"record\":\"dots\",", 45);
    assert_non_null(strstr(text, "\"gpu\":\"T4\""));
    assert_memory_equal(l2, "{\"kind\":\"dots\",\"instr\":\"wmma.m16n16k16.f32.f16.f16.f32\",\"gpu\":\"T4\",", 67);
    assert_string_equal(l3, "{\"kind\":\"end\",\"objects\":1}\n");
    tc_record rec;
    if (tc_record_load(path, &rec, err, sizeof err))
        fail_msg("not a valid record: %s", err);
    assert_int_equal(json_array_size(rec.objects), 1);
    tc_record_free(&rec);
    tc_dots *sets;
    size_t n;
    if (tc_dots_load(path, &sets, &n, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(n, 1);
    assert_int_equal(sets[0].rows, 2);
    assert_int_equal(sets[0].D[0], 0x40900000);
    assert_int_equal(sets[0].D[1], 0x40d00000);
    assert_int_equal(sets[0].A[16 + 1], 0x4000); /* row 1, k 1: 2 in f16 */
    tc_dots_free_all(sets, n);
    /* the bare line of before: read alike */
    char bare[600], cut[600];
    snprintf(bare, sizeof bare, "%s/bare.jsonl", out);
    char *line = strndup(l2, (size_t)(l3 - l2));
    assert_int_equal(tc_put_file(bare, line), 0);
    free(line);
    if (tc_dots_load(bare, &sets, &n, err, sizeof err))
        fail_msg("bare line refused: %s", err);
    assert_int_equal(n, 1);
    assert_int_equal(sets[0].D[1], 0x40d00000);
    tc_dots_free_all(sets, n);
    /* the record cut before its trailer: refused, by both readers */
    snprintf(cut, sizeof cut, "%s/cut.jsonl", out);
    put_lines(cut, text, 2);
    assert_int_equal(tc_dots_load(cut, &sets, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "trailer"));
    assert_int_equal(tc_record_load(cut, &rec, err, sizeof err), -1);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(import_writes_a_dots_record),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
