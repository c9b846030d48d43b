/* choose for an application (reports/choose_app.h): the candidates, their
 * evaluation, the ranking, and the text that shows the workload behind
 * every figure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/sweep_internal.h"
#include "reports/choose_app_internal.h"
#include "reports/reports_internal.h"
#include "reports/sweep_record.h"

#define PROMOTE_EVERY 128   /* FP32 promotion interval of FP8 accumulation (the K-block of DeepSeek-V3's FP8 GEMM) */

static double num_of(const json_t *c, const char *field)
{
    return tc_json_number(json_object_get(c, field));
}

static double tflops_of(const tc_record *bench, const tc_instr *ins)
{
    const json_t *o = tc_bench_find(bench, ins->name);
    return o ? tc_json_number(json_object_get(o, "tflops")) : NAN;
}

static bool fits(tc_backend *b, const tc_instr *ins)
{
    char why[256];
    return !ins->sparse && (!strcmp(ins->api, "mma") || !strcmp(ins->api, "wgmma")) && ins->a == ins->b &&
           !tc_format_is_int(ins->a) && tc_backend_supports(b, ins, why, sizeof why);
}

/* One instruction per (api, input format, output format): the one with the
 * highest recorded TFLOP/s (the first in catalogue order when none has a
 * figure); the others compute the same dot products with another tile shape. */
static size_t representatives(tc_backend *b, const tc_record *bench, const tc_instr **out, size_t cap)
{
    size_t n = 0, count;
    const tc_instr *cat = tc_catalogue(&count);
    for (size_t i = 0; i < count; i++) {
        const tc_instr *ins = &cat[i];
        if (!fits(b, ins))
            continue;
        size_t j = 0;
        while (j < n && !(!strcmp(out[j]->api, ins->api) && out[j]->a == ins->a && out[j]->d == ins->d))
            j++;
        if (j == n && n < cap)
            out[n++] = ins;
        else if (j < n) {   /* a figure beats none (NaN compares false), a larger one a smaller */
            double t = tflops_of(bench, ins), best = tflops_of(bench, out[j]);
            if (!isnan(t) && (isnan(best) || t > best))
                out[j] = ins;
        }
    }
    return n;
}

static const char *strategy_name(int promote, char *buf, size_t len)
{
    if (!promote)
        return "chained";
    snprintf(buf, len, "fp32-promote-%d", promote);
    return buf;
}

static int by_key(const void *a, const void *b)
{
    double x = tc_json_number(json_object_get(*(json_t *const *)a, "sort_key"));
    double y = tc_json_number(json_object_get(*(json_t *const *)b, "sort_key"));
    return (x > y) - (x < y);
}

/* Ranked first (rank 1..), in order of sort_key, then the rest in input order. */
static json_t *order(json_t *all)
{
    size_t n = json_array_size(all), nr = 0;
    json_t **v = calloc(n ? n : 1, sizeof *v), *out = json_array();
    for (size_t i = 0; i < n; i++)
        if (json_object_get(json_array_get(all, i), "sort_key"))
            v[nr++] = json_array_get(all, i);
    qsort(v, nr, sizeof *v, by_key);
    for (size_t i = 0; i < nr; i++) {
        json_object_set_new(v[i], "rank", json_integer((json_int_t)i + 1));
        json_object_del(v[i], "sort_key");
        json_array_append(out, v[i]);
    }
    for (size_t i = 0; i < n; i++) {
        json_t *c = json_array_get(all, i);
        if (!json_is_integer(json_object_get(c, "rank")))
            json_array_append(out, c);
    }
    free(v);
    json_decref(all);
    return out;
}

/* Error vs throughput: a candidate with a figure, an error <= 1, every
 * output finite, that may be ranked (not an instruction listed for
 * comparison, not an untrusted library structure) is on the Pareto front unless another such one is at least
 * as fast and at least as accurate, and better in one (bound or not: the
 * front shows the trade). */
static void mark_pareto(json_t *all)
{
    size_t n = json_array_size(all), i;
    double *t = calloc(n + 1, sizeof *t), *e = calloc(n + 1, sizeof *e);
    bool *front = calloc(n + 1, sizeof *front);
    json_t *c;
    if (t && e && front) {
        json_array_foreach(all, i, c)
        {
            t[i] = num_of(c, "tflops");
            e[i] = num_of(c, "error");
            if (!(e[i] <= 1) || json_integer_value(json_object_get(json_object_get(c, "vs_original"), "not_finite")) ||
                json_is_true(json_object_get(c, "comparison")) || json_object_get(c, "structure_note") ||
                json_is_true(json_object_get(c, "reference")))
                e[i] = NAN;   /* not a candidate for the front */
        }
        rep_pareto_front(t, e, n, front);
        json_array_foreach(all, i, c) if (isfinite(t[i]) && isfinite(e[i]))
            json_object_set_new(c, "pareto", json_boolean(front[i]));
    }
    free(t), free(e), free(front);
}

