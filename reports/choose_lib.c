/* Library paths as choose candidates (reports/choose_app_internal.h
 * choose_lib). For each path of the gemm records:
 *  - the structure: the record whose K is nearest the user's (log scale;
 *    ties: nearest M*N), with its consistency and prediction rate; a K
 *    outside the path's recorded range is said, and such a candidate is
 *    not ranked (the structure would be extrapolated);
 *  - the throughput: the record of the same GPU and caller nearest in
 *    shape, |log(MN/MN')| + |log(K/K')| (ties: nearest K), its measured
 *    timing.tflops, with the shape printed; none (a probe record has no
 *    timing): "not timed", never another GPU's or caller's speed unless
 *    --allow-transfer, then labelled with where it was measured. Not nearest in M*N*K: a library's speed depends on how
 *    many output tiles fill the GPU (M*N) and on the depth K apart, and
 *    256x256x65536 (few tiles, split-K) is no model of 2048x2048x1024;
 *  - the error: app_eval_lib on the user's data and scaling, with the
 *    instruction model of the GPU the structure was recorded on (the
 *    profile whose [about] device names it: probes/profile_of_device.c);
 *  - a record whose call used no tensor-core step (a probe's
 *    tensor_core_chain false: FP32 FMA chains) is no structure of a
 *    tensor-core path: said, never applied.
 * A structure that was not consistent or predicts under 99.9% of the
 * sampled outputs bit for bit is not trusted: evaluated, labelled, not ranked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/probes.h"
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
    const json_t *no_chain;   /* a case whose call used no tensor-core step (not a structure of this path) */
    bool tput_transferred;    /* tput measured on another GPU or by another caller (--allow-transfer) */
} path_recs;

/* Who recorded a case: a probe record's call id, else tcscope gemm's own call. */
static const char *caller_of(const json_t *r)
{
    const char *c = json_string_value(json_object_get(json_object_get(r, "probe"), "call_id"));
    return c ? c : "tcscope";
}

/* The case was recorded on the GPU and by the caller o asks for (exact:
 * by that very call id, when the caller asked for names several). */
static bool own(const json_t *r, const tc_choose_app_opts *o, const char *exact)
{
    if (exact && strcmp(caller_of(r), exact))
        return false;
    const char *dev = str_of(r, "device"), *gpu = o->gpu ? o->gpu : "";
    bool gpu_ok = *gpu && (strcasestr(dev, gpu) || (*dev && strcasestr(gpu, dev)));
    const char *c = caller_of(r), *want = o->caller ? o->caller : "tcscope";
    return gpu_ok && !strncmp(c, want, strlen(want)) && (strcmp(want, "tcscope") || !strcmp(c, "tcscope"));
}

/* The call behind r used no tensor-core step (a probe found FP32 FMA chains). */
static bool no_chain(const json_t *r)
{
    return json_is_false(json_object_get(json_object_get(r, "probe"), "tensor_core_chain"));
}

/* The records of one path that ran (not skipped, no error); structures and
 * throughputs only from the GPU and caller asked for unless any. */
static path_recs pick(const json_t *recs, const tc_gemm_path *p, const app_data *d, const tc_choose_app_opts *o,
                      bool any, const char *exact)
{
    const char *path = p->name;
    path_recs pr = {NULL, NULL, 0, 0, 0, 0, NULL, NULL, false};
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
        bool mine = any || own(r, o, exact);
        if (mine && isfinite(tf) && tf > 0 && (dt < bt || (dt == bt && dk < bt2)))
            pr.tput = r, bt = dt, bt2 = dk;
        const json_t *in = json_object_get(json_object_get(r, "structure"), "inferred");
        if (!json_is_integer(json_object_get(in, "chunk")) || !mine)
            continue;
        if (p->instr && no_chain(r)) {   /* e.g. FP32 without TF32 recorded under tf32 by an older tcscope */
            pr.no_chain = pr.no_chain ? pr.no_chain : r;
            continue;
        }
        pr.kmin = pr.strc && pr.kmin < k ? pr.kmin : (int)k;
        pr.kmax = pr.strc && pr.kmax > k ? pr.kmax : (int)k;
        if (dk < bs || (dk == bs && dmn < bs2))
            pr.strc = r, bs = dk, bs2 = dmn;
    }
    return pr;
}

