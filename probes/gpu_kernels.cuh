/* The generic executors behind every generated kernel (probes/cuda, *_gen*.cu files).
 *
 * A warp (mma) or warpgroup (wgmma) takes one tile at a time: it gathers
 * each register element from the packed tile through the fragment table,
 * runs the one instruction, and scatters D through the table. Only the asm
 * statement differs per instruction (the Op::run of the generated code).
 */
#ifndef TC_GPU_KERNELS_CUH
#define TC_GPU_KERNELS_CUH

#include <stdint.h>

#include <cuda_runtime.h>

#include "probes/gpu.h"
#include "probes/layout.h"

template <int BITS> struct tc_reg { typedef uint32_t T; };
template <> struct tc_reg<64> { typedef unsigned long long T; };

/* Registers holding E elements of BITS each. */
template <int BITS, int E> struct tc_nreg {
    static constexpr int n = BITS == 64 ? E : (E * BITS + 31) / 32;
};

template <int BITS>
__device__ __forceinline__ unsigned long long tc_ld_elem(const uint8_t *tile, unsigned idx)
{
    if (BITS == 8)
        return tile[idx];
    if (BITS == 16)
        return reinterpret_cast<const uint16_t *>(tile)[idx];
    if (BITS == 32)
        return reinterpret_cast<const uint32_t *>(tile)[idx];
    return reinterpret_cast<const unsigned long long *>(tile)[idx];
}

template <int BITS>
__device__ __forceinline__ void tc_st_elem(uint8_t *tile, unsigned idx, unsigned long long v)
{
    if (BITS == 8)
        tile[idx] = (uint8_t)v;
    else if (BITS == 16)
        reinterpret_cast<uint16_t *>(tile)[idx] = (uint16_t)v;
    else if (BITS == 32)
        reinterpret_cast<uint32_t *>(tile)[idx] = (uint32_t)v;
    else
        reinterpret_cast<unsigned long long *>(tile)[idx] = v;
}

/* Element e of the registers sits at bits (e % per_reg) * BITS of register e / per_reg. */
template <int BITS, int E>
__device__ __forceinline__ void tc_put(typename tc_reg<BITS>::T (&r)[tc_nreg<BITS, E>::n], int e, unsigned long long v)
{
    if constexpr (BITS == 64)
        r[e] = (typename tc_reg<BITS>::T)v;
    else
        r[e * BITS / 32] |= (uint32_t)v << ((e * BITS) % 32);
}

template <int BITS, int E>
__device__ __forceinline__ unsigned long long tc_get(const typename tc_reg<BITS>::T (&r)[tc_nreg<BITS, E>::n], int e)
{
    if constexpr (BITS == 64 || BITS == 32)
        return r[e];
    else
        return ((uint32_t)r[e * BITS / 32] >> ((e * BITS) % 32)) & ((1u << BITS) - 1u);
}

template <int BITS, int E>
__device__ __forceinline__ void tc_gather(typename tc_reg<BITS>::T (&r)[tc_nreg<BITS, E>::n],
                                          const uint8_t *tile, const uint16_t *tab)
{
#pragma unroll
    for (int i = 0; i < tc_nreg<BITS, E>::n; i++)
        r[i] = 0;
#pragma unroll
    for (int e = 0; e < E; e++)
        tc_put<BITS, E>(r, e, tc_ld_elem<BITS>(tile, tab[e]));
}

template <int BITS, int E>
__device__ __forceinline__ void tc_scatter(const typename tc_reg<BITS>::T (&r)[tc_nreg<BITS, E>::n],
                                           uint8_t *tile, const uint16_t *tab)
{
#pragma unroll
    for (int e = 0; e < E; e++)
        tc_st_elem<BITS>(tile, tab[e], tc_get<BITS, E>(r, e));
}

/* Column blocks (chains): a table entry idx of an R x N operand names
 * (idx / N, idx % N); in a block starting at column j0 of a wider matrix of
 * `cols` columns (row stride cols) that is (idx / N, j0 + idx % N), and
 * columns at or beyond `cols` read as zero and are not written. */
