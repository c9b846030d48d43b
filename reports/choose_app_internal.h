/* Shared by reports/choose_app.c (instruction chains) and
 * reports/choose_lib.c (library paths); not a public API. */
#ifndef TC_CHOOSE_APP_INTERNAL_H
#define TC_CHOOSE_APP_INTERNAL_H

#include "reports/choose_app.h"

/* reports/choose_candidate.c */
json_t *choose_stats_json(const app_stats *s);
/* Where the evaluation's wall time went (app_stages): {"inputs_s", "model_s",
 * "model": {"gpu_kernel_s", "gpu_copy_s", "cpu_s"}, "references_s",
 * "references_computed", "references_shared", "metrics_s", "other_s"}. */
json_t *choose_stages_json(const app_result *r);
json_t *choose_workload_json(const app_data *d, const tc_choose_app_opts *o, app_scaling sc);
/* Why a candidate of throughput tf (NaN: none) is not ranked, or NULL:
 * outputs not finite, error undefined, above 1, above the bound, no figure. */
const char *choose_exclusion(const app_result *r, const tc_choose_app_opts *o, double tf, char *why, size_t len);

/* reports/choose_lib.c: the library paths of o->gemm_recs as "choice" objects (source "library"):
 * evaluated (app_eval_lib) with the structure recorded nearest the user's
 * K, the throughput recorded nearest in M*N*K; a "sort_key" on those that
 * may be ranked, "excluded" + "reason" on the others. NULL + err. */
/* The GPUs the gemm records were made on (each device once, in record
 * order, comma-separated) into buf. */
const char *choose_record_gpus(const json_t *recs, char *buf, size_t len);

json_t *choose_lib(const app_data *d, const tc_choose_app_opts *o, char *err, size_t len);

#endif
