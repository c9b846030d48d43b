/* The instruction model on the GPU: model_mma's answers computed by one
 * GPU thread per output element, with the CPU's own integer arithmetic
 * (oracle/model_core.h, and for wide operands, f64, oracle/model_wide_core.h,
 * compiled for the device by probes/cuda/model_gpu.cu: no tensor-core and no
 * floating-point instruction, tools/model-gpu-sass.sh checks the SASS).
 *
 * What it does not compute goes to the CPU model, element by element or
 * whole, and is counted, so a record can say which model computed what:
 * K over MODEL_ELEMENT_MAX_K, and the rare element whose step spans more
 * bits than its limbs hold (the reference). Built without nvcc,
 * tc_model_gpu_open refuses with a message. */
#ifndef TC_MODEL_GPU_H
#define TC_MODEL_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oracle/model.h"

typedef struct tc_model_gpu tc_model_gpu;

/* Elements computed by each side since the counters were last cleared, and
 * where the time went: the copies to and from the GPU, the kernel, the CPU's
 * share (the elements above, on this thread). */
typedef struct {
    size_t gpu, cpu;
    double copy_s, kernel_s, cpu_s;
} tc_model_gpu_count;

/* GPU dev for model work; NULL with a message in err (no GPU, no nvcc). */
tc_model_gpu *tc_model_gpu_open(int dev, char *err, size_t errlen);
void tc_model_gpu_close(tc_model_gpu *g);
/* "gpu:N", for records; N. */
const char *tc_model_gpu_name(const tc_model_gpu *g);
int tc_model_gpu_device(const tc_model_gpu *g);

/* NULL when the GPU computes m's elements of K k, else why the CPU does. */
const char *tc_model_gpu_unsupported(const model *m, int k);

/* model_mma(m, mrows, ncols, k, ntiles, A, B, C, D) with the GPU doing what it
 * can (every element of m equal to model_mma's; tests/test_model_gpu.c and
 * tools/model-gpu-check.c). Adds to *count. 0, or -1 with err on a CUDA
 * failure (nothing in D is then valid). */
int tc_model_gpu_mma(tc_model_gpu *g, const model *m, int mrows, int ncols, int k, size_t ntiles,
                     const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D,
                     tc_model_gpu_count *count, char *err, size_t errlen);

/* tc_model_gpu_mma on tiles already on the GPU (device pointers; dD
 * receives the answers there, each declined element holding
 * TC_MODEL_GPU_DECLINED, probes/model_gpu_run.h, *declined of them, for the
 * caller to compute with model_dot and add to count->cpu). The caller has
 * checked tc_model_gpu_unsupported. Adds the GPU's elements and seconds to
 * *count. 0, or -1 with err. */
int tc_model_gpu_mma_dev(tc_model_gpu *g, const model *m, int mrows, int ncols, int k, size_t ntiles,
                         const uint64_t *dA, const uint64_t *dB, const uint64_t *dC, uint64_t *dD, size_t *declined,
                         tc_model_gpu_count *count, char *err, size_t errlen);
/* The same in two halves: _start launches the kernel (on a stream of its
 * own: the caller's GPU work, the instruction's run, goes on beside it),
 * _end waits for it, counts and says *declined; every _start has its _end
 * before the next. 0, or -1 with err. */
int tc_model_gpu_mma_dev_start(tc_model_gpu *g, const model *m, int mrows, int ncols, int k, size_t ntiles,
                               const uint64_t *dA, const uint64_t *dB, const uint64_t *dC, uint64_t *dD,
                               tc_model_gpu_count *count, char *err, size_t errlen);
int tc_model_gpu_mma_dev_end(tc_model_gpu *g, size_t *declined, tc_model_gpu_count *count, char *err,
                             size_t errlen);

/* The elements of D the kernel declined (holding TC_MODEL_GPU_DECLINED),
 * each computed by model_dot on every core, balanced over the elements;
 * *declined: how many. The CPU share of tc_model_gpu_mma, apart so that a
 * machine without a GPU tests it. 0, or -1 with err. */
int tc_model_gpu_finish(const model *m, int mrows, int ncols, int k, size_t ntiles, const uint64_t *A,
                        const uint64_t *B, const uint64_t *C, uint64_t *D, size_t *declined, char *err,
                        size_t errlen);

#endif
