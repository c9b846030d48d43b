/* Plots through gnuplot: data and script go to a private temporary
 * directory, gnuplot writes SVG, we read it back. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/reports_internal.h"
#include "reports/render.h"


static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* Writes one data file per drawable sweep; returns how many. */
static int write_data(const json_t *sweeps, const char *stat, const char *tmp, json_t *titles,
                      json_t *undrawn)
{
    size_t i;
    json_t *s;
    int nfiles = 0;
    json_array_foreach(sweeps, i, s)
    {
        json_t *steps = json_object_get(s, "steps");
        size_t j;
        json_t *st;
        int points = 0;
        char path[512];
        snprintf(path, sizeof path, "%s/d%d.dat", tmp, nfiles);
        FILE *f = fopen(path, "w");
        if (!f)
            return -1;
        json_array_foreach(steps, j, st)
        {
            double y = tc_json_number(json_object_get(st, stat));
            if (isfinite(y) && y > 0) {
                fprintf(f, "%lld %.17g\n", (long long)json_integer_value(json_object_get(st, "step")), y);
                points++;
            }
        }
        fclose(f);
        const char *fmt = json_string_value(json_object_get(s, "format"));
        if (points == 0) {
            json_array_append_new(undrawn, json_string(fmt ? fmt : "?"));
            continue;
        }
        char title[160];
        snprintf(title, sizeof title, "%s (%s)", fmt ? fmt : "?",
                 json_string_value(json_object_get(s, "instr")));
        json_array_append_new(titles, json_string(title));
        nfiles++;
    }
    return nfiles;
}

/* gnuplot strings are in double quotes; keep titles free of quotes and backslashes. */
static void plot_title(const char *in, char *out, size_t len)
{
    size_t o = 0;
    for (; *in && o + 1 < len; in++)
        out[o++] = (*in == '"' || *in == '\\') ? '\'' : *in;
    out[o] = '\0';
}

char *tc_plot_sweep_svg(const json_t *sweeps, const char *stat, json_t **undrawn_out, char *err, size_t len)
{
    char tmp[] = "/tmp/tcscope-plotXXXXXX";
    if (!mkdtemp(tmp)) {
        rep_set_err(err, len, "cannot create a temporary directory for gnuplot");
        return NULL;
    }
    json_t *titles = json_array(), *undrawn = json_array();
    char *svg = NULL;
    int n = write_data(sweeps, stat, tmp, titles, undrawn);
    char script[600], out[600];
    snprintf(script, sizeof script, "%s/plot.gp", tmp);
    snprintf(out, sizeof out, "%s/plot.svg", tmp);
    FILE *f = n < 0 ? NULL : fopen(script, "w");
    if (!f) {
        rep_set_err(err, len, "cannot write gnuplot files in %s", tmp);
        goto out;
    }
    fprintf(f, "set terminal svg size 900,560 dynamic enhanced font 'sans,12' background rgb 'white'\n"
               "set output '%s'\n"
               "set logscale xy\nset format y '10^{%%L}'\n"
               "set xlabel 'chain length (steps)'\nset ylabel '%s relative error vs exact chain'\n"
               "set key below\nset grid\nset autoscale xfix\nset title 'Error vs chain length: %s'\n",
            out, stat, stat);
    if (n == 0) {
        /* Nothing positive to draw: an honest empty frame says so. */
        fprintf(f, "unset logscale y\nset yrange [0:1]\nset xrange [1:2]\n"
                   "set label 1 'error is 0 at every step for every format' at graph 0.5,0.5 center\n"
                   "plot NaN notitle\n");
    } else {
        fprintf(f, "plot ");
        for (int i = 0; i < n; i++) {
            char t[160];
            plot_title(json_string_value(json_array_get(titles, (size_t)i)), t, sizeof t);
            fprintf(f, "%s'%s/d%d.dat' using 1:2 with linespoints pt 7 ps 0.4 lw 1.5 title \"%s\"",
                    i ? ", \\\n     " : "", tmp, i, t);
        }
        fputc('\n', f);
    }
    fclose(f);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "gnuplot '%s' 2>'%s/gnuplot.err'", script, tmp);
    int st = system(cmd);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char path[640];
        snprintf(path, sizeof path, "%s/gnuplot.err", tmp);
        char *msg = slurp(path);
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
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0) {
        /* a leftover temporary directory is harmless */
    }
    json_decref(titles);
    if (undrawn_out)
        *undrawn_out = undrawn;
    else
        json_decref(undrawn);
    return svg;
}
