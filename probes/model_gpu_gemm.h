/* A GEMM's outputs from the instruction model, on the GPU: each output's
 * chain of tensor-core steps walked by one GPU thread (probes/cuda/
 * model_gpu_gemm.cu), with the model's integer arithmetic (oracle/
 * model_core.h) and the FP32 additions between runs and slices done in
 * integers too (probes/model_gpu_gemm_core.h): no floating-point
 * instruction. Without a GPU (g NULL) the same walk runs on the CPU's cores,
 * which is how tests check it where there is no GPU.
 *
 * The chain is what cases/gemm.h's tc_gemm_struct says, in plain numbers
 * (probes/ knows no cases/): K cut into slices; in a slice, runs of `run`
 * positions (0: the whole slice) from +0, `chunk` positions per step (D of
 * one step is C of the next); each run's FP32 result added (RNE) to the
 * slice's sum, the first taken as it is; the slices' sums met in FP32 in
 * K order, as a balanced pairwise tree, or from the last slice to the
 * first. */
#ifndef TC_MODEL_GPU_GEMM_H
#define TC_MODEL_GPU_GEMM_H

#include "probes/model_gpu.h"

#define TC_MGEMM_MAX_SLICES 64
/* TC_MGEMM_OTHER: an order the walk does not take (an XOR tree): the CPU's predictor meets those slices. */
enum { TC_MGEMM_OTHER = -1, TC_MGEMM_SEQ, TC_MGEMM_PAIRWISE, TC_MGEMM_REVERSE };

typedef struct {
    int chunk, run, nslices, combine;
    int bounds[TC_MGEMM_MAX_SLICES + 1];   /* slice t: [bounds[t], bounds[t + 1]), bounds[nslices] = k */
} tc_model_gemm_chain;

/* NULL when the walk computes m's chain ch over K k, else why the caller's
 * own (CPU) predictor must: operands over 31 bits, a step over
 * MODEL_ELEMENT_MAX_K positions, C or D not FP32, slices out of order,
 * slices met in an order the walk lacks (TC_MGEMM_OTHER). */
const char *tc_model_gpu_gemm_unsupported(const model *m, const tc_model_gemm_chain *ch, int k);

/* out[e] = D[ii[e]][jj[e]] for e < nout (ii NULL: every output of the
 * mrows x n GEMM, row-major, nout = mrows * n) of A (mrows x k) and B
 * (k x n), row-major element bits in m's operand formats, as chain ch and
 * model m compute them: on GPU g, or on the CPU when g is NULL. Adds to
 * *count. 0, -1 with err (a CUDA failure, or a chain tc_model_gpu_gemm_
 * unsupported refuses). */
int tc_model_gpu_gemm(tc_model_gpu *g, const model *m, const tc_model_gemm_chain *ch, int mrows, int n, int k,
                      const uint32_t *A, const uint32_t *B, size_t nout, const int *ii, const int *jj, uint32_t *out,
                      tc_model_gpu_count *count, char *err, size_t errlen);

#endif
