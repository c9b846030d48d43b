/* compare of gemm cases and hunts (reports/compare_internal.h). A gemm case
 * of one path, shape, distribution and seed has the same inputs in both
 * records: its structure, prediction and errors must agree exactly, its
 * TFLOP/s within the timing threshold. A hunt's counts must agree exactly. */
#include <stdio.h>
#include <string.h>

#include "reports/compare_internal.h"

static const json_t *at(const json_t *o, const char *a, const char *b)
{
    const json_t *x = json_object_get(o, a);
    return b ? json_object_get(x, b) : x;
}

/* The fields of a and b at path (NULL-terminated), each compared exactly. */
static void exact_list(cmp_diffs *dl, const char *kind, const char *key, const char *path, const json_t *a,
                       const json_t *b, const char *const *fields)
{
    for (const char *const *f = fields; *f; f++)
        cmp_exact(dl, kind, key, path, *f, a, b);
}

void cmp_gemm(cmp_diffs *dl, const char *key, const json_t *a, const json_t *b, const tc_compare_opts *o)
{
    static const char *const ran[] = {"skipped", "error", NULL};
    static const char *const inferred[] = {"chunk", "promote", "splitk", "combine", "slice_unit", NULL};
    static const char *const structure[] = {"consistent", "runs", NULL};
    static const char *const prediction[] = {"n", "bit_exact", "rate", "recorded_outputs_bit_exact", NULL};
    static const char *const errors[] = {"n", "n_nan", "n_exact", "n_within_half_ulp", "n_within_one_ulp",
                                         "max_ulps", "median_ulps", "mean_ulps", "max_rel", "min_correct_bits",
                                         NULL};
    static const char *const outputs[] = {"n", "d_hex", NULL};
    exact_list(dl, "gemm", key, "", a, b, ran);
    exact_list(dl, "gemm", key, "structure.inferred", at(a, "structure", "inferred"),
               at(b, "structure", "inferred"), inferred);
    exact_list(dl, "gemm", key, "structure", at(a, "structure", NULL), at(b, "structure", NULL), structure);
    cmp_exact(dl, "gemm", key, "structure.input_conversion", "used", at(a, "structure", "input_conversion"),
              at(b, "structure", "input_conversion"));
    exact_list(dl, "gemm", key, "structure.prediction", at(a, "structure", "prediction"),
               at(b, "structure", "prediction"), prediction);
    exact_list(dl, "gemm", key, "error_vs_original", at(a, "error_vs_original", NULL),
               at(b, "error_vs_original", NULL), errors);
    exact_list(dl, "gemm", key, "error_vs_rounded", at(a, "error_vs_rounded", NULL),
               at(b, "error_vs_rounded", NULL), errors);
    exact_list(dl, "gemm", key, "outputs", at(a, "outputs", NULL), at(b, "outputs", NULL), outputs);
    cmp_timing(dl, "gemm", key, at(a, "timing", NULL), at(b, "timing", NULL), o);
}

void cmp_hunt(cmp_diffs *dl, const char *key, const json_t *a, const json_t *b)
{
    static const char *const counts[] = {"elements", "mismatches", NULL};
    exact_list(dl, "hunt", key, "", a, b, counts);
    const json_t *fa = json_object_get(a, "families"), *fb = json_object_get(b, "families");
    json_t *names = json_object();
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)fa, k, v) json_object_set_new(names, k, json_true());
    json_object_foreach((json_t *)fb, k, v) json_object_set_new(names, k, json_true());
    json_object_foreach(names, k, v)
    {
        char path[160];
        snprintf(path, sizeof path, "families.%s", k);
        const json_t *x = json_object_get(fa, k), *y = json_object_get(fb, k);
        if (!x || !y)
            cmp_exact(dl, "hunt", key, "families", k, fa, fb);
        else
            exact_list(dl, "hunt", key, path, x, y, counts);
    }
    json_decref(names);
}
