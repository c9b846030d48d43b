/* gpu: the plain-C face of the CUDA backend (the .cu files of probes/cuda).
 *
 * Everything that touches the CUDA runtime lives in the .cu files; the C
 * side (probes/backend_gpu.c) packs elements to their native widths, checks
 * outputs, and calls these. Built only with nvcc (TC_HAVE_CUDA=1).
 */
#ifndef TC_GPU_H
#define TC_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What one launch sees: tiles packed at native width, row-major per tile,
 * and the fragment tables (entries row*cols + col per thread and element). */
typedef struct {
    const void *A, *B, *C;
    void *D;
    const uint16_t *ta, *tb, *tc;
    unsigned long long ntiles;
    const uint32_t *E;      /* mma.sp / wgmma.sp: 32 / 128 metadata registers per tile (probes/sparse.h); A is compressed */
} tc_gpu_args;

typedef enum {
    TC_GPUK_WARP,  /* mma.sync: one warp per tile, tables A, B, C/D */
    TC_GPUK_WG,    /* wgmma: one warpgroup per tile, B (and SS A) in shared memory, tables C/D (and RS A) */
    TC_GPUK_WMMA,  /* wmma: load/store from memory, no tables */
    TC_GPUK_WARP_SP, /* mma.sp: as WARP, A compressed (m x k/2) and metadata E (32 per tile) */
    TC_GPUK_WG_SP    /* wgmma.sp (SS): as WG, A compressed (64 x k/2) in shared memory, metadata E (128 per tile) */
} tc_gpu_kind;

typedef int (*tc_gpu_launch_fn)(const tc_gpu_args *a, int grid);

typedef struct {
    const char *name;       /* catalogue name */
    const char *symbol;     /* the __global__ function's symbol, as cuobjdump shows it */
    tc_gpu_kind kind;
    int block;              /* threads per block */
    int tiles_per_block;    /* tiles one block works on at once */
    const void *func;       /* the kernel, for cudaFuncGetAttributes */
    tc_gpu_launch_fn launch;/* returns a cudaError_t */
} tc_gpu_kernel;

/* The kernels built into this binary, per family (generated .cu files). */
const tc_gpu_kernel *tc_gpu_kernels_mma(size_t *n);
const tc_gpu_kernel *tc_gpu_kernels_wgmma_f16(size_t *n);
const tc_gpu_kernel *tc_gpu_kernels_wgmma_tf32(size_t *n);
const tc_gpu_kernel *tc_gpu_kernels_wgmma_fp8(size_t *n);
const tc_gpu_kernel *tc_gpu_kernels_mma_sp(size_t *n);
const tc_gpu_kernel *tc_gpu_kernels_wgmma_sp(size_t *n);
const tc_gpu_kernel *tc_gpu_kernel_find(const char *name);

/* On-GPU chains (every dense floating-point instruction): see "On-GPU
 * chains" in probes/gpu_kernels.cuh. Format codes and rounding codes of the cvt. */
enum { TC_CF_F16 = 1, TC_CF_BF16, TC_CF_TF32, TC_CF_E4M3, TC_CF_E5M2, TC_CF_F32, TC_CF_F64 };
enum { TC_CR_RN = 0, TC_CR_RZ, TC_CR_RM, TC_CR_RP, TC_CR_RNA };

typedef struct {
    const void *A0, *B, *C; /* A0: nchains*M*K (A's format); B: nchains*len*K*K; C: nchains*len*M*K */
    void *Xused, *D;        /* nchains*len*M*K in A's and D's formats */
    const uint16_t *ta, *tb, *tc;
    unsigned long long nchains;
    int len, dfmt, afmt, mode, sat;
} tc_chain_args;

typedef int (*tc_chain_launch_fn)(const tc_chain_args *a, int grid);
typedef struct {
    const char *name;
    tc_chain_launch_fn launch;
    int block;              /* threads per block */
    int chains_per_block;   /* 8 (a warp each) or 1 (a warpgroup) */
} tc_gpu_chain_kernel;

/* The chain kernels built into this binary, per family (generated .cu files). */
const tc_gpu_chain_kernel *tc_gpu_chains_mma(size_t *n);
const tc_gpu_chain_kernel *tc_gpu_chains_wgmma_f16(size_t *n);
const tc_gpu_chain_kernel *tc_gpu_chains_wgmma_tf32(size_t *n);
const tc_gpu_chain_kernel *tc_gpu_chains_wgmma_fp8(size_t *n);
const tc_gpu_chain_kernel *tc_gpu_chain_kernel_find(const char *name);

typedef struct tc_gpu tc_gpu;

/* Opens device `dev` and fills info. 0, or -1 with a message naming the problem. */
int tc_gpu_open(int dev, tc_backend_info *info, tc_gpu **out, char *err, size_t errlen);
void tc_gpu_close(tc_gpu *g);

/* The architecture (75 ... 120, __CUDA_ARCH__ / 10) of the warp-level
 * executors (mma, mma.sp, wmma) as this device runs them: the SASS the
 * runtime picked, or the PTX the driver compiled (a compute_80 build on an
 * H200 gives 80). Read once at open; 0 when unknown. */
int tc_gpu_exec_arch(const tc_gpu *g);
int tc_gpu_exec_arch_launch(int *out);   /* probes/cuda/mma_gen.cu */

/* 0 if the kernel has machine code for this device, else -1 with why. */
int tc_gpu_kernel_usable(tc_gpu *g, const tc_gpu_kernel *k, char *why, size_t len);

/* Runs ntiles tiles: host arrays at native width in, D out. D is filled on
 * the device with the byte `poison` before the launch. 0 or -1 with err. */
int tc_gpu_exec(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles,
                const void *A, const void *B, const void *C, void *D, unsigned char poison,
                char *err, size_t errlen);

/* tc_gpu_exec for mma.sp and wgmma.sp: A is the compressed tile (ntiles * m *
 * k/2 at native width) and E the metadata registers (ntiles * 32 or 128). */
int tc_gpu_exec_sparse(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles, const void *A,
                       const uint32_t *E, const void *B, const void *C, void *D, unsigned char poison, char *err,
                       size_t errlen);

/* tc_gpu_exec (dE NULL) or tc_gpu_exec_sparse on buffers already on the
 * device (native width, as those take them; dD poisoned, then written): no
 * copy either way, for a pipeline that keeps its tiles on the GPU
 * (cases/hunt_gpu.h). 0 or -1 with err. */
int tc_gpu_exec_dev(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles, const void *dA,
                    const uint32_t *dE, const void *dB, const void *dC, void *dD, unsigned char poison, char *err,
                    size_t errlen);
/* The CUDA device number g runs on. */
int tc_gpu_device(const tc_gpu *g);

/* Page-locked host staging buffer `which` (0..5) of at least `bytes`, kept
 * and grown by the context (fast transfers); NULL with err on failure. */
void *tc_gpu_host_buffer(tc_gpu *g, int which, size_t bytes, char *err, size_t errlen);

/* Runs nchains chains of `len` steps (host arrays at native width). */
int tc_gpu_chain_exec(tc_gpu *g, const tc_gpu_chain_kernel *k, const tc_instr *ins, size_t nchains, int len,
                      const void *A0, const void *B, const void *C, void *Xused, void *D, int mode, int sat,
                      int afmt, int dfmt, unsigned char poison, char *err, size_t errlen);

/* Milliseconds of the last tc_gpu_exec's kernel alone (device events). */
double tc_gpu_last_kernel_ms(const tc_gpu *g);

#ifdef __cplusplus
}
#endif

#endif