template <int BITS>
__device__ __forceinline__ unsigned long long tc_ld_block(const uint8_t *m, unsigned idx, int N, int j0, int cols)
{
    int r = (int)idx / N, j = (int)idx % N + j0;
    return j < cols ? tc_ld_elem<BITS>(m, (unsigned)(r * cols + j)) : 0ull;
}

template <int BITS, int E>
__device__ __forceinline__ void tc_gather_block(typename tc_reg<BITS>::T (&r)[tc_nreg<BITS, E>::n],
                                                const uint8_t *m, const uint16_t *tab, int N, int j0, int cols)
{
#pragma unroll
    for (int i = 0; i < tc_nreg<BITS, E>::n; i++)
        r[i] = 0;
#pragma unroll
    for (int e = 0; e < E; e++)
        tc_put<BITS, E>(r, e, tc_ld_block<BITS>(m, tab[e], N, j0, cols));
}

template <int BITS, int E>
__device__ __forceinline__ void tc_scatter_block(const typename tc_reg<BITS>::T (&r)[tc_nreg<BITS, E>::n],
                                                 uint8_t *m, const uint16_t *tab, int N, int j0, int cols)
{
#pragma unroll
    for (int e = 0; e < E; e++) {
        int row = tab[e] / N, j = tab[e] % N + j0;
        if (j < cols)
            tc_st_elem<BITS>(m, (unsigned)(row * cols + j), tc_get<BITS, E>(r, e));
    }
}

/* mma.sync (SP false) and mma.sp (SP true): one warp per tile, grid-stride
 * over tiles. mma.sp's A is the compressed m x k/2 tile (probes/sparse.h),
 * gathered through the compressed fragment table, with one metadata
 * register per lane read from E (built on the host, sparsity selector 0). */
template <class Op, bool SP>
__device__ __forceinline__ void tc_warp_body(const tc_gpu_args &g)
{
    constexpr int KA = SP ? Op::K / 2 : Op::K; /* A columns sent per tile */
    constexpr int AE = Op::M * KA / 32, BE = Op::K * Op::N / 32, CE = Op::M * Op::N / 32;
    const unsigned lane = threadIdx.x & 31u;
    const unsigned long long nw = (unsigned long long)gridDim.x * blockDim.x / 32u;
    for (unsigned long long t = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) / 32u;
         t < g.ntiles; t += nw) {
        typename tc_reg<Op::AB>::T a[tc_nreg<Op::AB, AE>::n];
        typename tc_reg<Op::BB>::T b[tc_nreg<Op::BB, BE>::n];
        typename tc_reg<Op::CB>::T c[tc_nreg<Op::CB, CE>::n];
        typename tc_reg<Op::CB>::T d[tc_nreg<Op::CB, CE>::n];
        tc_gather<Op::AB, AE>(a, (const uint8_t *)g.A + t * (Op::M * KA * Op::AB / 8), g.ta + lane * AE);
        tc_gather<Op::BB, BE>(b, (const uint8_t *)g.B + t * (Op::K * Op::N * Op::BB / 8), g.tb + lane * BE);
        tc_gather<Op::CB, CE>(c, (const uint8_t *)g.C + t * (Op::M * Op::N * Op::CB / 8), g.tc + lane * CE);
        if constexpr (SP)
            Op::run(d, a, b, c, g.E[t * 32u + lane]);
        else
            Op::run(d, a, b, c);
        tc_scatter<Op::CB, CE>(d, (uint8_t *)g.D + t * (Op::M * Op::N * Op::CB / 8), g.tc + lane * CE);
    }
}

/* wgmma and wgmma.sp (Op::SP): B and, unless RS, A go through shared memory
 * in the no-swizzle K-major layout of probes/layout.h. A is 64 x KA
 * row-major: KA = K, or for wgmma.sp the compressed K/2 (probes/sparse.h;
 * 32 bytes a row for every type, as a dense A row). */
template <class Op> __device__ constexpr int tc_wg_ka() { return Op::SP ? Op::K / 2 : Op::K; }

