/* The wide path (operands over 31 significant bits: f64) written once for
 * the CPU and the GPU, as model_core.h is for the int128 path:
 * model_element_wide is the whole of model_dot_wide (oracle/model_wide.c)
 * and the whole work of one thread of the GPU's wide kernel
 * (probes/cuda/model_gpu.cu).
 *
 * Each step sums its products (106-bit significands) and the accumulator
 * exactly, in int128 where the terms span at most 126 bits, else on 64-bit
 * limbs (oracle/model_limbs.h) sized from the span, and rounds the sum
 * once (mfmt_round, from its top 126 bits and a sticky bit). Integer
 * operations only, no allocation, no library call (the wide kernel's SASS
 * is checked: tools/model-gpu-sass.sh). Not a public header. */
#ifndef TC_MODEL_WIDE_CORE_H
#define TC_MODEL_WIDE_CORE_H

#include "oracle/model_internal.h"

/* The most limbs one step takes: 4352 bits. f64 products lie in
 * [2^-2148, 2^2048), 4196 bits, and 2^31 terms add 32 bits of carries and
 * a sign. Formats of wider range (a custom bias) may need more: such a
 * step is left to the reference (model_element_wide's -1). */
#define MODEL_WIDE_LIMBS 68

/* A term of a wide step: (-1)^sign * mag * 2^lsb when finite. */
typedef struct {
    u128 mag;
    int32_t lsb;
    uint8_t cls, sign;
} mwterm;

/* An element's operands where they lie: a[q * sa], b[q * sb], position i
 * of the step order at q = order[i] (NULL: the identity). */
typedef struct {
    const uint64_t *a, *b;
    size_t sa, sb;
    const int *order;
} mwops;

/* Operand w (0: A, 1: B) as tc_decode reads its format (the wide path
 * converts nothing): the container less the bits below the format (a TF32
 * beside an f64), DAZ under ftz_a/ftz_b. */
static inline TC_HD mval mwide_operand(const model *m, int w, uint64_t bits)
{
    int shift = w ? m->fb.shift : m->fa.shift;
    return model_input_value(m, w, bits & ~((UINT64_C(1) << shift) - 1));
}

static inline TC_HD mwterm mwterm_of(mval v)
{
    mwterm t;
    t.cls = v.cls;
    t.sign = v.sign;
    t.mag = v.cls == MV_FINITE ? v.sig : 0;
    t.lsb = v.lsb;
    return t;
}

/* x * y exactly; NaN for a NaN or Inf * 0. */
static inline TC_HD mwterm mwide_product(mval x, mval y)
{
    mwterm t;
    t.sign = x.sign ^ y.sign;
    t.mag = 0;
    t.lsb = 0;
    if (x.cls == MV_NAN || y.cls == MV_NAN)
        t.cls = MV_NAN;
    else if (x.cls == MV_INF || y.cls == MV_INF)
        t.cls = (x.cls == MV_ZERO || y.cls == MV_ZERO) ? MV_NAN : MV_INF;
    else if (x.cls == MV_ZERO || y.cls == MV_ZERO)
        t.cls = MV_ZERO;
    else {
        t.cls = MV_FINITE;
        t.mag = (u128)x.sig * y.sig;
        t.lsb = x.lsb + y.lsb;
    }
    return t;
}

/* Term i of a step: the product at step position s + i for i < n, then
 * the extra terms x[i - n] (the accumulator, C). */
static inline TC_HD mwterm mwide_term(const model *m, const mwops *op, int s, int n, const mwterm *x, int i)
{
    if (i >= n)
        return x[i - n];
    size_t q = (size_t)(op->order ? op->order[s + i] : s + i);
    return mwide_product(mwide_operand(m, 0, op->a[q * op->sa]), mwide_operand(m, 1, op->b[q * op->sb]));
}

/* The exact sum of the step's finite terms on nl limbs, bit 0 at 2^lo:
 * its sign in *sign, its top 126 bits (the rest a sticky bit) at
 * 2^(lo + *sh); 0 for an exact zero. Kept out of its caller: the limb
 * array stays out of the common (int128) case's registers. */
static TC_HD_NOINLINE TC_HD u128 mwide_limb_sum(const model *m, const mwops *op, int s, int n, const mwterm *x,
                                                int nx, int lo, int nl, int *sign, int *sh, bool *sticky)
{
    uint64_t w[MODEL_WIDE_LIMBS];
    mlimb_clear(w, nl);
    for (int i = 0; i < n + nx; i++) {
        mwterm t = mwide_term(m, op, s, n, x, i);
        if (t.cls == MV_FINITE)
            mlimb_add(w, nl, t.mag, t.lsb - lo, t.sign);
    }
    *sign = mlimb_negative(w, nl);
    if (*sign)
        mlimb_negate(w, nl);
    *sh = 0;
    *sticky = false;
    if (mlimb_bitlen(w, nl) == 0)
        return 0;
    return mlimb_top(w, nl, 126, sh, sticky);
}

