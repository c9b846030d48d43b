/* The HTML page of `tcscope gemm` records (gemm --report DIR --from FILE):
 * a summary table first (path, shape, TFLOP/s, errors against the exact
 * products of the original and of the rounded inputs, inferred structure,
 * prediction rate), error vs K per path (log-log), error vs TFLOP/s with
 * the Pareto front, and each case's structure tree collapsed.
 *
 * Cases come from tc_gemm_records_load (reports/record_gemm.h: a gemm
 * record or the older tcscope-gemm lines) and are read tolerantly: a field
 * that is absent (an older or newer case) shows as a dash and leaves no
 * point. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/gemm_report.h"
#include "reports/render.h"
#include "reports/render_doc.h"
#include "reports/reports_internal.h"

#define MAX_PATHS 32
/* What an inferred structure means (SCHEMA.md "gemm objects: the meaning of
 * their fields"), the caption of its tree; the records carried it in every
 * object before 2026-11-28, this reads neither form's copy. */
#define STRUCTURE_MEANING                                                                                           \
    "K cut into splitk slices (slice_unit null: k/splitk each, the rest to the last; else whole units of "       \
    "slice_unit positions, the units left over one each to the last slices); in a slice the tensor core "        \
    "accumulates runs of promote positions (null: the whole slice), chunk per step; runs added in FP32 RNE in K " \
    "order; slices meet in FP32 RNE (seq: in K order; pairwise: a balanced tree; reverse: from the last slice "  \
    "to the first)"

static const char *str_of(const json_t *c, const char *key)
{
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "?";
}

/* o.a.b..., NULL when a step is absent. */
static const json_t *at(const json_t *o, const char *a, const char *b, const char *c)
{
    const json_t *v = json_object_get(o, a);
    if (b)
        v = json_object_get(v, b);
    if (c)
        v = json_object_get(v, c);
    return v;
}

static double num_at(const json_t *o, const char *a, const char *b, const char *c)
{
    return tc_json_number(at(o, a, b, c));
}

static long long int_of(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

/* Paths in order of first appearance; returns how many. */
static size_t paths_of(const json_t *recs, const char **paths)
{
    size_t n = 0, i;
    json_t *r;
    json_array_foreach(recs, i, r)
    {
        size_t j = 0;
        while (j < n && strcmp(paths[j], str_of(r, "path")))
            j++;
        if (j == n && n < MAX_PATHS)
            paths[n++] = str_of(r, "path");
    }
    return n;
}

/* qsort has no context: the order of the paths for by_path_shape_k. */
static const char **cmp_paths;
static size_t cmp_npaths;
static size_t path_index(const json_t *r)
{
    for (size_t i = 0; i < cmp_npaths; i++)
        if (!strcmp(cmp_paths[i], str_of(r, "path")))
            return i;
    return cmp_npaths;
}
static int by_path_shape_k(const void *a, const void *b)
{
    const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    size_t px = path_index(x), py = path_index(y);
    long long sx = int_of(x, "m") * int_of(x, "n"), sy = int_of(y, "m") * int_of(y, "n");
    if (px != py)
        return px < py ? -1 : 1;
    if (sx != sy)
        return sx < sy ? -1 : 1;
    return (int_of(x, "k") > int_of(y, "k")) - (int_of(x, "k") < int_of(y, "k"));
}

static json_t *ulps_cell(const json_t *r, const char *which)
{
    return rdoc_cell(at(r, which, "median_ulps", NULL));
}

/* The table of cases (all of them, or per path its timed case). */
static void case_table(json_t *doc, json_t **sorted, size_t n, const char *intro)
{
    rdoc_para(doc, "%s Errors: of the FP32 output against the exact sum_k A[i][k] B[k][j] of the "
                   "original FP32 inputs and of the inputs as uploaded (rounded), median in FP32 ulps of the exact "
                   "value and largest relative error, over the sampled outputs. Structure: inferred from masking "
                   "inputs (chunk per tensor-core step, promotion interval, split-K, how slices meet); prediction: "
                   "sampled outputs reproduced bit for bit by the instruction model with that structure.", intro);
    static const char *const head[] = {"path", "M x N x K", "TFLOP/s", "median ulps vs original", "max rel vs original",
                                       "median ulps vs rounded", "max rel vs rounded", "chunk", "promote",
                                       "split-K", "combine", "prediction (bit-exact)", "note", NULL};
    json_t *rows = rdoc_table(doc, head);
    for (size_t i = 0; i < n; i++) {
        const json_t *r = sorted[i];
        char shape[96], pred[96] = "—", note[200] = "";
        snprintf(shape, sizeof shape, "%lld x %lld x %lld", int_of(r, "m"), int_of(r, "n"), int_of(r, "k"));
        const json_t *p = at(r, "structure", "prediction", NULL);
        if (json_is_integer(json_object_get(p, "n")))
            snprintf(pred, sizeof pred, "%lld / %lld (%.4g%%)", int_of(p, "bit_exact"), int_of(p, "n"),
                     100 * tc_json_number(json_object_get(p, "rate")));
        const json_t *promote = at(r, "structure", "inferred", "promote");
        if (json_is_string(json_object_get(r, "skipped")))
            snprintf(note, sizeof note, "skipped: %s", str_of(r, "skipped"));
        else if (json_is_string(json_object_get(r, "error")))
            snprintf(note, sizeof note, "error: %s", str_of(r, "error"));
        else if (json_is_string(at(r, "structure", "error", NULL)))
            snprintf(note, sizeof note, "structure: %s", json_string_value(at(r, "structure", "error", NULL)));
        else if (json_is_false(at(r, "structure", "consistent", NULL)))
            snprintf(note, sizeof note, "structure not consistent: %s",
                     json_string_value(at(r, "structure", "why", NULL)) ? json_string_value(at(r, "structure", "why", NULL)) : "?");
        rdoc_row(rows, rdoc_str(str_of(r, "path")), rdoc_str(shape), rdoc_cell(at(r, "timing", "tflops", NULL)),
                 ulps_cell(r, "error_vs_original"), rdoc_cell(at(r, "error_vs_original", "max_rel", NULL)),
                 ulps_cell(r, "error_vs_rounded"), rdoc_cell(at(r, "error_vs_rounded", "max_rel", NULL)),
                 rdoc_cell(at(r, "structure", "inferred", "chunk")),
                 json_is_null(promote) ? rdoc_str("never") : rdoc_cell(promote),
                 rdoc_cell(at(r, "structure", "inferred", "splitk")), rdoc_cell(at(r, "structure", "inferred", "combine")),
                 rdoc_str(pred), rdoc_str(note), NULL);
    }
}

/* The (M, N) of most cases: the K sweep's shape. */
static void sweep_shape(json_t **sorted, size_t n, long long *m, long long *nn)
{
    size_t best = 0;
    *m = *nn = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        for (size_t j = 0; j < n; j++)
            c += int_of(sorted[j], "m") == int_of(sorted[i], "m") && int_of(sorted[j], "n") == int_of(sorted[i], "n");
        if (c > best)
            best = c, *m = int_of(sorted[i], "m"), *nn = int_of(sorted[i], "n");
    }
}

