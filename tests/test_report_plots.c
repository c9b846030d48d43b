/* The pages of `choose --report` and `gemm --report`: the summary table
 * comes before the plots, the anchors and the viewport are there, each plot
 * has one series per format or path present (counted in gnuplot's SVG,
 * against the input, not against the renderer), the Pareto front is the one
 * worked out by hand for the test records, a hostile tree picture is not
 * inlined, old records without the newer fields render, and bad input
 * exits 2. The gemm records are synthetic test data built here, not
 * measurements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>

#include "tests/testutil.h"

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The text of the figure with id plot-NAME (malloc'd), failing when absent. */
static char *figure(const char *html, const char *name)
{
    char id[80];
    snprintf(id, sizeof id, "<figure class=\"plot\" id=\"plot-%s\">", name);
    const char *start = strstr(html, id);
    if (!start)
        fail_msg("no figure %s", name);
    const char *end = strstr(start, "</figure>");
    assert_non_null(end);
    return strndup(start, (size_t)(end - start));
}

/* Summary heading, then its table, then the first plot; viewport present. */
static void assert_summary_first(const char *html)
{
    assert_non_null(strstr(html, "<meta name=\"viewport\" content=\"width=device-width"));
    const char *sum = strstr(html, "<h2 id=\"summary\">");
    const char *plot = strstr(html, "<figure class=\"plot\"");
    assert_non_null(sum);
    assert_non_null(plot);
    const char *table = strstr(sum, "<table>");
    assert_non_null(table);
    assert_true(table < plot);
    assert_true(strstr(html, "<figure") > table);
}

/* ---- gemm ---------------------------------------------------------------- */

/* One case: median ulps vs original `orig`, vs rounded orig/10, TFLOP/s tf (<= 0: no timing). */
static json_t *gemm_case(const char *path, int m, int k, double orig, double tf, const char *tree)
{
    json_t *o = json_pack("{s:s, s:i, s:s, s:s, s:i, s:s, s:i, s:i, s:i, s:s, s:i, s:i}", "record", "tcscope-gemm",
                          "version", 1, "library", "cublaslt", "device", "Test GPU", "library_version", 1, "path", path,
                          "m", m, "n", m, "k", k, "dist", "normal", "seed", 1, "samples", 100);
    json_object_set_new(o, "error_vs_original", json_pack("{s:f, s:f}", "median_ulps", orig, "max_rel", orig * 1e-6));
    if (strcmp(path, "e4m3")) /* e4m3: an older record without these fields */
        json_object_set_new(o, "error_vs_rounded", json_pack("{s:f, s:f}", "median_ulps", orig / 10, "max_rel", 1e-7));
    if (tf > 0)
        json_object_set_new(o, "timing", json_pack("{s:f}", "tflops", tf));
    if (tree)
        json_object_set_new(o, "structure",
                            json_pack("{s:{s:i, s:n, s:i, s:s, s:s}, s:b, s:s, s:{s:i, s:i, s:f}}", "inferred", "chunk",
                                      16, "promote", "splitk", 1, "combine", "seq", "meaning", "test", "consistent", 1,
                                      "tree_svg", tree, "prediction", "n", 100, "bit_exact", 100, "rate", 1.0));
    return o;
}

static const char *safe_tree = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"40\" height=\"20\"><!-- t -->"
                               "<rect x=\"1\" y=\"1\" width=\"5\" height=\"5\" fill=\"#cde\"/><text x=\"1\" y=\"9\">0</text>"
                               "<line x1=\"0\" y1=\"0\" x2=\"4\" y2=\"4\" stroke=\"#000\"/></svg>";
static const char *hostile_tree = "<svg onload=\"alert(1)\"><script>alert(2)</script></svg>";

/* Three paths at M = N = 256, K = 16, 256, 4096, each also timed at 1024^3:
 * f16 500 TFLOP/s error 10, e4m3 1000 TFLOP/s error 1000, f32 50 TFLOP/s
 * error 20. f32 is slower and less accurate than f16: the front is f16 and e4m3. */
