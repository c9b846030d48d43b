/* What the int64 kernel (model_int64.c), its AVX-512 forms (model_avx512.c)
 * and the operand decoder (model_decode.c) share: when the kernel applies,
 * how an operand is decoded with bit operations, and the AVX-512 step.
 * Not a public header. */
#ifndef TC_MODEL_KERNEL_H
#define TC_MODEL_KERNEL_H

#include "oracle/model_internal.h"

/* A kernel's answer when the element needs the general path. */
#define BAIL (-1)

#if defined(__x86_64__) && defined(__GNUC__)
#define KERNEL_AVX512 1
#define TARGET_AVX512 __attribute__((target("avx512f,avx512cd,avx512vl,avx512dq,avx512bw")))
/* Whether the CPU runs the AVX-512 forms (TC_MODEL_SCALAR=1 in the
 * environment keeps the scalar loops, to test them on such a CPU). */
bool model_avx512(void);
/* Test hook: turns the AVX-512 forms on (where the CPU has them) or off;
 * returns whether they are on. */
bool model_avx512_set(bool on);
/* One step's products of kernel_shifted on 8 lanes at a time (n <= 64):
 * E and S as step_scalar in model_int64.c gives them. */
TARGET_AVX512 int model_step_avx512(int n, const mdec *x, const mdec *y, int F, int CS, int acc_t,
                                    int *Eo, int64_t *So, int AR, bool NORM);
#else
#define KERNEL_AVX512 0
static inline bool model_avx512_set(bool on)
{
    return false;
}
#endif

/* Widest significand (bits) the kernel sees for operand w: the used
 * format's, or for a direct decode the container's less the low bits the
 * keep mask clears (model_decode_operand strips them). */
static inline int operand_width(const model *m, int w)
{
    if (m->direct[w])
        return (w ? m->src_b.mbits : m->src_a.mbits) - __builtin_ctzll(m->keep[w]) + 1;
    return (w ? m->used_b.mbits : m->used_a.mbits) + 1;
}

/* CS = 62 - Wa - Wb must leave every product's shift >= 1 (CS >= F + 2). */
static inline bool shifted_ok(const model *m)
{
    const model_params *p = &m->p;
    return p->prod_flush_exp == MODEL_NO_FLUSH &&
           operand_width(m, 0) + operand_width(m, 1) <= 60 - p->align_bits;
}

/* ---- decoding operands with bit operations ---- */

/* model_direct_decode's constants for one operand. */
typedef struct {
    int mb, eb, drop, bias, emin;
    uint64_t fmask, keep, premask;
    unsigned top;
    bool ieee, ftz;
} kdirect;

static inline kdirect kdirect_make(const model *m, int w)
{
    const mfmt *f = w ? &m->src_b : &m->src_a;
    kdirect d;
    d.mb = f->mbits;
    d.eb = f->ebits;
    d.bias = f->bias;
    d.emin = f->emin;
    d.fmask = (UINT64_C(1) << f->mbits) - 1;
    d.keep = m->keep[w];   /* nonzero: it keeps the sign and exponent bits */
    d.premask = m->premask[w];
    d.drop = __builtin_ctzll(d.keep);
    d.top = (1u << f->ebits) - 1;
    d.ieee = f->specials == TC_SPECIALS_IEEE;
    d.ftz = w ? m->p.ftz_b : m->p.ftz_a;
    return d;
}

/* model_direct_decode, with the `drop` low bits the keep mask clears
 * shifted out of sig (the same value: lsb moves up by drop). */
static inline mdec kdirect_decode(const kdirect *k, uint64_t bits)
{
    mdec d;
    bits &= k->premask;
    uint64_t frac = bits & k->fmask;
    unsigned ef = (unsigned)(bits >> k->mb) & k->top;
    d.sign = (uint8_t)((bits >> (k->mb + k->eb)) & 1);
    d.sig = 0;
    d.lsb = 0;
    d.e = 0;
    if (ef == k->top && (k->ieee || frac == k->fmask)) {
        d.cls = (!k->ieee || frac) ? MV_NAN : MV_INF;
        return d;
    }
    return mdec_finite(d, ef, (frac & k->keep) >> k->drop, k->mb - k->drop, k->emin, k->bias, k->ftz);
}

#endif
