/* render: human reports of a run record — Markdown and one self-contained
 * HTML page with the plots inlined as SVG (drawn by gnuplot), plus a
 * progress bar for long runs.
 *
 * Both reports are rendered from one neutral document (headings,
 * paragraphs, tables, plots) so they always say the same thing.
 */
#ifndef TC_RENDER_H
#define TC_RENDER_H

#include <stdio.h>

#include "reports/reports.h"

/* Writes NAME.md, NAME.html and the plots NAME-*.svg into the output folder
 * d (reports.h: atomically, never through a link, replacing only with
 * d->force; the Markdown links the plots, the HTML inlines them). Returns 0,
 * or -1 with err (folder not writable, a file kept, gnuplot failing). */
int tc_report_write(const tc_record *rec, const tc_outdir *d, const char *name, char *err, size_t len);
/* The names tc_report_write may write for NAME (at most max; returns how
 * many), so that a run can check and claim them before it starts. */
size_t tc_report_names(const char *name, char (*names)[TC_OUT_NAME_MAX + 1], size_t max);

/* One log-log plot of a sweep statistic ("median", "p90", "max") against
 * the chain step, one line per sweep object. Returns the SVG text (malloc'd,
 * starting at "<svg"), or NULL with err. *undrawn receives a new array of the
 * formats left out because no step has a positive value (error 0 at every
 * step cannot sit on log axes); may be NULL. */
char *tc_plot_sweep_svg(const json_t *sweeps, const char *stat, json_t **undrawn, char *err, size_t len);

/* One series of an XY plot. legend (shown) and name (listed in *undrawn
 * when no point is drawable) come from records: they reach gnuplot as data
 * only. style picks the colour, marker and dash (Okabe-Ito, by position),
 * so one thing keeps its look in every plot of a report. */
typedef enum { TC_PLOT_LINES, TC_PLOT_POINTS, TC_PLOT_FRONT } tc_plot_kind;
typedef struct {
    const char *legend, *name;   /* name NULL: the legend */
    const double *x, *y;
    size_t n;
    size_t style;
    tc_plot_kind kind;           /* FRONT: a black dashed line joining Pareto points, no marker */
} tc_plot_series;
/* The words of a plot: our own (a quote, backslash, backquote or control
 * character is refused). */
typedef struct {
    const char *title, *xlabel, *ylabel;
    const char *empty_note;      /* shown in an empty frame when no series has a point */
    bool x_fit;                  /* x axis exactly the data's range */
} tc_plot_axes;

/* One log-log plot, the one plotter of reports: a point is drawn where x
 * and y are finite and > 0; a series with no such point is left out and
 * named in *undrawn (a new array; may be NULL). Returns the SVG (malloc'd,
 * starting at "<svg"), or NULL + err (gnuplot missing or failing). */
char *tc_plot_xy_svg(const tc_plot_axes *ax, const tc_plot_series *series, size_t n, json_t **undrawn,
                     char *err, size_t len);

/* Progress on stderr (reports/progress.c; the rule: doc/commands.md
 * "Progress"): on a terminal a bar redrawn on one line, the count done of
 * total and the time left; off one, a plain line at most every 30 s once
 * the run has lasted 10 s; nothing under --quiet (TCSCOPE_QUIET). */
typedef struct {
    const char *label;
    size_t total;
    int last_permille;
    int enabled;      /* off, a bar (a terminal), lines (a log) */
    double t0;        /* monotonic seconds at the start */
    double every;     /* seconds between plain lines */
    double next_log;  /* when the next plain line is due */
    int logged;       /* a plain line was written */
} tc_progress;

void tc_progress_start(tc_progress *p, const char *label, size_t total);
void tc_progress_update(tc_progress *p, size_t done);
void tc_progress_end(tc_progress *p);
/* Erases the bar before a result line is printed; the next update draws
 * it again below that line (a line is never printed after the bar). */
void tc_progress_clear(tc_progress *p);

#endif
