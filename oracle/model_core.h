/* The model's integer arithmetic, written once for the CPU and the GPU:
 * static inline (TC_HD) functions that C compiles into oracle/model*.c and
 * nvcc into probes/cuda/model_gpu.cu, so the two compute with one source.
 *
 *   the format rounding   mfmt_round (the model's one rounding), mfmt_encode
 *   the reference's stages model_input_value (1. decode), model_steps_init
 *                         (3.-5. what a step does), model_output (6.)
 *   the int128 path       products, the fused sum of a step in int128 fixed
 *                         point, C, the output: model_int128_steps, which
 *                         model_dot_int128 (model_int128.c) and the GPU run
 *
 * Included by model_internal.h after the model's types; not a public header.
 * Nothing here allocates, calls a library or uses floating point (the GPU
 * kernel's SASS is checked for that: tools/model-gpu-sass.sh). */
#ifndef TC_MODEL_CORE_H
#define TC_MODEL_CORE_H

#include "oracle/model_internal.h"
#include "oracle/model_limbs.h"

/* ---- the format rounding (was model_fmt.c) ---- */

static inline TC_HD uint64_t mfmt_encode(const mfmt *f, mval v)
{
    int m = f->mbits;
    uint64_t sign = (uint64_t)v.sign << (m + f->ebits);
    uint64_t top = (UINT64_C(1) << f->ebits) - 1;
    uint64_t bits;
    switch (v.cls) {
    case MV_NAN:
        return f->nan_bits;
    case MV_INF:
        bits = sign | (top << m);
        break;
    case MV_ZERO:
        bits = sign;
        break;
    default: {
        uint64_t hidden = UINT64_C(1) << m;
        uint64_t biased = v.sig >= hidden ? (uint64_t)(v.e + f->bias) : 0;
        bits = sign | (biased << m) | (v.sig & (hidden - 1));
        break;
    }
    }
    return bits << f->shift;
}

/* The overflowed result, as tc_encode gives it: NaN under the NaN policy,
 * Inf where the format and the direction allow it (FN formats: NaN), else
 * the largest finite. */
static inline TC_HD mval mfmt_overflow(const mfmt *f, int sign, tc_round mode, tc_overflow ovf)
{
    mval v = {0};
    v.sign = (uint8_t)sign;
    bool away = mode == TC_RNE || mode == TC_RNA || (mode == TC_RU && !sign) ||
                (mode == TC_RD && sign);
    if (f->specials != TC_SPECIALS_NONE && ovf != TC_OVF_SAT) {
        if (ovf == TC_OVF_NAN || (away && f->specials == TC_SPECIALS_FN)) {
            v.cls = MV_NAN;
            return v;
        }
        if ((away || ovf == MODEL_OVF_FORCE_INF) && f->specials == TC_SPECIALS_IEEE) {
            v.cls = MV_INF;
            return v;
        }
    }
    v.cls = MV_FINITE;
    v.sig = f->maxsig;
    v.e = f->emax;
    v.lsb = f->emax - f->mbits;
    return v;
}

/* Rounds (-1)^sign * (mag + sticky*tiny) * 2^lsb into f: the one rounding
 * of the model. ftz flushes a result that is subnormal after rounding. */
