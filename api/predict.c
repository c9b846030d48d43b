/* tcscope_gemm_predict: every output of a GEMM as the simulated library
 * (cases/gemm.h tc_gemm_lib_sim: an instruction model and an
 * accumulation structure) computes it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"
#include "cases/gemm.h"

/* combine: "seq", "pairwise", "reverse", or "xor B0 B1 .." (the records'
 * combine "xor" with its xor_bits): an XOR tree of log2(splitk) levels,
 * splitk a power of two from 4 to 2^TC_GEMM_XOR_LEVELS, the bits a
 * permutation of 0 .. levels - 1 (each level pairs slices by one bit, so
 * that slice 0 ends with every slice's sum). */
static int parse_combine(const char *combine, tc_gemm_struct *s, char *err, size_t errlen)
{
    const char *want = "seq, pairwise, reverse, or xor followed by its levels' bits, e.g. 'xor 3 4 0 2 1'";
    if (!combine)
        return api_fail(err, errlen, "no combine given (%s)", want);
    if (strncmp(combine, "xor", 3) != 0 || (combine[3] != ' ' && combine[3] != '\0')) {
        if (!tc_gemm_combine_parse(combine, &s->combine) || s->combine == GEMM_COMBINE_XOR)
            return api_fail(err, errlen, "unknown combine '%s' (%s)", combine, want);
        return 0;
    }
    int L = 0;
    while (L < TC_GEMM_XOR_LEVELS && (1 << L) < s->splitk)
        L++;
    if (s->splitk < 4 || (1 << L) != s->splitk)
        return api_fail(err, errlen, "combine xor needs splitk a power of two from 4 to %d, not %d",
                        1 << TC_GEMM_XOR_LEVELS, s->splitk);
    const char *q = combine + 3;
    unsigned seen = 0;
    for (int l = 0; l < L; l++) {
        char *end;
        long b = strtol(q, &end, 10);
        if (end == q || b < 0 || b >= L || (seen >> b & 1u))
            return api_fail(err, errlen, "combine '%s': the xor levels must be the %d bits 0 .. %d, each once", combine,
                            L, L - 1);
        seen |= 1u << b;
        s->xor_bits[l] = (unsigned char)b;
        q = end;
    }
    while (*q == ' ')
        q++;
    if (*q)
        return api_fail(err, errlen, "combine '%s': %d xor levels for splitk %d, then '%s' left over", combine, L,
                        s->splitk, q);
    s->combine = GEMM_COMBINE_XOR;
    return 0;
}

int tcscope_gemm_predict(const char *path, const char *profile, int m, int n, int k, const uint32_t *A,
                         const uint32_t *B, int chunk, int promote, int splitk, const char *combine, int slice_unit,
                         const char *incvt, uint32_t *D, char *err, size_t errlen)
{
    API_ERR_BUF(err, errlen);
    const tc_gemm_path *p = path ? tc_gemm_path_by_name(path) : NULL;
    if (!p)
        return api_fail(err, errlen, "unknown GEMM path '%s' (tcscope gemm --help lists them)",
                        path ? path : "(null)");
    if (!p->instr)
        return api_fail(err, errlen, "path %s runs no tensor-core instruction: no model predicts it", p->name);
    if (m < 1 || n < 1 || k < 1)
        return api_fail(err, errlen, "bad shape %d x %d x %d (each at least 1)", m, n, k);
    if ((size_t)m * (size_t)n > (size_t)INT_MAX)
        return api_fail(err, errlen, "m x n = %zu outputs: more than %d", (size_t)m * (size_t)n, INT_MAX);
    if (!A || !B || !D)
        return api_fail(err, errlen, "tcscope_gemm_predict: A, B and D are required");
    if (chunk < 1 || promote < 0 || splitk < 1 || splitk > k || slice_unit < 0)
        return api_fail(err, errlen, "bad structure: chunk %d (>= 1), promote %d (>= 0), splitk %d (1..k = %d), "
                        "slice_unit %d (>= 0)", chunk, promote, splitk, k, slice_unit);
    tc_gemm_struct s = {.chunk = chunk, .promote = promote, .splitk = splitk, .slice_unit = slice_unit};
    if (parse_combine(combine, &s, err, errlen))
        return -1;
    tc_gemm_incvt cv;
    if (!incvt || !tc_gemm_incvt_parse(incvt, &cv))
        return api_fail(err, errlen, "unknown input conversion '%s' (as-uploaded, tf32-rz, tf32-rna, tf32-rne, "
                        "full-f32)", incvt ? incvt : "(null)");
    tc_gemm_incvt cand[8];
    int nc = tc_gemm_incvt_candidates(p, cand), ok = 0;
    for (int x = 0; x < nc; x++)
        ok |= cand[x] == cv;
    if (!ok)
        return api_fail(err, errlen, "path %s has no input conversion %s (only the tf32 path chooses one)", p->name,
                        incvt);
    if (api_check_bits("A", p->a, NULL, A, (size_t)m * k, err, errlen) ||
        api_check_bits("B", p->b, NULL, B, (size_t)k * n, err, errlen))
        return -1;
    char ppath[4096];
    if (api_profile_path(profile, ppath, sizeof ppath, err, errlen))
        return -1;
    tc_gemm_lib lib;
    if (tc_gemm_lib_sim(&lib, ppath, &s, cv, err, errlen))
        return -1;
    size_t nout = (size_t)m * n;
    int *ii = malloc(nout * sizeof *ii), *jj = malloc(nout * sizeof *jj);
    int rc = ii && jj ? 0 : api_fail(err, errlen, "out of memory");
    for (size_t e = 0; !rc && e < nout; e++)
        ii[e] = (int)(e / (size_t)n), jj[e] = (int)(e % (size_t)n);
    double ms;
    tc_gemm_algo algo;
    if (!rc && lib.run(lib.ctx, p, m, n, k, A, B, nout, ii, jj, D, 0, 0, &ms, &algo, err, errlen))
        rc = -1;
    free(ii), free(jj);
    tc_gemm_lib_sim_free(&lib);
    return rc;
}
