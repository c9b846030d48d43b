/* chain: the exact yardsticks for chains of MMAs (tc_backend_chain, probes.h).
 *
 * A chain on M x K tiles, formats f (f.a: X, f.b: B_i, f.c: C_i, f.d: D_i):
 *     X_0 = A0;   D_i = X_{i-1} * B_i + C_i  (i = 1..len);   X_i = cvt(D_i) in f.a
 * B_i is K x K, C_i is M x K (or absent: zero). Two exact references:
 *  - per step: D_i's exact value from the X_{i-1} the backend really used
 *    (Xused): "error per step" = what the instruction itself got wrong;
 *  - whole chain: Y_i = Y_{i-1} * B_i + C_i from Y_0 = A0 with no rounding
 *    anywhere: "error of the chain" = everything, the conversions included.
 * The whole-chain value is held as integer matrices times a common power of
 * two (GMP), exact at any length; its width grows by about
 * (bits of B's entries + log2 K) per step.
 *
 * Batch layout (as tc_backend_chain): chain c of nchains, step i of len:
 *   A0[c][M][K]; B[c][i][K][K]; C[c][i][M][K] (C may be NULL);
 *   Xused[c][i][M][K] (= X_{i}, i.e. the input of step i+1); D[c][i][M][K].
 * Special values: an element whose exact value is Inf or NaN (from Inf/NaN
 * inputs, by the IEEE rules of oracle.h) stays so in later steps as IEEE
 * arithmetic would propagate it; exact zeros are +0.
 */
#ifndef TC_ORACLE_CHAIN_H
#define TC_ORACLE_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include <mpfr.h>

#include "formats/formats.h"
#include "oracle/oracle.h"

/* ---- one exact chain, step by step ---------------------------------------- */

typedef struct oracle_chain oracle_chain;

/* Starts Y_0 = A0 (m x k in f.a). NULL only if out of memory. */
oracle_chain *oracle_chain_new(oracle_formats f, int m, int k, const uint64_t *A0);
void oracle_chain_free(oracle_chain *ch);

/* Y = Y * B + C exactly (B: k x k in f.b; C: m x k in f.c, or NULL). */
void oracle_chain_step(oracle_chain *ch, const uint64_t *B, const uint64_t *C);
int oracle_chain_len(const oracle_chain *ch);   /* steps taken so far */

/* Element (i, j) of the current Y: exact value (out's precision is raised),
 * or rounded once into fmt. */
void oracle_chain_value(const oracle_chain *ch, int i, int j, mpfr_t out);
uint64_t oracle_chain_round(const oracle_chain *ch, int i, int j, const tc_format *fmt,
                            tc_rounding r);

/* Errors of m x k result bits D (format f.d) against the current Y. */
void oracle_chain_err(const oracle_chain *ch, const uint64_t *D, oracle_err *err);

/* ---- whole batches (all cores) ----------------------------------------------
 * Per-step and whole-chain errors of a backend's chain results; step or
 * chain may be NULL to skip that kind. Each is nchains * len * m * k,
 * laid out as D. */
void oracle_chain_errors(oracle_formats f, int m, int k, size_t nchains, int len,
                         const uint64_t *A0, const uint64_t *B, const uint64_t *C,
                         const uint64_t *Xused, const uint64_t *D,
                         oracle_err *step, oracle_err *chain);

/* The chain a correctly rounding tensor core would produce: each D_i the
 * correctly rounded (r) X_{i-1} * B_i + C_i, and X_i = D_i converted to f.a
 * with cvt (from D_i's bits, as the GPU does). Fills Xused and D as
 * tc_backend_chain would; either may be NULL. */
void oracle_chain_rounded(oracle_formats f, int m, int k, size_t nchains, int len,
                          const uint64_t *A0, const uint64_t *B, const uint64_t *C,
                          tc_rounding r, tc_rounding cvt, uint64_t *Xused, uint64_t *D);

#endif
