/* A structure-fit case for tests/test_gemm_fit.c and tests/bench_probe_fit.c:
 * inputs of a path's formats (A's and B's blocks of 32 along K scaled by
 * 2^-8 .. 2^8, as the probe's verify inputs scale A's: FP32 sums that
 * round), the outputs a structure gives them (the instruction model, or
 * FP32 FMA chains written out), rounded to an output format, some
 * disturbed, and the runs that structure shows. */
#ifndef TC_GEMM_FIT_FIXTURE_H
#define TC_GEMM_FIT_FIXTURE_H

#include <math.h>

#include "cases/gemm_internal.h"

static uint64_t fixture_rng = 12345;

static inline uint64_t fixture_rnd(void)
{
    uint64_t z = (fixture_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A finite element of f in [-1, 1] times scale. */
static inline uint32_t fixture_element(const tc_format *f, double scale)
{
    double v = ((double)(fixture_rnd() % 2000) / 1000.0 - 1.0) * scale;
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
    if (f == &tc_f32)
        return gemm_bits_of((float)v * (1.0f + (float)(fixture_rnd() % 1000) * 1e-7f));
    return (uint32_t)tc_encode_f64(f, v, r);
}

typedef struct {
    const tc_gemm_path *p;
    int m, n, k;
    size_t nout;
    uint32_t *A, *B, *got;
    int *ii, *jj, *run_start;
    int nruns;
} fixture;

/* nout outputs of an m x n x k case on every second row and column.
 * -1 with err when the model is missing. */
static inline int fixture_make(fixture *x, const char *path, int m, int n, int k, size_t nout,
                               const tc_gemm_struct *truth, tc_gemm_incvt cv, bool fma, const tc_format *out,
                               int disturb_every, const char *profile, char *err, size_t errlen)
{
    x->p = tc_gemm_path_by_name(path);
    x->m = m, x->n = n, x->k = k, x->nout = nout;
    x->A = gemm_alloc((size_t)m * k, sizeof *x->A), x->B = gemm_alloc((size_t)k * n, sizeof *x->B);
    x->got = gemm_alloc(nout, sizeof *x->got);
    x->ii = gemm_alloc(nout, sizeof *x->ii), x->jj = gemm_alloc(nout, sizeof *x->jj);
    x->run_start = gemm_alloc((size_t)k, sizeof *x->run_start);
    for (int i = 0; i < m; i++)
        for (int k0 = 0; k0 < k; k0 += 32) {
            double scale = ldexp(1, (int)(fixture_rnd() % 17) - 8);
            for (int kk = k0; kk < k0 + 32 && kk < k; kk++)
                x->A[(size_t)i * k + kk] = fixture_element(x->p->a, scale);
        }
    for (int j = 0; j < n; j++)
        for (int k0 = 0; k0 < k; k0 += 32) {
            double scale = ldexp(1, (int)(fixture_rnd() % 17) - 8);
            for (int kk = k0; kk < k0 + 32 && kk < k; kk++)
                x->B[(size_t)kk * n + j] = fixture_element(x->p->b, scale);
        }
    int per_row = n / 2;
    for (size_t e = 0; e < nout; e++)
        x->ii[e] = (int)(e / (size_t)per_row) * 2 % m, x->jj[e] = (int)(e % (size_t)per_row) * 2;
    int cut[TC_GEMM_MAX_SLICES + 1];
    gemm_struct_bounds(truth, k, cut);
    x->nruns = 0;
    for (int t = 0; t < truth->splitk; t++)
        for (int s = cut[t]; s < cut[t + 1]; s += truth->promote ? truth->promote : cut[t + 1] - cut[t])
            x->run_start[x->nruns++] = s;
    if (fma) {   /* FP32 FMA chains from +0 a run, runs added in FP32 */
        for (size_t e = 0; e < nout; e++) {
            float sum = 0;
            for (int r = 0; r < x->nruns; r++) {
                float acc = 0;
                int end = r + 1 < x->nruns ? x->run_start[r + 1] : k;
                for (int kk = x->run_start[r]; kk < end; kk++)
                    acc = fmaf(gemm_f32_of(x->A[(size_t)x->ii[e] * k + kk]),
                               gemm_f32_of(x->B[(size_t)kk * n + x->jj[e]]), acc);
                sum = r ? sum + acc : acc;
            }
            x->got[e] = gemm_bits_of(sum);
        }
    } else if (gemm_predict(x->p, profile, truth, cv, x->A, x->B, n, k, nout, x->ii, x->jj, x->got, err, errlen)) {
        return -1;
    }
    for (size_t e = 0; e < nout; e++) {
        x->got[e] = gemm_round_out(out, x->got[e]);
        if (disturb_every && e % (size_t)disturb_every == 0)
            x->got[e] ^= 1;
    }
    return 0;
}

/* The fit of x's outputs (every one tried), pruned or exhaustive. */
static inline int fixture_fit(const fixture *x, const char *profile, int chunk, bool fma, const tc_format *out,
                              bool exhaustive, gemm_fit_out *o, uint32_t *pred, char *err, size_t errlen)
{
    gemm_fit_in in = {x->p, profile, x->k, x->n, 16, chunk, out, x->nruns, x->run_start, x->A, x->B, x->nout,
                      x->ii, x->jj, x->got, fma, true, pred, exhaustive, GEMM_IN_AS_UPLOADED, false};
    return gemm_fit_structure(&in, o, err, errlen);
}

static inline void fixture_free(fixture *x)
{
    free(x->A), free(x->B), free(x->got), free(x->ii), free(x->jj), free(x->run_start);
}

#endif
