/* Markdown and HTML reports from one neutral document.
 *
 * The document is a JSON array of blocks: {"h":LEVEL,"text":..},
 * {"p":..}, {"table":{"head":[..],"rows":[[..],..]}}, {"plot":NAME,
 * "svg":..,"caption":..}. Building it once keeps both reports identical. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/reports_internal.h"
#include "reports/render.h"
#include "reports/render_doc.h"


/* --- building the document ----------------------------------------------- */

static void run_facts(json_t *doc, const json_t *h)
{
    static const char *const head[] = {"fact", "value", NULL};
    static const char *const facts[] = {"kind", "backend", "gpu", "driver", "cuda", "clock_mhz", "sm",
                                        "sm_count", "host", "date", "tcscope_version", "seeds", "schema", NULL};
    rdoc_heading(doc, 2, "Run", NULL);
    json_t *rows = rdoc_table(doc, head);
    for (const char *const *f = facts; *f; f++)
        rdoc_row(rows, rdoc_str(*f), rdoc_cell(json_object_get(h, *f)), NULL);
}

/* Steps shown in the tables: 1, 2, 5, 10, 20, 50, ... and the last. */
static bool shown_step(long long s, long long n)
{
    if (s == n)
        return true;
    for (long long p = 1; p <= s; p *= 10)
        if (s == p || s == 2 * p || s == 5 * p)
            return true;
    return false;
}

/* The plots a report may draw; its files are NAME.md, NAME.html, NAME-STAT.svg. */
static const char *const plot_stats[] = {"median", "p90", "max"};

static int add_plot(json_t *doc, const json_t *sweeps, const char *stat, char *err, size_t len)
{
    json_t *undrawn = NULL;
    char *svg = tc_plot_sweep_svg(sweeps, stat, &undrawn, err, len);
    if (!svg)
        return -1;
    char caption[512] = "";
    if (json_array_size(undrawn)) {
        size_t o = (size_t)snprintf(caption, sizeof caption, "Not drawn (error 0 at every step, no point on log axes):");
        size_t i;
        json_t *u;
        json_array_foreach(undrawn, i, u) if (o < sizeof caption) o +=
            (size_t)snprintf(caption + o, sizeof caption - o, " %s", json_string_value(u));
    }
    json_array_append_new(doc, json_pack("{s:s, s:s, s:s}", "plot", stat, "svg", svg, "caption", caption));
    free(svg);
    json_decref(undrawn);
    return 0;
}

static int sweep_section(json_t *doc, const json_t *sweeps, char *err, size_t len)
{
    if (!json_array_size(sweeps))
        return 0;
    rdoc_heading(doc, 2, "Chain-length error sweep", NULL);
    const json_t *s0 = json_array_get(sweeps, 0);
    rdoc_para(doc,
             "Relative error of each step's output against the exact chain value (MPFR, from the inputs as "
             "fed in), over %lld trials; inputs %s from %s, rounding %s, scaling %s, seed %s. Error and "
             "speed together: the time per step comes from the measured throughput of the instruction "
             "when a bench record was given. Log axes: a step whose error is exactly 0 has no point.",
             (long long)json_integer_value(json_object_get(s0, "trials")),
             json_string_value(json_object_get(s0, "dist")), json_string_value(json_object_get(s0, "from")),
             json_string_value(json_object_get(s0, "round")), json_string_value(json_object_get(s0, "scale")),
             json_string_value(json_object_get(s0, "seed")));
    for (size_t st = 0; st < sizeof plot_stats / sizeof plot_stats[0]; st++)
        if (add_plot(doc, sweeps, plot_stats[st], err, len))
            return -1;
    static const char *const head[] = {"step", "median", "p90", "max", "overflow", "NaN", "time/step (s)", NULL};
    size_t i;
    json_t *s;
    json_array_foreach(sweeps, i, s)
    {
        char title[200];
        snprintf(title, sizeof title, "%s via %s (K = %lld)", json_string_value(json_object_get(s, "format")),
                 json_string_value(json_object_get(s, "instr")), (long long)json_integer_value(json_object_get(s, "k")));
        rdoc_heading(doc, 3, title, NULL);
        json_t *rows = rdoc_table(doc, head);
        long long n = json_integer_value(json_object_get(s, "chain"));
        size_t j;
        json_t *st;
        json_array_foreach(json_object_get(s, "steps"), j, st)
        {
            if (!shown_step((long long)j + 1, n))
                continue;
            rdoc_row(rows, rdoc_cell(json_object_get(st, "step")), rdoc_cell(json_object_get(st, "median")),
                    rdoc_cell(json_object_get(st, "p90")), rdoc_cell(json_object_get(st, "max")),
                    rdoc_cell(json_object_get(st, "overflow")), rdoc_cell(json_object_get(st, "nan")),
                    rdoc_cell(json_object_get(st, "time_s")), NULL);
        }
    }
    return 0;
}

