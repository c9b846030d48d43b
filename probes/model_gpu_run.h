/* The CUDA side of the GPU model (probes/cuda/model_gpu.cu), called by
 * probes/model_gpu.c only. Plain C types, so both compilers read it. */
#ifndef TC_MODEL_GPU_RUN_H
#define TC_MODEL_GPU_RUN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct model;
typedef struct tc_mgpu tc_mgpu;

/* What a declined element's D holds until the CPU computes it (any value
 * would do: the count, not the value, says an element was declined). */
#define TC_MODEL_GPU_DECLINED UINT64_C(0xDEC11DEDDEC11DED)

/* Seconds of a launch, added up: the copies to and from the GPU (the model
 * and the operands in, D out), and the kernel (launch to its end). */
typedef struct {
    double copy_s, kernel_s;
} tc_mgpu_times;

int tc_mgpu_open(int dev, tc_mgpu **out, char *err, size_t errlen);
void tc_mgpu_close(tc_mgpu *g);
/* ntiles tiles (row-major, as model_mma) through the kernel; order: the step
 * order (model_step_order) or NULL. *declined: elements left holding
 * TC_MODEL_GPU_DECLINED for the CPU; the launch's seconds added to *times.
 * 0 or -1 with err. */
int tc_mgpu_mma(tc_mgpu *g, const struct model *m, const int *order, int mrows, int ncols, int k, size_t ntiles,
                const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D, size_t *declined,
                tc_mgpu_times *times, char *err, size_t errlen);

/* tc_mgpu_mma on buffers already on the GPU (dD receives the answers there):
 * no operand copy, for a pipeline that keeps its tiles on the GPU. */
int tc_mgpu_mma_dev(tc_mgpu *g, const struct model *m, const int *order, int mrows, int ncols, int k,
                    size_t ntiles, const uint64_t *dA, const uint64_t *dB, const uint64_t *dC, uint64_t *dD,
                    size_t *declined, tc_mgpu_times *times, char *err, size_t errlen);
/* tc_mgpu_mma_dev in two halves, so the caller's own GPU work (the
 * instruction's run) goes on beside the kernel: _start copies the model and
 * launches the kernel on a stream of its own; _end waits for it (and must
 * come before the next _start). */
int tc_mgpu_mma_dev_start(tc_mgpu *g, const struct model *m, const int *order, int mrows, int ncols, int k,
                          size_t ntiles, const uint64_t *dA, const uint64_t *dB, const uint64_t *dC, uint64_t *dD,
                          tc_mgpu_times *times, char *err, size_t errlen);
int tc_mgpu_mma_dev_end(tc_mgpu *g, size_t *declined, tc_mgpu_times *times, char *err, size_t errlen);

/* The outputs of a GEMM (probes/model_gpu_gemm.h) on GPU dev under plan
 * (model_gpu_gemm_core.h): out[e] for e < nout (ii NULL: all of mrows x n);
 * flag[e] set (and counted in *declined) where the host must walk output e.
 * 0 or -1 with err. */
struct mgemm_plan;
int tc_mgpu_gemm(int dev, const struct model *m, const struct mgemm_plan *plan, int mrows, int n, int k,
                 const uint32_t *A, const uint32_t *B, size_t nout, const int *ii, const int *jj, uint32_t *out,
                 unsigned char *flag, size_t *declined, tc_mgpu_times *times, char *err, size_t errlen);

/* The exact outputs (probes/model_gpu_exact.h) on GPU dev: a rows x k,
 * bt k x cols (double bits, row-major), out rows x cols; flag[e] set (and
 * counted in *declined) where the host must compute output e. window: every
 * product lies in the 192-bit window whose bit 0 weighs 2^base
 * (exact_dot_f64_window; an output it refuses is summed in limbs). 0 or -1. */
int tc_mgpu_exact(int dev, const void *f64, int rows, int cols, int k, const uint64_t *a, const uint64_t *bt,
                  int window, int base, uint64_t *out, unsigned char *flag, size_t *declined,
                  tc_mgpu_times *times, char *err, size_t errlen);

/* A fit's counts (probes/cuda/model_gpu_fit.cu): n cases of K k (a and b
 * n x k row-major, c, the target's answers d) put on GPU dev once; then,
 * for nv candidate models (ms, each with its k-long step order in orders
 * and a flag in ordered; wide: every one a wide model), bad[i] the cases ms[i]
 * gets wrong among those the kernel computed, ndec[i] the ones it declined,
 * the first cap of these listed in at (candidate << 32 | case) and *nat of
 * them in all. 0 or -1 with err. */
typedef struct tc_mgpu_fit tc_mgpu_fit;
int tc_mgpu_fit_open(int dev, int k, size_t n, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                     const uint64_t *d, tc_mgpu_fit **out, char *err, size_t errlen);
int tc_mgpu_fit_count(tc_mgpu_fit *s, const struct model *ms, const int *orders, const unsigned char *ordered,
                      size_t nv, int wide, unsigned *bad, unsigned *ndec, uint64_t *at, size_t cap, size_t *nat,
                      tc_mgpu_times *times, char *err, size_t errlen);
void tc_mgpu_fit_close(tc_mgpu_fit *s);

#ifdef __cplusplus
}
#endif

#endif
