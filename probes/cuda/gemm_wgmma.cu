/* tcscope's own GEMM on wgmma (sm_90a), beside the cuBLASLt paths of
 * tcscope gemm (probes/gemm.h): D = A * B, FP32 accumulate and output, on
 * f16 or e4m3 inputs. Its accumulation structure is known by construction
 * (cases/gemm_case.c records it), so the structure inference can be checked on
 * a GEMM whose answer we know:
 *   - a CTA of two warpgroups computes a 128 x 128 tile of D; warpgroup w
 *     its rows 64w .. 64w+63 with wgmma.m64n128k16.f32.f16.f16 (f16) or
 *     wgmma.m64n128k32.f32.e4m3.e4m3 (e4m3): 32 bytes of K per instruction;
 *   - one accumulator per output over all of K, in K order: the registers
 *     start at +0 and every wgmma adds (scale-d 1); no split-K, no
 *     promotion, no reduction across CTAs;
 *   - K is staged 128 bytes at a time (64 f16, 128 e4m3) into shared memory
 *     with cp.async (16 B, zero-filled past M, N or K), four stages, two
 *     tiles loaded ahead; A and B^T are K-major in the 128-byte swizzle the
 *     descriptors name; a tile's last wgmmas stop at K (never a zero step).
 * Every CUDA call is checked; the first launch's outputs are returned, then
 * warm-up and timed launches (cudaEvent, median) as gemm_lt.cu does. */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>
#include <cuda_runtime.h>

#include "probes/cuda/event_timing.cuh"
#include "probes/cuda/gemm_check.cuh"
#include "probes/gemm.h"

namespace {

constexpr int BM = 128, BN = 128;        /* CTA tile of D */
constexpr int ROWB = 128;                /* bytes of K a stage holds per row: one 128-byte swizzle row */
constexpr int STAGES = 4, AHEAD = STAGES - 2;
constexpr int THREADS = 256;             /* two warpgroups */
constexpr int TILE_BYTES = BM * ROWB;    /* A tile; B's (BN rows) is the same size */
constexpr int STAGE_BYTES = 2 * TILE_BYTES;
constexpr int SMEM_BYTES = STAGES * STAGE_BYTES + 1024;   /* + 1024: the base aligned to the swizzle atom */
constexpr int STEP_BYTES = 32;           /* K bytes of one wgmma (k16 f16, k32 e4m3) */
static_assert(BM == BN, "the loader stages A and B tiles of the same shape");

/* Shared-memory matrix descriptor (PTX ISA "matrix-descriptor-format"),
 * K-major with the 128-byte swizzle: rows of 128 B, 8-row groups 1024 B
 * apart (SBO); LBO is unused in this mode (1, as CUTLASS sets it). A step
 * along K inside the row moves the start address by 32 B (CUTLASS does the
 * same); tiles are 1024-byte aligned so the base offset is 0. */
__device__ __forceinline__ uint64_t desc_sw128(uint32_t addr)
{
    uint64_t d = (uint64_t)((addr & 0x3FFFF) >> 4);
    d |= (uint64_t)1 << 16;
    d |= (uint64_t)(1024 >> 4) << 32;
    d |= (uint64_t)1 << 62;
    return d;
}

/* Byte (r, c) of a 128-byte-swizzled tile: the 16-byte chunk c/16 of row r
 * is stored at chunk (c/16) ^ (r % 8). */
__device__ __forceinline__ uint32_t swz(int r, int chunk)
{
    return (uint32_t)(r * ROWB + ((chunk ^ (r & 7)) << 4));
}

/* 16 bytes global -> shared; src_bytes 0 fills zeros (outside the matrix). */
__device__ __forceinline__ void cp16(uint32_t dst, const void *src, bool valid)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(valid ? 16 : 0)
                 : "memory");
}

/* Keeps the compiler from moving accumulator accesses into the wgmma
 * pipeline (as timing_wgmma.cuh, CUTLASS's warpgroup_fence_operand). */
