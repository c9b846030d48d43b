/* Library paths as choose candidates (reports/choose_app_internal.h
 * choose_lib). For each path of the gemm records:
 *  - the structure: the record whose K is nearest the user's (log scale;
 *    ties: nearest M*N), with its consistency and prediction rate; a K
 *    outside the path's recorded range is said, and such a candidate is
 *    not ranked (the structure would be extrapolated);
 *  - the throughput: the record nearest in shape, |log(MN/MN')| +
 *    |log(K/K')| (ties: nearest K), its measured timing.tflops, with the
 *    shape printed. Not nearest in M*N*K: a library's speed depends on how
 *    many output tiles fill the GPU (M*N) and on the depth K apart, and
 *    256x256x65536 (few tiles, split-K) is no model of 2048x2048x1024;
 *  - the error: app_eval_lib on the user's data and scaling.
 * A structure that was not consistent or predicts under 99.9% of the
 * sampled outputs bit for bit is not trusted: evaluated, labelled, not ranked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/choose_app_internal.h"

#define TRUSTED_RATE 0.999   /* issue 19: bit-exact for >= 99.9% of sampled outputs */

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static double num_at(const json_t *o, const char *a, const char *b)
{
    return tc_json_number(json_object_get(json_object_get(o, a), b));
}

static double shape(const json_t *r, const char *key)
{
    return tc_json_number(json_object_get(r, key));
}

typedef struct {
    const json_t *tput, *strc;
    int kmin, kmax;
    size_t cases, unusable;   /* the path's recorded cases; those that did not run or have no shape */
    const json_t *why;        /* the first such case */
} path_recs;

/* Who recorded a case: a probe record's call id, else tcscope gemm's own call. */
static const char *caller_of(const json_t *r)
{
    const char *c = json_string_value(json_object_get(json_object_get(r, "probe"), "call_id"));
    return c ? c : "tcscope";
}

/* The case was recorded on the GPU and by the caller o asks for. */
static bool own(const json_t *r, const tc_choose_app_opts *o)
{
    const char *dev = str_of(r, "device"), *gpu = o->gpu ? o->gpu : "";
    bool gpu_ok = *gpu && (strcasestr(dev, gpu) || (*dev && strcasestr(gpu, dev)));
    const char *c = caller_of(r), *want = o->caller ? o->caller : "tcscope";
    return gpu_ok && !strncmp(c, want, strlen(want)) && (strcmp(want, "tcscope") || !strcmp(c, "tcscope"));
}

/* The records of one path that ran (not skipped, no error); structures
 * only from the GPU and caller asked for unless any. */
static path_recs pick(const json_t *recs, const char *path, const app_data *d, const tc_choose_app_opts *o, bool any)
{
    path_recs pr = {NULL, NULL, 0, 0, 0, 0, NULL};
    double lk = log(d->k), lmn = log((double)d->m * d->n), bt = INFINITY, bt2 = INFINITY,
           bs = INFINITY, bs2 = INFINITY;
    size_t i;
    const json_t *r;
    json_array_foreach(recs, i, r)
    {
        if (strcmp(str_of(r, "path"), path))
            continue;
        pr.cases++;
        double k = shape(r, "k"), mn = shape(r, "m") * shape(r, "n"), tf = num_at(r, "timing", "tflops");
        if (json_object_get(r, "skipped") || json_object_get(r, "error") || !(k >= 1 && mn >= 1)) {
            if (!pr.unusable++)
                pr.why = r;
            continue;
        }
        double dk = fabs(log(k) - lk), dmn = fabs(log(mn) - lmn), dt = dmn + dk;
        if (isfinite(tf) && tf > 0 && (dt < bt || (dt == bt && dk < bt2)))
            pr.tput = r, bt = dt, bt2 = dk;
        const json_t *in = json_object_get(json_object_get(r, "structure"), "inferred");
        if (!json_is_integer(json_object_get(in, "chunk")) || (!any && !own(r, o)))
            continue;
        pr.kmin = pr.strc && pr.kmin < k ? pr.kmin : (int)k;
        pr.kmax = pr.strc && pr.kmax > k ? pr.kmax : (int)k;
        if (dk < bs || (dk == bs && dmn < bs2))
            pr.strc = r, bs = dk, bs2 = dmn;
    }
    return pr;
}

static const char *strategy_of(const tc_gemm_struct *s, char *buf, size_t len)
{
    char pr[32] = "none";
    if (s->promote)
        snprintf(pr, sizeof pr, "%d", s->promote);
    char unit[32] = "";
    if (s->slice_unit == TC_GEMM_CUTS)
        snprintf(unit, sizeof unit, " (uneven cuts)");
    else if (s->slice_unit)
        snprintf(unit, sizeof unit, " (cut in %d)", s->slice_unit);
    snprintf(buf, len, "chunk %d, promote %s, split-K %d %s%s", s->chunk, pr, s->splitk,
             tc_gemm_combine_name(s->combine), unit);
    return buf;
}

