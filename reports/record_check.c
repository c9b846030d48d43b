/* Record validation: the required fields of each kind, as a table, so that
 * reports/SCHEMA.md and the code say the same thing. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/record_audit.h"
#include "reports/reports.h"
#include "reports/reports_internal.h"

typedef enum {
    F_STR, F_INT, F_NUM, F_NUM_NULL, F_INT_NULL, F_OBJ, F_OBJ_NULL, F_ARR, F_BOOL, F_BITS,
    F_HASH,     /* "0x" and exactly 16 lower-case hex digits */
    F_BITS_ARR, /* an array of F_BITS */
    F_NUM_ARR,  /* an array of numbers */
    F_ARR_STR,  /* an array, or a string (why it is missing) */
    F_STR_NULL,
} ftype;

/* opt: the field may be absent; when present it has the type all the same
 * (so a number written as a string is refused in optional fields too). */
typedef struct {
    const char *name;
    ftype type;
    bool opt;
} field;

#define OPT true
#define REQ false

static const field header_fields[] = {
    {"schema", F_STR, REQ},  {"record", F_STR, OPT}, {"kind", F_STR, OPT},   {"tcscope_version", F_STR, REQ}, {"date", F_STR, REQ},
    {"host", F_STR, REQ},    {"backend", F_STR, REQ}, {"gpu", F_STR, REQ},            {"driver", F_STR, REQ},
    {"cuda", F_STR, REQ},    {"clock_mhz", F_INT_NULL, REQ}, {"seeds", F_BITS_ARR, REQ},
    {"compiler", F_STR, OPT}, {"sm", F_INT_NULL, OPT}, {"sm_count", F_INT_NULL, OPT}, {"run_id", F_STR, OPT},
    {NULL, F_STR, REQ},
};
static const field audit_fields[] = {
    {"instr", F_STR, REQ}, {"fingerprint", F_OBJ, REQ}, {"evidence", F_OBJ, REQ},
    {"verification", F_OBJ, REQ}, {"timing", F_OBJ_NULL, REQ},
    {"fit_mismatches", F_INT, OPT}, {"fit_evaluations", F_OBJ, OPT}, {"counterexample_rounds", F_INT, OPT},
    {"features", F_ARR_STR, OPT}, {"answers", F_OBJ, OPT}, {"control", F_OBJ, OPT}, {NULL, F_STR, REQ},
};
static const field verification_fields[] = {
    {"elements", F_INT, REQ}, {"mismatches", F_INT, REQ}, {"verified", F_BOOL, REQ}, {"smallest_failures", F_ARR, OPT},
    {NULL, F_STR, REQ},
};
static const field corpus_fields[] = {
    {"instr", F_STR, REQ}, {"count", F_INT, REQ}, {"hash", F_HASH, REQ}, {"outputs", F_BITS_ARR, REQ}, {NULL, F_STR, REQ},
};
/* A bench object's figures; an audit's `timing` has the same without instr. */
#define TIMING_FIELDS                                                                                        \
    {"latency_cycles", F_NUM_NULL, REQ}, {"throughput_fma_clk_sm", F_NUM_NULL, REQ}, {"fraction_of_peak", F_NUM_NULL, REQ}, \
        {"tflops", F_NUM_NULL, REQ}, {"latency_cycles_runs", F_NUM_ARR, OPT},                                     \
        {"throughput_fma_clk_sm_runs", F_NUM_ARR, OPT}, {"tflops_runs", F_NUM_ARR, OPT},                     \
        {"table", F_ARR, OPT}, {"tflops_zero", F_NUM_NULL, OPT}, {"sm_clock_mhz", F_NUM_NULL, OPT},          \
        {"emulated", F_BOOL, OPT}
