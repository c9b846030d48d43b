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


/* --- building the document ----------------------------------------------- */

static void add_heading(json_t *doc, int level, const char *text)
{
    json_array_append_new(doc, json_pack("{s:i, s:s}", "h", level, "text", text));
}

static void add_para(json_t *doc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_para(json_t *doc, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_array_append_new(doc, json_pack("{s:s}", "p", buf));
}

static json_t *new_table(json_t *doc, const char *const *head)
{
    json_t *h = json_array();
    for (; *head; head++)
        json_array_append_new(h, json_string(*head));
    json_t *rows = json_array();
    json_array_append_new(doc, json_pack("{s:{s:o, s:o}}", "table", "head", h, "rows", rows));
    return rows;
}

/* A cell from any JSON value: numbers compact, null as a dash. */
static json_t *cell(const json_t *v)
{
    char buf[64];
    if (!v || json_is_null(v))
        return json_string("—");
    if (json_is_string(v))
        return json_string(json_string_value(v));
    if (json_is_integer(v)) {
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
        return json_string(buf);
    }
    if (json_is_real(v)) {
        snprintf(buf, sizeof buf, "%.4g", json_real_value(v));
        return json_string(buf);
    }
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (s && strlen(s) > 240)
        strcpy(s + 236, " …");
    json_t *c = json_string(s ? s : "?");
    free(s);
    return c;
}

static void add_row(json_t *rows, json_t *first, ...)
{
    json_t *row = json_array();
    va_list ap;
    va_start(ap, first);
    for (json_t *c = first; c; c = va_arg(ap, json_t *))
        json_array_append_new(row, c);
    va_end(ap);
    json_array_append_new(rows, row);
}

static json_t *str(const char *s)
{
    return json_string(s ? s : "—");
}

static void run_facts(json_t *doc, const json_t *h)
{
    static const char *const head[] = {"fact", "value", NULL};
    static const char *const facts[] = {"kind", "backend", "gpu", "driver", "cuda", "clock_mhz", "sm",
                                        "sm_count", "host", "date", "tcscope_version", "seeds", "schema", NULL};
    add_heading(doc, 2, "Run");
    json_t *rows = new_table(doc, head);
    for (const char *const *f = facts; *f; f++)
        add_row(rows, str(*f), cell(json_object_get(h, *f)), NULL);
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
    add_heading(doc, 2, "Chain-length error sweep");
    const json_t *s0 = json_array_get(sweeps, 0);
    add_para(doc,
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
        add_heading(doc, 3, title);
        json_t *rows = new_table(doc, head);
        long long n = json_integer_value(json_object_get(s, "chain"));
        size_t j;
        json_t *st;
        json_array_foreach(json_object_get(s, "steps"), j, st)
        {
            if (!shown_step((long long)j + 1, n))
                continue;
            add_row(rows, cell(json_object_get(st, "step")), cell(json_object_get(st, "median")),
                    cell(json_object_get(st, "p90")), cell(json_object_get(st, "max")),
                    cell(json_object_get(st, "overflow")), cell(json_object_get(st, "nan")),
                    cell(json_object_get(st, "time_s")), NULL);
        }
    }
    return 0;
}

static void audit_section(json_t *doc, const json_t *audits)
{
    if (!json_array_size(audits))
        return;
    add_heading(doc, 2, "Fingerprints");
    static const char *const head[] = {"field", "value", "evidence", NULL};
    size_t i;
    json_t *a;
    json_array_foreach(audits, i, a)
    {
        add_heading(doc, 3, json_string_value(json_object_get(a, "instr")));
        json_t *ver = json_object_get(a, "verification");
        add_para(doc, "Verification: %s — %lld mismatches in %lld elements.",
                 json_is_true(json_object_get(ver, "verified")) ? "verified bit for bit" : "NOT verified",
                 (long long)json_integer_value(json_object_get(ver, "mismatches")),
                 (long long)json_integer_value(json_object_get(ver, "elements")));
        json_t *rows = new_table(doc, head);
        const char *k;
        json_t *v, *ev = json_object_get(a, "evidence");
        json_object_foreach(json_object_get(a, "fingerprint"), k, v)
            add_row(rows, str(k), cell(v), cell(json_object_get(ev, k)), NULL);
        json_t *t = json_object_get(a, "timing");
        if (json_is_object(t))
            add_para(doc, "Timing: latency %.4g cycles, %.4g FMA/clk/SM (%.1f%% of peak), %.4g TFLOP/s.",
                     tc_json_number(json_object_get(t, "latency_cycles")),
                     tc_json_number(json_object_get(t, "throughput_fma_clk_sm")),
                     100 * tc_json_number(json_object_get(t, "fraction_of_peak")),
                     tc_json_number(json_object_get(t, "tflops")));
    }
}

static void bench_section(json_t *doc, const json_t *benches)
{
    if (!json_array_size(benches))
        return;
    add_heading(doc, 2, "Latency and throughput");
    static const char *const head[] = {"instruction", "latency (cycles)", "FMA/clk/SM", "of peak",
                                       "TFLOP/s", "SASS", NULL};
    json_t *rows = new_table(doc, head);
    size_t i;
    json_t *b;
    json_array_foreach(benches, i, b)
    {
        char peak[32] = "—";
        double f = tc_json_number(json_object_get(b, "fraction_of_peak"));
        if (isfinite(f))
            snprintf(peak, sizeof peak, "%.1f%%", 100 * f);
        add_row(rows, cell(json_object_get(b, "instr")), cell(json_object_get(b, "latency_cycles")),
                cell(json_object_get(b, "throughput_fma_clk_sm")), str(peak), cell(json_object_get(b, "tflops")),
                cell(json_object_get(b, "sass")), NULL);
    }
}

static void corpus_section(json_t *doc, const json_t *corpora)
{
    if (!json_array_size(corpora))
        return;
    add_heading(doc, 2, "Fixed corpus output bits");
    static const char *const head[] = {"instruction", "outputs", "hash (FNV-1a 64)", "recorded", NULL};
    json_t *rows = new_table(doc, head);
    size_t i;
    json_t *c;
    json_array_foreach(corpora, i, c)
    {
        char kept[32];
        snprintf(kept, sizeof kept, "%zu", json_array_size(json_object_get(c, "outputs")));
        add_row(rows, cell(json_object_get(c, "instr")), cell(json_object_get(c, "count")),
                cell(json_object_get(c, "hash")), str(kept), NULL);
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
    add_heading(doc, 1, title);
    run_facts(doc, rec->header);
    json_t *part = tc_record_objects_of(rec, "sweep");
    int rc = sweep_section(doc, part, err, len);
    json_decref(part);
    if (rc) {
        json_decref(doc);
        return NULL;
    }
    part = tc_record_objects_of(rec, "audit");
    audit_section(doc, part);
    json_decref(part);
    part = tc_record_objects_of(rec, "bench");
    bench_section(doc, part);
    json_decref(part);
    part = tc_record_objects_of(rec, "corpus");
    corpus_section(doc, part);
    json_decref(part);
    return doc;
}

/* --- emitting ------------------------------------------------------------ */

static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else if (*s == '\n')
            fputc(' ', f);
        else
            fputc(*s, f);
    }
}

