/* Internals shared by the sweep's files (cases/sweep*.c); not a public API. */
#ifndef TC_SWEEP_INTERNAL_H
#define TC_SWEEP_INTERNAL_H

#include "cases/sweep.h"

typedef struct {
    uint64_t s[4];
} sweep_rng;

/* One reproducible stream per (seed, stream name). */
void sweep_rng_seed(sweep_rng *r, uint64_t seed, const char *stream);
uint64_t sweep_rng_next(sweep_rng *r);
/* A sample of the distribution and the distribution's variance. */
double sweep_draw(sweep_rng *r, sweep_dist d, int log_range);
double sweep_variance(sweep_dist d, int log_range);

bool sweep_is_fp8(const tc_format *f);
double sweep_format_max(const tc_format *f);
tc_rounding sweep_cvt_rounding(const sweep_params *p);
/* Largest power of two s with amax * s <= max finite of f (1 for amax 0). */
double sweep_pow2_scale(const tc_format *f, double amax);
/* Converts n samples into the format (scaled per tensor when asked and FP8);
 * returns the scale applied. */
double sweep_encode_tensor(const sweep_params *p, const double *x, size_t n, uint64_t *bits);

/* Everything the reference needs about one sweep, in the trace layout of
 * sweep_result (A0, B, X, D always kept here; err filled by the reference). */
typedef struct {
    const sweep_params *p;
    const tc_format *dfmt;   /* output format of every step */
    int m, k, n;             /* tile M x K, chain length */
    size_t trials;
    const uint64_t *A0, *B, *X, *D;
    const double *log2_scale_x;   /* [t][i]: X_i was formed as D_i * 2^this (0 for i = 0) */
    double *err;             /* [i][t][j]: against the exact chain */
    double *err_local;       /* [i][t][j]: against the exact step from X_{i-1} as used */
} sweep_ref_job;

/* Relative errors of every D element against the exact chain oracle
 * (oracle/chain.h); NaN where D is not finite or the exact value is 0. */
void sweep_reference(const sweep_ref_job *job);

#endif
