/* dots: recorded single dot products (a third party's GPU answers), one
 * JSON line per set of rows of one instruction (the objects of a record
 * "dots", or bare lines before 2026-11-24: record_json.h tc_lines):
 *
 *   {"kind": "dots", "instr": NAME, "gpu": "A100", "source": .., "licence": ..,
 *    "files": "A100/fp16/{a,b,c,d}..", "rows": N, "k": K,
 *    "a": HEX, "b": HEX, "c": HEX, "d": HEX}
 *
 * Row r is element (0,0) of one tile of NAME: A row 0 = a[r*K .. r*K+K-1],
 * B column 0 = b[r*K ..], C[0][0] = c[r], every other element of A, B and C
 * zero, and d[r] the recorded D[0][0]. HEX as backend_corpus.h (fixed-width,
 * storage_bits/4 digits each, in the instruction's formats). Nothing else of
 * the tile was recorded, so nothing else is claimed.
 *
 * A line may say "inputs_of": NAME instead of "a" and "b": its A and B are
 * those of the earlier line of NAME in the same file (the same recorded
 * operand files run with another output format), checked to have as many
 * rows; it keeps its own c and d.
 */
#ifndef TC_DOTS_H
#define TC_DOTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "probes/probes.h"

typedef struct {
    const tc_instr *ins;
    char gpu[32], files[160], source[320];
    size_t rows;
    int k;
    uint64_t *A, *B, *C, *D;   /* rows*k, rows*k, rows, rows */
    const char *inputs_of;     /* write only: NULL, or the earlier line's instruction whose A and B these are */
} tc_dots;

/* The lines are written by reports/record_dots.h (tc_record_dots_line). */
/* Every line of a file (gzip -dc when the name ends in .gz). 0 with *sets
 * (free with tc_dots_free_all), or -1 with err naming the file and line. */
int tc_dots_load(const char *path, tc_dots **sets, size_t *nsets, char *err, size_t errlen);
void tc_dots_free_all(tc_dots *sets, size_t n);
/* The recorded sets behind a corpus backend (tc_backend_open_dots), NULL
 * for any other backend: what an audit of a fixed set fits to. */
const tc_dots *tc_dots_of_backend(const tc_backend *b, size_t *nsets);

#endif
