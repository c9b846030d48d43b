/* gemm: library GEMMs judged bit for bit (tcscope gemm).
 *
 * A "library" computes D = A * B (FP32 output, alpha 1, beta 0) for a named
 * path at a shape and returns the outputs asked for. Two exist: cuBLASLt on
 * the GPU (probes/gemm.h) and a simulated library, the instruction model of
 * a profile plus a known accumulation structure (tc_gemm_struct), which
 * lets the structure inference be tested where there is no GPU.
 *
 * A case draws the original inputs as FP32 from a seed and a distribution,
 * rounds them to the path's upload formats (RNE; FP8 saturating), runs the
 * library, and compares sampled outputs with the exact products (oracle/)
 * of the original FP32 inputs and of the uploaded (rounded) ones.
 */
#ifndef TC_CASES_GEMM_H
#define TC_CASES_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/sweep.h"
#include "formats/formats.h"
#include "oracle/model.h"
#include "oracle/oracle.h"
#include "probes/gemm.h"
#include "probes/model_gpu.h"

struct json_t;

typedef enum { GEMM_COMBINE_SEQ, GEMM_COMBINE_PAIRWISE, GEMM_COMBINE_REVERSE, GEMM_COMBINE_XOR } tc_gemm_combine;

/* How a library sums the K products of one output, as far as the masking
 * inputs can see: K is cut into `splitk` contiguous slices; in a slice the
 * tensor core accumulates runs of `promote` positions (0: the whole slice)
 * starting from zero, `chunk` positions per instruction step (D of one
 * step is C of the next); each run's result is added in FP32 (RNE) to the
 * slice's FP32 sum, the first run's taken as it is; the slices' sums meet
 * in FP32 (RNE) in K order (SEQ), as a balanced pairwise tree (PAIRWISE),
 * or from the last slice in K to the first (REVERSE: ((s[S-1] + s[S-2]) +
 * ...) + s[0]: what cuBLASLt's tf32 algo 43 with 15 slices did on the H100,
 * tools/gemm_splitk_explore), or (XOR; S a power of two, 4 .. 32) as a
 * tree of log2(S) levels: level l adds, for each slice index i whose bit
 * xor_bits[l] is clear, the sum at i + 2^xor_bits[l] to the sum at i, and
 * slice 0 ends with the result (bits 0, 1, .. in order are PAIRWISE): the
 * split-K reduction of JAX's dot on the H200, bits 3 4 0 2 1 for 32 slices
 * at 256 x 256 (tools/probe_run_sums on the record's outputs).
 * The cut: slice_unit 0: slices of k / splitk, the last taking the rest;
 * slice_unit U > 0: K in whole units of U positions (the kernel's K tile),
 * ceil(k / U) of them, each slice floor(units / splitk) units and the
 * units left over one each to the LAST slices (the cut
 * gemm_struct_bounds makes); slice_unit TC_GEMM_CUTS: the slices are
 * [cut[t], cut[t + 1]) as given (any uneven split-K, and a stream-K
 * tile's share of K among blocks), cut[0] = 0, cut[splitk] = k. */
#define TC_GEMM_MAX_SLICES 64
#define TC_GEMM_CUTS (-1)
#define TC_GEMM_XOR_LEVELS 5
typedef struct {
    int chunk;
    int promote;
    int splitk;
    tc_gemm_combine combine;
    int slice_unit;
    int cut[TC_GEMM_MAX_SLICES + 1];   /* slice_unit TC_GEMM_CUTS only */
    unsigned char xor_bits[TC_GEMM_XOR_LEVELS];   /* combine XOR only: the bit each level pairs slices by */
} tc_gemm_struct;

/* "seq", "pairwise", "reverse", "xor" (the records' names), and back. */
const char *tc_gemm_combine_name(tc_gemm_combine c);
/* How s splits K and meets the slices, as every text says it: "split-K S,
 * COMBINE", with " in units of U" (whole K tiles) or " cut at c1 c2 ..."
 * (uneven cuts; " ..." when len holds not all of them) after S. buf. */
