/* Exact GEMM outputs on the GPU (probes/model_gpu_exact.h): one thread per
 * output sums its dot product exactly in integers (oracle/exact_dot_core.h:
 * in a 192-bit window held in registers where the host found that every
 * product fits one, exact_dot_f64_window; else, or where an output's do not,
 * in limbs, exact_dot_f64) and rounds it once to f64; no floating-point
 * instruction (tools/model-gpu-sass.sh checks the kernel's SASS). Threads of
 * a block share a row of A and read consecutive columns of B (k x cols).
 * Every CUDA call is checked. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "oracle/exact_dot_core.h"
#include "probes/cuda/cuda_check.cuh"
#include "probes/model_gpu_run.h"
#include "probes/clock.h"

__constant__ mfmt c_f64;

#define EXACT_THREADS 128

/* Output (row0 + blockIdx.y, column blockIdx.x * 128 + x), in the 192-bit
 * window at base: in registers. An output whose products leave it is
 * flagged 2 and counted in *refused, for the limbs below. A kernel of its
 * own: the limbs' array would cost this one its registers. */
__global__ void tc_model_gpu_exact_kernel_window(int cols, int k, int row0, int base, const uint64_t *A,
                                                 const uint64_t *Bt, uint64_t *out, unsigned char *flag,
                                                 unsigned long long *refused)
{
    size_t j = (size_t)blockIdx.x * EXACT_THREADS + threadIdx.x;
    if (j >= (size_t)cols)
        return;
    size_t i = (size_t)row0 + blockIdx.y, o = (size_t)blockIdx.y * (size_t)cols + j;
    uint64_t d = 0;
    if (exact_dot_f64_window(&c_f64, k, A + i * (size_t)k, 1, Bt + j, (size_t)cols, base, &d) != 0) {
        atomicAdd(refused, 1ull);
        flag[o] = 2;
    }
    out[o] = d;
}

/* The same output in limbs (only those flagged 2 when only_refused); flag
 * 1 (counted in *declined) where a non-finite operand leaves it to the host. */
__global__ void tc_model_gpu_exact_kernel(int cols, int k, int row0, int only_refused, const uint64_t *A,
                                          const uint64_t *Bt, uint64_t *out, unsigned char *flag,
                                          unsigned long long *declined)
{
    size_t j = (size_t)blockIdx.x * EXACT_THREADS + threadIdx.x;
    if (j >= (size_t)cols)
        return;
    size_t i = (size_t)row0 + blockIdx.y, o = (size_t)blockIdx.y * (size_t)cols + j;
    if (only_refused && flag[o] != 2)
        return;
    uint64_t d = 0;
    flag[o] = 0;
    if (exact_dot_f64(&c_f64, k, A + i * (size_t)k, 1, Bt + j, (size_t)cols, &d) != 0) {
        atomicAdd(declined, 1ull);
        flag[o] = 1;
    }
    out[o] = d;
}

struct exact_bufs {
    void *A, *B, *out, *flag, *n, *refused;
    size_t cA, cB, cout, cflag;
    ~exact_bufs()
    {
        cudaFree(A), cudaFree(B), cudaFree(out), cudaFree(flag), cudaFree(n), cudaFree(refused);
    }
};

#define EXACT_LAUNCH_OUTPUTS ((size_t)1 << 24)

