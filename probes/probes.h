/* probes: the instruction catalogue and the backends that execute MMAs.
 *
 * A backend runs batches of independent tiles D = A*B + C given as bit
 * patterns, and chains of them. Backends: "gpu[:N]" (CUDA), "model:PROFILE"
 * (the software tensor core of oracle/), "exact" (the MPFR oracle).
 * Nothing here judges results: that is cases/.
 */
#ifndef TC_PROBES_H
#define TC_PROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *name;      /* PTX name without .sync.aligned/layouts: "mma.m16n8k16.f32.f16.f16.f32" */
    const char *api;       /* "mma", "mma.sp", "wmma", "wgmma", "wgmma.sp" */
    int m, n, k;           /* k is the logical (dense) K, also for sparse */
    const tc_format *a, *b, *c, *d;
    const char *sass;      /* SASS opcode stem the instruction must compile to: HMMA, HGMMA, QGMMA, DMMA, IMMA, IGMMA */
    int sm_min;            /* first architecture that has it (80, 89, 90) */
    bool sparse;           /* 2:4 structured A: at most 2 nonzeros in every aligned group of 4 along K */
    bool a_in_regs;        /* wgmma .rs: A from registers */
} tc_instr;

const tc_instr *tc_catalogue(size_t *count);

/* The architectures of the portable build, one ISA table each
 * (probes/isa/arch/smXX.def), and which of them has each catalogue entry
 * (probes/arch.c). An sm is 70 (built only with PTXAS12), 75, 80, 86, 89, 90 (sm_90a), 100 (sm_100a) or
 * 120 (sm_120a). */
/* "sm_80", "sm80", "80", "sm_90a" -> 80, 90; -1 when not one of the eight. */
int tc_arch_parse(const char *s);
/* 90 -> "sm_90a"; NULL when not one of the eight. */
const char *tc_arch_target(int sm);
/* The architecture whose code a GPU of compute capability cc (major*10 +
 * minor) runs: the 'a' targets only on their own cc (9.0, 10.0, 12.0), the
 * others on any later minor of their major (sm_86 on 8.7); 0 for none. */
int tc_arch_of_device(int cc);
/* true if architecture sm has ins (its table or one it inherits). */
bool tc_instr_on_arch(const tc_instr *ins, int sm);

/* Bits an operand register may carry: the whole container for a format held
 * in a wider register (TF32 in 32 bits), since what the tensor core does with
 * the low bits is a question the audit asks; else the format's own bits.
 * Software backends read such operands through tc_decode (low bits ignored). */
uint64_t tc_operand_mask(const tc_format *f);
const tc_instr *tc_instr_by_name(const char *name);

/* Facts about what ran the work, for records. Strings empty when unknown. */
typedef struct {
    char backend[64];      /* "gpu:0", "model:h100", "exact" */
    char device[128];      /* "NVIDIA H100 80GB HBM3", or "model (no GPU)" */
    char driver[32];
    char cuda[32];
    int sm;                /* compute capability * 10 (90), 0 for software */
    int sm_count;
    int clock_mhz;         /* SM clock read at open, 0 if unknown */
    char compiler[160];    /* what made the code that ran: "nvcc V13.0.88, ptxas V13.0.88: sm_90a SASS"
                              (this build's), "driver JIT 580.159.04 from compute_90a PTX" (gpu:jit),
                              "none (software)" */
} tc_backend_info;

typedef struct tc_backend tc_backend;

/* Opens "gpu", "gpu:N", "gpu:jit", "gpu:N:jit", "model:PROFILE" (a name
 * under oracle/profiles/ or a path) or "exact". gpu:jit runs the kernels the
 * driver compiles from this binary's PTX (CUDA_FORCE_PTX_JIT=1, set before
 * CUDA starts: it must be the process's first GPU backend) instead of the
 * build's SASS. NULL with a message in err when the backend cannot be
 * used (no GPU, built without nvcc, unknown profile). */
tc_backend *tc_backend_open(const char *spec, char *err, size_t errlen);
/* The same for the kinds probes/backend.c holds (every spec but
 * "corpus:PATH", which is built on a function backend below). */
