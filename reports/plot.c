/* Plots through gnuplot: data and script go to a private temporary
 * directory, gnuplot writes SVG, we read it back.
 *
 * Nothing from a record reaches gnuplot's command language: a record's text
 * (format and instruction names, the legend) goes into the data files as a
 * column header that the script names with `title columnheader(2)
 * noenhanced`, where gnuplot reads it as text (no backquote substitution, no
 * `system`, no enhanced-text markup). The script itself holds only our own
 * words, the statistic's name (one of a fixed list) and the mkdtemp path.
 * gnuplot is started with posix_spawnp, no shell. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/reports_internal.h"
#include "reports/render.h"

extern char **environ;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf) {
        size_t got = fread(buf, 1, (size_t)n, f);
        buf[got] = '\0';
    }
    fclose(f);
    return buf;
}

/* A legend for a data file's header: between double quotes there, so a
 * quote would end it early; control characters and backquotes are not
 * wanted in a legend either. */
static void legend_text(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (; *in && o + 1 < len; in++) {
        unsigned char c = (unsigned char)*in;
        out[o++] = c < 0x20 || c == 0x7F || c == '"' || c == '\\' || c == '`' ? '?' : (char)c;
    }
    out[o] = '\0';
}

/* Writes one data file per series with a drawable point (x and y finite
 * and > 0: log axes), its legend as the header; returns how many, -1 on a
 * write error. *made: the files created; which[f]: the series of file f. */
static int write_data(const tc_plot_series *series, size_t n, const char *tmp, json_t *undrawn, int *made,
                      size_t *which)
{
    int nfiles = 0;
    *made = 0;
    for (size_t i = 0; i < n; i++) {
        const tc_plot_series *s = &series[i];
        size_t points = 0;
        for (size_t j = 0; j < s->n; j++)
            points += isfinite(s->x[j]) && s->x[j] > 0 && isfinite(s->y[j]) && s->y[j] > 0;
        if (points == 0) {
            if (s->kind != TC_PLOT_FRONT)
                json_array_append_new(undrawn, json_string(s->name ? s->name : s->legend ? s->legend : "?"));
            continue;
        }
        char path[512], legend[200];
        snprintf(path, sizeof path, "%s/d%d.dat", tmp, nfiles);
        FILE *f = fopen(path, "wx");
        if (!f)
            return -1;
        ++*made;
        legend_text(s->legend ? s->legend : "?", legend, sizeof legend);
        fprintf(f, "x \"%s\"\n", legend);
        for (size_t j = 0; j < s->n; j++)
            if (isfinite(s->x[j]) && s->x[j] > 0 && isfinite(s->y[j]) && s->y[j] > 0)
                fprintf(f, "%.17g %.17g\n", s->x[j], s->y[j]);
        if (fclose(f) != 0)
            return -1;
        which[nfiles++] = i;
    }
    return nfiles;
}

/* gnuplot SCRIPT with its stderr in ERRFILE, no shell between. */
static int run_gnuplot(const char *script, const char *errfile)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0)
        return -1;
    posix_spawn_file_actions_addopen(&fa, 2, errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char *argv[] = {"gnuplot", (char *)script, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* The files this code made in tmp, then tmp itself (no shell, no rm -rf). */
static void remove_tmp(const char *tmp, int ndata)
{
    static const char *const names[] = {"plot.gp", "plot.svg", "gnuplot.err"};
    char path[600];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmp, names[i]);
        unlink(path);
    }
    for (int i = 0; i < ndata; i++) {
        snprintf(path, sizeof path, "%s/d%d.dat", tmp, i);
        unlink(path);
    }
    rmdir(tmp); /* a leftover temporary directory is harmless */
}

/* Series styles by the sweep's position in the record, so that a format
 * keeps its look in every plot of a report: the Okabe-Ito colours (told
 * apart also with the common colour-vision deficiencies; its yellow, too
 * light on white, left out) and, for print in grey, a marker and a dash
 * pattern each. Colour and marker cycle with different periods (8, 15),
 * so the first 120 series differ in the pair. */
