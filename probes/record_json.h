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

/* A file of these lines, in either of its two forms (SCHEMA.md "Raw GPU
 * records"): bare lines (files written before 2026-11-24), or a
 * tcscope-record/1 record: a header {"schema":"tcscope-record/1","record":
 * RECORD,..}, the lines as its objects, the trailer {"kind":"end","objects":N}.
 * The form is the first line's; a record without its trailer (a cut file, or
 * a run that ended "partial") is refused, as every record reader does. Fed
 * line by line, so a caller keeps its own reading loop (files of 100 MB). */
typedef struct {
    const char *record; /* "corpus", "chains" or "dots" */
    int state;          /* TC_LINES_START .. TC_LINES_ENDED (record_json.c) */
    size_t objects;
} tc_lines;
void tc_lines_init(tc_lines *s, const char *record);
/* 1: line is a line to parse; 0: a header, trailer or empty line, skip it;
 * -1 with err: a header that is not this record's, a trailer whose count is
 * wrong, a header or trailer out of place, anything after the trailer. */
int tc_lines_next(tc_lines *s, const char *line, char *err, size_t errlen);
/* After the last line: 0, or -1 with err (a record without its trailer). */
int tc_lines_end(const tc_lines *s, char *err, size_t errlen);

#endif
