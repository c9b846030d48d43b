/* corpus: fixed random batches of one instruction with the outputs a
 * backend gave, one JSON line per instruction, so that GPU answers can be
 * kept under reports/baselines/ and replayed on machines without a GPU.
 * Here the runs that fill a line's struct and the readers; the lines are
 * written by reports/record_corpus.h only, never here.
 *
 *   {"instr": NAME, "backend": .., "device": .., "driver": .., "cuda": .., "sm": 90,
 *    "seed": S, "ntiles": T, "layout": "pass" | "fail: ..." | "not checked (output bits only)",
 *    "sass": {"opcode": .., "native": true, "per_mma": 1, "conversions": 0, "verdict": .., "message": ..}
 *            or {"error": ..},  (GPU only)
 *    "a": HEX, "b": HEX, "c": HEX, "d": HEX}
 *
 * HEX is every element of every tile (row-major, as probes.h) as fixed-width
 * hex digits (storage_bits / 4 each), concatenated.
 *
 * A wgmma .rs instruction takes the inputs of its shared-memory twin (same
 * name without .rs, same seed): its line says "inputs_of": TWIN instead of
 * a, b, c, and "d_same_as": TWIN instead of d when the recorder ran the twin
 * on the same inputs and got the same bits (checked then, element by element).
 * This keeps the record small without dropping a single output.
 */
#ifndef TC_BACKEND_CORPUS_H
#define TC_BACKEND_CORPUS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probes/probes.h"

/* Budgets, checked before anything is allocated, for lines written and
 * lines read alike (a damaged count cannot ask for terabytes):
 *  - a corpus asks at most TC_CORPUS_MAX_ELEMS outputs (`record corpus --count N`, alias `run --random N`);
 *  - the arrays of one corpus or chain line hold at most TC_LINE_MAX_ELEMS
 *    elements in all (2^27: 1 GiB as uint64_t, about 1.5 GB with the hex
 *    text). For chains that is C * L * (K*K + 3*M*K) + C*M*K: about 1.3e5
 *    steps (chains x length) of mma.m16n8k16, 4e4 of a wgmma with K = 16. */
#define TC_CORPUS_MAX_ELEMS 1000000u
#define TC_LINE_MAX_ELEMS (1u << 27)

/* Tiles needed for at least `elems` output elements. */
size_t tc_corpus_tiles(const tc_instr *ins, size_t elems);

/* Random inputs, the same for the same (instruction, seed): mostly finite
 * values with exponents within +-6 and random significands, 1 in 16 any bit
 * pattern (NaN, Inf, subnormals), 1 in 16 subnormal or zero; integers: any
 * s8/u8, s32 C within +-2^24 (so the exact sum fits). Sparse A is made 2:4. */
void tc_corpus_inputs(const tc_instr *ins, size_t ntiles, uint64_t seed, uint64_t *A, uint64_t *B, uint64_t *C);

/* One corpus line as data: what tc_corpus_run fills and tc_corpus_parse
 * reads; reports/record_corpus.h writes it (the only writer of the line):
 * an object "tiles" of a record "corpus", or (before 2026-11-24) a bare line
 * without "kind" (record_json.h tc_lines tells the two forms apart). */
typedef struct {
    const tc_instr *ins;
    size_t ntiles;
    uint64_t seed;
    int sm;
    char backend[64], device[128], driver[32], cuda[32];
    char layout[320];      /* "pass" or "fail: " and the probe's message */
    int sass_read;         /* "sass" (a GPU's line): 1 read (sass), -1 not (sass_error); 0 none */
    tc_instr_sass sass;
    char sass_error[256];
    char inputs_of[96];    /* non-empty: A, B, C are the twin's (NULL until resolved) */
    bool d_same;           /* D is the twin's (NULL until resolved) */
    uint64_t *A, *B, *C, *D;
} tc_corpus_rec;

/* Runs the layout probe, reads the SASS (GPU) and runs the corpus: rec gets
 * everything the line says, with all four arrays even where the line names
 * a twin (free with tc_corpus_rec_free). 0, or -1 with err (rec empty). */
int tc_corpus_run(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, tc_corpus_rec *rec, char *err,
                  size_t errlen);

/* The same inputs and D without the layout probe, the twin's batch or the
 * SASS (no "sass", layout TC_CORPUS_LAYOUT_NOT_CHECKED, no twin): the
 * bits a cross-GPU comparison needs, a batch an instruction (regress
 * --cross-run, cli/regress_cross.c). */
#define TC_CORPUS_LAYOUT_NOT_CHECKED "not checked (output bits only)"
int tc_corpus_bits(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, tc_corpus_rec *rec, char *err,
                   size_t errlen);
/* Parses one line. 0, or -1 with err naming the problem. */
int tc_corpus_parse(const char *line, tc_corpus_rec *rec, char *err, size_t errlen);
/* Fills what rec takes from its twin's record (already parsed). 0 or -1. */
int tc_corpus_resolve(tc_corpus_rec *rec, const tc_corpus_rec *twin, char *err, size_t errlen);
void tc_corpus_rec_free(tc_corpus_rec *rec);