static inline TC_HD mval mfmt_round(const mfmt *f, int sign, u128 mag, int lsb, bool sticky,
                                    tc_round mode, bool ftz, tc_overflow ovf)
{
    mval v = {0};
    v.sign = (uint8_t)sign;
    int m = f->mbits;
    /* The common case first: a 64-bit magnitude that lands in the normal
     * range (overflow and the rest take the general path below). */
    if (!sticky && (uint64_t)(mag >> 64) == 0 && (uint64_t)mag != 0) {
        uint64_t q;
        int tl;
        if (mfmt_round_normal(f, sign, (uint64_t)mag, lsb, mode, &q, &tl)) {
            v.cls = MV_FINITE;
            v.sig = q;
            v.lsb = tl;
            v.e = tl + m;
            return v;
        }
    }
    if (mag == 0) {
        if (!sticky) {
            v.cls = MV_ZERO;
            return v;
        }
        /* Only "something tiny" is known: any value far below half the
         * smallest subnormal rounds the same way. */
        mag = 1;
        lsb = f->emin - m - 4;
        sticky = false;
    }
    int n = bitlen128(mag);
    int e = lsb + n - 1;
    int tl = (e > f->emin ? e : f->emin) - m;   /* weight of the result's last bit */
    int sh = tl - lsb;
    uint64_t q;
    bool half = false, rest = sticky;
    if (sh <= 0) {
        q = (uint64_t)(mag << -sh);
    } else if (sh > 128) {
        q = 0;
        rest = true;
    } else {
        q = sh >= 128 ? 0 : (uint64_t)(mag >> sh);
        half = (mag >> (sh - 1)) & 1;
        if (sh >= 2)
            rest = rest || (mag & ((((u128)1) << (sh - 1)) - 1)) != 0;
    }
    q += model_round_up(mode, sign, q & 1, half, rest);
    if (q >> (m + 1)) {
        q >>= 1;
        tl++;
    }
    if (q == 0) {
        v.cls = MV_ZERO;
        return v;
    }
    uint64_t hidden = UINT64_C(1) << m;
    if (q < hidden) {
        if (ftz) {
            v.cls = MV_ZERO;
            return v;
        }
        v.e = f->emin;
    } else {
        v.e = tl + m;
    }
    if (v.e > f->emax || (v.e == f->emax && q > f->maxsig))
        return mfmt_overflow(f, sign, mode, ovf);
    v.cls = MV_FINITE;
    v.sig = q;
    v.lsb = tl;
    return v;
}

/* An Inf result of sign `sign` in f, as tc_encode gives it: Inf, or the
 * format's stand-in where it has none or the policy saturates (the same as
 * an overflow's). The output's rule (model_output) and the wide path's for
 * its accumulator (model_wide_core.h). */
static inline TC_HD mval mfmt_inf(const mfmt *f, int sign, tc_overflow ovf)
{
    if (f->specials != TC_SPECIALS_IEEE || ovf == TC_OVF_SAT)
        return mfmt_round(f, sign, 1, 100000, false, TC_RNE, false, ovf);
    mval v = {0};
    v.sign = (uint8_t)sign;
    v.cls = MV_INF;
    return v;
}

/* ---- the reference's stages every path shares (model_reference.c) ---- */

/* 1. An operand (w = 0: A, 1: B). dropped_nan cuts the encoding first
 * (premask); a subnormal of the format used is flushed after conversion. */
static inline TC_HD mval model_input_value(const model *m, int w, uint64_t bits)
{
    const mfmt *used = w ? &m->used_b : &m->used_a;
    const model_cvt *cvt = w ? &m->p.cvt_b : &m->p.cvt_a;
    mval v = mfmt_decode_inline(w ? &m->src_b : &m->src_a, bits & m->mask_ab[w] & m->premask[w], false);
    if (cvt->convert && v.cls == MV_FINITE)
        v = mfmt_round(used, v.sign, v.sig, v.lsb, false, cvt->round, false, TC_OVF_INF);
    if ((w ? m->p.ftz_b : m->p.ftz_a) && v.cls == MV_FINITE && v.sig < (UINT64_C(1) << used->mbits)) {
        v.cls = MV_ZERO;
        v.sig = 0;
    }
    return v;
}

/* model_input_value in the kernels' compact form. */
static inline TC_HD mdec mdec_of(mval v)
{
    mdec d;
    d.cls = v.cls;
    d.sign = v.sign;
    d.sig = (uint32_t)v.sig;
    d.lsb = (int16_t)v.lsb;
    d.e = (int16_t)v.e;
    return d;
}

/* 3.-5. What one kind of step does: the K steps, or adding C last. */
static inline TC_HD void model_steps_init(const model *m, mstep *st, mstep *cst)
{
    st->F = m->p.align_bits;
    st->align_round = m->p.align_round;
    st->carry_bits = m->p.carry_bits;
    st->acc_in_ref = m->p.align_with_acc;
    st->exact = m->p.acc_exact;
    st->rnd = m->p.acc_exact ? m->p.out_round : m->p.acc_round;
    st->floored = m->p.floored;
    st->floor = m->p.align_floor;
    /* Adding C last is one IEEE-style addition: exact, then one rounding. */
    cst->F = MODEL_EXACT;
    cst->align_round = MODEL_ALIGN_TRUNC;
    cst->carry_bits = MODEL_UNLIMITED;
    cst->acc_in_ref = true;
    cst->exact = m->p.acc_exact;
    cst->rnd = m->p.acc_exact ? m->p.out_round : m->p.c_round;
    cst->floored = false;
    cst->floor = 0;
}

