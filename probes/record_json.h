/* What the JSON lines of corpus, chain and dots records (backend_corpus.h,
 * dots.h) share: how a line is loaded, and the HEX fields: n elements of one
 * format as fixed-width lower-case hex, storage_bits/4 digits each (rounded
 * up), concatenated. One reader and one writer (tc_hex_put, used by
 * reports/record_corpus.c and reports/record_dots.c, the lines' writers), so
 * the three record kinds cannot drift apart. */
#ifndef TC_RECORD_JSON_H
#define TC_RECORD_JSON_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "probes/probes.h"

/* One line as a JSON value (json_decref it), or NULL with err "bad JSON: ..". */
json_t *tc_line_load(const char *line, char *err, size_t errlen);
/* Sets field key of j to the n elements x of f. 0, or -1 out of memory. */
int tc_hex_put(json_t *j, const char *key, const uint64_t *x, size_t n, const tc_format *f);
/* Field key of j as n elements of f in a fresh array (free it), or NULL when
 * the field is missing, is not exactly n elements long or has a digit outside
 * 0-9a-f (or out of memory). The length is checked before anything is
 * allocated, so a damaged count cannot ask for terabytes. */
uint64_t *tc_hex_get(json_t *j, const char *key, size_t n, const tc_format *f);

#endif
