/* regress's timing baseline and decision (reports/regress_timing.h): the
 * best point of each instruction read from the baseline's records (the
 * committed H200 audit and the bench of its run, and small records made
 * here for each way a point is taken or refused), and the tolerance logic:
 * a quick figure beyond the tolerance is measured again with the full
 * table, which decides. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/regress_timing.h"
#include "reports/reports.h"

static const tc_timing_base *find(const tc_timing_base *b, long n, const char *instr)
{
    for (long i = 0; i < n; i++)
        if (!strcmp(b[i].instr, instr))
            return &b[i];
    return NULL;
}

/* The committed H200 audit has no best point in its timing; the bench of
 * the same run (reports/baselines/h200-bench.json.gz, the older file form)
 * has it for every instruction, and its figures are the audit's. */
static void h200_points_from_the_bench_of_its_run(void **state)
{
    tc_record audit, bench;
    char err[512];
    if (tc_record_load("reports/baselines/h200-audit.jsonl.gz", &audit, err, sizeof err))
        fail_msg("%s", err);
    if (tc_record_load_any("reports/baselines/h200-bench.json.gz", &bench, err, sizeof err))
        fail_msg("%s", err);
    tc_timing_base *b;
    long n = tc_timing_bases(&audit, &bench, &b, err, sizeof err);
    assert_true(n >= 250);
    long with = 0;
    for (long i = 0; i < n; i++)
        with += b[i].has_point && !strcmp(b[i].point_from, "bench record");
    assert_int_equal(with, n);
    /* as the bench file says: ILP 8, 32 warps per SM; wgmma with its table's best staging */
    const tc_timing_base *x = find(b, n, "mma.m16n8k8.f16.f16.f16.f16");
    assert_non_null(x);
    assert_int_equal(x->point.ilp, 8);
    assert_int_equal(x->point.warps, 32);
    assert_int_equal(x->point.mode, 0);
    assert_true(x->latency > 16.54 && x->latency < 16.55);
    x = find(b, n, "wgmma.m64n8k16.f16.f16.f16");
    assert_non_null(x);
    assert_int_equal(x->point.ilp, 8);
    assert_int_equal(x->point.warps, 32);
    assert_int_equal(x->point.mode, 0);   /* its table's staging: no swizzle */
    x = find(b, n, "wgmma.m64n8k16.f32.f16.f16");
    assert_non_null(x);
    assert_int_equal(x->point.mode, 1);   /* 128-byte swizzle */
    x = find(b, n, "wgmma.m64n256k16.f32.bf16.bf16.rs");
    assert_non_null(x);
    assert_int_equal(x->point.warps, 12);
    assert_int_equal(x->point.mode, 1);
    free(b);
    /* without the bench record: the figures, no point (every table measured) */
    n = tc_timing_bases(&audit, NULL, &b, err, sizeof err);
    assert_true(n >= 250);
    for (long i = 0; i < n; i++)
        assert_false(b[i].has_point);
    free(b);
    /* the H100's bench is another run: none of its points is taken for the H200's audit */
    tc_record h100;
    if (tc_record_load_any("reports/baselines/h100-bench.json.gz", &h100, err, sizeof err))
        fail_msg("%s", err);
    n = tc_timing_bases(&audit, &h100, &b, err, sizeof err);
    for (long i = 0; i < n; i++)
        assert_false(b[i].has_point);
    free(b);
    tc_record_free(&h100);
    tc_record_free(&audit);
    tc_record_free(&bench);
}

static tc_record objects(const char *text)
{
    json_error_t je;
    json_t *a = json_loads(text, 0, &je);
    if (!a)
        fail_msg("the test's objects: %s", je.text);
    return (tc_record){json_object(), a};
}

