/* The HTML page of `choose` for an application (--report DIR): the
 * ranking first, then the error of every candidate against K (log-log) and
 * its error against throughput with the Pareto front, every figure with
 * the workload behind it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/choose_app.h"
#include "reports/render.h"
#include "reports/render_doc.h"
#include "reports/reports_internal.h"

/* A choice's string field, "" when it has none: a library path has "path",
 * an instruction chain does not (a "?" would also make *str_of(c, "path")
 * true for every candidate and print "?" in the tables and legends). */
static const char *str_of(const json_t *c, const char *key)
{
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "";
}

/* A candidate is its instruction and accumulation strategy. */
static void candidate_name(const json_t *c, char *out, size_t len)
{
    if (*str_of(c, "path"))   /* a library path: its name says it; its structure may change with K */
        snprintf(out, len, "%s", str_of(c, "candidate"));
    else
        snprintf(out, len, "%s %s %s", str_of(c, "format"), str_of(c, "instr"), str_of(c, "strategy"));
}

/* The candidate's object in a list of choices, or NULL. */
static const json_t *find_candidate(const json_t *choices, const json_t *c)
{
    size_t i;
    json_t *x;
    json_array_foreach(choices, i, x) if (!strcmp(str_of(x, "instr"), str_of(c, "instr")) &&
                                          !strcmp(str_of(x, "path"), str_of(c, "path")) &&
                                          (*str_of(c, "path") || !strcmp(str_of(x, "strategy"), str_of(c, "strategy"))))
        return x;
    return NULL;
}

static void workload_text(const tc_choose_app_opts *o, const app_data *d, const char *device, char *out, size_t len)
{
    snprintf(out, len,
             "Device/model: %s (backend %s). Workload: C = A * B, M = %d, N = %d, K = %d; A and B from %s, "
             "seed 0x%llx; scaling %s; %d sampled outputs (%d x %d) per candidate and K; error: %s relative "
             "error against the exact product of the original inputs (input rounding counted).",
             device, o->backend, d->m, d->n, d->k, o->dist->desc, (unsigned long long)d->seed,
             app_scaling_name(o->scaling), o->rows * o->cols, o->rows, o->cols, o->metric);
}

static void summary(json_t *doc, const json_t *main, const tc_choose_app_opts *o)
{
    rdoc_heading(doc, 2, "Summary", "summary");
    char answer[600];
    tc_choose_app_recommendation(main, o, answer, sizeof answer);
    rdoc_para(doc, "%s.", answer);
    if (isnan(o->bound))
        rdoc_para(doc, "No bound given: candidates listed by %s error, most accurate first (ranking by speed "
                       "needs a bound).", o->metric);
    else
        rdoc_para(doc, "Bound: %s relative error <= %g. Ranked by %s among the candidates meeting it; a candidate "
                       "with error > 1 is never ranked.", o->metric, o->bound,
                  o->gemm_recs ? "the measured library GEMM TFLOP/s of each path on the GPU and by the caller asked for (model of the "
                                 "GPU each structure was recorded on; "
                                 "instruction chains listed for comparison, unranked)"
                               : "the recorded TFLOP/s of the instruction");
    static const char *const head[] = {"rank", "format", "candidate", "accumulation", "TFLOP/s", "TFLOP/s from",
                                       "error", "vs rounded", "Pareto front", "not ranked because", NULL};
    json_t *rows = rdoc_table(doc, head);
    size_t i;
    json_t *c;
    json_array_foreach(main, i, c)
    {
        char acc[300];
        bool lib = *str_of(c, "path");
        if (lib)   /* the structure and where it was inferred */
            snprintf(acc, sizeof acc, "%s (model %s; structure of %lldx%lldx%lld)", str_of(c, "strategy"),
                     str_of(c, "instr"), (long long)json_integer_value(json_object_get(json_object_get(c, "structure_from"), "m")),
                     (long long)json_integer_value(json_object_get(json_object_get(c, "structure_from"), "n")),
                     (long long)json_integer_value(json_object_get(json_object_get(c, "structure_from"), "k")));
        else
            snprintf(acc, sizeof acc, "%s %s", str_of(c, "accumulator"), str_of(c, "strategy"));
        json_t *front = json_object_get(c, "pareto");
        char refwhy[400];
        snprintf(refwhy, sizeof refwhy, "tcscope's own kernel: a reference, not a library you call%s%s",
                 *str_of(c, "reason") ? "; " : "", str_of(c, "reason"));
        const char *why = json_is_true(json_object_get(c, "comparison"))
                              ? "instruction chain, for comparison: its TFLOP/s is one instruction's peak"
                          : json_is_true(json_object_get(c, "reference")) ? refwhy
                                                                            : str_of(c, "reason");
        rdoc_row(rows, rdoc_cell(json_object_get(c, "rank")), rdoc_cell(json_object_get(c, "format")),
                 rdoc_str(lib ? str_of(c, "candidate") : str_of(c, "instr")), rdoc_str(acc),
                 rdoc_cell(json_object_get(c, "tflops")), rdoc_str(str_of(c, "tflops_from")),
                 rdoc_cell(json_object_get(c, "error")), rdoc_cell(json_object_get(c, "error_vs_rounded")),
                 rdoc_str(json_is_true(front) ? "yes" : front ? "no" : "—"), rdoc_str(why), NULL);
    }
}