extern "C" int tc_mgpu_exact(int dev, const void *f64, int rows, int cols, int k, const uint64_t *a,
                             const uint64_t *bt, int window, int base, uint64_t *out, unsigned char *flag,
                             size_t *declined, tc_mgpu_times *times, char *err, size_t errlen)
{
    *declined = 0;
    if (tc_cuda_use_device(dev, err, errlen))
        return -1;
    exact_bufs g = {};
    double t0 = tc_now_s();
    CK(cudaMemcpyToSymbol(c_f64, f64, sizeof(mfmt)), "copy FP64's constants to the GPU");
    if (tc_cuda_put(&g.A, &g.cA, a, (size_t)rows * (size_t)k * 8, "copy A to the GPU", err, errlen) ||
        tc_cuda_put(&g.B, &g.cB, bt, (size_t)k * (size_t)cols * 8, "copy B to the GPU", err, errlen))
        return -1;
    CK(cudaMalloc(&g.n, sizeof(unsigned long long)), "cudaMalloc");
    CK(cudaMemset(g.n, 0, sizeof(unsigned long long)), "clear the count");
    CK(cudaMalloc(&g.refused, sizeof(unsigned long long)), "cudaMalloc");
    CK(cudaMemset(g.refused, 0, sizeof(unsigned long long)), "clear the count");
    unsigned long long refused = 0;   /* outputs the window refused so far */
    size_t per_rows = EXACT_LAUNCH_OUTPUTS / (size_t)cols;
    per_rows = per_rows < 1 ? 1 : per_rows > 65535 ? 65535 : per_rows;   /* gridDim.y */
    per_rows = per_rows < (size_t)rows ? per_rows : (size_t)rows;
    if (tc_cuda_grow(&g.out, &g.cout, per_rows * (size_t)cols * 8, err, errlen) ||
        tc_cuda_grow(&g.flag, &g.cflag, per_rows * (size_t)cols, err, errlen))
        return -1;
    CK(cudaDeviceSynchronize(), "the copies to the GPU");
    double t1 = tc_now_s(), kernel = 0, copies = t1 - t0;
    for (size_t r0 = 0; r0 < (size_t)rows; r0 += per_rows) {
        size_t nr = (size_t)rows - r0 < per_rows ? (size_t)rows - r0 : per_rows, ne = nr * (size_t)cols;
        CK(cudaMemset(g.flag, 0, ne), "clear the flags");
        double c1 = tc_now_s();
        dim3 grid((unsigned)((cols + EXACT_THREADS - 1) / EXACT_THREADS), (unsigned)nr);
        bool limbs = !window;
        if (window) {
            tc_model_gpu_exact_kernel_window<<<grid, EXACT_THREADS>>>(
                cols, k, (int)r0, base, (const uint64_t *)g.A, (const uint64_t *)g.B, (uint64_t *)g.out,
                (unsigned char *)g.flag, (unsigned long long *)g.refused);
            CK(cudaGetLastError(), "launch of the exact-output kernel (window)");
            unsigned long long now_refused = 0;
            CK(cudaMemcpy(&now_refused, g.refused, sizeof now_refused, cudaMemcpyDeviceToHost),
               "copy the count from the GPU");
            limbs = now_refused > refused;
            refused = now_refused;
        }
        if (limbs) {
            tc_model_gpu_exact_kernel<<<grid, EXACT_THREADS>>>(cols, k, (int)r0, window, (const uint64_t *)g.A,
                                                               (const uint64_t *)g.B, (uint64_t *)g.out,
                                                               (unsigned char *)g.flag, (unsigned long long *)g.n);
            CK(cudaGetLastError(), "launch of the exact-output kernel");
        }
        CK(cudaDeviceSynchronize(), "the exact-output kernel");
        double c2 = tc_now_s();
        CK(cudaMemcpy(out + r0 * (size_t)cols, g.out, ne * 8, cudaMemcpyDeviceToHost), "copy the outputs from the GPU");
        CK(cudaMemcpy(flag + r0 * (size_t)cols, g.flag, ne, cudaMemcpyDeviceToHost), "copy the flags from the GPU");
        kernel += c2 - c1;
        copies += tc_now_s() - c2;
    }
    unsigned long long nd = 0;
    CK(cudaMemcpy(&nd, g.n, sizeof nd, cudaMemcpyDeviceToHost), "copy the count from the GPU");
    times->copy_s += copies;
    times->kernel_s += kernel;
    *declined = (size_t)nd;
    return 0;
}