static json_t *shape_json(const json_t *r)
{
    return json_pack("{s:I, s:I, s:I}", "m", (json_int_t)shape(r, "m"), "n", (json_int_t)shape(r, "n"), "k",
                     (json_int_t)shape(r, "k"));
}

/* The choice object of path p before evaluation: names and sources. */
static json_t *base(const tc_gemm_path *p, const path_recs *pr, const app_data *d, const tc_choose_app_opts *o,
                    app_scaling sc)
{
    char fmt[32], cand[96];
    snprintf(fmt, sizeof fmt, "%s", p->a == p->b ? p->a->name : "");
    if (p->a != p->b)
        snprintf(fmt, sizeof fmt, "%s*%s", p->a->name, p->b->name);
    const json_t *any = pr->tput ? pr->tput : pr->strc ? pr->strc : pr->why;
    snprintf(cand, sizeof cand, "%s %s", any ? str_of(any, "library") : "?", p->name);
    json_t *x = json_pack("{s:s, s:n, s:s, s:s, s:s, s:s, s:s, s:s}", "kind", "choice", "rank", "source", "library",
                          "path", p->name, "candidate", cand, "format", fmt, "instr", p->instr ? p->instr : "-",
                          "accumulator", "f32");
    double tf = pr->tput ? num_at(pr->tput, "timing", "tflops") : NAN;
    json_object_set_new(x, "tflops", tc_json_real_or_null(tf));
    char from[600] = "";
    if (pr->tput)
        snprintf(from, sizeof from, "%s: %s at %.0fx%.0fx%.0f (timing.tflops, measured)", o->gemm_from, p->name,
                 shape(pr->tput, "m"), shape(pr->tput, "n"), shape(pr->tput, "k"));
    json_object_set_new(x, "tflops_from", json_string(from));
    if (pr->tput)
        json_object_set_new(x, "tflops_shape", shape_json(pr->tput));
    json_object_set_new(x, "metric", json_string(o->metric));
    json_object_set_new(x, "workload", choose_workload_json(d, o, sc));
    /* until evaluated (a path without a model is never): no figures */
    json_object_set_new(x, "strategy", json_string("-"));
    json_object_set_new(x, "error", json_null());
    json_object_set_new(x, "error_vs_rounded", json_null());
    json_object_set_new(x, "vs_original", json_object());
    json_object_set_new(x, "vs_rounded", json_object());
    return x;
}

static void exclude(json_t *x, const char *why)
{
    json_object_set_new(x, "excluded", json_true());
    json_object_set_new(x, "reason", json_string(why));
}

/* tcscope's own kernel (p->kernel): a reference beside the libraries, never a
 * candidate (no user calls it); why it would not be ranked is kept. */
static void reference(json_t *x, const char *why)
{
    json_object_set_new(x, "reference", json_true());
    if (why)
        json_object_set_new(x, "reason", json_string(why));
}

/* The structure's provenance; *trust: NULL, or why it is not trusted here. */
static json_t *structure_from(const path_recs *pr, const app_data *d, char *why, size_t len, const char **trust)
{
    const json_t *st = json_object_get(pr->strc, "structure");
    double rate = num_at(st, "prediction", "rate");
    bool consistent = json_is_true(json_object_get(st, "consistent"));
    int k = (int)shape(pr->strc, "k");
    json_t *o = shape_json(pr->strc);
    json_object_set_new(o, "consistent", json_boolean(consistent));
    json_object_set_new(o, "prediction_rate", tc_json_real_or_null(rate));
    json_object_set_new(o, "recorded_k_range", json_pack("[i, i]", pr->kmin, pr->kmax));
    *trust = NULL;
    if (!consistent || !(rate >= TRUSTED_RATE)) {
        snprintf(why, len, "structure inferred at K = %d %s, predicting %.4g of the sampled library outputs bit for "
                 "bit (< %g): not trusted, not ranked", k, consistent ? "consistent" : "NOT consistent", rate,
                 TRUSTED_RATE);
        *trust = why;
    } else if (d->k < pr->kmin || d->k > pr->kmax) {
        snprintf(why, len, "K = %d outside the recorded K range %d..%d of this path: the structure of K = %d is "
                 "applied (an extrapolation), not ranked", d->k, pr->kmin, pr->kmax, k);
        *trust = why;
    }
    json_object_set_new(o, "trusted", json_boolean(!*trust));
    /* where the structure comes from: GPU, library version, caller */
    json_object_set_new(o, "gpu", json_string(str_of(pr->strc, "device")));
    json_object_set_new(o, "library", json_string(str_of(pr->strc, "library")));
    json_object_set_new(o, "library_version", json_integer(json_integer_value(json_object_get(pr->strc, "library_version"))));
    json_object_set_new(o, "caller", json_string(caller_of(pr->strc)));
    return o;
}