/* 6. The output rounding; Inf and NaN as the format and policy allow. */
static inline TC_HD uint64_t model_output(const model *m, int cls, int sign, u128 mag, int lsb, bool sticky)
{
    mval v = {0};
    v.sign = (uint8_t)sign;
    switch (cls) {
    case MV_NAN:
        return m->p.nan_bits;
    case MV_INF:
        v = mfmt_inf(&m->out, sign, m->p.out_ovf);
        break;
    case MV_ZERO:
        v.cls = MV_ZERO;
        break;
    default:
        v = mfmt_round(&m->out, sign, mag, lsb, sticky, m->p.out_round, m->p.ftz_out, m->p.out_ovf);
        break;
    }
    if (v.cls == MV_NAN)
        return m->p.nan_bits;
    if (v.cls == MV_ZERO && m->p.zero_positive)
        v.sign = 0;   /* zero_sign: the hardware writes +0 for every zero result */
    return mfmt_encode(&m->out, v);
}

/* ---- the int128 path (model_int128.c): the reference's steps in int128
 * fixed point ---- */

/* A term of a fused sum: a product or C. t is its reference exponent. */
typedef struct {
    uint64_t sig;
    int32_t lsb, t;
    uint8_t cls, sign;
} mterm;

/* The accumulator between steps: exact (mag may be wide) or a value of the
 * accumulator format. present is false before the first step of C_LAST. */
typedef struct {
    bool present;
    uint8_t cls, sign;
    u128 mag;
    int32_t lsb, t;
} macc;

/* ---- products ---- */

/* sig >> sh rounded with mode (sign-aware for directed modes), sh >= 1. */
static inline TC_HD uint64_t shr_round64(uint64_t sig, int sh, int sign, tc_round mode)
{
    uint64_t q = sh >= 64 ? 0 : sig >> sh;
    bool half = sh > 64 ? false : (sig >> (sh - 1)) & 1;
    bool rest = sh > 64 ? sig != 0 : (sh >= 2 && (sig & ((UINT64_C(1) << (sh - 1)) - 1)) != 0);
    return q + model_round_up(mode, sign, q & 1, half, rest);
}

static inline TC_HD mterm model_product(const model *m, mdec x, mdec y)
{
    mterm p;
    p.sign = x.sign ^ y.sign;
    p.sig = 0;
    p.lsb = 0;
    p.t = 0;
    if (x.cls == MV_NAN || y.cls == MV_NAN) {
        p.cls = MV_NAN;
        return p;
    }
    if (x.cls == MV_INF || y.cls == MV_INF) {
        p.cls = (x.cls == MV_ZERO || y.cls == MV_ZERO) ? MV_NAN : MV_INF;
        return p;
    }
    if (x.cls == MV_ZERO || y.cls == MV_ZERO) {
        p.cls = MV_ZERO;
        return p;
    }
    p.cls = MV_FINITE;
    p.sig = (uint64_t)x.sig * y.sig;
    p.lsb = x.lsb + y.lsb;
    int n = bitlen64(p.sig);
    int pb = m->p.prod_bits;
    if (pb != MODEL_EXACT && n > pb) {
        int sh = n - pb;
        p.sig = shr_round64(p.sig, sh, p.sign, m->p.prod_round);
        p.lsb += sh;
        n = bitlen64(p.sig);
    }
    int tnorm = p.lsb + n - 1;
    if (tnorm < m->p.prod_flush_exp) {
        p.cls = MV_ZERO;
        return p;
    }
    p.t = m->p.exp_ref == MODEL_EXP_NOMINAL ? x.e + y.e : tnorm;
    return p;
}

/* ---- specials and zeros ---- */

