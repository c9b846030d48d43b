/* Markdown/HTML reports: every table row and plot the record implies is
 * there, the HTML is self-contained with inline SVG drawn by gnuplot, values
 * that cannot sit on log axes are named instead of drawn, and progress off
 * a terminal is silent on a quick run and plain lines on a long one. The records are synthetic
 * test data built here, not measurements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <time.h>

#include "probes/probes.h"
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
    tc_run_info info = {.backend = "model:test", .device = "model (no GPU)"};
    uint64_t seed = 1;
    tc_record r = tc_record_new(tc_record_header("mixed", &info, &seed, 1));
    assert_int_equal(tc_record_add(&r, synthetic_sweep("f16", 11, 100, false), NULL, 0), 0);
    assert_int_equal(tc_record_add(&r, synthetic_sweep("bf16", 8, 100, false), NULL, 0), 0);
    assert_int_equal(tc_record_add(&r, synthetic_sweep("f64", 53, 100, true), NULL, 0), 0);
    json_t *audit = json_pack("{s:s, s:s, s:{s:i, s:s}, s:{s:s}, s:{s:i, s:i, s:b}, s:n}", "kind", "audit", "instr",
                              "mma.m16n8k16.f32.f16.f16.f32", "fingerprint", "align_bits", 25, "rounding", "rz <&>",
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
    /* Two plots (median, p90; the max is noise, tables only), inline, each
     * with one path per drawn format. */
    assert_int_equal(count(html, "<svg"), 2);
    assert_int_equal(count(html, "<figure class=\"plot\""), 2);
    assert_null(strstr(html, "<?xml"));
    assert_null(strstr(html, "src=\""));   /* self-contained: nothing loaded from elsewhere */
    assert_int_equal(count(md, "](run-"), 2);
    snprintf(path, sizeof path, "%s/run-max.svg", dir);
    assert_int_equal(access(path, F_OK), -1);
    for (int i = 0; i < 2; i++) {
        static const char *const stat[] = {"median", "p90"};
        snprintf(path, sizeof path, "%s/run-%s.svg", dir, stat[i]);
        char *svg = tc_slurp(path);
        assert_non_null(strstr(svg, "<svg"));
        assert_non_null(strstr(svg, "f16 (test-instr)"));
        assert_non_null(strstr(svg, "bf16 (test-instr)"));
        assert_null(strstr(svg, "f64 (test-instr)"));
        free(svg);
    }
    /* f64's error is 0 everywhere: named, not drawn. */
    assert_non_null(strstr(html, "Not drawn (error 0 at every step, no point on log axes): f64"));
    /* Step tables: 1, 2, 5, 10, 20, 50, 100 for each of the three sweeps. */
    assert_int_equal(count(md, "\n| 50 |"), 3);
    assert_int_equal(count(md, "\n| 3 |"), 0);
    assert_int_equal(count(html, "<tr><td>100<td>"), 3);
    /* Captions per format: unscaled said so, not a scale word of another format. */
    assert_non_null(strstr(html, "f16 (test-instr): normal inputs from direct, 10 trials, rne, unscaled"));
    assert_null(strstr(html, "pertensor"));
    /* Headline table: the median at steps 1, 10 and 100 of f16 (step * 2^-11). */
    assert_non_null(strstr(md, "| median at step 1 | median at step 10 | median at step 100 |"));
    assert_non_null(strstr(md, "| f16 | test-instr | normal | 10 | rne | unscaled | 0.0004883 | 0.004883 | 0.04883 |"));
    /* Fingerprint values escaped; one audit: every field has one value, its
     * evidence summed up under the findings; and the bench table. */
    assert_non_null(strstr(html, "rz &lt;&amp;&gt;"));
    assert_null(strstr(html, "rz <&>"));
    assert_non_null(strstr(md, "| align_bits | 25 | 1 | 0 | — | 0 |"));
    assert_non_null(strstr(md, "verified bit for bit"));
    assert_non_null(strstr(md, "| mma.m16n8k16.f32.f16.f16.f32 | 33 | 1024 | 50.0% | 400 |"));
    free(html);
    free(md);
    tc_record_free(&r);
}

/* A synthetic audit object: nfields fields "fNN", each with nrej rejected
 * alternatives whose cases carry kterms terms, the way the audit writes
 * them. Field f00 is zero_sign-like: "positive" unless ieee; f01..f03 are
 * "v" everywhere, f04.. "v" or (ieee) "w", so that they differ too. The rejected
 * alternative "alt1" is contradicted by the fewest cases (3), and its case
 * alone carries hw 0xabc1 / predicted 0xabc2. */
