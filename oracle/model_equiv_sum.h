/* The rules of oracle/model_equiv_sum.c (model_equiv.h lists them all):
 * the magnitudes no sum of an instruction's formats reaches. Not a public
 * header. */
#ifndef TC_MODEL_EQUIV_SUM_H
#define TC_MODEL_EQUIV_SUM_H

#include <stdbool.h>

#include "oracle/model_fields.h"
#include "oracle/model_internal.h"

bool meq_carry_idle(const model_params *p, const model_field_scope *s);
bool meq_acc_overflow_idle(const model_params *p, const model_field_scope *s);
bool meq_out_overflow_idle(const model_params *p, const model_field_scope *s);
bool meq_out_exact(const model_params *p, const model_field_scope *s);
bool meq_acc_single_rounding(const model_params *v, const model_params *w, const model_field_scope *s);

#endif
