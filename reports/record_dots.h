/* The writer of dots lines (probes/dots.h says what a line holds; `tcscope
 * import km` fills the struct, tc_dots_load reads the lines back). The
 * only writer of these lines, as record_corpus.h is of corpus lines. */
#ifndef TC_REPORTS_RECORD_DOTS_H
#define TC_REPORTS_RECORD_DOTS_H

#include <stdio.h>

#include "probes/dots.h"

/* One dots line of d, "\n"-terminated, to out: with d->inputs_of no a, b
 * (the earlier line's). 0, or -1 out of memory (nothing written). */
int tc_record_dots_line(FILE *out, const tc_dots *d);

#endif
