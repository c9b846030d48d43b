/* record_decide: the `decide` object of reports/SCHEMA.md, one per
 * instruction: the deciding inputs of cases/decide.h and, once a backend
 * answered them, its answers.
 *
 * The inputs are kept compact: the pool entries by index (the pool is
 * regenerated from seed and per_family and checked against pool_hash), the
 * mutated ones as bits; the answers as one fixed-width hex string. The
 * fingerprint the pairs were built from is written as audits write theirs
 * (reports/record_audit.h), and `open` lists, per field, the alternatives
 * no input separated from it. */
#ifndef TC_RECORD_DECIDE_H
#define TC_RECORD_DECIDE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cases/decide.h"

/* The object of s (new reference), with the answers hw[s->ninputs] when not NULL. */
json_t *tc_decide_object(const decide_set *s, const uint64_t *hw);

/* s (and *hw, malloc'ed, or NULL when the object holds no answers) from an
 * object tc_decide_object wrote: the pool regenerated and checked. 0, or -1
 * with err (an unknown instruction, a malformed field, a pool that is no
 * longer the recorded one). */
int tc_decide_read(const json_t *o, decide_set *s, uint64_t **hw, char *err, size_t errlen);

#endif
