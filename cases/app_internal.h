/* Internals shared by cases/app_eval.c (instruction chains) and
 * cases/app_lib.c (library paths); not a public API. */
#ifndef TC_APP_INTERNAL_H
#define TC_APP_INTERNAL_H

#include "cases/app.h"

double app_now_s(void);
/* calloc that never returns NULL: out of memory is a message and exit 2. */
void *app_calloc(size_t n, size_t size);

/* Quantizes `lines` vectors of length k (row i at x + i*k) into f's bits
 * with padded length kp (zeros beyond k), one scale per (line, block);
 * nblk > 1 only for block32. FP8 round saturating, wider formats overflow
 * to Inf and are never scaled (cases/app.h). */
void app_quantize(const tc_format *f, app_scaling sc, double tensor_amax, const double *x, int lines, int k, int kp,
                  int nblk, uint64_t *bits, double *scale);

/* The exact products of a (rows x k) and b (cols x k), each rounded once to
 * f64, cached under key until app_reference_cache_clear. */
const double *app_reference(const char *key, const double *a, const double *b, int rows, int cols, int k);

void app_stats_of(const double *got, const double *ref, size_t n, app_stats *s);

#endif