static void add_undrawn(char *cap, size_t len, const json_t *undrawn, const char *why)
{
    if (!json_array_size(undrawn))
        return;
    size_t o = strlen(cap), i;
    json_t *u;
    o += (size_t)snprintf(cap + o, o < len ? len - o : 0, " Not drawn (%s):", why);
    json_array_foreach(undrawn, i, u) if (o < len) o +=
        (size_t)snprintf(cap + o, len - o, "%s %s", i ? ";" : "", json_string_value(u));
    if (o < len)
        snprintf(cap + o, len - o, ".");
}

static int plot_block(json_t *doc, const char *name, const tc_plot_axes *ax, const tc_plot_series *s, size_t n,
                      const char *caption, const char *why_undrawn, char *err, size_t len)
{
    json_t *undrawn = NULL;
    char *svg = tc_plot_xy_svg(ax, s, n, &undrawn, err, len);
    if (!svg)
        return -1;
    char cap[8192];
    snprintf(cap, sizeof cap, "%s", caption);
    add_undrawn(cap, sizeof cap, undrawn, why_undrawn);
    json_array_append_new(doc, json_pack("{s:s, s:s, s:s}", "plot", name, "svg", svg, "caption", cap));
    free(svg);
    json_decref(undrawn);
    return 0;
}

