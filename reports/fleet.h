/* fleet: what the GPUs of one node answered, side by side (cli/fleet.c runs
 * one worker per GPU). Per instruction, whether every GPU gave the same
 * output bits on the same inputs (the corpus lines of `tcscope run --random`,
 * probes/backend_corpus.h, with the same seed on every GPU), the elements that
 * differ when they do; and the spread of a measured quantity across GPUs. */
#ifndef TC_REPORTS_FLEET_H
#define TC_REPORTS_FLEET_H

#include <stddef.h>

#include <jansson.h>

typedef struct tc_fleet_cmp tc_fleet_cmp;

/* At most this many differing elements are listed per instruction (all are counted). */
#define TC_FLEET_MAX_LISTED 16

tc_fleet_cmp *tc_fleet_cmp_new(void);
/* The corpus lines GPU `gpu` printed (text, one line per instruction). The
 * first GPU added is the reference the others are compared with, element by
 * element. 0, or -1 with err (a line that is not a corpus line). */
int tc_fleet_cmp_add(tc_fleet_cmp *c, int gpu, const char *text, char *err, size_t len);
/* One object per instruction seen, in catalogue order:
 *   {"instr", "elements", "compared": GPUs that ran it, "same": true|false
 *    (null with fewer than 2), "inputs_same", "gpus": [{"gpu", "hash"
 *    (FNV-1a 64 of D's bits), "differing"}], "differences": [{"gpu",
 *    "element", "tile", "row", "col", "reference_gpu", "reference", "bits"}]} */
json_t *tc_fleet_cmp_result(const tc_fleet_cmp *c);
void tc_fleet_cmp_free(tc_fleet_cmp *c);

/* {"gpus": n, "min", "median" (mean of the middle two for even n), "max"}
 * over the finite values of v; null when none. */
json_t *tc_fleet_spread(const double *v, size_t n);

#endif
