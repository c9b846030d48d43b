/* The model's one public element, model_dot: which path computes it.
 *
 * The arithmetic is written once, in model_reference.c (decode, products,
 * steps, alignment, accumulator, output). The other paths are faster forms
 * of it, each for the settings and inputs it handles, each checked equal
 * to the reference by tests/test_model_reference.c:
 *   model_wide.c    operands over 31 bits (f64): every element
 *   model_int64.c   the tensor-core settings on finite inputs (its step on
 *                   AVX-512 in model_avx512.c); declines the rest (BAIL)
 *   model_int128.c  everything else, handing the reference the elements
 *                   whose sums do not fit in 128 bits.
 * Files call down this list and never back: model_dot.c -> fast paths ->
 * model_decode.c -> model_reference.c -> model_fmt.c. */
#include <stdlib.h>

#include "oracle/model_kernel.h"

/* Every path but the int64 kernel (model_mma calls it for the elements the
 * kernel declines). */
uint64_t model_dot_generic(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    if (m->wide)
        return model_dot_wide(m, k, a, b, c);
    if (model_force_slow)
        return model_reference_dot(m, k, a, b, c);
    return model_dot_int128(m, k, a, b, c);
}

int model_kernel_dot(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c, uint64_t *out)
{
    if (!m->fast || k > 256)
        return -1;
    mdec da[256], db[256], tmp[256];
    int idx[256];
    model_decode_operand(m, 0, (size_t)k, 1, a, da);
    model_decode_operand(m, 1, (size_t)k, 1, b, db);
    if (model_step_order(&m->p, k, idx)) {
        model_order_decoded(idx, k, da, tmp);
        model_order_decoded(idx, k, db, tmp);
    }
    return model_kernel(m, k, da, db, c, out);
}

uint64_t model_dot(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    uint64_t d;
    if (!model_force_slow && model_kernel_dot(m, k, a, b, c, &d) == 0)
        return d;
    return model_dot_generic(m, k, a, b, c);
}


uint64_t model_dot_params(const model_params *p, oracle_formats f, int k,
                          const uint64_t *a, const uint64_t *b, uint64_t c)
{
    char err[160];
    model *m = model_new(p, f, err, sizeof err);
    if (!m)
        abort();   /* a caller bug: model_params_check first */
    uint64_t d = model_dot(m, k, a, b, c);
    model_free(m);
    return d;
}