static void write_gemm_records(const char *file)
{
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    static const struct { const char *path; double err, tf; } p[] = {{"f16", 10, 500}, {"e4m3", 1000, 1000}, {"f32", 20, 50}};
    static const int ks[] = {16, 256, 4096};
    for (size_t i = 0; i < 3; i++) {
        for (size_t j = 0; j < 3; j++) {
            const char *tree = !strcmp(p[i].path, "f16") ? (j == 2 ? hostile_tree : safe_tree) : NULL;
            json_t *o = gemm_case(p[i].path, 256, ks[j], p[i].err * (double)(j + 1), 1, tree);
            char *s = json_dumps(o, JSON_COMPACT);
            fprintf(f, "%s\n\n", s); /* blank lines are allowed */
            free(s);
            json_decref(o);
        }
        json_t *o = gemm_case(p[i].path, 1024, 1024, p[i].err, p[i].tf, NULL);
        char *s = json_dumps(o, JSON_COMPACT);
        fprintf(f, "%s\n", s);
        free(s);
        json_decref(o);
    }
    fclose(f);
}

static void gemm_page(void **state)
{
    char recs[200], dir[200], cmd[600], page[260];
    snprintf(recs, sizeof recs, "%s/gemm.jsonl", tc_tmp_root());
    snprintf(dir, sizeof dir, "%s/gemm-report", tc_tmp_root());
    write_gemm_records(recs);
    snprintf(cmd, sizeof cmd, "gemm --report %s --from %s", dir, recs);
    tc_run_result r = tc_run_cli(cmd);
    if (r.status)
        fail_msg("gemm --report: status %d: %s", r.status, r.err);
    tc_run_result_free(&r);
    snprintf(page, sizeof page, "%s/gemm.html", dir);
    char *html = tc_slurp(page);
    assert_summary_first(html);
    for (const char *const *id = (const char *const[]){"summary", "error-vs-k", "pareto", "cases", "structure", NULL};
         *id; id++) {
        char a[64];
        snprintf(a, sizeof a, "<h2 id=\"%s\">", *id);
        assert_non_null(strstr(html, a));
    }
    /* Three paths: three series in each error-vs-K plot, three points and the front line in the Pareto plot. */
    char *fig = figure(html, "error-vs-k");
    assert_int_equal(count(fig, "id=\"gnuplot_plot_"), 3);
    assert_non_null(strstr(fig, "<title>e4m3</title>"));
    free(fig);
    fig = figure(html, "error-vs-k-rounded"); /* e4m3 has no vs-rounded figures: named, not drawn */
    assert_int_equal(count(fig, "id=\"gnuplot_plot_"), 2);
    assert_non_null(strstr(fig, "Not drawn (no case with a positive value): e4m3"));
    free(fig);
    fig = figure(html, "pareto");
    assert_int_equal(count(fig, "id=\"gnuplot_plot_"), 4);
    assert_non_null(strstr(fig, "more accurate): f16 e4m3."));
    free(fig);
    /* The structure trees: the plain one inlined in a collapsed section, the hostile one not. */
    assert_int_equal(count(html, "<figure class=\"tree\">"), 2);
    assert_non_null(strstr(html, "<details><summary>f16, 256 x 256 x 16"));
    assert_null(strstr(html, "<script"));
    assert_null(strstr(html, "onload"));
    assert_non_null(strstr(html, "tree picture is not shown"));
    free(html);

    /* The page is kept without --force, replaced with it. */
    r = tc_run_cli(cmd);
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    snprintf(cmd, sizeof cmd, "gemm --report %s --from %s --force", dir, recs);
    r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
}

static void gemm_bad_input(void **state)
{
    char bad[200], cmd[600];
    static const char *const contents[] = {"", "not json\n", "{\"record\":\"tcscope-record/1\"}\n",
                                           "{\"record\":\"tcscope-gemm\",\"k\":16}\n", "[1,2]\n"};
    for (size_t i = 0; i < sizeof contents / sizeof *contents; i++) {
        snprintf(bad, sizeof bad, "%s/bad%zu.jsonl", tc_tmp_root(), i);
        assert_int_equal(tc_put_file(bad, contents[i]), 0);
        snprintf(cmd, sizeof cmd, "gemm --report %s/bad-out --from %s", tc_tmp_root(), bad);
        tc_run_result r = tc_run_cli(cmd);
        if (r.status != 2)
            fail_msg("input %zu: status %d, want 2 (%s)", i, r.status, r.err);
        assert_non_null(strstr(r.err, "tcscope gemm:"));
        tc_run_result_free(&r);
    }
    static const char *const usage[] = {"gemm --report /tmp/x", "gemm --from /tmp/x", "gemm --report /tmp/x --from /nonexistent/x"};
    for (size_t i = 0; i < sizeof usage / sizeof *usage; i++) {
        tc_run_result r = tc_run_cli(usage[i]);
        if (r.status != 2)
            fail_msg("%s: status %d, want 2", usage[i], r.status);
        tc_run_result_free(&r);
    }
}

