/* The report of `tcscope gemm` records (reports/render_gemm.c). */
#ifndef TC_GEMM_REPORT_H
#define TC_GEMM_REPORT_H

#include <jansson.h>

#include "reports/reports.h"

/* The tcscope-gemm objects of a JSON Lines file (.gz or not), in file
 * order. NULL + err: unreadable, a line that is not a tcscope-gemm object
 * with a path and k, or none at all. Other fields may be absent. */
json_t *tc_gemm_records_load(const char *path, char *err, size_t len);

/* Writes DIR/gemm.html: summary table, error vs K per path (vs the original
 * and vs the rounded inputs), error vs TFLOP/s with the Pareto front, the
 * structure trees collapsed. 0, or -1 + err. */
int tc_gemm_report_write(const json_t *recs, const tc_outdir *dir, char *err, size_t len);

#endif
