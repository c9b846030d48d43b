/* The writer of the raw GPU records (SCHEMA.md "Raw GPU records"): one
 * corpus ("kind":"tiles") or chain ("kind":"chain") line, an object of a
 * record "corpus" or "chains", from its struct (probes/backend_corpus.h says what a
 * line holds; tc_corpus_run and tc_chain_run fill the structs, the parsers
 * read the lines back). The only writer of these lines: a field added to a
 * struct is written here and read there, nowhere else. */
#ifndef TC_REPORTS_RECORD_CORPUS_H
#define TC_REPORTS_RECORD_CORPUS_H

#include <stddef.h>
#include <stdio.h>

#include "probes/backend_corpus.h"

/* One corpus line of rec, "\n"-terminated, to out: with inputs_of no a, b, c
 * and with d_same no d (the twin's line holds them). 0, or -1 with err
 * (nothing written). */
int tc_record_corpus_line(FILE *out, const tc_corpus_rec *rec, char *err, size_t errlen);

/* One chain line of rec to out: with same_as none of a0, b, c, x, d. 0, or
 * -1 with err (nothing written). */
int tc_record_chain_line(FILE *out, const tc_chain_rec *rec, char *err, size_t errlen);

#endif