/* One step: the n products at step positions s.. and the terms x[0..nx),
 * summed exactly (IEEE 754's specials and zero signs: a NaN, Inf - Inf or
 * Inf * 0 is NaN; zeros alone keep a common sign; a cancelled sum is +0,
 * -0 under RD), rounded once into f. 0 with *out; -1 when the terms span
 * more than MODEL_WIDE_LIMBS. */
static inline TC_HD int mwide_step(const model *m, const mwops *op, int s, int n, const mwterm *x, int nx,
                                   const mfmt *f, tc_round mode, bool ftz, tc_overflow ovf, mval *out)
{
    bool nan = false, pinf = false, ninf = false, pzero = false, nzero = false;
    int lo = INT_MAX, hi = INT_MIN, nt = 0;
    for (int i = 0; i < n + nx; i++) {
        mwterm t = mwide_term(m, op, s, n, x, i);
        if (t.cls == MV_FINITE) {
            lo = t.lsb < lo ? t.lsb : lo;
            int top = t.lsb + bitlen128(t.mag);
            hi = top > hi ? top : hi;
            nt++;
        } else if (t.cls == MV_NAN) {
            nan = true;
        } else if (t.cls == MV_INF) {
            pinf |= !t.sign;
            ninf |= t.sign != 0;
        } else {
            pzero |= !t.sign;
            nzero |= t.sign != 0;
        }
    }
    mval v = {0};
    if (nan || (pinf && ninf)) {
        v.cls = MV_NAN;
        *out = v;
        return 0;
    }
    if (pinf || ninf) {
        *out = mfmt_inf(f, ninf, ovf);
        return 0;
    }
    if (nt == 0) {
        v.cls = MV_ZERO;
        v.sign = (uint8_t)(nzero && (!pzero || mode == TC_RD));
        *out = v;
        return 0;
    }
    int width = hi - lo + bitlen64((uint64_t)nt) + 1;   /* the sum and its sign */
    int sign, sh = 0;
    bool sticky = false;
    u128 mag;
    if (width <= 126) {
        i128 S = 0;
        for (int i = 0; i < n + nx; i++) {
            mwterm t = mwide_term(m, op, s, n, x, i);
            if (t.cls != MV_FINITE)
                continue;
            i128 y = (i128)(t.mag << (t.lsb - lo));
            S += t.sign ? -y : y;
        }
        sign = S < 0;
        mag = sign ? (u128)(-S) : (u128)S;
    } else {
        int nl = (width + 63) / 64;
        if (nl > MODEL_WIDE_LIMBS)
            return -1;
        mag = mwide_limb_sum(m, op, s, n, x, nx, lo, nl, &sign, &sh, &sticky);
    }
    if (mag == 0) {
        v.cls = MV_ZERO;
        v.sign = (uint8_t)(mode == TC_RD);
        *out = v;
        return 0;
    }
    *out = mfmt_round(f, sign, mag, lo + sh, sticky, mode, ftz, ovf);
    return 0;
}

/* The quiet form of NaN bits x of f (IEEE: the top fraction bit set). */
static inline TC_HD uint64_t mwide_quiet(const mfmt *f, uint64_t x)
{
    return x | (UINT64_C(1) << (f->mbits - 1 + f->shift));
}

/* nan_prop's order of looking at a step's operands for a NaN to pass on:
 * three 2-bit codes, the first in the lowest bits (1: A, 2: B, 3: the
 * accumulator). */
static inline TC_HD unsigned mwide_nan_order(model_nan_prop p)
{
    switch (p) {
    case MODEL_NAN_ACC_A_B: return 3 | 1 << 2 | 2 << 4;
    case MODEL_NAN_ACC_B_A: return 3 | 2 << 2 | 1 << 4;
    case MODEL_NAN_A_B_ACC: return 1 | 2 << 2 | 3 << 4;
    case MODEL_NAN_B_A_ACC: return 2 | 1 << 2 | 3 << 4;
    case MODEL_NAN_A_ACC_B: return 1 | 3 << 2 | 2 << 4;
    case MODEL_NAN_B_ACC_A: return 2 | 3 << 2 | 1 << 4;
    default: return 0;
    }
}

/* The NaN of the step at positions s..s+n that propagates under nan_prop,
 * or false if none: its quieted bits in *out (the formats hold its
 * payload: model_wide_payloads_ok). acc_bits: the accumulator's NaN. */
