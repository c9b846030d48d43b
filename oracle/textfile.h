/* textfile: reading a whole text file a person wrote (a profile, a case
 * file) before parsing it. Bounded, and a NUL byte is an error: a parser
 * working on C strings would stop there and silently drop the rest. */
#ifndef TC_TEXTFILE_H
#define TC_TEXTFILE_H

#include <stddef.h>

/* Bytes of the well-formed UTF-8 character at s (1..4; 1 for ASCII, NUL
 * included), or 0 when s does not start one (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF). */
size_t tc_utf8_char_len(const char *s);

/* The largest text file read (the case library is about 1.3 MB). */
#define TC_TEXT_FILE_MAX ((size_t)64 << 20)

/* The file ("-": standard input) as a new NUL-terminated buffer of *len
 * bytes (len may be NULL). NULL with "PATH: reason" (or "PATH:LINE: NUL
 * byte in the file") in err when it cannot be opened or read (a directory),
 * is larger than TC_TEXT_FILE_MAX, holds a NUL byte or a byte outside
 * UTF-8 ("PATH:LINE: byte \xHH is not UTF-8"), or memory runs out. */
char *tc_read_text(const char *path, size_t *len, char *err, size_t errlen);
/* The same with another bound than TC_TEXT_FILE_MAX: a file a run wrote
 * (a worker's outputs), whose size follows from what was asked. */
char *tc_read_text_max(const char *path, size_t max, size_t *len, char *err, size_t errlen);

#endif