static void caption(char *out, size_t len, const json_t *first, const char *what)
{
    snprintf(out, len, "Device: %s, library %s %lld. Inputs: %s FP32 originals, seed %lld; %lld sampled outputs "
                       "per case. %s",
             str_of(first, "device"), str_of(first, "library"), int_of(first, "library_version"), str_of(first, "dist"),
             int_of(first, "seed"), int_of(first, "samples"), what);
}

static int plot_block(json_t *doc, const char *name, const tc_plot_axes *ax, const tc_plot_series *s, size_t n,
                      const char *cap, char *err, size_t len)
{
    json_t *undrawn = NULL;
    char *svg = tc_plot_xy_svg(ax, s, n, &undrawn, err, len);
    if (!svg)
        return -1;
    char text[4096];
    size_t o = (size_t)snprintf(text, sizeof text, "%s", cap), i;
    json_t *u;
    if (json_array_size(undrawn) && o < sizeof text)
        o += (size_t)snprintf(text + o, sizeof text - o, " Not drawn (no case with a positive value):");
    json_array_foreach(undrawn, i, u) if (o < sizeof text) o +=
        (size_t)snprintf(text + o, sizeof text - o, " %s", json_string_value(u));
    json_array_append_new(doc, json_pack("{s:s, s:s, s:s}", "plot", name, "svg", svg, "caption", text));
    free(svg);
    json_decref(undrawn);
    return 0;
}

