/* Internals shared by cases/gemm*.c; not a public API. */
#ifndef TC_GEMM_INTERNAL_H
#define TC_GEMM_INTERNAL_H

#include "cases/gemm.h"

/* calloc that never returns NULL: out of memory is a message and exit 2. */
void *gemm_alloc(size_t count, size_t size);

/* Row i of A (m x k) and column j of B (k x n) into a[k], b[k]. */
void gemm_gather(const uint32_t *A, const uint32_t *B, int n, int k, int i, int j, uint64_t *a, uint64_t *b);

/* tc_gemm_struct_dot for nout outputs at once (a, b: nout x k row-major),
 * the instruction steps spread over all cores (model_mma). */
void gemm_struct_dots(const tc_gemm_struct *s, const model *m, int k, size_t nout, const uint64_t *a,
                      const uint64_t *b, uint32_t *out);

/* The "structure" object of a case: the inferred structure, its tree, and
 * how many of the sampled outputs it predicts bit for bit. */
struct json_t *gemm_infer_and_predict(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c,
                                      const uint32_t *A, const uint32_t *B, size_t nout, const int *ii,
                                      const int *jj, const uint32_t *got);

#endif
