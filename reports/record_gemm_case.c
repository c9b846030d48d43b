/* The object of one gemm case (reports/SCHEMA.md "gemm"), written from
 * what cases/gemm_case.c found (tc_gemm_case_result): the one writer of gemm
 * cases; cases/gemm_replay.c reads the inferred structure back. What the
 * structure and outputs fields mean is said once, in SCHEMA.md ("gemm
 * objects: the meaning of their fields"), not in every object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm.h"
#include "cases/sweep.h"
#include "reports/record_gemm.h"

static json_t *header(const tc_gemm_case_result *r)
{
    const tc_gemm_path *p = r->path;
    const tc_gemm_case *c = &r->c;
    json_t *o = json_object();
    json_object_set_new(o, "library", json_string(r->library));
    json_object_set_new(o, "device", json_string(r->device));
    json_object_set_new(o, "library_version", json_integer(r->library_version));
    json_object_set_new(o, "path", json_string(p->name));
    json_object_set_new(o, "path_note", json_string(p->note));
    json_object_set_new(o, "m", json_integer(c->m));
    json_object_set_new(o, "n", json_integer(c->n));
    json_object_set_new(o, "k", json_integer(c->k));
    json_object_set_new(o, "dist", json_string(sweep_dist_name(c->dist)));
    if (c->dist == SWEEP_LOGUNIFORM)
        json_object_set_new(o, "dist_log_range", json_integer(8));   /* magnitudes 2^u, u in [-8, 8] */
    json_object_set_new(o, "seed", json_integer((json_int_t)c->seed));
    json_object_set_new(o, "original_inputs", json_string("f32"));
    json_object_set_new(o, "uploaded_a", json_string(p->a->name));
    json_object_set_new(o, "uploaded_b", json_string(p->b->name));
    json_object_set_new(o, "rounding_to_upload", json_string(r->saturating ? "rne, saturating" : "rne"));
    if (p->built.chunk)
        json_object_set_new(o, "structure_by_construction", tc_gemm_struct_json(&p->built, c->k));
    return o;
}

static json_t *algo_json(const tc_gemm_algo *g)
{
    static const char *const red[] = {"none", "inplace", "compute_type", "?", "output_type"};
    json_t *o = json_object();
    json_object_set_new(o, "algo_id", json_integer(g->algo_id));
    json_object_set_new(o, "tile_id", json_integer(g->tile_id));
    json_object_set_new(o, "splitk", json_integer(g->splitk));
    json_object_set_new(o, "reduction_scheme", json_string(g->reduction_scheme >= 0 && g->reduction_scheme <= 4
                                                               ? red[g->reduction_scheme] : "?"));
    json_object_set_new(o, "cta_swizzling", json_integer(g->swizzle));
    json_object_set_new(o, "custom_option", json_integer(g->custom_option));
    json_object_set_new(o, "stages_id", json_integer(g->stages_id));
    json_object_set_new(o, "inner_shape_id", json_integer(g->inner_shape_id));
    json_object_set_new(o, "cluster_shape_id", json_integer(g->cluster_shape_id));
    json_object_set_new(o, "emulation_support", g->emulation < 0 ? json_null() : json_boolean(g->emulation));
    json_object_set_new(o, "workspace_bytes", json_integer((json_int_t)g->workspace));
    json_object_set_new(o, "waves", json_real(g->waves));
    return o;
}

static json_t *timing_json(const tc_gemm_case *c, double ms)
{
    json_t *t = json_object();
    json_object_set_new(t, "warmup", json_integer(c->warmup));
    json_object_set_new(t, "reps", json_integer(c->reps));
    json_object_set_new(t, "ms_median", json_real(ms));
    json_object_set_new(t, "tflops", json_real(ms > 0 ? 2.0 * c->m * c->n * c->k / (ms * 1e-3) / 1e12 : 0));
    json_object_set_new(t, "method", json_string("cudaEvent around each launch; median"));
    return t;
}

/* The recorded outputs, positions and bits: with the seed and the
 * distribution (the inputs are drawn again) a CPU replays the prediction. */
static json_t *outputs_json(const tc_gemm_case_result *r)
{
    json_t *o = json_object(), *ia = json_array(), *ja = json_array();
    char *hex = malloc(r->nrec * 8 + 1);
    if (!hex) {
        fprintf(stderr, "tcscope: out of memory\n");
        exit(2);
    }
    hex[0] = '\0';
    for (size_t e = 0; e < r->nrec; e++) {
        json_array_append_new(ia, json_integer(r->ii[e]));
        json_array_append_new(ja, json_integer(r->jj[e]));
        snprintf(hex + e * 8, 9, "%08X", r->got[e]);
    }
    json_object_set_new(o, "n", json_integer((json_int_t)r->nrec));
    json_object_set_new(o, "i", ia);
    json_object_set_new(o, "j", ja);
    json_object_set_new(o, "d_hex", json_string(hex));
    free(hex);
    return o;
}

static json_t *errors_json(const oracle_err_stats *st)
{
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer((json_int_t)st->n));
    json_object_set_new(o, "n_nan", json_integer((json_int_t)st->n_nan));
    json_object_set_new(o, "n_exact", json_integer((json_int_t)st->n_exact));
    json_object_set_new(o, "n_within_half_ulp", json_integer((json_int_t)st->n_half));
    json_object_set_new(o, "n_within_one_ulp", json_integer((json_int_t)st->n_one));
    json_object_set_new(o, "max_ulps", json_real(st->max_ulps));
    json_object_set_new(o, "median_ulps", json_real(st->median_ulps));
    json_object_set_new(o, "mean_ulps", json_real(st->mean_ulps));
    json_object_set_new(o, "max_rel", json_real(st->max_rel));
    json_object_set_new(o, "min_correct_bits", json_real(st->min_bits));
    return o;
}

json_t *tc_gemm_case_json(const tc_gemm_case_result *r)
{
    json_t *rec = header(r);
    if (r->status != 0) {
        json_object_set_new(rec, r->status > 0 ? "skipped" : "error", json_string(r->err));
        return rec;
    }
    if (!r->path->kernel)   /* cuBLASLt's choice; an own kernel has none */
        json_object_set_new(rec, "algo", algo_json(&r->algo));
    if (r->c.reps > 0)
        json_object_set_new(rec, "timing", timing_json(&r->c, r->ms_median));
    json_object_set_new(rec, "samples", json_integer((json_int_t)r->samples));
    json_object_set_new(rec, "outputs", outputs_json(r));
    json_object_set_new(rec, "error_vs_original", errors_json(&r->vs_original));
    json_object_set_new(rec, "error_vs_rounded", errors_json(&r->vs_rounded));
    if (r->c.infer)
        json_object_set_new(rec, "structure", tc_gemm_structure_json(&r->st, r->path, &r->c));
    return rec;
}
