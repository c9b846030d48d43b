/* choose for an application: every candidate (instruction x accumulation
 * strategy) evaluated on the user's shape, data and scaling (cases/app.h),
 * ranked by the recorded throughput of its instruction among those whose
 * error meets the bound. With library GEMM records (o->gemm_recs) the
 * ranked candidates are the library paths (the model + each path's
 * recorded structure, its recorded GEMM TFLOP/s; reports/choose_lib.c) and
 * the instruction chains are listed for comparison only, unranked: one
 * instruction's peak is not a GEMM's throughput. A candidate whose error exceeds 1 is never ranked.
 * Without a bound the candidates are listed by error, not ranked by speed
 * (speed alone would recommend the least accurate).
 */
#ifndef TC_CHOOSE_APP_H
#define TC_CHOOSE_APP_H

#include "cases/app.h"
#include "reports/reports.h"

typedef struct {
    const app_dist *dist;
    app_scaling scaling;
    const char *metric;     /* app_metric_ok */
    double bound;           /* NaN: none */
    int rows, cols;         /* sampled outputs */
    const char *backend;    /* the backend's name, for the records */
    const char *bench_from; /* where the throughput figures come from ("" when none) */
    const json_t *gemm_recs; /* library GEMM cases (reports/record_gemm.h tc_gemm_records_load); NULL: instruction chains only */
    const char *gemm_from;   /* their file */
    const char *gpu;         /* whose structures are ranked: matched in a record's device (case aside) */
    const char *caller;      /* "tcscope" (tcscope gemm's records) or a probe call id's start */
    bool allow_transfer;     /* rank others' structures too, labelled transferred */
    tc_model_gpu *model_gpu; /* the library paths' outputs by the GPU model (NULL: the CPU's) */
    const char *model_on;    /* its name, or "cpu": the choices' model_on */
    const char *references_on; /* where the exact references are computed: "gpu:N" or "cpu" (app_reference_use) */
    FILE *stages_to;         /* each library path's "# stages:" line as it is evaluated (NULL: none) */
    void (*progress)(void *ctx, size_t done, size_t total, const char *what);
    void *progress_ctx;
} tc_choose_app_opts;

/* The candidates the backend can run, one "choice" object each, ranked
 * first (by TFLOP/s), then the unranked, then the excluded (with reason).
 * NULL + err when a backend call fails. */
json_t *tc_choose_app(tc_backend *b, const app_data *d, const tc_record *bench, const tc_choose_app_opts *o,
                      char *err, size_t len);

/* The objects as text: workload, ranking, exclusions. */
void tc_choose_app_print(FILE *f, const json_t *choices, const tc_choose_app_opts *o, const app_data *d);
/* The answer in one line, "Recommended: X because ...", or why nothing is
 * (no bound given, nothing meets it); the text's last line and the HTML's
 * summary. tcscope's own kernels ("reference": true) are never recommended. */
void tc_choose_app_recommendation(const json_t *choices, const tc_choose_app_opts *o, char *buf, size_t len);

/* DIR/choose.html (reports/render_choose.c): the ranking first (main: the
 * choices at the user's K), then error vs K per candidate, log-log (per_k:
 * [{"k":K,"choices":[..]}..] in increasing K, the same candidates), and
 * error vs throughput with the Pareto front; device is the backend's. 0, or
 * -1 + err (gnuplot failing, the file not written). */
int tc_choose_app_report(const tc_outdir *dir, const json_t *main, const json_t *per_k, const tc_choose_app_opts *o,
                         const app_data *d, const char *device, char *err, size_t len);

#endif
