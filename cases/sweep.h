/* sweep: chain-length error sweeps. How does the error grow when the output
 * of one matrix product feeds the next, per input format?
 *
 * One chain (per trial) on the instruction chosen for the format, tile
 * M x K (M = ins->m, K = ins->k):
 *   X_0 = A0,  D_i = X_{i-1} * B_i  (B_i is K x K, C_i = 0),
 *   X_i = D_i converted into the format (scaled first with --scaling per-tensor).
 * The reference is the exact chain value E_i = E_{i-1} * B_i (E_0 = A0, the
 * inputs as fed in, times the same power-of-two scales), computed exactly
 * with MPFR (precision grows until mpfr_sum reports an exact sum). Per step:
 * median, 90th percentile and max of |D_i - E_i| / |E_i| over the finite
 * elements with E_i != 0 of every trial; the fraction of elements that
 * overflowed (D_i infinite, or its conversion infinite or saturated) or are
 * NaN.
 *
 * B_i entries are drawn with variance 1/K so that |E_i| neither grows nor
 * shrinks on average (the error, not the range, is what a chain measures);
 * "ints" (integers in [-2, 2], unscaled) gives exactly representable chains
 * for checks.
 */
#ifndef TC_SWEEP_H
#define TC_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"
#include "probes/probes.h"

/* A sweep keeps every step of every trial: trials x chain x (K*K + 5*M*K)
 * elements of 8 bytes, at most SWEEP_MAX_ELEMS (2^27: 1 GiB), checked
 * before anything is allocated (e.g. 100 trials of 100 steps of f16 at
 * K = 16 take 1.5e7). */
#define SWEEP_MAX_ELEMS (1ull << 27)
/* The ranges of the settings (sweep's options, a --like record's, choose --chain). */
#define SWEEP_MAX_CHAIN 100000
#define SWEEP_MAX_TRIALS 1000000
#define SWEEP_MAX_LOG_RANGE 60

typedef enum { SWEEP_NORMAL, SWEEP_UNIFORM, SWEEP_LOGUNIFORM, SWEEP_INTS } sweep_dist;

const char *sweep_dist_name(sweep_dist d);
bool sweep_dist_parse(const char *s, sweep_dist *out);

typedef struct {
    const tc_format *fmt;  /* input format of the chain */
    int chain;             /* steps N >= 1 */
    int trials;            /* independent chains T >= 1 */
    sweep_dist dist;
    int log_range;         /* loguniform: magnitudes 2^u, u uniform in [-log_range, log_range] */
    bool from_f32;         /* draw in FP32, then convert with `round`; else round the sample directly (RNE) */
    tc_round round;        /* conversions into the format (from FP32 and between steps) */
    bool pertensor;        /* FP8 only: power-of-two scale from max|x| before each conversion */
    uint64_t seed;
    bool keep_trace;       /* keep inputs, outputs and per-element errors (tests) */
    int threads;           /* reference workers; 0: every online core */
    bool stepwise;         /* step by step through tc_backend_mma even where the backend has chains */
    const tc_instr *ins;   /* the instruction to sweep; NULL: sweep_instr_for(fmt) */
    /* Optional progress report after each trial's reference (done, total). */
    void (*progress)(void *ctx, size_t done, size_t total);
    void *progress_ctx;
} sweep_params;

typedef struct {
    double median, p90, max;   /* against the exact chain; NaN when no element qualifies */
    double local_median, local_p90, local_max;   /* against the exact step from the X used */
    double overflow, nan;      /* fractions of the step's elements */
    size_t n;                  /* elements in the statistics */
} sweep_step;

typedef struct {
    const tc_instr *ins;       /* NULL for the host FP32 baseline */
    const char *instr_name;    /* ins->name, or "host.fma.f32" */
    int m, k;                  /* tile M x K */
    bool scaled;               /* pertensor requested and applicable */
    const char *chain_path;    /* "backend chain" (the backend's own cvt), "stepwise mma, conversion
                                  by formats/" (per-tensor scaling, or stepwise), "host fmaf" */
    sweep_step *steps;         /* chain entries */
    size_t cvt_mismatches;     /* backend conversions that differ from formats/ (must be 0) */
    /* With keep_trace, per trial t and step i (0-based), element j of M x K:
     * A0[t][j], B[t][i][K x K], X[t][i][j] (input of step i), D[t][i][j],
     * err[i][t][j] (NaN where left out), scale_x[t][i] (the power of two
     * X[t][i] was scaled by when formed from D[t][i-1]; 1 for i = 0). */
    uint64_t *A0, *B, *X, *D;
    double *err, *scale_x;
} sweep_result;

/* The catalogue instruction a sweep uses for a format: the dense mma with
 * A and B in that format and the widest accumulator (f32, f64 for f64),
 * largest K. NULL for f32 (no tensor-core instruction takes FP32 inputs: the
 * sweep then runs the host FP32 baseline, fmaf in k order) and for formats
 * without an instruction. */
const tc_instr *sweep_instr_for(const tc_format *f);

/* NULL if ins can run a sweep chain (A and B in one format, float
 * formats, dense), else why. */
const char *sweep_instr_unfit(const tc_instr *ins);

/* Runs one format's sweep on backend b (unused for the host baseline).
 * 0, or -1 with err (backend refused, bad parameters). */
int sweep_run(tc_backend *b, const sweep_params *p, sweep_result *r, char *err, size_t len);
void sweep_result_free(sweep_result *r);

/* Quantile of a sorted array by nearest rank: the smallest x with at least
 * q*n values <= x (q = 0.5: the lower median). */
double sweep_quantile_sorted(const double *v, size_t n, double q);

#endif
