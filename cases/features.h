/* cases/features: the published feature tests and per-feature summaries.
 *
 * Fasi, Higham, Mikaitis and Pranesh ("Numerical behavior of NVIDIA tensor
 * cores", PeerJ CS 2021) ask of each tensor-core mode: are subnormal inputs
 * and outputs supported, are products exact, how many extra bits does the
 * alignment keep, is it truncation or rounding, in what blocks are terms
 * summed, is the sum monotonic, are there carry-out bits, does C enter the
 * fused sum. cases/library/fasi2021.case asks these questions of every
 * floating-point format combination of the catalogue, with inputs derived for
 * its formats by the families of cases/families/; here the answers are summarised per
 * instruction and feature, so they compare with the paper's tables.
 */
#ifndef TC_FEATURES_H
#define TC_FEATURES_H

#include <stdio.h>

#include "cases/casefile.h"
#include "cases/gen.h"

/* The case families that make up the Fasi et al. 2021 questions. */
extern const char *const tc_fasi2021_families[];

/* Appends the Fasi 2021 cases for every floating-point format combination
 * and K of the catalogue (dense instructions), each case selecting its class
 * by formats and K. Returns the number of cases. */
int tc_features_fasi2021(tc_casefile *out);
/* Writes them as a case file with its explanatory header. */
void tc_features_write_fasi2021(FILE *f);

enum { TC_FEATURE_MAX_LABELS = 64 };

/* The summary of one feature on one instruction. */
typedef struct {
    const char *feature;
    const tc_instr *ins;
    int ncases, npass, nfail;
    int level;          /* levelled features: the largest L with every case of level <= L passing, -1 if none */
    int max_level;      /* the largest level tested */
    bool levelled;
    /* Behaviours shown consistently: every case of the feature that lists
     * the behaviour as an alternative matched it. */
    const char *common[TC_FEATURE_MAX_LABELS];
    int ncommon;
} tc_feature_summary;

/* Summarises results (all of one instruction) by feature, in order of first
 * appearance; cases without a feature are left out. Returns the count
 * written into out (at most max). */
size_t tc_features_summarize(const tc_case_result *res, size_t n, tc_feature_summary *out,
                             size_t max);

/* The column heading of a feature in the cases matrix ("subnormal in"); the
 * feature's own name when it has none. */
const char *tc_feature_heading(const char *feature);
/* What one summary says, in a few words for the matrix: levelled features
 * as "3 extra bits" (">= 5 extra bits" when every level tested holds), the
 * behaviours shown consistently as short words ("keeps", "flushes", "RZ-like"),
 * else "as reference" (every case gave the reference) or "K of N differ". */
void tc_feature_words(const tc_feature_summary *s, char *buf, size_t len);
/* Writes the instruction x feature matrix of the summaries (grouped by
 * instruction, as run_files collects them): one column per feature in order
 * of first appearance, "-" where a feature was not tested; wgmma shapes that
 * differ only in N and agree in every cell share a row (cases/features_matrix.c). */
void tc_features_write_matrix(const tc_feature_summary *all, size_t n, FILE *f);

#endif
