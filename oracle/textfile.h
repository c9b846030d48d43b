/* textfile: reading a whole text file a person wrote (a profile, a case
 * file) before parsing it. Bounded, and a NUL byte is an error: a parser
 * working on C strings would stop there and silently drop the rest. */
#ifndef TC_TEXTFILE_H
#define TC_TEXTFILE_H

#include <stddef.h>

/* The largest text file read (the case library is about 1.3 MB). */
#define TC_TEXT_FILE_MAX ((size_t)64 << 20)

/* The file ("-": standard input) as a new NUL-terminated buffer of *len
 * bytes (len may be NULL). NULL with "PATH: reason" (or "PATH:LINE: NUL
 * byte in the file") in err when it cannot be opened or read (a directory),
 * is larger than TC_TEXT_FILE_MAX, holds a NUL byte, or memory runs out. */
char *tc_read_text(const char *path, size_t *len, char *err, size_t errlen);

#endif
