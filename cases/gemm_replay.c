/* A gemm case (a gemm record's object or an older tcscope-gemm line)
 * replayed on the CPU (cases/gemm.h tc_gemm_replay): every GPU fact of the
 * case is data; the inputs come again from the seed, the outputs from the
 * case, the prediction from the model. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

static int bad(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "record: %s", what);
    return -1;
}

/* The recorded positions and bits; -1 when malformed. */
static int read_outputs(const json_t *o, int m, int n, size_t *nout, int **ii, int **jj, uint32_t **d, char *err,
                        size_t errlen)
{
    const json_t *ia = json_object_get(o, "i"), *ja = json_object_get(o, "j");
    const char *hex = json_string_value(json_object_get(o, "d_hex"));
    size_t cnt = json_array_size(ia);
    if (!json_is_array(ia) || !json_is_array(ja) || !hex || json_array_size(ja) != cnt || strlen(hex) != 8 * cnt ||
        cnt == 0)
        return bad(err, errlen, "\"outputs\" needs i, j (arrays of one length) and d_hex (8 hex digits each)");
    *ii = gemm_alloc(cnt, sizeof **ii), *jj = gemm_alloc(cnt, sizeof **jj), *d = gemm_alloc(cnt, sizeof **d);
    for (size_t e = 0; e < cnt; e++) {
        json_int_t i = json_integer_value(json_array_get(ia, e)), j = json_integer_value(json_array_get(ja, e));
        char w[9], *end;
        memcpy(w, hex + 8 * e, 8);
        w[8] = 0;
        (*d)[e] = (uint32_t)strtoul(w, &end, 16);
        if (i < 0 || i >= m || j < 0 || j >= n || *end)
            return bad(err, errlen, "an output position outside D or a bad hex digit");
        (*ii)[e] = (int)i, (*jj)[e] = (int)j;
    }
    *nout = cnt;
    return 0;
}

int tc_gemm_replay(const json_t *rec, const char *profile_path, size_t *n, size_t *bit_exact, char *err,
                   size_t errlen)
{
    const char *pname = json_string_value(json_object_get(rec, "path"));
    const tc_gemm_path *p = pname ? tc_gemm_path_by_name(pname) : NULL;
    const char *dist = json_string_value(json_object_get(rec, "dist"));
    tc_gemm_case c = {.profile = profile_path};
    c.m = (int)json_integer_value(json_object_get(rec, "m"));
    c.n = (int)json_integer_value(json_object_get(rec, "n"));
    c.k = (int)json_integer_value(json_object_get(rec, "k"));
    c.seed = (uint64_t)json_integer_value(json_object_get(rec, "seed"));
    if (!p || !dist || !sweep_dist_parse(dist, &c.dist) || c.m < 1 || c.n < 1 || c.k < 1 ||
        (size_t)c.m * c.k > ((size_t)1 << 28) || (size_t)c.n * c.k > ((size_t)1 << 28))
        return bad(err, errlen, "needs a known path, m, n, k (A, B at most 2^28 elements), dist and seed");
    if (json_object_get(rec, "probe")) {   /* tcscope probe: its own inputs, a structure per block class */
        int *pi = NULL, *pj = NULL, prc;
        uint32_t *pgot = NULL;
        size_t pn = 0;
        prc = read_outputs(json_object_get(rec, "outputs"), c.m, c.n, &pn, &pi, &pj, &pgot, err, errlen) ||
              gemm_probe_replay(rec, profile_path, pn, pi, pj, pgot, bit_exact, NULL, err, errlen) ? -1 : 0;
        *n = pn;
        free(pi), free(pj), free(pgot);
        return prc;
    }
    tc_gemm_struct s;
    tc_gemm_incvt cv;
    if (tc_gemm_struct_read(json_object_get(rec, "structure"), &s, &cv, err, errlen))
        return -1;
    if (s.slice_unit == TC_GEMM_CUTS && s.cut[s.splitk] != c.k)
        return bad(err, errlen, "\"cuts\" must end at k");
    int *ii = NULL, *jj = NULL, rc = -1;
    uint32_t *got = NULL, *ua = NULL, *ub = NULL, *pred = NULL;
    size_t nout = 0;
    if (read_outputs(json_object_get(rec, "outputs"), c.m, c.n, &nout, &ii, &jj, &got, err, errlen))
        goto out;
    ua = gemm_alloc((size_t)c.m * c.k, sizeof *ua), ub = gemm_alloc((size_t)c.k * c.n, sizeof *ub);
    gemm_uploads(p, &c, ua, ub);
    pred = gemm_alloc(nout, sizeof *pred);
    if (gemm_predict(p, profile_path, &s, cv, ua, ub, c.n, c.k, nout, ii, jj, pred, err, errlen))
        goto out;
    *n = nout, *bit_exact = 0;
    for (size_t e = 0; e < nout; e++)
        *bit_exact += pred[e] == got[e];
    rc = 0;
out:
    free(ii), free(jj), free(got), free(ua), free(ub), free(pred);
    return rc;
}