static void emit_markdown(FILE *f, const json_t *doc, const char *name)
{
    size_t i;
    json_t *b;
    json_array_foreach(doc, i, b)
    {
        if (json_object_get(b, "h")) {
            for (json_int_t l = json_integer_value(json_object_get(b, "h")); l > 0; l--)
                fputc('#', f);
            fprintf(f, " %s\n\n", json_string_value(json_object_get(b, "text")));
        } else if (json_object_get(b, "p")) {
            fprintf(f, "%s\n\n", json_string_value(json_object_get(b, "p")));
        } else if (json_object_get(b, "plot")) {
            const char *stat = json_string_value(json_object_get(b, "plot"));
            fprintf(f, "![%s relative error vs chain length](%s-%s.svg)\n\n", stat, name, stat);
            const char *cap = json_string_value(json_object_get(b, "caption"));
            if (cap && *cap)
                fprintf(f, "%s\n\n", cap);
        } else {
            json_t *t = json_object_get(b, "table"), *head = json_object_get(t, "head"), *row, *c;
            size_t j, k;
            fputc('|', f);
            json_array_foreach(head, j, c)
            {
                fputc(' ', f);
                md_text(f, json_string_value(c));
                fputs(" |", f);
            }
            fputs("\n|", f);
            json_array_foreach(head, j, c) fputs("---|", f);
            fputc('\n', f);
            json_array_foreach(json_object_get(t, "rows"), j, row)
            {
                fputc('|', f);
                json_array_foreach(row, k, c)
                {
                    fputc(' ', f);
                    md_text(f, json_string_value(c));
                    fputs(" |", f);
                }
                fputc('\n', f);
            }
            fputc('\n', f);
        }
    }
}

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

