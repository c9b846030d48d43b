/* sass_reader: the SASS of this program read and parsed on a thread of its
 * own (probes/sass.h tc_sass_dump, tc_sass_parse), so that the caller opens
 * the GPU and loads its records meanwhile (cuobjdump: 2-3 s on the H200
 * nodes; the build's file: a few hundredths).
 *
 * Why a type of its own: a caller that finishes without needing the SASS
 * (regress whose baseline has no timing) must not wait for it. The reader
 * and the caller each hold a reference to the read; closing lets the
 * thread go, and whichever lets go last frees it. */
#ifndef TC_SASS_READER_H
#define TC_SASS_READER_H

#include "probes/sass.h"

typedef struct tc_sass_reader tc_sass_reader;

/* Starts tc_sass_dump(path, arch, prefix) and the parse on a thread (where
 * none can be made, reads here, in turn). Never NULL. */
tc_sass_reader *tc_sass_reader_start(const char *path, const char *arch, const char *prefix);

/* Each waits for the read, the first time. The parsed SASS, or NULL when
 * it could not be read or parsed (tc_sass_reader_error says why). */
const tc_sass *tc_sass_reader_wait(tc_sass_reader *r);
const char *tc_sass_reader_error(tc_sass_reader *r);
/* tc_sass_dump's source (the path given, the build's file, "cuobjdump");
 * "" when there is no SASS. */
const char *tc_sass_reader_source(tc_sass_reader *r);
/* Seconds the read and the parse took. */
double tc_sass_reader_seconds(tc_sass_reader *r);

/* Lets go of it without waiting: a read still running finishes, and frees
 * it, on its thread. r is not used again. NULL: nothing. */
void tc_sass_reader_close(tc_sass_reader *r);

#endif
