/* The model's general fast path: the reference's steps (model_reference.c)
 * in int128 fixed point, for every setting and every input the int64
 * kernel declines (specials, exact or wrapping sums, rounded products, an
 * accumulator far from the reference). When the terms of a step span more
 * bits than int128 holds (unlimited alignment on far-apart exponents) the
 * element goes to the reference, which has no width limit. The arithmetic
 * is in model_core.h, which the GPU's model (probes/cuda/model_gpu.cu)
 * compiles too; this file feeds it from the CPU's decode tables. */
#include <stdlib.h>

#include "oracle/model_internal.h"

/* The CPU's decode tables where the model has them (8- and 16-bit
 * containers it does not decode by bit operations), else model_operand. */
static inline mdec input_get(const model *m, int which, uint64_t bits)
{
    const mdec *tab = m->tab[which];
    if (tab)
        return tab[bits & m->mask_ab[which]];
    return model_operand(m, which, bits);
}

uint64_t model_dot_int128(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    mterm buf[256];
    int obuf[256];
    mterm *pr = k <= 256 ? buf : malloc((size_t)k * sizeof *pr);
    int *idx = k <= 256 ? obuf : malloc((size_t)k * sizeof *idx);
    if (!pr || !idx)
        abort();
    bool ordered = model_step_order(&m->p, k, idx);
    for (int i = 0; i < k; i++) {
        int q = ordered ? idx[i] : i;
        pr[i] = model_product(m, input_get(m, 0, a[q]), input_get(m, 1, b[q]));
    }
    if (idx != obuf)
        free(idx);
    uint64_t d;
    if (model_int128_steps(m, k, pr, c, &d) != 0)
        d = model_reference_dot(m, k, a, b, c);
    if (pr != buf)
        free(pr);
    return d;
}