static const field bench_fields[] = {{"instr", F_STR, REQ}, TIMING_FIELDS, {NULL, F_STR, REQ}};
/* One candidate of choose for an application (reports/choose_app.h). */
static const field choice_fields[] = {
    {"instr", F_STR, REQ},    {"format", F_STR, REQ},       {"strategy", F_STR, REQ}, {"metric", F_STR, REQ},
    {"error", F_NUM_NULL, REQ}, {"error_vs_rounded", F_NUM_NULL, REQ}, {"tflops", F_NUM_NULL, REQ},
    {"workload", F_OBJ, REQ}, {"vs_original", F_OBJ, REQ}, {"vs_rounded", F_OBJ, REQ}, {NULL, F_STR, REQ},
};
static const field timing_fields[] = {TIMING_FIELDS, {NULL, F_STR, REQ}};
static const field hunt_fields[] = {
    {"instr", F_STR, REQ}, {"elements", F_INT, REQ}, {"mismatches", F_INT, REQ}, {"families", F_OBJ, REQ},
    {"failures", F_ARR, OPT}, {"sample", F_OBJ, OPT}, {"deciding", F_ARR, OPT}, {NULL, F_STR, REQ},
};
/* The deciding inputs of one instruction (reports/record_decide.h). */
static const field decide_fields[] = {
    {"instr", F_STR, REQ},  {"k", F_INT, REQ},        {"seed", F_BITS, REQ},  {"per_family", F_INT, REQ},
    {"mutations", F_INT, REQ}, {"pool", F_INT, REQ},  {"pool_hash", F_HASH, REQ}, {"fingerprint", F_OBJ, REQ},
    {"inputs", F_ARR, REQ}, {"pairs", F_INT, REQ},    {"explicit", F_ARR, REQ}, {"open", F_OBJ, REQ},
    {"hw", F_STR, OPT},     {"equivalent", F_OBJ, OPT}, {NULL, F_STR, REQ},
};
static const field hunt_family_fields[] = {{"elements", F_INT, REQ}, {"mismatches", F_INT, REQ}, {NULL, F_STR, REQ}};
static const field hunt_failure_fields[] = {
    {"family", F_STR, REQ}, {"a", F_BITS_ARR, REQ}, {"b", F_BITS_ARR, REQ}, {"c", F_BITS, REQ},
    {"hw", F_BITS, REQ},    {"model", F_BITS, REQ}, {NULL, F_STR, REQ},
};
static const field sweep_fields[] = {
    {"format", F_STR, REQ}, {"instr", F_STR, REQ}, {"k", F_INT, REQ},      {"dist", F_STR, REQ},  {"from", F_STR, REQ},
    {"round", F_STR, REQ},  {"scale", F_STR, REQ}, {"trials", F_INT, REQ}, {"seed", F_BITS, REQ}, {"chain", F_INT, REQ},
    {"steps", F_ARR, REQ},  {"m", F_INT, OPT}, {"log_range", F_INT, OPT}, {"chain_path", F_STR, OPT},
    {"cvt_mismatches", F_INT, OPT}, {"tflops", F_NUM_NULL, OPT}, {NULL, F_STR, REQ},
};
static const field step_fields[] = {
    {"step", F_INT, REQ},      {"median", F_NUM_NULL, REQ}, {"p90", F_NUM_NULL, REQ}, {"max", F_NUM_NULL, REQ},
    {"overflow", F_NUM, REQ},  {"nan", F_NUM, REQ},         {"time_s", F_NUM_NULL, REQ},
    {"local_median", F_NUM_NULL, OPT}, {"local_p90", F_NUM_NULL, OPT}, {"local_max", F_NUM_NULL, OPT},
    {"n", F_INT, OPT}, {NULL, F_STR, REQ},
};

/* The objects of the commands' --json records (SCHEMA.md "Command output"). */
static const field instr_fields[] = { /* list */
    {"instr", F_STR, REQ}, {"api", F_STR, REQ}, {"m", F_INT, REQ}, {"n", F_INT, REQ}, {"k", F_INT, REQ},
    {"a", F_STR, REQ}, {"b", F_STR, REQ}, {"c", F_STR, REQ}, {"d", F_STR, REQ}, {"sass", F_STR, REQ},
    {"sm_min", F_INT, REQ}, {"sparse", F_BOOL, REQ}, {"a_in_regs", F_BOOL, REQ},
    {"backend", F_STR, OPT}, {"supported", F_BOOL, OPT}, {"why", F_STR, OPT}, {NULL, F_STR, REQ},
};
static const field format_fields[] = { /* formats */
    {"name", F_STR, REQ}, {"bits", F_INT, REQ}, {"storage_bits", F_INT, REQ}, {"shift", F_INT, REQ},
    {"ebits", F_INT, REQ}, {"mbits", F_INT, REQ}, {"precision", F_INT, REQ}, {"bias", F_INT, REQ},
    {"max", F_STR, REQ}, {"max_decimal", F_STR, REQ}, {"min_normal", F_STR, REQ}, {"min_subnormal", F_STR, REQ},
    {"eps", F_STR, REQ}, {"specials", F_STR, REQ}, {"emin", F_INT_NULL, REQ}, {"emax", F_INT_NULL, REQ},
    {"nan_bits", F_BITS, OPT}, {NULL, F_STR, REQ},
};
static const field conversion_fields[] = { /* convert */
    {"input", F_STR, REQ}, {"input_value", F_STR, REQ}, {"input_exact", F_BOOL, REQ}, {"format", F_STR, REQ},
    {"round", F_STR, REQ}, {"overflow", F_STR, REQ}, {"ftz", F_BOOL, REQ}, {"bits", F_BITS, REQ},
    {"class", F_STR, REQ}, {"value", F_STR, REQ}, {"value_decimal", F_STR, REQ}, {"flags", F_OBJ, REQ},
    {"rbits", F_INT, OPT}, {NULL, F_STR, REQ},
};
static const field run_fields[] = { /* run: one dot product */
    {"backend", F_STR, REQ}, {"instr", F_STR, REQ}, {"k", F_INT, REQ}, {"a", F_BITS_ARR, REQ},
    {"b", F_BITS_ARR, REQ}, {"c", F_BITS, REQ}, {"d", F_BITS, REQ}, {"d_value", F_STR, REQ},
    {"exact", F_STR, REQ}, {"rounded", F_BITS, REQ}, {"rounded_value", F_STR, REQ}, {"err_ulps", F_NUM_NULL, REQ},
    {NULL, F_STR, REQ},
};
static const field layout_fields[] = { /* run --check-layout */
    {"instr", F_STR, REQ}, {"backend", F_STR, REQ}, {"layout", F_STR, REQ}, {"why", F_STR, OPT}, {NULL, F_STR, REQ},
};
/* The raw GPU records' lines (SCHEMA.md "Raw GPU records"): their readers
 * (probes/backend_corpus.c, probes/dots.c) check every element; here the
 * fields that say what a line is. */
