/* Markdown/HTML reports: every table row and plot the record implies is
 * there, the HTML is self-contained with inline SVG drawn by gnuplot, values
 * that cannot sit on log axes are named instead of drawn, and the progress
 * bar stays off when stderr is not a terminal. The records are synthetic
 * test data built here, not measurements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "reports/render.h"
#include "tests/testutil.h"

static char dir[] = "/tmp/tcs-reportXXXXXX";

/* A sweep object whose median grows like step * 2^-p (p = precision). */
static json_t *synthetic_sweep(const char *fmt, int precision, int chain, bool zero)
{
    json_t *steps = json_array();
    for (int i = 1; i <= chain; i++) {
        double e = zero ? 0.0 : i * ldexp(1.0, -precision);
        json_array_append_new(steps, json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:n}", "step", i, "median", e,
                                               "p90", 2 * e, "max", 4 * e, "overflow", 0.0, "nan", 0.0, "time_s"));
    }
    return json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:i, s:s, s:i, s:o}", "kind", "sweep", "format", fmt,
                     "instr", "test-instr", "k", 16, "dist", "normal", "from", "direct", "round", "rne", "scale",
                     "none", "trials", 10, "seed", "0x1", "chain", chain, "steps", steps);
}

static tc_record sample_record(void)
{
    tc_backend_info info = {.backend = "model:test", .device = "model (no GPU)"};
    uint64_t seed = 1;
    tc_record r = tc_record_new(tc_record_header_new("mixed", &info, &seed, 1));
    assert_int_equal(tc_record_add(&r, synthetic_sweep("f16", 11, 100, false), NULL, 0), 0);
    assert_int_equal(tc_record_add(&r, synthetic_sweep("bf16", 8, 100, false), NULL, 0), 0);
    assert_int_equal(tc_record_add(&r, synthetic_sweep("f64", 53, 100, true), NULL, 0), 0);
    json_t *audit = json_pack("{s:s, s:s, s:{s:i, s:s}, s:{s:s}, s:{s:i, s:i, s:b}, s:n}", "kind", "audit", "instr",
                              "mma.m16n8k16.f32.f16.f16.f32", "fingerprint", "align_bits", 25, "rounding", "rz",
                              "evidence", "rounding", "case rz-3: 0x3f800001 <&> truncated", "verification",
                              "elements", 1000, "mismatches", 0, "verified", 1, "timing");
    assert_int_equal(tc_record_add(&r, audit, NULL, 0), 0);
    json_t *bench = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f}", "kind", "bench", "instr", "mma.m16n8k16.f32.f16.f16.f32",
                              "latency_cycles", 33.0, "throughput_fma_clk_sm", 1024.0, "fraction_of_peak", 0.5,
                              "tflops", 400.0);
    assert_int_equal(tc_record_add(&r, bench, NULL, 0), 0);
    return r;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* tc_report_write into the folder path (replacing what an earlier test wrote). */
static int report_into(const tc_record *r, const char *path, const char *name, char *err, size_t len)
{
    tc_outdir d;
    if (tc_outdir_open(&d, path, true, err, len))
        return -1;
    int rc = tc_report_write(r, &d, name, err, len);
    tc_outdir_close(&d);
    return rc;
}

