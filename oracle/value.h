/* value: the CLI value notation, parsed exactly.
 *
 *   decimal      1.5, -2e-3, 65504.25   (exact: read by MPFR at 64 bits toward
 *                                        zero, the rest kept as a sticky bit,
 *                                        so the later tc_encode rounds once)
 *   hex float    0x1.8p-9, -0X.Fp3       (C99; exact to 60 significant bits,
 *                                        further digits kept as sticky)
 *   specials     inf, +inf, -inf, infinity, nan, -nan
 *   raw bits     bits:0x38               (the target format's container bits;
 *                                        too wide for the format is an error)
 *
 * Used by `tcscope convert`, `tcscope run` and the case files.
 */
#ifndef TC_VALUE_H
#define TC_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"

typedef struct {
    bool is_bits;      /* the text was bits:0x..; `bits` holds it, `v` is its decode */
    uint64_t bits;
    tc_value v;        /* the value, or its truncation toward zero when sticky */
    bool sticky;       /* nonzero bits lie below v.sig (decimal input only) */
} tc_parsed_value;

/* Parses one value. `f` is the format raw bits belong to (bits: is refused
 * when f is NULL). On error returns false and writes a one-line message
 * naming the problem into err, e.g. "bad hex float '0x1p': missing exponent
 * digits". Leading/trailing blanks are an error too (callers trim). */
bool tc_value_parse(const char *text, const tc_format *f, tc_parsed_value *out,
                    char *err, size_t errlen);

/* Parses and rounds once into f: raw bits are returned as given, values go
 * through tc_encode(f, v, sticky, r). */
bool tc_value_parse_to_bits(const char *text, const tc_format *f, tc_rounding r,
                            uint64_t *bits, char *err, size_t errlen);

/* Parses a value f holds exactly (raw bits as given), NaN and Inf
 * included only where f has them: an operand rounded on the way in would
 * ask a different question than the one written. false with "'TEXT' is
 * not representable in F (nearest N)" otherwise. */
bool tc_value_parse_exact(const char *text, const tc_format *f, uint64_t *bits, char *err,
                          size_t errlen);

/* The exact decimal expansion of a value (every binary fraction has one),
 * in scientific notation when its exponent is outside [-6, 20]: "0.1015625",
 * "-1.40129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125e-45",
 * "inf", "nan". Returns false when buf is too small. */
bool tc_value_to_decimal(tc_value v, char *buf, size_t len);

#endif