static const field tiles_fields[] = { /* record corpus */
    {"instr", F_STR, REQ}, {"backend", F_STR, REQ}, {"device", F_STR, REQ}, {"driver", F_STR, REQ},
    {"cuda", F_STR, REQ},  {"sm", F_INT, REQ},      {"seed", F_INT, REQ},   {"ntiles", F_INT, REQ},
    {"layout", F_STR, REQ}, {"sass", F_OBJ, OPT},   {"inputs_of", F_STR, OPT}, {"d_same_as", F_STR, OPT},
    {"a", F_STR, OPT},     {"b", F_STR, OPT},       {"c", F_STR, OPT},      {"d", F_STR, OPT},
    {NULL, F_STR, REQ},
};
static const field chain_fields[] = { /* record chains */
    {"instr", F_STR, REQ}, {"key", F_STR, REQ},  {"backend", F_STR, REQ}, {"device", F_STR, REQ},
    {"driver", F_STR, REQ}, {"cuda", F_STR, REQ}, {"sm", F_INT, REQ},      {"seed", F_INT, REQ},
    {"chains", F_INT, REQ}, {"len", F_INT, REQ},  {"cvt", F_OBJ, REQ},     {"same_as", F_STR, OPT},
    {"a0", F_STR, OPT},    {"b", F_STR, OPT},    {"c", F_STR, OPT},       {"x", F_STR, OPT},
    {"d", F_STR, OPT},     {NULL, F_STR, REQ},
};
static const field dots_fields[] = { /* record dots (tcscope import km) */
    {"instr", F_STR, REQ}, {"gpu", F_STR, REQ}, {"source", F_STR, REQ}, {"files", F_STR, REQ},
    {"rows", F_INT, REQ},  {"k", F_INT, REQ},   {"inputs_of", F_STR, OPT}, {"a", F_STR, OPT},
    {"b", F_STR, OPT},     {"c", F_STR, REQ},   {"d", F_STR, REQ},      {NULL, F_STR, REQ},
};
static const field verify_fields[] = {
    {"instr", F_STR, REQ}, {"backend", F_STR, REQ}, {"device", F_STR, REQ}, {"profile", F_STR, REQ},
    {"n", F_INT, REQ}, {"mismatches", F_INT, REQ}, {"verified", F_BOOL, REQ}, {"distributions", F_OBJ, REQ},
    {"hunt_draw", F_STR, OPT}, {"hunt_path", F_STR, OPT}, {"random_path", F_STR, OPT}, {NULL, F_STR, REQ},
};
static const field verify_failure_fields[] = {
    {"instr", F_STR, REQ}, {"failure", F_INT, REQ}, {"dist", F_STR, REQ}, {"k", F_INT, REQ},
    {"nonzero_terms", F_INT, REQ}, {"a", F_BITS_ARR, REQ}, {"a_values", F_ARR, REQ}, {"b", F_BITS_ARR, REQ},
    {"b_values", F_ARR, REQ}, {"c", F_BITS, REQ}, {"c_value", F_STR, REQ}, {"d_backend", F_BITS, REQ},
    {"d_backend_value", F_STR, REQ}, {"d_model", F_BITS, REQ}, {"d_model_value", F_STR, REQ}, {NULL, F_STR, REQ},
};
static const field case_fields[] = { /* cases: one case on one instruction */
    {"case", F_STR, REQ}, {"file", F_STR, REQ}, {"line", F_INT, REQ}, {"instr", F_STR, REQ},
    {"backend", F_STR, REQ}, {"probes", F_STR, REQ}, {"feature", F_STR_NULL, REQ}, {"level", F_INT_NULL, REQ},
    {"d", F_BITS, REQ}, {"d_value", F_STR, REQ}, {"exact", F_BITS, REQ}, {"exact_value", F_STR, REQ},
    {"verdict", F_STR, REQ}, {"failed", F_STR_NULL, REQ}, {"behaviour", F_ARR, REQ}, {"unrecognised", F_BOOL, REQ},
    {"d_last", F_BITS, OPT}, {"d_last_value", F_STR, OPT}, {"variants", F_INT, REQ}, {"distinct", F_INT, REQ},
    {NULL, F_STR, REQ},
};
static const field case_feature_fields[] = {
    {"instr", F_STR, REQ}, {"feature", F_STR, REQ}, {"result", F_STR, REQ}, {"cases", F_INT, REQ},
    {"pass", F_INT, REQ}, {"fail", F_INT, REQ}, {"level", F_INT_NULL, REQ}, {"max_level", F_INT_NULL, REQ},
    {"behaviour", F_ARR, REQ}, {NULL, F_STR, REQ},
};
static const field case_total_fields[] = {
    {"backend", F_STR, REQ}, {"instructions", F_INT, REQ}, {"cases", F_INT, REQ}, {"pass", F_INT, REQ},
    {"fail", F_INT, REQ}, {"info", F_INT, REQ}, {NULL, F_STR, REQ},
};
static const field figure_fields[] = { /* bench --json: one figure */
    {"bench", F_STR, REQ}, {"instr", F_STR_NULL, REQ}, {"value", F_NUM_NULL, REQ}, {"unit", F_STR, REQ},
    {"machine", F_STR, REQ}, {NULL, F_STR, REQ},
};
static const field compare_context_fields[] = {{"context", F_OBJ, REQ}, {NULL, F_STR, REQ}};
static const field difference_fields[] = {{"difference", F_OBJ, REQ}, {NULL, F_STR, REQ}};
static const field compare_summary_fields[] = {
    {"compare", F_STR, REQ}, {"differences", F_INT, REQ}, {"objects_old", F_INT, REQ}, {"objects_new", F_INT, REQ},
    {NULL, F_STR, REQ},
};
static const field regress_fields[] = {
    {"instr", F_STR, REQ}, {"same", F_BOOL, REQ}, {"elements", F_INT, REQ}, {"mismatches", F_INT, REQ},
    {"differences", F_ARR, REQ}, {NULL, F_STR, REQ},
};
static const field recorded_choice_fields[] = { /* choose from recorded sweeps */
    {"rank", F_INT_NULL, REQ}, {"format", F_STR, REQ}, {"instr", F_STR, REQ}, {"stat", F_STR, REQ},
    {"depth", F_INT, REQ}, {"k", F_INT, REQ}, {"scale", F_STR, REQ}, {"dist", F_STR, REQ},
    {"error", F_NUM_NULL, REQ}, {"tflops", F_NUM_NULL, OPT}, {"excluded", F_BOOL, OPT}, {"reason", F_STR, OPT},
    {"note", F_STR, OPT}, {NULL, F_STR, REQ},
};
/* One case of tcscope gemm (cases/gemm_case.c); the nested objects are described
 * in SCHEMA.md and read tolerantly by their readers. */
