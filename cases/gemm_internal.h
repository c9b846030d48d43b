/* Internals shared by cases/gemm*.c; not a public API. */
#ifndef TC_GEMM_INTERNAL_H
#define TC_GEMM_INTERNAL_H

#include "cases/gemm.h"
#include "probes/model_gpu_gemm.h"

/* Outputs a record carries (the first of the sampled ones, with their
 * positions and bits) so that CPU tests can replay the prediction; and
 * outputs the input-conversion candidates are tried on. */
#define GEMM_RECORDED_OUTPUTS 512
#define GEMM_CVT_TRIED 1024

#include <string.h>

/* FP32 bits as a float and back. */
static inline float gemm_f32_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline uint32_t gemm_bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* An enumeration's name from its table of names ("?" out of range), and
 * the value of a name (-1 when none): the combines, the input conversions. */
const char *gemm_name_of(const char *const *table, size_t n, int v);
int gemm_name_index(const char *const *table, size_t n, const char *name);

/* calloc that never returns NULL: out of memory is a message and exit 2. */
void *gemm_alloc(size_t count, size_t size);

/* Outputs of dot length k one thread gathers at a time (at least 1): its
 * operands stay within 2^22 elements each (32 MB), large enough that the
 * per-call costs of the batch functions stay small against the work. */
size_t gemm_batch(int k);

/* The inputs of case c as path p uploads them: A (m x k) into ua, B
 * (k x n) into ub, drawn from c's seed and distribution. */
void gemm_uploads(const tc_gemm_path *p, const tc_gemm_case *c, uint32_t *ua, uint32_t *ub);

/* Errors of outputs got (D[ii[e]][jj[e]], FP32 bits) against the exact
 * sums of products of A, B in formats fa, fb, summarised into *st. */
void gemm_errors(const tc_format *fa, const tc_format *fb, const uint32_t *A, const uint32_t *B, int n, int k,
                 size_t nout, const int *ii, const int *jj, const uint32_t *got, oracle_err_stats *st);

/* For each of nout outputs t, row ii[t] of A (m x k) and column jj[t] of B
 * (k x n) into a[t * k ..], b[t * k ..] (nout x k each). */
void gemm_gather(const uint32_t *A, const uint32_t *B, int n, int k, size_t nout, const int *ii, const int *jj,
                 uint64_t *a, uint64_t *b);

/* tc_gemm_struct_dot for nout outputs at once (a, b: nout x k row-major);
 * model_mma spreads each instruction step over the cores, except inside
 * oracle_parallel (gemm_predict spreads the outputs instead). */
void gemm_struct_dots(const tc_gemm_struct *s, const model *m, int k, size_t nout, const uint64_t *a,
                      const uint64_t *b, uint32_t *out);

/* Slice [lo, hi) of nout outputs (a, b: nout x k) under structure s (its
 * chunk and promote): runs from +0 on the tensor core, each added in FP32
 * RNE to the slice's sum, into sum[nout]. With promote 0, one run: the
 * tensor core's own result of [lo, hi). m NULL: no tensor core, each run
 * an FP32 FMA chain in K order (a, b then hold FP32 bits: gemm_widen_f32). */
void gemm_slice_sums(const tc_gemm_struct *s, const model *m, int k, size_t nout, const uint64_t *a,
                     const uint64_t *b, int lo, int hi, float *sum);

/* The slice sums v (s->splitk of them) met in FP32 (RNE) in s's order (tc_gemm_struct). */
float gemm_combine(const float *v, const tc_gemm_struct *s);
/* log2(S) when an XOR tree can meet S slices (a power of two, 4 .. 2^TC_GEMM_XOR_LEVELS), else 0. */
int gemm_xor_levels(int S);

/* A structure fitted to outputs (cases/gemm_fit.c): the accumulator runs
 * seen (run_start, nruns; every start a multiple of gran), the outputs
 * got = D[ii[e]][jj[e]] of the uploaded A (m x k) and B (k x n), rounded
 * to out (tc_f32: not rounded). */
typedef struct {
    const tc_gemm_path *path;
    const char *profile;
    int k, n, gran, chunk;
    const tc_format *out;
    int nruns;
    const int *run_start;
    const uint32_t *A, *B;
    size_t nout;
    const int *ii, *jj;
    const uint32_t *got;
    bool fma;                  /* runs are FP32 FMA chains from +0 in K order (no tensor core) */
    bool all;                  /* try every output (else a spread subset when K makes that costly) */
    uint32_t *pred;            /* NULL, or nout: the best structure's predictions when every output was tried */
    bool exhaustive;           /* score every structure on every output, one output at a time: the
                                * reference the blocked, pruned scoring (the default) must equal */
    tc_gemm_incvt only_cv;     /* with force_cv: this conversion, not the path's candidates */
    bool force_cv;
} gemm_fit_in;

