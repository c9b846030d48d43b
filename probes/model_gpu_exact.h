/* The exact products of a GEMM's outputs, each rounded once to f64, on the
 * GPU: one thread per output sums its dot product exactly in integers
 * (oracle/exact_dot_core.h; probes/cuda/model_gpu_exact.cu), no
 * floating-point instruction; g NULL: the same code on the CPU's cores.
 * What choose compares every output of a GEMM with (cases/app.h), where
 * the MPFR oracle on the CPU bounds it to a sample. An output with a
 * non-finite operand is the oracle's (oracle_dot_exact), counted as the
 * CPU's. */
#ifndef TC_MODEL_GPU_EXACT_H
#define TC_MODEL_GPU_EXACT_H

#include "probes/model_gpu.h"

/* out[i * cols + j] = sum_q a[i * k + q] * b[j * k + q] (double bits; a:
 * rows x k, b: cols x k, each line contiguous) rounded to f64 (RNE), on
 * GPU g or (NULL) the CPU. Adds to *count. 0, -1 with err (a CUDA failure,
 * k over 2^20). */
int tc_model_gpu_exact_dots(tc_model_gpu *g, int rows, int cols, int k, const uint64_t *a, const uint64_t *b,
                            uint64_t *out, tc_model_gpu_count *count, char *err, size_t errlen);

#endif
