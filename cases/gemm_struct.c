/* The accumulation structure of a library GEMM: its slices, their sums and
 * how they combine, outputs computed under it with an instruction model
 * (the predictor that picks the model and conversion: cases/gemm_predict.c;
 * the structure as JSON: reports/record_gemm_structure.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

/* Slice [lo, hi) as FP32 FMA chains (a SIMT kernel's accumulator: one
 * rounding per product, in K order), each run from +0, runs added in FP32. */
static void fma_slice_sums(int run, int k, size_t nout, const uint64_t *a, const uint64_t *b, int lo, int hi,
                           float *sum)
{
    for (size_t t = 0; t < nout; t++) {
        const uint64_t *at = a + t * (size_t)k, *bt = b + t * (size_t)k;
        for (int r0 = lo; r0 < hi; r0 += run) {
            int rend = r0 + run < hi ? r0 + run : hi;
            float acc = 0;
            for (int q = r0; q < rend; q++)
                acc = fmaf(gemm_f32_of((uint32_t)at[q]), gemm_f32_of((uint32_t)bt[q]), acc);
            sum[t] = r0 == lo ? acc : sum[t] + acc;
        }
    }
}

/* One slice [lo, hi) of every output: tensor-core runs, each added in FP32. */
void gemm_slice_sums(const tc_gemm_struct *s, const model *m, int k, size_t nout, const uint64_t *a,
                       const uint64_t *b, int lo, int hi, float *sum)
{
    if (!m) {
        fma_slice_sums(s->promote > 0 ? s->promote : (hi - lo > 0 ? hi - lo : 1), k, nout, a, b, lo, hi, sum);
        return;
    }
    int chunk = s->chunk > 0 ? s->chunk : 1;
    int run = s->promote > 0 ? s->promote : (hi - lo > 0 ? hi - lo : 1);
    uint64_t *ta = gemm_alloc(nout * (size_t)chunk, sizeof *ta), *tb = gemm_alloc(nout * (size_t)chunk, sizeof *tb);
    uint64_t *acc = gemm_alloc(nout, sizeof *acc), *next = gemm_alloc(nout, sizeof *next);
    for (size_t t = 0; t < nout; t++)
        sum[t] = 0.0f;
    for (int r0 = lo; r0 < hi; r0 += run) {
        int rend = r0 + run < hi ? r0 + run : hi;
        memset(acc, 0, nout * sizeof *acc);   /* +0: a zeroed accumulator */
        for (int c0 = r0; c0 < rend; c0 += chunk) {
            int len = c0 + chunk < rend ? chunk : rend - c0;
            for (size_t t = 0; t < nout; t++) {
                memcpy(ta + t * len, a + t * k + c0, (size_t)len * sizeof *ta);
                memcpy(tb + t * len, b + t * k + c0, (size_t)len * sizeof *tb);
            }
            model_mma(m, 1, 1, len, nout, ta, tb, acc, next);
            uint64_t *x = acc;
            acc = next, next = x;
        }
        for (size_t t = 0; t < nout; t++)
            sum[t] = r0 == lo ? gemm_f32_of((uint32_t)acc[t]) : sum[t] + gemm_f32_of((uint32_t)acc[t]);
    }
    free(ta), free(tb), free(acc), free(next);
}

/* Slices [lo, hi) of the slice sums combined as a balanced tree. */
static float pairwise(const float *v, int lo, int hi)
{
    if (hi - lo == 1)
        return v[lo];
    int mid = lo + (hi - lo) / 2;
    return pairwise(v, lo, mid) + pairwise(v, mid, hi);
}

int gemm_xor_levels(int S)
{
    int L = 0;
    while (L <= TC_GEMM_XOR_LEVELS && (1 << L) < S)
        L++;
    return S >= 4 && L <= TC_GEMM_XOR_LEVELS && 1 << L == S ? L : 0;
}

float gemm_combine(const float *v, const tc_gemm_struct *s)
{
    int S = s->splitk > 1 ? s->splitk : 1;
    tc_gemm_combine c = s->combine;
    float d = v[0];
    if (c == GEMM_COMBINE_XOR) {
        float w[1 << TC_GEMM_XOR_LEVELS];
        int L = gemm_xor_levels(S);
        memcpy(w, v, (size_t)S * sizeof *w);
        for (int l = 0; l < L; l++)
            for (int i = 0, b = 1 << s->xor_bits[l]; i < S; i++)
                if (!(i & b))
                    w[i] += w[i | b];
        d = w[0];
    } else if (c == GEMM_COMBINE_PAIRWISE) {
        d = pairwise(v, 0, S);
    } else if (c == GEMM_COMBINE_REVERSE) {
        d = v[S - 1];
        for (int t = S - 2; t >= 0; t--)
            d += v[t];
    } else {
        for (int t = 1; t < S; t++)
            d += v[t];
    }
    return d;
}

static const char *const combine_names[] = {"seq", "pairwise", "reverse", "xor"};

