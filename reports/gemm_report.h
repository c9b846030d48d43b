/* The report of `tcscope gemm` records (reports/render_gemm.c). */
#ifndef TC_GEMM_REPORT_H
#define TC_GEMM_REPORT_H

#include <jansson.h>

#include "reports/record_gemm.h"
#include "reports/reports.h"

/* Writes DIR/gemm.html from the cases of tc_gemm_records_load: summary
 * table, error vs K per path (vs the original and vs the rounded inputs),
 * error vs TFLOP/s with the Pareto front, the structure trees collapsed.
 * 0, or -1 + err. */
int tc_gemm_report_write(const json_t *recs, const tc_outdir *dir, char *err, size_t len);

#endif