static void emit_html(FILE *f, const json_t *doc)
{
    const char *title = json_string_value(json_object_get(json_array_get(doc, 0), "text"));
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
    html_text(f, title ? title : "tcscope report");
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222}\n"
          "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
          "th,td{border:1px solid #bbb;padding:0.25em 0.6em;text-align:left;font-size:0.9em}\n"
          "th{background:#eee}\ntd{font-family:monospace}\n"
          "figure{margin:1em 0}\nfigcaption{font-size:0.9em;color:#555}\n"
          "</style></head>\n<body>\n",
          f);
    size_t i;
    json_t *b;
    json_array_foreach(doc, i, b)
    {
        if (json_object_get(b, "h")) {
            json_int_t l = json_integer_value(json_object_get(b, "h"));
            fprintf(f, "<h%d>", (int)l);
            html_text(f, json_string_value(json_object_get(b, "text")));
            fprintf(f, "</h%d>\n", (int)l);
        } else if (json_object_get(b, "p")) {
            fputs("<p>", f);
            html_text(f, json_string_value(json_object_get(b, "p")));
            fputs("</p>\n", f);
        } else if (json_object_get(b, "plot")) {
            fprintf(f, "<figure class=\"plot\" id=\"plot-%s\">\n%s\n", json_string_value(json_object_get(b, "plot")),
                    json_string_value(json_object_get(b, "svg")));
            const char *cap = json_string_value(json_object_get(b, "caption"));
            if (cap && *cap) {
                fputs("<figcaption>", f);
                html_text(f, cap);
                fputs("</figcaption>\n", f);
            }
            fputs("</figure>\n", f);
        } else {
            json_t *t = json_object_get(b, "table"), *row, *c;
            size_t j, k;
            fputs("<table>\n<tr>", f);
            json_array_foreach(json_object_get(t, "head"), j, c)
            {
                fputs("<th>", f);
                html_text(f, json_string_value(c));
                fputs("</th>", f);
            }
            fputs("</tr>\n", f);
            json_array_foreach(json_object_get(t, "rows"), j, row)
            {
                fputs("<tr>", f);
                json_array_foreach(row, k, c)
                {
                    fputs("<td>", f);
                    html_text(f, json_string_value(c));
                    fputs("</td>", f);
                }
                fputs("</tr>\n", f);
            }
            fputs("</table>\n", f);
        }
    }
    fputs("</body></html>\n", f);
}

typedef struct {
    const json_t *doc;
    const char *name;
} doc_ctx;

static int emit_markdown_file(FILE *f, const void *ctx)
{
    const doc_ctx *c = ctx;
    emit_markdown(f, c->doc, c->name);
    return ferror(f) ? -1 : 0;
}

static int emit_html_file(FILE *f, const void *ctx)
{
    const doc_ctx *c = ctx;
    emit_html(f, c->doc);
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
