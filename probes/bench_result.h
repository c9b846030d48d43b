/* What `tcscope bench` measured, as plain C structs: the timing probes
 * (probes/timing.c) fill them, reports/record_bench.c writes them as the
 * bench record. Here in probes/, the producer, so that data flows one way
 * (doc/design.md: probes/ knows nothing of reports/). */
#ifndef TC_BENCH_RESULT_H
#define TC_BENCH_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "probes/probes.h"

/* The machine, read when the bench opens the GPU. Numbers < 0: unknown. */
typedef struct {
    tc_backend_info run;        /* backend "gpu", device, driver (NVML), cuda (runtime), compiler,
                                   sm, sm_count, clock_mhz (NVML's maximum SM clock, 0 unknown) */
    char pci_bus_id[32];
    double rated_sm_clock_mhz;  /* the CUDA device's rated clock */
    char cuda_driver_api[16];   /* "13.0" */
    bool nvml;                  /* NVML opened; else nvml_why says why not */
    char nvml_why[200];
    int idle_sm_clock_mhz;
    double power_limit_w;
    int temperature_c;
    bool sass_read;             /* the program's SASS was read (from sass_source); else sass_error */
    char sass_source[300];      /* "cuobjdump -sass of this program", or the file read: --sass FILE,
                                   or the build's PROGRAM.sass (this binary's build-id in its header) */
    char sass_error[400];
} tc_bench_machine;

/* The SASS check of one timing kernel (probes/sass.h). */
typedef struct {
    char verdict[24];           /* "match", "emulated", .., "unchecked" (no SASS to read) */
    bool usable, emulated;
    char opcode[64];
    int expected, in_loop, per_mma, conversions_in_loop;
    char message[400];
} tc_bench_check;

/* NVML sampled during a run. Numbers < 0: unknown. */
typedef struct {
    int samples;
    double sm_clock_mean, sm_clock_min, sm_clock_max, power_mean, power_max;
    bool throttle_known;
    uint64_t throttle;          /* OR of the reasons seen */
    char throttle_names[300];
} tc_bench_nvml;

/* One whole-GPU run at the best point. */
typedef struct {
    double tflops, ms;
    int blocks;
    long long iterations;
    double fma_from_cycles;     /* FMA/clk/SM from the clock64 spans */
    double fma_at_nvml_clock;   /* from the event time at NVML's mean clock; < 0: no NVML clock */
    tc_bench_nvml nvml;
} tc_bench_whole;

typedef enum { TC_BENCH_TIMED, TC_BENCH_NOT_TIMED, TC_BENCH_REFUSED, TC_BENCH_ERROR } tc_bench_status;

#define TC_BENCH_ILP 8          /* ILP 1..8 */
#define TC_BENCH_WARPS 10       /* at most this many warps-per-SM columns */
#define TC_BENCH_LAT_RUNS 5

/* One instruction's timing. The measurement stops at its first failure
 * (status and why say which); what was measured before stays. */
typedef struct {
    const char *instr, *api, *sass_expected; /* the catalogue's strings (they outlive the struct) */
    double peak;                /* FMA/clk/SM of the type (tc_timing_peak_fma_per_clk), 0 unknown */
    tc_bench_status status;
    char why[400];              /* status not TIMED: the reason */
    bool checked;               /* the SASS checks ran (not when there is no kernel) */
    bool wgmma;                 /* kernel[0] (the latency kernel) exists; staging modes 2 */
    tc_bench_check kernel[1 + TC_BENCH_ILP]; /* [0] latency (wgmma), [i] ILP i */
    char sass_verdict[24];      /* the ILP-1 kernel's */
    char sass_opcode[64];
    bool emulated;              /* any kernel emulated */
    char emulation[200];        /* emulated: how */
    int nlat;                   /* latency runs done: 0 or TC_BENCH_LAT_RUNS */
    double lat_runs[TC_BENCH_LAT_RUNS], latency, latency_spread;
    int nmodes;                 /* staging modes of the table measured: 0 (no table), 1, 2 (wgmma) */
    int nwarps, warps[TC_BENCH_WARPS], table_iters;
    double fma[2][TC_BENCH_ILP][TC_BENCH_WARPS]; /* [mode][ilp-1][warps], FMA/clk/SM; < 0: not run */
    double best_fma;            /* > 0 once the table had a point */
    int best_ilp, best_warps, best_mode;
    double issue_interval;      /* wgmma back-to-back issue, cycles; < 0: not measured */
    bool at_point;              /* throughput at one given point only (tc_bench_instr_at), no table */
    bool whole_skipped;         /* --no-whole-gpu */
    bool has_whole;             /* both whole-GPU runs done: [0] random, [1] zero inputs */
    tc_bench_whole whole[2];
} tc_bench_result;

/* One point of the throughput table: ILP (1..8), warps per SM (one of the
 * table's columns) and, for wgmma, the staging (0 no swizzle, 1 128-byte
 * swizzle). */
typedef struct {
    int ilp, warps, mode;
} tc_bench_point;

/* A cuBLAS(Lt) GEMM of the bench, m = n = k = size. */
typedef struct {
    const char *type;           /* "f16", "bf16", "tf32", "fp8" */
    int size;
    const char *library;
    bool ok;
    char error[300];            /* !ok */
    double tflops, tflops_best, ms_mean;
    tc_bench_nvml nvml;
} tc_bench_gemm;

#endif
