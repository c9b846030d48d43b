/* model_field_text: the value syntax shared by the rows of the field table
 * (oracle/model_fields.c): integers in a range, rounding names, formats
 * and FORMAT:ROUND pairs. Internal to oracle/. */
#ifndef TC_MODEL_FIELD_TEXT_H
#define TC_MODEL_FIELD_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "oracle/model.h"

/* yes/true/1 or no/false/0. */
bool mft_parse_bool(const char *v, bool *out);
/* One of two words: off (false) or on (true). */
bool mft_parse_word(const char *v, const char *off, const char *on, bool *out);
/* A decimal integer in lo..hi. */
bool mft_parse_int(const char *v, long lo, long hi, int *out);
/* rne, rna, rz, ru, rd or ro (rs is no rounding a field can hold). */
bool mft_parse_round(const char *v, tc_round *out);
/* "FMT:ROUND" with a float format whose written name reads back as itself. */
bool mft_parse_fmt_round(const char *v, tc_format *fmt, tc_round *r);
void mft_print_fmt_round(char *buf, size_t len, const tc_format *fmt, tc_round r);

#endif