__device__ __forceinline__ void fence_acc(float *d)
{
#pragma unroll
    for (int i = 0; i < 64; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

struct MmaF16 {
    static __device__ __forceinline__ void mma(float *d, uint64_t da, uint64_t db)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, p, 1, 1, 0, 0;\n}\n"
                     : "+f"(d[0]),"+f"(d[1]),"+f"(d[2]),"+f"(d[3]),"+f"(d[4]),"+f"(d[5]),"+f"(d[6]),"+f"(d[7]),"+f"(d[8]),"+f"(d[9]),"+f"(d[10]),"+f"(d[11]),"+f"(d[12]),"+f"(d[13]),"+f"(d[14]),"+f"(d[15]),"+f"(d[16]),"+f"(d[17]),"+f"(d[18]),"+f"(d[19]),"+f"(d[20]),"+f"(d[21]),"+f"(d[22]),"+f"(d[23]),"+f"(d[24]),"+f"(d[25]),"+f"(d[26]),"+f"(d[27]),"+f"(d[28]),"+f"(d[29]),"+f"(d[30]),"+f"(d[31]),"+f"(d[32]),"+f"(d[33]),"+f"(d[34]),"+f"(d[35]),"+f"(d[36]),"+f"(d[37]),"+f"(d[38]),"+f"(d[39]),"+f"(d[40]),"+f"(d[41]),"+f"(d[42]),"+f"(d[43]),"+f"(d[44]),"+f"(d[45]),"+f"(d[46]),"+f"(d[47]),"+f"(d[48]),"+f"(d[49]),"+f"(d[50]),"+f"(d[51]),"+f"(d[52]),"+f"(d[53]),"+f"(d[54]),"+f"(d[55]),"+f"(d[56]),"+f"(d[57]),"+f"(d[58]),"+f"(d[59]),"+f"(d[60]),"+f"(d[61]),"+f"(d[62]),"+f"(d[63])
                     : "l"(da), "l"(db));
    }
};

struct MmaE4M3 {
    static __device__ __forceinline__ void mma(float *d, uint64_t da, uint64_t db)
    {
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                     "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63}, %64, %65, p, 1, 1;\n}\n"
                     : "+f"(d[0]),"+f"(d[1]),"+f"(d[2]),"+f"(d[3]),"+f"(d[4]),"+f"(d[5]),"+f"(d[6]),"+f"(d[7]),"+f"(d[8]),"+f"(d[9]),"+f"(d[10]),"+f"(d[11]),"+f"(d[12]),"+f"(d[13]),"+f"(d[14]),"+f"(d[15]),"+f"(d[16]),"+f"(d[17]),"+f"(d[18]),"+f"(d[19]),"+f"(d[20]),"+f"(d[21]),"+f"(d[22]),"+f"(d[23]),"+f"(d[24]),"+f"(d[25]),"+f"(d[26]),"+f"(d[27]),"+f"(d[28]),"+f"(d[29]),"+f"(d[30]),"+f"(d[31]),"+f"(d[32]),"+f"(d[33]),"+f"(d[34]),"+f"(d[35]),"+f"(d[36]),"+f"(d[37]),"+f"(d[38]),"+f"(d[39]),"+f"(d[40]),"+f"(d[41]),"+f"(d[42]),"+f"(d[43]),"+f"(d[44]),"+f"(d[45]),"+f"(d[46]),"+f"(d[47]),"+f"(d[48]),"+f"(d[49]),"+f"(d[50]),"+f"(d[51]),"+f"(d[52]),"+f"(d[53]),"+f"(d[54]),"+f"(d[55]),"+f"(d[56]),"+f"(d[57]),"+f"(d[58]),"+f"(d[59]),"+f"(d[60]),"+f"(d[61]),"+f"(d[62]),"+f"(d[63])
                     : "l"(da), "l"(db));
    }
};

/* Stage s <- K bytes [kt*128, kt*128+128) of A's rows m0.. and B^T's rows
 * n0.. (both K-major, kb bytes a row). */
__device__ __forceinline__ void load_stage(uint32_t sbase, const uint8_t *A, const uint8_t *Bt, int M, int N, int kb,
                                           int m0, int n0, int kt)
{
    const int k0 = kt * ROWB;
#pragma unroll
    for (int i = 0; i < BM * (ROWB / 16) / THREADS; i++) {
        int idx = threadIdx.x + i * THREADS, r = idx >> 3, c = idx & 7;
        bool kin = k0 + c * 16 < kb;
        bool va = kin && m0 + r < M, vb = kin && n0 + r < N;
        cp16(sbase + swz(r, c), va ? A + (size_t)(m0 + r) * kb + k0 + c * 16 : A, va);
        cp16(sbase + TILE_BYTES + swz(r, c), vb ? Bt + (size_t)(n0 + r) * kb + k0 + c * 16 : Bt, vb);
    }
}