template <class Op>
__device__ __forceinline__ void tc_wg_stage_a(uint8_t *sA, const uint8_t *A, unsigned tid)
{
    constexpr int KA = tc_wg_ka<Op>(), KBYTES = KA * Op::AB / 8;
    for (unsigned i = tid; i < 64u * KA; i += 128) {
        unsigned r = i / KA, c = i % KA;
        tc_st_elem<Op::AB>(sA, tc_wg_smem_offset(r, c, Op::AB / 8, KBYTES) / (Op::AB / 8), tc_ld_elem<Op::AB>(A, i));
    }
}

/* The K x N block at column j0 of B (K x cols), stored as B^T: B[kk][n] is
 * row n, column kk. */
template <class Op>
__device__ __forceinline__ void tc_wg_stage_b(uint8_t *sB, const uint8_t *B, unsigned tid, int j0, int cols)
{
    constexpr int N = Op::N, K = Op::K, KBYTES = K * Op::AB / 8;
    for (unsigned i = tid; i < (unsigned)(K * N); i += 128) {
        unsigned kk = i / N, n = i % N;
        tc_st_elem<Op::AB>(sB, tc_wg_smem_offset(n, kk, Op::AB / 8, KBYTES) / (Op::AB / 8),
                           tc_ld_block<Op::AB>(B, i, N, j0, cols));
    }
}

/* One wgmma by the warpgroup: A (already staged in sA unless RS), the column
 * block j0 of B (K x cols) and of C (64 x cols) into the same block of D;
 * e is this thread's metadata register (wgmma.sp). Leaves shared memory free
 * for the next call. */
template <class Op>
__device__ __forceinline__ void tc_wg_step(uint8_t *sA, uint8_t *sB, const uint8_t *A, const uint8_t *B,
                                           const uint8_t *C, uint8_t *D, const uint16_t *ta, const uint16_t *tc,
                                           unsigned tid, int j0, int cols, uint32_t e)
{
    constexpr int N = Op::N, K = Op::K, AE = 64 * K / 128, CE = 64 * N / 128;
    constexpr int AKBYTES = tc_wg_ka<Op>() * Op::AB / 8, BKBYTES = K * Op::AB / 8;
    tc_wg_stage_b<Op>(sB, B, tid, j0, cols);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    typename tc_reg<Op::CB>::T d[tc_nreg<Op::CB, CE>::n];
    tc_gather_block<Op::CB, CE>(d, C, tc + tid * CE, N, j0, cols);
    uint64_t descB = tc_wg_desc((uint32_t)__cvta_generic_to_shared(sB), tc_wg_lbo(BKBYTES), tc_wg_sbo(BKBYTES));
    if constexpr (Op::RS) {
        uint32_t a[tc_nreg<Op::AB, AE>::n];
        tc_gather<Op::AB, AE>(a, A, ta + tid * AE);
        Op::run_rs(d, a, descB);
    } else {
        uint64_t descA = tc_wg_desc((uint32_t)__cvta_generic_to_shared(sA), tc_wg_lbo(AKBYTES), tc_wg_sbo(AKBYTES));
        if constexpr (Op::SP)
            Op::run_ss(d, descA, descB, e);
        else
            Op::run_ss(d, descA, descB);
    }
    tc_scatter_block<Op::CB, CE>(d, D, tc + tid * CE, N, j0, cols);
    __syncthreads(); /* the next call overwrites shared memory */
}

/* wgmma, wgmma.sp: one warpgroup (the block) per tile; wgmma.sp reads 128
 * metadata registers per tile from E (built on the host, sparsity selector 0). */
template <class Op>
__device__ __forceinline__ void tc_wgmma_body(const tc_gpu_args &g)
{
    constexpr int M = 64, N = Op::N, K = Op::K, KA = tc_wg_ka<Op>();
    __shared__ __align__(128) uint8_t sA[Op::RS ? 16 : M * KA * Op::AB / 8];
    __shared__ __align__(128) uint8_t sB[N * K * Op::AB / 8];
    const unsigned tid = threadIdx.x;
    for (unsigned long long t = blockIdx.x; t < g.ntiles; t += gridDim.x) {
        const uint8_t *At = (const uint8_t *)g.A + t * (M * KA * Op::AB / 8);
        if constexpr (!Op::RS)
            tc_wg_stage_a<Op>(sA, At, tid);
        tc_wg_step<Op>(sA, sB, At, (const uint8_t *)g.B + t * (K * N * Op::AB / 8),
                       (const uint8_t *)g.C + t * (M * N * Op::CB / 8), (uint8_t *)g.D + t * (M * N * Op::CB / 8),
                       g.ta, g.tc, tid, 0, N, Op::SP ? g.E[t * 128u + tid] : 0u);
    }
}