const char *tc_gemm_combine_name(tc_gemm_combine c)
{
    return gemm_name_of(combine_names, sizeof combine_names / sizeof combine_names[0], (int)c);
}

bool tc_gemm_combine_parse(const char *str, tc_gemm_combine *out)
{
    int i = gemm_name_index(combine_names, sizeof combine_names / sizeof combine_names[0], str);
    if (i >= 0)
        *out = (tc_gemm_combine)i;
    return i >= 0;
}

const char *tc_gemm_slices_text(const tc_gemm_struct *s, char *buf, size_t len)
{
    char comb[40];
    int L = s->combine == GEMM_COMBINE_XOR ? gemm_xor_levels(s->splitk) : 0;
    snprintf(comb, sizeof comb, "%s", tc_gemm_combine_name(s->combine));
    for (int l = 0; l < L; l++)   /* "xor 3 4 0 2 1": the bit of each level */
        snprintf(comb + strlen(comb), sizeof comb - strlen(comb), " %d", s->xor_bits[l]);
    size_t room = strlen(comb) + 7, at = (size_t)snprintf(buf, len, "split-K %d", s->splitk);
    if (s->slice_unit == TC_GEMM_CUTS && s->splitk > 1) {   /* one slice has no cut to name */
        at += (size_t)snprintf(buf + (at < len ? at : len), at < len ? len - at : 0, " cut at");
        for (int t = 1; t < s->splitk; t++) {
            char one[16];
            int w = snprintf(one, sizeof one, " %d", s->cut[t]);
            if (at + (size_t)w + room >= len) {   /* " ...", ", COMBINE" and the NUL must fit */
                at += (size_t)snprintf(buf + (at < len ? at : len), at < len ? len - at : 0, " ...");
                break;
            }
            at += (size_t)snprintf(buf + at, len - at, "%s", one);
        }
    } else if (s->slice_unit > 0) {
        at += (size_t)snprintf(buf + (at < len ? at : len), at < len ? len - at : 0, " in units of %d", s->slice_unit);
    }
    if (at < len)
        snprintf(buf + at, len - at, ", %s", comb);
    return buf;
}

/* Equal slices (the rest to the last), or whole K tiles of slice_unit with
 * the tiles left over one each to the last slices (see gemm.h). */
void gemm_struct_bounds(const tc_gemm_struct *s, int k, int *b)
{
    int S = s->splitk > 1 ? s->splitk : 1;
    if (s->slice_unit == TC_GEMM_CUTS) {
        memcpy(b, s->cut, ((size_t)S + 1) * sizeof *b);
        return;
    }
    if (s->slice_unit <= 0) {
        for (int t = 0; t < S; t++)
            b[t] = t * (k / S);
        b[S] = k;
        return;
    }
    long unit = s->slice_unit, units = (k + unit - 1) / unit, per = units / S, extra = units % S, pos = 0;
    for (int t = 0; t <= S; t++) {
        b[t] = pos < k ? (int)pos : k;
        pos += (per + (t >= S - extra)) * unit;
    }
}

void gemm_struct_dots(const tc_gemm_struct *s, const model *m, int k, size_t nout, const uint64_t *a,
                      const uint64_t *b, uint32_t *out)
{
    int S = s->splitk > 1 ? s->splitk : 1, *cut = gemm_alloc((size_t)S + 1, sizeof *cut);
    gemm_struct_bounds(s, k, cut);
    float *sums = gemm_alloc((size_t)S * nout, sizeof *sums), *v = gemm_alloc((size_t)S, sizeof *v);
    for (int t = 0; t < S; t++)
        gemm_slice_sums(s, m, k, nout, a, b, cut[t], cut[t + 1], sums + (size_t)t * nout);
    for (size_t e = 0; e < nout; e++) {
        for (int t = 0; t < S; t++)
            v[t] = sums[(size_t)t * nout + e];
        out[e] = gemm_bits_of(gemm_combine(v, s));
    }
    free(sums), free(v), free(cut);
}

uint32_t tc_gemm_struct_dot(const tc_gemm_struct *s, const model *m, int k, const uint64_t *a, const uint64_t *b)
{
    uint32_t d;
    gemm_struct_dots(s, m, k, 1, a, b, &d);
    return d;
}

/* ---- comparison ------------------------------------------------------------ */

bool tc_gemm_struct_same(const tc_gemm_struct *x, const tc_gemm_struct *y)
{
    if (x->chunk != y->chunk || x->promote != y->promote || x->splitk != y->splitk || x->combine != y->combine ||
        x->slice_unit != y->slice_unit)
        return false;
    if (x->combine == GEMM_COMBINE_XOR && memcmp(x->xor_bits, y->xor_bits, sizeof x->xor_bits))
        return false;
    return x->slice_unit != TC_GEMM_CUTS || !memcmp(x->cut, y->cut, ((size_t)x->splitk + 1) * sizeof x->cut[0]);
}