/* Error vs K per path at the sweep shape, against the originals or the rounded inputs. */
static int error_vs_k(json_t *doc, json_t **sorted, size_t n, const char **paths, size_t np, const char *which,
                      const char *name, char *err, size_t len)
{
    long long m, nn;
    sweep_shape(sorted, n, &m, &nn);
    tc_plot_series s[MAX_PATHS];
    double *x = calloc(n + 1, sizeof *x), *y = calloc(n + 1, sizeof *y);
    if (!x || !y) {
        free(x), free(y);
        rep_set_err(err, len, "out of memory");
        return -1;
    }
    size_t used = 0;
    for (size_t p = 0; p < np; p++) {
        s[p] = (tc_plot_series){.legend = paths[p], .x = x + used, .y = y + used, .style = p, .kind = TC_PLOT_LINES};
        for (size_t i = 0; i < n; i++)   /* sorted by K within a path */
            if (!strcmp(str_of(sorted[i], "path"), paths[p]) && int_of(sorted[i], "m") == m &&
                int_of(sorted[i], "n") == nn) {
                x[used] = (double)int_of(sorted[i], "k");
                y[used++] = num_at(sorted[i], which, "median_ulps", NULL);
                s[p].n++;
            }
    }
    bool orig = !strcmp(which, "error_vs_original");
    char cap[2048], what[400];
    snprintf(what, sizeof what, "One line per cuBLASLt path; M = N = %lld%s (other shapes: the table). Median error "
                                "of the FP32 output, in FP32 ulps of the exact product of the %s inputs.",
             m, m == nn ? "" : " x N", orig ? "ORIGINAL (input rounding counted)" : "ROUNDED (as uploaded)");
    caption(cap, sizeof cap, sorted[0], what);
    tc_plot_axes ax = {.title = orig ? "GEMM error vs K, against the original inputs"
                                     : "GEMM error vs K, against the rounded inputs",
                       .xlabel = "K (dot length)", .ylabel = "median error (FP32 ulps)",
                       .empty_note = "no case with a positive error", .x_fit = true};
    int rc = plot_block(doc, name, &ax, s, np, cap, err, len);
    free(x), free(y);
    return rc;
}

/* Per path its largest case with a throughput figure (the timing case), NULL when none. */
static const json_t *timed_case(json_t **sorted, size_t n, const char *path)
{
    const json_t *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(str_of(sorted[i], "path"), path) && isfinite(num_at(sorted[i], "timing", "tflops", NULL)) &&
            (!best || int_of(sorted[i], "m") * int_of(sorted[i], "n") * int_of(sorted[i], "k") >=
                          int_of(best, "m") * int_of(best, "n") * int_of(best, "k")))
            best = sorted[i];
    return best;
}

/* Per path its largest case with a throughput figure (the timing case). */
static int pareto(json_t *doc, json_t **sorted, size_t n, const char **paths, size_t np, char *err, size_t len)
{
    tc_plot_series s[MAX_PATHS + 1];
    double tf[MAX_PATHS] = {0}, e[MAX_PATHS] = {0}, fx[MAX_PATHS], fy[MAX_PATHS];
    bool front[MAX_PATHS];
    char legends[MAX_PATHS][200];
    for (size_t p = 0; p < np; p++) {
        const json_t *best = timed_case(sorted, n, paths[p]);
        tf[p] = best ? num_at(best, "timing", "tflops", NULL) : NAN;
        e[p] = best ? num_at(best, "error_vs_original", "median_ulps", NULL) : NAN;
        if (best)
            snprintf(legends[p], sizeof legends[p], "%s (%lld x %lld x %lld)", paths[p], int_of(best, "m"),
                     int_of(best, "n"), int_of(best, "k"));
        else
            snprintf(legends[p], sizeof legends[p], "%s (no timed case)", paths[p]);
        s[p] = (tc_plot_series){.legend = legends[p], .x = &tf[p], .y = &e[p], .n = 1, .style = p,
                                .kind = TC_PLOT_POINTS};
    }
    rep_pareto_front(tf, e, np, front);
    size_t nf = 0;
    for (size_t p = 0; p < np; p++)
        if (front[p])
            fx[nf] = tf[p], fy[nf++] = e[p];
    for (size_t a = 1; a < nf; a++)   /* the front's line in order of speed */
        for (size_t b = a; b > 0 && fx[b - 1] > fx[b]; b--) {
            double t = fx[b]; fx[b] = fx[b - 1]; fx[b - 1] = t;
            t = fy[b]; fy[b] = fy[b - 1]; fy[b - 1] = t;
        }
    s[np] = (tc_plot_series){.legend = "Pareto front", .x = fx, .y = fy, .n = nf, .kind = TC_PLOT_FRONT};
    char cap[2048], what[600] = "Per path its largest timed case (TFLOP/s: 2MNK / median time, cudaEvent); error: "
                                "median FP32 ulps against the exact product of the original inputs. The dashed "
                                "line joins the Pareto front (no path both faster and more accurate):";
    size_t o = strlen(what);
    for (size_t p = 0; p < np && o < sizeof what; p++)
        if (front[p])
            o += (size_t)snprintf(what + o, sizeof what - o, " %s", paths[p]);
    if (o < sizeof what)
        snprintf(what + o, sizeof what - o, ".");
    caption(cap, sizeof cap, sorted[0], what);
    tc_plot_axes ax = {.title = "GEMM error vs throughput", .xlabel = "TFLOP/s", .ylabel = "median error (FP32 ulps)",
                       .empty_note = "no timed case with a positive error"};
    return plot_block(doc, "pareto", &ax, s, np + 1, cap, err, len);
}

