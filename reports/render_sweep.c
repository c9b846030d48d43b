/* The sweep part of a report: error against chain length per format.
 *
 * Plotted: the median and the 90th percentile of the relative error over
 * all elements and trials. The maximum is in the step tables only: it is set
 * by the one element whose exact value lies nearest zero (cancellation), so
 * it jumps by orders of magnitude between neighbouring steps (H100 f16:
 * 7.1 at step 10, 60 at 11, 1.1e4 at 12) and says more about the worst
 * sample than about the format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/render.h"
#include "reports/render_doc.h"

const char *const rdoc_plot_stats[] = {"median", "p90"};
const size_t rdoc_nplot_stats = sizeof rdoc_plot_stats / sizeof rdoc_plot_stats[0];

/* The depths of the headline table, where a sweep reaches them. */
static const long long headline_steps[] = {1, 10, 100, 1000};

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

static const char *text_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

/* The record's scale word as a reader says it: "none" is "unscaled". */
static const char *scaling(const json_t *s)
{
    const char *w = text_of(s, "scale");
    return strcmp(w, "none") ? w : "unscaled";
}

static void device_of(const json_t *header, char *out, size_t len)
{
    const char *gpu = json_string_value(json_object_get(header, "gpu"));
    snprintf(out, len, "%s (backend %s)", gpu && *gpu ? gpu : "no GPU", text_of(header, "backend"));
}

/* The caption of a plot: device, then per format its distribution, trials,
 * rounding and scaling, and what could not be drawn. */
static void caption_of(const json_t *header, const json_t *sweeps, const json_t *undrawn, char *out, size_t len)
{
    char dev[300];
    device_of(header, dev, sizeof dev);
    size_t o = (size_t)snprintf(out, len, "Device: %s. Per format:", dev);
    size_t i;
    json_t *s;
    json_array_foreach(sweeps, i, s) if (o < len) o += (size_t)snprintf(
        out + o, len - o, "%s %s (%s): %s inputs from %s, %lld trials, %s, %s", i ? ";" : "", text_of(s, "format"),
        text_of(s, "instr"), text_of(s, "dist"), text_of(s, "from"),
        (long long)json_integer_value(json_object_get(s, "trials")), text_of(s, "round"), scaling(s));
    if (o < len)
        o += (size_t)snprintf(out + o, len - o, ".");
    if (json_array_size(undrawn) && o < len) {
        o += (size_t)snprintf(out + o, len - o, " Not drawn (error 0 at every step, no point on log axes):");
        json_array_foreach(undrawn, i, s) if (o < len) o +=
            (size_t)snprintf(out + o, len - o, " %s", json_string_value(s));
    }
}

static int add_plot(json_t *doc, const json_t *header, const json_t *sweeps, const char *stat, char *err, size_t len)
{
    json_t *undrawn = NULL;
    char *svg = tc_plot_sweep_svg(sweeps, stat, &undrawn, err, len);
    if (!svg)
        return -1;
    char caption[4096];
    caption_of(header, sweeps, undrawn, caption, sizeof caption);
    json_array_append_new(doc, json_pack("{s:s, s:s, s:s}", "plot", stat, "svg", svg, "caption", caption));
    free(svg);
    json_decref(undrawn);
    return 0;
}

/* The statistic at a step (steps are stored in order from 1), or absent. */
static const json_t *at_step(const json_t *s, long long step, const char *stat)
{
    const json_t *st = json_array_get(json_object_get(s, "steps"), (size_t)(step - 1));
    return step >= 1 && json_integer_value(json_object_get(st, "step")) == step ? json_object_get(st, stat) : NULL;
}

static void headline(json_t *doc, const json_t *sweeps)
{
    json_t *head = json_pack("[s, s, s, s, s, s]", "format", "instruction", "distribution", "trials", "rounding",
                             "scaling");
    long long depth[sizeof headline_steps / sizeof headline_steps[0]];
    size_t nd = 0, i;
    json_t *s;
    for (size_t d = 0; d < sizeof headline_steps / sizeof headline_steps[0]; d++) {
        bool present = false;
        json_array_foreach(sweeps, i, s) present |= at_step(s, headline_steps[d], "median") != NULL;
        if (!present)
            continue;
        depth[nd++] = headline_steps[d];
        char h[64];
        snprintf(h, sizeof h, "median at step %lld", headline_steps[d]);
        json_array_append_new(head, json_string(h));
    }
    json_t *rows = rdoc_table_j(doc, head);
    json_array_foreach(sweeps, i, s)
    {
        json_t *row = json_pack("[s, s, s, o, s, s]", text_of(s, "format"), text_of(s, "instr"), text_of(s, "dist"),
                                rdoc_cell(json_object_get(s, "trials")), text_of(s, "round"), scaling(s));
        for (size_t d = 0; d < nd; d++)
            json_array_append_new(row, rdoc_cell(at_step(s, depth[d], "median")));
        json_array_append_new(rows, row);
    }
}

int rdoc_sweep_section(json_t *doc, const json_t *header, const json_t *sweeps, char *err, size_t len)
{
    if (!json_array_size(sweeps))
        return 0;
    char dev[300];
    device_of(header, dev, sizeof dev);
    rdoc_heading(doc, 2, "Chain-length error sweep", "sweep");
    rdoc_para(doc,
              "Relative error of each step's output against the exact chain value (MPFR, from the inputs as fed "
              "in), on %s; seed %s. Median over all elements of all trials at steps 1, 10, 100 (where the chain "
              "reaches them); a dash: that step was not run. Error and speed together: the time per step comes "
              "from the measured throughput of the instruction when a bench record was given.",
              dev, text_of(json_array_get(sweeps, 0), "seed"));
    headline(doc, sweeps);
    rdoc_para(doc, "Plots: median and 90th percentile, log axes (a step whose error is exactly 0 has no point). The "
                   "maximum is only in the tables below: it is set by the element whose exact value lies nearest "
                   "zero, so it jumps by orders of magnitude from one step to the next.");
    for (size_t st = 0; st < rdoc_nplot_stats; st++)
        if (add_plot(doc, header, sweeps, rdoc_plot_stats[st], err, len))
            return -1;
    static const char *const head[] = {"step", "median", "p90", "max", "overflow", "NaN", "time/step (s)", NULL};
    size_t i;
    json_t *s;
    json_array_foreach(sweeps, i, s)
    {
        char title[300];
        snprintf(title, sizeof title, "%s via %s (K = %lld; %s, %lld trials, %s)", text_of(s, "format"),
                 text_of(s, "instr"), (long long)json_integer_value(json_object_get(s, "k")), text_of(s, "dist"),
                 (long long)json_integer_value(json_object_get(s, "trials")), scaling(s));
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
