/* Internals shared by the files of reports/. Not a public header. */
#ifndef TC_REPORTS_INTERNAL_H
#define TC_REPORTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <jansson.h>

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

/* A record file opened for reading, gzip-compressed or not (record_open.c). */
typedef struct {
    pid_t pid; /* the gzip -dc child, or -1 */
} rep_stream;
FILE *rep_record_open(const char *path, rep_stream *s, char *err, size_t len);
/* Closes it; -1 when the gzip child failed (a truncated or corrupt file). */
int rep_record_close(FILE *f, rep_stream *s);

/* Pareto front of (speed, error), faster and smaller error better: front[i]
 * when both are finite and no other finite point is at least as fast and at
 * least as accurate, and better in one (reports/pareto.c). A point with a
 * NaN is neither on the front nor dominates. */
void rep_pareto_front(const double *speed, const double *error, size_t n, bool *front);

/* An SVG from a record that may be inlined into a page: drawing elements
 * only, no script, event attribute, link or style (reports/svg_safe.c). */
bool rep_svg_safe(const char *svg);

#endif
