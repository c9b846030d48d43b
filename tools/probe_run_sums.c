/* The recorded outputs of one probe case with the FP32 sums of its K runs,
 * to try summation orders the inference does not (split-K slices met in
 * other trees, FMA chains interleaved per thread) on the record alone.
 *
 * Reads one gemm object of a probe record (call id, M, N, K), makes its
 * verify inputs again from the export's design, and prints per recorded
 * output one line: i, j, the recorded D bits, then the FP32 bits of each
 * run of R positions ([0, R), [R, 2R), .., the last one shorter): one tensor-core accumulator
 * from +0 on the instruction model of PROFILE (chunk C per step), or with
 * FMA=1 an FP32 FMA chain in K order. FMA=1 with STRIDE=T: T chains, chain
 * t taking positions q = t mod T of the run (a thread's k-interleave).
 *
 * usage: probe_run_sums RECORD.jsonl.gz CALL M N K R [PROFILE [C]] */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "cases/probe.h"
#include "reports/record_gemm.h"

static json_t *find(json_t *cases, const char *call, int m, int n, int k)
{
    size_t x;
    json_t *o;
    json_array_foreach(cases, x, o) {
        const char *c = json_string_value(json_object_get(json_object_get(o, "probe"), "call_id"));
        if (c && !strcmp(c, call) && json_integer_value(json_object_get(o, "m")) == m &&
            json_integer_value(json_object_get(o, "n")) == n && json_integer_value(json_object_get(o, "k")) == k)
            return o;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: probe_run_sums RECORD.jsonl.gz CALL M N K R [PROFILE [C]]\n");
        return 2;
    }
    char err[600];
    json_t *cases = tc_gemm_records_load(argv[1], NULL, err, sizeof err);
    if (!cases) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    int m = atoi(argv[3]), n = atoi(argv[4]), k = atoi(argv[5]), R = atoi(argv[6]);
    const char *profile = argc > 7 ? argv[7] : "oracle/profiles/h200.profile";
    json_t *o = find(cases, argv[2], m, n, k);
    const char *fmt = json_string_value(json_object_get(json_object_get(o, "probe"), "export_format"));
    tc_probe_design d;
    if (!o || !fmt || R < 1 || tc_probe_design_make(m, n, k, fmt, 1, &d, err, sizeof err)) {
        fprintf(stderr, "no such case, or R < 1: %s\n", o ? err : "");
        return 2;
    }
    d.seed = (uint64_t)json_integer_value(json_object_get(o, "seed"));
    bool fma = getenv("FMA") != NULL;
    int T = getenv("STRIDE") ? atoi(getenv("STRIDE")) : 1;
    tc_gemm_struct one = {.chunk = argc > 8 ? atoi(argv[8]) : d.path->fp8 ? 32 : 16, .splitk = 1};
    model *md = fma ? NULL : gemm_model_in(d.path, profile, GEMM_IN_AS_UPLOADED, err, sizeof err);
    if (!fma && !md) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    uint32_t *A = gemm_alloc((size_t)m * k, 4), *B = gemm_alloc((size_t)k * n, 4);
    tc_probe_inputs(&d, PROBE_VERIFY, A, B);
    const json_t *out = json_object_get(o, "outputs");
    const char *hex = json_string_value(json_object_get(out, "d_hex"));
    size_t nout = json_array_size(json_object_get(out, "i"));
    uint64_t *a = gemm_alloc((size_t)k, sizeof *a), *b = gemm_alloc((size_t)k, sizeof *b), *sa, *sb;
    sa = gemm_alloc((size_t)k, sizeof *sa), sb = gemm_alloc((size_t)k, sizeof *sb);
    for (size_t e = 0; e < nout; e++) {
        int i = (int)json_integer_value(json_array_get(json_object_get(out, "i"), e));
        int j = (int)json_integer_value(json_array_get(json_object_get(out, "j"), e));
        gemm_gather(A, B, n, k, 1, &i, &j, a, b);
        printf("%d %d %.8s", i, j, hex + 8 * e);
        if (fma)
            gemm_widen_f32(d.path->a, a, (size_t)k), gemm_widen_f32(d.path->b, b, (size_t)k);
        for (int r = 0; r < k; r += R)
            for (int t = 0; t < (fma ? T : 1); t++) {
                float s;
                if (fma && T > 1) {   /* chain t: positions r + t, r + t + T, .. of the run */
                    int len = 0;
                    for (int q = r + t; q < r + R && q < k; q += T)
                        sa[len] = a[q], sb[len] = b[q], len++;
                    gemm_slice_sums(&one, NULL, len, 1, sa, sb, 0, len, &s);
                } else {
                    gemm_slice_sums(&one, md, k, 1, a, b, r, r + R < k ? r + R : k, &s);
                }
                printf(" %08X", gemm_bits_of(s));
            }
        printf("\n");
    }
    model_free(md);
    free(A), free(B), free(a), free(b), free(sa), free(sb);
    json_decref(cases);
    return 0;
}