static json_t *synthetic_audit(const char *instr, bool ieee, int nfields, int nrej, int kterms)
{
    json_t *fp = json_object(), *ev = json_object();
    for (int f = 0; f < nfields; f++) {
        char key[16];
        snprintf(key, sizeof key, "f%02d", f);
        json_object_set_new(fp, key, json_string(f == 0 ? (ieee ? "ieee" : "positive") : f >= 4 && ieee ? "w" : "v"));
        json_t *rej = json_array();
        for (int r = 0; r < nrej; r++) {
            json_t *terms = json_array();
            for (int t = 0; t < kterms; t++)
                json_array_append_new(terms, json_pack("[i, s, s]", t, "0x3c00", "0xbc00"));
            char alt[16];
            snprintf(alt, sizeof alt, "alt%d", r);
            json_array_append_new(rej, json_pack("{s:s, s:i, s:{s:s, s:o, s:s, s:s, s:s}}", "value", alt, "contradicted",
                                                 r == 1 ? 3 : 50 + r, "case", "family", "fam", "terms", terms, "c",
                                                 "0x0", "hw", r == 1 ? "0xabc1" : "0x1", "predicted",
                                                 r == 1 ? "0xabc2" : "0x2"));
        }
        json_object_set_new(ev, key, json_pack("{s:s, s:b, s:o, s:i}", "value", "v", "identifiable", 1, "rejected", rej,
                                               "rejected_total", nrej));
    }
    return json_pack("{s:s, s:s, s:o, s:o, s:{s:i, s:i, s:b}, s:{s:f, s:f, s:f, s:f}}", "kind", "audit", "instr",
                     instr, "fingerprint", fp, "evidence", ev, "verification", "elements", 1000, "mismatches", 0,
                     "verified", 1, "timing", "latency_cycles", 16.5, "throughput_fma_clk_sm", 1000.0,
                     "fraction_of_peak", 0.5, "tflops", 500.0);
}

static tc_record audit_record(const size_t *which, size_t n, int nfields, int nrej, int kterms)
{
    tc_run_info info = {.backend = "model:test", .device = "model (no GPU)"};
    tc_record r = tc_record_new(tc_record_header("audit", &info, NULL, 0));
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(tc_record_add(&r, synthetic_audit(cat[which[i] % ncat].name, i % 2, nfields, nrej, kterms),
                                       NULL, 0), 0);
    return r;
}

static char *audit_html(const tc_record *r, char **md)
{
    char err[256], path[300];
    if (report_into(r, dir, "audit", err, sizeof err))
        fail_msg("%s", err);
    snprintf(path, sizeof path, "%s/audit.md", dir);
    *md = tc_slurp(path);
    snprintf(path, sizeof path, "%s/audit.html", dir);
    return tc_slurp(path);
}

/* The audit page opens with a summary in catalogue order (whatever the
 * record's order), then findings, a contents list whose links each land on
 * an instruction's anchor, and the evidence of each instruction collapsed;
 * a viewport for phones. */
