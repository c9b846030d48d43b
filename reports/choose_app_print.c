/* choose for an application as text (reports/choose_app.h
 * tc_choose_app_print): the workload, the ranking, where each library
 * figure comes from, the instruction chains listed for comparison, and
 * why each excluded candidate is excluded. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/choose_app_internal.h"

static const char *str_of(const json_t *c, const char *key)
{
    const char *s = json_string_value(json_object_get(c, key));
    return s ? s : "";
}

static bool is_lib(const json_t *c)
{
    return !strcmp(str_of(c, "source"), "library");
}

static bool is_ref(const json_t *c)
{
    return json_is_true(json_object_get(c, "reference"));
}

static const char *name_of(const json_t *c)
{
    return is_lib(c) ? str_of(c, "candidate") : str_of(c, "instr");
}

/* An error that says something: finite, at most 1, every output finite. */
static bool usable(const json_t *c)
{
    double e = tc_json_number(json_object_get(c, "error"));
    return e <= 1 && !json_integer_value(json_object_get(json_object_get(c, "vs_original"), "not_finite"));
}

/* Library: the structure; instruction: accumulator and strategy. */
static const char *accumulation(const json_t *c, char *acc, size_t len)
{
    if (is_lib(c))
        snprintf(acc, len, "%s", str_of(c, "strategy"));
    else
        snprintf(acc, len, "%s %s", str_of(c, "accumulator"), str_of(c, "strategy"));
    return acc;
}

static void row(FILE *f, const json_t *c, const char *rank)
{
    char acc[96], tf[32];
    accumulation(c, acc, sizeof acc);
    double t = tc_json_number(json_object_get(c, "tflops"));
    /* no throughput record: "-"; a library path of no record of this GPU and caller: "not timed" */
    snprintf(tf, sizeof tf, !isnan(t) ? "%.1f" : is_lib(c) ? "not timed" : "-", t);
    fprintf(f, "%-4s %-34s %-9s %-38s %9s %11.3g %11.3g%s\n", rank,
            is_lib(c) ? str_of(c, "candidate") : str_of(c, "instr"), str_of(c, "format"), acc, tf,
            tc_json_number(json_object_get(c, "error")), tc_json_number(json_object_get(c, "error_vs_rounded")),
            json_is_true(json_object_get(c, "pareto")) ? "  *" : "");
}

static void head(FILE *f)
{
    fprintf(f, "%-4s %-34s %-9s %-38s %9s %11s %11s\n", "rank", "candidate", "format", "accumulation", "TFLOP/s",
            "error", "vs rounded");
}

static long long int_at(const json_t *o, const char *k)
{
    return (long long)json_integer_value(json_object_get(o, k));
}

/* Where a library candidate's figures come from, on one line. */
static void sources(FILE *f, const json_t *c)
{
    const json_t *sf = json_object_get(c, "structure_from"), *ts = json_object_get(c, "tflops_shape");
    const json_t *range = json_object_get(sf, "recorded_k_range");
    if (ts)
        fprintf(f, "  %-30s TFLOP/s at %lldx%lldx%lld on %s by %s%s", str_of(c, "candidate"), int_at(ts, "m"),
                int_at(ts, "n"), int_at(ts, "k"), str_of(c, "tflops_gpu"), str_of(c, "tflops_caller"),
                json_is_true(json_object_get(c, "tflops_transferred")) ? " (transferred: measured on another GPU or "
                                                                        "by another caller)" : "");
    else
        fprintf(f, "  %-30s TFLOP/s: not timed (no record of this GPU and caller has the path's speed)",
                str_of(c, "candidate"));
    double rate = tc_json_number(json_object_get(sf, "prediction_rate"));
    char rtext[48] = "no prediction";
    if (!isnan(rate))
        snprintf(rtext, sizeof rtext, "prediction rate %.4g", rate);
    const char *prof = str_of(sf, "profile"), *pbase = strrchr(prof, '/');
    if (sf)
        fprintf(f, "; structure of %lldx%lldx%lld (K %lld..%lld recorded), %s, %s, inputs %s, model %s (profile %s)",
                int_at(sf, "m"), int_at(sf, "n"), int_at(sf, "k"), (long long)json_integer_value(json_array_get(range, 0)),
                (long long)json_integer_value(json_array_get(range, 1)),
                json_is_true(json_object_get(sf, "consistent")) ? "consistent" : "NOT consistent", rtext,
                str_of(c, "input_conversion"), str_of(c, "instr"), pbase ? pbase + 1 : *prof ? prof : "none");
    if (sf)   /* where the structure comes from */
        fprintf(f, "; structure from GPU %s, %s version %lld, caller %s%s", str_of(sf, "gpu"), str_of(sf, "library"),
                (long long)json_integer_value(json_object_get(sf, "library_version")), str_of(sf, "caller"),
                json_is_true(json_object_get(c, "transferred")) ? " (transferred: recorded on another GPU or by "
                                                                 "another caller)" : "");
    else if (!strcmp(str_of(c, "instr"), "-"))
        fprintf(f, "; no structure, no model: not evaluated");
    else
        fprintf(f, "; not evaluated (the reason below)");
    fprintf(f, "\n");
}