tc_backend *tc_backend_open_builtin(const char *spec, char *err, size_t errlen);
/* The file of profile spec: a path (with a '/', or an existing file), or
 * NAME[.profile] under oracle/profiles/ of the data (tc_data_path); false
 * when none exists. */
bool tc_profile_path(const char *spec, char *path, size_t len);
/* The profile whose [about] device is `device` (case aside; the exact name
 * the driver gives, "NVIDIA H200"), the first by file name among the
 * profiles beside the binary; false when no profile was audited on it. */
bool tc_profile_of_device(const char *device, char *path, size_t len);
/* rel ("oracle/profiles/h100.profile", "reports/baselines/h100-bench.json.gz")
 * in the data beside the binary (probes/datadir.c): PREFIX/share/tcscope
 * for PREFIX/bin/tcscope, else the source tree the binary lies in (up to
 * three levels above its folder); never the working folder. false when no
 * such readable file exists (path then holds the last candidate). */
bool tc_data_path(const char *rel, char *path, size_t len);
void tc_backend_close(tc_backend *b);

/* A backend whose tile batches a function runs (inputs checked first, as
 * for the software backends; sparse A passed dense; no chains, no SASS).
 * For tests that show a probe or a check fails on a deliberately broken
 * backend (a permuted fragment layout, a flipped bit). NULL when out of memory. */
typedef int (*tc_backend_fn)(void *ctx, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                             const uint64_t *C, uint64_t *D, char *err, size_t errlen);
tc_backend *tc_backend_open_fn(const char *name, tc_backend_fn fn, void *ctx);
/* The same, with the device named, which instructions it runs (NULL: all)
 * and what frees ctx at close (NULL: nothing): the corpus backend. */
typedef bool (*tc_backend_fn_supports)(void *ctx, const tc_instr *ins, char *why, size_t len);
tc_backend *tc_backend_open_fn_owned(const char *name, const char *device, tc_backend_fn fn,
                                     tc_backend_fn_supports supports, void (*free_ctx)(void *), void *ctx);
/* "corpus:PATH": recorded answers (probes/dots.h): an MMA is answered only
 * where every output element's inputs (A row, B column, C element) are a
 * recorded row of that instruction, else refused with the element named. */
tc_backend *tc_backend_open_dots(const char *path, char *err, size_t errlen);
/* The ctx of a function backend opened with fn, else NULL. */
void *tc_backend_fn_ctx(const tc_backend *b, tc_backend_fn fn);
const tc_backend_info *tc_backend_get_info(const tc_backend *b);
/* A model backend's profile note KEY of [about] ("written_by", "undecided
 * INSTR": provenance, and the fields its evidence did not decide), else NULL. */
const char *tc_backend_profile_note(const tc_backend *b, const char *key);
/* What compiled the kernels this build links, executor and timing alike,
 * into out (a record's "compiler"): the Makefile's stamp (nvcc and ptxas
 * versions, target), or, under CUDA_FORCE_PTX_JIT (gpu:jit sets it before
 * CUDA starts), the driver's JIT of this binary's PTX. */
void tc_kernel_compiler(const char *driver, char *out, size_t len);

/* true if the backend can run the instruction; else why says why. */
bool tc_backend_supports(tc_backend *b, const tc_instr *ins, char *why, size_t len);
/* Restricts backend b to the instructions of architecture sm (--arch for
 * the model backends): every other one is refused by tc_backend_supports,
 * naming the architecture. */
void tc_backend_set_arch(tc_backend *b, int sm);

/* ntiles independent MMAs. Element bit patterns, one uint64_t each:
 *   A: ntiles * m * k, row-major (A[t][i][kk])
 *   B: ntiles * k * n, row-major (B[t][kk][j])
 *   C, D: ntiles * m * n, row-major
 * For sparse instructions A is given dense and must be 2:4 structured.
 * Returns 0, or -1 with err set (nothing partial is returned as valid). */
int tc_backend_mma(tc_backend *b, const tc_instr *ins, size_t ntiles,
                   const uint64_t *A, const uint64_t *B, const uint64_t *C,
                   uint64_t *D, char *err, size_t errlen);