const char *choose_record_gpus(const json_t *recs, char *buf, size_t len)
{
    size_t i, at = 0;
    const json_t *r;
    buf[0] = '\0';
    json_array_foreach(recs, i, r)
    {
        const char *dev = str_of(r, "device");
        bool seen = !*dev;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(str_of(json_array_get(recs, j), "device"), dev);
        if (!seen && at < len)
            at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "", dev);
    }
    if (!buf[0])
        snprintf(buf, len, "no named GPU");
    return buf;
}

static const char *strategy_of(const tc_gemm_struct *s, char *buf, size_t len)
{
    char pr[32] = "none", slices[200];
    if (s->promote)
        snprintf(pr, sizeof pr, "%d", s->promote);
    snprintf(buf, len, "chunk %d, promote %s, %s", s->chunk, pr, tc_gemm_slices_text(s, slices, sizeof slices));
    return buf;
}

static json_t *shape_json(const json_t *r)
{
    return json_pack("{s:I, s:I, s:I}", "m", (json_int_t)shape(r, "m"), "n", (json_int_t)shape(r, "n"), "k",
                     (json_int_t)shape(r, "k"));
}

/* The choice object of path p before evaluation: names (the library of
 * the record named) and sources. */
static json_t *base(const tc_gemm_path *p, const json_t *named, const path_recs *pr, const app_data *d,
                    const tc_choose_app_opts *o, app_scaling sc)
{
    char fmt[32], cand[96];
    snprintf(fmt, sizeof fmt, "%s", p->a == p->b ? p->a->name : "");
    if (p->a != p->b)
        snprintf(fmt, sizeof fmt, "%s*%s", p->a->name, p->b->name);
    snprintf(cand, sizeof cand, "%s %s", named ? str_of(named, "library") : "?", p->name);
    json_t *x = json_pack("{s:s, s:n, s:s, s:s, s:s, s:s, s:s, s:s}", "kind", "choice", "rank", "source", "library",
                          "path", p->name, "candidate", cand, "format", fmt, "instr", p->instr ? p->instr : "-",
                          "accumulator", "f32");
    double tf = pr->tput ? num_at(pr->tput, "timing", "tflops") : NAN;
    json_object_set_new(x, "tflops", tc_json_real_or_null(tf));
    char from[600] = "not timed";
    if (pr->tput)
        snprintf(from, sizeof from, "%s: %s at %.0fx%.0fx%.0f (timing.tflops, measured) on %s by %s%s", o->gemm_from,
                 p->name, shape(pr->tput, "m"), shape(pr->tput, "n"), shape(pr->tput, "k"),
                 str_of(pr->tput, "device"), caller_of(pr->tput), pr->tput_transferred ? ", transferred" : "");
    json_object_set_new(x, "tflops_from", json_string(from));
    json_object_set_new(x, "tflops_transferred", json_boolean(pr->tput_transferred));
    if (pr->tput) {
        json_object_set_new(x, "tflops_shape", shape_json(pr->tput));
        json_object_set_new(x, "tflops_gpu", json_string(str_of(pr->tput, "device")));
        json_object_set_new(x, "tflops_caller", json_string(caller_of(pr->tput)));
    }
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
    if (isnan(rate)) {   /* the record predicted nothing: its reason, never a rate */
        const char *no = str_of(st, "prediction_error");
        snprintf(why, len, "structure inferred at K = %d %s, no prediction (%.200s): not trusted, not ranked", k,
                 consistent ? "consistent" : "NOT consistent", *no ? no : "none recorded");
        *trust = why;
    } else if (!consistent || !(rate >= TRUSTED_RATE)) {
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
    char profile[4096], why[400], trust_why[400], sbuf[300];
    const char *gpu = str_of(pr->strc, "device");
    if (!tc_profile_of_device(gpu, profile, sizeof profile)) {   /* the model of the structure's GPU, or none */
        snprintf(why, sizeof why, "no instruction model of %.100s (no profile under oracle/profiles/ names it "
                 "in [about] device): error not evaluated", *gpu ? gpu : "an unnamed GPU");
        (p->kernel ? reference : exclude)(x, why);
        return 0;
    }
    tc_model_gpu_count cnt = {0};
    app_lib_candidate c = {.p = p, .profile = profile, .scaling = sc, .rows = o->rows, .cols = o->cols,
                           .walk = o->model_gpu != NULL, .gpu = o->model_gpu, .count = &cnt};
    if (tc_gemm_struct_read(json_object_get(pr->strc, "structure"), &c.s, &c.incvt, err, len))
        return -1;
    const char *trust;
    json_t *sf = structure_from(pr, d, trust_why, sizeof trust_why, &trust);
    json_object_set_new(sf, "profile", json_string(profile));
    json_object_set_new(x, "structure_from", sf);
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
    json_object_set_new(x, "stages", choose_stages_json(&r));
    if (o->stages_to) {   /* said as it is measured: a run cut short still tells where its time went */
        const app_stages *t = &r.stages;
        fprintf(o->stages_to, "# stages: %s (%zu outputs, K %d): %.2f s: inputs %.2f, model %.2f (GPU kernels %.2f, "
                "copies %.2f, CPU %.2f), references %.2f (%d computed, %d shared), metrics %.2f\n",
                str_of(x, "candidate"), r.outputs, d->k, r.seconds, t->inputs_s, t->model_s, t->model_kernel_s,
                t->model_copy_s, t->model_cpu_s, t->references_s, t->references_computed, t->references_shared,
                t->metrics_s);
        fflush(o->stages_to);
    }
    /* which model computed the path's outputs (the expected answers the error is of), and how many each */
    json_object_set_new(x, "model_on", json_string(o->model_on ? o->model_on : "cpu"));
    json_object_set_new(x, "references_on", json_string(o->references_on ? o->references_on : "cpu"));
    json_object_set_new(x, "model_outputs", json_pack("{s:I, s:I}", "gpu", (json_int_t)cnt.gpu, "cpu",
                                                      (json_int_t)cnt.cpu));
    /* bound met but no speed of this GPU and caller: said as such, not as a missing instruction figure */
    const char *no = choose_exclusion(&r, o, isnan(tf) ? 1.0 : tf, why, sizeof why);
    if (!no && isnan(tf) && !isnan(o->bound)) {
        snprintf(why, sizeof why, "meets %s <= %g, but not timed: no record of %s by %s has its TFLOP/s (a probe "
                 "record carries none): not ranked by speed", o->metric, o->bound, gpu, caller_of(pr->strc));
        json_object_set_new(x, "untimed", json_true());
        no = why;
    }
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

/* Candidate x of path p by caller exact (NULL: every call of o's caller):
 * evaluated or excluded with why. 0, or -1 + err. */
static int one_path(json_t *all, const tc_gemm_path *p, const char *exact, const app_data *d,
                    const tc_choose_app_opts *o, char *err, size_t len)
{
    path_recs pr = pick(o->gemm_recs, p, d, o, false, exact), other = pick(o->gemm_recs, p, d, o, true, NULL);
    if (!pr.tput && other.tput && o->allow_transfer)   /* another GPU's or caller's speed: only when asked, labelled */
        pr.tput = other.tput, pr.tput_transferred = true;
    bool transferred = !pr.strc && other.strc && o->allow_transfer;
    if (transferred)
        pr.strc = other.strc, pr.kmin = other.kmin, pr.kmax = other.kmax;
    app_scaling sc = p->fp8 ? o->scaling : APP_SCALE_NONE;
    const json_t *named = pr.tput     ? pr.tput
                          : pr.strc     ? pr.strc
                          : pr.no_chain ? pr.no_chain
                          : other.tput  ? other.tput
                          : other.strc  ? other.strc
                                        : other.why;
    json_t *x = base(p, named, &pr, d, o, sc);
    json_array_append_new(all, x);
    char why[600];
    if (!other.tput && !other.strc) {   /* in the records, but nothing usable: said, never dropped silently */
        const char *first = json_string_value(json_object_get(other.why, "skipped"));
        first = first ? first : json_string_value(json_object_get(other.why, "error"));
        snprintf(why, sizeof why, "none of its %zu recorded cases has a measured TFLOP/s or an inferred "
                 "structure (%zu skipped or failed%s%.200s%s)", other.cases, other.unusable, first ? ", the first: \"" : "",
                 first ? first : "", first ? "\"" : "");
        exclude(x, why);
        return 0;
    }
    json_object_set_new(x, "transferred", json_boolean(transferred));
    if (transferred || exact) {   /* said wherever the candidate is named */
        char cand[200];
        snprintf(cand, sizeof cand, "%s%s%s%s%s", str_of(x, "candidate"), exact ? " (" : "", exact ? exact : "",
                 exact ? ")" : "", transferred ? " [transferred]" : "");
        json_object_set_new(x, "candidate", json_string(cand));
    }
    if (!pr.strc && pr.no_chain) {
        snprintf(why, sizeof why, "the call %s used no tensor-core step (FP32 FMA chains, probe status %s): no "
                 "structure of this tensor-core path", caller_of(pr.no_chain),
                 str_of(json_object_get(pr.no_chain, "probe"), "status"));
        exclude(x, why);
    } else if (!pr.strc && other.strc && p->instr) {
        snprintf(why, sizeof why, "structure recorded on %s by %s, not on %s by %s: not ranked (--allow-transfer "
                 "ranks it, labelled transferred)", str_of(other.strc, "device"), caller_of(other.strc),
                 o->gpu ? o->gpu : "?", o->caller ? o->caller : "tcscope");
        exclude(x, why);
    } else if (!p->instr || !pr.strc) {
        snprintf(why, sizeof why, "%s: no tensor-core model of this path%s: error not evaluated",
                 p->instr ? "no structure recorded" : "SIMT/emulated FP32",
                 pr.strc ? " (its recorded structure is not one of tensor-core chains the model predicts)"
                         : " and no inferred structure in the records");
        (p->kernel ? reference : exclude)(x, why);
    } else if (sc == APP_SCALE_BLOCK32) {
        (p->kernel ? reference : exclude)(x, "block32: the recorded path takes one scale per tensor, no "
                                             "per-block scales: not evaluated");
    } else if (evaluate(x, p, &pr, d, o, sc, err, len))
        return -1;
    return 0;
}

/* The distinct call ids of o's GPU and caller that recorded a structure of
 * path p, up to max (two calls of one path, fast accumulation or not, are
 * two candidates: a structure is the call's). */
static size_t callers(const tc_gemm_path *p, const tc_choose_app_opts *o, const char **ids, size_t max)
{
    size_t n = 0, i;
    const json_t *r;
    json_array_foreach(o->gemm_recs, i, r)
    {
        if (strcmp(str_of(r, "path"), p->name) || !own(r, o, NULL) ||
            !json_is_integer(json_object_get(json_object_get(json_object_get(r, "structure"), "inferred"), "chunk")))
            continue;
        const char *c = caller_of(r);
        bool seen = false;
        for (size_t j = 0; j < n && !seen; j++)
            seen = !strcmp(ids[j], c);
        if (!seen && n < max)
            ids[n++] = c;
    }
    return n;
}

json_t *choose_lib(const app_data *d, const tc_choose_app_opts *o, char *err, size_t len)
{
    size_t np;
    const tc_gemm_path *paths = tc_gemm_paths(&np);
    json_t *all = json_array();
    for (size_t i = 0; i < np; i++) {
        const tc_gemm_path *p = &paths[i];
        if (!pick(o->gemm_recs, p, d, o, true, NULL).cases)
            continue;   /* not in the records */
        if (o->progress)
            o->progress(o->progress_ctx, i, np, p->name);
        const char *ids[16];
        size_t n = callers(p, o, ids, 16);
        for (size_t c = 0; c < (n > 1 ? n : 1); c++)
            if (one_path(all, p, n > 1 ? ids[c] : NULL, d, o, err, len)) {
                json_decref(all);
                return NULL;
            }
    }
    if (o->progress)
        o->progress(o->progress_ctx, np, np, "");
    return all;
}
