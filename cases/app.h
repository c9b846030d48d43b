/* app: how one GEMM of the user's shape and data comes out of one
 * instruction, for `tcscope choose` in application mode.
 *
 * The workload: C = A * B with A M x K, B K x N, entries drawn from a
 * distribution (normal, uniform, lognormal with parameters, or resampled
 * from the user's own values), scaled (none, per tensor, per row of A and
 * column of B, or per block of 32 along K, always by E8M0 powers of two),
 * then rounded into the candidate's input format (RNE; FP8 saturating, as
 * cvt.rn.satfinite does; wider formats overflow to Inf).
 *
 * One candidate = instruction x accumulation strategy. A sampled output
 * D[i][j] (a dot product of length K) is computed as a GEMM main loop on
 * that instruction computes it: K in chunks of the instruction's k (the
 * last chunk zero-padded), each chunk one MMA run on the backend, its C the
 * previous chunk's D ("chained"), or, with "promote", every `promote`
 * elements of K the MMA restarts from 0 and its D is added into an FP32
 * register: acc + D * descale with D * descale exact (powers of two) and
 * the add one RNE rounding in FP32 (an FFMA gives the same where the
 * descale is a float); an f64 register for DMMA.
 * Per-block scaling needs promote = 32 (each block has its own scales).
 * The descaling of chained results is a multiplication by powers of two,
 * done exactly in double.
 *
 * The references: the exact dot product of the ORIGINAL (unrounded, double)
 * inputs, and of the rounded inputs (descaled exactly), each computed
 * exactly and rounded once to f64 (so errors below ~1e-16 are not
 * resolved): integer exact sums (probes/model_gpu_exact.h, the MPFR/GMP
 * oracle's bits; the oracle itself for an output with a non-finite operand),
 * once per data set and shared by the candidates that multiply the same
 * values.
 */
#ifndef TC_APP_H
#define TC_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/gemm.h"
#include "formats/formats.h"
#include "probes/model_gpu.h"
#include "probes/probes.h"

/* The distributions the sweep has too (loguniform, ints) are drawn as the
 * sweep draws them (sweep_draw): one name, one distribution, every command. */
typedef enum { APP_NORMAL, APP_UNIFORM, APP_LOGNORMAL, APP_LOGUNIFORM, APP_INTS, APP_SAMPLES } app_dist_kind;

typedef struct {
    app_dist_kind kind;
    double p1, p2;           /* normal/lognormal: mu, sigma; uniform: lo, hi; loguniform: R binades each side */
    double *samples;         /* APP_SAMPLES: the user's values (owned) */
    size_t nsamples;
    char desc[300];          /* "normal(mu=0, sigma=1)", "samples of FILE (n values)" */
} app_dist;

/* "normal[:MU,SIGMA]", "uniform[:LO,HI]", "lognormal[:MU,SIGMA]",
 * "loguniform[:R]" (R 1..60, default 16), "ints". false + err. */
bool app_dist_parse(const char *s, app_dist *d, char *err, size_t len);
/* The values of FILE: a .npy file (little-endian float32 or float64, C or
 * Fortran order, any shape) when it starts with the NPY magic, else raw
 * little-endian float32. Every value must be finite; at least one. false + err. */
bool app_dist_load(const char *path, app_dist *d, char *err, size_t len);
void app_dist_free(app_dist *d);

typedef enum { APP_SCALE_NONE, APP_SCALE_TENSOR, APP_SCALE_ROW, APP_SCALE_BLOCK32 } app_scaling;
const char *app_scaling_name(app_scaling s);
bool app_scaling_parse(const char *s, app_scaling *out);
#define APP_BLOCK 32

/* The sampled inputs: rows x K of A (the first rows of the M x K tensor),
 * K x cols of B (its first columns, stored column by column), drawn in
 * double. amax_a / amax_b: with whole_amax, the largest |x| of the whole
 * M x K and K x N tensors (the rest is drawn from the same streams, only
 * for the per-tensor scale); else of the sampled values only. */
typedef struct {
    int m, n, k;             /* the user's shape */
    int rows, cols;          /* the sampled block (outputs: rows x cols) */
    double *A, *B;
    double amax_a, amax_b;
    uint64_t seed;
} app_data;

