/* fit_rows: the audit's inference on a fixed set of recorded rows (a
 * corpus backend, probes/dots.h), which cannot ask new questions.
 *
 * Split, fixed: rows of even index (0, 2, 4, .. in file order) are fitted,
 * rows of odd index verify. Fit: every candidate of a grid over the fields
 * random finite rows can see (block, align_bits, align_round, acc, c_mode,
 * out_round, align_exp, align_ref, step_split, c_round; the other fields
 * at model_params_exact's values; an accumulator as narrow as the widest
 * recorded output significand is tried when that is below D's precision) is run on the fit rows; the survivors explain every one of them,
 * and the first survivor in grid order is the chosen arithmetic. Then, for
 * every profile field, each other candidate value (a fixed list per field)
 * is put into the chosen parameters and run on the fit rows. A field is
 * decided when the chosen value is the only one, among the grid survivors
 * and these trials, that explains every fit row; it is decided by the
 * rows on which some other value gives another answer. Otherwise it is not
 * decidable from this data, and every value that explains the rows is
 * listed: nothing is filled in. The chosen arithmetic is then run on the
 * verify rows; mismatches are counted and the first ones kept.
 */
#ifndef TC_FIT_ROWS_H
#define TC_FIT_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oracle/model.h"
#include "probes/dots.h"

#define FIT_MAX_VALUES 24
#define FIT_MAX_SHOWN 8

typedef struct {
    const char *key;                    /* profile field key */
    int nvalues;                        /* values explaining every fit row; values[0] is the chosen one */
    bool more;                          /* more than FIT_MAX_VALUES did */
    char values[FIT_MAX_VALUES][64];
    int tried;                          /* other values tried by substitution */
    size_t deciding_rows;               /* fit rows on which some other tried value disagrees */
} fit_field;

typedef struct {
    const tc_instr *ins;
    size_t fit_rows, verify_rows;
    size_t candidates, survivors;       /* grid size, grid candidates explaining every fit row */
    int observed_bits;                  /* most significant bits of any normal recorded output */
    bool fits;
    model_params chosen;                /* fits: the first survivor in grid order */
    size_t best_rows;                   /* !fits: fit rows the best grid candidate explains */
    model_params best;                  /* !fits: that candidate (not a result: evidence) */
    size_t verify_mismatch;             /* fits: verify rows the chosen arithmetic misses */
    size_t survivors_verified;          /* verify_mismatch > 0: grid survivors that miss no verify row
                                           (the fit half could not tell them from the chosen one) */
    size_t row_explained[FIT_MAX_SHOWN];/* verify_mismatch > 0: survivors giving row[i]'s recorded answer */
    size_t shown;                       /* mismatching rows kept below (verify rows, or fit rows when !fits) */
    size_t row[FIT_MAX_SHOWN];          /* row index in the file */
    uint64_t want[FIT_MAX_SHOWN], got[FIT_MAX_SHOWN];
    fit_field *fields;                  /* fits: profile_field_count() of them */
    int nfields;
} fit_result;

/* 0, or -1 with err (out of memory, a model that cannot be built). */
int tc_fit_rows(const tc_dots *d, fit_result *r, char *err, size_t errlen);
void tc_fit_result_free(fit_result *r);

#endif
