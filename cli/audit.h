/* tcscope audit's pieces: cli/cmd_audit.c reads the options and calls them;
 * cli/audit_run.c (one process), cli/audit_jobs.c (--jobs: one child process
 * per instruction), cli/audit_timing.c, cli/audit_outputs.c. */
#ifndef TC_CLI_AUDIT_H
#define TC_CLI_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "oracle/profile.h"
#include "probes/probes.h"
#include "reports/reports.h"

typedef struct {
    const char *backend;      /* NULL: the GPU if there is one, else the recorded model */
    const char *arch;         /* --arch: a model backend keeps to this architecture's instructions */
    const char *instr;
    const char *out;
    const char *profile_name;
    const char *timing_file;  /* bench record to attach instead of measuring */
    const char *merge;        /* comma-separated audit output folders to merge */
    const char *prefer;       /* --merge: the folder whose result is taken where two differ */
    const char *render;       /* a record whose report is written, nothing run */
    const char *given_file;   /* a record whose failures (a hunt's) join the fits */
    const char *model_on;     /* --model-on: gpu, gpu:N, cpu; NULL: the GPU model where one opens */
    size_t n;
    size_t hunt_n;            /* elements per hunt family in the proof, 0: n / 16 */
    uint64_t seed;
    unsigned shard, nshards;  /* audit every nshards-th instruction from shard */
    unsigned jobs;            /* child processes at once, 0: one per CPU (cli/pool.h) */
    bool json, timing, keep_cases, force;
    bool resume;              /* --jobs: keep the parts a killed run finished */
    bool part;                /* a child of --jobs: the record and profile only, no reports */
    bool slice;               /* with part: each instruction its own part, OUT/NAME (cli/audit_slice.c) */
} audit_args;

/* Opens --out and begins the run there (exit 2 when earlier outputs are in
 * the way without --force). */
int audit_begin_outputs(const audit_args *a, tc_outdir *d, int argc, char **argv);
/* The record, the profile, the reports (not for a part or a partial run),
 * then the run marker's end. partial: why the run stopped early. */
int audit_write_outputs(const audit_args *a, tc_outdir *d, tc_record *rec, model_profile *prof,
                        const char *partial);
/* Appends the record objects and verified profile entries of audit output
 * folders; the first folder's header starts *out when it has none. An
 * instruction in two folders with one result is taken once; with two
 * different results (fingerprint or verdict) the one of the folder prefer
 * names, or (prefer NULL) exit 2 naming both folders. TC_EXIT_OK, or exit 2
 * after a message. */
int audit_merge_into(const char *const *dirs, size_t n, const char *prefer, tc_record *out, model_profile *prof);
/* --jobs: the selected instructions dealt out to child processes (a slice
 * each, cli/audit_slice.c), each instruction's part written to
 * OUT/parts/NAME/, merged into OUT as one run (d is begun). */
int audit_run_jobs(const audit_args *a, const tc_backend_info *info, bool fallback, const tc_instr *const *list,
                   size_t n, tc_outdir *d);
/* Timing objects by instruction (cli/audit_timing.c): from --timing, measured
 * now on a GPU, or the recorded bench of the H100 beside its recorded model;
 * *source says which. NULL after a message: a bad --timing. */
json_t *audit_collect_timing(const audit_args *a, const tc_backend_info *info, const tc_instr *const *list,
                             size_t n, const char **source);
/* --merge (cli/audit_outputs.c): the shard folders joined into --out, in the
 * order given. Exit 0, 1 (an instruction not verified) or 2. */
int audit_merge(const audit_args *a, int argc, char **argv);
/* The selected instructions audited in this process (cli/audit_run.c), the
 * outputs written; given_rec: --counterexamples, or {NULL, NULL}. */
int audit_run_here(const audit_args *a, tc_backend *be, bool fallback, const tc_instr *const *list, size_t n,
                   const tc_record *given_rec, int argc, char **argv);
/* --part --slice (a child of --jobs; a->out: OUT/parts): each instruction
 * audited in turn in this process and written to a->out/NAME as the child
 * `--part --instr NAME --out a->out/NAME` would write it, that command in
 * its run marker (so --resume keeps it). Stops at a device fault. */
int audit_run_slice(const audit_args *a, tc_backend *be, bool fallback, const tc_instr *const *list, size_t n,
                    const tc_record *given_rec, int argc, char **argv);

#endif
