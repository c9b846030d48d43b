/* model_equiv: a proof, from the model's definition, that two fingerprints
 * differing in one field give the same bits on every input of an
 * instruction's formats. decide (cases/decide.h) counts a pair no input
 * separates as decided only when this proves it; a pair the search merely
 * failed to separate within its budget stays open.
 *
 * The rules, each a part of the model that no input reaches:
 *   align_floor          a floor at or below the finest bit of every term
 *                        of the fused sum (the products, C, the
 *                        accumulator) never coarsens the grid: it is none;
 *   product_flush_below  a threshold at or below the smallest product's
 *                        exponent flushes nothing: it is none;
 *   c_round              read only when C is added last (c_mode last):
 *                        with C first every direction is the same;
 *   out_round            the accumulator rounded into its own format, that
 *                        format D's: D is exact in every direction (with
 *                        the sum carried exact out_round rounds the steps,
 *                        and no rule applies).
 * The finest bit of an operand is its format's smallest subnormal's (its
 * container's for TF32), or its widening's where that is coarser; of a
 * product the two operands' summed; of C and the accumulator their
 * formats'. (oracle/model_reference.c: the grid G is the finest term's lsb
 * raised to 2^align_floor; a product is flushed when its top bit lies
 * below 2^prod_flush_exp; rounding only raises an lsb.)
 */
#ifndef TC_MODEL_EQUIV_H
#define TC_MODEL_EQUIV_H

#include <stdbool.h>

#include "oracle/model_fields.h"

/* True when v and w, equal but for field i (a model_fields row), are proven
 * to give the same bits on every input of scope s's formats. False says
 * nothing (no rule applies). */
bool model_field_equivalent(int i, const model_params *v, const model_params *w, const model_field_scope *s);

#endif
