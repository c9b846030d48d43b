/* probe: a framework-neutral GEMM probe (tcscope probe export / infer).
 *
 * A library is not called back: every input the structure inference needs
 * is exported up front as .npy files, the user computes D = A @ B once per
 * exported product with any framework and saves each D as FP32 .npy, and
 * the inference reads the D's. Three products a case (the same M x N x K,
 * so the library picks the same kernel for each):
 *   step    K positions per tensor-core step (which small products one
 *           instruction fuses with large ones);
 *   runs    where partial sums leave the tensor-core accumulator: one
 *           test per candidate boundary x (every `gran` positions);
 *   verify  random inputs (seeded) in a grid of rows and columns: the
 *           structure must predict these outputs bit for bit.
 * One product carries many experiments: output D[i][j] is row i of A times
 * column j of B, so row i carries the experiments of class i % R at their
 * positions and column j those of class j % C; only experiment
 * C * (i % R) + j % C has nonzeros in both (its positions are disjoint
 * from every other's), and every R x C block of outputs, so every output
 * tile of a kernel, holds each experiment once (stream-K kernels treat
 * tiles differently: the inference reads each block on its own).
 *
 * The C API the Python package binds (ctypes): keep these signatures. */
#ifndef TC_CASES_PROBE_H
#define TC_CASES_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/gemm.h"

/* Writes a probe folder: the products' A and B as .npy, manifest.json
 * (reports/probe_export.c). An earlier export there is kept (an error)
 * unless force: then it goes whole, its D's and call.json too, so no D is
 * left beside inputs it was not computed from. 0 ok, -1 error (err set). */
int tc_probe_export_dir(const char *dir, int m, int n, int k, const char *format, unsigned long long seed, int force,
                        char *err, size_t errlen);
/* Reads a probe folder with the D's, infers the structure, predicts the
 * verify outputs with profile (a file; NULL: the profile of the GPU the
 * folder's call.json names, else h100's: probes/profile_of_device.c);
 * record_out (NULL: none) gets a tcscope-record/1 gemm object; summary one
 * line. 0 explained, 1 unexplained, -1 error. */
int tc_probe_infer_dir(const char *dir, const char *profile, const char *record_out, char *summary, size_t summarylen,
                       char *err, size_t errlen);

/* ---- the design (cases/gemm_probe_design.c) --------------------------------- */

typedef enum { PROBE_STEP, PROBE_RUNS, PROBE_VERIFY, PROBE_NPRODUCTS } tc_probe_product;

/* An export format: the upload formats of A and B, how numpy holds them
 * (descr; bf16 and FP8 as raw bits in unsigned integers, numpy having no
 * such dtype), and the gemm path whose instruction model predicts it. */
typedef struct {
    const char *name;              /* "f16", "bf16", "f32", "e4m3", "e5m2" */
    const char *path;              /* tc_gemm_path name */
    const char *descr_a, *descr_b; /* "<f2", "<u2", "<f4", "|u1" */
    const char *holds;             /* what the arrays hold, for the manifest */
} tc_probe_format;

const tc_probe_format *tc_probe_formats(size_t *count);
const tc_probe_format *tc_probe_format_by_name(const char *name);

typedef struct {
    int m, n, k;
    uint64_t seed;
    const tc_probe_format *fmt;
    const tc_gemm_path *path;
    /* Magnitudes (products): L large, s_run 3/4 of an FP32 ulp of L,
     * s_step far below what one step keeps of L. */
    double L, s_run, s_step;
    /* step: L at 0, -L at 1, s_step at q = step_c * (i % step_r) + j % step_c
     * (2 <= q < step_q; q 0 and 1 are controls: no small product). */
    int step_r, step_c, step_q;
    /* runs: candidate boundary x = gran * u, u = runs_c * (i % runs_r) +
     * j % runs_c, 1 <= u < nbound. cancel: L at x - 1, s_run at x, -L at
     * x + 1 (results s_run or an FP32 ulp of L, small enough for a 16-bit
     * output); else L at x - 1, s_run at x (L or L + ulp: an FP32 output;
     * FP8 steps keep too few bits for the cancelling form). */
    int runs_r, runs_c, gran, nbound;
    bool cancel;
    /* verify: random in rows i % vrow == 0 of A and columns j % vcol == 0
     * of B: the gemm case draw (seed, dist normal), A's K blocks of
     * TC_PROBE_KBLOCK positions scaled by 2^e, e uniform in [-5, 5] from the
     * seed. Partial sums of unlike size: FP32 additions that round, so the
     * outputs tell one summation order from another (FP8 steps keep so few
     * bits that sums of like-sized FP8 products add exactly in any order). */
    int vrow, vcol;
    sweep_dist dist;
} tc_probe_design;

