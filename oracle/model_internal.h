/* Internals of the model shared by oracle/model*.c: a format's constants,
 * exact values as sign * sig * 2^lsb, and one rounding routine used for
 * every rounding the model does (input conversion, products, accumulator,
 * output). Not a public header. */
#ifndef TC_MODEL_INTERNAL_H
#define TC_MODEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/formats.h"
#include "oracle/model.h"
#include "oracle/model_hd.h"

typedef unsigned __int128 u128;
typedef __int128 i128;

/* A format's constants, derived once. */
typedef struct {
    int ebits, mbits, bias, shift;
    int emin, emax;          /* exponents of the smallest normal and the largest finite */
    uint64_t maxsig;         /* significand (with leading bit) of the largest finite */
    tc_specials specials;
    uint64_t nan_bits;
} mfmt;

/* A value: class, sign, and for finite ones sig * 2^lsb with sig > 0 and
 * `e` the exponent field as an exponent (emin for subnormals). */
enum { MV_ZERO = 0, MV_FINITE = 1, MV_INF = 2, MV_NAN = 3 };
typedef struct {
    uint8_t cls;
    uint8_t sign;
    int32_t lsb;
    int32_t e;
    uint64_t sig;
} mval;

/* false if the model cannot use f (integer or unsigned formats). */
bool mfmt_init(mfmt *out, const tc_format *f);
/* f's container read whole: TF32 (shift 13) becomes e8m23 with shift 0. */
void mfmt_container(mfmt *out, const mfmt *f);

mval mfmt_decode(const mfmt *f, uint64_t bits, bool daz);

/* The same, inline for the kernels' hot loops. */
static inline TC_HD mval mfmt_decode_inline(const mfmt *f, uint64_t bits, bool daz)
{
    mval v = {0};
    bits >>= f->shift;
    int m = f->mbits;
    uint64_t frac = bits & ((UINT64_C(1) << m) - 1);
    int expf = (int)((bits >> m) & ((UINT64_C(1) << f->ebits) - 1));
    v.sign = (uint8_t)((bits >> (m + f->ebits)) & 1);
    int top = (1 << f->ebits) - 1;
    if (expf == top) {
        if (f->specials == TC_SPECIALS_IEEE) {
            v.cls = frac ? MV_NAN : MV_INF;
            return v;
        }
        if (f->specials == TC_SPECIALS_FN && frac == (UINT64_C(1) << m) - 1) {
            v.cls = MV_NAN;
            return v;
        }
    }
    if (expf == 0) {
        if (frac == 0 || daz) {
            v.cls = MV_ZERO;
            return v;
        }
        v.cls = MV_FINITE;
        v.sig = frac;
        v.e = f->emin;
        v.lsb = f->emin - m;
        return v;
    }
    v.cls = MV_FINITE;
    v.sig = frac | (UINT64_C(1) << m);
    v.e = expf - f->bias;
    v.lsb = v.e - m;
    return v;
}

/* mfmt_encode and mfmt_round, the model's one rounding: model_core.h. */

static inline TC_HD int bitlen64(uint64_t x)
{
    return x ? 64 - tc_clz64(x) : 0;
}

static inline TC_HD int bitlen128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 128 - tc_clz64(hi) : bitlen64((uint64_t)x);
}

/* The one rounding rule of the model: a magnitude cut to q (odd: q's last
 * bit), with `half` the first bit cut and `rest` whether any bit below it
 * was set, goes up by one when this says so. Every cut of bits uses it
 * (mfmt_round, products, the alignment onto the grid); RO (round to odd)
 * sets q's last bit when inexact, which is one up exactly when q is even. */
static inline TC_HD bool model_round_up(tc_round mode, int sign, bool odd, bool half, bool rest)
{
    switch (mode) {
    case TC_RNE: return half && (rest || odd);
    case TC_RNA: return half;
    case TC_RU: return (half || rest) && !sign;
    case TC_RD: return (half || rest) && sign;
    case TC_RO: return (half || rest) && !odd;
    default: return false;   /* RZ; stochastic rounding is refused by model_params_check */
    }
}

/* The alignment modes are roundings of a magnitude: toward zero, toward
 * -Inf (two's complement), to nearest even. */
static inline TC_HD tc_round model_align_mode(model_align_round r)
{
    return r == MODEL_ALIGN_FLOOR ? TC_RD : r == MODEL_ALIGN_RNE ? TC_RNE : TC_RZ;
}

