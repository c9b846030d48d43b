/* Which split-K structure produced a recorded cuBLASLt GEMM's outputs?
 *
 * Reads one case of a tcscope-gemm record (path, K), draws its inputs
 * again from the seed (cases/gemm.c), and counts, for each hypothesis, how
 * many of the recorded GPU outputs it predicts bit for bit: slice
 * boundaries (equal cuts with the remainder last, cuts in K tiles of 32
 * with the extra tiles on the last or the first slices, cuts rounded to
 * multiples of 8 .. 256), the chunk order inside a slice (forward, or
 * backward), and the order the slices' FP32 sums meet in. The instruction
 * model of the profile computes every tensor-core step.
 *
 * usage: gemm_splitk_explore RECORD.jsonl.gz PATH K SPLITS [PROFILE [rne|rna|rz]]
 * (tf32 paths: the conversion of the FP32 inputs, RNE by default).
 * Environment: ONLY=TEXT tries only the cuts whose name holds TEXT;
 * M=N picks the case with M rows where several share a K; BACKWARD=1
 * also runs each slice's steps backward; CHUNK=N positions per
 * step (default 8, the tf32 wgmma's K). Measured on the committed H100
 * record (tf32, K 65536, SPLITS 15): only "tiles of 32, 8 extra on the
 * last slices", forward, met last to first predicts all 512. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

static float f32_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static json_t *find_record(const char *file, const char *path, int k)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s'", file);
    FILE *f = popen(cmd, "r");
    char *line = NULL;
    size_t cap = 0;
    json_t *hit = NULL;
    while (f && !hit && getline(&line, &cap, f) > 0) {
        json_t *r = json_loads(line, 0, NULL);
        const char *p = json_string_value(json_object_get(r, "path"));
        const char *want_m = getenv("M");   /* several cases share a K (4096^3 and 256 x 256 x 4096) */
        if (p && !strcmp(p, path) && json_integer_value(json_object_get(r, "k")) == k &&
            (!want_m || json_integer_value(json_object_get(r, "m")) == atoi(want_m)) && json_object_get(r, "outputs"))
            hit = r;
        else
            json_decref(r);
    }
    free(line);
    if (f)
        pclose(f);
    return hit;
}

/* The tf32 elements as the tensor core sees them (RNE from FP32). */
static void to_tf32(uint64_t *x, size_t n, tc_round mode)
{
    tc_rounding r = {.mode = mode, .ovf = TC_OVF_INF};
    for (size_t i = 0; i < n; i++)
        x[i] = tc_encode_f32(&tc_tf32, f32_of((uint32_t)x[i]), r);
}

/* The slice [lo, hi) of every output in one accumulator from +0, chunk
 * positions a step, the steps forward (dir 1) or backward (dir -1). */
static void slice_acc(const model *m, int chunk, int k, size_t nout, const uint64_t *a, const uint64_t *b, int lo,
                      int hi, int dir, float *sum)
{
    uint64_t *ta = gemm_alloc(nout * (size_t)chunk, sizeof *ta), *tb = gemm_alloc(nout * (size_t)chunk, sizeof *tb);
    uint64_t *acc = gemm_alloc(nout, sizeof *acc), *next = gemm_alloc(nout, sizeof *next);
    int nsteps = (hi - lo + chunk - 1) / chunk;
    for (int s = 0; s < nsteps; s++) {
        int c0 = dir > 0 ? lo + s * chunk : lo + (nsteps - 1 - s) * chunk;
        int len = c0 + chunk < hi ? chunk : hi - c0;
        for (size_t t = 0; t < nout; t++) {
            memcpy(ta + t * len, a + t * k + c0, (size_t)len * sizeof *ta);
            memcpy(tb + t * len, b + t * k + c0, (size_t)len * sizeof *tb);
        }
        model_mma(m, 1, 1, len, nout, ta, tb, acc, next);
        uint64_t *x = acc;
        acc = next, next = x;
    }
    for (size_t t = 0; t < nout; t++)
        sum[t] = f32_of((uint32_t)acc[t]);
    free(ta), free(tb), free(acc), free(next);
}

static float pairwise(const float *v, int lo, int hi)
{
    if (hi - lo == 1)
        return v[lo];
    int mid = lo + (hi - lo) / 2;
    return pairwise(v, lo, mid) + pairwise(v, mid, hi);
}

