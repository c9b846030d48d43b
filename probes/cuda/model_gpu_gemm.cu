/* A GEMM's outputs from the instruction model on the GPU (probes/
 * model_gpu_gemm.h): one thread per output walks its chain of steps
 * (mgemm_output, probes/model_gpu_gemm_core.h), the model and the plan in
 * constant memory. Threads of a block share a row of A and read consecutive
 * columns of B. No index needs a division (the GPU divides integers through
 * its floating-point unit; tools/model-gpu-sass.sh checks this kernel's SASS
 * as it does model_gpu.cu's). Every CUDA call is checked. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "probes/cuda/cuda_check.cuh"
#include "probes/model_gpu_gemm_core.h"
#include "probes/model_gpu_run.h"
#include "probes/clock.h"

__constant__ model c_gemm_model;
__constant__ mgemm_plan c_plan;

#define GEMM_THREADS 128

/* Output (row0 + blockIdx.y, column blockIdx.x * 128 + x) of an n-column D,
 * or with lists: output e = blockIdx.x * 128 + x, at (ii[e], jj[e]). */
__global__ void tc_model_gpu_gemm_kernel(int n, int k, size_t nout, int row0, const int *ii, const int *jj,
                                         const uint32_t *A, const uint32_t *B, uint32_t *out, unsigned char *flag,
                                         unsigned long long *declined)
{
    size_t i, j, o;
    if (ii) {
        o = (size_t)blockIdx.x * GEMM_THREADS + threadIdx.x;
        if (o >= nout)
            return;
        i = (size_t)ii[o], j = (size_t)jj[o];
    } else {
        j = (size_t)blockIdx.x * GEMM_THREADS + threadIdx.x;
        if (j >= (size_t)n)
            return;
        i = (size_t)row0 + blockIdx.y;
        o = (size_t)blockIdx.y * (size_t)n + j;
    }
    uint32_t d = 0;
    if (mgemm_output(&c_gemm_model, &c_plan, A + i * (size_t)k, B + j, (size_t)n, &d) != 0) {
        atomicAdd(declined, 1ull);
        flag[o] = 1;
    }
    out[o] = d;
}

/* The device buffers of one call, freed on every return. */
struct gemm_bufs {
    void *A, *B, *ii, *jj, *out, *flag, *n;
    size_t cA, cB, cii, cjj, cout, cflag;
    ~gemm_bufs()
    {
        cudaFree(A), cudaFree(B), cudaFree(ii), cudaFree(jj), cudaFree(out), cudaFree(flag), cudaFree(n);
    }
};

/* Launches of at most 2^24 outputs: bounded device memory for D and a
 * bounded time for each kernel. */
#define GEMM_LAUNCH_OUTPUTS ((size_t)1 << 24)

extern "C" int tc_mgpu_gemm(int dev, const model *m, const mgemm_plan *plan, int mrows, int n, int k,
                            const uint32_t *A, const uint32_t *B, size_t nout, const int *ii, const int *jj,
                            uint32_t *out, unsigned char *flag, size_t *declined, tc_mgpu_times *times, char *err,
                            size_t errlen)
{
    *declined = 0;
    if (nout == 0)
        return 0;
    if (tc_cuda_use_device(dev, err, errlen))
        return -1;
    gemm_bufs g = {};
    double t0 = tc_now_s();
    CK(cudaMemcpyToSymbol(c_gemm_model, m, sizeof *m), "copy the model to the GPU");
    CK(cudaMemcpyToSymbol(c_plan, plan, sizeof *plan), "copy the GEMM plan to the GPU");
    if (tc_cuda_put(&g.A, &g.cA, A, (size_t)mrows * (size_t)k * 4, "copy A to the GPU", err, errlen) ||
        tc_cuda_put(&g.B, &g.cB, B, (size_t)k * (size_t)n * 4, "copy B to the GPU", err, errlen))
        return -1;
    CK(cudaMalloc(&g.n, sizeof(unsigned long long)), "cudaMalloc");
    CK(cudaMemset(g.n, 0, sizeof(unsigned long long)), "clear the count");
    /* rows of D per launch (all outputs), or outputs per launch (lists) */
    size_t rows = GEMM_LAUNCH_OUTPUTS / (size_t)n;
    rows = rows > 65535 ? 65535 : rows;   /* gridDim.y */
    size_t per = ii ? GEMM_LAUNCH_OUTPUTS : (rows ? rows : 1) * (size_t)n;
    per = per < nout ? per : nout;
    if (tc_cuda_grow(&g.out, &g.cout, per * 4, err, errlen) || tc_cuda_grow(&g.flag, &g.cflag, per, err, errlen))
        return -1;
    if (ii && (tc_cuda_grow(&g.ii, &g.cii, per * sizeof(int), err, errlen) ||
               tc_cuda_grow(&g.jj, &g.cjj, per * sizeof(int), err, errlen)))
        return -1;
    CK(cudaDeviceSynchronize(), "the copies to the GPU");
    double t1 = tc_now_s(), kernel = 0;
    for (size_t e0 = 0; e0 < nout; e0 += per) {
        size_t ne = nout - e0 < per ? nout - e0 : per;
        double c0 = tc_now_s();
        if (ii) {
            CK(cudaMemcpy(g.ii, ii + e0, ne * sizeof(int), cudaMemcpyHostToDevice), "copy the rows to the GPU");
            CK(cudaMemcpy(g.jj, jj + e0, ne * sizeof(int), cudaMemcpyHostToDevice), "copy the columns to the GPU");
        }
        CK(cudaMemset(g.flag, 0, ne), "clear the flags");
        CK(cudaDeviceSynchronize(), "the copies to the GPU");
        double c1 = tc_now_s();
        dim3 grid = ii ? dim3((unsigned)((ne + GEMM_THREADS - 1) / GEMM_THREADS))
                       : dim3((unsigned)((n + GEMM_THREADS - 1) / GEMM_THREADS), (unsigned)(ne / (size_t)n));
        tc_model_gpu_gemm_kernel<<<grid, GEMM_THREADS>>>(n, k, ne, ii ? 0 : (int)(e0 / (size_t)n),
                                                         (const int *)g.ii, (const int *)g.jj,
                                                         (const uint32_t *)g.A, (const uint32_t *)g.B,
                                                         (uint32_t *)g.out, (unsigned char *)g.flag,
                                                         (unsigned long long *)g.n);
        CK(cudaGetLastError(), "launch of the GEMM model kernel");
        CK(cudaDeviceSynchronize(), "the GEMM model kernel");
        double c2 = tc_now_s();
        CK(cudaMemcpy(out + e0, g.out, ne * 4, cudaMemcpyDeviceToHost), "copy D from the GPU");
        CK(cudaMemcpy(flag + e0, g.flag, ne, cudaMemcpyDeviceToHost), "copy the flags from the GPU");
        times->copy_s += (c1 - c0) + (tc_now_s() - c2);
        kernel += c2 - c1;
    }
    unsigned long long nd = 0;
    CK(cudaMemcpy(&nd, g.n, sizeof nd, cudaMemcpyDeviceToHost), "copy the count from the GPU");
    times->copy_s += t1 - t0;
    times->kernel_s += kernel;
    *declined = (size_t)nd;
    return 0;
}