static int evaluate(json_t *x, const tc_gemm_path *p, const path_recs *pr, const app_data *d,
                    const tc_choose_app_opts *o, app_scaling sc, char *err, size_t len)
{
    app_lib_candidate c = {.p = p, .profile = o->profile, .scaling = sc, .rows = o->rows, .cols = o->cols};
    if (tc_gemm_struct_read(json_object_get(pr->strc, "structure"), &c.s, &c.incvt, err, len))
        return -1;
    char why[400], trust_why[400], sbuf[96];
    const char *trust;
    json_object_set_new(x, "structure_from", structure_from(pr, d, trust_why, sizeof trust_why, &trust));
    json_object_set_new(x, "strategy", json_string(strategy_of(&c.s, sbuf, sizeof sbuf)));
    json_object_set_new(x, "input_conversion", json_string(tc_gemm_incvt_name(c.incvt)));
    app_result r;
    if (app_eval_lib(d, &c, &r, err, len))
        return -1;
    double tf = tc_json_number(json_object_get(x, "tflops")), e = app_stats_get(&r.vs_orig, o->metric);
    json_object_set_new(x, "error", tc_json_real_or_null(e));
    json_object_set_new(x, "error_vs_rounded", tc_json_real_or_null(app_stats_get(&r.vs_rounded, o->metric)));
    json_object_set_new(x, "vs_original", choose_stats_json(&r.vs_orig));
    json_object_set_new(x, "vs_rounded", choose_stats_json(&r.vs_rounded));
    json_object_set_new(x, "seconds", json_real(r.seconds));
    const char *no = choose_exclusion(&r, o, tf, why, sizeof why);
    if (trust)
        json_object_set_new(x, "structure_note", json_string(trust));
    if (p->kernel)
        reference(x, no ? no : trust);
    else if (no || trust)
        exclude(x, no ? no : trust);
    else
        json_object_set_new(x, "sort_key", json_real(isnan(o->bound) ? e : -tf));
    return 0;
}

json_t *choose_lib(const app_data *d, const tc_choose_app_opts *o, char *err, size_t len)
{
    size_t np;
    const tc_gemm_path *paths = tc_gemm_paths(&np);
    json_t *all = json_array();
    for (size_t i = 0; i < np; i++) {
        const tc_gemm_path *p = &paths[i];
        path_recs pr = pick(o->gemm_recs, p->name, d, o, false), other = pick(o->gemm_recs, p->name, d, o, true);
        if (!other.cases)
            continue;   /* not in the records */
        if (!pr.tput)   /* a probe record has no timing: the speed of the path is taken where it was measured */
            pr.tput = other.tput;
        bool transferred = !pr.strc && other.strc && o->allow_transfer;
        if (transferred)
            pr.strc = other.strc, pr.kmin = other.kmin, pr.kmax = other.kmax;
        app_scaling sc = p->fp8 ? o->scaling : APP_SCALE_NONE;
        json_t *x = base(p, &pr, d, o, sc);
        if (!other.tput && !other.strc) {   /* in the records, but nothing usable: said, never dropped silently */
            char why[400];
            const char *first = json_string_value(json_object_get(other.why, "skipped"));
            first = first ? first : json_string_value(json_object_get(other.why, "error"));
            snprintf(why, sizeof why, "none of its %zu recorded cases has a measured TFLOP/s or an inferred "
                     "structure (%zu skipped or failed%s%.200s%s)", other.cases, other.unusable, first ? ", the first: \"" : "",
                     first ? first : "", first ? "\"" : "");
            exclude(x, why);
            json_array_append_new(all, x);
            continue;
        }
        if (o->progress)
            o->progress(o->progress_ctx, i, np, p->name);
        char why[600];
        json_object_set_new(x, "transferred", json_boolean(transferred));
        if (transferred) {   /* said wherever the candidate is named */
            char named[160];
            snprintf(named, sizeof named, "%s [transferred]", str_of(x, "candidate"));
            json_object_set_new(x, "candidate", json_string(named));
        }
        if (!pr.strc && other.strc && p->instr) {
            snprintf(why, sizeof why, "structure recorded on %s by %s, not on %s by %s: not ranked (--allow-transfer "
                     "ranks it, labelled transferred)", str_of(other.strc, "device"), caller_of(other.strc),
                     o->gpu ? o->gpu : "?", o->caller ? o->caller : "tcscope");
            exclude(x, why);
        } else if (!p->instr || !pr.strc) {
            snprintf(why, sizeof why, "%s: no tensor-core model of this path and no inferred structure in the "
                     "records: error not evaluated", p->instr ? "no structure recorded" : "SIMT/emulated FP32");
            (p->kernel ? reference : exclude)(x, why);
        } else if (sc == APP_SCALE_BLOCK32) {
            (p->kernel ? reference : exclude)(x, "block32: the recorded path takes one scale per tensor, no "
                                                 "per-block scales: not evaluated");
        } else if (evaluate(x, p, &pr, d, o, sc, err, len)) {
            json_decref(x);
            json_decref(all);
            return NULL;
        }
        json_array_append_new(all, x);
    }
    return all;
}