/* The orders the S slice sums may meet in (v: slice sums in K order). */
enum { C_SEQ, C_REV, C_PAIR, C_REVPAIR, C_FIRST_LAST, C_LAST_FIRST, C_DOUBLE, NCOMB };
static const char *const comb_names[NCOMB] = {
    "seq (s0+s1+..)", "reverse (s_{S-1}+..+s0)", "pairwise", "pairwise of reversed",
    "s0 + (s1+..+s_{S-1})", "s_{S-1} + (s0+..+s_{S-2})", "exact (double) sum, rounded once"};

static float combine(int mode, const float *v, int S)
{
    float r[128];
    double d = 0;
    float w;
    switch (mode) {
    case C_SEQ:
        w = v[0];
        for (int t = 1; t < S; t++)
            w += v[t];
        return w;
    case C_REV:
        w = v[S - 1];
        for (int t = S - 2; t >= 0; t--)
            w += v[t];
        return w;
    case C_PAIR:
        return pairwise(v, 0, S);
    case C_REVPAIR:
        for (int t = 0; t < S; t++)
            r[t] = v[S - 1 - t];
        return pairwise(r, 0, S);
    case C_FIRST_LAST:
        w = v[1];
        for (int t = 2; t < S; t++)
            w += v[t];
        return v[0] + w;
    case C_LAST_FIRST:
        w = v[0];
        for (int t = 1; t < S - 1; t++)
            w += v[t];
        return v[S - 1] + w;
    default:
        for (int t = 0; t < S; t++)
            d += v[t];
        return (float)d;
    }
}

/* Slice boundaries: bounds[0..S] for each way of cutting K. */
typedef struct {
    char name[80];
    int b[129];
} cut;

