/* model_ranges: each fingerprint field's whole plausible range for one
 * instruction's formats and K, the values a deciding input must tell the
 * decided value from (cases/decide.h).
 *
 * The inference's candidates (model_fields.h) are what its descent can
 * afford to score; the range is those widened to the formats' limits, as
 * ISA facts in tables: an alignment floor at every exponent from the larger
 * of the output's and the accumulator's smallest normal exponent down past
 * the smaller of their smallest subnormals; every alignment width to 96;
 * every rounding direction IEEE and PTX name (rne, rna, rz, ru, rd, ro) for
 * C, the accumulator and the output; the accumulator held in the output's
 * format, f32, f16, bf16 or narrower f32s; every widening of an operand an
 * emulation could take (FP8 to f16, bf16 or f32; f16 to bf16 or f32; TF32
 * read as bf16); carry bits up to log2(K) + 3; every NaN pattern of the
 * output format (canonical, quiet, either sign); overflow to Inf, max or NaN.
 */
#ifndef TC_MODEL_RANGES_H
#define TC_MODEL_RANGES_H

#include "oracle/model_fields.h"

/* The most values one field's range holds (the size of model_field_range's out). */
#define MODEL_RANGE_MAX 320

/* Every value of field i's range for scope s, each as cur with field i
 * changed, into out[MODEL_RANGE_MAX], without repeats (compared with the
 * field's `same`); it holds every inference candidate, may hold cur's own
 * value, and may hold params model_new refuses (skip those). Returns how
 * many (0 when i is out of range). */
int model_field_range(int i, const model_params *cur, const model_field_scope *s, model_params *out);

#endif