/* One K tile: wait for it, let the loads run on, and issue STEPS wgmmas
 * (32 bytes of K each) from its stage on the warpgroup's accumulator. */
template <class Mma, int STEPS>
__device__ __forceinline__ void k_tile(float *d, uint32_t base, const uint8_t *A, const uint8_t *Bt, int M, int N,
                                       int kb, int m0, int n0, int wg, int kt, int ntiles)
{
    /* Tile kt has landed (AHEAD - 1 younger groups may be in flight); each
     * thread's writes are made visible to the async proxy that wgmma reads
     * through, then the barrier shares them. */
    asm volatile("cp.async.wait_group %0;\n" ::"n"(AHEAD - 1) : "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    /* The slot of tile kt + AHEAD held tile kt - 2, whose wgmmas every
     * warpgroup waited for (wait_group 1 below, one tile ago) before the
     * barrier above. */
    if (kt + AHEAD < ntiles)
        load_stage(base + ((kt + AHEAD) % STAGES) * STAGE_BYTES, A, Bt, M, N, kb, m0, n0, kt + AHEAD);
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    const uint32_t sa = base + (kt % STAGES) * STAGE_BYTES + wg * 64 * ROWB;
    const uint32_t sb = base + (kt % STAGES) * STAGE_BYTES + TILE_BYTES;
    fence_acc(d);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
    for (int s = 0; s < STEPS; s++)
        Mma::mma(d, desc_sw128(sa + s * STEP_BYTES), desc_sw128(sb + s * STEP_BYTES));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" ::: "memory");
    fence_acc(d);
}

/* D (M x N, row-major FP32) = A (M x K, K-major) * B where Bt = B^T (N x K,
 * K-major); kb = K bytes of a row, a multiple of 32; TAIL = (kb % 128) / 32,
 * the steps of a last, partial tile (a template argument: a step count
 * known only at run time puts branches between the wgmmas, and ptxas then
 * injects warpgroup.arrive around them). */
template <class Mma, int TAIL>
__global__ void __launch_bounds__(THREADS, 1) gemm_wgmma(const uint8_t *A, const uint8_t *Bt, float *D, int M, int N,
                                                         int kb)
{
    extern __shared__ uint8_t smem_raw[];
    const uint32_t base = ((uint32_t)__cvta_generic_to_shared(smem_raw) + 1023u) & ~1023u;
    const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, wg = threadIdx.x / 128;
    const int nfull = kb / ROWB, ntiles = nfull + (TAIL > 0);
    float d[64];
#pragma unroll
    for (int i = 0; i < 64; i++)
        d[i] = 0.0f;   /* +0: the chain's C before the first step */
    for (int t = 0; t < AHEAD; t++) {
        if (t < ntiles)
            load_stage(base + t * STAGE_BYTES, A, Bt, M, N, kb, m0, n0, t);
        asm volatile("cp.async.commit_group;\n" ::: "memory");
    }
    for (int kt = 0; kt < nfull; kt++)
        k_tile<Mma, ROWB / STEP_BYTES>(d, base, A, Bt, M, N, kb, m0, n0, wg, kt, ntiles);
    if constexpr (TAIL > 0)
        k_tile<Mma, TAIL>(d, base, A, Bt, M, N, kb, m0, n0, wg, nfull, ntiles);
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    fence_acc(d);
    /* The m64nNk16 FP32 accumulator fragment: warp w of the warpgroup holds
     * rows 16w .. 16w+15; d[4j + h] is row lane/4 + 8 (h / 2), column
     * 8j + 2 (lane % 4) + h % 2. */
    const int lane = threadIdx.x & 31, warp = (threadIdx.x >> 5) & 3;
#pragma unroll
    for (int i = 0; i < 64; i++) {
        int r = m0 + wg * 64 + warp * 16 + (lane >> 2) + 8 * ((i >> 1) & 1);
        int c = n0 + (i >> 2) * 8 + (lane & 3) * 2 + (i & 1);
        if (r < M && c < N)
            D[(size_t)r * N + c] = d[i];
    }
}

struct Res {
    void *A = nullptr, *B = nullptr, *D = nullptr;
    ~Res()
    {
        if (A) cudaFree(A);
        if (B) cudaFree(B);
        if (D) cudaFree(D);
    }
};

} // namespace

