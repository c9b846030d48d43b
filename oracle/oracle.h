/* oracle: the exact answer to D = A*B + C, and error metrics against it.
 *
 * Every product and sum is exact (GMP fixed point / MPFR); the result is
 * rounded once into the output format. The tensor-core model lives beside it
 * in oracle/model.h; value parsing in oracle/value.h.
 */
#ifndef TC_ORACLE_H
#define TC_ORACLE_H

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

/* The same, rounded once into f.d with r: the correctly rounded result. */
uint64_t oracle_dot_exact(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                          uint64_t c, tc_rounding r);

/* A whole tile, D[i][j] = sum_kk A[i][kk]*B[kk][j] + C[i][j] (row-major, as in
 * probes.h), spread over all cores for large batches. */
void oracle_mma_exact(oracle_formats f, int m, int n, int k, size_t ntiles,
                      const uint64_t *A, const uint64_t *B, const uint64_t *C,
                      uint64_t *D, tc_rounding r);

/* Rounds an exact MPFR value once into a format (no double rounding). */
uint64_t oracle_round(const tc_format *f, const mpfr_t x, tc_rounding r);

/* Error of result bits `got` (format f) against the exact value x:
 * in ulps of f at x (exact, then given as double), relative, and correct bits
 * (-log2 of the relative error, capped at the format's precision + 1). */
double oracle_err_ulps(const tc_format *f, uint64_t got, const mpfr_t x);
double oracle_err_rel(const tc_format *f, uint64_t got, const mpfr_t x);
double oracle_correct_bits(const tc_format *f, uint64_t got, const mpfr_t x);

#endif
