/* cases: the case library. A case is one dot product put through an MMA
 * instruction, with what it probes and what arithmetic says it must give.
 *
 * Case files are text a person reads and extends (spec: cases/library/README).
 * In short, one block per case:
 *
 *   [name]                          starts a case (letters, digits, . _ - /)
 *   instr  = SELECTOR               an instruction name, or a class (below)
 *   probes = sentence               what the case probes
 *   a      = V, V, ...              first row of A  (K values at most; rest 0)
 *   b      = V, V, ...              first column of B; "V x N" repeats V N times
 *   c      = V                      C[row][col] (default 0; rest of C is 0)
 *   row    = I      col = J         where the dot product sits (default 0 0)
 *   expect = exact [MODE]           D equals the correctly rounded result (rne)
 *   expect = V | nan                D equals V (exact value, sign of zero too)
 *   expect = invariant | monotone   across the variants of `vary`
 *   reference = OUTCOME             like expect, but a departure is a finding (exit 0)
 *   if OUTCOME -> "behaviour"       alternatives: each that matches is reported
 *   vary   = permutations N | tiles N | runs N | a[I] V | b[I] V | c V
 *   feature = NAME    level = N     groups cases for per-instruction summaries
 *
 * Values use the notation of `tcscope convert` (oracle/value.h) and must be
 * representable in the operand's format; they are bound to bits per
 * instruction, so one case can serve a class of instructions.
 *
 * SELECTOR: space-separated terms, all of which must hold: an exact name, a
 * glob ("mma.*.f32.f16.f16.f32"), "all", or a filter a=FMT b=FMT c=FMT d=FMT
 * in=FMT (a and b) acc=FMT (c and d) api=API k=N kmin=N, "sparse" (classes leave
 * out sparse instructions unless this term is given). A case runs on each
 * matching instruction whose K holds its values.
 */
#ifndef TC_CASEFILE_H
#define TC_CASEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/formats.h"
#include "probes/probes.h"

/* Largest K a case may give values for (the catalogue's largest K fits). */
enum { TC_CASE_MAX_K = 256 };
/* The budget of `vary`: permutations, tiles and runs take N in 2..4096.
 * A run batches at most TC_CASE_MAX_BATCH tiles of cases at a time and
 * hands the backend at most TC_CASE_MAX_CALL_BYTES of operands per call,
 * so a cases run stays under about 200 MB whatever the files ask. */
enum { TC_CASE_MAX_VARY = 4096, TC_CASE_MAX_BATCH = 16384 };
#define TC_CASE_MAX_CALL_BYTES (64u << 20)

typedef enum {
    TC_OUT_EXACT,      /* equals oracle_dot_exact with `mode` */
    TC_OUT_VALUE,      /* equals the value `value` (bound to D's format) */
    TC_OUT_NAN,        /* is a NaN (any payload) */
    TC_OUT_INVARIANT,  /* every variant gives the same bits */
    TC_OUT_MONOTONE    /* the varied input moved D in the same direction (or not at all) */
} tc_outcome_kind;

typedef struct {
    tc_outcome_kind kind;
    tc_round mode;     /* TC_OUT_EXACT */
    char *value;       /* TC_OUT_VALUE: the author's text */
    char *label;       /* alternatives: the behaviour it indicates; NULL for expect */
    bool reference;    /* `reference =`: judged like expect, but a departure is a finding
                        * (how the hardware differs from the yardstick), not a failed
                        * expectation: tcscope cases exits 1 only for the latter */
    int line;
} tc_outcome;

typedef enum {
    TC_VARY_NONE,
    TC_VARY_PERMUTE,   /* count permutations of the K terms (pairs a[k], b[k] move together) */
    TC_VARY_TILES,     /* the same tile repeated count times in one batch (many SMs) */
    TC_VARY_RUNS,      /* the same batch run count times */
    TC_VARY_INPUT      /* a second variant with one input replaced */
} tc_vary_kind;

typedef struct {
    tc_vary_kind kind;
    int count;         /* PERMUTE, TILES, RUNS: number of variants, 2..TC_CASE_MAX_VARY */
    char which;        /* INPUT: 'a', 'b' or 'c' */
    int index;         /* INPUT: position in a or b */
    char *value;       /* INPUT: the replacement value's text */
    int line;
} tc_vary;

