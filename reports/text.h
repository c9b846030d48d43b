/* text: strings that come from files or the command line are untrusted.
 * A record's keys, a profile's bytes, an option's value may hold control
 * characters or bytes that are not UTF-8; a message that echoes them must
 * neither drive the terminal nor become invalid JSON when cut short. */
#ifndef TC_TEXT_H
#define TC_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* tc_utf8_char_len: oracle/textfile.h (text files are checked when read). */
#include "oracle/textfile.h"

/* Replaces every byte that is not part of a well-formed UTF-8 character
 * with '?', in place: after a snprintf that cut a character in two, the
 * text is valid UTF-8 again (json_string refuses anything else). */
void tc_utf8_repair(char *s);

/* Copies in to out (NUL-terminated, cut at a character boundary), with
 * control characters, DEL and bytes outside UTF-8 written as \xHH: what
 * a terminal may safely print. A tab stays a tab; a newline stays too
 * only when keep_newlines. */
void tc_text_escape(const char *in, char *out, size_t len, bool keep_newlines);

/* A value quoted in a message as LIMITS.md says: escaped as above, and
 * when longer than 64 bytes its first 56 (whole characters) and
 * "...(long)". */
#define TC_TEXT_CUT_MAX 80
void tc_text_cut(const char *in, char out[TC_TEXT_CUT_MAX]);

#endif
