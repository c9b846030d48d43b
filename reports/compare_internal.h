/* Internals of compare (reports/compare.c: matching, audit, corpus, bench,
 * sweep, figure; reports/compare_cases.c: gemm and hunt; reports/compare_diffs.c:
 * the differences and the field tests below). Not a public header. */
#ifndef TC_COMPARE_INTERNAL_H
#define TC_COMPARE_INTERNAL_H

#include "reports/compare.h"

typedef struct {
    json_t *diffs;
    size_t n;
} cmp_diffs;

/* One difference: kind, key, field, old and new values (stolen, NULL:
 * null) and a message. */
void cmp_add(cmp_diffs *dl, const char *kind, const char *key, const char *field, json_t *oldv, json_t *newv,
             const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Short text of a JSON value for messages ("(absent)" for NULL). */
void cmp_show(const json_t *v, char *buf, size_t len);
json_t *cmp_copy(const json_t *v);
/* One field of a and b compared with json_equal; prefix names where it is. */
void cmp_exact(cmp_diffs *dl, const char *kind, const char *key, const char *prefix, const char *field,
               const json_t *a, const json_t *b);
/* The timing figures of a and b (latency, throughput, TFLOP/s) with the
 * threshold of tc_compare_threshold. */
void cmp_timing(cmp_diffs *dl, const char *kind, const char *key, const json_t *a, const json_t *b,
                const tc_compare_opts *o);

/* reports/compare_cases.c */
void cmp_gemm(cmp_diffs *dl, const char *key, const json_t *a, const json_t *b, const tc_compare_opts *o);
void cmp_hunt(cmp_diffs *dl, const char *key, const json_t *a, const json_t *b);

#endif