/* ---- On-GPU chains ---------------------------------------------------------
 * One warp (mma, wmma) or warpgroup (wgmma) runs a chain: X (M x K) lives in
 * Xused; for step i the product X * B_i (B_i K x K) + C_i is made of
 * ceil(K/N) MMAs on column blocks of B_i and C_i (zero beyond K), D_i is
 * stored, and the next X is D_i converted by the GPU's own cvt into A's
 * format. Nothing of a step stays in registers across the cvt: the
 * hardware sees exactly the X that is returned. */

__device__ __forceinline__ uint32_t tc_f32_to_f16(float x, int mode, bool sat)
{
    unsigned short h;
    if (sat) { /* the ISA has .satfinite with .rn and .rz only (the host refuses the rest) */
        if (mode == 0)
            asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
        else
            asm("cvt.rz.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    } else {
        switch (mode) {
        case 0: asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); break;
        case 1: asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); break;
        case 2: asm("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); break;
        default: asm("cvt.rp.f16.f32 %0, %1;" : "=h"(h) : "f"(x)); break;
        }
    }
    return h;
}

/* The cvt forms below need the architecture of the formats they round into
 * (bf16 and tf32 .rna sm_80, FP8 sm_89; tf32 .rn, .rz and .satfinite
 * sm_90): the warp-level executors are built for sm_75 up (probes/isa/arch);
 * a chain of an instruction the architecture lacks is never launched, and a
 * rounding its cvt lacks traps (a device error the backend reports). */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define TC_CVT_BF16_TF32 1
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 890
#define TC_CVT_FP8 1
#endif
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
#define TC_CVT_TF32_SM90 1
#endif

