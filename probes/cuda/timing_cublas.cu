/* The library reference: cuBLASLt GEMM TFLOP/s on random data, cuBLASLt
 * loaded at run time (probes/cuda/cublaslt_load.h, shared with gemm_lt.cu)
 * so that tcscope starts (and runs everything else) on machines without it. */
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cublasLt.h>

#include "probes/cuda/cublaslt_load.h"
#include "probes/cuda/event_timing.cuh"
#include "probes/timing.h"

namespace {

__device__ __forceinline__ float uniform(size_t i, uint32_t seed)
{
    uint32_t x = (uint32_t)i * 2654435761u ^ seed;
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return (float)(x >> 8) * (2.0f / 16777216.0f) - 1.0f;   /* [-1, 1) */
}

template <class T> __global__ void fill(T *p, size_t n, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = (T)uniform(i, seed);
}

struct TypeInfo {
    cudaDataType_t ab, cd;
    cublasComputeType_t compute;
    size_t ab_bytes, cd_bytes;
};

bool type_info(const char *type, TypeInfo &t)
{
    if (!strcmp(type, "f16"))
        t = {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 2, 2};
    else if (!strcmp(type, "bf16"))
        t = {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 2, 2};
    else if (!strcmp(type, "tf32"))
        t = {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4};
    else if (!strcmp(type, "fp8"))
        t = {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 1, 2};
    else
        return false;
    return true;
}

bool fill_random(void *p, cudaDataType_t t, size_t n, uint32_t seed)
{
    switch (t) {
    case CUDA_R_16F: fill<<<1024, 256>>>((__half *)p, n, seed); break;
    case CUDA_R_16BF: fill<<<1024, 256>>>((__nv_bfloat16 *)p, n, seed); break;
    case CUDA_R_32F: fill<<<1024, 256>>>((float *)p, n, seed); break;
    case CUDA_R_8F_E4M3: fill<<<1024, 256>>>((__nv_fp8_e4m3 *)p, n, seed); break;
    default: return false;
    }
    return cudaGetLastError() == cudaSuccess;
}

} // namespace

extern "C" int tct_cublas_gemm(const char *type, int size, int reps, double *ms_mean, double *ms_min,
                               char *err, size_t errlen)
{
    static TcLt lt;
    if (!tc_lt_load(lt, err, errlen))
        return -1;
    TypeInfo ti;
    if (!type_info(type, ti)) {
        snprintf(err, errlen, "no cuBLAS reference for type '%s'", type);
        return -1;
    }
    const size_t n = (size_t)size * size;
    const size_t ws_bytes = 64u << 20;
    TcLtMatmul r(lt);   /* released on every return */
    int rc = -1;
    float alpha = 1.0f, beta = 0.0f;
    /* TN: A is stored K-major (transposed), the layout FP8 requires. */
    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    cublasLtMatmulHeuristicResult_t heur;
    int found = 0;
    double sum = 0, best = 1e300;

    if (cudaMalloc(&r.A, n * ti.ab_bytes) != cudaSuccess || cudaMalloc(&r.B, n * ti.ab_bytes) != cudaSuccess ||
        cudaMalloc(&r.D, n * ti.cd_bytes) != cudaSuccess || cudaMalloc(&r.ws, ws_bytes) != cudaSuccess) {
        snprintf(err, errlen, "cuBLAS %s: cudaMalloc failed", type);
        goto out;
    }
    if (!fill_random(r.A, ti.ab, n, 1) || !fill_random(r.B, ti.ab, n, 2) || cudaMemset(r.D, 0xff, n * ti.cd_bytes) != cudaSuccess) {
        snprintf(err, errlen, "cuBLAS %s: filling the inputs failed", type);
        goto out;
    }
    if (lt.create(&r.h) != CUBLAS_STATUS_SUCCESS || lt.descCreate(&r.op, ti.compute, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS ||
        lt.descSet(r.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta) != CUBLAS_STATUS_SUCCESS ||
        lt.descSet(r.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb) != CUBLAS_STATUS_SUCCESS ||
        lt.layoutCreate(&r.la, ti.ab, size, size, size) != CUBLAS_STATUS_SUCCESS ||
        lt.layoutCreate(&r.lb, ti.ab, size, size, size) != CUBLAS_STATUS_SUCCESS ||
        lt.layoutCreate(&r.ld, ti.cd, size, size, size) != CUBLAS_STATUS_SUCCESS ||
        lt.prefCreate(&r.pref) != CUBLAS_STATUS_SUCCESS ||
        lt.prefSet(r.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof ws_bytes) != CUBLAS_STATUS_SUCCESS) {
        snprintf(err, errlen, "cuBLAS %s: setting up the matmul failed", type);
        goto out;
    }
    if (lt.heuristic(r.h, r.op, r.la, r.lb, r.ld, r.ld, r.pref, 1, &heur, &found) != CUBLAS_STATUS_SUCCESS || found < 1) {
        snprintf(err, errlen, "cuBLAS %s: no algorithm for %d^3", type, size);
        goto out;
    }
    {
        std::vector<double> ms;
        auto launch = [&]() {
            cublasStatus_t s = r.run(&alpha, &beta, &heur.algo, ws_bytes);
            if (s != CUBLAS_STATUS_SUCCESS)
                snprintf(err, errlen, "cuBLAS %s: matmul failed (status %d)", type, (int)s);
            return s == CUBLAS_STATUS_SUCCESS;
        };
        if (tc_time_launches(3, reps, launch, &ms, type, err, errlen) != 0)   /* 3 warm-up runs */
            goto out;
        for (double x : ms) {
            sum += x;
            best = std::min(best, x);
        }
    }
    *ms_mean = sum / reps;
    *ms_min = best;
    rc = 0;
out:
    return rc;
}
