/* The "structure" object of a gemm case (reports/SCHEMA.md "gemm"): the
 * inferred accumulation structure, its summation tree as SVG, the input
 * conversion and the predictions, written from tc_gemm_structure_result
 * (cases/gemm_infer.c finds them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm.h"
#include "reports/record_gemm.h"

json_t *tc_gemm_struct_json(const tc_gemm_struct *s, int k)
{
    (void)k;
    json_t *o = json_object();
    json_object_set_new(o, "chunk", json_integer(s->chunk));
    json_object_set_new(o, "promote", s->promote > 0 ? json_integer(s->promote) : json_null());
    json_object_set_new(o, "splitk", json_integer(s->splitk));
    json_object_set_new(o, "combine", json_string(tc_gemm_combine_name(s->combine)));
    if (s->combine == GEMM_COMBINE_XOR) {   /* the bit each level of the tree pairs slices by */
        json_t *bits = json_array();
        for (int l = 0; (1 << l) < s->splitk && l < TC_GEMM_XOR_LEVELS; l++)
            json_array_append_new(bits, json_integer(s->xor_bits[l]));
        json_object_set_new(o, "xor_bits", bits);
    }
    json_object_set_new(o, "slice_unit", s->slice_unit > 0 ? json_integer(s->slice_unit) : json_null());
    if (s->slice_unit == TC_GEMM_CUTS) {   /* slices as cut: uneven split-K, a stream-K tile's share */
        json_t *cuts = json_array();
        for (int t = 0; t <= s->splitk; t++)
            json_array_append_new(cuts, json_integer(s->cut[t]));
        json_object_set_new(o, "cuts", cuts);
    }
    return o;
}

