/* Operands decoded for the fast paths: the reference's decode
 * (model_input_value) in the compact form the kernels and decode tables
 * hold, and whole operand arrays decoded the fastest way the model allows
 * (bit operations, a table, or the reference's decode). */
#include "oracle/model_kernel.h"

mdec model_input_decode(const model *m, int which, uint64_t bits)
{
    return mdec_of(model_input_value(m, which, bits));
}

void model_decode_operand(const model *m, int w, size_t n, size_t stride, const uint64_t *bits,
                          mdec *out)
{
    if (m->direct[w]) {
        kdirect d = kdirect_make(m, w);
        for (size_t i = 0; i < n; i++)
            out[i] = kdirect_decode(&d, bits[i * stride]);
    } else if (m->tab[w]) {
        const mdec *tab = m->tab[w];
        uint64_t mask = m->mask_ab[w];
        for (size_t i = 0; i < n; i++)
            out[i] = tab[bits[i * stride] & mask];
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = model_input_decode(m, w, bits[i * stride]);
    }
}