static int cuts(int k, int S, cut *out)
{
    int n = 0;
    cut *c = &out[n++];
    snprintf(c->name, sizeof c->name, "k/S floor, remainder last");
    for (int t = 0; t <= S; t++)
        c->b[t] = t == S ? k : t * (k / S);
    for (int tk = 8; tk <= 256; tk *= 2) {
        int tiles = k / tk, per = tiles / S, extra = tiles % S;
        c = &out[n++];
        snprintf(c->name, sizeof c->name, "tiles of %d, %d extra on the last slices", tk, extra);
        for (int t = 0, pos = 0; t <= S; t++) {
            c->b[t] = pos;
            pos += (per + (t >= S - extra)) * tk;
        }
        c = &out[n++];
        snprintf(c->name, sizeof c->name, "tiles of %d, %d extra on the first slices", tk, extra);
        for (int t = 0, pos = 0; t <= S; t++) {
            c->b[t] = pos;
            pos += (per + (t < extra)) * tk;
        }
        c = &out[n++];
        int len = (k / S + tk - 1) / tk * tk;
        snprintf(c->name, sizeof c->name, "ceil(k/S) to a multiple of %d (%d), rest last", tk, len);
        for (int t = 0; t <= S; t++)
            c->b[t] = t * len < k && t < S ? t * len : k;
        c = &out[n++];
        len = k / S / tk * tk;
        snprintf(c->name, sizeof c->name, "floor(k/S) to a multiple of %d (%d), rest last", tk, len);
        for (int t = 0; t <= S; t++)
            c->b[t] = t == S ? k : t * len;
    }
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s RECORD.jsonl.gz PATH K SPLITS [PROFILE] [rne|rna|rz]\n", argv[0]);
        return 2;
    }
    const char *profile = argc > 5 ? argv[5] : "oracle/profiles/h100.profile";
    tc_round mode = argc > 6 && !strcmp(argv[6], "rna") ? TC_RNA : argc > 6 && !strcmp(argv[6], "rz") ? TC_RZ : TC_RNE;
    int K = atoi(argv[3]), S = atoi(argv[4]);
    json_t *rec = find_record(argv[1], argv[2], K);
    const tc_gemm_path *p = tc_gemm_path_by_name(argv[2]);
    if (!rec || !p || S < 1 || S > 128) {
        fprintf(stderr, "no record of path %s at K=%d with outputs (or bad SPLITS)\n", argv[2], K);
        return 2;
    }
    tc_gemm_case c = {.profile = profile};
    c.m = (int)json_integer_value(json_object_get(rec, "m"));
    c.n = (int)json_integer_value(json_object_get(rec, "n"));
    c.k = K;
    c.seed = (uint64_t)json_integer_value(json_object_get(rec, "seed"));
    if (!sweep_dist_parse(json_string_value(json_object_get(rec, "dist")), &c.dist)) {
        fprintf(stderr, "bad dist\n");
        return 2;
    }
    const json_t *o = json_object_get(rec, "outputs");
    size_t nout = json_array_size(json_object_get(o, "i"));
    const char *hex = json_string_value(json_object_get(o, "d_hex"));
    if (!hex || nout == 0 || strlen(hex) != 8 * nout || c.m < 1 || c.n < 1 ||
        json_array_size(json_object_get(o, "j")) != nout) {
        fprintf(stderr, "the record's outputs or shape are malformed\n");
        return 2;
    }
    int *ii = gemm_alloc(nout, sizeof *ii), *jj = gemm_alloc(nout, sizeof *jj);
    uint32_t *got = gemm_alloc(nout, sizeof *got);
    for (size_t e = 0; e < nout; e++) {
        char w[9];
        memcpy(w, hex + 8 * e, 8);
        w[8] = 0;
        got[e] = (uint32_t)strtoul(w, NULL, 16);
        ii[e] = (int)json_integer_value(json_array_get(json_object_get(o, "i"), e));
        jj[e] = (int)json_integer_value(json_array_get(json_object_get(o, "j"), e));
    }
    uint32_t *ua = gemm_alloc((size_t)c.m * K, sizeof *ua), *ub = gemm_alloc((size_t)K * c.n, sizeof *ub);
    gemm_uploads(p, &c, ua, ub);
    uint64_t *a = gemm_alloc(nout * (size_t)K, sizeof *a), *b = gemm_alloc(nout * (size_t)K, sizeof *b);
    for (size_t e = 0; e < nout; e++)
        gemm_gather(ua, ub, c.n, K, 1, &ii[e], &jj[e], a + e * K, b + e * K);
    free(ua), free(ub);
    char err[512];
    model *m = tc_gemm_model(p, profile, err, sizeof err);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    if (strstr(p->instr, ".tf32.")) {
        to_tf32(a, nout * (size_t)K, mode);
        to_tf32(b, nout * (size_t)K, mode);
    }
    model_set_threads(1);
    int chunk = atoi(getenv("CHUNK") ? getenv("CHUNK") : "8");
    const char *only = getenv("ONLY");   /* a substring of the cut names to try, else all */
    int dirs = getenv("BACKWARD") ? 2 : 1;
    cut *cs = gemm_alloc(64, sizeof *cs);
    int nc = cuts(K, S, cs);
    float *sums = gemm_alloc((size_t)S * nout, sizeof *sums), v[128];
    printf("%s K=%d S=%d chunk=%d, %zu recorded outputs\n", p->name, K, S, chunk, nout);
    for (int ci = 0; ci < nc; ci++) {
        if (only && !strstr(cs[ci].name, only))
            continue;
        for (int dir = 1; dir >= (dirs == 2 ? -1 : 1); dir -= 2) {
            for (int t = 0; t < S; t++)
                slice_acc(m, chunk, K, nout, a, b, cs[ci].b[t], cs[ci].b[t + 1], dir, sums + (size_t)t * nout);
            printf("cut: %s [%s in a slice]; first slices:", cs[ci].name, dir > 0 ? "forward" : "backward");
            for (int t = 0; t < S && t < 4; t++)
                printf(" %d", cs[ci].b[t + 1] - cs[ci].b[t]);
            printf(" ... last %d\n", cs[ci].b[S] - cs[ci].b[S - 1]);
            for (int cm = 0; cm < NCOMB; cm++) {
                size_t hit = 0;
                for (size_t e = 0; e < nout; e++) {
                    for (int t = 0; t < S; t++)
                        v[t] = sums[(size_t)t * nout + e];
                    hit += bits_of(combine(cm, v, S)) == got[e];
                }
                printf("  %-32s %4zu / %zu\n", comb_names[cm], hit, nout);
            }
            fflush(stdout);
        }
    }
    model_free(m);
    free(a), free(b), free(ii), free(jj), free(got), free(sums), free(cs);
    json_decref(rec);
    return 0;
}
