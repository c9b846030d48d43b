/* Every command's --json is a tcscope-record/1 (issue 17 item 6): each
 * command below is run with --json, its stdout written to a file and read
 * back with tc_record_load, which applies the schema checker of
 * reports/record_check.c (header fields, every object of a registered kind
 * with its required fields and types, lower-case "0x.." bit strings, the
 * trailer's count). Then: the header's kind is the command, every object has
 * a "kind", and a record cut before its trailer (what a killed run leaves),
 * ended "partial" (a command stopped by an error), holding a count written
 * as a string or bits in upper case is refused. Not covered here:
 * import (its own records), bench on a GPU (the test machine's
 * bench --if-gpu takes the no-GPU path when there is none). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/record_out.h"
#include "tests/testutil.h"

#define INS "mma.m16n8k16.f32.f16.f16.f32"
#define REC "tests/data/records/"

typedef struct {
    const char *kind;   /* the header's kind: the command */
    const char *args;   /* %s: a scratch folder of this process */
    int status;         /* the exit status it must have */
    const char *object; /* a kind the record must hold at least one of */
} json_command;

static const json_command commands[] = {
    {"list", "list --json", 0, "instr"},
    {"list", "list --backend exact --all --json", 0, "instr"},
    {"formats", "formats --json", 0, "format"},
    {"convert", "convert --to e4m3 --json 0.1 -500 bits:0x38 nan", 0, "conversion"},
    {"run", "run --backend exact --instr " INS " --a 1,2,3 --b 0.5,0.25,0x1p-24 --c bits:0x3a83126f --json", 0,
     "run"},
    {"run", "run --backend exact --instr " INS " --check-layout --json", 0, "layout"},
    {"verify", "verify --backend exact --profile h100 --instr " INS " --count 2000 --json", 1, "verify_failure"},
    {"hunt", "hunt --backend exact --profile h100 --instr " INS " --count 100 --json", 1, "hunt"},
    {"cases", "cases --backend exact --instr " INS " --json cases/library/fasi2021.case", 0, "case_total"},
    {"compare", "compare --json " REC "synthetic-bench.json " REC "synthetic-bench.json", 0, "compare_summary"},
    {"choose", "choose --json --sweep " REC "synthetic-model-sweep.json --bench " REC "synthetic-bench.json", 0,
     "recorded_choice"},
    {"choice", "choose --json --m 64 --n 64 --outputs 8 --backend model:h100 --k 64", 0, "choice"},
    {"regress", "regress --model --instr " INS " --count 500 --out %s/regress --json", 0, "regress"},
    {"sweep", "sweep --backend exact --formats f16 --chain 2 --trials 1 --json", 0, "sweep"},
    {"bench", "bench --if-gpu --json --instr " INS " --no-cublas", 0, "figure"},
    {"gemm", "gemm --backend model:h100 --path f16,f32 --m 16 --n 16 --k 32 --samples 20 --json", 0, "gemm"},
};

/* Runs one command, loads what it printed as a record file. */
static void check_command(const json_command *c)
{
    char args[1024], path[512];
    snprintf(args, sizeof args, c->args, tc_tmp_root());
    tc_run_result r = tc_run_cli(args);
    if (r.status != c->status)
        fail_msg("%s: exit %d, want %d; stderr: %.400s", args, r.status, c->status, r.err);
    snprintf(path, sizeof path, "%s/%s.jsonl", tc_tmp_root(), c->kind);
    assert_int_equal(tc_put_file(path, r.out), 0);
    tc_record rec;
    char err[700];
    if (tc_record_load(path, &rec, err, sizeof err) != 0)
        fail_msg("%s: not a valid record: %s", args, err);
    assert_string_equal(tc_record_header_kind(rec.header), c->kind);
    /* "kind" belongs to the objects: the header says what the record is in "record" */
    assert_string_equal(json_string_value(json_object_get(rec.header, "record")), c->kind);
    assert_null(json_object_get(rec.header, "kind"));
    assert_non_null(json_string_value(json_object_get(rec.header, "tcscope_version")));
    size_t i;
    json_t *o;
    json_array_foreach(rec.objects, i, o) assert_non_null(json_string_value(json_object_get(o, "kind")));
    json_t *want = tc_record_objects_of(&rec, c->object);
    if (json_array_size(want) == 0)
        fail_msg("%s: no '%s' object in its record", args, c->object);
    json_decref(want);
    tc_record_free(&rec);
    tc_run_result_free(&r);
}

