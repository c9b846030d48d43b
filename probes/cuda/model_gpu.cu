/* The instruction model on the GPU (probes/model_gpu.h): one thread per
 * output element runs model_element_int128 (oracle/model_core.h), the
 * arithmetic the CPU's int128 path runs, compiled here for the device; for
 * a wide model (f64 operands) a kernel of its own runs model_element_wide
 * (oracle/model_wide_core.h), the CPU's model_dot_wide, so that its limbs
 * cost the int128 kernel no registers.
 *
 * A block is (ncols, rows) threads of one tile and blockIdx.x the tile, so
 * no index needs a division (the GPU divides integers through its
 * floating-point unit, and the SASS of this kernel must hold no
 * floating-point instruction: tools/model-gpu-sass.sh). The model and the
 * step order sit in constant memory, read the same by every thread. Every
 * CUDA call is checked. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "oracle/model_internal.h"
#include "oracle/model_wide_core.h"
#include "probes/cuda/cuda_check.cuh"
#include "probes/model_gpu_run.h"
#include "probes/clock.h"

__constant__ model c_model;
__constant__ int c_order[MODEL_ELEMENT_MAX_K];

/* This thread's element: tile blockIdx.x (of ntiles in this launch), row i,
 * column j: its index o in C and D, its row of A and column of B (stride
 * ncols); false for a thread past the tile. */
static __device__ __forceinline__ bool tc_mgpu_element(int mrows, int ncols, int k, const uint64_t *A,
                                                       const uint64_t *B, size_t *o, const uint64_t **a,
                                                       const uint64_t **b)
{
    int i = (int)(blockIdx.y * blockDim.y + threadIdx.y), j = (int)threadIdx.x;
    if (i >= mrows || j >= ncols)
        return false;
    size_t t = blockIdx.x, mn = (size_t)mrows * (size_t)ncols;
    *o = t * mn + (size_t)i * (size_t)ncols + (size_t)j;
    *a = A + t * (size_t)mrows * (size_t)k + (size_t)i * (size_t)k;
    *b = B + t * (size_t)k * (size_t)ncols + (size_t)j;
    return true;
}

/* Each element's D, and a flag for the elements the CPU must compute
 * (model_int128_steps said -1). */
__global__ void tc_model_gpu_kernel(int mrows, int ncols, int k, int ordered, const uint64_t *A,
                                    const uint64_t *B, const uint64_t *C, uint64_t *D,
                                    unsigned long long *declined)
{
    size_t o;
    const uint64_t *a, *b;
    if (!tc_mgpu_element(mrows, ncols, k, A, B, &o, &a, &b))
        return;
    uint64_t d = 0;
    if (model_element_int128(&c_model, k, a, 1, b, (size_t)ncols, C[o], ordered ? c_order : NULL, &d) != 0) {
        atomicAdd(declined, 1ull);
        d = TC_MODEL_GPU_DECLINED;
    }
    D[o] = d;
}

/* The same for a wide model (m->wide): model_element_wide declines (-1)
 * only a step wider than MODEL_WIDE_LIMBS, which no f64 step is. */
__global__ void tc_model_gpu_wide_kernel(int mrows, int ncols, int k, int ordered, const uint64_t *A,
                                         const uint64_t *B, const uint64_t *C, uint64_t *D,
                                         unsigned long long *declined)
{
    size_t o;
    const uint64_t *a, *b;
    if (!tc_mgpu_element(mrows, ncols, k, A, B, &o, &a, &b))
        return;
    uint64_t d = 0;
    if (model_element_wide(&c_model, k, a, 1, b, (size_t)ncols, C[o], ordered ? c_order : NULL, &d) != 0) {
        atomicAdd(declined, 1ull);
        d = TC_MODEL_GPU_DECLINED;
    }
    D[o] = d;
}

struct tc_mgpu {
    int dev;
    cudaStream_t st;       /* tc_mgpu_mma_dev_start's launches (made on first use) */
    bool has_st;
    double started;        /* when the running launch started */
    model hm;              /* the running launch's model and step order, the sources of its */
    int horder[MODEL_ELEMENT_MAX_K];   /* constants' copies (kept until the next start) */
    void *dA, *dB, *dC, *dD;
    unsigned long long *dN;
    size_t capA, capB, capC, capD;
};

