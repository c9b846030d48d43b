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

/* One record line: compact JSON, keys in order, reals that read back
 * exactly, then a newline. 0 or -1. */
int rep_write_line(FILE *f, const json_t *o);
/* The last line of a record of n objects: {"kind":"end","objects":n}, or with
 * partial (why the run stopped) {"kind":"partial","objects":n,"stopped":partial}. */
json_t *rep_trailer_new(size_t objects, const char *partial);

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

/* The output folder's lock (reports/outdir_lock.c): 0, or -1 with err
 * naming the run that holds it. Unlock removes .lock when this run owns it. */
struct tc_outdir_s;
int rep_outdir_lock(struct tc_outdir_s *d, char *err, size_t len);
void rep_outdir_unlock(struct tc_outdir_s *d);

#endif
