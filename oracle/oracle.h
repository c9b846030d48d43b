/* oracle: the exact answer to D = A*B + C, and error metrics against it.
 *
 * Every product and sum is exact (GMP fixed point / MPFR); the result is
 * rounded once into the output format. The tensor-core model lives beside it
 * in oracle/model.h; value parsing in oracle/value.h; chains in oracle/chain.h.
 *
 * Special values follow IEEE 754 for the fused operation sum_k a[k]*b[k] + c:
 *  - any NaN operand, 0 * Inf, or Inf - Inf (between products and/or c) gives
 *    NaN, encoded as tc_encode does for the output format (f.d->nan_bits);
 *  - otherwise an Inf operand gives Inf of its sign (what tc_encode makes of
 *    Inf in f.d: E4M3 has none);
 *  - an exact zero result is -0 when every term (each a[k]*b[k], and c) is a
 *    zero of sign -, +0 when every term is +0, and otherwise +0, except under
 *    TC_RD where it is -0 (x + (-x) = +0, -0 + -0 = -0, RD gives -0).
 *    A nonzero result that rounds to zero keeps its sign (tc_encode).
 * Integer formats (s8, u8, s32) are exact integers, so integer MMAs work too.
 */
#ifndef TC_ORACLE_H
#define TC_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpfr.h>

#include "formats/formats.h"

/* The formats of one dot product d = sum_k a[k]*b[k] + c. */
typedef struct {
    const tc_format *a, *b, *c, *d;
} oracle_formats;

/* Exact value of sum_k a[k]*b[k] + c into `out` (initialised by the caller;
 * its precision is raised as needed so the value is exact). NaN/Inf follow
 * IEEE 754 (Inf - Inf and 0 * Inf give NaN). */
void oracle_dot_value(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                      uint64_t c, mpfr_t out);

/* The same, rounded once into f.d with r: the correctly rounded result.
 * TC_RS compares r.rbits with the first 32 bits below the last kept bit
 * taken from the top 64 bits of the exact value: exact for outputs of up to
 * 32 bits of precision; for f64 the bits below the 64th are not seen. */
uint64_t oracle_dot_exact(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                          uint64_t c, tc_rounding r);

/* Block scales (PTX mma .block_scale, the MX and NVFP4 forms): K position i
 * of A is multiplied by a[i / block], of B by b[i / block], both of format
 * fmt (tc_e8m0 or tc_ue4m3). Which format and block an instruction uses is
 * an ISA fact: oracle/model_scales.h reads it from the form's name. */
typedef struct {
    const tc_format *fmt;
    int block;              /* K positions per scale (16 or 32); divides k */
    const uint64_t *a, *b;  /* k / block scales of A's row and of B's column */
} oracle_scales;

/* The correctly rounded sum_k (a[k]*sa)*(b[k]*sb) + c (IEEE classes: a NaN
 * scale gives NaN, a zero scale a zero factor, 0 * Inf NaN). */
uint64_t oracle_dot_scaled_exact(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                                 uint64_t c, const oracle_scales *s, tc_rounding r);

/* A whole tile, D[i][j] = sum_kk A[i][kk]*B[kk][j] + C[i][j] (row-major, as in
 * probes.h), spread over all cores for large batches. C may be NULL: every
 * C[i][j] is then +0 (as zeroed accumulator registers are), so a sum of
 * products that are all -0 gives +0 (-0 under TC_RD). */
void oracle_mma_exact(oracle_formats f, int m, int n, int k, size_t ntiles,
                      const uint64_t *A, const uint64_t *B, const uint64_t *C,
                      uint64_t *D, tc_rounding r);

/* The integer MMA (s8/u8 operands, s32 accumulator; oracle/int_mma.c) in
 * int64: sat[] what oracle_mma_exact gives (saturated at f.d's limits),
 * wrap[] the same sum modulo 2^w (w: f.d's width). -1 (nothing written)
 * for other formats or k outside 1..2^20, where int64 is not shown to hold
 * the sum. */
int oracle_mma_int(oracle_formats f, int m, int n, int k, size_t ntiles, const uint64_t *A, const uint64_t *B,
                   const uint64_t *C, uint64_t *sat, uint64_t *wrap);

/* Rounds an exact MPFR value once into a format (no double rounding). */
uint64_t oracle_round(const tc_format *f, const mpfr_t x, tc_rounding r);

/* Worker threads for batch work (oracle_mma_exact, oracle_mma_err, chains):
 * 0 (the default) means every online core. Configuration, not state. */
