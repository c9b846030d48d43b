/* The HEX fields of corpus, chain and dots lines (backend_corpus.h, dots.h):
 * n elements of one format as fixed-width lower-case hex, storage_bits/4
 * digits each (rounded up), concatenated. One reader and one writer, so the
 * three record kinds cannot drift apart. */
#ifndef TC_HEX_BITS_H
#define TC_HEX_BITS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "probes/probes.h"

/* Sets field key of j to the n elements x of f. 0, or -1 out of memory. */
int tc_hex_put(json_t *j, const char *key, const uint64_t *x, size_t n, const tc_format *f);
/* Field key of j as n elements of f in a fresh array (free it), or NULL when
 * the field is missing, is not exactly n elements long or has a digit outside
 * 0-9a-f (or out of memory). The length is checked before anything is
 * allocated, so a damaged count cannot ask for terabytes. */
uint64_t *tc_hex_get(json_t *j, const char *key, size_t n, const tc_format *f);

#endif