static const field gemm_fields[] = {
    {"library", F_STR, REQ}, {"device", F_STR, REQ}, {"library_version", F_INT, REQ}, {"path", F_STR, REQ},
    {"path_note", F_STR, REQ}, {"m", F_INT, REQ}, {"n", F_INT, REQ}, {"k", F_INT, REQ}, {"dist", F_STR, REQ},
    {"seed", F_INT, REQ}, {"original_inputs", F_STR, REQ}, {"uploaded_a", F_STR, REQ}, {"uploaded_b", F_STR, REQ},
    {"rounding_to_upload", F_STR, REQ}, {"dist_log_range", F_INT, OPT}, {"structure_by_construction", F_OBJ, OPT},
    {"skipped", F_STR, OPT}, {"error", F_STR, OPT}, {"algo", F_OBJ, OPT}, {"timing", F_OBJ, OPT},
    {"samples", F_INT, OPT}, {"outputs", F_OBJ, OPT}, {"error_vs_original", F_OBJ, OPT},
    {"error_vs_rounded", F_OBJ, OPT}, {"structure", F_OBJ, OPT}, {NULL, F_STR, REQ},
};

/* The numbers read for sizing or arithmetic, each with its range (both
 * ends included; null passes where the type allows it): the object kind,
 * or a nested object's path after it, the field, the range. A gemm case's
 * m * n * k stays under 2^63, a hunt's counts are counts, a TFLOP/s is a
 * speed and an error statistic is not negative. Every kind's counts and
 * sizes are integers here, whether or not a field table (the older gemm
 * lines have none, nested objects often none) types them too. */