/* Each way a point is taken or refused, on small records. */
static void points_taken_and_refused(void **state)
{
    tc_record audit = objects(
        "[{\"kind\":\"audit\",\"instr\":\"a\",\"timing\":{\"latency_cycles\":10,\"throughput_fma_clk_sm\":100,"
        "\"best_ilp\":4,\"best_warps_per_sm\":16,\"staging\":\"128-byte swizzle\"}},"
        "{\"kind\":\"audit\",\"instr\":\"b\",\"timing\":{\"latency_cycles\":20,\"throughput_fma_clk_sm\":200}},"
        "{\"kind\":\"audit\",\"instr\":\"c\",\"timing\":{\"latency_cycles\":30,\"throughput_fma_clk_sm\":300}},"
        "{\"kind\":\"audit\",\"instr\":\"d\",\"timing\":{\"latency_cycles\":40,\"throughput_fma_clk_sm\":400,"
        "\"best_ilp\":9,\"best_warps_per_sm\":16}},"
        "{\"kind\":\"audit\",\"instr\":\"e\",\"timing\":{\"latency_cycles\":50,\"throughput_fma_clk_sm\":500,"
        "\"best_ilp\":2,\"best_warps_per_sm\":8,\"staging\":\"sideways\"}},"
        "{\"kind\":\"audit\",\"instr\":\"f\",\"timing\":null},"
        "{\"kind\":\"audit\",\"instr\":\"g\",\"timing\":{\"latency_cycles\":null,\"throughput_fma_clk_sm\":700}}]");
    tc_record bench = objects(
        "[{\"kind\":\"bench\",\"instr\":\"b\",\"latency_cycles\":20,\"throughput_fma_clk_sm\":200,"
        "\"best_ilp\":3,\"best_warps_per_sm\":12},"
        "{\"kind\":\"bench\",\"instr\":\"c\",\"latency_cycles\":30.5,\"throughput_fma_clk_sm\":300,"
        "\"best_ilp\":3,\"best_warps_per_sm\":12},"
        "{\"kind\":\"bench\",\"instr\":\"g\",\"latency_cycles\":null,\"throughput_fma_clk_sm\":700,"
        "\"best_ilp\":3,\"best_warps_per_sm\":12}]");
    tc_timing_base *b;
    char err[200];
    long n = tc_timing_bases(&audit, &bench, &b, err, sizeof err);
    assert_int_equal(n, 6);   /* f has no timing object */
    assert_null(find(b, n, "f"));
    const tc_timing_base *x = find(b, n, "a");   /* the audit's own point, its staging */
    assert_true(x->has_point);
    assert_string_equal(x->point_from, "audit record");
    assert_int_equal(x->point.ilp, 4);
    assert_int_equal(x->point.warps, 16);
    assert_int_equal(x->point.mode, 1);
    x = find(b, n, "b");   /* the bench of the same run */
    assert_true(x->has_point);
    assert_string_equal(x->point_from, "bench record");
    assert_int_equal(x->point.ilp, 3);
    assert_int_equal(x->point.mode, 0);
    assert_false(find(b, n, "c")->has_point);   /* a bench whose latency differs: another run */
    assert_false(find(b, n, "d")->has_point);   /* ILP 9 is no point of the table */
    assert_false(find(b, n, "e")->has_point);   /* an unknown staging */
    x = find(b, n, "g");                        /* figures unknown: nothing ties the bench to it */
    assert_false(x->has_point);
    assert_true(x->latency < 0);
    assert_true(x->throughput == 700);
    free(b);
    tc_record_free(&audit);
    tc_record_free(&bench);
}