extern "C" int tc_mgpu_open(int dev, tc_mgpu **out, char *err, size_t errlen)
{
    if (tc_cuda_use_device(dev, err, errlen))
        return -1;
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, tc_model_gpu_kernel), "no machine code for this GPU (cudaFuncGetAttributes)");
    CK(cudaFuncGetAttributes(&fa, tc_model_gpu_wide_kernel), "no machine code for this GPU (cudaFuncGetAttributes)");
    tc_mgpu *g = (tc_mgpu *)calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "GPU model: out of memory");
        return -1;
    }
    g->dev = dev;
    cudaError_t e = cudaMalloc((void **)&g->dN, sizeof *g->dN);
    if (e != cudaSuccess) {
        free(g);
        return tc_cuda_fail(err, errlen, "cudaMalloc", e);
    }
    *out = g;
    return 0;
}

extern "C" void tc_mgpu_close(tc_mgpu *g)
{
    if (!g)
        return;
    cudaSetDevice(g->dev);
    cudaFree(g->dA);
    cudaFree(g->dB);
    cudaFree(g->dC);
    cudaFree(g->dD);
    cudaFree(g->dN);
    if (g->has_st) {
        cudaStreamSynchronize(g->st);
        cudaStreamDestroy(g->st);
    }
    free(g);
}

/* The kernel (the wide one for a wide model) over ntiles tiles on device
 * buffers, launched on stream st (and run to its end there when `wait`). */
static int launch_model(bool wide, int mrows, int ncols, int k, size_t ntiles, int ordered, const uint64_t *dA,
                        const uint64_t *dB, const uint64_t *dC, uint64_t *dD, unsigned long long *dN,
                        cudaStream_t st, bool wait, char *err, size_t errlen)
{
    /* about 256 threads a block: whole rows of one tile */
    int rows = 256 / ncols < 1 ? 1 : 256 / ncols;
    rows = rows > mrows ? mrows : rows;
    dim3 block((unsigned)ncols, (unsigned)rows), grid((unsigned)ntiles, (unsigned)((mrows + rows - 1) / rows));
    if (wide)
        tc_model_gpu_wide_kernel<<<grid, block, 0, st>>>(mrows, ncols, k, ordered, dA, dB, dC, dD, dN);
    else
        tc_model_gpu_kernel<<<grid, block, 0, st>>>(mrows, ncols, k, ordered, dA, dB, dC, dD, dN);
    CK(cudaGetLastError(), "launch of the model kernel");
    /* the stream's end, not the device's: another stream's work (the GPU
     * hunt's next draws, cases/cuda/hunt_gpu.cu) runs on */
    if (wait)
        CK(cudaStreamSynchronize(st), "the model kernel");
    return 0;
}

extern "C" int tc_mgpu_mma(tc_mgpu *g, const model *m, const int *order, int mrows, int ncols, int k,
                           size_t ntiles, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D,
                           size_t *declined, tc_mgpu_times *times, char *err, size_t errlen)
{
    if (k < 1 || k > MODEL_ELEMENT_MAX_K || mrows < 1 || ncols < 1 || ncols > 1024 || ntiles > 0x7FFFFFFFu) {
        snprintf(err, errlen, "GPU model: shape %dx%dx%d x %zu tiles outside what the kernel takes (internal error)",
                 mrows, ncols, k, ntiles);
        return -1;
    }
    *declined = 0;
    if (ntiles == 0)
        return 0;
    CK(cudaSetDevice(g->dev), "cudaSetDevice");
    size_t ba = ntiles * (size_t)mrows * (size_t)k * 8, bb = ntiles * (size_t)k * (size_t)ncols * 8,
           bc = ntiles * (size_t)mrows * (size_t)ncols * 8;
    double t0 = tc_now_s();
    CK(cudaMemcpyToSymbol(c_model, m, sizeof *m), "copy the model to the GPU");
    if (order)
        CK(cudaMemcpyToSymbol(c_order, order, (size_t)k * sizeof *order), "copy the step order to the GPU");
    if (tc_cuda_put(&g->dA, &g->capA, A, ba, "copy A to the GPU", err, errlen) ||
        tc_cuda_put(&g->dB, &g->capB, B, bb, "copy B to the GPU", err, errlen) ||
        tc_cuda_put(&g->dC, &g->capC, C, bc, "copy C to the GPU", err, errlen) ||
        tc_cuda_grow(&g->dD, &g->capD, bc, err, errlen))
        return -1;
    CK(cudaMemset(g->dN, 0, sizeof *g->dN), "clear the count");
    CK(cudaDeviceSynchronize(), "the copies to the GPU");
    double t1 = tc_now_s();
    if (launch_model(m->wide, mrows, ncols, k, ntiles, order != NULL, (const uint64_t *)g->dA, (const uint64_t *)g->dB,
                     (const uint64_t *)g->dC, (uint64_t *)g->dD, g->dN, 0, true, err, errlen))
        return -1;
    double t2 = tc_now_s();
    unsigned long long n = 0;
    CK(cudaMemcpy(&n, g->dN, sizeof n, cudaMemcpyDeviceToHost), "copy the count from the GPU");
    CK(cudaMemcpy(D, g->dD, bc, cudaMemcpyDeviceToHost), "copy D from the GPU");
    double t3 = tc_now_s();
    times->copy_s += (t1 - t0) + (t3 - t2);
    times->kernel_s += t2 - t1;
    *declined = (size_t)n;
    return 0;
}