const char *tc_gemm_slices_text(const tc_gemm_struct *s, char *buf, size_t len);
bool tc_gemm_combine_parse(const char *s, tc_gemm_combine *out);

typedef struct {
    const char *name;          /* "f16", "e4m3-fast", ... (probes/gemm.h) */
    const tc_format *a, *b;    /* upload formats (tf32 and f32 paths: the FP32 inputs as they are) */
    const char *instr;         /* the wgmma whose model predicts the path, NULL when none (SIMT FP32) */
    bool fp8;                  /* FP8 magnitudes for the masking inputs */
    const char *note;          /* what the path is, for records */
    const char *kernel;        /* NULL: a cuBLASLt path; else tcscope's own kernel (probes/cuda/gemm_wgmma.cu) */
    tc_gemm_struct built;      /* own kernels: the structure they have by construction (chunk 0: unknown) */
} tc_gemm_path;

const tc_gemm_path *tc_gemm_paths(size_t *count);
const tc_gemm_path *tc_gemm_path_by_name(const char *name);

/* ---- input conversion --------------------------------------------------------- */

/* What the library does to the uploaded elements before the tensor core
 * multiplies them. Only the tf32 path has a choice: it uploads FP32 and the
 * library (or the tensor core) makes tf32 of it in some way the outputs
 * must tell (cases/gemm_cvt.c, cases/gemm_predict.c): cut (RZ), rounded (RNA, RNE), or not at
 * all (the products use all 24 bits). Every other path: as uploaded.
 * FP8_AS_F16 is no candidate of a path: FP8 widened (exactly) to f16 for
 * the 16-bit mma.sync (mma.m16n8k16.f32.f16.f16.f32), what Triton does on
 * Hopper when a dot cannot use wgmma (max_num_imprecise_acc < 32 with an
 * FP32 accumulator: supportMMA and decomposeMixedModeDotOp in
 * AccelerateMatmul); the probe tries it when its masking products show
 * one (cases/gemm_probe_fit.c). */
typedef enum {
    GEMM_IN_AS_UPLOADED,
    GEMM_IN_TF32_RZ,
    GEMM_IN_TF32_RNA,
    GEMM_IN_TF32_RNE,
    GEMM_IN_FULL_F32,
    GEMM_IN_FP8_AS_F16
} tc_gemm_incvt;

/* The instruction FP8_AS_F16 predicts with. */
#define GEMM_F16_MMA_SYNC "mma.m16n8k16.f32.f16.f16.f32"
/* The model of a chain without a tensor-core step (a SIMT kernel): an FP32
 * fused multiply-add per product, in K order, from +0 in each run
 * (gemm_slice_sums without a model). */
#define GEMM_FP32_FMA "fp32-fma"

const char *tc_gemm_incvt_name(tc_gemm_incvt c);
bool tc_gemm_incvt_parse(const char *s, tc_gemm_incvt *out);
/* The conversions path p's outputs must choose among (count returned). */
int tc_gemm_incvt_candidates(const tc_gemm_path *p, tc_gemm_incvt *out);

/* ---- libraries ------------------------------------------------------------ */

/* Runs one GEMM (A m x k, B k x n, element bits row-major in uint32_t) and
 * returns D[ii[s]][jj[s]] (FP32 bits) for s < nout. reps > 0 also times it
 * (median ms of reps launches after warmup ones). 0, 1 when the library has
 * no algorithm for this path and shape (err says why), -1 on an error. */
typedef int (*tc_gemm_run_fn)(void *ctx, const tc_gemm_path *p, int m, int n, int k, const uint32_t *A,
                              const uint32_t *B, size_t nout, const int *ii, const int *jj, uint32_t *out,
                              int warmup, int reps, double *ms_median, tc_gemm_algo *algo, char *err,
                              size_t errlen);
