/* model_equiv: a proof, from the model's definition, that two fingerprints
 * differing in one field give the same bits on every input of an
 * instruction's formats. decide (cases/decide.h) counts a pair no input
 * separates as decided only when this proves it; a pair the search merely
 * failed to separate within its budget stays open.
 *
 * The rules, each a part of the model that no input reaches (the bounds
 * they rest on: oracle/model_equiv_bounds.h; the magnitudes':
 * model_equiv_sum.c):
 *   align_floor          a floor at or below the grain of the K steps (every
 *                        product, C where it enters a K step, the
 *                        accumulator: a multiple of 2^grain) changes no value:
 *                        it is none;
 *   product_flush_below  a threshold at or below the smallest product's
 *                        exponent flushes nothing, or far enough below a
 *                        truncating floor that what it flushes truncates to
 *                        0 anyway (zero_sign positive): it is none;
 *   align_ref, align_exp, align_round  read only through E and the grid
 *                        E - align_bits: never with every bit kept and an
 *                        idle floor and no register width;
 *   a_ftz, b_ftz         a widening that makes every operand value normal
 *                        leaves nothing to flush;
 *   c_round              read only when C is added last (c_mode last):
 *                        with C first every direction is the same;
 *   out_round            an accumulator whose every value D holds exactly
 *                        (its own format, e8m13 into f32) is written exact in
 *                        every direction (with the sum carried exact
 *                        out_round rounds the steps, and no rule applies);
 *   carry_bits           a register no K step's sum fills (at most the
 *                        step's products at their largest significands and
 *                        the accumulator, below 2^(E+1+carry_bits)) never
 *                        wraps: it is unlimited;
 *   acc_overflow         an accumulator that never overflows under a rule
 *                        that differs (carried exact; rounded to nearest into
 *                        an IEEE format: Inf under both; RZ with every sum
 *                        below 2^(emax+1));
 *   out_overflow         inf and nan alike where D's range holds every
 *                        accumulator value;
 *   acc                  one K step with C first: D's rounding of the
 *                        accumulator in D's format equals the exact sum, or
 *                        a format holding every sum and C exactly, rounded
 *                        once into D (C's exponent read alike, or only where
 *                        the grid cuts no term);
 *   dropped_nan          read only where an operand is cut (an RZ conversion
 *                        to fewer fraction bits than its container's);
 *   a_convert, b_convert readings (as given, or widened) that give every
 *                        encoding the same value and exponent.
 * The finest bit of an operand is its format's smallest subnormal's (its
 * container's for TF32), or its widening's where that is coarser; of a
 * product the two operands' summed; of C and the accumulator their
 * formats'. (oracle/model_reference.c: the grid G is the finest term's lsb
 * raised to 2^align_floor; a product is flushed when its top bit lies
 * below 2^prod_flush_exp; rounding only raises an lsb.)
 * tests/test_model_equiv.c asks every pair a rule proves, over
 * instructions that exercise every rule, the decide ladder, sums of
 * extreme operands and random ones.
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
