/* The model for operands wider than 31 significant bits (f64): products
 * do not fit the 64-bit terms of model_int128.c, so each step is summed
 * exactly (int128, or 64-bit limbs where the terms span more) and rounded
 * once into the accumulator: model_element_wide (oracle/model_wide_core.h),
 * the same source the GPU's wide kernel runs (probes/cuda/model_gpu.cu).
 * That covers the settings a wide unit can have without a finite alignment
 * window: exact products, unlimited alignment, any block and step order, C
 * first or last, the accumulator format and its rounding, flushing, NaN
 * payload propagation, and the output rounding. A block of 1 is a chain of
 * fused multiply-adds.
 * One difference from the reference (model_reference.c): with C_FIRST, C
 * joins the first step as given, where the reference first rounds it into
 * the accumulator (acc_fmt, ftz_acc); the two agree where C is already an
 * accumulator value (acc_fmt C's format, no flush of a subnormal C), as in
 * the shipped profiles. tests/test_model_reference.c checks the rest. */
#include <stdlib.h>

#include "oracle/exact_acc.h"   /* exact_xmalloc */
#include "oracle/model_wide_core.h"

const char *model_wide_unsupported(const model_params *p)
{
    if (p->cvt_a.convert || p->cvt_b.convert)
        return "wide operands (over 31 significant bits) are used as given, not converted";
    if (p->prod_bits != MODEL_EXACT || p->prod_flush_exp != MODEL_NO_FLUSH)
        return "wide operands (over 31 significant bits) have exact, unflushed products only";
    if (p->align_bits != MODEL_EXACT || p->carry_bits != MODEL_UNLIMITED)
        return "wide operands (over 31 significant bits) are summed without an alignment window";
    if (p->acc_ovf_inf)
        return "wide operands (over 31 significant bits) keep IEEE accumulator overflow";
    if (p->zero_positive || p->floored)
        return "wide operands (over 31 significant bits) keep IEEE zero signs and an unfloored sum";
    return NULL;
}

bool model_wide_payloads_ok(const model_params *p, oracle_formats f)
{
    return p->nan_prop == MODEL_NAN_CANONICAL ||
           (model_same_format(f.a, f.d) && model_same_format(f.b, f.d) && model_same_format(f.c, f.d) &&
            (p->acc_exact || model_same_format(&p->acc_fmt, f.d)));
}

uint64_t model_dot_wide(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    int idx[256], *ord = k > 256 ? exact_xmalloc((size_t)k * sizeof *ord) : idx;
    bool ordered = model_step_order(&m->p, k, ord);
    uint64_t d;
    if (model_element_wide(m, k, a, 1, b, 1, c, ordered ? ord : NULL, &d) != 0)
        d = model_reference_dot(m, k, a, b, c);   /* a format of wider range than f64's */
    if (ord != idx)
        free(ord);
    return d;
}