/* Chains of `len` steps on M x K tiles (M = ins->m, K = ins->k):
 *   X_0 = A0;  D_i = X_{i-1} * B_i + C_i  (B_i is K x K, C_i is M x K or NULL for zero)
 *   X_i = D_i converted to ins->a's format with `cvt` (the GPU uses its own cvt)
 * Returns every step's input actually used (Xused[c][i] = X_{i-1}, M x K) and
 * every D_i (M x K, in ins->d's format) so the oracle can replay each step.
 * Arrays are chain-major then step-major: B[(c*len + i-1)*K*K ...], C, Xused
 * and D likewise with M*K per step; A0 is nchains * M * K. */
/* true if ins can be chained at all (every backend): dense, floating-point
 * operands. Else why (when given) says why not. */
bool tc_instr_has_chains(const tc_instr *ins, char *why, size_t len);

int tc_backend_chain(tc_backend *b, const tc_instr *ins, size_t nchains, int len,
                     const uint64_t *A0, const uint64_t *B, const uint64_t *C,
                     tc_rounding cvt, uint64_t *Xused, uint64_t *D,
                     char *err, size_t errlen);

/* NULL, or why the device failed: after a device error (a failed CUDA call,
 * or the test hook TCSCOPE_FAULT_AFTER=N that fails the N-th batch of
 * tc_backend_mma / tc_backend_chain on any backend) every later batch is
 * refused with this message, and a run must stop and keep only what was
 * finished before it. */
const char *tc_backend_fault(const tc_backend *b);

/* A CUDA error message about the driver version where there is no driver
 * at all (no kernel module, no libcuda.so.1) is replaced by one that says
 * so; any other message is left as it is. */
void tc_say_no_driver(char *err, size_t errlen);
/* Why there is no GPU in a build without nvcc: one wording for the backend,
 * the bench and the GEMM paths. */
#define TC_NO_GPU_BUILD "no GPU backend: built without nvcc"


/* GPU backend: how the instruction's kernel was compiled, read from the SASS
 * of this very binary (cuobjdump -sass), never assumed. -1 with err when the
 * backend is not a GPU or cuobjdump cannot be run. */
typedef struct {
    char opcode[64];       /* tensor-core opcode seen, e.g. "HMMA.16816.F32.BF16" */
    bool native;           /* the catalogue's stem, one per PTX MMA, no conversions */
    int per_mma;           /* SASS tensor opcodes per PTX instruction */
    int conversions;       /* F2FP/F2F/I2F... in the kernel (emulation support) */
    char verdict[32];      /* probes/sass.h verdict name */
    char message[320];
} tc_instr_sass;
int tc_backend_sass(tc_backend *b, const tc_instr *ins, tc_instr_sass *out, char *err, size_t errlen);

/* Seconds the device spent in the kernels of the last tc_backend_mma
 * (GPU only; 0 for software backends). */
double tc_backend_last_kernel_s(const tc_backend *b);

/* Batches whose tiles are already on the GPU (cases/hunt_gpu.h draws them
 * there): tc_backend_gpu_device is the CUDA device of a GPU backend that
 * runs such batches, else -1 (a software backend, or one whose test hooks,
 * TCSCOPE_FLIP_BIT and TCSCOPE_FAULT_AFTER, only tc_backend_mma applies).
 * tc_backend_mma_dev runs one: A (for mma.sp/wgmma.sp the compressed m x
 * k/2 tile, and dE its metadata registers, probes/sparse.h; dE NULL for a
 * dense instruction), B, C device buffers at native width, D written at
 * native width after being filled with the byte `poison` (the caller checks
 * that every element was written, as tc_backend_mma does). A device error
 * is the backend's fault from then on (tc_backend_fault). 0 or -1 with err. */
int tc_backend_gpu_device(const tc_backend *b);
int tc_backend_mma_dev(tc_backend *b, const tc_instr *ins, size_t ntiles, const void *dA, const uint32_t *dE,
                       const void *dB, const void *dC, void *dD, unsigned char poison, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
