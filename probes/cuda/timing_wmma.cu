/* Timing kernels for wmma (the C++ fragment API), one per catalogue entry
 * and ILP 1..8: the same loop as timing_mma.cu (UNROLL x ILP mma_sync per
 * iteration, ILP independent accumulators). A 16x16 wmma is two m16n8 tensor
 * instructions by construction, so the SASS check expects 2 HMMA per
 * mma_sync (sass_per_mma). */
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include "probes/cuda/timing_report.cuh"
#include "probes/timing.h"

using namespace nvcuda;

namespace {

constexpr int kUnroll = 4;

template <int M, int N, int K, class AB, class C> struct WmmaOp {
    typedef wmma::fragment<wmma::matrix_a, M, N, K, AB, wmma::row_major> A;
    typedef wmma::fragment<wmma::matrix_b, M, N, K, AB, wmma::col_major> B;
    typedef wmma::fragment<wmma::accumulator, M, N, K, C> Acc;
};

template <class Op, int ILP>
__device__ __forceinline__ void wmma_timed(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters)
{
    /* 16x16 tiles of up to 4-byte elements, per warp; only timing depends on the values. */
    __shared__ __align__(128) uint32_t tile[32][16 * 16];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    for (int i = lane; i < 16 * 16; i += 32)
        tile[warp][i] = in[(blockIdx.x * 977 + warp * 256 + i) & (TCT_INPUT_WORDS - 1)];
    __syncwarp();
    typename Op::A a;
    typename Op::B b;
    wmma::load_matrix_sync(a, (const typename decltype(a)::storage_element_type *)tile[warp], 16);
    wmma::load_matrix_sync(b, (const typename decltype(b)::storage_element_type *)tile[warp], 16);
    typename Op::Acc d[ILP];
#pragma unroll
    for (int j = 0; j < ILP; j++)
        wmma::fill_fragment(d[j], 0);
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < kUnroll; u++)
#pragma unroll
            for (int j = 0; j < ILP; j++)
                wmma::mma_sync(d[j], a, b, d[j]);
    }
    long long t1 = clock64();
    uint32_t fold = 0;
#pragma unroll
    for (int j = 0; j < ILP; j++)
        for (int i = 0; i < d[j].num_elements; i++)
            fold ^= (uint32_t)(float)d[j].x[i];
    tct_report(out, cyc, smid, fold, t0, t1, lane, warp, nwarps);
}

typedef WmmaOp<16, 16, 16, half, half> OpF16F16;
typedef WmmaOp<16, 16, 16, half, float> OpF16F32;
typedef WmmaOp<16, 16, 16, __nv_bfloat16, float> OpBF16F32;
typedef WmmaOp<16, 16, 8, wmma::precision::tf32, float> OpTF32F32;

} // namespace

#define TCT_WMMA_KERNELS(ID, OP)                                                                           \
    extern "C" __global__ void tct_##ID##_i1(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 1>(in, out, cyc, smid, iters); } \
    extern "C" __global__ void tct_##ID##_i2(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 2>(in, out, cyc, smid, iters); } \
    extern "C" __global__ void tct_##ID##_i3(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 3>(in, out, cyc, smid, iters); } \
    extern "C" __global__ void tct_##ID##_i4(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 4>(in, out, cyc, smid, iters); } \
    extern "C" __global__ void tct_##ID##_i5(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 5>(in, out, cyc, smid, iters); } \
    extern "C" __global__ void tct_##ID##_i6(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 6>(in, out, cyc, smid, iters); } \
    extern "C" __global__ void tct_##ID##_i7(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 7>(in, out, cyc, smid, iters); } \
    extern "C" __global__ void tct_##ID##_i8(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z) { (void)z; wmma_timed<OP, 8>(in, out, cyc, smid, iters); }

TCT_WMMA_KERNELS(wmma_m16n16k16_f16_f16_f16_f16, OpF16F16)
TCT_WMMA_KERNELS(wmma_m16n16k16_f32_f16_f16_f32, OpF16F32)
TCT_WMMA_KERNELS(wmma_m16n16k16_f32_bf16_bf16_f32, OpBF16F32)
TCT_WMMA_KERNELS(wmma_m16n16k8_f32_tf32_tf32_f32, OpTF32F32)

#define TCT_WMMA_SET(NAME, ID, M, N, K)                                                                    \
    {NAME, "tct_" #ID, (long long)M * N * K, 32, kUnroll,                                                  \
     {(const void *)tct_##ID##_i1, (const void *)tct_##ID##_i2, (const void *)tct_##ID##_i3,               \
      (const void *)tct_##ID##_i4, (const void *)tct_##ID##_i5, (const void *)tct_##ID##_i6,               \
      (const void *)tct_##ID##_i7, (const void *)tct_##ID##_i8},                                           \
     nullptr, 2}

extern const tct_kernel_set tct_wmma_sets[];
extern const int tct_wmma_set_count;
const tct_kernel_set tct_wmma_sets[] = {
    TCT_WMMA_SET("wmma.m16n16k16.f16.f16.f16.f16", wmma_m16n16k16_f16_f16_f16_f16, 16, 16, 16),
    TCT_WMMA_SET("wmma.m16n16k16.f32.f16.f16.f32", wmma_m16n16k16_f32_f16_f16_f32, 16, 16, 16),
    TCT_WMMA_SET("wmma.m16n16k16.f32.bf16.bf16.f32", wmma_m16n16k16_f32_bf16_bf16_f32, 16, 16, 16),
    TCT_WMMA_SET("wmma.m16n16k8.f32.tf32.tf32.f32", wmma_m16n16k8_f32_tf32_tf32_f32, 16, 16, 8),
};
const int tct_wmma_set_count = (int)(sizeof tct_wmma_sets / sizeof tct_wmma_sets[0]);
