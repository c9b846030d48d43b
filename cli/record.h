/* The recording jobs (cases/recording.h) as the CLI runs them, shared by
 * tcscope record (cli/cmd_record.c) and its aliases run --random, --random
 * --chain and --check-layout (cli/cmd_run.c): the checks made before
 * anything runs, the fleet (gpu:all, a corpus only), the backend, the
 * instructions --instr selects, and the layout proof's lines. The same job
 * through either command writes the same bytes. */
#ifndef TC_CLI_RECORD_H
#define TC_CLI_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/probes.h"

/* LEN of a chain: 1..CLI_RECORD_MAX_LEN steps. */
#define CLI_RECORD_MAX_LEN 1000000

typedef enum { CLI_RECORD_CORPUS, CLI_RECORD_CHAINS, CLI_RECORD_LAYOUT } cli_record_mode;

typedef struct {
    const char *cmd;            /* "record" or "run": messages name it */
    const char *n_opt, *len_opt; /* how cmd spells N and LEN ("--n", "--len"), for messages */
    int argc;                   /* the command's arguments (argv[0] its name), for the fleet's workers */
    char **argv;
    cli_record_mode mode;
    const char *backend;        /* NULL: the GPU, else the recorded model (said so) */
    const char *instr;          /* NAME, NAME,NAME.. or all (required) */
    size_t n;                   /* corpus elements per instruction, or chains */
    int len;                    /* chain steps */
    uint64_t seed;
    bool cvt_given;             /* else cases/recording.h's default, per instruction */
    tc_rounding cvt;
    bool json;                  /* layout: a tcscope-record/1 of layout objects */
} cli_record_job;

/* "ROUND[,OVERFLOW]" of --cvt: a rounding of tc_round_parse but rs (the
 * record keeps no random bits), an overflow of tc_overflow_parse (default
 * sat, as the GPU's cvt.satfinite). TC_EXIT_OK or a message and TC_EXIT_USAGE. */
int cli_record_cvt(const char *cmd, const char *v, tc_rounding *r);

/* Runs the job: the corpus or chains record on stdout (with or without
 * --json), or the layout proof (a line, or a layout object, per
 * instruction). The exit status: 0, 1 a layout failed, 2 bad input or a
 * failed run (a message said why; lines before it are kept). */
int cli_record_run(const cli_record_job *j);

#endif
