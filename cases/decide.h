/* decide: an input that tells every pair of a field's values apart, and
 * what the hardware's answers to those inputs decide.
 *
 * For one instruction and its decided fingerprint v, every field's whole
 * plausible range (oracle/model_ranges.h) is walked; for each alternative w
 * that the model can build, a directed search over the model finds an input
 * on which v and w give different bits: first the pool (the inference's
 * crafted cases for this instruction, each aimed at a field, then the
 * hunt's boundary families, cases/hunt.h, a slice of each), in that order;
 * then the ladder (two products at every exponent pair 1..60 binades apart,
 * either sign, at the bottom of D's and the accumulator's range, around 1
 * and at the top: one cut bit shows a floor, a width, a rounding); then
 * mutations of pool inputs (one to three operand bits flipped) up to a
 * budget. Inputs already chosen are tried first, so one input serves many
 * pairs. A pair the model proves equivalent (oracle/model_equiv.h: a part
 * of the model no input reaches) needs no input and gets none;
 * a pair no input separates within the budget is kept as open, with the
 * budget spent.
 * The deciding inputs are the pool entries some pair needed (named by
 * index: the pool is regenerated from the seed and checked against a hash)
 * and the ladder and mutated ones (kept as bits).
 *
 * Asked of a backend, the answers decide each field (decide_classify):
 *   construction  every alternative of the range is excluded by an answer
 *                 it gets wrong, or proven equivalent to the value;
 *   sampled       no answers (the inputs were not asked), or alternatives
 *                 the search did not separate within its budget (open
 *                 pairs): against those the value rests on the audit's
 *                 sampled evidence alone;
 *   undecided     some alternative answers every deciding input as the
 *                 hardware did and was neither proven equivalent nor
 *                 searched (the judged fingerprint is not the one built);
 * and an instruction whose decided v misses an answer is contradicted (its
 * profile entry needs a refit: those inputs are its counterexamples), every
 * field of it undecided.
 * The model is model_dot (its fast paths are tested equal to the reference,
 * oracle/model_reference.c, in tests/test_model*.c).
 */
#ifndef TC_DECIDE_H
#define TC_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/infer.h"
#include "oracle/model.h"
#include "probes/probes.h"

typedef struct {
    uint64_t seed;        /* of the pool (the inference's cases and the hunt's tiles) */
    size_t per_family;    /* hunt elements per family in the pool (1..65536) */
    size_t mutations;     /* mutated inputs tried per pair the pool leaves open (0..10^6) */
} decide_opts;

/* A pair no input separated. */
typedef struct {
    int field;            /* model_fields row */
    char value[64];       /* the alternative, in profile syntax */
    bool equivalent;      /* proven (oracle/model_equiv.h); else open: the search's budget ran out */
} decide_open;

typedef struct {
    const tc_instr *ins;
    int k;                /* terms per dot (K/2 for a sparse instruction) */
    model_params v;       /* the fingerprint the pairs were built from */
    decide_opts opts;
    size_t pool;          /* pool entries (crafted + hunt) */
    uint64_t pool_hash;   /* audit_cases_hash of the pool's inputs */
    size_t *from_pool;    /* pool index of each of the first npool inputs */
    size_t npool;
    infer_case *inputs;   /* every deciding input: the npool pool entries, then the ladder's and mutated ones */
    size_t ninputs;
    size_t pairs;         /* alternatives walked (model_new accepted, not v's own value) */
    decide_open *open;    /* the pairs no input separated (proven equivalent, or open) */
    size_t nopen;
} decide_set;

/* The deciding inputs of ins for fingerprint v. 0, or -1 with err (out of
 * memory, a fingerprint the model refuses). */
int decide_build(const tc_instr *ins, const model_params *v, const decide_opts *o, decide_set *out, char *err,
                 size_t errlen);

/* The pool of (ins, seed, per_family): its size and hash, and the entries
 * at the given indices (sorted ascending) into out[n]. 0, or -1 with err
 * (out of memory, an index past the pool). */
int decide_pool_pick(const tc_instr *ins, uint64_t seed, size_t per_family, const size_t *idx, size_t n,
                     infer_case *out, size_t *pool, uint64_t *hash, char *err, size_t errlen);

void decide_set_free(decide_set *s);

typedef enum { DECIDE_CONSTRUCTION, DECIDE_SAMPLED, DECIDE_UNDECIDED, DECIDE_NSTATUS } decide_status;
const char *decide_status_name(decide_status s);

typedef struct {
    decide_status status;
    int alternatives;     /* values of the range other than p's own that the model builds */
    int excluded;         /* those an answer excludes */
    int equivalent;       /* those proven to answer every input as p does (oracle/model_equiv.h) */
    int unseparated;      /* those the search found no input for within its budget (p as built) */
    int open;             /* the rest: answering every input as the hardware did, never searched */
    char first_open[64];  /* one of them, in profile syntax */
} decide_field;

/* Field by field (out[model_field_count()]), what the answers hw[ninputs]
 * (NULL: not asked) decide about p; *contradicted: inputs p's model answers
 * otherwise than hw. The unseparated pairs of s count only when p is the
 * fingerprint s was built from; equivalence is proven for p's own pairs.
 * 0, or -1 with err (a fingerprint the model refuses). */
int decide_classify(const decide_set *s, const model_params *p, const uint64_t *hw, decide_field *out,
                    size_t *contradicted, char *err, size_t errlen);

/* One alternative as decide_classify judged it: excluded by the first input
 * (index into s->inputs) whose hardware answer w's model does not give,
 * with p's, w's and the hardware's answers there; or proven equivalent; or
 * unseparated by the search within its budget; or open. */
typedef enum {
    DECIDE_PAIR_EXCLUDED,
    DECIDE_PAIR_EQUIVALENT,
    DECIDE_PAIR_UNSEPARATED,
    DECIDE_PAIR_OPEN
} decide_pair_kind;
typedef struct {
    int field;
    char value[64];       /* w, in profile syntax */
    size_t input;         /* EXCLUDED: the input; else SIZE_MAX */
    uint64_t v_answer, w_answer, hw_answer;
    decide_pair_kind kind;
} decide_pair;
typedef void (*decide_pair_fn)(void *ctx, const decide_pair *pr);

/* decide_classify, calling each (when not NULL) on every alternative walked. */
int decide_classify_pairs(const decide_set *s, const model_params *p, const uint64_t *hw, decide_field *out,
                          size_t *contradicted, decide_pair_fn each, void *ctx, char *err, size_t errlen);

#endif
