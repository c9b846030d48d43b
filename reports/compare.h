/* compare: what changed between two run records (regressions across
 * drivers, CUDA versions, GPUs or tcscope versions).
 *
 * Objects are matched by kind and key (instr; sweeps also by format and
 * settings; gemm cases by path, shape, distribution and seed). A difference is anything about the numbers or the speed:
 * a fingerprint field, a verification result, corpus output bits, a SASS
 * opcode, a latency/throughput beyond the noise threshold, a sweep statistic,
 * a gemm case's structure, prediction rate, errors or TFLOP/s, a hunt's
 * counts, an object present in one record only. Header facts (driver, GPU, date)
 * are context, never differences.
 */
#ifndef TC_COMPARE_H
#define TC_COMPARE_H

#include "reports/reports.h"

typedef struct {
    /* Relative threshold for a timing figure when neither record holds
     * repeated runs of it (TC_COMPARE_DEFAULT_THRESHOLD). */
    double default_threshold;
    /* With repeated runs: max(min_threshold, noise_factor * larger relative
     * spread (max - min) / median of the runs in either record). */
    double min_threshold;
    double noise_factor;
    size_t max_cases;   /* differing corpus outputs listed per instruction */
    /* NEW covers only part of OLD on purpose (a replay on a backend that
     * cannot run everything): objects in OLD only become notes, not differences. */
    bool new_is_subset;
} tc_compare_opts;

#define TC_COMPARE_DEFAULT_THRESHOLD 0.05
#define TC_COMPARE_MIN_THRESHOLD 0.01
#define TC_COMPARE_NOISE_FACTOR 2.0

tc_compare_opts tc_compare_defaults(void);

/* The threshold for one timing figure given the runs arrays (may be NULL)
 * of each record; *derived says whether runs were used. */
double tc_compare_threshold(const json_t *old_runs, const json_t *new_runs,
                            const tc_compare_opts *o, bool *derived);

/* A record compare can read whole: every object of a kind it compares
 * (audit, corpus, bench, sweep, hunt, gemm, figure) and no two objects of
 * one kind and key (which of them to compare would be a guess). false with
 * err naming the object (name: the file, for the message). */
bool tc_compare_check(const tc_record *r, const char *name, char *err, size_t len);
/* Records of one kind: the headers' kinds equal, or one "mixed". */
bool tc_compare_check_kinds(const tc_record *old_rec, const tc_record *new_rec, char *err, size_t len);

/* Appends one object per difference to `diffs` (each has "kind", "instr",
 * "field", "old", "new" and a human "message") and one per differing header
 * fact to `context`. Returns the number of differences. */
size_t tc_compare_records(const tc_record *old_rec, const tc_record *new_rec,
                          const tc_compare_opts *o, json_t *diffs, json_t *context);

#endif
