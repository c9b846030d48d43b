/* corpus: fixed random batches of one instruction with the outputs a
 * backend gave, one JSON line per instruction, so that GPU answers can be
 * kept under reports/baselines/ and replayed on machines without a GPU.
 *
 *   {"instr": NAME, "backend": .., "device": .., "driver": .., "cuda": .., "sm": 90,
 *    "seed": S, "ntiles": T, "layout": "pass" | "fail: ...",
 *    "sass": {"opcode": .., "native": true, "per_mma": 1, "conversions": 0, "verdict": ..},  (GPU only)
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

/* Tiles needed for at least `elems` output elements. */
size_t tc_corpus_tiles(const tc_instr *ins, size_t elems);

/* Random inputs, the same for the same (instruction, seed): mostly finite
 * values with exponents within +-6 and random significands, 1 in 16 any bit
 * pattern (NaN, Inf, subnormals), 1 in 16 subnormal or zero; integers: any
 * s8/u8, s32 C within +-2^24 (so the exact sum fits). Sparse A is made 2:4. */
void tc_corpus_inputs(const tc_instr *ins, size_t ntiles, uint64_t seed, uint64_t *A, uint64_t *B, uint64_t *C);

/* Runs the layout probe, reads the SASS (GPU), runs the corpus and writes
 * one line to out. 0, or -1 with err (nothing written). */
int tc_corpus_record(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, FILE *out, char *err,
                     size_t errlen);

typedef struct {
    const tc_instr *ins;
    size_t ntiles;
    uint64_t seed;
    char backend[64], device[128], driver[32], cuda[32], layout[256];
    char sass_opcode[64];
    int sass_native;       /* -1 unknown */
    char inputs_of[96];    /* non-empty: A, B, C are the twin's (NULL until resolved) */
    bool d_same;           /* D is the twin's (NULL until resolved) */
    uint64_t *A, *B, *C, *D;
} tc_corpus_rec;

/* Parses one line. 0, or -1 with err naming the problem. */
int tc_corpus_parse(const char *line, tc_corpus_rec *rec, char *err, size_t errlen);
/* Fills what rec takes from its twin's record (already parsed). 0 or -1. */
int tc_corpus_resolve(tc_corpus_rec *rec, const tc_corpus_rec *twin, char *err, size_t errlen);
void tc_corpus_rec_free(tc_corpus_rec *rec);

#endif
