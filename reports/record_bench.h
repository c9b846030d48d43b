/* The bench record (tcscope-record/1, header "bench"): what `tcscope bench`
 * measured, handed over as C structs by the timing probes (probes/bench_result.h)
 * and written here, the one writer of bench objects.
 *
 *   header   tc_record_header("bench", ..) + "machine": the GPU's readings at open
 *   objects  one "bench" object per instruction (tc_bench_object), then
 *            "figure" objects: each cuBLAS GEMM (tc_bench_cublas_figure)
 *            and the run's wall time
 *   trailer
 *
 * A bench object holds the fields SCHEMA.md lists for "bench" (the ones the
 * reader of the older single-document tcscope-bench file makes too,
 * reports/bench_import.c) and what that reader dropped: why an instruction
 * has no numbers, the SASS check of every kernel, the latency's spread, the
 * best point's ILP and warps, the whole ILP x warps table, wgmma's issue
 * interval and the whole-GPU runs with their NVML readings. */
#ifndef TC_RECORD_BENCH_H
#define TC_RECORD_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "probes/bench_result.h"
#include "reports/reports.h"

/* The header: tc_record_header("bench", run) and "machine"; run is m->run
 * as the record's run facts (cli/run_info.h cli_run_info). */
json_t *tc_bench_header(const tc_bench_machine *m, const tc_run_info *run);
/* The bench object of one instruction (valid for tc_record_check_object). */
json_t *tc_bench_object(const tc_bench_result *r);
/* A figure object (SCHEMA.md "Command output"): bench "cublas_gemm_SIZE_TYPE", value TFLOP/s. */
json_t *tc_bench_cublas_figure(const tc_bench_gemm *c, const char *machine);
/* A figure object: the run's wall time in seconds. */
json_t *tc_bench_elapsed_figure(double seconds, const char *machine);

/* The fields of a bench object that an audit's "timing" carries (SCHEMA.md
 * "audit": the bench figures without the detail, and the table's best
 * point, which `regress` times again): a new object. */
json_t *tc_bench_timing(const json_t *bench_object);

#endif