/* The common case of mfmt_round: x != 0, no sticky, the result's exponent
 * strictly inside the normal range and no overflow. Returns false (nothing
 * written) for every other case, which mfmt_round's general path handles. */
static inline TC_HD bool mfmt_round_normal(const mfmt *f, int sign, uint64_t x, int lsb, tc_round mode,
                          uint64_t *qo, int *tlo)
{
    int m = f->mbits;
    int n = bitlen64(x);
    int e = lsb + n - 1;
    int sh = n - (m + 1);
    if (!(e > f->emin && e < f->emax))
        return false;
    uint64_t q;
    int tl = lsb + sh;
    if (sh <= 0) {
        q = x << -sh;
    } else {
        q = x >> sh;
        bool half = (x >> (sh - 1)) & 1, rest = (x & ((UINT64_C(1) << (sh - 1)) - 1)) != 0;
        q += model_round_up(mode, sign, q & 1, half, rest);
        if (q >> (m + 1)) {
            q >>= 1;
            tl++;
        }
    }
    int ve = tl + m;
    if (ve > f->emax || (ve == f->emax && q > f->maxsig))
        return false;
    *qo = q;
    *tlo = tl;
    return true;
}

/* ---- the compiled model ---- */

/* A decoded input, compact for the decode tables. */
typedef struct {
    uint32_t sig;
    int16_t lsb, e;
    uint8_t cls, sign;
} mdec;

/* What one kind of step does (the K steps, or the final C addition). */
typedef struct {
    int F;                         /* align bits or MODEL_EXACT */
    model_align_round align_round;
    int carry_bits;
    bool acc_in_ref;
    bool exact;                    /* result kept exact, else rounded into acc */
    tc_round rnd;
    bool floored;                  /* the grid never finer than 2^floor (align_floor) */
    int floor;
} mstep;

struct model {
    model_params p;
    tc_format fa, fb, fc, fd;      /* copies, so callers' formats may go */
    oracle_formats f;              /* points at the copies */
    mfmt src_a, src_b;             /* operand containers read whole */
    mfmt used_a, used_b;           /* the formats the operands are used in */
    mfmt cfmt, acc, out;
    uint64_t mask_ab[2];
    mdec *tab[2];                  /* decode tables for containers of <= 16 bits */
    bool fast;                     /* the int64 kernel (model_int64.c) applies */
    bool wide;                     /* operands over 31 bits: model_wide.c computes every element */
    bool direct[2];                /* kernel decodes src_a/src_b bits itself (no table) */
    uint64_t keep[2];              /* ... after clearing the bits an RZ conversion drops */
    uint64_t premask[2];           /* applied to operand bits before any decode (dropped_nan) */
    bool c_is_acc;                 /* C's format is the accumulator's: no conversion */
    bool acc_is_out;               /* the accumulator's format is the output's, no flush */
};

/* Overflow policy of accumulator roundings: IEEE (directed modes stop at the
 * largest finite), or Inf in every direction (acc_ovf_inf). The second is a
 * model-only policy, so it lives here rather than in formats/. */
#define MODEL_OVF_FORCE_INF ((tc_overflow)(TC_OVF_NAN + 1))
#define MODEL_ACC_OVF(p) ((p)->acc_ovf_inf ? MODEL_OVF_FORCE_INF : TC_OVF_INF)

/* The exponent a value offers as alignment reference (model_params.exp_ref):
 * its exponent field, or the exponent of its leading bit. */
static inline TC_HD int32_t model_ref_exp(const model *m, mval v)
{
    if (v.cls != MV_FINITE)
        return 0;
    return m->p.exp_ref == MODEL_EXP_NOMINAL ? v.e : v.lsb + bitlen64(v.sig) - 1;
}

/* ---- the reference (model_reference.c): the model's arithmetic, written once ---- */

/* One element, exact integers throughout: what every path must give. */
uint64_t model_reference_dot(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c);
/* Its stages the fast paths share (an operand decoded, what a step does,
 * the output rounding: model_input_value, model_steps_init, model_output)
 * are in model_core.h, for the CPU and the GPU. */
/* Test hook: 1 puts every element the wide path does not take on the reference. */
extern int model_force_slow;

/* ---- the fast paths (model_dot.c says which computes what) ---- */

/* model_input_value in the kernels' compact form (model_decode.c). */
mdec model_input_decode(const model *m, int which, uint64_t bits);
/* The rest of a bit decode once specials are ruled out: d has its sign,
 * ef is the exponent field, frac the fraction field as kept (mb bits; a
 * subnormal when ef is 0, flushed to zero under ftz). Shared by
 * model_direct_decode and the kernel's kdirect_decode (model_kernel.h). */