#define DIM_MAX 1048576.0       /* a gemm or sweep side: 2^20 (gemm runs up to 16384 x 16384 x 65536) */
#define COUNT_MAX 9007199254740992.0 /* 2^53: counts exact in a double */
#define TFLOPS_MAX 1e6          /* a PFLOP/s: no GPU of this decade */
typedef struct {
    const char *where, *name;
    ftype type; /* F_INT for a count or a size (2.6 is no size), else F_NUM */
    double lo, hi;
} span;
static const span spans[] = {
    {"gemm", "m", F_INT, 1, DIM_MAX}, {"gemm", "n", F_INT, 1, DIM_MAX}, {"gemm", "k", F_INT, 1, DIM_MAX},
    {"gemm", "library_version", F_INT, 0, COUNT_MAX}, {"gemm", "samples", F_INT, 0, COUNT_MAX},
    {"gemm", "dist_log_range", F_INT, 1, 60}, {"gemm.timing", "tflops", F_NUM, 1e-9, TFLOPS_MAX},
    {"gemm.timing", "ms_median", F_NUM, 0, COUNT_MAX}, {"gemm.timing", "warmup", F_INT, 0, COUNT_MAX},
    {"gemm.timing", "reps", F_INT, 0, COUNT_MAX}, {"gemm.error_vs_original", "n", F_INT, 0, COUNT_MAX},
    {"gemm.error_vs_original", "n_nan", F_INT, 0, COUNT_MAX},
    {"gemm.error_vs_original", "n_exact", F_INT, 0, COUNT_MAX},
    {"gemm.error_vs_original", "max_ulps", F_NUM, 0, INFINITY},
    {"gemm.error_vs_original", "median_ulps", F_NUM, 0, INFINITY},
    {"gemm.error_vs_original", "mean_ulps", F_NUM, 0, INFINITY},
    {"gemm.error_vs_original", "max_rel", F_NUM, 0, INFINITY},
    {"gemm.error_vs_original", "min_correct_bits", F_NUM, 0, 64}, {"gemm.error_vs_rounded", "n", F_INT, 0, COUNT_MAX},
    {"gemm.error_vs_rounded", "n_nan", F_INT, 0, COUNT_MAX},
    {"gemm.error_vs_rounded", "n_exact", F_INT, 0, COUNT_MAX},
    {"gemm.error_vs_rounded", "max_ulps", F_NUM, 0, INFINITY},
    {"gemm.error_vs_rounded", "median_ulps", F_NUM, 0, INFINITY},
    {"gemm.error_vs_rounded", "mean_ulps", F_NUM, 0, INFINITY},
    {"gemm.error_vs_rounded", "max_rel", F_NUM, 0, INFINITY},
    {"gemm.error_vs_rounded", "min_correct_bits", F_NUM, 0, 64}, {"gemm.outputs", "n", F_INT, 0, COUNT_MAX},
    {"gemm.structure.inferred", "chunk", F_INT, 1, 65536}, {"gemm.structure.inferred", "splitk", F_INT, 1, 64},
    {"gemm.structure.inferred", "promote", F_INT, 0, 65536},
    {"gemm.structure.inferred", "slice_unit", F_INT, 0, 65536},
    {"gemm.structure.prediction", "n", F_INT, 0, COUNT_MAX},
    {"gemm.structure.prediction", "bit_exact", F_INT, 0, COUNT_MAX},
    {"gemm.structure.prediction", "rate", F_NUM, 0, 1}, {"hunt", "elements", F_INT, 0, COUNT_MAX},
    {"hunt", "mismatches", F_INT, 0, COUNT_MAX}, {"hunt family", "elements", F_INT, 0, COUNT_MAX},
    {"hunt family", "mismatches", F_INT, 0, COUNT_MAX}, {"audit", "fit_mismatches", F_INT, 0, COUNT_MAX},
    {"audit", "counterexample_rounds", F_INT, 0, COUNT_MAX}, {"audit.verification", "elements", F_INT, 0, COUNT_MAX},
    {"audit.verification", "mismatches", F_INT, 0, COUNT_MAX}, {"timing", "latency_cycles", F_NUM, 0, INFINITY},
    {"timing", "throughput_fma_clk_sm", F_NUM, 0, INFINITY}, {"timing", "fraction_of_peak", F_NUM, 0, INFINITY},
    {"timing", "tflops", F_NUM, 0, TFLOPS_MAX}, {"timing", "tflops_zero", F_NUM, 0, TFLOPS_MAX},
    {"timing", "sm_clock_mhz", F_NUM, 0, INFINITY}, {"sweep", "k", F_INT, 1, DIM_MAX},
    {"sweep", "m", F_INT, 1, DIM_MAX}, {"sweep", "trials", F_INT, 1, 1e6}, {"sweep", "chain", F_INT, 1, 1e5},
    {"sweep", "log_range", F_INT, 1, 60}, {"sweep", "cvt_mismatches", F_INT, 0, COUNT_MAX},
    {"sweep", "tflops", F_NUM, 0, TFLOPS_MAX}, {"sweep step", "median", F_NUM, 0, INFINITY},
    {"sweep step", "p90", F_NUM, 0, INFINITY}, {"sweep step", "max", F_NUM, 0, INFINITY},
    {"sweep step", "overflow", F_NUM, 0, INFINITY}, {"sweep step", "nan", F_NUM, 0, INFINITY},
    {"sweep step", "time_s", F_NUM, 0, INFINITY}, {"sweep step", "local_median", F_NUM, 0, INFINITY},
    {"sweep step", "local_p90", F_NUM, 0, INFINITY}, {"sweep step", "local_max", F_NUM, 0, INFINITY},
    {"sweep step", "n", F_INT, 0, COUNT_MAX}, {"decide", "k", F_INT, 1, 1024},
    {"decide", "per_family", F_INT, 0, 65536}, {"decide", "mutations", F_INT, 0, 1e6},
    {"decide", "pool", F_INT, 0, COUNT_MAX}, {"decide", "pairs", F_INT, 0, COUNT_MAX},
};

