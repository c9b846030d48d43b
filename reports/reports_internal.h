/* Internals shared by the files of reports/. Not a public header. */
#ifndef TC_REPORTS_INTERNAL_H
#define TC_REPORTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

#include "probes/probes.h"

/* Writes a one-line message into err (when err has room). */
void rep_set_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The numbers of object o that its kind's range table covers
 * (reports/record_check.c), alone: for lines read without the whole
 * field table (the older tcscope-gemm lines). false with err. */
bool rep_check_ranges(const json_t *o, char *err, size_t len);

/* One record line: compact JSON, keys in order, reals that read back
 * exactly, then a newline. 0 or -1. */
int rep_write_line(FILE *f, const json_t *o);
/* The last line of a record of n objects: {"kind":"end","objects":n}, or with
 * partial (why the run stopped) {"kind":"partial","objects":n,"stopped":partial}. */
json_t *rep_trailer_new(size_t objects, const char *partial);
/* The trailer's "objects" is have; else false with why ("the trailer says
 * N WHAT, the file has M", or that it is no count: 1.0, "2", absent). */
bool rep_trailer_count_ok(const json_t *trailer, size_t have, const char *what, char *why, size_t len);

/* A slim audit record's full record, beside it (record_slim.c, SCHEMA.md
 * "Slim audit records"). rep_slim_reference: 0 when the header is not
 * slim, 1 with from (the full record's path, beside path), -1 with err when
 * its "slim" is malformed. The loader (record.c) loads that record and
 * rep_slim_new indexes its objects (NULL: out of memory); rep_slim_fill puts an
 * object's left-out fields back from it: 0, or -1 with err. */
typedef struct rep_slim rep_slim;
int rep_slim_reference(const char *path, const json_t *header, char *from, size_t fromlen, char *err, size_t len);
rep_slim *rep_slim_new(const json_t *header, const char *from, const json_t *ref_objects);
int rep_slim_fill(const rep_slim *s, json_t *o, char *err, size_t len);
void rep_slim_close(rep_slim *s);

/* Pareto front of (speed, error), faster and smaller error better: front[i]
 * when both are finite and no other finite point is at least as fast and at
 * least as accurate, and better in one (reports/pareto.c). A point with a
 * NaN is neither on the front nor dominates. */
void rep_pareto_front(const double *speed, const double *error, size_t n, bool *front);

/* An SVG from a record that may be inlined into a page: drawing elements
 * only, no script, event attribute, link or style (reports/svg_safe.c). */
bool rep_svg_safe(const char *svg);

/* ---- Packed records (record_packed*.c; the public side: record_packed.h) */
/* One array of a line: its field, format, elements. */
typedef struct {
    const char *key;
    const tc_format *f;
    uint64_t *x;
    size_t n;
} pk_array;
/* The generator of the inputs of one kind of object: draw fills a[0..2]
 * (free with pk_arrays_free) and returns how many (0: the line keeps no
 * inputs of its own, as a twin's), or -1 with err. */
typedef struct {
    const char *kind, *by;
    int (*draw)(const json_t *o, pk_array *a, char *err, size_t len);
} pk_generator;
const pk_generator *pk_generator_of_kind(const char *kind);
const pk_generator *pk_generator_named(const char *by);
void pk_arrays_free(pk_array *a, int n);
/* Calls fn for every output string of o (an object of kind): the member key
 * of o, or of o's member parent when parent is not NULL, digits hex digits
 * an element. Stops at the first fn that returns non-zero: -1. */
typedef int (*pk_output_fn)(void *ctx, const char *parent, const char *key, json_t *hex, int digits, char *err,
                            size_t len);
int pk_outputs_each(json_t *o, const char *kind, pk_output_fn fn, void *ctx, char *err, size_t len);
/* What an error names an object by: its instruction, or a gemm's path. */
const char *pk_object_name(const json_t *o);

/* Bits of n elements of `bits` bits each (a multiple of 4, at most 64),
 * element e at bits e*bits.. of the little-endian byte string. */
size_t pk_bytes(size_t n, int bits);
void pk_bits_put(unsigned char *p, size_t e, int bits, uint64_t v); /* p zeroed first */
uint64_t pk_bits_get(const unsigned char *p, size_t e, int bits);
/* The sha256 of the arrays a[0..n), each as packed bits of its format's hex
 * width, one after another, as 64 lower-case hex digits in out. -1 out of memory. */
int pk_sha256_arrays(const pk_array *a, int n, char out[65]);

/* The output folder's lock (reports/outdir_lock.c): 0, or -1 with err
 * naming the run that holds it. Unlock removes .lock when this run owns it. */
struct tc_outdir_s;
int rep_outdir_lock(struct tc_outdir_s *d, char *err, size_t len);
void rep_outdir_unlock(struct tc_outdir_s *d);

#endif