extern "C" int tc_mgpu_mma_dev_start(tc_mgpu *g, const model *m, const int *order, int mrows, int ncols, int k,
                                     size_t ntiles, const uint64_t *dA, const uint64_t *dB, const uint64_t *dC,
                                     uint64_t *dD, tc_mgpu_times *times, char *err, size_t errlen)
{
    if (k < 1 || k > MODEL_ELEMENT_MAX_K || mrows < 1 || ncols < 1 || ncols > 1024 || ntiles < 1 ||
        ntiles > 0x7FFFFFFFu) {
        snprintf(err, errlen, "GPU model: shape %dx%dx%d x %zu tiles outside what the kernel takes (internal error)",
                 mrows, ncols, k, ntiles);
        return -1;
    }
    CK(cudaSetDevice(g->dev), "cudaSetDevice");
    if (!g->has_st) {
        CK(cudaStreamCreateWithFlags(&g->st, cudaStreamNonBlocking), "a stream for the GPU model");
        g->has_st = true;
    }
    double t0 = tc_now_s();
    /* the launch before has ended (its _end): the constants are free to change */
    CK(cudaStreamSynchronize(g->st), "the model kernel before");
    /* on the launch's own stream: cudaMemcpyToSymbol from pageable memory
     * may return before its DMA lands, ordered only with the legacy default
     * stream, so a kernel on this non-blocking stream could read the last
     * instruction's model (seen on an H200 under sixteen processes: whole
     * rounds compared against the wrong model). Its sources are g's own
     * copies, kept until the next start. */
    g->hm = *m;
    CK(cudaMemcpyToSymbolAsync(c_model, &g->hm, sizeof g->hm, 0, cudaMemcpyHostToDevice, g->st),
       "copy the model to the GPU");
    if (order) {
        memcpy(g->horder, order, (size_t)k * sizeof *order);
        CK(cudaMemcpyToSymbolAsync(c_order, g->horder, (size_t)k * sizeof *order, 0, cudaMemcpyHostToDevice, g->st),
           "copy the step order to the GPU");
    }
    CK(cudaMemsetAsync(g->dN, 0, sizeof *g->dN, g->st), "clear the count");
    g->started = tc_now_s();
    times->copy_s += g->started - t0;
    return launch_model(m->wide, mrows, ncols, k, ntiles, order != NULL, dA, dB, dC, dD, g->dN, g->st, false, err, errlen);
}

extern "C" int tc_mgpu_mma_dev_end(tc_mgpu *g, size_t *declined, tc_mgpu_times *times, char *err, size_t errlen)
{
    CK(cudaSetDevice(g->dev), "cudaSetDevice");
    CK(cudaStreamSynchronize(g->st), "the model kernel");
    double t1 = tc_now_s();
    unsigned long long n = 0;
    CK(cudaMemcpy(&n, g->dN, sizeof n, cudaMemcpyDeviceToHost), "copy the count from the GPU");
    times->kernel_s += t1 - g->started;
    times->copy_s += tc_now_s() - t1;
    *declined = (size_t)n;
    return 0;
}

extern "C" int tc_mgpu_mma_dev(tc_mgpu *g, const model *m, const int *order, int mrows, int ncols, int k,
                               size_t ntiles, const uint64_t *dA, const uint64_t *dB, const uint64_t *dC,
                               uint64_t *dD, size_t *declined, tc_mgpu_times *times, char *err, size_t errlen)
{
    *declined = 0;
    if (ntiles == 0)
        return 0;
    return tc_mgpu_mma_dev_start(g, m, order, mrows, ncols, k, ntiles, dA, dB, dC, dD, times, err, errlen) ||
                   tc_mgpu_mma_dev_end(g, declined, times, err, errlen)
               ? -1
               : 0;
}