static void html_and_markdown_have_every_section(void **state)
{
    tc_record r = sample_record();
    char err[256], path[300];
    assert_int_equal(report_into(&r, dir, "run", err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/run.html", dir);
    char *html = tc_slurp(path);
    snprintf(path, sizeof path, "%s/run.md", dir);
    char *md = tc_slurp(path);
    /* Three plots (median, p90, max), inline, each with one path per drawn format. */
    assert_int_equal(count(html, "<svg"), 3);
    assert_int_equal(count(html, "<figure class=\"plot\""), 3);
    assert_null(strstr(html, "<?xml"));
    assert_null(strstr(html, "src=\""));   /* self-contained: nothing loaded from elsewhere */
    assert_int_equal(count(md, "](run-"), 3);
    for (int i = 0; i < 3; i++) {
        static const char *const stat[] = {"median", "p90", "max"};
        snprintf(path, sizeof path, "%s/run-%s.svg", dir, stat[i]);
        char *svg = tc_slurp(path);
        assert_non_null(strstr(svg, "<svg"));
        assert_non_null(strstr(svg, "f16 (test-instr)"));
        assert_non_null(strstr(svg, "bf16 (test-instr)"));
        free(svg);
    }
    /* f64's error is 0 everywhere: named, not drawn. */
    assert_non_null(strstr(html, "Not drawn (error 0 at every step, no point on log axes): f64"));
    assert_null(strstr(html, "f64 (test-instr)"));
    /* Step tables: 1, 2, 5, 10, 20, 50, 100 for each of the three sweeps. */
    assert_int_equal(count(md, "\n| 50 |"), 3);
    assert_int_equal(count(md, "\n| 3 |"), 0);
    assert_int_equal(count(html, "<td>100</td>"), 3);
    /* Fingerprint with escaped evidence, and the bench table. */
    assert_non_null(strstr(html, "case rz-3: 0x3f800001 &lt;&amp;&gt; truncated"));
    assert_non_null(strstr(md, "| align_bits | 25 |"));
    assert_non_null(strstr(md, "verified bit for bit"));
    assert_non_null(strstr(md, "| mma.m16n8k16.f32.f16.f16.f32 | 33 | 1024 | 50.0% | 400 |"));
    free(html);
    free(md);
    tc_record_free(&r);
}

static void plot_with_no_positive_value_says_so(void **state)
{
    json_t *sweeps = json_pack("[o]", synthetic_sweep("f64", 53, 10, true));
    json_t *undrawn = NULL;
    char err[256];
    char *svg = tc_plot_sweep_svg(sweeps, "median", &undrawn, err, sizeof err);
    assert_non_null(svg);
    assert_non_null(strstr(svg, "error is 0 at every step"));
    assert_int_equal(json_array_size(undrawn), 1);
    free(svg);
    json_decref(undrawn);
    json_decref(sweeps);
}

static void progress_is_silent_when_stderr_is_not_a_terminal(void **state)
{
    char path[300];
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    fflush(stderr);
    int saved = dup(2);
    FILE *f = fopen(path, "w");
    dup2(fileno(f), 2);
    tc_progress p;
    tc_progress_start(&p, "test", 100);
    for (size_t i = 0; i <= 100; i++)
        tc_progress_update(&p, i);
    tc_progress_end(&p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(f);
    assert_false(p.enabled);
    char *text = tc_slurp(path);
    assert_string_equal(text, "");
    free(text);
}

static void unwritable_directory_is_an_error(void **state)
{
    tc_record r = sample_record();
    char err[256] = "";
    assert_int_equal(report_into(&r, "/proc/no/such/dir", "run", err, sizeof err), -1);
    assert_non_null(strstr(err, "/proc/no/such/dir"));
    tc_record_free(&r);
}

/* The committed H100 sweep: every format, N >= 100, T >= 100, from the GPU,
 * and internally consistent statistics. */
static void committed_h100_sweep_is_complete_and_consistent(void **state)
{
    tc_record r;
    char err[256];
    if (tc_record_load("reports/baselines/h100-sweep.json", &r, err, sizeof err))
        fail_msg("%s", err);
    assert_string_equal(json_string_value(json_object_get(r.header, "backend")), "gpu:0");
    assert_non_null(strstr(json_string_value(json_object_get(r.header, "gpu")), "H100"));
    static const char *const want[] = {"e4m3", "e5m2", "f16", "bf16", "tf32", "f32", "f64"};
    json_t *sw = tc_record_objects_of(&r, "sweep");
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        size_t i;
        json_t *o;
        bool found = false;
        json_array_foreach(sw, i, o)
        {
            if (strcmp(json_string_value(json_object_get(o, "format")), want[w]))
                continue;
            found = true;
            assert_true(json_integer_value(json_object_get(o, "chain")) >= 100);
            assert_true(json_integer_value(json_object_get(o, "trials")) >= 100);
            assert_int_equal(json_integer_value(json_object_get(o, "cvt_mismatches")), 0);
            size_t j;
            json_t *st;
            json_array_foreach(json_object_get(o, "steps"), j, st)
            {
                double med = json_number_value(json_object_get(st, "median")),
                       p90 = json_number_value(json_object_get(st, "p90")),
                       mx = json_number_value(json_object_get(st, "max")),
                       ov = json_number_value(json_object_get(st, "overflow")),
                       nan = json_number_value(json_object_get(st, "nan"));
                assert_true(0 <= med && med <= p90 && p90 <= mx);
                assert_true(ov >= 0 && ov <= 1 && nan >= 0 && nan <= 1);
            }
        }
        if (!found)
            fail_msg("no %s sweep in the committed record", want[w]);
    }
    json_decref(sw);
    tc_record_free(&r);
}

/* The README's chain-sweep sentence ("median relative error after 100
 * chained products is 0.35 (e4m3), 0.61 (e5m2), 0.027 (bf16), 0.0034 (f16),
 * 0.0040 (tf32), 1.1e-6 (f32), 2.2e-15 (f64)") against the record, and what
 * the numbers must satisfy whatever they are: steps 1..chain in order, each
 * over at most trials * m * k elements (at least 99% of them), and at step 100 a format with fewer
 * significand bits never beats one with more (e5m2 2, e4m3 3, bf16 7, f16
 * and tf32 10, f32 23, f64 52). */
static void committed_h100_sweep_backs_the_readme(void **state)
{
    static const struct {
        const char *fmt;
        double readme;
        int bits;
    } want[] = {{"e5m2", 0.61, 2},  {"e4m3", 0.35, 3},    {"bf16", 0.027, 7},    {"tf32", 0.0040, 10},
                {"f16", 0.0034, 10}, {"f32", 1.1e-6, 23}, {"f64", 2.2e-15, 52}};
    tc_record r;
    char err[256];
    if (tc_record_load("reports/baselines/h100-sweep.json", &r, err, sizeof err))
        fail_msg("%s", err);
    json_t *sw = tc_record_objects_of(&r, "sweep");
    double at100[7];
    for (size_t w = 0; w < 7; w++) {
        size_t i;
        json_t *o;
        at100[w] = -1;
        json_array_foreach(sw, i, o)
        {
            if (strcmp(json_string_value(json_object_get(o, "format")), want[w].fmt))
                continue;
            json_int_t chain = json_integer_value(json_object_get(o, "chain")),
                       n = json_integer_value(json_object_get(o, "trials")) *
                           json_integer_value(json_object_get(o, "m")) * json_integer_value(json_object_get(o, "k"));
            json_t *steps = json_object_get(o, "steps");
            assert_int_equal(json_array_size(steps), chain);
            size_t j;
            json_t *st;
            json_array_foreach(steps, j, st)
            {
                assert_int_equal(json_integer_value(json_object_get(st, "step")), (json_int_t)j + 1);
                /* n counts the elements with a defined relative error (not 0/0) */
                json_int_t got = json_integer_value(json_object_get(st, "n"));
                assert_true(got <= n && got >= n - n / 100);
            }
            at100[w] = json_number_value(json_object_get(json_array_get(steps, 99), "median"));
        }
        if (at100[w] < 0)
            fail_msg("no %s sweep", want[w].fmt);
        /* the README's two significant digits */
        if (fabs(at100[w] - want[w].readme) > 0.051 * want[w].readme)
            fail_msg("%s: median at step 100 is %g, the README says %g", want[w].fmt, at100[w], want[w].readme);
    }
    for (size_t w = 0; w + 1 < 7; w++)
        if (want[w].bits < want[w + 1].bits && !(at100[w] > at100[w + 1]))
            fail_msg("%s (%d bits) has a smaller median error than %s (%d bits)", want[w].fmt, want[w].bits,
                     want[w + 1].fmt, want[w + 1].bits);
    json_decref(sw);
    tc_record_free(&r);
}

static int setup(void **state)
{
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(html_and_markdown_have_every_section),
        cmocka_unit_test(plot_with_no_positive_value_says_so),
        cmocka_unit_test(progress_is_silent_when_stderr_is_not_a_terminal),
        cmocka_unit_test(unwritable_directory_is_an_error),
        cmocka_unit_test(committed_h100_sweep_is_complete_and_consistent),
        cmocka_unit_test(committed_h100_sweep_backs_the_readme),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