json_t *tc_choose_app(tc_backend *b, const app_data *d, const tc_record *bench, const tc_choose_app_opts *o,
                      char *err, size_t len)
{
    const tc_instr *reps[64];
    size_t nrep = representatives(b, bench, reps, 64);
    app_candidate cands[128];
    size_t nc = 0;
    for (size_t i = 0; i < nrep; i++) {
        const tc_instr *ins = reps[i];
        bool fp8 = sweep_is_fp8(ins->a);
        app_scaling sc = fp8 ? o->scaling : APP_SCALE_NONE;
        app_candidate c = {.ins = ins, .scaling = sc, .rows = o->rows, .cols = o->cols};
        if (sc == APP_SCALE_BLOCK32) {   /* each block has its own scales: partial sums meet in FP32 */
            c.promote = APP_BLOCK;
            cands[nc++] = c;
            continue;
        }
        cands[nc++] = c;
        if (fp8 && ins->d == &tc_f32) {
            c.promote = PROMOTE_EVERY;
            cands[nc++] = c;
        }
    }
    json_t *all = json_array();
    if ((size_t)o->rows * (size_t)o->cols > APP_CHAIN_MAX_OUTPUTS)
        nc = 0;   /* tile by tile on the backend at this many outputs: not evaluated (the text says so) */
    for (size_t i = 0; i < nc; i++) {
        const app_candidate *c = &cands[i];
        char sbuf[32];
        if (o->progress)
            o->progress(o->progress_ctx, i, nc, c->ins->name);
        app_result r;
        if (app_eval(b, d, c, &r, err, len)) {
            json_decref(all);
            return NULL;
        }
        double tf = tflops_of(bench, c->ins), e = app_stats_get(&r.vs_orig, o->metric);
        json_t *x = json_pack("{s:s, s:n, s:s, s:s, s:s, s:s}", "kind", "choice", "rank", "format", c->ins->a->name,
                              "instr", c->ins->name, "accumulator", c->ins->d->name, "strategy",
                              strategy_name(c->promote, sbuf, sizeof sbuf));
        json_object_set_new(x, "source", json_string("instruction"));
        json_object_set_new(x, "tflops", tc_json_real_or_null(tf));
        json_object_set_new(x, "tflops_from", json_string(isnan(tf) ? "" : o->bench_from));
        json_object_set_new(x, "metric", json_string(o->metric));
        json_object_set_new(x, "error", tc_json_real_or_null(e));
        json_object_set_new(x, "error_vs_rounded", tc_json_real_or_null(app_stats_get(&r.vs_rounded, o->metric)));
        json_object_set_new(x, "vs_original", choose_stats_json(&r.vs_orig));
        json_object_set_new(x, "vs_rounded", choose_stats_json(&r.vs_rounded));
        json_object_set_new(x, "workload", choose_workload_json(d, o, c->scaling));
        json_object_set_new(x, "seconds", json_real(r.seconds));
    json_object_set_new(x, "stages", choose_stages_json(&r));
        char why[300];
        const char *no = choose_exclusion(&r, o, tf, why, sizeof why);
        if (no) {
            json_object_set_new(x, "excluded", json_true());
            json_object_set_new(x, "reason", json_string(no));
        } else if (!isnan(o->bound))
            json_object_set_new(x, "sort_key", json_real(-tf));   /* fastest first */
        else
            json_object_set_new(x, "sort_key", json_real(e));     /* no bound: most accurate first */
        if (o->gemm_recs && !no) {   /* the ranking is the library paths': a peak is not a GEMM's speed */
            json_object_del(x, "sort_key");
            json_object_set_new(x, "comparison", json_true());
        }
        json_array_append_new(all, x);
    }
    if (o->progress)
        o->progress(o->progress_ctx, nc, nc, "");
    if (o->gemm_recs) {
        json_t *lib = choose_lib(d, o, err, len);
        if (!lib) {
            json_decref(all);
            return NULL;
        }
        json_array_extend(all, lib);
        json_decref(lib);
    }
    mark_pareto(all);
    return order(all);
}