/* Object kinds checked by their field table alone. */
static const struct {
    const char *kind;
    const field *fields;
} plain_kinds[] = {
    {"bench", bench_fields},     {"choice", choice_fields},
    {"instr", instr_fields},     {"format", format_fields},
    {"conversion", conversion_fields}, {"run", run_fields},
    {"layout", layout_fields},   {"verify", verify_fields},
    {"verify_failure", verify_failure_fields}, {"case", case_fields},
    {"case_feature", case_feature_fields}, {"case_total", case_total_fields},
    {"figure", figure_fields},   {"compare_context", compare_context_fields},
    {"difference", difference_fields}, {"compare_summary", compare_summary_fields},
    {"regress", regress_fields}, {"recorded_choice", recorded_choice_fields},
    {"gemm", gemm_fields},
    {"tiles", tiles_fields},     {"chain", chain_fields},
    {"dots", dots_fields},       {"decide", decide_fields},
};

/* Header kinds whose objects are of other kinds: a command's --json record
 * (header kind = the command), and the raw GPU records "corpus" (lines
 * "tiles"; a "corpus" object is the other thing: count, hash, outputs) and
 * "chains" (lines "chain"). Any other header kind holds its own kind only. */
static const struct {
    const char *header;
    const char *objects[4];
} command_kinds[] = {
    {"list", {"instr"}},
    {"formats", {"format"}},
    {"convert", {"conversion"}},
    {"run", {"run", "layout"}},
    {"verify", {"verify", "verify_failure"}},
    {"cases", {"case", "case_feature", "case_total"}},
    {"bench", {"bench", "figure"}},
    {"compare", {"compare_context", "difference", "compare_summary"}},
    {"regress", {"regress"}},
    {"choose", {"recorded_choice"}},
    {"corpus", {"tiles"}},
    {"chains", {"chain"}},
};

static const char *const header_kinds[] = {"audit", "corpus", "bench", "sweep", "hunt", "choice", "mixed",
                                           "list", "formats", "convert", "run", "verify", "cases", "compare",
                                           "regress", "choose", "gemm", "chains", "dots", "decide", NULL};

static bool fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return false;
}

static const char *type_name(ftype t)
{
    switch (t) {
    case F_STR: return "a string";
    case F_INT: return "an integer";
    case F_NUM: return "a number";
    case F_NUM_NULL: return "a number or null";
    case F_INT_NULL: return "an integer or null";
    case F_OBJ: return "an object";
    case F_OBJ_NULL: return "an object or null";
    case F_ARR: return "an array";
    case F_BOOL: return "true or false";
    case F_BITS: return "a \"0x..\" bit string (lower-case hex)";
    case F_HASH: return "\"0x\" and 16 lower-case hex digits";
    case F_BITS_ARR: return "an array of \"0x..\" bit strings (lower-case hex)";
    case F_NUM_ARR: return "an array of numbers";
    case F_ARR_STR: return "an array or a string";
    case F_STR_NULL: return "a string or null";
    }
    return "?";
}

/* "0x" then 1..16 lower-case hex digits (exactly 16 when width is 16):
 * SCHEMA.md fixes the case, so "0X1F" or "0x1F" is refused. */
static bool hex_ok(const json_t *v, size_t width)
{
    const char *s = json_string_value(v);
    if (!s || s[0] != '0' || s[1] != 'x')
        return false;
    size_t n = strspn(s + 2, "0123456789abcdef");
    return s[2 + n] == '\0' && n >= 1 && n <= 16 && (!width || n == width);
}

static bool all_ok(const json_t *arr, ftype t);

static bool type_ok(const json_t *v, ftype t)
{
    switch (t) {
    case F_STR: return json_is_string(v);
    case F_INT: return json_is_integer(v);
    case F_NUM: return json_is_number(v);
    case F_NUM_NULL: return json_is_number(v) || json_is_null(v);
    case F_INT_NULL: return json_is_integer(v) || json_is_null(v);
    case F_OBJ: return json_is_object(v);
    case F_OBJ_NULL: return json_is_object(v) || json_is_null(v);
    case F_ARR: return json_is_array(v);
    case F_BOOL: return json_is_boolean(v);
    case F_BITS: return hex_ok(v, 0);
    case F_HASH: return hex_ok(v, 16);
    case F_BITS_ARR: return all_ok(v, F_BITS);
    case F_NUM_ARR: return all_ok(v, F_NUM);
    case F_ARR_STR: return json_is_array(v) || json_is_string(v);
    case F_STR_NULL: return json_is_string(v) || json_is_null(v);
    }
    return false;
}

static bool all_ok(const json_t *arr, ftype t)
{
    size_t i;
    json_t *e;
    if (!json_is_array(arr))
        return false;
    json_array_foreach(arr, i, e) if (!type_ok(e, t)) return false;
    return true;
}