static inline TC_HD int model_step_specials(macc *acc, const mterm *pr, int n)
{
    bool nan = acc->present && acc->cls == MV_NAN, pinf = false, ninf = false;
    if (acc->present && acc->cls == MV_INF) {
        pinf = !acc->sign;
        ninf = acc->sign;
    }
    for (int i = 0; i < n; i++) {
        if (pr[i].cls == MV_NAN)
            nan = true;
        else if (pr[i].cls == MV_INF) {
            pinf |= !pr[i].sign;
            ninf |= pr[i].sign;
        }
    }
    if (nan || (pinf && ninf)) {
        acc->cls = MV_NAN;
        acc->present = true;
        return 1;
    }
    if (pinf || ninf) {
        acc->cls = MV_INF;
        acc->sign = ninf;
        acc->present = true;
        return 1;
    }
    return 0;
}

/* IEEE 754 zero signs: a sum of zeros of one sign keeps it; a mixed or
 * cancelled zero is +0, or -0 when rounding down. */
static inline TC_HD int model_zero_sign(const macc *acc, const mterm *pr, int n, bool any_nonzero, tc_round rnd)
{
    if (!any_nonzero) {
        bool pos = false, neg = false;
        if (acc->present) {
            pos |= !acc->sign;
            neg |= acc->sign;
        }
        for (int i = 0; i < n; i++) {
            pos |= !pr[i].sign;
            neg |= pr[i].sign;
        }
        if (pos != neg)
            return neg;
    }
    return rnd == TC_RD;
}

/* ---- the accumulator ---- */

static inline TC_HD void model_acc_from_val(const model *m, macc *acc, mval v)
{
    acc->present = true;
    acc->cls = v.cls;
    acc->sign = v.sign;
    acc->mag = v.sig;
    acc->lsb = v.lsb;
    acc->t = model_ref_exp(m, v);
}

static inline TC_HD void model_acc_set(const model *m, macc *acc, int sign, u128 mag, int lsb, bool sticky,
                          const mstep *st)
{
    acc->present = true;
    if (st->exact) {
        acc->cls = MV_FINITE;
        acc->sign = (uint8_t)sign;
        acc->mag = mag;
        acc->lsb = lsb;
        acc->t = lsb + bitlen128(mag) - 1;
        return;
    }
    mval v = mfmt_round(&m->acc, sign, mag, lsb, sticky, st->rnd, m->p.ftz_acc, MODEL_ACC_OVF(&m->p));
    model_acc_from_val(m, acc, v);
}

/* ---- the fused sum of one step, int128 ---- */

/* mag * 2^lsb moved onto the grid 2^g (g > lsb), rounded per `mode`;
 * returns the signed contribution. */
static inline TC_HD i128 onto_grid128(u128 mag, int sh, int sign, model_align_round mode)
{
    u128 q;
    bool half, rest;
    if (sh > 128) {
        q = 0;
        half = false;
        rest = mag != 0;
    } else if (sh == 128) {
        q = 0;
        half = (mag >> 127) & 1;
        rest = (mag & ((((u128)1) << 127) - 1)) != 0;
    } else {
        q = mag >> sh;
        half = (mag >> (sh - 1)) & 1;
        rest = sh >= 2 && (mag & ((((u128)1) << (sh - 1)) - 1)) != 0;
    }
    q += model_round_up(model_align_mode(mode), sign, q & 1, half, rest);
    return sign ? -(i128)q : (i128)q;
}

/* Term i of a step: the accumulator for i = -1 (when acc_nz), else product
 * i; false for one that adds nothing (absent, zero, or not finite). */
static inline TC_HD bool model_step_term(const macc *acc, bool acc_nz, const mterm *pr, int i, u128 *mag, int *lsb,
                                         int *sign)
{
    if (i < 0) {
        if (!acc_nz)
            return false;
        *mag = acc->mag, *lsb = acc->lsb, *sign = acc->sign;
        return true;
    }
    if (pr[i].cls != MV_FINITE)
        return false;
    *mag = pr[i].sig, *lsb = pr[i].lsb, *sign = pr[i].sign;
    return true;
}

/* A step whose terms span more bits than int128 holds (model_step_int128's
 * grid G too fine), taken on the coarser grid Gq = top - 124 + bits(nz)
 * when every finite term but one ("far") lies on 4 * 2^Gq or above and
 * that one wholly at or below 2^Gq, the step rounds its sum at once (not
 * exact, no register width), and the others' sum S has at least p + 8 bits
 * on Gq (p: the accumulator's precision). Then every rounding boundary
 * near S is a multiple of 4 * 2^Gq, S is one, and the far term (whose
 * contribution on G, rounded onto G as the step does, is below 2^Gq) only
 * says which side of S the sum lies on: it is replaced by +-2^Gq, or by 0
 * when its contribution on G is 0, and the rounding gives the same bits
 * (round to odd). This is the usual shape of the spans int128 refused: a
 * tiny C (a subnormal f32) added last to a large accumulator, or a tiny C
 * in the accumulator before large products. -1: not such a step (the
 * reference takes it). */