static const char *const series_colour[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                            "#E69F00", "#56B4E9", "#000000", "#999999"};
static const int series_marker[] = {7, 5, 9, 13, 6, 4, 8, 12, 11, 10, 15, 14, 1, 2, 3};
static const int series_dash[] = {1, 1, 1, 1, 2, 2, 2, 2};
#define NCOLOUR (sizeof series_colour / sizeof series_colour[0])
#define NMARKER (sizeof series_marker / sizeof series_marker[0])

static bool known_stat(const char *stat)
{
    static const char *const ok[] = {"median", "p90", "max", "local_median", "local_p90", "local_max"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(stat, ok[i]))
            return true;
    return false;
}

/* Axis words go into the script between single quotes: our own words only,
 * and checked so that a mistake cannot end the string early. */
static bool script_word_ok(const char *s)
{
    for (; s && *s; s++)
        if (*s == '\'' || *s == '\\' || *s == '`' || (unsigned char)*s < 0x20)
            return false;
    return true;
}

char *tc_plot_xy_svg(const tc_plot_axes *ax, const tc_plot_series *series, size_t n, json_t **undrawn_out,
                     char *err, size_t len)
{
    if (!script_word_ok(ax->title) || !script_word_ok(ax->xlabel) || !script_word_ok(ax->ylabel) ||
        !script_word_ok(ax->empty_note)) {
        rep_set_err(err, len, "a plot label holds a quote, backslash, backquote or control character");
        return NULL;
    }
    char tmp[] = "/tmp/tcscope-plotXXXXXX";
    if (!mkdtemp(tmp)) {
        rep_set_err(err, len, "cannot create a temporary directory for gnuplot");
        return NULL;
    }
    json_t *undrawn = json_array();
    char *svg = NULL;
    size_t *which = calloc(n + 1, sizeof *which);
    int made = 0, nd = which ? write_data(series, n, tmp, undrawn, &made, which) : -1;
    char script[600], out[600], errfile[600];
    snprintf(script, sizeof script, "%s/plot.gp", tmp);
    snprintf(out, sizeof out, "%s/plot.svg", tmp);
    snprintf(errfile, sizeof errfile, "%s/gnuplot.err", tmp);
    FILE *f = nd < 0 ? NULL : fopen(script, "wx");
    if (!f) {
        rep_set_err(err, len, "cannot write gnuplot files in %s", tmp);
        goto out;
    }
    /* Long legends stand one per row below the plot: the picture grows
     * with them, so that the plot area keeps its height. */
    size_t longest = 0;
    for (int i = 0; i < nd; i++)
        if (series[which[i]].legend && strlen(series[which[i]].legend) > longest)
            longest = strlen(series[which[i]].legend);
    int height = longest > 50 ? 440 + 20 * nd : 560;
    fprintf(f, "set terminal svg size 900,%d dynamic enhanced font 'sans,12' background rgb 'white'\n"
               "set output '%s'\n"
               "set logscale xy\nset format y '10^{%%L}'\n"
               "set xlabel '%s' noenhanced\nset ylabel '%s' noenhanced\n"
               "set key below\nset grid\n%sset title '%s' noenhanced\n",
            height, out, ax->xlabel ? ax->xlabel : "", ax->ylabel ? ax->ylabel : "", ax->x_fit ? "set autoscale xfix\n" : "",
            ax->title ? ax->title : "");
    if (nd == 0) {
        /* Nothing positive to draw: an honest empty frame says so. */
        fprintf(f, "unset logscale y\nset yrange [0:1]\nset xrange [1:2]\n"
                   "set label 1 '%s' at graph 0.5,0.5 center noenhanced\n"
                   "plot NaN notitle\n",
                ax->empty_note ? ax->empty_note : "no point to draw");
    } else {
        fprintf(f, "plot ");
        for (int i = 0; i < nd; i++) {
            const tc_plot_series *s = &series[which[i]];
            size_t st = s->style % NCOLOUR, mk = s->style % NMARKER;
            const char *sep = i ? ", \\\n     " : "";
            if (s->kind == TC_PLOT_FRONT) /* a black dashed line under the points it joins */
                fprintf(f, "%s'%s/d%d.dat' using 1:2 with lines lc rgb '#000000' lw 1.2 dt 3 "
                           "title columnheader(2) noenhanced",
                        sep, tmp, i);
            else
                fprintf(f,
                        "%s'%s/d%d.dat' using 1:2 with %s lc rgb '%s' pt %d ps %s lw 1.8 dt %d "
                        "title columnheader(2) noenhanced",
                        sep, tmp, i, s->kind == TC_PLOT_POINTS ? "points" : "linespoints", series_colour[st],
                        series_marker[mk], s->kind == TC_PLOT_POINTS ? "1.6" : "0.7", series_dash[st]);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0 || run_gnuplot(script, errfile) != 0) {
        char *msg = slurp(errfile);
        if (msg && strchr(msg, '\n'))
            *strchr(msg, '\n') = '\0';
        rep_set_err(err, len, "gnuplot failed%s%s (is gnuplot-nox installed?)", msg && *msg ? ": " : "",
                    msg ? msg : "");
        free(msg);
        goto out;
    }
    char *text = slurp(out);
    char *start = text ? strstr(text, "<svg") : NULL;
    if (!start) {
        rep_set_err(err, len, "gnuplot wrote no SVG");
        free(text);
        goto out;
    }
    svg = strdup(start);
    free(text);
out:
    free(which);
    remove_tmp(tmp, made);
    if (undrawn_out)
        *undrawn_out = undrawn;
    else
        json_decref(undrawn);
    return svg;
}

char *tc_plot_sweep_svg(const json_t *sweeps, const char *stat, json_t **undrawn_out, char *err, size_t len)
{
    if (!stat || !known_stat(stat)) { /* it is written into the script: a fixed list only */
        rep_set_err(err, len, "no plot of the statistic '%s'", stat ? stat : "(none)");
        return NULL;
    }
    size_t n = json_array_size(sweeps), total = 0, i;
    json_t *s;
    json_array_foreach(sweeps, i, s) total += json_array_size(json_object_get(s, "steps"));
    tc_plot_series *series = calloc(n + 1, sizeof *series);
    double *xy = calloc(2 * total + 1, sizeof *xy);
    char (*legends)[200] = calloc(n + 1, sizeof *legends);
    if (!series || !xy || !legends) {
        free(series), free(xy), free(legends);
        rep_set_err(err, len, "out of memory");
        return NULL;
    }
    size_t used = 0;
    json_array_foreach(sweeps, i, s)
    {
        const char *fmt = json_string_value(json_object_get(s, "format"));
        const char *instr = json_string_value(json_object_get(s, "instr"));
        snprintf(legends[i], sizeof legends[i], "%s (%s)", fmt ? fmt : "?", instr ? instr : "?");
        tc_plot_series *p = &series[i];
        *p = (tc_plot_series){.legend = legends[i], .name = fmt ? fmt : "?", .x = xy + used,
                              .y = xy + total + used, .style = i, .kind = TC_PLOT_LINES};
        size_t j;
        json_t *st;
        json_array_foreach(json_object_get(s, "steps"), j, st)
        {
            xy[used] = (double)json_integer_value(json_object_get(st, "step"));
            xy[total + used++] = tc_json_number(json_object_get(st, stat));
            p->n++;
        }
    }
    char title[100], ylabel[100];
    snprintf(title, sizeof title, "Error vs chain length: %s", stat);
    snprintf(ylabel, sizeof ylabel, "%s relative error vs exact chain", stat);
    tc_plot_axes ax = {.title = title, .xlabel = "chain length (steps)", .ylabel = ylabel,
                       .empty_note = "error is 0 at every step for every format", .x_fit = true};
    char *svg = tc_plot_xy_svg(&ax, series, n, undrawn_out, err, len);
    free(series), free(xy), free(legends);
    return svg;
}
