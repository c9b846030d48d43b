/* Internals of cases/decide*.c. Not a public header. */
#ifndef TC_DECIDE_INTERNAL_H
#define TC_DECIDE_INTERNAL_H

#include "cases/infer_internal.h"
#include "oracle/model_fields.h"
#include "probes/probes.h"

/* The field scope of ins's dots of k terms. */
model_field_scope decide_scope(const tc_instr *ins, int k);

/* The ladder of ins for fingerprint v (decide_ladder.c): terms at every
 * exponent pair where a field acts, into s. 0, or -1 out of memory. */
int decide_ladder_make(const tc_instr *ins, int k, const model_params *v, cset *s);

#endif