/* false + err when out of memory. */
bool app_data_make(app_data *d, const app_dist *dist, int m, int n, int k, int rows, int cols, uint64_t seed,
                   bool whole_amax, char *err, size_t len);
void app_data_free(app_data *d);

/* Relative-error statistics of the sampled outputs (NaN: none qualifies;
 * Inf: an output was not finite). */
typedef struct {
    double median, p90, p99, max;   /* of |got - ref| / |ref| over outputs with ref != 0 */
    double normwise;                 /* ||got - ref||_2 / ||ref||_2 over all sampled outputs */
    size_t n, zero_ref, nonfinite;
} app_stats;

/* The statistic named by metric ("median", "p90", "p99", "max", "normwise"); NaN for an unknown name. */
double app_stats_get(const app_stats *s, const char *metric);
bool app_metric_ok(const char *metric);

typedef struct {
    const tc_instr *ins;
    int promote;             /* 0: chained over all of K; else FP32 promotion every `promote` elements */
    app_scaling scaling;
    int rows, cols;          /* outputs evaluated (<= the data's) */
} app_candidate;

/* Where one evaluation's wall time went, measured (clock_gettime), so a
 * run on a GPU says what dominates: the operands made (quantized, converted,
 * laid out on the host), the candidate's outputs (model_s; of it the GPU
 * walk's kernels, its copies, and the CPU's share: the predictor, or the
 * outputs the walk declined), the exact references this candidate had to
 * compute (0 where every one was already computed for an earlier candidate
 * of the same data: references_shared counts those), and the error
 * statistics. */
typedef struct {
    double inputs_s, model_s, model_kernel_s, model_copy_s, model_cpu_s, references_s, metrics_s;
    int references_computed, references_shared;
} app_stages;

typedef struct {
    app_stats vs_orig, vs_rounded;
    size_t outputs;
    double seconds;          /* wall time of this evaluation */
    app_stages stages;
} app_result;

/* The most outputs an instruction chain is evaluated on (tile by tile on
 * the backend; beyond it choose evaluates the library paths alone). */
#define APP_CHAIN_MAX_OUTPUTS 1000000

/* Evaluates one candidate on backend b. 0, or -1 + err (backend refusal). */
int app_eval(tc_backend *b, const app_data *d, const app_candidate *c, app_result *r, char *err, size_t len);

/* One library path as the instruction model + an accumulation structure
 * compute it (cases/gemm.h): the user's values rounded into the path's
 * upload formats with the scaling (none, per-tensor or per-row: one scale
 * per row of A / column of B, undone exactly on the FP32 output; block32
 * is refused, the recorded paths take no per-block scales), converted as
 * the path converts them (tf32), then each sampled output summed as the
 * structure says with the model of the path's instruction in `profile`
 * (made for conversion incvt): with walk, by the GPU model's walk (one GPU
 * thread per output, probes/model_gpu_gemm.h) where it takes the structure,
 * else by the CPU's predictor; the
 * outputs each computed are added to *count (NULL: not counted). */
typedef struct {
    const tc_gemm_path *p;
    tc_gemm_struct s;
    tc_gemm_incvt incvt;
    const char *profile;
    app_scaling scaling;
    int rows, cols;
    bool walk;                 /* the outputs walked by tc_model_gpu_gemm on gpu (NULL: on the CPU's cores) */
    tc_model_gpu *gpu;
    tc_model_gpu_count *count;
} app_lib_candidate;

/* As app_eval, for a library path (no backend: the model). 0, or -1 + err
 * (block32, no model of the path). */
int app_eval_lib(const app_data *d, const app_lib_candidate *c, app_result *r, char *err, size_t len);

/* Frees the cached exact references (they are kept across candidates). */
void app_reference_cache_clear(void);

/* The exact references computed on GPU g from now on (probes/
 * model_gpu_exact.h: integer exact sums, the oracle's bits), the outputs
 * counted in *count; NULL: the same sums on the CPU's cores (the default). */
void app_reference_use(tc_model_gpu *g, tc_model_gpu_count *count);

#endif