typedef struct {
    bool have;                 /* some structure has the runs */
    tc_gemm_struct s;          /* the one predicting the most fit outputs */
    tc_gemm_incvt cv;
    size_t nfit, best_n;       /* outputs tried, of them predicted by s */
    int ncand;                 /* the best candidates, best first */
    tc_gemm_candidate cand[4];
    int ncv;                   /* each conversion's best count */
    tc_gemm_incvt cvs[8];
    size_t cvt_bit_exact[8];
    int nunexplained;          /* outputs tried that no candidate predicted (first ones) */
    tc_gemm_miss unexplained[TC_GEMM_KEEP];
    size_t scored, pruned;     /* structures scored on every output, stopped early (not a result: the cost) */
} gemm_fit_out;

/* -1 with err when a model is missing. */
int gemm_fit_structure(const gemm_fit_in *in, gemm_fit_out *o, char *err, size_t errlen);

/* An FP32 result as an output of format out holds it (RNE; tc_f32 or NULL: as it is). */
uint32_t gemm_round_out(const tc_format *out, uint32_t u);

/* The replay of a probe record's object (cases/gemm_probe_replay.c): the
 * recorded outputs got = D[ii[e]][jj[e]] predicted (into predicted[e]
 * unless NULL), the bit-exact ones counted. */
int gemm_probe_replay(const struct json_t *rec, const char *profile_path, size_t nout, const int *ii, const int *jj,
                      const uint32_t *got, size_t *bit_exact, uint32_t *predicted, char *err, size_t errlen);

/* The inferred structure of a case and how many of the sampled outputs it
 * predicts bit for bit, into *o. */
void gemm_infer_and_predict(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c, const uint32_t *A,
                            const uint32_t *B, size_t nout, const int *ii, const int *jj, const uint32_t *got,
                            tc_gemm_structure_result *o);

/* The instruction model of path p under input conversion c (NULL with err). */
model *gemm_model_in(const tc_gemm_path *p, const char *profile_path, tc_gemm_incvt c, char *err, size_t errlen);

/* D[ii[e]][jj[e]] (e < nout) as structure s and path p's instruction model
 * compute it from the uploaded A (m x k) and B (k x n) after conversion c.
 * -1 with err when there is no model. */
int gemm_predict(const tc_gemm_path *p, const char *profile_path, const tc_gemm_struct *s, tc_gemm_incvt c,
                 const uint32_t *A, const uint32_t *B, int n, int k, size_t nout, const int *ii, const int *jj,
                 uint32_t *pred, char *err, size_t errlen);

/* Structure s over K k as the GPU model's chain (probes/model_gpu_gemm.h);
 * bounds only when s has at most TC_MGEMM_MAX_SLICES slices. */
void gemm_chain_of(const tc_gemm_struct *s, int k, tc_model_gemm_chain *ch);

/* gemm_predict with every output walked by the GPU model g (cases/
 * gemm_predict_gpu.c), A m x k; g NULL: the same walk on the CPU (a test's
 * dry run; the CPU's predictor is gemm_predict). A structure the walk does
 * not take goes to gemm_predict. Outputs counted in *count by where they
 * were computed. -1 with err (no model, a CUDA failure). */
int gemm_predict_on(tc_model_gpu *g, const tc_gemm_path *p, const char *profile_path, const tc_gemm_struct *s,
                    tc_gemm_incvt c, const uint32_t *A, const uint32_t *B, int m, int n, int k, size_t nout,
                    const int *ii, const int *jj, uint32_t *pred, tc_model_gpu_count *count, char *err,
                    size_t errlen);

/* The elements (bits of upload format f in x[0..n)) as the tensor core
 * sees them under c: tf32 bits for the rounding conversions (of FP32), f16
 * bits for fp8-as-f16, unchanged otherwise. */
void gemm_convert_inputs(tc_gemm_incvt c, const tc_format *f, uint64_t *x, size_t n);

/* Elements of format f (x[0..n)) as FP32 bits, in place (exact: every
 * input format is narrower): what an FP32 FMA chain reads. */
void gemm_widen_f32(const tc_format *f, uint64_t *x, size_t n);

/* gemm_predict without a tensor core: structure s's runs as FP32 FMA
 * chains of the elements widened to FP32 (what a SIMT kernel computes). */
void gemm_predict_fma(const tc_gemm_path *p, const tc_gemm_struct *s, const uint32_t *A, const uint32_t *B, int n,
                      int k, size_t nout, const int *ii, const int *jj, uint32_t *pred);

/* Which of p's candidate conversions predict the outputs got (under s)
 * into *o (o->used: the one to predict with). -1 with err when a model is
 * missing. */
int gemm_infer_incvt(const tc_gemm_path *p, const char *profile_path, const tc_gemm_struct *s, const uint32_t *A,
                     const uint32_t *B, int n, int k, size_t nout, const int *ii, const int *jj, const uint32_t *got,
                     tc_gemm_incvt_result *o, char *err, size_t errlen);

#endif
