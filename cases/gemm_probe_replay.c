/* A probe record's gemm object replayed on the CPU (tc_gemm_replay hands
 * over the objects with a "probe" member): the verify inputs made again
 * from the export's design, each recorded output predicted with the
 * structure of its output block's class (on the instruction model, or as
 * FP32 FMA chains where the probe saw no tensor-core step), rounded to the output format
 * the D's showed, and counted. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "cases/probe.h"

static int bad(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "probe record: %s", what);
    return -1;
}

int gemm_probe_replay(const json_t *rec, const char *profile_path, size_t nout, const int *ii, const int *jj,
                      const uint32_t *got, size_t *bit_exact, uint32_t *predicted, char *err, size_t errlen)
{
    const json_t *pr = json_object_get(rec, "probe");
    const char *fmt = json_string_value(json_object_get(pr, "export_format"));
    const char *outname = json_string_value(json_object_get(pr, "output_format"));
    const json_t *classes = json_object_get(pr, "classes"), *blocks = json_object_get(pr, "block_class");
    tc_probe_design d;
    tc_format scratch;
    const tc_format *out = outname ? tc_format_by_name(outname, &scratch) : NULL;
    if (!fmt || !out || !json_is_array(classes) || !json_is_array(blocks) || json_array_size(classes) == 0)
        return bad(err, errlen, "needs export_format, output_format, classes and block_class");
    const json_t *chain = json_object_get(pr, "tensor_core_chain");
    if (!json_is_boolean(chain))
        return bad(err, errlen, "needs tensor_core_chain (true or false)");
    bool fma = json_is_false(chain);   /* no tensor-core step: FP32 FMA chains, no instruction model */
    if (tc_probe_design_make((int)json_integer_value(json_object_get(rec, "m")),
                             (int)json_integer_value(json_object_get(rec, "n")),
                             (int)json_integer_value(json_object_get(rec, "k")), fmt,
                             (uint64_t)json_integer_value(json_object_get(rec, "seed")), &d, err, errlen))
        return -1;
    int nbm = (d.m + d.runs_r - 1) / d.runs_r, nbn = (d.n + d.runs_c - 1) / d.runs_c, nc = (int)json_array_size(classes);
    if (json_array_size(blocks) != (size_t)nbm * nbn)
        return bad(err, errlen, "block_class does not cover the output blocks");
    tc_gemm_struct *s = gemm_alloc((size_t)nc, sizeof *s);
    const char *cvs = json_string_value(json_object_get(json_object_get(json_object_get(rec, "structure"),
                                                                        "input_conversion"), "used"));
    tc_gemm_incvt cv = GEMM_IN_AS_UPLOADED;
    int rc = cvs && !tc_gemm_incvt_parse(cvs, &cv) ? bad(err, errlen, "an unknown input conversion") : 0;
    for (int c = 0; c < nc && !rc; c++) {   /* each class's structure, read as a case's */
        json_t *wrap = json_pack("{s:O}", "inferred", json_object_get(json_array_get(classes, (size_t)c), "structure"));
        tc_gemm_incvt ignored;
        rc = wrap ? tc_gemm_struct_read(wrap, &s[c], &ignored, err, errlen) : bad(err, errlen, "a class without structure");
        json_decref(wrap);
        if (!rc && s[c].slice_unit == TC_GEMM_CUTS && s[c].cut[s[c].splitk] != d.k)
            rc = bad(err, errlen, "\"cuts\" must end at k");
    }
    uint32_t *A = NULL, *B = NULL, *pred = NULL;
    if (rc)
        goto out;
    A = gemm_alloc((size_t)d.m * d.k, sizeof *A), B = gemm_alloc((size_t)d.k * d.n, sizeof *B);
    tc_probe_inputs(&d, PROBE_VERIFY, A, B);
    pred = gemm_alloc(nout, sizeof *pred);
    int *ci = gemm_alloc(nout, sizeof *ci), *cj = gemm_alloc(nout, sizeof *cj);
    size_t *at = gemm_alloc(nout, sizeof *at);
    *bit_exact = 0;
    for (int c = 0; c < nc && !rc; c++) {   /* the outputs of each class at once */
        size_t m = 0;
        for (size_t e = 0; e < nout; e++) {
            json_int_t b = json_integer_value(json_array_get(blocks, (size_t)(ii[e] / d.runs_r) * nbn + jj[e] / d.runs_c));
            if (c == 0 && (b < 0 || b >= nc))
                rc = bad(err, errlen, "a block of an unknown class");
            if (b == c)
                ci[m] = ii[e], cj[m] = jj[e], at[m++] = e;
        }
        if (!rc && m && fma)
            gemm_predict_fma(d.path, &s[c], A, B, d.n, d.k, m, ci, cj, pred);
        else if (!rc && m)
            rc = gemm_predict(d.path, profile_path, &s[c], cv, A, B, d.n, d.k, m, ci, cj, pred, err, errlen);
        for (size_t x = 0; x < m && !rc; x++) {
            uint32_t p = gemm_round_out(out, pred[x]);
            *bit_exact += p == got[at[x]];
            if (predicted)
                predicted[at[x]] = p;
        }
    }
    free(ci), free(cj), free(at);
out:
    free(s), free(A), free(B), free(pred);
    return rc;
}
