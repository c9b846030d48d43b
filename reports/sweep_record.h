/* Sweep results (cases/sweep.h) as record objects, with the time per step
 * taken from a measured bench record. */
#ifndef TC_SWEEP_RECORD_H
#define TC_SWEEP_RECORD_H

#include "cases/sweep.h"
#include "reports/reports.h"

/* The bench figures of instr in a record: a "bench" object, or an audit's
 * "timing"; NULL when absent (or bench is NULL). Borrowed. */
const json_t *tc_bench_find(const tc_record *bench, const char *instr);

/* Seconds of one M x N x K product at the bench's whole-GPU TFLOP/s;
 * NaN without a positive "tflops". */
double tc_step_seconds(const json_t *bench, int m, int n, int k);

/* A "sweep" object (reports/SCHEMA.md) of one format's result; bench may be
 * NULL (then time_s and tflops are null). */
json_t *tc_record_sweep_new(const sweep_params *p, const sweep_result *r, const json_t *bench);

#endif