static json_t *build(const json_t *main, const json_t *per_k, const tc_choose_app_opts *o, const app_data *d,
                     const char *device, char *err, size_t len)
{
    json_t *doc = json_array();
    char title[700], work[1500];
    snprintf(title, sizeof title, "tcscope choose — %d x %d x %d, %s, %s", d->m, d->n, d->k, o->dist->desc, device);
    rdoc_heading(doc, 1, title, NULL);
    workload_text(o, d, device, work, sizeof work);
    rdoc_para(doc, "%s", work);
    summary(doc, main, o);

    size_t nc = json_array_size(main), nk = json_array_size(per_k);
    tc_plot_series *s = calloc(nc + 1, sizeof *s);
    double *x = calloc(nc * nk + 1, sizeof *x), *y = calloc(nc * nk + 1, sizeof *y);
    double *tf = calloc(nc + 1, sizeof *tf), *e = calloc(nc + 1, sizeof *e), *fx = calloc(nc + 1, sizeof *fx),
           *fy = calloc(nc + 1, sizeof *fy);
    char (*names)[200] = calloc(nc + 1, sizeof *names);
    int rc = s && x && y && tf && e && fx && fy && names ? 0 : -1;
    size_t i, j, ns = 0;
    json_t *c;
    size_t *leader = calloc(nc + 1, sizeof *leader), *same = calloc(nc + 1, sizeof *same);
    if (!leader || !same)
        rc = -1;
    json_array_foreach(main, i, c)
    {
        if (rc)
            break;
        candidate_name(c, names[i], sizeof names[i]);
        for (j = 0; j < nk; j++) {
            const json_t *at = json_array_get(per_k, j);
            x[i * nk + j] = (double)json_integer_value(json_object_get(at, "k"));
            y[i * nk + j] = tc_json_number(json_object_get(find_candidate(json_object_get(at, "choices"), c), "error"));
        }
        /* Instructions that compute the same arithmetic (mma and wgmma of one
         * format and accumulator) give the same error at every K: one line,
         * its legend naming the first and counting the others. */
        leader[i] = i;
        for (size_t q = 0; q < i && leader[i] == i; q++) {
            const json_t *prev = json_array_get(main, q);
            bool eq = leader[q] == q && !strcmp(str_of(prev, "format"), str_of(c, "format")) &&
                      !strcmp(str_of(prev, "accumulator"), str_of(c, "accumulator")) &&
                      !strcmp(str_of(prev, "strategy"), str_of(c, "strategy"));
            for (j = 0; j < nk && eq; j++)
                eq = memcmp(&y[q * nk + j], &y[i * nk + j], sizeof(double)) == 0;
            if (eq)
                leader[i] = q, same[q]++;
        }
    }
    char (*legends)[200] = rc ? NULL : calloc(nc + 1, sizeof *legends);
    if (!rc && !legends)
        rc = -1;
    for (i = 0; !rc && i < nc; i++) {
        if (leader[i] != i)
            continue;
        const json_t *ci = json_array_get(main, i);
        if (*str_of(ci, "path"))   /* a library path: its name and structure */
            snprintf(legends[i], sizeof legends[i], "%s (%s)%s", str_of(ci, "candidate"), str_of(ci, "strategy"),
                     json_is_true(json_object_get(ci, "reference")) ? ", reference" : "");
        else if (same[i])
            snprintf(legends[i], sizeof legends[i], "%s in, %s acc, %s: %s (+%zu with the same errors)",
                     str_of(ci, "format"), str_of(ci, "accumulator"), str_of(ci, "strategy"), str_of(ci, "instr"),
                     same[i]);
        else
            snprintf(legends[i], sizeof legends[i], "%s in, %s acc, %s: %s", str_of(ci, "format"),
                     str_of(ci, "accumulator"), str_of(ci, "strategy"), str_of(ci, "instr"));
        s[ns++] = (tc_plot_series){.legend = legends[i], .x = x + i * nk, .y = y + i * nk, .n = nk, .style = i,
                                   .kind = TC_PLOT_LINES};
    }
    if (rc)
        rep_set_err(err, len, "out of memory");
    char cap[2048], ylabel[100];
    snprintf(ylabel, sizeof ylabel, "%s relative error vs exact (original inputs)", o->metric);
    if (!rc) {
        rdoc_heading(doc, 2, "Error vs K", "error-vs-k");
        snprintf(cap, sizeof cap, "One line per candidate (input format, accumulator, accumulation, instruction; "
                                  "instructions with the same error at every K share a line, each keeps its colour "
                                  "and marker in the next plot); K = the dot length, M, N, distribution, scaling "
                                  "and samples as stated. %s", work);
        tc_plot_axes ax = {.title = "Error vs dot length K", .xlabel = "K (dot length)", .ylabel = ylabel,
                           .empty_note = "error is 0 at every K for every candidate", .x_fit = true};
        rc = plot_block(doc, "error-vs-k", &ax, s, ns, cap, "error 0, undefined or not finite at every K", err, len);
    }
    size_t nf = 0;
    json_array_foreach(main, i, c)
    {
        if (rc)
            break;
        /* With library records only their GEMM figures are drawn: one instruction's peak is not a GEMM's. */
        tf[i] = o->gemm_recs && !*str_of(c, "path") ? NAN : tc_json_number(json_object_get(c, "tflops"));
        e[i] = tc_json_number(json_object_get(c, "error"));
        s[i] = (tc_plot_series){.legend = names[i], .x = &tf[i], .y = &e[i], .n = 1, .style = i,
                                .kind = TC_PLOT_POINTS};
        if (json_is_true(json_object_get(c, "pareto"))) /* marked by tc_choose_app */
            fx[nf] = tf[i], fy[nf++] = e[i];
    }
    if (!rc) {
        /* The front as a line in order of speed: the marks are choose's own. */
        for (size_t a = 1; a < nf; a++)
            for (size_t b = a; b > 0 && fx[b - 1] > fx[b]; b--) {
                double t = fx[b]; fx[b] = fx[b - 1]; fx[b - 1] = t;
                t = fy[b]; fy[b] = fy[b - 1]; fy[b - 1] = t;
            }
        s[nc] = (tc_plot_series){.legend = "Pareto front", .x = fx, .y = fy, .n = nf, .kind = TC_PLOT_FRONT};
        rdoc_heading(doc, 2, "Error vs throughput", "pareto");
        if (o->gemm_recs)
            snprintf(cap, sizeof cap, "At K = %d. Library paths only. TFLOP/s: each path's measured GEMM throughput "
                                      "in %s at the recorded shape nearest in log M*N + log K (the summary table names it); "
                                      "error: the model + the path's recorded structure. The dashed line joins the "
                                      "Pareto front (no candidate both faster and more accurate). %s",
                     d->k, o->gemm_from, work);
        else
            snprintf(cap, sizeof cap, "At K = %d. TFLOP/s: the instruction's recorded throughput (%s), not a GEMM "
                                      "at this shape. The dashed line joins the Pareto front (no candidate both "
                                      "faster and more accurate). %s", d->k, *o->bench_from ? o->bench_from : "none",
                     work);
        tc_plot_axes ax = {.title = "Error vs throughput",
                           .xlabel = o->gemm_recs ? "TFLOP/s (measured library GEMM)" : "TFLOP/s (recorded, per instruction)",
                           .ylabel = ylabel, .empty_note = "no candidate has both a throughput figure and an error > 0"};
        rc = plot_block(doc, "pareto", &ax, s, nc + 1, cap, "no throughput figure, or error 0 or undefined", err, len);
    }
    if (!rc) {
        rdoc_heading(doc, 2, "Errors per K", "per-k");
        json_t *head = json_pack("[s]", "candidate");
        for (j = 0; j < nk; j++) {
            char h[64];
            snprintf(h, sizeof h, "K = %lld", (long long)json_integer_value(json_object_get(json_array_get(per_k, j), "k")));
            json_array_append_new(head, json_string(h));
        }
        json_t *rows = rdoc_table_j(doc, head);
        json_array_foreach(main, i, c)
        {
            json_t *row = json_pack("[s]", names[i]);
            for (j = 0; j < nk; j++)
                json_array_append_new(row, rdoc_cell(json_object_get(
                    find_candidate(json_object_get(json_array_get(per_k, j), "choices"), c), "error")));
            json_array_append_new(rows, row);
        }
    }
    free(s), free(x), free(y), free(tf), free(e), free(fx), free(fy), free(names), free(leader), free(same);
    free(legends);
    if (rc) {
        json_decref(doc);
        return NULL;
    }
    return doc;
}

int tc_choose_app_report(const tc_outdir *dir, const json_t *main, const json_t *per_k, const tc_choose_app_opts *o,
                         const app_data *d, const char *device, char *err, size_t len)
{
    json_t *doc = build(main, per_k, o, d, device, err, len);
    if (!doc)
        return -1;
    int rc = rdoc_write_html(dir, "choose.html", doc, err, len);
    json_decref(doc);
    return rc;
}