__device__ __forceinline__ uint32_t tc_f32_to_bf16(float x, int mode, bool sat)
{
    unsigned short h = 0;
#ifndef TC_CVT_BF16_TF32
    __trap();
#else
    if (sat) {
        if (mode == 0)
            asm("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
        else
            asm("cvt.rz.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    } else {
        if (mode == 0)
            asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
        else
            asm("cvt.rz.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    }
#endif
    return h;
}

__device__ __forceinline__ uint32_t tc_f32_to_tf32(float x, int mode, bool sat)
{
    uint32_t r = 0;
#ifndef TC_CVT_BF16_TF32
    __trap();
#else
    if (sat) { /* sm_90: .satfinite with .rna only (the host refuses the rest) */
#ifdef TC_CVT_TF32_SM90
        asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
#else
        __trap();
#endif
    } else {
        switch (mode) {
#ifdef TC_CVT_TF32_SM90
        case 0: asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
        case 1: asm("cvt.rz.tf32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
#else
        case 0:
        case 1: __trap(); break;
#endif
        default: asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
        }
    }
#endif
    return r;
}

/* FP8 from f32 or f16: the ISA has only .rn.satfinite. */
__device__ __forceinline__ uint32_t tc_to_fp8(uint64_t d, int dfmt, int afmt)
{
    unsigned short r = 0;
#ifndef TC_CVT_FP8
    __trap();
#else
    if (dfmt == TC_CF_F32) {
        float x = __uint_as_float((uint32_t)d);
        if (afmt == TC_CF_E4M3)
            asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %1;" : "=h"(r) : "f"(x));
        else
            asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %1;" : "=h"(r) : "f"(x));
    } else {
        uint32_t x2 = (uint32_t)d | (uint32_t)d << 16;
        if (afmt == TC_CF_E4M3)
            asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(r) : "r"(x2));
        else
            asm("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(r) : "r"(x2));
    }
#endif
    return r & 0xFFu;
}

__device__ __forceinline__ uint64_t tc_chain_cvt(uint64_t d, int dfmt, int afmt, int mode, bool sat)
{
    if (dfmt == afmt)
        return d; /* f16 -> f16, f64 -> f64: nothing to round */
    if (afmt == TC_CF_E4M3 || afmt == TC_CF_E5M2)
        return tc_to_fp8(d, dfmt, afmt);
    float x = __uint_as_float((uint32_t)d);
    if (afmt == TC_CF_F16)
        return tc_f32_to_f16(x, mode, sat);
    if (afmt == TC_CF_BF16)
        return tc_f32_to_bf16(x, mode, sat);
    return tc_f32_to_tf32(x, mode, sat) & 0xFFFFE000u; /* the container's unused low bits */
}


template <bool BLOCK>
__device__ __forceinline__ void tc_chain_sync()
{
    if constexpr (BLOCK)
        __syncthreads();
    else
        __syncwarp();
}

/* Chain ch: X_0 = A0, then per step step(X, B_i, C_i, D_i) and the next X;
 * threads t = 0..nt-1 of the warp (BLOCK false) or block share the loops. */
template <int AB, int BB, int CB, int M, int K, bool BLOCK, class Step>
__device__ __forceinline__ void tc_chain_run(const tc_chain_args &g, unsigned long long ch, unsigned t, unsigned nt,
                                             Step step)
{
    constexpr unsigned MK = M * K;
    uint8_t *X0 = (uint8_t *)g.Xused + ch * g.len * (MK * AB / 8);
    for (unsigned e = t; e < MK; e += nt)
        tc_st_elem<AB>(X0, e, tc_ld_elem<AB>((const uint8_t *)g.A0 + ch * (MK * AB / 8), e));
    tc_chain_sync<BLOCK>();
    for (int i = 0; i < g.len; i++) {
        unsigned long long s = ch * g.len + i;
        uint8_t *Di = (uint8_t *)g.D + s * (MK * CB / 8);
        step((const uint8_t *)g.Xused + s * (MK * AB / 8), (const uint8_t *)g.B + s * (K * K * BB / 8),
             (const uint8_t *)g.C + s * (MK * CB / 8), Di);
        tc_chain_sync<BLOCK>();
        if (i + 1 < g.len) {
            uint8_t *Xn = (uint8_t *)g.Xused + (s + 1) * (MK * AB / 8);
            for (unsigned e = t; e < MK; e += nt)
                tc_st_elem<AB>(Xn, e, tc_chain_cvt(tc_ld_elem<CB>(Di, e), g.dfmt, g.afmt, g.mode, g.sat != 0));
            tc_chain_sync<BLOCK>();
        }
    }
}

/* mma.sync chains: one warp per chain. */
template <class Op>
__device__ __forceinline__ void tc_chain_body(const tc_chain_args &g)
{
    constexpr int M = Op::M, N = Op::N, K = Op::K;
    constexpr int AE = M * K / 32, BE = K * N / 32, CE = M * N / 32;
    const unsigned lane = threadIdx.x & 31u;
    const unsigned long long nw = (unsigned long long)gridDim.x * blockDim.x / 32u;
    for (unsigned long long ch = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) / 32u; ch < g.nchains;
         ch += nw)
        tc_chain_run<Op::AB, Op::BB, Op::CB, M, K, false>(
            g, ch, lane, 32u, [&](const uint8_t *X, const uint8_t *Bi, const uint8_t *Ci, uint8_t *Di) {
                typename tc_reg<Op::AB>::T a[tc_nreg<Op::AB, AE>::n];
                tc_gather<Op::AB, AE>(a, X, g.ta + lane * AE);
                for (int j0 = 0; j0 < K; j0 += N) {
                    typename tc_reg<Op::BB>::T b[tc_nreg<Op::BB, BE>::n];
                    typename tc_reg<Op::CB>::T c[tc_nreg<Op::CB, CE>::n], d[tc_nreg<Op::CB, CE>::n];
                    tc_gather_block<Op::BB, BE>(b, Bi, g.tb + lane * BE, N, j0, K);
                    tc_gather_block<Op::CB, CE>(c, Ci, g.tc + lane * CE, N, j0, K);
                    Op::run(d, a, b, c);
                    tc_scatter_block<Op::CB, CE>(d, Di, g.tc + lane * CE, N, j0, K);
                }
            });
}

/* wgmma chains (SS and RS): one warpgroup, the block, per chain. */
template <class Op>
__device__ __forceinline__ void tc_wg_chain_body(const tc_chain_args &g)
{
    constexpr int M = 64, N = Op::N, K = Op::K, KBYTES = K * Op::AB / 8;
    __shared__ __align__(128) uint8_t sA[Op::RS ? 16 : M * KBYTES];
    __shared__ __align__(128) uint8_t sB[N * KBYTES];
    const unsigned tid = threadIdx.x;
    for (unsigned long long ch = blockIdx.x; ch < g.nchains; ch += gridDim.x)
        tc_chain_run<Op::AB, Op::AB, Op::CB, M, K, true>(
            g, ch, tid, 128u, [&](const uint8_t *X, const uint8_t *Bi, const uint8_t *Ci, uint8_t *Di) {
                if constexpr (!Op::RS)
                    tc_wg_stage_a<Op>(sA, X, tid);
                for (int j0 = 0; j0 < K; j0 += N)
                    tc_wg_step<Op>(sA, sB, X, Bi, Ci, Di, g.ta, g.tc, tid, j0, K, 0u);
            });
}

/* wmma: Op::run(A, B, C, D) loads A (ldm K), B and C (ldm N), multiplies and
 * stores D (ldm N). One warp per tile. */
template <class Op>
__device__ __forceinline__ void tc_wmma_body(const tc_gpu_args &g)
{
    constexpr int M = Op::M, N = Op::N, K = Op::K;
    const unsigned long long nw = (unsigned long long)gridDim.x * blockDim.x / 32u;
    for (unsigned long long t = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) / 32u; t < g.ntiles;
         t += nw)
        Op::run((const uint8_t *)g.A + t * (M * K * Op::AB / 8), (const uint8_t *)g.B + t * (K * N * Op::AB / 8),
                (const uint8_t *)g.C + t * (M * N * Op::CB / 8), (uint8_t *)g.D + t * (M * N * Op::CB / 8));
}

/* wmma chains: one warp per chain, 8 warps a block. B_i and C_i (K columns)
 * are widened to N columns in the warp's shared-memory tiles, which take D
 * too; the K columns of D are copied out. */
#define TC_WMMA_CHAIN_WARPS 8
template <class Op>
__device__ __forceinline__ void tc_wmma_chain_body(const tc_chain_args &g)
{
    constexpr int M = Op::M, N = Op::N, K = Op::K;
    static_assert(K <= N, "a wmma chain step is one MMA");
    __shared__ __align__(32) uint8_t sB[TC_WMMA_CHAIN_WARPS][K * N * Op::AB / 8];
    __shared__ __align__(32) uint8_t sCD[TC_WMMA_CHAIN_WARPS][M * N * Op::CB / 8];
    const unsigned lane = threadIdx.x & 31u, w = threadIdx.x / 32u;
    const unsigned long long nw = (unsigned long long)gridDim.x * blockDim.x / 32u;
    for (unsigned long long ch = ((unsigned long long)blockIdx.x * blockDim.x + threadIdx.x) / 32u; ch < g.nchains;
         ch += nw)
        tc_chain_run<Op::AB, Op::AB, Op::CB, M, K, false>(
            g, ch, lane, 32u, [&](const uint8_t *X, const uint8_t *Bi, const uint8_t *Ci, uint8_t *Di) {
                for (unsigned e = lane; e < (unsigned)(K * N); e += 32)
                    tc_st_elem<Op::AB>(sB[w], e, tc_ld_block<Op::AB>(Bi, e, N, 0, K));
                for (unsigned e = lane; e < (unsigned)(M * N); e += 32)
                    tc_st_elem<Op::CB>(sCD[w], e, tc_ld_block<Op::CB>(Ci, e, N, 0, K));
                __syncwarp();
                Op::run(X, sB[w], sCD[w], sCD[w]);
                __syncwarp();
                for (unsigned e = lane; e < (unsigned)(M * K); e += 32)
                    tc_st_elem<Op::CB>(Di, e, tc_ld_elem<Op::CB>(sCD[w], e / K * N + e % K));
            });
}

#endif