typedef struct {
    char name[64];             /* "cublaslt", "sim" */
    char device[128];
    long version;              /* cuBLASLt version, 0 for the simulation */
    tc_gemm_run_fn run;
    void *ctx;
} tc_gemm_lib;

/* cuBLASLt on CUDA device `device`; -1 with err when there is no GPU or the
 * build has no CUDA. */
int tc_gemm_lib_gpu(tc_gemm_lib *lib, int device, char *err, size_t errlen);

/* ---- accumulation structure ------------------------------------------------ */

/* tc_gemm_struct is declared above, with the paths. Two structures are the
 * same when every field is (promote is 0 whenever no run ends inside a
 * slice, as tc_gemm_infer reports it). */
bool tc_gemm_struct_same(const tc_gemm_struct *x, const tc_gemm_struct *y);

/* One output as the structure and the instruction model `m` compute it
 * (a, b: k element bits in m's formats; the result: FP32 bits). */
uint32_t tc_gemm_struct_dot(const tc_gemm_struct *s, const model *m, int k, const uint64_t *a, const uint64_t *b);

/* The simulated library: path p's instruction in the profile, structure s,
 * inputs converted by incvt (where the path has that choice, else as uploaded).
 * The profile's parameters are copied; the ctx lives in *lib until
 * tc_gemm_lib_sim_free. -1 with err when the profile lacks the instruction. */
int tc_gemm_lib_sim(tc_gemm_lib *lib, const char *profile_path, const tc_gemm_struct *s, tc_gemm_incvt incvt,
                    char *err, size_t errlen);
void tc_gemm_lib_sim_free(tc_gemm_lib *lib);

/* The model of path p's instruction from a profile (NULL with err). */
model *tc_gemm_model(const tc_gemm_path *p, const char *profile_path, char *err, size_t errlen);

/* Structure s's slice boundaries over K: slice t is [b[t], b[t + 1]),
 * b[0] = 0, b[splitk] = k (b holds splitk + 1 entries; splitk < 1 is 1).
 * Public for the summation tree reports/ draws. */
void gemm_struct_bounds(const tc_gemm_struct *s, int k, int *b);

/* A record's "structure" object: the inferred structure and the input
 * conversion used (as-uploaded when absent). -1 + err ("record: ...") when
 * it has no inferred structure or one out of range. */
int tc_gemm_struct_read(const struct json_t *st, tc_gemm_struct *s, tc_gemm_incvt *cv, char *err, size_t errlen);

/* ---- inference ------------------------------------------------------------- */

typedef struct {
    tc_gemm_struct s;          /* what was inferred */
    int nruns;                 /* accumulator runs found along K */
    int *run_start;            /* their first positions (nruns), owned */
    int *lca;                  /* leaves under the meeting point of run 0 and run j (nruns), owned */
    int probes, calls;         /* masking outputs read, library calls made */
    bool consistent;           /* every masking output was one of the expected values and the
                                  runs and meetings fit the structure's form */
    char why[256];             /* when not consistent: the first thing that did not fit */
} tc_gemm_inferred;

/* Infers the structure of lib's path p at m x n x k from masking inputs
 * (probes on the diagonal, min(m, n) per call). -1 with err on a library
 * error or a skip. */
int tc_gemm_infer(const tc_gemm_lib *lib, const tc_gemm_path *p, int m, int n, int k, tc_gemm_inferred *out,
                  char *err, size_t errlen);
void tc_gemm_inferred_free(tc_gemm_inferred *r);

/* ---- cases ---------------------------------------------------------------- */

typedef struct {
    int m, n, k;
    sweep_dist dist;
    uint64_t seed;
    size_t samples;            /* outputs compared (all when >= m * n) */
    int warmup, reps;          /* timing; reps 0: none */
    bool infer;                /* also infer the structure and predict the samples */
    const char *profile;       /* the instruction model's profile file (infer) */
    tc_model_gpu *model_gpu;   /* the predictions by the GPU model (probes/model_gpu_gemm.h); NULL: the CPU's */
} tc_gemm_case;

