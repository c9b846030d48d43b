/* Every GPU of a node in one run: `--backend gpu:all` or `gpu:0,2,5` for
 * audit, regress, bench and record corpus (run --random). One worker process per GPU (this
 * binary again, cli/pool.h), pinned to its GPU with CUDA_VISIBLE_DEVICES;
 * the workers' records merged into one fleet record (reports/SCHEMA.md,
 * "Fleet record") with per-GPU fields and, where every GPU ran the same
 * inputs, a cross-GPU comparison of the output bits (reports/fleet.h) and
 * the spread of latency and throughput.
 *
 * A GPU whose worker fails is reported by its index; the others finish and
 * are merged. Exit: 0 every GPU ran and agreed; 1 a difference (a worker
 * said so, or the GPUs' bits differ); 2 a GPU failed (the rest is still
 * written) or bad input, such as no GPU at all.
 *
 * TEST HOOK, for tests only (tests/test_fleet.c): TCSCOPE_FAKE_GPUS=K makes
 * gpu:all see K fake GPUs whose workers run the recorded model (model:h100)
 * instead of hardware, and the fleet record says fake_gpus: true;
 * TCSCOPE_FAKE_GPU_FLIP=I makes fake GPU I flip the lowest bit of the first
 * output of every batch (probes/backend.c, TCSCOPE_FLIP_BIT);
 * TCSCOPE_FAKE_GPU_FAIL=I makes fake GPU I fail at its first batch as a
 * device error would (TCSCOPE_FAULT_AFTER=1). */
#ifndef TC_CLI_FLEET_H
#define TC_CLI_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *cmd;       /* "audit", "regress", "bench", "run" */
    int argc;              /* the command's arguments, argv[0] the command's name */
    char **argv;
    const char *spec;      /* "gpu:all" or "gpu:I,J,.." */
    const char *out;       /* audit, regress: a folder; bench: a file; run: NULL (stdout) */
    const char *instr;     /* the --instr selection: "all" or NAME,NAME.. */
    bool split;            /* audit, regress: the instructions shared out across the GPUs */
    bool cross;            /* regress --cross-gpu: also run --random's inputs on every GPU, each worker's
                              --cross-run, their bits compared */
    size_t cross_n;        /* their elements per instruction */
} cli_fleet_job;

/* The backend names a set of GPUs (gpu:all, or a comma list) rather than one. */
bool cli_fleet_spec(const char *spec);
/* Runs the job on every GPU of spec, merges, writes, prints a summary. */
int cli_fleet_run(const cli_fleet_job *j);
/* audit: out holds the GPU folders (out/gpuN) of an earlier fleet run
 * stopped before its merge: named, each GPU finished or its instructions
 * finished, with --resume (keep them) and --force (start over); exit 2.
 * TC_EXIT_OK when there is none. */
int cli_fleet_unfinished(const char *cmd, const char *out);

/* One GPU of the node, as cli/fleet_devices.c finds them. */
typedef struct {
    int index;             /* in the node's order (PCI bus order, as nvidia-smi) */
    char visible[96];      /* the child's CUDA_VISIBLE_DEVICES */
    char name[96], uuid[96]; /* from NVML; "" when unknown */
    bool fake;             /* TCSCOPE_FAKE_GPUS */
    bool flip, fail;       /* fake only: TCSCOPE_FAKE_GPU_FLIP / _FAIL name it */
} cli_fleet_gpu;

/* The GPUs spec names, in its order: *out (free it) and their count, or 0
 * after a message (exit 2: no GPU, an index that is not there, a repeat). */
size_t cli_fleet_gpus(const char *cmd, const char *spec, cli_fleet_gpu **out);
/* The environment of gpu's worker: this one, pinned to that GPU. NULL-ended;
 * free with cli_fleet_env_free. NULL when out of memory. */
char **cli_fleet_env(const cli_fleet_gpu *gpu);
void cli_fleet_env_free(char **env);

#endif