static inline TC_HD bool mwide_step_nan(const model *m, const mwops *op, int s, int n, bool acc_nan,
                                        uint64_t acc_bits, uint64_t *out)
{
    unsigned ord = mwide_nan_order(m->p.nan_prop);
    for (int i = 0; i < n; i++) {
        size_t q = (size_t)(op->order ? op->order[s + i] : s + i);
        for (int r = 0; r < 3; r++) {
            unsigned who = (ord >> (2 * r)) & 3;
            if (who == 3) {
                if (i == 0 && acc_nan) {
                    *out = acc_bits;
                    return true;
                }
                continue;
            }
            int w = who == 2;
            uint64_t x = w ? op->b[q * op->sb] : op->a[q * op->sa];
            if (mwide_operand(m, w, x).cls == MV_NAN) {
                *out = mwide_quiet(w ? &m->src_b : &m->src_a, x);
                return true;
            }
        }
    }
    if (acc_nan) {   /* a step without products */
        *out = acc_bits;
        return true;
    }
    return false;
}

/* One output element of a wide model (m->wide): the operands a[q * sa],
 * b[q * sb] for q < k taken in step order (order[i], model_step_order;
 * NULL: the identity). Each step's exact sum of products and accumulator
 * is rounded once into the accumulator (acc_fmt, acc_round, ftz_acc; an
 * exact accumulator: the output's format and rounding over all of K); C
 * joins the first step as given (C_FIRST, or an exact accumulator) or is
 * added last (c_round); NaN payloads propagate in nan_prop's order. 0 with
 * *d; -1 when a step's terms span more than MODEL_WIDE_LIMBS (no f64
 * step does; the caller then takes the reference). */
static inline TC_HD int model_element_wide(const model *m, int k, const uint64_t *a, size_t sa, const uint64_t *b,
                                           size_t sb, uint64_t c, const int *order, uint64_t *d)
{
    const model_params *p = &m->p;
    mwops op;
    op.a = a;
    op.b = b;
    op.sa = sa;
    op.sb = sb;
    op.order = order;
    const bool prop = p->nan_prop != MODEL_NAN_CANONICAL;
    const mfmt *fa = p->acc_exact ? &m->out : &m->acc;
    tc_round rnd = p->acc_exact ? p->out_round : p->acc_round;
    bool ftz = p->acc_exact ? p->ftz_out : p->ftz_acc;
    tc_overflow ovf = p->acc_exact ? p->out_ovf : TC_OVF_INF;
    mval vc = mfmt_decode_inline(&m->cfmt, c, p->ftz_c);
    bool c_nan = vc.cls == MV_NAN;
    /* The running accumulator, and when it is a NaN the bits it carries (a
     * propagated payload, or nan_bits from an invalid operation). */
    mval acc = vc;
    bool present = p->c_mode == MODEL_C_FIRST || p->acc_exact, acc_nan = present && c_nan;
    uint64_t nan = acc_nan ? mwide_quiet(&m->cfmt, c) : p->nan_bits;
    int block = p->acc_exact ? (k > 0 ? k : 1) : p->block;
    for (int s = 0; s < k; s += block) {
        int n = k - s < block ? k - s : block;
        uint64_t x;
        if (prop && mwide_step_nan(m, &op, s, n, acc_nan, nan, &x)) {
            acc_nan = true;
            nan = x;
        } else if (!acc_nan) {
            mwterm t = mwterm_of(acc);
            if (mwide_step(m, &op, s, n, &t, present ? 1 : 0, fa, rnd, ftz, ovf, &acc))
                return -1;
            acc_nan = acc.cls == MV_NAN;
            nan = p->nan_bits;
        }
        present = true;
    }
    if (p->c_mode == MODEL_C_LAST && !p->acc_exact && !acc_nan) {
        if (prop && c_nan) {
            acc_nan = true;
            nan = mwide_quiet(&m->cfmt, c);
        } else if (present) {
            mwterm t[2] = {mwterm_of(acc), mwterm_of(vc)};
            if (mwide_step(m, &op, 0, 0, t, 2, fa, p->c_round, p->ftz_acc, TC_OVF_INF, &acc))
                return -1;
            acc_nan = acc.cls == MV_NAN;
            nan = p->nan_bits;
        } else {
            acc = vc;
            acc_nan = c_nan;
            nan = p->nan_bits;
        }
    }
    if (acc_nan)
        *d = prop ? nan : p->nan_bits;
    else
        *d = model_output(m, acc.cls, acc.sign, acc.sig, acc.lsb, false);
    return 0;
}

#endif
