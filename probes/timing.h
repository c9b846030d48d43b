/* timing: latency and throughput of catalogue instructions on the GPU,
 * checked against the SASS (probes/sass.h), handed over as the structs of
 * reports/record_bench.h (whose writer makes the bench record).
 *
 * What is measured (doc/design.md "Performance is recorded with the numbers"):
 *  - completion latency: one warp (one warpgroup for wgmma), a dependent
 *    accumulator chain, clock64 around the loop; 5 runs and their spread;
 *    for wgmma also the back-to-back issue interval;
 *  - throughput table: ILP 1..8 x warps per SM (one block on every SM), in
 *    FMA per clock per SM from clock64 spans, and its best point;
 *  - whole-GPU TFLOP/s at the best point from CUDA events, random and zero
 *    inputs, with SM clock, power and throttle reasons sampled through NVML;
 *  - the fraction of the physical peak (tc_timing_peak_fma_per_clk).
 * A point whose kernel's SASS does not hold the expected MMAs is refused.
 */
#ifndef TC_TIMING_H
#define TC_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/probes.h"
#include "probes/bench_result.h" /* the result structs: reports/ writes them */

#ifdef __cplusplus
extern "C" {
#endif

/* Specification constant: dense FMA per clock per SM of the H100 tensor
 * cores for the instruction's input type (f16/bf16 2048, tf32 1024, fp8 and
 * int8 4096, f64 128), doubled for sparse instructions. 0 when unknown. */
double tc_timing_peak_fma_per_clk(const tc_instr *ins);

/* Options of one bench run. */
typedef struct {
    int device;               /* CUDA device index */
    const char *sass_path;    /* disassembly to check against; NULL: this program's (its build's
                                 file where it is this binary's, else cuobjdump) */
    bool quick;               /* smaller tables (tests) */
    bool no_whole_gpu;        /* skip the whole-GPU runs (about 0.3 s an instruction):
                                 regress compares latency and the per-SM table only */
} tc_bench_opts;

/* Opens the GPU and reads the SASS of this program (on a thread: the first
 * use waits for it). NULL with err set when
 * there is no usable GPU (or the build has no CUDA). */
typedef struct tc_bench tc_bench;
tc_bench *tc_bench_open(const tc_bench_opts *o, char *err, size_t errlen);
/* Closes it at once: a SASS read still running is left to finish (and free
 * itself) on its thread when nothing used it. */
void tc_bench_close(tc_bench *b);
/* Seconds of the GPU's and NVML's opening, and of the SASS's reading (on a
 * thread beside it and whatever the caller did next): waits for the SASS. */
void tc_bench_open_seconds(tc_bench *b, double *gpu_s, double *sass_s);
/* Where the SASS came from (waits for it): the --sass file, the build's file
 * (its path), "cuobjdump", or "" when it could not be read. */
const char *tc_bench_sass_source(tc_bench *b);

/* The machine of the record (GPU, driver, CUDA, clocks, NVML), read now. */
void tc_bench_machine_read(tc_bench *b, tc_bench_machine *m);
const char *tc_bench_gpu_name(const tc_bench *b);

/* true when a timing kernel exists for the instruction. */
bool tc_bench_has_kernel(const char *name);

/* Times one instruction into r: status TC_BENCH_REFUSED with the reason when
 * its SASS does not match, TC_BENCH_NOT_TIMED when there is no kernel for
 * it, TC_BENCH_ERROR when the GPU failed. reports/record_bench.h writes it. */
void tc_bench_instr(tc_bench *b, const tc_instr *ins, tc_bench_result *r);

/* true when p is a point of ins's table (its kernel exists). */
bool tc_bench_point_valid(const tc_instr *ins, const tc_bench_point *p);

/* What `regress` compares, in milliseconds rather than the table's tenth of
 * a second: the SASS checks and the latency exactly as tc_bench_instr, and
 * the throughput at the one point p (a warm-up launch, then the best of 3)
 * instead of the whole table: r->best_* hold p and its FMA/clk/SM, there is
 * no table (r->nmodes 0), r->at_point is true. A point that is not the
 * table's, does not fit or whose kernel's SASS does not match: no figure
 * (status and why). */
void tc_bench_instr_at(tc_bench *b, const tc_instr *ins, const tc_bench_point *p, tc_bench_result *r);

/* cuBLAS(Lt) GEMM m = n = k = size on random data: TFLOP/s for "f16",
 * "bf16", "tf32", "fp8" (e4m3); c->ok false with c->error when cuBLAS is
 * missing or fails. */
void tc_bench_cublas(tc_bench *b, const char *type, int size, tc_bench_gemm *c);

/* ---- GPU side (probes/cuda/timing_*.cu); absent in builds without CUDA. ---- */

#define TCT_INPUT_WORDS 65536   /* input buffer of every timing kernel, a power of 2 */

/* The kernels of one instruction: k[i] runs ILP (or wgmma depth) i+1. */
typedef struct {
    const char *name;         /* catalogue name */
    const char *symbol;       /* kernel symbol prefix: symbol "_i<ILP>", symbol "_lat" */
    long long fma_per_mma;    /* m * n * k */
    int group;                /* threads that issue one MMA: 32 or 128 */
    int unroll;               /* MMAs per accumulator per loop iteration (mma); 1 for wgmma */
    const void *k[8];
    const void *lat;          /* wgmma: one wgmma waited for per iteration; NULL for mma */
    int sass_per_mma;         /* native SASS MMAs per PTX MMA by construction (wmma 16x16 is
                                 two m16n8 HMMAs); 0 means 1 */
} tct_kernel_set;

typedef struct {
    char name[256];
    char pci[32];
    int sm;                   /* 90 */
    int sm_count;
    int clock_khz;            /* the device's rated SM clock */
    int smem_per_sm;
    int driver_version, runtime_version;
} tct_device;

typedef struct {
    double span_mean;         /* mean over blocks of (last warp's end - first warp's start), cycles */
    double span_min, span_max;
    float ms;                 /* event time of the launch */
    bool distinct_sms;        /* every block ran on its own SM */
} tct_launch_result;

const tct_kernel_set *tct_find(const char *name);
int tct_open(int device, tct_device *info, char *err, size_t errlen);
int tct_set_inputs(const uint32_t *words, size_t n, char *err, size_t errlen);
/* ilp 0 runs the latency kernel (wgmma). Returns 0, 1 when the block does
 * not fit on an SM (registers), -1 on a CUDA error (err set). */
int tct_launch(const tct_kernel_set *ks, int ilp, int blocks, int warps, int iters, uint32_t arg,
               tct_launch_result *r, char *err, size_t errlen);
/* cuBLASLt GEMM (dlopen'd); 0 or -1 with err. */
int tct_cublas_gemm(const char *type, int size, int reps, double *ms_mean, double *ms_min,
                    char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
