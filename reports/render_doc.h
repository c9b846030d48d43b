/* The neutral report document (internal to reports/): a JSON array of
 * blocks that both the Markdown and the HTML emitters walk.
 *   {"h":LEVEL,"text":..,"id":..}      heading, id optional (an anchor)
 *   {"p":..}                             paragraph
 *   {"table":{"head":[..],"rows":[[..],..]}}   cells: a string, or
 *                                        {"text":..,"href":"#id"} (a link)
 *   {"plot":NAME,"svg":..,"caption":..}  inline SVG figure
 *   {"toc":[[id,text],..]}               contents list of in-page links
 *   {"details":SUMMARY,"blocks":[..]}    a collapsed section
 *   {"figure":SVG,"caption":..}          an inline SVG picture (not a plot; HTML only)
 * Not a public header. */
#ifndef TC_RENDER_DOC_H
#define TC_RENDER_DOC_H

#include <stdio.h>

#include <jansson.h>

#include "reports/reports.h"

void rdoc_heading(json_t *doc, int level, const char *text, const char *id);
void rdoc_para(json_t *doc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A table with the given heading (NULL-terminated); returns its rows array. */
json_t *rdoc_table(json_t *doc, const char *const *head);
/* The same with the heading as a JSON array of strings (reference stolen). */
json_t *rdoc_table_j(json_t *doc, json_t *head);
/* Appends a row of the cells given (references stolen), NULL-terminated. */
void rdoc_row(json_t *rows, json_t *first, ...);
/* A cell from any JSON value: numbers compact, null/absent as a dash,
 * other values as compact JSON cut at 240 bytes. */
json_t *rdoc_cell(const json_t *v);
json_t *rdoc_str(const char *s);
json_t *rdoc_link(const char *text, const char *href);
/* A collapsed section; returns its (borrowed) block array to fill. */
json_t *rdoc_details(json_t *doc, const char *summary);
/* The anchor id of an instruction's section: "i-" then the name with any
 * byte outside [A-Za-z0-9._-] as '-'. */
void rdoc_anchor(const char *name, char *out, size_t len);

/* The audit part of a report: summary, findings, contents, and one section
 * per instruction in catalogue order with its evidence collapsed. */
void rdoc_audit_section(json_t *doc, const json_t *audits);

/* The sweep part (reports/render_sweep.c): a headline table of the error at
 * chosen depths, the plots (rdoc_plot_stats, files NAME-STAT.svg) with
 * captions per format, and a table of steps per sweep. 0, or -1 + err
 * (gnuplot failing). */
int rdoc_sweep_section(json_t *doc, const json_t *header, const json_t *sweeps, char *err, size_t len);
extern const char *const rdoc_plot_stats[];
extern const size_t rdoc_nplot_stats;

/* The emitters (reports/render_emit.c). The Markdown links the plots as
 * NAME-STAT.svg; the HTML is one self-contained page (inline SVG, a
 * viewport for phones, tables that scroll sideways rather than overflow). */
void rdoc_emit_markdown(FILE *f, const json_t *doc, const char *name);
void rdoc_emit_html(FILE *f, const json_t *doc);

/* Writes the document as one HTML page NAME into the output folder. 0 or -1 + err. */
int rdoc_write_html(const tc_outdir *d, const char *name, const json_t *doc, char *err, size_t len);

#endif