static int run(int device, const char *path, int m, int n, int k, const uint32_t *A, const uint32_t *B, uint32_t *D,
               int warmup, int reps, double *ms_median, char *err, size_t errlen)
{
    bool f16 = !strcmp(path, "tcscope-wgmma-f16"), e4m3 = !strcmp(path, "tcscope-wgmma-e4m3");
    if (!f16 && !e4m3) {
        snprintf(err, errlen, "gemm: no tcscope wgmma kernel '%s'", path);
        return -1;
    }
    const int eb = f16 ? 2 : 1;
    if ((k * eb) % STEP_BYTES) {
        snprintf(err, errlen, "%s takes K a multiple of %d (got %d)", path, STEP_BYTES / eb, k);
        return 1;
    }
    CU(cudaSetDevice(device));
    cudaDeviceProp prop;
    CU(cudaGetDeviceProperties(&prop, device));
    if (prop.major != 9 || prop.minor != 0) {
        snprintf(err, errlen, "%s is sm_90a code (H100/H200); device is sm_%d%d", path, prop.major, prop.minor);
        return 1;
    }
    const size_t na = (size_t)m * k, nb = (size_t)k * n, nd = (size_t)m * n;
    /* A row-major is K-major; B^T row-major is B K-major. Elements are the
     * low eb bytes of each container (little endian). */
    std::vector<unsigned char> ha(na * eb), hb(nb * eb);
    for (size_t i = 0; i < na; i++)
        memcpy(&ha[i * eb], &A[i], eb);
    for (int kk = 0; kk < k; kk++)
        for (int j = 0; j < n; j++)
            memcpy(&hb[((size_t)j * k + kk) * eb], &B[(size_t)kk * n + j], eb);
    Res r;
    CU(cudaMalloc(&r.A, na * eb));
    CU(cudaMalloc(&r.B, nb * eb));
    CU(cudaMalloc(&r.D, nd * 4));
    CU(cudaMemcpy(r.A, ha.data(), na * eb, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(r.B, hb.data(), nb * eb, cudaMemcpyHostToDevice));
    CU(cudaMemset(r.D, 0xff, nd * 4));   /* NaN: an output never written shows */
    typedef void (*kernel_fn)(const uint8_t *, const uint8_t *, float *, int, int, int);
    static const kernel_fn kernels[2][4] = {
        {gemm_wgmma<MmaF16, 0>, gemm_wgmma<MmaF16, 1>, gemm_wgmma<MmaF16, 2>, gemm_wgmma<MmaF16, 3>},
        {gemm_wgmma<MmaE4M3, 0>, gemm_wgmma<MmaE4M3, 1>, gemm_wgmma<MmaE4M3, 2>, gemm_wgmma<MmaE4M3, 3>}};
    const kernel_fn kern = kernels[e4m3][(k * eb) % ROWB / STEP_BYTES];
    CU(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES));
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    const uint8_t *ga = (const uint8_t *)r.A, *gb = (const uint8_t *)r.B;
    float *gd = (float *)r.D;
    kern<<<grid, THREADS, SMEM_BYTES>>>(ga, gb, gd, m, n, k * eb);
    CU(cudaGetLastError());
    CU(cudaDeviceSynchronize());
    CU(cudaMemcpy(D, r.D, nd * 4, cudaMemcpyDeviceToHost));

    *ms_median = 0;
    if (reps > 0) {
        std::vector<double> ms;
        auto launch = [&]() {
            kern<<<grid, THREADS, SMEM_BYTES>>>(ga, gb, gd, m, n, k * eb);
            cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess)
                snprintf(err, errlen, "gemm %s: the timed launch failed: %s", path, cudaGetErrorString(e));
            return e == cudaSuccess;
        };
        if (tc_time_launches(warmup, reps, launch, &ms, path, err, errlen) != 0)
            return -1;
        *ms_median = tc_median_ms(ms);
    }
    return 0;
}

/* Host vectors may throw std::bad_alloc: an error, never an exception into C. */
extern "C" int tcg_wgmma_gemm_run(int device, const char *path, int m, int n, int k, const uint32_t *A,
                                  const uint32_t *B, uint32_t *D, int warmup, int reps, double *ms_median, char *err,
                                  size_t errlen)
{
    try {
        return run(device, path, m, n, k, A, B, D, warmup, reps, ms_median, err, errlen);
    } catch (const std::bad_alloc &) {
        snprintf(err, errlen, "gemm %s: out of host memory at %dx%dx%d", path, m, n, k);
        return -1;
    }
}
