/* tcscope regress's state (cli/cmd_regress.c runs the checks; the
 * children's answers are compared with the baseline in cli/regress_compare.c). */
#ifndef TC_CLI_REGRESS_H
#define TC_CLI_REGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cli/pool.h"
#include "oracle/profile.h"
#include "probes/probes.h"
#include "reports/reports.h"

#define REGRESS_CMD "regress"
/* The default verify children: one per CPU, at most this many on the
 * machine (a node's workers share them: cli/fleet.c). Every child has its
 * own context on a GPU, and the driver makes contexts one at a time for
 * the whole machine (16 bare contexts: 4.1 s on one GPU of a 2-GPU node,
 * 7.8 s on both at once), while at regress's default count the checks are
 * a few seconds of work in all. On that node (afaadc7, two runs each),
 * regress --backend gpu:0 took 5.2-5.7 s with 4 children, 4.4-5.1 s with
 * 6, 4.6-5.0 s with 8 and 6.4-6.9 s with 16; gpu:all --cross-gpu 4.8-5.3 s
 * with 4 a worker against 5.8-6.3 s with 8; on one H200 (16 CPUs), 4.6 s
 * with 8 against 5.9-6.2 s with 16; at 64e6 elements an instruction, 4
 * children took what 16 took (doc/findings.md). */
#define REGRESS_MAX_JOBS 8
#define REGRESS_NARGS 24

typedef struct {
    const char *backend, *profile, *record, *instr, *out;
    const char *bench_record; /* --bench-record: the baseline's best points; NULL: the one beside --record */
    const char *model_on;     /* --model-on, passed to every check; NULL: each check's default */
    size_t n, hunt_n;
    uint64_t seed;
    unsigned jobs;
    double tol;               /* timing: relative difference allowed */
    bool model, json, timing;
    bool cross_gpu;           /* gpu:all: also the same inputs on every GPU, bits compared */
    size_t cross_n;           /* their elements per instruction (0: REGRESS_CROSS_N) */
    const char *cross_run;    /* a fleet worker's --cross-run: these instructions' cross-GPU inputs, their
                                 bits in OUT/cross.txt (NULL: none) */
} regress_args;

/* The baseline record (--record), read on a thread while this process
 * makes its GPU context (cli/regress_base.c): a given one is checked with
 * it before any check starts, and the timing takes it from there. */
typedef struct {
    const char *path;
    pthread_t th;
    bool started, threaded;
    int rc;                   /* tc_record_load_any's */
    tc_record rec;
    char err[600];
} regress_base;

/* The read begun (here, when no thread can be made). */
void regress_base_start(regress_base *b, const char *path);
/* Waits for it: the record, or NULL with b->err saying why (also when it
 * was never started). Again: the same answer. */
const tc_record *regress_base_wait(regress_base *b);
/* Waits, then frees what was read. */
void regress_base_free(regress_base *b);

typedef struct {
    const tc_instr *ins;
    const model_params *base;
    int verify;               /* child status: 0 same, 1 mismatch, else failed */
    long long n, mismatches;
    char model_on[32];        /* the check's: "gpu:N" or "cpu" (its record's header) */
    json_t *failure;          /* the check's smallest failing input: this backend vs the baseline */
    json_t *diffs;            /* [{what, field?, old, new, case?}] */
} regress_item;

typedef struct {
    const regress_args *a;
    regress_base *record;     /* the baseline record, for the timing */
    regress_item *it;
    size_t n;
    const char *backend;
    char args[REGRESS_NARGS][64];
    char **argv;              /* REGRESS_NARGS per regress_item */
    char (*dir)[4200];
    size_t *idx;              /* the refit pool's items (the verify retries' too) */
    size_t nslices;           /* verify children, each a slice of the items (cli/regress_verify.c) */
    size_t nretried;          /* items checked again alone: their slice's child left no record */
    double slice_s[2];        /* the quickest and the slowest slice's child, seconds */
    char **lists;             /* per slice: its instructions, comma separated */
    bool *answered;           /* per item: its verify record came back */
    /* the verify children started with the timing, behind a gate (cli/pool.h) */
    tc_pool_gate gate;
    tc_pool early;            /* their pool, run on pool_th */
    pthread_t pool_th;
    bool early_on;            /* started: regress_verify opens the gate and joins them */
    size_t early_left;        /* children the pool never started */
} regress_ctx;

/* One difference of it from the baseline: what ("sass", "timing",
 * "arithmetic", "refit"), the field, old and new values (references taken),
 * the deciding case (kept). */
void regress_add_diff(regress_item *it, const char *what, const char *field, json_t *old, json_t *new, json_t *kase);
/* SASS and timing of every item against the baseline record's. */
void regress_compare_timing(regress_ctx *c, const tc_record *base, const tc_record *fresh);
/* The timing pass, in this process, before any check (cli/regress_bench.c):
 * OUT/bench.json written into d, the differences added to the items. */
void regress_time(regress_ctx *c, tc_outdir *d);
/* Every item verified by `tcscope verify` children, a slice of the items
 * each (cli/regress_verify.c): 0, or -1 when a check could not run. After
 * regress_verify_start, the children started then are let go and awaited. */
int regress_verify(regress_ctx *c, const char *ppath, unsigned jobs);
/* The verify children started now, on a thread, behind a gate: each makes
 * its CUDA context and model while the timing reads the SASS and loads the
 * baseline, and launches nothing until regress_gate_open. 0, or -1 (then
 * regress_verify starts them as before). */
int regress_verify_start(regress_ctx *c, const char *ppath, unsigned jobs);
/* The timing, before its first launch: waits until every early child is
 * ready (its context made), so that none is made while the GPU is timed. */
void regress_gate_ready(regress_ctx *c);
/* The timing is over: the early children may launch. */
void regress_gate_open(regress_ctx *c);
/* The early children let go and awaited (regress_verify does it; an error
 * before it, here). */
void regress_verify_join(regress_ctx *c);
/* --cross-run, in this process on be (cli/regress_cross.c): OUT/cross.txt,
 * 0; or -1 after a warning, and no file. */
int regress_cross(const regress_ctx *c, tc_backend *be, tc_outdir *d);
/* tc_pool callbacks (cli/pool.h): a verify child's record read into its
 * item (status < 0: the record's own verdict, 0 verified, 1 not); a refit
 * child's fields compared with the baseline's. */
bool regress_verify_done(void *vc, size_t i, int status, const char *out, double secs);
bool regress_refit_done(void *vc, size_t q, int status, const char *out, double secs);
/* The item's line(s), or its regress object under --json. */
void regress_print_item(const regress_item *it, tc_json_out *out);

#endif
