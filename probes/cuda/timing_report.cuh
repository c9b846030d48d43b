/* What every timing kernel (timing_mma, timing_wgmma, timing_wmma) writes
 * after its timed loop: the accumulators folded into one word per thread (so
 * the MMAs are live), each warp's clock at the start and end of the loop,
 * and the block's SM. */
#ifndef TC_TIMING_REPORT_CUH
#define TC_TIMING_REPORT_CUH

#include <cstdint>

namespace {
__device__ __forceinline__ void tct_report(uint32_t *out, long long *cyc, int *smid, uint32_t fold, long long t0,
                                           long long t1, int lane, int warp, int nwarps)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = fold;
    if (lane == 0) {
        cyc[2 * (blockIdx.x * nwarps + warp)] = t0;
        cyc[2 * (blockIdx.x * nwarps + warp) + 1] = t1;
    }
    if (threadIdx.x == 0) {
        int id;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
        smid[blockIdx.x] = id;
    }
}
} // namespace

#endif
