/* reports: tcscope run records (versioned JSON Lines), their validation,
 * and small builders for the fields every producer shares.
 *
 * A record file is one JSON object per line:
 *   line 1      the header  {"schema":"tcscope-record/1","kind":...,"gpu":...,...}
 *   lines 2..n  objects     {"kind":"audit"|"corpus"|"bench"|"sweep", ...}
 *   last line   the trailer {"kind":"end","objects":N}
 * The trailer makes a file cut at a line boundary detectable. Required fields
 * per kind are listed in reports/SCHEMA.md and checked by tc_record_check_*.
 * Producers build objects as json_t and hand them over; nothing here knows
 * how the numbers were made. Comparison: reports/compare.h; advice:
 * reports/choose.h; Markdown/HTML: reports/render.h.
 */
#ifndef TC_REPORTS_H
#define TC_REPORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "probes/probes.h"

#define TC_RECORD_SCHEMA "tcscope-record/1"
#define TC_RECORD_SCHEMA_MAJOR 1

/* The tcscope version compiled in (git describe at build time, else a constant). */
const char *tc_version(void);

/* A whole record in memory: header and the objects in file order. */
typedef struct {
    json_t *header;    /* object */
    json_t *objects;   /* array of objects, trailer excluded */
} tc_record;

/* A new header of `kind` ("audit", "corpus", "bench", "sweep" or "mixed").
 * info may be NULL (fields then empty/null); seeds may be NULL when n is 0.
 * Date (UTC, ISO 8601), host and tcscope version are filled in here. */
json_t *tc_record_header_new(const char *kind, const tc_backend_info *info,
                             const uint64_t *seeds, size_t nseeds);

/* Validation: true, or false with a one-line reason in err naming the field. */
bool tc_record_check_header(const json_t *h, char *err, size_t len);
bool tc_record_check_object(const json_t *o, char *err, size_t len);

/* Reads a record file. Returns 0, or -1 with err set when the file cannot be
 * read, a line is not JSON, the schema is not TC_RECORD_SCHEMA_MAJOR, a
 * required field is missing, or the trailer is missing/wrong (truncation). */
int tc_record_load(const char *path, tc_record *rec, char *err, size_t len);
/* tc_record_load, or else the timing probes' single-document bench file
 * ("record": "tcscope-bench", version 1) converted into bench objects. */
int tc_record_load_any(const char *path, tc_record *rec, char *err, size_t len);
/* Writes header, objects and trailer (each validated first). 0 or -1 + err. */
int tc_record_save(const char *path, const tc_record *rec, char *err, size_t len);
/* An empty record with the given header (reference stolen). */
tc_record tc_record_new(json_t *header);
/* Appends an object after validating it (reference stolen even on failure). */
int tc_record_add(tc_record *rec, json_t *obj, char *err, size_t len);
void tc_record_free(tc_record *rec);

/* Creates dir and its missing parents (mkdir -p). 0, or -1 with errno set. */
int tc_make_dirs(const char *dir);

/* Objects of one kind, in file order; the array is new, its items borrowed. */
json_t *tc_record_objects_of(const tc_record *rec, const char *kind);

/* Builders for shared field conventions. */
json_t *tc_json_bits(uint64_t bits);          /* "0x3c00" (lower case, no padding) */
bool tc_json_get_bits(const json_t *j, uint64_t *bits);
json_t *tc_json_real_or_null(double x);       /* NaN/Inf are not JSON: null */
double tc_json_number(const json_t *j);       /* integer or real; NaN if null/absent */

/* The corpus hash: FNV-1a 64 over each output's bits as 8 little-endian
 * bytes, in order. Same function on the GPU side and in compare. */
uint64_t tc_corpus_hash(const uint64_t *bits, size_t n);

/* A corpus object: count = n, hash over all n outputs, and the first
 * min(n, nkeep) outputs (with their inputs when A/B/C are given: per output
 * k values of A and of B and one C; pass NULL to omit). */
json_t *tc_record_corpus_new(const char *instr, const uint64_t *D, size_t n, size_t nkeep,
                             int k, const uint64_t *A, const uint64_t *B, const uint64_t *C);

#endif
