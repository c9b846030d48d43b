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
 * f64, cached under key until app_reference_cache_clear: computed once per
 * data set and shared by every candidate that multiplies the same values.
 * Adds to st's references_s and references_computed, or references_shared. */
const double *app_reference(const char *key, const double *a, const double *b, int rows, int cols, int k,
                            app_stages *st);

/* The reference cached under key (counted in st->references_shared), or NULL. */
const double *app_reference_find(const char *key, app_stages *st);

void app_stats_of(const double *got, const double *ref, size_t n, app_stats *s);
/* r->vs_orig and r->vs_rounded of got against the two references, side by
 * side on two cores; the time added to r->stages.metrics_s. */
void app_stats_both(const double *got, const double *ref_o, const double *ref_r, size_t n, app_result *r);

#endif