static json_t *int_list(const int *v, int n, int max)
{
    json_t *a = json_array();
    for (int i = 0; i < n && i < max; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

static json_t *incvt_json(const tc_gemm_incvt_result *v)
{
    if (v->ncand == 1 && v->used == v->cand[0])   /* no choice: nothing was inferred */
        return json_pack("{s:[s],s:b,s:s}", "candidates", tc_gemm_incvt_name(v->cand[0]), "decided", 1, "used",
                         tc_gemm_incvt_name(v->cand[0]));
    if (v->ncand == 1)   /* a conversion no path offers, that the probe's masking products chose (fp8-as-f16) */
        return json_pack("{s:[s,s],s:b,s:s}", "candidates", tc_gemm_incvt_name(v->cand[0]),
                         tc_gemm_incvt_name(v->used), "decided", 1, "used", tc_gemm_incvt_name(v->used));
    json_t *o = json_object(), *list = json_array(), *fit = json_array();
    size_t nfit = 0;
    for (int x = 0; x < v->ncand; x++) {
        json_array_append_new(list, json_pack("{s:s,s:I}", "conversion", tc_gemm_incvt_name(v->cand[x]), "bit_exact",
                                              (json_int_t)v->bit_exact[x]));
        if (v->bit_exact[x] == v->tried)
            json_array_append_new(fit, json_string(tc_gemm_incvt_name(v->cand[x]))), nfit++;
    }
    json_object_set_new(o, "outputs_tried", json_integer((json_int_t)v->tried));
    json_object_set_new(o, "candidates", list);
    json_object_set_new(o, "fit", fit);
    json_object_set_new(o, "decided", json_boolean(nfit == 1));
    json_object_set_new(o, "used", json_string(tc_gemm_incvt_name(v->used)));
    return o;
}

/* The profile's name ("h200"), not the file's path on the machine that ran
 * (a record must not point outside itself): the file name without
 * ".profile"; readers find it under oracle/profiles/. */
static json_t *profile_name(const char *path)
{
    if (!path)
        return json_null();
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(base);
    if (n > 8 && !strcmp(base + n - 8, ".profile"))
        n -= 8;
    return json_stringn(base, n);
}

static json_t *prediction_json(const tc_gemm_structure_result *s, const tc_gemm_path *p, const tc_gemm_case *c)
{
    json_t *miss = json_array();
    for (int e = 0; e < s->nmiss; e++) {
        char gs[16], ps[16];
        snprintf(gs, sizeof gs, "0x%08X", s->miss[e].got);
        snprintf(ps, sizeof ps, "0x%08X", s->miss[e].predicted);
        json_array_append_new(miss, json_pack("{s:i,s:i,s:s,s:s}", "i", s->miss[e].i, "j", s->miss[e].j, "got", gs,
                                              "predicted", ps));
    }
    json_t *pr = json_object();
    json_object_set_new(pr, "model", json_string(s->fma                                ? GEMM_FP32_FMA
                                                 : s->cvt.used == GEMM_IN_FP8_AS_F16 ? GEMM_F16_MMA_SYNC
                                                                                     : p->instr));
    json_object_set_new(pr, "profile", s->fma ? json_null() : profile_name(c->profile));   /* FMA: no model */
    json_object_set_new(pr, "n", json_integer((json_int_t)s->n));
    json_object_set_new(pr, "bit_exact", json_integer((json_int_t)s->bit_exact));
    json_object_set_new(pr, "rate", json_real(s->n ? (double)s->bit_exact / s->n : 0));
    json_object_set_new(pr, "input_conversion", json_string(tc_gemm_incvt_name(s->cvt.used)));
    json_object_set_new(pr, "recorded_outputs_bit_exact", json_integer((json_int_t)s->recorded_bit_exact));
    json_object_set_new(pr, "first_mismatches", miss);
    /* which model computed the predictions, and how many outputs each */
    json_object_set_new(pr, "model_on", json_string(c->model_gpu ? tc_model_gpu_name(c->model_gpu) : "cpu"));
    json_object_set_new(pr, "model_outputs", json_pack("{s:I, s:I}", "gpu", (json_int_t)s->model.gpu, "cpu",
                                                       (json_int_t)s->model.cpu));
    return pr;
}

json_t *tc_gemm_structure_json(const tc_gemm_structure_result *s, const tc_gemm_path *p, const tc_gemm_case *c)
{
    json_t *o = json_object();
    if (s->failed) {
        json_object_set_new(o, "error", json_string(s->error));
        return o;
    }
    const tc_gemm_inferred *r = &s->r;
    json_object_set_new(o, "inferred", tc_gemm_struct_json(&r->s, c->k));
    json_object_set_new(o, "consistent", json_boolean(r->consistent));
    if (p->built.chunk)   /* an own kernel: whether the inference recovered what was built */
        json_object_set_new(o, "matches_construction", json_boolean(s->matches_construction));
    if (!r->consistent)
        json_object_set_new(o, "why", json_string(r->why));
    json_object_set_new(o, "runs", json_integer(r->nruns));
    json_object_set_new(o, "run_starts_first64", int_list(r->run_start, r->nruns, 64));
    json_object_set_new(o, "meet_run0_first64", int_list(r->lca, r->nruns, 64));
    json_object_set_new(o, "masking_outputs", json_integer(r->probes));
    json_object_set_new(o, "library_calls", json_integer(r->calls));
    char *svg = tc_gemm_struct_svg(&r->s, c->k);
    json_object_set_new(o, "tree_svg", json_string(svg));
    free(svg);
    if (s->unpredicted) {
        json_object_set_new(o, "prediction_error", json_string(s->prediction_error));
        return o;
    }
    json_object_set_new(o, "input_conversion", incvt_json(&s->cvt));
    json_object_set_new(o, "prediction", prediction_json(s, p, c));
    json_object_set_new(o, "status", json_string(s->explained ? "explained" : "unexplained"));
    if (s->fit_n) {   /* the structure was fitted to the outputs (cases/gemm_fit.c) */
        json_t *cands = json_array(), *miss = json_array();
        for (int x = 0; x < s->ncand; x++)
            json_array_append_new(cands, json_pack("{s:s,s:I,s:I,s:f}", "structure", s->cand[x].desc, "n",
                                                   (json_int_t)s->cand[x].n, "bit_exact",
                                                   (json_int_t)s->cand[x].bit_exact, "rate",
                                                   s->cand[x].n ? (double)s->cand[x].bit_exact / s->cand[x].n : 0));
        for (int e = 0; e < s->nunexplained; e++) {
            char g[16], q[16];
            snprintf(g, sizeof g, "0x%08X", s->unexplained[e].got);
            snprintf(q, sizeof q, "0x%08X", s->unexplained[e].predicted);
            json_array_append_new(miss, json_pack("{s:i,s:i,s:s,s:s}", "i", s->unexplained[e].i, "j",
                                                  s->unexplained[e].j, "got", g, "predicted", q));
        }
        json_object_set_new(o, "fitted", json_boolean(s->fitted));
        json_object_set_new(o, "fit_outputs", json_integer((json_int_t)s->fit_n));
        json_object_set_new(o, "best_candidates", cands);
        json_object_set_new(o, "unexplained_outputs", miss);
    }
    return o;
}