/* ---- choose -------------------------------------------------------------- */

#define CHOOSE_ARGS "--m 64 --n 64 --k 256 --outputs 8 --backend model:h100 --max-rel-err 1e-2 --no-library"

static void choose_page(void **state)
{
    char dir[200], cmd[600], page[260];
    snprintf(dir, sizeof dir, "%s/choose-report", tc_tmp_root());
    snprintf(cmd, sizeof cmd, "choose " CHOOSE_ARGS " --sweep-k 64,16 --report %s", dir);
    tc_run_result r = tc_run_cli(cmd);
    if (r.status)
        fail_msg("choose --report: status %d: %s", r.status, r.err);
    tc_run_result_free(&r);
    /* The candidates, from the record of the same run (not from the page). */
    r = tc_run_cli("choose --json " CHOOSE_ARGS);
    assert_int_equal(r.status, 0);
    size_t cands = 0, with_point = 0, triples = 0;
    char seen[64][128];
    for (char *save = NULL, *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        json_t *o = json_loads(line, 0, NULL);
        assert_non_null(o);
        if (!strcmp(json_string_value(json_object_get(o, "kind")) ? json_string_value(json_object_get(o, "kind")) : "",
                    "choice")) {
            cands++;
            double t = json_number_value(json_object_get(o, "tflops")), e = json_number_value(json_object_get(o, "error"));
            with_point += json_is_number(json_object_get(o, "tflops")) && t > 0 && e > 0;
            char key[128];
            snprintf(key, sizeof key, "%s %s %s", json_string_value(json_object_get(o, "format")),
                     json_string_value(json_object_get(o, "accumulator")), json_string_value(json_object_get(o, "strategy")));
            size_t q = 0;
            while (q < triples && strcmp(seen[q], key))
                q++;
            if (q == triples && triples < 64)
                snprintf(seen[triples++], sizeof seen[0], "%s", key);
        }
        json_decref(o);
    }
    tc_run_result_free(&r);
    assert_true(cands >= 4);
    snprintf(page, sizeof page, "%s/choose.html", dir);
    char *html = tc_slurp(page);
    assert_summary_first(html);
    assert_non_null(strstr(html, "<h2 id=\"error-vs-k\">"));
    assert_non_null(strstr(html, "<h2 id=\"pareto\">"));
    /* The K list: the user's, sorted, with --k itself. */
    const char *k16 = strstr(html, "<th>K = 16"), *k64 = strstr(html, "<th>K = 64"), *k256 = strstr(html, "<th>K = 256");
    assert_true(k16 && k64 && k256 && k16 < k64 && k64 < k256);
    /* Error vs K: one line per kind of candidate (same format, accumulator and
     * strategy share a line only when their errors agree at every K). */
    char *fig = figure(html, "error-vs-k");
    size_t lines = count(fig, "id=\"gnuplot_plot_");
    assert_true(lines >= triples && lines <= cands);
    free(fig);
    /* Error vs throughput: one point per candidate with a figure and an error > 0, plus the front. */
    fig = figure(html, "pareto");
    assert_int_equal(count(fig, "id=\"gnuplot_plot_"), with_point + 1);
    assert_non_null(strstr(fig, "model:h100"));
    free(fig);
    free(html);
}

static void choose_bad_input(void **state)
{
    static const char *const bad[] = {
        "choose " CHOOSE_ARGS " --sweep-k 16,64",            /* no --report */
        "choose " CHOOSE_ARGS " --report /tmp/x --sweep-k 0",
        "choose " CHOOSE_ARGS " --report /tmp/x --sweep-k 16,abc",
        "choose " CHOOSE_ARGS " --report /tmp/x --sweep-k 16,",
        "choose --report /tmp/x --sweep reports/baselines/h100-sweep.json",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        tc_run_result r = tc_run_cli(bad[i]);
        if (r.status != 2)
            fail_msg("%s: status %d, want 2 (%s)", bad[i], r.status, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gemm_page),
        cmocka_unit_test(gemm_bad_input),
        cmocka_unit_test(choose_page),
        cmocka_unit_test(choose_bad_input),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