static void audit_report_summary_contents_and_details(void **state)
{
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    assert_true(ncat > 10);
    /* record order: last, first, middle of the catalogue */
    const size_t which[] = {ncat - 1, 0, ncat / 2};
    tc_record r = audit_record(which, 3, 4, 3, 2);
    char *md, *html = audit_html(&r, &md);
    assert_non_null(strstr(html, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
    const char *sum = strstr(html, "<h2 id=\"summary\">"), *fnd = strstr(html, "<h2 id=\"findings\">"),
               *toc = strstr(html, "<h2 id=\"contents\">"), *ins = strstr(html, "<h2 id=\"instructions\">");
    assert_non_null(sum);
    assert_non_null(fnd);
    assert_non_null(toc);
    assert_non_null(ins);
    assert_true(sum < fnd && fnd < toc && toc < ins);
    /* in every part, the names in catalogue order: 0, ncat/2, ncat-1 */
    const size_t order[] = {0, ncat / 2, ncat - 1};
    const char *parts[][2] = {{sum, fnd}, {toc, ins}, {ins, html + strlen(html)}};
    for (size_t p = 0; p < 3; p++) {
        const char *prev = parts[p][0];
        for (size_t i = 0; i < 3; i++) {
            char link[300];
            snprintf(link, sizeof link, p == 2 ? "<h3 id=\"i-%s\">" : "<a href=\"#i-%s\">", cat[order[i]].name);
            const char *at = strstr(prev, link);
            if (!at || at > parts[p][1])
                fail_msg("part %zu: %s missing or out of catalogue order", p, link);
            prev = at + 1;
        }
    }
    /* one anchor per instruction, one collapsed section each, and the
     * deciding case (of the alternative with the fewest contradictions) only
     * inside it */
    assert_int_equal(count(html, "<h3 id=\"i-"), 3);
    assert_int_equal(count(html, "<details>"), 3);
    assert_int_equal(count(html, "</details>"), 3);
    const char *d = strstr(ins, "<details>");
    const char *c = strstr(html, "fam: 0xabc1 / 0xabc2");
    assert_non_null(c);
    assert_true(d < c && c < strstr(d, "</details>"));
    assert_null(strstr(html, "0xbc00")); /* no raw case terms */
    /* findings from the fingerprints: f00 differs (positive twice, ieee once),
     * f01..f03 the same everywhere */
    assert_non_null(strstr(md, "| f00 | positive | 2 |"));
    assert_non_null(strstr(md, "| f00 | ieee | 1 |"));
    assert_non_null(strstr(md, "f01 = v, f02 = v, f03 = v"));
    /* summary row of cat[0] (the record's second, ieee): verdict, counts, the differing field, timing */
    char row[400];
    snprintf(row, sizeof row, "| [%s](#i-%s) | VERIFIED | 1000 | 0 | ieee | 16.5 | 500 |", cat[0].name, cat[0].name);
    assert_non_null(strstr(md, row));
    free(html);
    free(md);
    tc_record_free(&r);
}

/* Size: 32 instructions whose every field was contested by 16 alternatives,
 * each case 16 terms (the record holds ~2.6 MB of JSON), 27 of the 30
 * fields differing between instructions (so shown per instruction), stay
 * within 3 KB of page per instruction. The whole committed H100 catalogue (256) is 429 KB. */
static void audit_report_stays_small(void **state)
{
    size_t which[32];
    for (size_t i = 0; i < 32; i++)
        which[i] = i;
    tc_record r = audit_record(which, 32, 30, 16, 16);
    char *md, *html = audit_html(&r, &md);
    size_t n = strlen(html);
    char *raw = json_dumps(r.objects, JSON_COMPACT);
    assert_true(strlen(raw) > 2000000);
    if (n > 16000 + 32 * 3000)
        fail_msg("audit.html is %zu bytes for 32 instructions", n);
    free(raw);
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

/* Everything tc_progress writes off a terminal (stderr a file) while it
 * counts 0..100, sleeping us_per_step between updates; calling end. */
static char *progress_in_a_log(useconds_t us_per_step, double *secs)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char path[300];
    snprintf(path, sizeof path, "%s/stderr.txt", dir);
    fflush(stderr);
    int saved = dup(2);
    FILE *f = fopen(path, "w");
    dup2(fileno(f), 2);
    tc_progress p;
    tc_progress_start(&p, "test", 100);
    for (size_t i = 0; i <= 100; i++) {
        if (us_per_step)
            usleep(us_per_step);
        tc_progress_update(&p, i);
    }
    tc_progress_end(&p);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    fclose(f);
    return tc_slurp(path);
}

/* A quick run writes nothing to a log: the first line waits 10 s. */
static void progress_is_silent_in_a_log_on_a_quick_run(void **state)
{
    double secs;
    char *text = progress_in_a_log(0, &secs);
    assert_string_equal(text, "");
    free(text);
}

/* A run longer than the interval (TCSCOPE_PROGRESS_S, here 0.05 s, the
 * run about 0.2 s) writes plain lines to a log: the count, the share, the
 * time so far and left, no bar, no carriage return; at most one per
 * interval; one last line saying it ended. Under TCSCOPE_QUIET nothing. */
static void progress_writes_plain_lines_in_a_log(void **state)
{
    setenv("TCSCOPE_PROGRESS_S", "0.05", 1);
    double secs;
    char *text = progress_in_a_log(2000, &secs);
    assert_null(strchr(text, '\r'));
    assert_null(strchr(text, '['));
    int lines = 0, eta = 0;
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"), lines++) {
        unsigned long done, total;
        if (sscanf(l, "test: %lu/%lu (", &done, &total) != 2 || total != 100)
            fail_msg("not a progress line: '%s'", l);
        eta += strstr(l, " so far, ETA ") != NULL;
    }
    /* one an interval and the last (one a step would be 102) */
    if (lines < 2 || lines > secs / 0.05 + 1 || !eta)
        fail_msg("%d lines (%d with an ETA) in %.2f s", lines, eta, secs);
    free(text);
    setenv("TCSCOPE_QUIET", "1", 1);
    text = progress_in_a_log(2000, &secs);
    assert_string_equal(text, "");
    free(text);
    unsetenv("TCSCOPE_QUIET");
    unsetenv("TCSCOPE_PROGRESS_S");
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

/* doc/findings.md's chain-sweep sentence ("median relative error after 100
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
        /* doc/findings.md's two significant digits */
        if (fabs(at100[w] - want[w].readme) > 0.051 * want[w].readme)
            fail_msg("%s: median at step 100 is %g, doc/findings.md says %g", want[w].fmt, at100[w], want[w].readme);
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
        cmocka_unit_test(audit_report_summary_contents_and_details),
        cmocka_unit_test(audit_report_stays_small),
        cmocka_unit_test(plot_with_no_positive_value_says_so),
        cmocka_unit_test(progress_is_silent_in_a_log_on_a_quick_run),
        cmocka_unit_test(progress_writes_plain_lines_in_a_log),
        cmocka_unit_test(unwritable_directory_is_an_error),
        cmocka_unit_test(committed_h100_sweep_is_complete_and_consistent),
        cmocka_unit_test(committed_h100_sweep_backs_the_readme),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