/* The design of an export; -1 with err for a shape or format out of range
 * (M, N >= 16 and <= 16384, K a multiple of 16 in 16..65536). */
int tc_probe_design_make(int m, int n, int k, const char *format, uint64_t seed, tc_probe_design *d, char *err,
                         size_t errlen);
#define TC_PROBE_KBLOCK 32
#define TC_PROBE_KSCALE 5

/* The verify product's FP32 originals (bits; every row and column: the
 * grid is cut by tc_probe_inputs), what its inputs are rounded from. */
void tc_probe_verify_originals(const tc_probe_design *d, uint32_t *A, uint32_t *B);

/* A product's inputs as element bits (A m x k, B k x n, row-major). */
void tc_probe_inputs(const tc_probe_design *d, tc_probe_product p, uint32_t *A, uint32_t *B);
const char *tc_probe_product_name(tc_probe_product p);
/* The experiment index of output (i, j) in the step and runs products. */
int tc_probe_step_q(const tc_probe_design *d, int i, int j);
int tc_probe_runs_u(const tc_probe_design *d, int i, int j);

/* ---- the inference (cases/gemm_probe_infer.c) -------------------------------- */

/* Output blocks (runs_r x runs_c of the runs product) whose boundaries
 * agree: one class, one structure (a stream-K kernel gives its tiles
 * different shares of K, so different classes). */
typedef struct {
    tc_gemm_struct s;
    int nruns, *run_start;     /* accumulator runs seen (owned) */
    int blocks;                /* blocks of this class */
    size_t n, bit_exact;       /* verify outputs in them, predicted bit for bit */
} tc_probe_class;

/* A masking output whose value no test expects. */
typedef struct {
    tc_probe_product product;
    int i, j;
    uint32_t got;
} tc_probe_odd;

#define TC_PROBE_KEEP 16

typedef struct {
    int chunk;                 /* K per tensor-core step (first q the small product survives at); 0: none < step_q */
    bool chain;                /* a reduced-precision chain: a step fusing several products seen (chunk > 2),
                                * or (fp8_as_f16) an accumulator that keeps partial sums across K */
    bool fp8_as_f16;           /* FP8 steps fuse nothing the step product sees, yet the runs product shows
                                * an accumulator keeping its sums: FP8 widened to f16 on the 16-bit mma.sync
                                * (Triton's fallback from wgmma), chunk that instruction's K */
    size_t odd;                /* masking outputs with unexpected values */
    int nodd;
    tc_probe_odd odds[TC_PROBE_KEEP];
    int nbm, nbn, *block_class;    /* blocks of the runs product and their class (owned) */
    int nclass;
    tc_probe_class *cls;       /* owned */
    tc_gemm_incvt cvt;         /* input conversion (f32 exports) */
    const tc_format *out;      /* what the D's were rounded to: tc_f32, or tc_f16 / tc_bf16 (a 16-bit output) */
    size_t n, bit_exact;       /* every verify output */
    int nmiss;                 /* verify outputs the structure missed (first ones) */
    tc_gemm_miss miss[TC_PROBE_KEEP];
    int nunexplained;          /* fit outputs no candidate predicted (first ones), best candidate's value */
    tc_gemm_miss unexplained[TC_PROBE_KEEP];
    size_t fit_n;              /* outputs the candidates were tried on */
    int ncand;                 /* the best candidates (of the largest class), best first */
    tc_gemm_candidate cand[4];
    size_t nout;               /* every verify output, class by class: position, D, prediction (owned) */
    int *vi, *vj;
    uint32_t *vgot, *vpred;
    oracle_err_stats vs_original, vs_rounded;   /* the verify outputs against the exact products */
    size_t cvt_tried, cvt_bit_exact[8];   /* each conversion's best structure, on the fit outputs */
    bool explained;            /* >= 99.9% of the verify outputs predicted bit for bit */
    char why[300];             /* when not: what did not fit */
} tc_probe_result;

/* Progress of an inference: fn(ctx, done, total) as its steps end (each
 * class fitted, then the errors); total is known once the classes are. */
typedef struct {
    void (*fn)(void *ctx, size_t done, size_t total);
    void *ctx;
} tc_probe_tick;

/* The structure from the D's (FP32 bits, m x n each) of design d's
 * products; verify_A, verify_B: the verify product's inputs; tick (NULL:
 * none) hears each step end. -1 with err when the profile lacks the model. */
int tc_probe_infer(const tc_probe_design *d, const char *profile_path, const uint32_t *const D[PROBE_NPRODUCTS],
                   const uint32_t *verify_A, const uint32_t *verify_B, const tc_probe_tick *tick,
                   tc_probe_result *r, char *err, size_t errlen);
void tc_probe_result_free(tc_probe_result *r);

#endif