static bool check_fields(const json_t *o, const field *fs, const char *what, char *err, size_t len)
{
    for (const field *f = fs; f->name; f++) {
        json_t *v = json_object_get(o, f->name);
        if (!v && f->opt)
            continue;
        if (!v)
            return fail(err, len, "%s: missing field '%s'", what, f->name);
        if (!type_ok(v, f->type))
            return fail(err, len, "%s: field '%s' must be %s", what, f->name, type_name(f->type));
    }
    return true;
}

/* The spans of `where` and of the objects nested in it (where.PATH). */
static bool check_spans(const json_t *o, const char *where, const char *what, char *err, size_t len)
{
    size_t wl = strlen(where);
    for (const span *s = spans; s < spans + sizeof spans / sizeof *spans; s++) {
        if (strncmp(s->where, where, wl) || (s->where[wl] && s->where[wl] != '.'))
            continue;
        const json_t *c = o;
        for (const char *p = s->where + wl; *p == '.';) {
            char part[64];
            size_t n = strcspn(++p, ".");
            snprintf(part, sizeof part, "%.*s", (int)n, p);
            c = json_object_get(c, part);
            p += n;
        }
        const json_t *v = json_object_get(c, s->name);
        if (!v || json_is_null(v))
            continue;
        const char *in = s->where[wl] ? s->where + wl + 1 : "";
        if (!type_ok(v, s->type))
            return fail(err, len, "%s: field '%s%s%s' must be %s", what, in, *in ? "." : "", s->name,
                        type_name(s->type));
        double x = json_number_value(v);
        if (!(x >= s->lo && x <= s->hi)) {
            char *text = json_dumps(v, JSON_ENCODE_ANY);
            bool r = fail(err, len, "%s: field '%s%s%s' is %.40s, outside %.10g..%.10g", what, in, *in ? "." : "",
                          s->name, text ? text : "?", s->lo, s->hi);
            free(text);
            return r;
        }
    }
    return true;
}

bool rep_check_ranges(const json_t *o, char *err, size_t len)
{
    const char *kind = json_string_value(json_object_get(o, "kind"));
    return !kind || check_spans(o, kind, kind, err, len);
}

/* A count of mismatches among elements: not more than the elements. */
static bool check_mismatches(const json_t *o, const char *what, char *err, size_t len)
{
    json_int_t e = json_integer_value(json_object_get(o, "elements")),
               m = json_integer_value(json_object_get(o, "mismatches"));
    if (m > e)
        return fail(err, len, "%s: %lld mismatches among %lld elements", what, (long long)m, (long long)e);
    return true;
}

const char *tc_record_header_kind(const json_t *header)
{
    const char *r = json_string_value(json_object_get(header, "record"));
    return r ? r : json_string_value(json_object_get(header, "kind"));
}

bool tc_record_check_header(const json_t *h, char *err, size_t len)
{
    if (!json_is_object(h))
        return fail(err, len, "record header is not a JSON object");
    const char *schema = json_string_value(json_object_get(h, "schema"));
    if (!schema)
        return fail(err, len, "not a tcscope record: the first line has no \"schema\"");
    static const char prefix[] = "tcscope-record/";
    if (strncmp(schema, prefix, sizeof prefix - 1) != 0)
        return fail(err, len, "not a tcscope record: schema '%s'", schema);
    char *end;
    long major = strtol(schema + sizeof prefix - 1, &end, 10);
    if (end == schema + sizeof prefix - 1 || (*end && *end != '.'))
        return fail(err, len, "malformed schema '%s'", schema);
    if (major != TC_RECORD_SCHEMA_MAJOR)
        return fail(err, len, "schema '%s' is not supported (this tcscope reads %s)", schema,
                    TC_RECORD_SCHEMA);
    if (!check_fields(h, header_fields, "header", err, len))
        return false;
    if (json_object_get(h, "record") && json_object_get(h, "kind"))
        return fail(err, len, "header: both \"record\" and the older \"kind\"");
    const char *kind = tc_record_header_kind(h);
    if (!kind)
        return fail(err, len, "header: missing field \"record\" (what the record is)");
    for (const char *const *k = header_kinds; *k; k++)
        if (!strcmp(kind, *k))
            return true;
    return fail(err, len, "header: unknown record kind '%s'", kind);
}

static bool check_audit(const json_t *o, char *err, size_t len)
{
    if (!check_fields(o, audit_fields, "audit", err, len) ||
        !tc_fingerprint_check(json_object_get(o, "fingerprint"), json_object_get(o, "evidence"), err, len))
        return false;
    const json_t *t = json_object_get(o, "timing");
    if (json_is_object(t) && (!check_fields(t, timing_fields, "audit timing", err, len) ||
                              !check_spans(t, "timing", "audit timing", err, len)))
        return false;
    return check_fields(json_object_get(o, "verification"), verification_fields, "audit verification", err, len) &&
           check_spans(o, "audit", "audit", err, len) &&
           check_mismatches(json_object_get(o, "verification"), "audit verification", err, len);
}

