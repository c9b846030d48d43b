/* exact_acc: the exact fixed-point sum behind the oracle (private to oracle/).
 *
 * sum_k a[k]*b[k] + c over decoded values, held as sign * mag * 2^lsb with
 * mag a GMP limb vector wide enough for every bit of every term (the window
 * runs from the lowest to the highest bit of the terms actually present, so
 * f16 sums take two limbs and only far-apart f64 terms take many).
 */
#ifndef TC_EXACT_ACC_H
#define TC_EXACT_ACC_H

#include <stdbool.h>
#include <stdint.h>

#include <gmp.h>
#include <mpfr.h>

#include "formats/formats.h"
#include "oracle/oracle.h"

/* Limbs kept inline: 80 limbs = 5120 bits hold the widest f64 window (from
 * 2^-2148 to 2^2048, plus log2 K carry bits); anything wider goes to the heap. */
#define EXACT_INLINE_LIMBS 80

typedef struct {
    tc_class cls;        /* TC_ZERO, TC_FINITE, TC_INF or TC_NAN */
    bool sign;           /* sign of the result (also of zeros and Inf) */
    int64_t lsb;         /* exponent of bit 0 of mag */
    size_t n;            /* limbs of mag in use; mag[n-1] != 0 when finite */
    mp_limb_t *mag;      /* magnitude: points at buf or at heap */
    mp_limb_t *heap;     /* owned, or NULL */
    mp_limb_t buf[2 * EXACT_INLINE_LIMBS];
} exact_sum;

/* A decoded operand in the form the sum wants: for TC_FINITE, sig is odd
 * (trailing zeros moved into exp) and len is its bit length, so a product's
 * lowest and highest bits are known without touching the product. */
typedef struct {
    uint64_t sig;
    int32_t exp;
    uint8_t cls;     /* tc_class */
    uint8_t sign;
    uint8_t len;
} exact_val;

exact_val exact_val_of(tc_value v);
/* Decodes n elements of format f (no DAZ) into exact_val. */
void exact_load_n(const tc_format *f, const uint64_t *bits, size_t n, exact_val *out);

/* The exact sum of a[i*sa]*b[i*sb] for i < k, plus c (NULL: no C term).
 * `mode` only decides the sign of an exact zero (TC_RD: -0). */
void exact_dot(const exact_val *a, long sa, const exact_val *b, long sb, int k,
               const exact_val *c, tc_round mode, exact_sum *s);
void exact_sum_free(exact_sum *s);

/* The sum rounded once into f (top 64 bits + sticky through tc_encode). */
uint64_t exact_sum_round(const exact_sum *s, const tc_format *f, tc_rounding r);

/* The exact sum into out (precision raised to hold it). */
void exact_sum_to_mpfr(const exact_sum *s, mpfr_t out);

/* Runs fn(ctx, lo, hi) over [0, total) in contiguous chunks on
 * oracle_threads() threads; inline when work (a cost estimate) is small. */
void exact_parallel(size_t total, size_t work, void (*fn)(void *ctx, size_t lo, size_t hi),
                    void *ctx);
/* The same on `threads` threads (0: oracle_threads()): the model's own
 * setting (model_set_threads) for model_mma. */
void exact_parallel_on(int threads, size_t total, size_t work, void (*fn)(void *ctx, size_t lo, size_t hi),
                       void *ctx);

/* Every element of a batch of tiles (layout of oracle_mma_exact): visit is
 * called with the element's index t*m*n + i*n + j and its exact sum, from
 * several threads at once (distinct elements). */
typedef void (*exact_visit)(void *ctx, size_t e, const exact_sum *s);
void exact_mma_each(oracle_formats f, int m, int n, int k, size_t ntiles,
                    const uint64_t *A, const uint64_t *B, const uint64_t *C,
                    tc_round mode, exact_visit visit, void *ctx);

/* malloc that never returns NULL: out of memory is a one-line message and
 * exit status 2, never a crash. */
void *exact_xmalloc(size_t n);

/* Decodes n elements of format f (no DAZ). */
void exact_decode_n(const tc_format *f, const uint64_t *bits, size_t n, tc_value *out);

#endif