static inline TC_HD int model_step_far(const model *m, macc *acc, const mterm *pr, int n, const mstep *st, int G,
                                       int top, int nz, bool acc_nz)
{
    if (st->exact || st->carry_bits != MODEL_UNLIMITED)
        return -1;
    int Gq = top - (124 - bitlen64((uint64_t)nz));
    bool far = false, far_nz = false;
    int far_sign = 0;
    i128 S = 0;
    for (int i = -1; i < n; i++) {
        u128 mag;
        int lsb, sign;
        if (!model_step_term(acc, acc_nz, pr, i, &mag, &lsb, &sign))
            continue;
        if (lsb >= Gq + 2) {
            i128 v = (i128)(mag << (lsb - Gq));   /* below 2^(124 - bits(nz)): the sum fits */
            S += sign ? -v : v;
        } else if (!far && lsb + bitlen128(mag) <= Gq) {
            far = true;
            far_sign = sign;
            far_nz = lsb >= G || onto_grid128(mag, G - lsb, sign, st->align_round) != 0;
        } else {
            return -1;
        }
    }
    int sign = S < 0;
    u128 mag = sign ? (u128)(-S) : (u128)S;
    if (!far || bitlen128(mag) < m->acc.mbits + 1 + 8)
        return -1;
    if (far_nz)
        mag = far_sign == sign ? mag + 1 : mag - 1;
    model_acc_set(m, acc, sign, mag, Gq, false, st);
    return 0;
}

/* The most limbs a wide step takes: 640 bits, more than any span of the
 * catalogue's non-f64 formats (bf16 and tf32 products of subnormals reach
 * 2^-272, their largest 2^256; the f32 accumulator lies between). */
#define MODEL_STEP_LIMBS 10

/* The step of model_step_int128 on n 64-bit limbs (oracle/model_limbs.h)
 * when its terms span more bits than int128 holds and model_step_far cannot
 * take it: the same grid G, the same alignment roundings and register
 * wrap, exactly; then the sum's top 126 bits, the rest a sticky bit, go to
 * the accumulator's one rounding (126 bits: more than p + 2 for every
 * accumulator, so the cut never changes the rounded bits). -1 (the
 * reference takes the step) only when the span exceeds MODEL_STEP_LIMBS or
 * an exact accumulator would hold more than 126 bits. */
static TC_HD_NOINLINE TC_HD int model_step_wide(const model *m, macc *acc, const mterm *pr, int n, const mstep *st,
                                                int E, int G, int top, int nz, bool acc_nz)
{
    int nl = (top - G + bitlen64((uint64_t)nz) + 2 + 63) / 64;
    if (nl > MODEL_STEP_LIMBS)
        return -1;
    uint64_t w[MODEL_STEP_LIMBS];
    mlimb_clear(w, nl);
    for (int i = -1; i < n; i++) {
        u128 mag;
        int lsb, sign;
        if (!model_step_term(acc, acc_nz, pr, i, &mag, &lsb, &sign))
            continue;
        if (lsb >= G) {
            mlimb_add(w, nl, mag, lsb - G, sign);
        } else {
            i128 q = onto_grid128(mag, G - lsb, sign, st->align_round);
            mlimb_add(w, nl, q < 0 ? (u128)(-q) : (u128)q, 0, q < 0);
        }
    }
    if (st->carry_bits != MODEL_UNLIMITED) {
        int bits = E + 1 + st->carry_bits - G + 1;   /* register width with its sign bit */
        if (bits <= 0)
            mlimb_clear(w, nl);
        else if (bits < 64 * nl)
            mlimb_wrap(w, nl, bits);
    }
    int sign = mlimb_negative(w, nl);
    if (sign)
        mlimb_negate(w, nl);
    if (mlimb_bitlen(w, nl) == 0) {
        acc->sign = (uint8_t)model_zero_sign(acc, pr, n, true, st->rnd);
        acc->cls = MV_ZERO;
        acc->mag = 0;
        acc->present = true;
        return 0;
    }
    int sh;
    bool sticky;
    u128 mag = mlimb_top(w, nl, 126, &sh, &sticky);
    if (st->exact && sh > 0)
        return -1;
    model_acc_set(m, acc, sign, mag, G + sh, sticky, st);
    return 0;
}