static bool check_hunt(const json_t *o, char *err, size_t len)
{
    if (!check_fields(o, hunt_fields, "hunt", err, len) || !check_spans(o, "hunt", "hunt", err, len) ||
        !check_mismatches(o, "hunt", err, len))
        return false;
    const char *k;
    json_t *v;
    char what[96];
    json_object_foreach(json_object_get(o, "families"), k, v)
    {
        snprintf(what, sizeof what, "hunt family %.60s", k);
        if (!json_is_object(v))
            return fail(err, len, "%s: not an object", what);
        if (!check_fields(v, hunt_family_fields, what, err, len) || !check_spans(v, "hunt family", what, err, len) ||
            !check_mismatches(v, what, err, len))
            return false;
    }
    size_t i;
    static const char *const lists[] = {"failures", "deciding"}; /* decide ask's other inputs: the same shape */
    for (int q = 0; q < 2; q++)
        json_array_foreach(json_object_get(o, lists[q]), i, v)
        {
            snprintf(what, sizeof what, "hunt %s[%zu]", lists[q], i);
            if (!json_is_object(v))
                return fail(err, len, "%s: not an object", what);
            if (!check_fields(v, hunt_failure_fields, what, err, len))
                return false;
        }
    return true;
}

static bool check_corpus(const json_t *o, char *err, size_t len)
{
    if (!check_fields(o, corpus_fields, "corpus", err, len))
        return false;
    json_t *outs = json_object_get(o, "outputs");
    json_int_t count = json_integer_value(json_object_get(o, "count"));
    if (count < 0 || (json_int_t)json_array_size(outs) > count)
        return fail(err, len, "corpus: %zu outputs listed but count is %lld", json_array_size(outs),
                    (long long)count);
    json_t *ins = json_object_get(o, "inputs");
    if (ins && (!json_is_array(ins) || json_array_size(ins) != json_array_size(outs)))
        return fail(err, len, "corpus: inputs must be an array as long as outputs");
    return true;
}

static bool check_sweep(const json_t *o, char *err, size_t len)
{
    if (!check_fields(o, sweep_fields, "sweep", err, len) || !check_spans(o, "sweep", "sweep", err, len))
        return false;
    json_t *steps = json_object_get(o, "steps"), *s;
    json_int_t chain = json_integer_value(json_object_get(o, "chain"));
    if ((json_int_t)json_array_size(steps) != chain)
        return fail(err, len, "sweep %s: %zu steps but chain is %lld",
                    json_string_value(json_object_get(o, "format")), json_array_size(steps),
                    (long long)chain);
    size_t i;
    char what[64];
    json_array_foreach(steps, i, s)
    {
        snprintf(what, sizeof what, "sweep step %zu", i + 1);
        if (!json_is_object(s))
            return fail(err, len, "%s: not an object", what);
        if (!check_fields(s, step_fields, what, err, len) || !check_spans(s, "sweep step", what, err, len))
            return false;
        if (json_integer_value(json_object_get(s, "step")) != (json_int_t)i + 1)
            return fail(err, len, "%s: field 'step' must be %zu", what, i + 1);
    }
    return true;
}

bool tc_record_check_object(const json_t *o, char *err, size_t len)
{
    if (!json_is_object(o))
        return fail(err, len, "record object is not a JSON object");
    const char *kind = json_string_value(json_object_get(o, "kind"));
    if (!kind)
        return fail(err, len, "object without a \"kind\"");
    if (!strcmp(kind, "audit"))
        return check_audit(o, err, len);
    if (!strcmp(kind, "corpus"))
        return check_corpus(o, err, len);
    if (!strcmp(kind, "sweep"))
        return check_sweep(o, err, len);
    if (!strcmp(kind, "hunt"))
        return check_hunt(o, err, len);
    if (!strcmp(kind, "bench"))
        return check_fields(o, bench_fields, kind, err, len) && check_spans(o, "timing", kind, err, len);
    for (size_t i = 0; i < sizeof plain_kinds / sizeof *plain_kinds; i++)
        if (!strcmp(kind, plain_kinds[i].kind))
            return check_fields(o, plain_kinds[i].fields, kind, err, len) && check_spans(o, kind, kind, err, len);
    return fail(err, len, "unknown object kind '%s'", kind);
}

bool tc_record_check_kinds(const json_t *header, const json_t *objects, char *err, size_t len)
{
    const char *hk = tc_record_header_kind(header);
    if (!hk || !strcmp(hk, "mixed"))
        return true;
    const char *const *allowed = NULL;
    for (size_t c = 0; c < sizeof command_kinds / sizeof *command_kinds; c++)
        if (!strcmp(hk, command_kinds[c].header))
            allowed = command_kinds[c].objects;
    size_t i;
    json_t *o;
    json_array_foreach(objects, i, o)
    {
        const char *k = json_string_value(json_object_get(o, "kind"));
        bool ok = k && !strcmp(k, hk);
        for (int a = 0; k && allowed && a < 4 && allowed[a]; a++)
            ok = ok || !strcmp(k, allowed[a]);
        if (!ok)
            return fail(err, len, "header kind is '%s' but object %zu is '%s' (a record of several kinds says "
                        "\"mixed\")", hk, i + 1, k ? k : "?");
    }
    return true;
}
