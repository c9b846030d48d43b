/* profile: model parameters per instruction, as a small text file.
 *
 *   # comment (also after a value)
 *   [about]                        free-form provenance written by the audit
 *   device = NVIDIA H100 80GB HBM3
 *   [default]                      values every instruction inherits
 *   a_ftz = no
 *   [instr mma.m16n8k16.f32.f16.f16.f32]
 *   block = 16
 *   ...
 *
 * The keys are the rows of the field table (oracle/model_fields.h), which
 * reads and writes them, in its order; their syntax for a person:
 * Keys of [default] and [instr NAME] (every one must be given in one of them):
 *   a_convert, b_convert   none | FMT:ROUND        (e.g. tf32:rz, f16:rne)
 *   a_ftz, b_ftz, c_ftz    yes | no
 *   products               exact | BITS:ROUND      (e.g. 22:rz)
 *   product_flush_below    none | EXP              (flush |p| < 2^EXP)
 *   block                  1..1048576
 *   c_mode                 first | last
 *   c_round                ROUND
 *   align_ref              products | all          (all: with the accumulator)
 *   align_exp              nominal | normalized
 *   align_bits             exact | 0..1000
 *   align_round            trunc | floor | rne
 *   carry_bits             unlimited | 1..64
 *   acc                    exact | FMT:ROUND       (format held between steps)
 *   acc_ftz, out_ftz       yes | no
 *   out_round              ROUND
 *   out_overflow           inf | sat | nan
 *   nan                    0xBITS | canonical      (canonical: the output format's NaN)
 * Optional keys (added later; absent means the first value):
 *   acc_overflow           ieee | inf              (inf: the accumulator overflows to Inf in every mode)
 *   step_split             contiguous | interleaved:RUN (K dealt to the steps in runs of RUN)
 *   nan_propagate          no | an order of a, b, acc (e.g. b,acc,a)
 *                          (a NaN operand's payload, quieted, is the result; first in this order)
 *   zero_sign              ieee | positive         (positive: every zero result is +0)
 *   dropped_nan            nan | inf               (what a NaN whose payload is only in cut bits reads as)
 *   align_floor            none | EXP              (the fused sum's grid is never finer than 2^EXP)
 *   scale_group            none | G                (block-scaled forms: products summed exactly in
 *                          groups of G, each aligned at its scales' exponent; model.h)
 * Errors read "FILE:LINE: message" (unknown key, bad or out-of-range value,
 * duplicate key or section, missing field).
 */
#ifndef TC_PROFILE_H
#define TC_PROFILE_H

#include <stddef.h>
#include <stdio.h>

#include "oracle/model.h"

typedef struct {
    char instr[96];        /* PTX name as in the catalogue */
    model_params params;
    int line;              /* line of the section header */
} profile_entry;

typedef struct {
    char key[64];
    char value[256];
} profile_note;

typedef struct {
    profile_entry *entries;
    size_t count;
    profile_note *notes;   /* [about] */
    size_t nnotes;
} model_profile;

/* Parses text (errors name `source`). Returns 0, or -1 with "source:line: msg"
 * in err. "nan = canonical" takes the output format from the instruction
 * name (the field after the shape: mma.m16n8k16.F32.f16.f16.f32); in
 * [default] it is resolved per instruction. */
int profile_parse(const char *text, const char *source, model_profile *out,
                  char *err, size_t errlen);
int profile_load(const char *path, model_profile *out, char *err, size_t errlen);
void profile_free(model_profile *p);

/* The parameters for instruction `instr`, or NULL. */
const model_params *profile_lookup(const model_profile *p, const char *instr);

/* Adds or replaces an instruction's parameters; a note with key. 0 or -1 (no memory). */
int profile_set(model_profile *p, const char *instr, const model_params *params);
int profile_add_note(model_profile *p, const char *key, const char *value);
/* Removes an instruction's parameters (no-op when absent). */
void profile_remove(model_profile *p, const char *instr);

/* Writes the profile so profile_parse reads back the same parameters (a
 * command writes the file through reports/ tc_out_write: atomic, inside --out).
 * Returns 0 or -1 (I/O error). */
int profile_write(FILE *f, const model_profile *p);

/* One instruction's parameters as "key = value" lines (the body of a section). */
void profile_write_params(FILE *f, const model_params *p);

#endif