/* One step: acc <- fused(acc, pr[0..n)). Returns -1 when the fixed point
 * does not fit in int128 and neither model_step_far nor model_step_wide
 * can take the step (the caller then takes the reference,
 * model_reference.c). */
static inline TC_HD int model_step_int128(const model *m, macc *acc, const mterm *pr, int n, const mstep *st)
{
    if (model_step_specials(acc, pr, n) || acc->cls >= MV_INF)
        return 0;
    int E = INT_MIN, minlsb = INT_MAX, top = INT_MIN, nz = 0;
    for (int i = 0; i < n; i++) {
        if (pr[i].cls != MV_FINITE)
            continue;
        nz++;
        if (pr[i].t > E)
            E = pr[i].t;
        if (pr[i].lsb < minlsb)
            minlsb = pr[i].lsb;
        int tp = pr[i].lsb + bitlen64(pr[i].sig);
        if (tp > top)
            top = tp;
    }
    bool acc_nz = acc->present && acc->cls == MV_FINITE;
    if (acc_nz) {
        nz++;
        if ((st->acc_in_ref || E == INT_MIN) && acc->t > E)
            E = acc->t;
        if (acc->lsb < minlsb)
            minlsb = acc->lsb;
        int tp = acc->lsb + bitlen128(acc->mag);
        if (tp > top)
            top = tp;
    }
    if (nz == 0) {
        acc->sign = (uint8_t)model_zero_sign(acc, pr, n, false, st->rnd);
        acc->cls = MV_ZERO;
        acc->mag = 0;
        acc->present = true;
        return 0;
    }
    int G = minlsb;
    if (st->F != MODEL_EXACT && E - st->F > G)
        G = E - st->F;
    if (st->floored && st->floor > G)
        G = st->floor;
    if (top - G + bitlen64((uint64_t)nz) + 2 > 126)
        return model_step_far(m, acc, pr, n, st, G, top, nz, acc_nz) == 0
                   ? 0
                   : model_step_wide(m, acc, pr, n, st, E, G, top, nz, acc_nz);
    i128 S = 0;
    for (int i = 0; i < n; i++) {
        if (pr[i].cls != MV_FINITE)
            continue;
        if (pr[i].lsb >= G) {
            i128 v = (i128)((u128)pr[i].sig << (pr[i].lsb - G));
            S += pr[i].sign ? -v : v;
        } else {
            S += onto_grid128(pr[i].sig, G - pr[i].lsb, pr[i].sign, st->align_round);
        }
    }
    if (acc_nz) {
        if (acc->lsb >= G) {
            i128 v = (i128)(acc->mag << (acc->lsb - G));
            S += acc->sign ? -v : v;
        } else {
            S += onto_grid128(acc->mag, G - acc->lsb, acc->sign, st->align_round);
        }
    }
    if (st->carry_bits != MODEL_UNLIMITED) {
        int w = E + 1 + st->carry_bits - G + 1;   /* register width with its sign bit */
        if (w <= 0) /* the grid floor (align_floor) lies above every kept bit: the register holds nothing */
            S = 0;
        else if (w < 126) {
            u128 mod = ((u128)1) << w;
            u128 u = (u128)S & (mod - 1);
            S = (u >> (w - 1)) ? (i128)u - (i128)mod : (i128)u;
        }
    }
    int sign = S < 0;
    u128 mag = sign ? (u128)(-S) : (u128)S;
    if (mag == 0) {
        acc->sign = (uint8_t)model_zero_sign(acc, pr, n, true, st->rnd);
        acc->cls = MV_ZERO;
        acc->mag = 0;
        acc->present = true;
        return 0;
    }
    model_acc_set(m, acc, sign, mag, G, false, st);
    return 0;
}

/* ---- C, the output ---- */