void oracle_set_threads(int n);
int oracle_threads(void);

/* Runs fn(ctx, lo, hi) over [0, total) in contiguous ranges, one a thread,
 * on oracle_threads() threads; on the calling thread when work (a cost
 * estimate, e.g. product terms) is below 2^15 or when called from inside
 * such a range. Batch work started inside fn (oracle_mma_exact,
 * oracle_mma_err, model_mma) runs on fn's thread, also when fn runs on
 * the calling thread, so a caller spreads
 * independent items over the cores once, at the outer level, instead of
 * paying thread start-up in every inner call. */
void oracle_parallel(size_t total, size_t work, void (*fn)(void *ctx, size_t lo, size_t hi), void *ctx);

/* True on a thread that runs a range of oracle_parallel. */
bool oracle_in_parallel(void);

/* ---- Error metrics --------------------------------------------------------
 *
 * ulp(x) in format f, with p = f->mbits + 1 and emin = tc_format_emin(f),
 * emax = tc_format_emax(f):
 *     ulp(x) = 2^(clamp(floor(log2 |x|), emin, emax) - p + 1),
 * i.e. the spacing of f's values in the binade of x (Goldberg's definition);
 * below the normal range (subnormals, and x = 0) it is the subnormal spacing
 * 2^(emin - p + 1); above the largest finite it stays the top binade's
 * spacing. For integer formats (TC_SPECIALS_INT) ulp = 1. So a representable
 * x's upper neighbour is +1 ulp away, its lower neighbour -1 ulp (or -1/2
 * when x is a power of two >= 2^(emin+1): the binade below is finer).
 *
 * err_ulps = (got - x) / ulp(x), signed (> 0 when got is above x), computed
 * exactly and rounded once to double (RNDN).
 * err_rel  = |got - x| / |x| (x = 0: 0 if got is zero, else +Inf).
 * correct_bits = -log2(err_rel) clamped to [0, p + 1] (p + 1 when exact).
 * Special cases: got and x both NaN, or equal infinities: 0 error (bits
 * p + 1). got NaN while x is not, or x NaN while got is not: NaN error,
 * 0 bits. got Inf while x finite (or the reverse): +-Inf ulps/rel, 0 bits.
 */
long oracle_ulp_exp(const tc_format *f, const mpfr_t x);   /* log2 ulp(x) */
double oracle_err_ulps(const tc_format *f, uint64_t got, const mpfr_t x);
double oracle_err_rel(const tc_format *f, uint64_t got, const mpfr_t x);
double oracle_correct_bits(const tc_format *f, uint64_t got, const mpfr_t x);

/* All three at once (cheaper: one exact difference). */
typedef struct {
    double ulps;   /* signed error in ulps of the output format at x */
    double rel;    /* relative error */
    double bits;   /* correct bits */
} oracle_err;
void oracle_err_of(const tc_format *f, uint64_t got, const mpfr_t x, oracle_err *e);

/* err[i] = the errors of got[i] against x[i], for i < n. */
void oracle_err_vec(const tc_format *f, size_t n, const uint64_t *got, const mpfr_t *x,
                    oracle_err *err);

/* Errors of a whole batch of result tiles D (layout of oracle_mma_exact,
 * format f.d) against the exact values of A*B + C: err[t*m*n + i*n + j].
 * Spread over all cores. */
void oracle_mma_err(oracle_formats f, int m, int n, int k, size_t ntiles,
                    const uint64_t *A, const uint64_t *B, const uint64_t *C,
                    const uint64_t *D, oracle_err *err);

/* Summary of a batch of errors. NaN errors are counted apart and left out of
 * the statistics; infinite errors are included (max becomes Inf). */
typedef struct {
    size_t n;              /* elements summarised */
    size_t n_nan;          /* elements with a NaN error (special-value mismatch) */
    size_t n_exact;        /* |ulps| == 0 */
    size_t n_half;         /* |ulps| <= 1/2 (what round-to-nearest guarantees) */
    size_t n_one;          /* |ulps| < 1 (what a faithful rounding guarantees) */
    double max_ulps;       /* max |ulps| */
    double median_ulps;    /* median |ulps| (mean of the two middle ones) */
    double mean_ulps;      /* mean |ulps| */
    double max_rel;        /* max relative error */
    double min_bits;       /* fewest correct bits */
} oracle_err_stats;
void oracle_err_summarize(const oracle_err *e, size_t n, oracle_err_stats *s);

#endif
