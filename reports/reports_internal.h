/* Internals shared by the files of reports/. Not a public header. */
#ifndef TC_REPORTS_INTERNAL_H
#define TC_REPORTS_INTERNAL_H

#include <stddef.h>

/* Writes a one-line message into err (when err has room). */
void rep_set_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