static inline TC_HD mterm model_c_term(const model *m, uint64_t c)
{
    mval v = mfmt_decode_inline(&m->cfmt, c, m->p.ftz_c);
    mterm t;
    t.cls = v.cls;
    t.sign = v.sign;
    t.sig = v.sig;
    t.lsb = v.lsb;
    t.t = model_ref_exp(m, v);
    return t;
}

/* The accumulator before the first step (C_FIRST: C in the accumulator's form). */
static inline TC_HD void model_acc_init(const model *m, macc *acc, const mterm *ct)
{
    acc->present = false;
    acc->cls = acc->sign = 0;
    acc->mag = 0;
    acc->lsb = acc->t = 0;
    if (m->p.c_mode != MODEL_C_FIRST)
        return;
    acc->present = true;
    acc->cls = ct->cls;
    acc->sign = ct->sign;
    if (ct->cls != MV_FINITE)
        return;
    if (m->p.acc_exact) {
        acc->mag = ct->sig;
        acc->lsb = ct->lsb;
        acc->t = ct->t;
        return;
    }
    mval v = mfmt_round(&m->acc, ct->sign, ct->sig, ct->lsb, false, m->p.acc_round,
                        m->p.ftz_acc, MODEL_ACC_OVF(&m->p));
    model_acc_from_val(m, acc, v);
}

/* An operand decoded by bit operations where the model allows (IEEE/FN
 * containers: model_new's direct), else by model_input_value: what the CPU's
 * decode tables hold, computed (the GPU keeps no tables). */
static inline TC_HD mdec model_operand(const model *m, int w, uint64_t bits)
{
    if (m->direct[w])
        return model_direct_decode(w ? &m->src_b : &m->src_a, bits & m->premask[w], m->keep[w],
                                   w ? m->p.ftz_b : m->p.ftz_a);
    return mdec_of(model_input_value(m, w, bits));
}

/* The steps, C and the output of one element from its products pr[0..k)
 * (in step order, model_step_order): 0 with the output bits in *d, or -1
 * when a step's terms span more bits than int128 holds (the reference,
 * which has no width limit, then computes the element). */
static inline TC_HD int model_int128_steps(const model *m, int k, const mterm *pr, uint64_t c, uint64_t *d)
{
    mterm ct = model_c_term(m, c);
    mstep st, cst;
    model_steps_init(m, &st, &cst);
    macc acc;
    model_acc_init(m, &acc, &ct);
    int block = m->p.block;
    int rc = 0;
    for (int s = 0; s < k && rc == 0; s += block)
        rc = model_step_int128(m, &acc, pr + s, k - s < block ? k - s : block, &st);
    if (rc == 0 && m->p.c_mode == MODEL_C_LAST)
        rc = model_step_int128(m, &acc, &ct, 1, &cst);
    if (rc != 0)
        return -1;
    if (!acc.present)
        *d = model_output(m, MV_ZERO, 0, 0, 0, false);
    else
        *d = model_output(m, acc.cls, acc.sign, acc.mag, acc.lsb, false);
    return 0;
}

/* The most K one element of model_element_int128 takes: every floating-point
 * instruction of the catalogue (FP8 sparse wgmma: 64). */
#define MODEL_ELEMENT_MAX_K 64

/* One output element from its operands where they lie: a[q * sa] and
 * b[q * sb] for q < k, taken in step order (order[i], model_step_order; NULL:
 * the identity). The whole work of one GPU thread (probes/cuda/model_gpu.cu),
 * and what tests/test_model_gpu.c runs on the CPU against the reference.
 * 0 with *d; -1 when k > MODEL_ELEMENT_MAX_K or model_int128_steps needs
 * the reference. */
static inline TC_HD int model_element_int128(const model *m, int k, const uint64_t *a, size_t sa,
                                             const uint64_t *b, size_t sb, uint64_t c, const int *order,
                                             uint64_t *d)
{
    mterm pr[MODEL_ELEMENT_MAX_K];
    if (k > MODEL_ELEMENT_MAX_K)
        return -1;
    for (int i = 0; i < k; i++) {
        size_t q = (size_t)(order ? order[i] : i);
        pr[i] = model_product(m, model_operand(m, 0, a[q * sa]), model_operand(m, 1, b[q * sb]));
    }
    return model_int128_steps(m, k, pr, c, d);
}

#endif
