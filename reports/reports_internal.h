/* Internals shared by the files of reports/. Not a public header. */
#ifndef TC_REPORTS_INTERNAL_H
#define TC_REPORTS_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Writes a one-line message into err (when err has room). */
void rep_set_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* One record line: compact JSON, keys in order, reals that read back
 * exactly, then a newline. 0 or -1. */
int rep_write_line(FILE *f, const json_t *o);
/* The last line of a record of n objects: {"kind":"end","objects":n}, or with
 * partial (why the run stopped) {"kind":"partial","objects":n,"stopped":partial}. */
json_t *rep_trailer_new(size_t objects, const char *partial);

#endif