static void moved_beyond_the_tolerance(void **state)
{
    tc_timing_figures base = {20, 1000};
    tc_timing_figures same = {21, 950}, lat = {21.01, 1000}, thr = {20, 949}, both = {10, 2000}, unknown = {-1, -1};
    assert_int_equal(tc_timing_moved(&base, &same, 0.05), 0);   /* exactly 5% apart is not beyond 5% */
    assert_int_equal(tc_timing_moved(&base, &lat, 0.05), TC_TIMING_LATENCY);
    assert_int_equal(tc_timing_moved(&base, &thr, 0.05), TC_TIMING_THROUGHPUT);
    assert_int_equal(tc_timing_moved(&base, &both, 0.05), TC_TIMING_LATENCY | TC_TIMING_THROUGHPUT);
    assert_int_equal(tc_timing_moved(&base, &unknown, 0.05), 0);
    assert_int_equal(tc_timing_moved(&unknown, &both, 0.05), 0);
    assert_int_equal(tc_timing_moved(&base, &both, 1.0), 0);
}

/* A measurement made of given answers: the quick one and the table's. */
typedef struct {
    tc_timing_figures quick, table;
    int calls_quick, calls_table;
    bool fail_quick, fail_table;
} fake;

static int fake_measure(void *ctx, bool full, tc_timing_figures *got)
{
    fake *f = ctx;
    *(full ? &f->calls_table : &f->calls_quick) += 1;
    *got = full ? f->table : f->quick;
    return (full ? f->fail_table : f->fail_quick) ? -1 : 0;
}

static void quick_difference_decided_by_the_table(void **state)
{
    tc_timing_base base = {.instr = "x", .latency = 20, .throughput = 1000, .has_point = true,
                           .point = {8, 32, 0}, .point_from = "bench record"};
    tc_timing_figures used;
    bool full;
    /* the point agrees: no table */
    fake f = {.quick = {20.1, 990}, .table = {99, 99}};
    assert_int_equal(tc_timing_decide(&base, 0.05, fake_measure, &f, &used, &full), 0);
    assert_int_equal(f.calls_quick, 1);
    assert_int_equal(f.calls_table, 0);
    assert_false(full);
    assert_true(used.throughput == 990);
    /* the point is 10% low, the table is not: no difference (no false alarm) */
    f = (fake){.quick = {20, 900}, .table = {20, 1001}};
    assert_int_equal(tc_timing_decide(&base, 0.05, fake_measure, &f, &used, &full), 0);
    assert_int_equal(f.calls_table, 1);
    assert_true(full);
    assert_true(used.throughput == 1001);
    /* the point and the table both moved: the table's figures are the difference */
    f = (fake){.quick = {30, 900}, .table = {30, 1000}};
    assert_int_equal(tc_timing_decide(&base, 0.05, fake_measure, &f, &used, &full), TC_TIMING_LATENCY);
    assert_true(full);
    assert_true(used.latency == 30);
    /* no point in the baseline: the table at once */
    base.has_point = false;
    f = (fake){.quick = {20, 1000}, .table = {20, 800}};
    assert_int_equal(tc_timing_decide(&base, 0.05, fake_measure, &f, &used, &full), TC_TIMING_THROUGHPUT);
    assert_int_equal(f.calls_quick, 0);
    assert_int_equal(f.calls_table, 1);
    /* a table that fails is a failure, not a verdict */
    base.has_point = true;
    f = (fake){.quick = {20, 500}, .fail_table = true};
    assert_int_equal(tc_timing_decide(&base, 0.05, fake_measure, &f, &used, &full), -1);
    /* a point that gives nothing here (it no longer fits): the table decides */
    f = (fake){.quick = {-1, -1}, .table = {20, 1000}, .fail_quick = true};
    assert_int_equal(tc_timing_decide(&base, 0.05, fake_measure, &f, &used, &full), 0);
    assert_int_equal(f.calls_table, 1);
    assert_true(full);
    f = (fake){.quick = {-1, -1}, .fail_quick = true, .fail_table = true};
    assert_int_equal(tc_timing_decide(&base, 0.05, fake_measure, &f, &used, &full), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h200_points_from_the_bench_of_its_run),
        cmocka_unit_test(points_taken_and_refused),
        cmocka_unit_test(moved_beyond_the_tolerance),
        cmocka_unit_test(quick_difference_decided_by_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