/* ---- Chain records ------------------------------------------------------
 * The output of on-GPU chains (tc_backend_chain), one JSON line per
 * instruction (an object of a record "chains", or a bare line before
 * 2026-11-24: record_json.h tc_lines), so that CI can replay every step of a
 * GPU chain on the model:
 *
 *   {"kind": "chain", "instr": NAME, "key": KEY, "backend": .., "device": ..,
 *    "driver": .., "cuda": .., "sm": 90, "seed": S, "chains": C, "len": L,
 *    "cvt": {"round": "rne", "overflow": "sat"},
 *    "a0": HEX, "b": HEX, "c": HEX, "x": HEX, "d": HEX}
 *
 * M = ins->m, K = ins->k; arrays chain-major then step-major as in probes.h:
 * a0 C*M*K (A's format), b C*L*K*K (B's), c C*L*M*K (C's), x C*L*M*K (A's:
 * x step i is X_{i-1}, the input step i used), d C*L*M*K (D's). HEX as above.
 * A line whose X and D equal those of an earlier line of the same key, seed,
 * chains, len and cvt (its twin) says "same_as": TWIN instead of a0..d.
 */

/* The chain key: the name without the wgmma N (wgmma.m64n8k16.. ->
 * wgmma.m64nk16..) and without ".rs", so every wgmma of one type and K gets
 * the same chain inputs (a chain step is X (64 x K) * B (K x K): N only says
 * how many instructions make a step). mma and wmma: the name itself. */
void tc_chain_key(const tc_instr *ins, char *key, size_t len);

/* Inputs of nchains chains of len steps, the same for the same (key, seed),
 * and chain c's first steps the same whatever nchains and len are: A0 as
 * tc_corpus_inputs draws A (specials included, so step 1 sees everything);
 * B_i and C_i finite, B elements about 1/sqrt(K) (so K * E[b^2] < 1/2 and a
 * chain of normal values stays bounded), C in [1/2, 2); any pattern with
 * probability 1/(32 K) (about one row in 32: a NaN in B_i takes the whole
 * chain the next step, so a higher rate leaves chains of NaN). */
void tc_chain_inputs(const tc_instr *ins, size_t nchains, int len, uint64_t seed, uint64_t *A0, uint64_t *B,
                     uint64_t *C);

typedef struct {
    const tc_instr *ins;
    char key[96], same_as[96], backend[64], device[128], driver[32], cuda[32];
    int sm;
    uint64_t seed;
    size_t nchains;
    int len;
    tc_rounding cvt;                 /* mode and ovf only */
    uint64_t *A0, *B, *C, *X, *D;    /* NULL until resolved when same_as is set */
} tc_chain_rec;

/* Whether nchains chains of len steps of ins fit TC_LINE_MAX_ELEMS; false
 * with err naming the budget (what tc_chain_run and tc_chain_parse check). */
bool tc_chain_fits(const tc_instr *ins, size_t nchains, int len, char *err, size_t errlen);
/* Runs the chains on b into rec (free with tc_chain_rec_free), all five
 * arrays always; reports/record_corpus.h writes its line. twin (optional): a
 * record of the same key, seed, chains, len and cvt already written; when
 * this run's data equal the twin's bit for bit rec says same_as (and its line
 * carries no arrays). Sparse and integer instructions have no chains; cvt
 * must be a rounding and an overflow only (no ftz/daz, no stochastic
 * rounding: the record keeps neither). 0, or -1 with err (rec empty). */
int tc_chain_run(tc_backend *b, const tc_instr *ins, size_t nchains, int len, tc_rounding cvt, uint64_t seed,
                 const tc_chain_rec *twin, tc_chain_rec *rec, char *err, size_t errlen);

/* Parses one line. 0, or -1 with err naming the problem (nothing to free). */
int tc_chain_parse(const char *line, tc_chain_rec *rec, char *err, size_t errlen);
/* Copies the arrays of rec's twin (already parsed and resolved) when rec says
 * same_as; checks name, key, seed, chains, len and cvt agree. 0 or -1. */
int tc_chain_resolve(tc_chain_rec *rec, const tc_chain_rec *twin, char *err, size_t errlen);
void tc_chain_rec_free(tc_chain_rec *rec);

/* Replays a record on b, every step on its own, with plain MMAs:
 *  X: X_0 must equal A0 and X_i must equal tc_encode(A, tc_decode(D, D_{i-1}),
 *     cvt); mismatches in *x_mismatch, except where both are NaN (different
 *     patterns): *x_nan_pattern;
 *  D: D_i must equal what tc_backend_mma gives for the recorded X_{i-1}, B_i,
 *     C_i; a step is ceil(K/N) MMAs on the column blocks of B_i and C_i
 *     (columns at or beyond K zero, their outputs dropped); mismatching
 *     elements in *d_mismatch.
 * 0, or -1 with err when b cannot run the instruction or rec is unresolved. */
int tc_chain_check(tc_backend *b, const tc_chain_rec *rec, size_t *d_mismatch, size_t *x_mismatch,
                   size_t *x_nan_pattern, char *err, size_t errlen);

#endif