/* Which input conversion predicts the outputs (tc_gemm_incvt_candidates,
 * each tried on the first `tried` sampled outputs). One candidate: nothing
 * was tried. */
typedef struct {
    int ncand;
    tc_gemm_incvt cand[8], used;
    size_t tried, bit_exact[8];    /* of cand[x], out of tried */
} tc_gemm_incvt_result;

/* An output the structure did not predict. */
typedef struct {
    int i, j;
    uint32_t got, predicted;
} tc_gemm_miss;

/* A candidate structure and how many of the outputs tried it predicted. */
typedef struct {
    char desc[200];
    size_t n, bit_exact;
} tc_gemm_candidate;

#define TC_GEMM_KEEP 16

/* What --infer found for a case: the structure, and its predictions. */
typedef struct {
    bool failed;               /* the inference failed (why in error): nothing else holds */
    char error[512];
    tc_gemm_inferred r;
    bool matches_construction; /* an own kernel: consistent and the structure built */
    bool unpredicted;          /* no prediction (no model; why in prediction_error): nothing below holds */
    bool fma;                  /* predicted as FP32 FMA chains (GEMM_FP32_FMA), no instruction model */
    char prediction_error[512];
    tc_gemm_incvt_result cvt;
    size_t n, bit_exact;       /* sampled outputs, predicted bit for bit */
    size_t recorded_bit_exact; /* of those the record carries */
    int nmiss;                 /* first mismatches (at most 8) */
    tc_gemm_miss miss[8];
    /* When the masking structure is inconsistent or predicts < 99.9%: every
     * structure with the runs seen, fitted to the outputs (cases/gemm_fit.c);
     * kept when it predicts more (fitted). Then explained or not, with the
     * outputs no candidate predicts and the best candidates' rates. */
    bool fitted, explained;
    size_t fit_n;
    int ncand;
    tc_gemm_candidate cand[4];
    int nunexplained;
    tc_gemm_miss unexplained[TC_GEMM_KEEP];
    /* The outputs the predictions (the structure's, a refit's) computed on
     * the GPU model and on the CPU's (the conversion trials: the CPU's). */
    tc_model_gpu_count model;
} tc_gemm_structure_result;

/* One case as it ran: what reports/record_gemm.h writes as the case's
 * object of a gemm record (reports/SCHEMA.md). */
typedef struct {
    const tc_gemm_path *path;
    tc_gemm_case c;
    char library[64], device[128];  /* an own kernel on the GPU: its name, version 0 */
    long library_version;
    bool saturating;           /* the upload rounding saturates (FP8), else overflows to infinity */
    int status;                /* 0 ran; 1 skipped, -1 error: why in err, nothing below holds */
    char err[512];
    tc_gemm_algo algo;         /* cuBLASLt's choice (an own kernel has none) */
    double ms_median;          /* c.reps > 0 */
    size_t samples;            /* outputs compared */
    size_t nrec;               /* the first sampled outputs, recorded: D[ii[e]][jj[e]] = got[e] */
    int *ii, *jj;
    uint32_t *got;
    oracle_err_stats vs_original, vs_rounded;
    tc_gemm_structure_result st;   /* c.infer */
} tc_gemm_case_result;

/* One case into *res (free with tc_gemm_case_result_free; "skipped" or
 * "error" in res->status when it could not run). */
void tc_gemm_run_case(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c, tc_gemm_case_result *res);
void tc_gemm_case_result_free(tc_gemm_case_result *res);

/* Replays one gemm case (reports/record_gemm.h reads them) on the CPU:
 * draws its inputs again (seed, distribution), predicts its recorded outputs ("outputs") with the
 * instruction model of the profile and the record's inferred structure and
 * input conversion, and counts the bit-exact ones (*n of them recorded).
 * -1 with err when the record lacks what the replay needs. */
int tc_gemm_replay(const struct json_t *rec, const char *profile_path, size_t *n, size_t *bit_exact, char *err,
                   size_t errlen);

#endif