typedef struct {
    char *name;
    const char *file;  /* the case file's path (owned by the tc_casefile) */
    int line;          /* line of the [name] header */
    char *instr;       /* selector text */
    int instr_line;
    char *probes;
    char *feature;     /* NULL when none */
    int level;         /* -1 when none */
    char **a, **b;     /* value texts, na and nb of them */
    int na, nb;
    int a_line, b_line;
    char *c;           /* NULL: +0 */
    int c_line;
    int row, col;
    int row_line, col_line;
    tc_vary vary;
    tc_outcome *expect;
    size_t nexpect;
    tc_outcome *alt;
    size_t nalt;
} tc_case;

typedef struct {
    char *path;
    tc_case *cases;
    size_t n;
} tc_casefile;

/* Parses case-file text; `path` names it in messages. Checks everything a
 * run needs: syntax, keys, values, that the selector names instructions and
 * that every value is representable in the operand format of each of them.
 * On error returns false with "path:line: message" in err and *out empty. */
bool tc_casefile_parse(const char *path, const char *text, tc_casefile *out, char *err,
                       size_t errlen);
/* Reads and parses a file ("-" is stdin). */
bool tc_casefile_load(const char *path, tc_casefile *out, char *err, size_t errlen);
void tc_casefile_free(tc_casefile *cf);

/* ---- Instructions of a case ------------------------------------------------ */

/* true when `ins` matches the selector; a malformed selector gives false and
 * a message in err (when err is not NULL). */
bool tc_selector_match(const char *sel, const tc_instr *ins, char *err, size_t errlen);
/* Does the case run on ins (selector matches and ins->k holds its values)? */
bool tc_case_applies(const tc_case *c, const tc_instr *ins);

/* A case bound to one instruction: bit patterns in its formats. */
typedef struct {
    const tc_instr *ins;
    int k;                         /* ins->k */
    uint64_t a[TC_CASE_MAX_K];     /* a[kk] = A[row][kk] */
    uint64_t b[TC_CASE_MAX_K];     /* b[kk] = B[kk][col] */
    uint64_t c;
    uint64_t vary_bits;            /* TC_VARY_INPUT: the replacement, in its operand's format */
} tc_case_bound;

/* Binds a case to ins; false with "file:line: message" when a value is not
 * representable there (or A is not 2:4 structured for a sparse ins). */
bool tc_case_bind(const tc_case *c, const tc_instr *ins, tc_case_bound *out, char *err,
                  size_t errlen);

/* Writes the case as a block of case-file text (what --emit prints). */
void tc_case_write(const tc_case *c, FILE *f);
/* Frees the strings of one case (for generators that build them). */
void tc_case_clear(tc_case *c);

/* ---- Running cases ----------------------------------------------------------- */

typedef enum { TC_VERDICT_PASS, TC_VERDICT_FAIL, TC_VERDICT_INFO } tc_verdict;

enum { TC_CASE_MAX_MATCH = 16 };

typedef struct {
    const tc_case *c;
    const tc_instr *ins;
    uint64_t d;                /* D[row][col] bits of the first variant */
    uint64_t exact;            /* the correctly rounded (RNE) result's bits */
    uint64_t d_last;           /* the last variant's D (vary) */
    size_t nvariants;          /* tiles/runs/permutations looked at (1 without vary) */
    size_t ndistinct;          /* distinct D bit patterns among them */
    tc_verdict verdict;        /* INFO: no expectation, only alternatives (or none) */
    char failed[192];          /* the first expectation that did not hold, "" if none */
    bool expect_failed;        /* an `expect` (not a `reference`) did not hold */
    const char *matched[TC_CASE_MAX_MATCH]; /* labels of the alternatives that matched */
    int nmatched;
    bool unrecognised;         /* alternatives given, none matched */
} tc_case_result;

/* Runs n cases that apply to ins in one batch on the backend (more batches
 * for vary = runs), judging each. res[i] belongs to cases[i]. Returns 0, or
 * -1 with err set when binding or the backend fails. */
int tc_cases_run(tc_backend *be, const tc_instr *ins, const tc_case *const *cases, size_t n,
                 tc_case_result *res, char *err, size_t errlen);

/* "pass", "fail", "info". */
const char *tc_verdict_name(tc_verdict v);

#endif