static void bench_section(json_t *doc, const json_t *benches)
{
    if (!json_array_size(benches))
        return;
    rdoc_heading(doc, 2, "Latency and throughput", NULL);
    static const char *const head[] = {"instruction", "latency (cycles)", "FMA/clk/SM", "of peak",
                                       "TFLOP/s", "SASS", NULL};
    json_t *rows = rdoc_table(doc, head);
    size_t i;
    json_t *b;
    json_array_foreach(benches, i, b)
    {
        char peak[32] = "—";
        double f = tc_json_number(json_object_get(b, "fraction_of_peak"));
        if (isfinite(f))
            snprintf(peak, sizeof peak, "%.1f%%", 100 * f);
        rdoc_row(rows, rdoc_cell(json_object_get(b, "instr")), rdoc_cell(json_object_get(b, "latency_cycles")),
                rdoc_cell(json_object_get(b, "throughput_fma_clk_sm")), rdoc_str(peak), rdoc_cell(json_object_get(b, "tflops")),
                rdoc_cell(json_object_get(b, "sass")), NULL);
    }
}

static void corpus_section(json_t *doc, const json_t *corpora)
{
    if (!json_array_size(corpora))
        return;
    rdoc_heading(doc, 2, "Fixed corpus output bits", NULL);
    static const char *const head[] = {"instruction", "outputs", "hash (FNV-1a 64)", "recorded", NULL};
    json_t *rows = rdoc_table(doc, head);
    size_t i;
    json_t *c;
    json_array_foreach(corpora, i, c)
    {
        char kept[32];
        snprintf(kept, sizeof kept, "%zu", json_array_size(json_object_get(c, "outputs")));
        rdoc_row(rows, rdoc_cell(json_object_get(c, "instr")), rdoc_cell(json_object_get(c, "count")),
                rdoc_cell(json_object_get(c, "hash")), rdoc_str(kept), NULL);
    }
}

static json_t *build_document(const tc_record *rec, char *err, size_t len)
{
    json_t *doc = json_array();
    char title[300];
    snprintf(title, sizeof title, "tcscope %s report — %s (%s)",
             json_string_value(json_object_get(rec->header, "kind")),
             json_string_length(json_object_get(rec->header, "gpu"))
                 ? json_string_value(json_object_get(rec->header, "gpu")) : "no GPU",
             json_string_value(json_object_get(rec->header, "backend")));
    rdoc_heading(doc, 1, title, NULL);
    run_facts(doc, rec->header);
    json_t *part = tc_record_objects_of(rec, "sweep");
    int rc = sweep_section(doc, part, err, len);
    json_decref(part);
    if (rc) {
        json_decref(doc);
        return NULL;
    }
    part = tc_record_objects_of(rec, "audit");
    rdoc_audit_section(doc, part);
    json_decref(part);
    part = tc_record_objects_of(rec, "bench");
    bench_section(doc, part);
    json_decref(part);
    part = tc_record_objects_of(rec, "corpus");
    corpus_section(doc, part);
    json_decref(part);
    return doc;
}

typedef struct {
    const json_t *doc;
    const char *name;
} doc_ctx;

static int emit_markdown_file(FILE *f, const void *ctx)
{
    const doc_ctx *c = ctx;
    rdoc_emit_markdown(f, c->doc, c->name);
    return ferror(f) ? -1 : 0;
}

static int emit_html_file(FILE *f, const void *ctx)
{
    const doc_ctx *c = ctx;
    rdoc_emit_html(f, c->doc);
    return ferror(f) ? -1 : 0;
}

size_t tc_report_names(const char *name, char (*names)[TC_OUT_NAME_MAX + 1], size_t max)
{
    size_t n = 0;
    if (n < max)
        snprintf(names[n++], TC_OUT_NAME_MAX + 1, "%s.md", name);
    if (n < max)
        snprintf(names[n++], TC_OUT_NAME_MAX + 1, "%s.html", name);
    for (size_t i = 0; i < sizeof plot_stats / sizeof plot_stats[0] && n < max; i++)
        snprintf(names[n++], TC_OUT_NAME_MAX + 1, "%s-%s.svg", name, plot_stats[i]);
    return n;
}

int tc_report_write(const tc_record *rec, const tc_outdir *d, const char *name, char *err, size_t len)
{
    json_t *doc = build_document(rec, err, len);
    if (!doc)
        return -1;
    char path[TC_OUT_NAME_MAX + 64];
    int rc = 0;
    size_t i;
    json_t *b;
    json_array_foreach(doc, i, b)
    {
        if (!json_object_get(b, "plot") || rc)
            continue;
        snprintf(path, sizeof path, "%s-%s.svg", name, json_string_value(json_object_get(b, "plot")));
        rc = tc_out_write_text(d, path, json_string_value(json_object_get(b, "svg")), err, len);
    }
    snprintf(path, sizeof path, "%s.md", name);
    doc_ctx c = {doc, name};
    if (!rc)
        rc = tc_out_write(d, path, emit_markdown_file, &c, err, len);
    snprintf(path, sizeof path, "%s.html", name);
    if (!rc)
        rc = tc_out_write(d, path, emit_html_file, &c, err, len);
    json_decref(doc);
    return rc;
}
