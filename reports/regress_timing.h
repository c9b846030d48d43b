/* regress's timing against a baseline (cli/cmd_regress.c): what each
 * instruction measured there and the point of its throughput table to time
 * again here, read from the baseline's records; and the decision, where a
 * quick figure beyond the tolerance is confirmed by the full table before it
 * is called a difference (a quick measurement alone never raises one).
 *
 * Why a point: the comparison (cli/regress_compare.c) uses two figures an
 * instruction, its latency and its throughput, the best of an ILP x warps
 * table of 80 to 128 launches. Timing the latency and the one point the
 * baseline found best takes 8 launches; only an instruction whose figures
 * moved pays for its whole table. */
#ifndef TC_REGRESS_TIMING_H
#define TC_REGRESS_TIMING_H

#include <stdbool.h>
#include <stddef.h>

#include "probes/bench_result.h"
#include "reports/reports.h"

typedef struct {
    char instr[128];
    double latency, throughput;   /* the baseline's figures; < 0 unknown */
    bool has_point;               /* the baseline's best point is known */
    tc_bench_point point;
    const char *point_from;       /* "audit record", "bench record" or "" */
} tc_timing_base;

/* The baseline of every instruction of audit (an audit record) that has a
 * timing object. The best point from that timing's best_ilp,
 * best_warps_per_sm and staging where it has them; else from bench (a bench
 * record, or NULL) where its object of the instruction has exactly the same
 * latency_cycles and throughput_fma_clk_sm, i.e. is the bench of the
 * audit's own run (a bench of another run would time a point the
 * baseline's figures were not measured at); else none. A point outside
 * ILP 1..8, warps 1..1024 or an unknown staging is no point. Returns how
 * many (*out malloc'd, NULL when 0), or -1 with err (out of memory). */
long tc_timing_bases(const tc_record *audit, const tc_record *bench, tc_timing_base **out, char *err, size_t len);

/* The figures of one measurement: latency and throughput, < 0 not measured. */
typedef struct {
    double latency, throughput;
} tc_timing_figures;

/* Which of base's figures now is more than tol (relative) away from: bit 1
 * latency, bit 2 throughput; a figure unknown on either side is not
 * compared. */
unsigned tc_timing_moved(const tc_timing_figures *base, const tc_timing_figures *now, double tol);

#define TC_TIMING_LATENCY 1u
#define TC_TIMING_THROUGHPUT 2u

/* A measurement of one instruction: full false times the latency and the
 * baseline's point, full true the whole table. 0, or -1 when it gave no
 * figures (a refused SASS, a device error: the caller keeps the reason). */
typedef int (*tc_timing_measure_fn)(void *ctx, bool full, tc_timing_figures *got);

/* The decision for one instruction: measured quickly at the baseline's
 * point when it has one (else the full table at once); where a quick
 * figure moved beyond tol, or the quick measurement failed, the full table
 * is measured and decides. *used is the measurement the verdict rests on,
 * *full_used whether it is the table's. Returns the moved bits of *used
 * (0: the same), or -1 when the table failed. */
int tc_timing_decide(const tc_timing_base *base, double tol, tc_timing_measure_fn measure, void *ctx,
                     tc_timing_figures *used, bool *full_used);

#endif