static void every_command_prints_a_record(void **state)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        check_command(&commands[i]);
}

/* The output of a run stopped before its end (no trailer), or with a count
 * written as a string, is not taken for a record. */
static void a_cut_or_stringly_record_is_refused(void **state)
{
    tc_run_result r = tc_run_cli("list --json");
    assert_int_equal(r.status, 0);
    tc_record rec;
    char err[600];
    assert_int_equal(tc_record_parse(r.out, "whole", &rec, err, sizeof err), 0);
    tc_record_free(&rec);
    /* the header in the older form ("kind" for "record") is read; with both it is refused */
    const char *rk = strstr(r.out, "\"record\":\"list\"");
    assert_non_null(rk);
    size_t at = (size_t)(rk - r.out);
    char *legacy = strdup(r.out), *both = malloc(strlen(r.out) + 32);
    assert_true(legacy && both);
    memcpy(legacy + at + 1, "kind\"  ", 7); /* "record" -> "kind"  (JSON allows the spaces) */
    assert_int_equal(tc_record_parse(legacy, "legacy", &rec, err, sizeof err), 0);
    assert_string_equal(tc_record_header_kind(rec.header), "list");
    tc_record_free(&rec);
    snprintf(both, strlen(r.out) + 32, "%.*s\"kind\":\"list\",%s", (int)at, r.out, r.out + at);
    assert_int_not_equal(tc_record_parse(both, "both", &rec, err, sizeof err), 0);
    assert_non_null(strstr(err, "both"));
    free(legacy), free(both);
    char *last = strrchr(r.out, '{'); /* the trailer's line */
    assert_non_null(last);
    assert_non_null(strstr(last, "\"kind\":\"end\""));
    *last = '\0';
    assert_int_equal(tc_record_parse(r.out, "cut", &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "no end trailer"));
    tc_run_result_free(&r);

    r = tc_run_cli("run --backend exact --instr " INS " --a 1 --b 1 --c 0 --json");
    assert_int_equal(r.status, 0);
    char *k = strstr(r.out, "\"k\":16");
    assert_non_null(k);
    char *text = malloc(strlen(r.out) + 3);
    snprintf(text, strlen(r.out) + 3, "%.*s\"k\":\"16\"%s", (int)(k - r.out), r.out, k + 6);
    assert_int_equal(tc_record_parse(text, "string count", &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "field 'k' must be an integer"));
    free(text);
    tc_run_result_free(&r);
}

/* A command stopped by an error after its header (a value it cannot read
 * after one it converted) ends with the partial trailer: refused as a whole. */
static void a_stopped_command_leaves_a_partial_record(void **state)
{
    tc_run_result r = tc_run_cli("convert --to f16 --json 1 zzz");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "bad value 'zzz'"));
    tc_record rec;
    char err[600];
    assert_int_equal(tc_record_parse(r.out, "stopped", &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "partial record: the run stopped after 1 objects"));
    tc_run_result_free(&r);
}

/* A bit pattern in upper case is refused: SCHEMA.md fixes lower case. */
static void upper_case_bits_are_refused(void **state)
{
    tc_run_result r = tc_run_cli("run --backend exact --instr " INS " --a 1 --b 1 --c 0 --json");
    assert_int_equal(r.status, 0);
    char *d = strstr(r.out, "\"d\":\"0x3f8");
    assert_non_null(d);
    d[8] = 'F'; /* "d":"0x3f8.. -> 0x3F8.. */
    tc_record rec;
    char err[600];
    assert_int_equal(tc_record_parse(r.out, "upper", &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "field 'd' must be a \"0x..\" bit string"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_command_prints_a_record),
        cmocka_unit_test(a_cut_or_stringly_record_is_refused),
        cmocka_unit_test(a_stopped_command_leaves_a_partial_record),
        cmocka_unit_test(upper_case_bits_are_refused),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
