/* recording: the runs whose answers are kept as records (tcscope record,
 * and its aliases run --random, --chain, --check-layout): a corpus of
 * random tiles per instruction, a set of chains per instruction, and the
 * on-device layout proof, over a set of instructions on one backend.
 *
 * Each instruction's record (probes/backend_corpus.h's struct) goes to the
 * caller's put as soon as it is whole (the CLI writes it as a line with
 * reports/record_corpus.h, so a later failure keeps the earlier lines: cases/
 * does not write records); here is what is run and in which order: the instructions in catalogue
 * order, and with "all" those the backend cannot run left out (said through
 * skipped) as are, for chains, those that have none. A chain line of an
 * instruction whose chain key an earlier line of this run already recorded
 * with the same bits says same_as (probes/backend_corpus.h).
 */
#ifndef TC_RECORDING_H
#define TC_RECORDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "probes/backend_corpus.h"
#include "probes/probes.h"

/* The instructions of one recording, in catalogue order. */
typedef struct {
    const tc_instr *const *instrs;
    size_t n;
    /* --instr all: leave out what the backend cannot run (skipped(ctx, why)
     * says which, why naming it) and, for chains, instructions without
     * chains; a named one is run, and refused by the backend if need be. */
    bool all;
    void (*skipped)(void *ctx, const char *why);
    void *ctx;
} tc_recording_set;

/* Where each record goes; 0, or -1 with err to stop the run. The record is
 * freed after put returns. */
typedef int (*tc_recording_put_corpus)(void *ctx, const tc_corpus_rec *rec, char *err, size_t errlen);
typedef int (*tc_recording_put_chain)(void *ctx, const tc_chain_rec *rec, char *err, size_t errlen);

/* One corpus record of elems random elements (seed) per instruction, to
 * put. 0, or -1 with err at the first instruction that failed (the records
 * before it put). */
int tc_recording_corpus(tc_backend *b, const tc_recording_set *s, size_t elems, uint64_t seed,
                        tc_recording_put_corpus put, void *ctx, char *err, size_t errlen);

/* The chain cvt of ins when none is given: rne with satfinite, but rne with
 * Inf where A has D's range (tf32 A, A = D). */
tc_rounding tc_recording_default_cvt(const tc_instr *ins);

/* One chain record of nchains chains of len steps per instruction, D fed
 * back through cvt (NULL: tc_recording_default_cvt of each), to put. 0, or
 * -1 with err as tc_recording_corpus. */
int tc_recording_chains(tc_backend *b, const tc_recording_set *s, size_t nchains, int len,
                        const tc_rounding *cvt, uint64_t seed, tc_recording_put_chain put, void *ctx, char *err,
                        size_t errlen);

/* The layout proof of every instruction (probes/layout.h): result(ctx, ins,
 * why) for each, why NULL when it passed. The number that failed. */
size_t tc_recording_layout(tc_backend *b, const tc_recording_set *s,
                           void (*result)(void *ctx, const tc_instr *ins, const char *why), void *ctx);

#endif