void tc_choose_app_recommendation(const json_t *choices, const tc_choose_app_opts *o, char *buf, size_t len)
{
    const json_t *first = NULL, *best = NULL, *chain = NULL, *untimed = NULL, *c;
    size_t i;
    json_array_foreach(choices, i, c)
    {
        if (is_ref(c))
            continue;   /* tcscope's own kernels: references, never the answer */
        if (json_integer_value(json_object_get(c, "rank")) == 1)
            first = c;
        if (usable(c) && (!best || tc_json_number(json_object_get(c, "error")) <
                                       tc_json_number(json_object_get(best, "error"))))
            best = c;
        if (json_is_true(json_object_get(c, "comparison")) && !chain)
            chain = c;
        if (json_is_true(json_object_get(c, "untimed")) && (!untimed || tc_json_number(json_object_get(c, "error")) <
                                                                            tc_json_number(json_object_get(untimed, "error"))))
            untimed = c;
    }
    if (isnan(o->bound)) {
        if (best)
            snprintf(buf, len, "Recommended: none yet, because no --max-rel-err was given and ranking by speed alone "
                     "would favour the least accurate; the most accurate is %s (%s error %.3g): give a bound "
                     "(0.01 or 1%%) to rank by speed", name_of(best), o->metric,
                     tc_json_number(json_object_get(best, "error")));
        else
            snprintf(buf, len, "Recommended: none, because no candidate has a usable error (each above 1 or with "
                     "outputs not finite)");
    } else if (first) {
        double tf = tc_json_number(json_object_get(first, "tflops"));
        snprintf(buf, len, "Recommended: %s because it is the fastest %s meeting %s <= %g (%.1f TFLOP/s %s, "
                 "error %.3g)", name_of(first), is_lib(first) ? "library path" : "instruction", o->metric, o->bound,
                 tf, is_lib(first) ? "measured" : "peak", tc_json_number(json_object_get(first, "error")));
    } else if (untimed) {
        snprintf(buf, len, "Recommended: no library path ranked, because those meeting %s <= %g were not timed on "
                 "this GPU by this caller (a probe record has no TFLOP/s); of them %s has the smallest error (%.3g)",
                 o->metric, o->bound, name_of(untimed), tc_json_number(json_object_get(untimed, "error")));
    } else if (chain) {
        snprintf(buf, len, "Recommended: no library path, because none meets %s <= %g; of the instruction chains "
                 "%s does (%s error %.3g), a kernel you would write yourself", o->metric, o->bound, name_of(chain),
                 o->metric, tc_json_number(json_object_get(chain, "error")));
    } else if (best) {
        snprintf(buf, len, "Recommended: none, because no candidate meets %s <= %g; the most accurate, %s, has %.3g",
                 o->metric, o->bound, name_of(best), tc_json_number(json_object_get(best, "error")));
    } else
        snprintf(buf, len, "Recommended: none, because no candidate meets %s <= %g (none has a usable error)",
                 o->metric, o->bound);
}