static void structures(json_t *doc, json_t **sorted, size_t n)
{
    rdoc_heading(doc, 2, "Inferred accumulation structure per case", "structure");
    size_t shown = 0;
    for (size_t i = 0; i < n; i++) {
        const char *svg = json_string_value(at(sorted[i], "structure", "tree_svg", NULL));
        if (!svg)
            continue;
        char sum[300], id[64];
        const json_t *inf = at(sorted[i], "structure", "inferred", NULL);
        const json_t *promote = json_object_get(inf, "promote");
        char pr[32] = "never";
        if (!json_is_null(promote))
            snprintf(pr, sizeof pr, "%lld", (long long)json_integer_value(promote));
        snprintf(sum, sizeof sum, "%s, %lld x %lld x %lld: chunk %lld, promote %s, split-K %lld, %s",
                 str_of(sorted[i], "path"), int_of(sorted[i], "m"), int_of(sorted[i], "n"), int_of(sorted[i], "k"),
                 int_of(inf, "chunk"), pr, int_of(inf, "splitk"), str_of(inf, "combine"));
        snprintf(id, sizeof id, "case-%zu", i);
        json_t *blocks = rdoc_details(doc, sum);
        rdoc_heading(blocks, 3, sum, id);
        if (rep_svg_safe(svg))
            json_array_append_new(blocks, json_pack("{s:s, s:s}", "figure", svg, "caption", STRUCTURE_MEANING));
        else
            rdoc_para(blocks, "The record's tree picture is not shown: it holds markup other than plain drawing "
                              "(script, links, styles or unknown elements).");
        shown++;
    }
    if (!shown)
        rdoc_para(doc, "No case holds an inferred structure (gemm --infer).");
}

int tc_gemm_report_write(const json_t *recs, const tc_outdir *dir, char *err, size_t len)
{
    size_t n = json_array_size(recs);
    const char *paths[MAX_PATHS];
    size_t np = paths_of(recs, paths);
    json_t **sorted = calloc(n + 1, sizeof *sorted);
    if (!sorted) {
        rep_set_err(err, len, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        sorted[i] = json_array_get(recs, i);
    cmp_paths = paths, cmp_npaths = np;
    qsort(sorted, n, sizeof *sorted, by_path_shape_k);
    json_t *doc = json_array();
    char title[300];
    snprintf(title, sizeof title, "tcscope gemm — %s, %zu cases, %zu paths", str_of(sorted[0], "device"), n, np);
    rdoc_heading(doc, 1, title, NULL);
    rdoc_heading(doc, 2, "Summary", "summary");
    json_t **timed = calloc(np + 1, sizeof *timed);
    size_t nt = 0;
    for (size_t p = 0; timed && p < np; p++) {
        timed[nt] = (json_t *)timed_case(sorted, n, paths[p]);
        for (size_t i = 0; !timed[nt] && i < n; i++)   /* untimed: its largest case (the last in order) */
            if (!strcmp(str_of(sorted[i], "path"), paths[p]) &&
                (i + 1 == n || strcmp(str_of(sorted[i + 1], "path"), paths[p])))
                timed[nt] = sorted[i];
        nt += timed[nt] != NULL;
    }
    case_table(doc, timed ? timed : sorted, timed ? nt : 0,
               "Per path its largest timed case (untimed paths: their largest case; every case: the table after the plots).");
    free(timed);
    rdoc_heading(doc, 2, "Error vs K", "error-vs-k");
    int rc = error_vs_k(doc, sorted, n, paths, np, "error_vs_original", "error-vs-k", err, len);
    if (!rc)
        rc = error_vs_k(doc, sorted, n, paths, np, "error_vs_rounded", "error-vs-k-rounded", err, len);
    if (!rc) {
        rdoc_heading(doc, 2, "Error vs throughput", "pareto");
        rc = pareto(doc, sorted, n, paths, np, err, len);
    }
    if (!rc) {
        rdoc_heading(doc, 2, "All cases", "cases");
        case_table(doc, sorted, n, "One row per case.");
        structures(doc, sorted, n);
        rc = rdoc_write_html(dir, "gemm.html", doc, err, len);
    }
    json_decref(doc);
    free(sorted);
    return rc;
}
