/* The timing harness of warp-level mma (probes/cuda/timing_mma.cu, generated
 * by probes/isa/gen.py, holds one Op struct per catalogue instruction and
 * its kernels).
 *
 * One kernel per catalogue instruction and ILP (1..8 independent accumulators).
 * The timed loop runs UNROLL x ILP MMAs per iteration; each accumulator is a
 * dependent chain, so ILP 1 with one warp gives the completion latency.
 * probes/sass.c checks that the loop holds exactly UNROLL x ILP MMAs.
 */
#ifndef TC_TIMING_MMA_CUH
#define TC_TIMING_MMA_CUH

#include <cstdint>
#include <type_traits>
#include <cuda_runtime.h>

#include "probes/cuda/timing_report.cuh"
#include "probes/timing.h"

namespace {
constexpr int kUnroll = 4;

template <class Op> __device__ __forceinline__ void load_ab(typename Op::ab_t *v, int n, const uint32_t *in, int base)
{
    for (int i = 0; i < n; i++) {
        if constexpr (sizeof(typename Op::ab_t) == 8) {
            unsigned long long lo = in[(base + 2 * i) & (TCT_INPUT_WORDS - 1)], hi = in[(base + 2 * i + 1) & (TCT_INPUT_WORDS - 1)];
            v[i] = __longlong_as_double((long long)(lo | hi << 32));
        } else {
            v[i] = in[(base + i) & (TCT_INPUT_WORDS - 1)];
        }
    }
}

/* Adds a run-time zero to A's first register: the value is unchanged but the
 * compiler cannot prove it, so products with unchanging operands are not merged. */
template <class T> __device__ __forceinline__ void refresh(T &v, uint32_t z)
{
    if constexpr (sizeof(T) == 8)
        v = __longlong_as_double(__double_as_longlong(v) + z);
    else
        v += z;
}

template <class Op, int ILP>
__device__ __forceinline__ void mma_timed(const uint32_t *in, uint32_t *out, long long *cyc, int *smid, int iters, uint32_t z)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    typename Op::ab_t a[Op::NA], b[Op::NB];
    load_ab<Op>(a, Op::NA, in, (int)(blockIdx.x * blockDim.x + threadIdx.x) * 16);
    load_ab<Op>(b, Op::NB, in, (int)(blockIdx.x * blockDim.x + threadIdx.x) * 16 + 8);
    typename Op::c_t d[ILP][Op::NC];
#pragma unroll
    for (int j = 0; j < ILP; j++)
#pragma unroll
        for (int i = 0; i < Op::NC; i++)
            d[j][i] = 0;
    __syncthreads();
    long long t0 = clock64();
#pragma unroll 1
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int u = 0; u < kUnroll; u++)
#pragma unroll
            for (int j = 0; j < ILP; j++) {
                if constexpr (Op::kRefresh)
                    refresh(a[0], z);
                Op::mma(d[j], a, b);
            }
    }
    long long t1 = clock64();
    uint32_t fold = 0;
#pragma unroll
    for (int j = 0; j < ILP; j++)
#pragma unroll
        for (int i = 0; i < Op::NC; i++) {
            if constexpr (sizeof(typename Op::c_t) == 8)
                fold ^= (uint32_t)__double_as_longlong(d[j][i]);
            else if constexpr (std::is_floating_point<typename Op::c_t>::value)
                fold ^= __float_as_uint((float)d[j][i]);
            else
                fold ^= (uint32_t)d[j][i];
        }
    tct_report(out, cyc, smid, fold, t0, t1, lane, warp, nwarps);
}
} // namespace

#endif