static inline TC_HD mdec mdec_finite(mdec d, unsigned ef, uint64_t frac, int mb, int emin, int bias, bool ftz)
{
    if (ef == 0) {
        if (frac == 0 || ftz) {
            d.cls = MV_ZERO;
            return d;
        }
        d.cls = MV_FINITE;
        d.sig = (uint32_t)frac;
        d.e = (int16_t)emin;
    } else {
        d.cls = MV_FINITE;
        d.sig = (uint32_t)(frac | (UINT64_C(1) << mb));
        d.e = (int16_t)((int)ef - bias);
    }
    d.lsb = (int16_t)(d.e - mb);
    return d;
}
/* An operand decoded with bit operations (see model_new: IEEE/FN container,
 * used as given or truncated to a format of the same exponent range). */
static inline TC_HD mdec model_direct_decode(const mfmt *f, uint64_t bits, uint64_t keep, bool ftz)
{
    mdec d;
    int mb = f->mbits, eb = f->ebits;
    uint64_t fmask = (UINT64_C(1) << mb) - 1;
    uint64_t frac = bits & fmask;
    int ef = (int)((bits >> mb) & ((1u << eb) - 1));
    d.sign = (uint8_t)((bits >> (mb + eb)) & 1);
    d.sig = 0;
    d.lsb = 0;
    d.e = 0;
    if (ef == (1 << eb) - 1 && (f->specials == TC_SPECIALS_IEEE || frac == fmask)) {
        d.cls = (f->specials == TC_SPECIALS_FN || frac) ? MV_NAN : MV_INF;
        return d;
    }
    return mdec_finite(d, (unsigned)ef, frac & keep, mb, f->emin, f->bias, ftz);
}

/* Every path but the int64 kernel (model_dot.c); model_dot tries the kernel
 * first when m->fast. */
uint64_t model_dot_generic(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c);
/* The int64 kernel on decoded operands: 0 with *out, or -1 when the element
 * needs the general path (specials, overflow, far-apart accumulator). */
int model_kernel(const model *m, int k, const mdec *a, const mdec *b, uint64_t c, uint64_t *out);
/* The int64 kernel on raw operands (model_dot.c): decoded, put in the model's
 * step order, then model_kernel; -1 also when m is not fast or k > 256.
 * model_dot's first try; tests call it to check the kernel alone. */
int model_kernel_dot(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c, uint64_t *out);
/* The int128 path (model_int128.c): any element of a model that is not wide. */
uint64_t model_dot_int128(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c);
/* n operand values bits[i*stride] of operand w (0: A, 1: B) decoded (model_decode.c). */
void model_decode_operand(const model *m, int w, size_t n, size_t stride, const uint64_t *bits,
                          mdec *out);
/* Decoded operands of one dot put in step order (idx from model_step_order:
 * the kernels take the steps as consecutive runs of `block`); tmp holds k. */
static inline void model_order_decoded(const int *idx, int k, mdec *v, mdec *tmp)
{
    for (int i = 0; i < k; i++)
        tmp[i] = v[idx[i]];
    for (int i = 0; i < k; i++)
        v[i] = tmp[i];
}

/* Whole tiles on the AVX-512 kernel, 8 output columns at a time
 * (model_avx512.c): model_tile_scratch is the bytes of scratch model_tile
 * needs, 0 where it does not apply (then model_mma goes element by element).
 * model_tile sets left[r*nc+c] (0 or 1) for the elements it leaves to model_dot. */
size_t model_tile_scratch(const model *m, int mr, int nc, int K);
void model_tile(const model *m, int mr, int nc, int K, const uint64_t *A, const uint64_t *B,
                const uint64_t *C, uint64_t *D, uint8_t *left, void *scratch);

/* Operands over 31 significant bits (model_wide.c): NULL if p is a setting
 * the wide path computes, else why not. */
const char *model_wide_unsupported(const model_params *p);
/* The same encoding (fields, bias, specials): values move between them as bits (model_fmt.c). */
bool model_same_format(const tc_format *x, const tc_format *y);
bool model_wide_payloads_ok(const model_params *p, oracle_formats f);
uint64_t model_dot_wide(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c);

/* The integer arithmetic the CPU and the GPU share (static inline). */
#include "oracle/model_core.h"

#endif
