/* The private half of cli/fleet.h: the run's state, shared by cli/fleet.c
 * (the workers) and cli/fleet_report.c (the fleet record and its summary). */
#ifndef TC_CLI_FLEET_RUN_H
#define TC_CLI_FLEET_RUN_H

#include <stdio.h>

#include <jansson.h>

#include "cli/fleet.h"

typedef struct {
    const cli_fleet_job *j;
    cli_fleet_gpu *g;
    size_t n;
    char ***argv, ***env;   /* per GPU, of the phase running */
    char (*path)[4200];     /* per GPU: its --out (folder or file), "" none */
    char **instrs;          /* audit: per GPU, its share ("" none) */
    int *status;            /* per GPU: the command's exit status, -1 not run */
    double *secs;
    char **out;             /* per GPU: what the phase's worker printed */
    size_t *idx;            /* the pool's items -> GPUs */
    char jobs[24];          /* audit, regress: each worker's --jobs, the CPUs shared out ("" the user's) */
    char cross_n[24];       /* regress --cross-gpu: each worker's --cross-count */
} fleet;

/* The cross-GPU comparison of the corpus lines the workers printed (ran[i]:
 * GPU i's worker ran); a GPU whose lines cannot be read is marked failed. */
json_t *fleet_compare_bits(fleet *f, const bool *ran);
/* Per instruction, the spread of latency and throughput across the GPUs'
 * bench records (regress: OUT/gpuN/bench.json; bench: FILE.gpuN.json). */
json_t *fleet_timing_spread(fleet *f, bool regress);
/* GPU i's fields of the fleet record, its worker having exited with st. */
json_t *fleet_gpu_fields(const fleet *f, size_t i, int st, const char *merged_phase);
/* regress: the JSON lines a worker printed, as an array. */
json_t *fleet_regress_results(const char *out);
/* A worker ran and did not end with 0 or 1. */
bool fleet_failed(int st);
/* The record in lines: per GPU, per instruction compared, per spread. */
void fleet_summary(FILE *o, const fleet *f, const int *st0, const int *st1, json_t *cross, json_t *spread);

#endif
