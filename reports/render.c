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
             tc_record_header_kind(rec->header),
             json_string_length(json_object_get(rec->header, "gpu"))
                 ? json_string_value(json_object_get(rec->header, "gpu")) : "no GPU",
             json_string_value(json_object_get(rec->header, "backend")));
    rdoc_heading(doc, 1, title, NULL);
    run_facts(doc, rec->header);
    json_t *part = tc_record_objects_of(rec, "sweep");
    int rc = rdoc_sweep_section(doc, rec->header, part, err, len);
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

int rdoc_write_html(const tc_outdir *d, const char *name, const json_t *doc, char *err, size_t len)
{
    doc_ctx c = {doc, name};
    return tc_out_write(d, name, emit_html_file, &c, err, len);
}

size_t tc_report_names(const char *name, char (*names)[TC_OUT_NAME_MAX + 1], size_t max)
{
    size_t n = 0;
    if (n < max)
        snprintf(names[n++], TC_OUT_NAME_MAX + 1, "%s.md", name);
    if (n < max)
        snprintf(names[n++], TC_OUT_NAME_MAX + 1, "%s.html", name);
    for (size_t i = 0; i < rdoc_nplot_stats && n < max; i++)
        snprintf(names[n++], TC_OUT_NAME_MAX + 1, "%s-%s.svg", name, rdoc_plot_stats[i]);
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