void tc_choose_app_print(FILE *f, const json_t *choices, const tc_choose_app_opts *o, const app_data *d)
{
    bool lib = o->gemm_recs != NULL;
    fprintf(f, "workload: C = A * B, M = %d, N = %d, K = %d; entries of A and B: %s, seed 0x%llx\n", d->m, d->n,
            d->k, o->dist->desc, (unsigned long long)d->seed);
    fprintf(f, "scaling: %s%s\n", app_scaling_name(o->scaling),
            o->scaling == APP_SCALE_NONE ? "" : " (E8M0 power-of-two scales, FP8 inputs only; wider formats unscaled)");
    fprintf(f, "evaluated: %d sampled outputs (%d rows of A x %d columns of B), each a dot product of length %d\n",
            o->rows * o->cols, o->rows, o->cols, d->k);
    if (lib) {
        char gpus[400], on[64] = "the CPU model";
        if (o->model_gpu)
            snprintf(on, sizeof on, "the GPU model on %s", o->model_on ? o->model_on : "?");
        fprintf(f, "  library paths: model, from the records of %s (%s): each path's recorded accumulation\n"
                   "    structure (nearest recorded K) with the instruction model of the GPU it was recorded on (the\n"
                   "    profile naming that device), inputs rounded as the path uploads them; every evaluated output\n"
                   "    computed by %s\n",
                choose_record_gpus(o->gemm_recs, gpus, sizeof gpus), o->gemm_from,
                on);
    }
    if ((size_t)o->rows * (size_t)o->cols > APP_CHAIN_MAX_OUTPUTS)
        fprintf(f, "  instruction chains: not evaluated at over %d outputs (tile by tile on the backend)\n",
                APP_CHAIN_MAX_OUTPUTS);
    else
        fprintf(f, "  instruction chains: tile by tile on the backend %s (K in chunks of the instruction's k)\n",
                o->backend);
    fprintf(f, "  exact references: %s\n", o->references_on && strcmp(o->references_on, "cpu")
                                              ? "integer exact sums on the GPU model, each rounded once to f64"
                                              : "the MPFR oracle on the CPU");
    fprintf(f, "error: %s relative error vs the exact product of the ORIGINAL inputs (input rounding counted);\n"
               "  'vs rounded' is against the exact product of the inputs as multiplied (the arithmetic alone)\n",
            o->metric);
    if (isnan(o->bound))
        fprintf(f, "no --max-rel-err: ranking by speed needs a bound; listed by error, most accurate first\n");
    else if (lib)
        fprintf(f, "bound: %s <= %g; library paths ranked by their measured GEMM TFLOP/s (%s)\n", o->metric,
                o->bound, o->gemm_from);
    else
        fprintf(f, "bound: %s <= %g; ranked by TFLOP/s (%s)\n", o->metric, o->bound,
                *o->bench_from ? o->bench_from : "no bench record");
    fprintf(f, "\n");
    head(f);
    size_t i;
    json_t *c;
    int shown = 0;
    json_array_foreach(choices, i, c) if (json_is_integer(json_object_get(c, "rank")))
    {
        char r[16];
        snprintf(r, sizeof r, "%lld", (long long)json_integer_value(json_object_get(c, "rank")));
        row(f, c, r);
        shown++;
    }
    if (!shown)
        fprintf(f, lib ? "(no library path meets the constraints%s)\n" : "(no candidate meets the constraints)\n",
                lib ? "; instruction chains that do, if any, are listed below" : "");
    else
        fprintf(f, "* on the error vs throughput Pareto front (no candidate both faster and more accurate)\n");
    bool any = false;
    json_array_foreach(choices, i, c) if (is_lib(c) && (json_object_get(c, "tflops_shape") ||
                                                         json_object_get(c, "structure_from")))
    {
        if (!any)
            fprintf(f, "\nwhere the library figures come from (%s; TFLOP/s: timing.tflops of the same GPU and caller\n"
                       "at the recorded shape nearest in shape (log M*N and log K); error: the structure inferred at the\n"
                       "recorded K nearest yours):\n", o->gemm_from);
        any = true;
        sources(f, c);
        if (json_object_get(c, "structure_note"))
            fprintf(f, "    NOTE: %s\n", str_of(c, "structure_note"));
    }
    any = false;
    json_array_foreach(choices, i, c) if (json_is_true(json_object_get(c, "comparison")))
    {
        if (!any) {
            fprintf(f, "\ninstruction chains meeting the constraints, for comparison (not ranked: TFLOP/s is one\n"
                       "instruction's peak from %s, not a GEMM at your shape):\n",
                    *o->bench_from ? o->bench_from : "no bench record");
            head(f);
        }
        any = true;
        row(f, c, "-");
    }
    any = false;
    json_array_foreach(choices, i, c) if (json_object_get(c, "excluded"))
    {
        if (!any)
            fprintf(f, "\nexcluded:\n");
        any = true;
        char acc[96];
        fprintf(f, "  %-34s %-9s %-38s %s\n", name_of(c), str_of(c, "format"), accumulation(c, acc, sizeof acc),
                str_of(c, "reason"));
    }
    any = false;
    json_array_foreach(choices, i, c) if (is_ref(c))
    {
        if (!any) {
            fprintf(f, "\ntcscope's own kernels, for reference (not a library you call, never recommended):\n");
            head(f);
        }
        any = true;
        if (json_object_get(c, "reason") && isnan(tc_json_number(json_object_get(c, "error"))))
            fprintf(f, "%-4s %-34s %-9s %s\n", "ref", name_of(c), str_of(c, "format"), str_of(c, "reason"));
        else
            row(f, c, "ref");
    }
    char line[600];
    tc_choose_app_recommendation(choices, o, line, sizeof line);
    fprintf(f, "\n%s\n", line);
}
