/* The model's general fast path: the reference's steps (model_reference.c)
 * in int128 fixed point, for every setting and every input the int64
 * kernel declines (specials, exact or wrapping sums, rounded products, an
 * accumulator far from the reference). When the terms of a step span more
 * bits than int128 holds (unlimited alignment on far-apart exponents) the
 * element goes to the reference, which has no width limit. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model_internal.h"

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

static void model_acc_set(const model *m, macc *acc, int sign, u128 mag, int lsb, bool sticky,
                          const mstep *st);
static void model_acc_from_val(const model *m, macc *acc, mval v);

static inline mdec input_get(const model *m, int which, uint64_t bits)
{
    /* the table and model_input_decode apply premask themselves */
    if (m->direct[which])
        return model_direct_decode(which ? &m->src_b : &m->src_a, bits & m->premask[which], m->keep[which],
                                   which ? m->p.ftz_b : m->p.ftz_a);
    const mdec *tab = m->tab[which];
    if (tab)
        return tab[bits & m->mask_ab[which]];
    return model_input_decode(m, which, bits);
}

/* ---- products ---- */

/* sig >> sh rounded with mode (sign-aware for directed modes), sh >= 1. */
static uint64_t shr_round64(uint64_t sig, int sh, int sign, tc_round mode)
{
    uint64_t q = sh >= 64 ? 0 : sig >> sh;
    bool half = sh > 64 ? false : (sig >> (sh - 1)) & 1;
    bool rest = sh > 64 ? sig != 0 : (sh >= 2 && (sig & ((UINT64_C(1) << (sh - 1)) - 1)) != 0);
    return q + model_round_up(mode, sign, q & 1, half, rest);
}

static mterm model_product(const model *m, mdec x, mdec y)
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

static int model_step_specials(macc *acc, const mterm *pr, int n)
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
static int model_zero_sign(const macc *acc, const mterm *pr, int n, bool any_nonzero, tc_round rnd)
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

/* ---- the fused sum of one step, int128 ---- */

/* mag * 2^lsb moved onto the grid 2^g (g > lsb), rounded per `mode`;
 * returns the signed contribution. */
static i128 onto_grid(u128 mag, int sh, int sign, model_align_round mode)
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

/* One step: acc <- fused(acc, pr[0..n)). Returns -1 when the fixed point
 * does not fit in int128 (the caller then takes the reference, model_reference.c). */
static int step_fast(const model *m, macc *acc, const mterm *pr, int n, const mstep *st)
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
        return -1;
    i128 S = 0;
    for (int i = 0; i < n; i++) {
        if (pr[i].cls != MV_FINITE)
            continue;
        if (pr[i].lsb >= G) {
            i128 v = (i128)((u128)pr[i].sig << (pr[i].lsb - G));
            S += pr[i].sign ? -v : v;
        } else {
            S += onto_grid(pr[i].sig, G - pr[i].lsb, pr[i].sign, st->align_round);
        }
    }
    if (acc_nz) {
        if (acc->lsb >= G) {
            i128 v = (i128)(acc->mag << (acc->lsb - G));
            S += acc->sign ? -v : v;
        } else {
            S += onto_grid(acc->mag, G - acc->lsb, acc->sign, st->align_round);
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

static void model_acc_set(const model *m, macc *acc, int sign, u128 mag, int lsb, bool sticky,
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

static void model_acc_from_val(const model *m, macc *acc, mval v)
{
    acc->present = true;
    acc->cls = v.cls;
    acc->sign = v.sign;
    acc->mag = v.sig;
    acc->lsb = v.lsb;
    acc->t = model_ref_exp(m, v);
}

/* ---- C, the output ---- */

static mterm model_c_term(const model *m, uint64_t c)
{
    mval v = mfmt_decode(&m->cfmt, c, m->p.ftz_c);
    mterm t;
    t.cls = v.cls;
    t.sign = v.sign;
    t.sig = v.sig;
    t.lsb = v.lsb;
    t.t = model_ref_exp(m, v);
    return t;
}

/* The accumulator before the first step (C_FIRST: C in the accumulator's form). */
static void model_acc_init(const model *m, macc *acc, const mterm *ct)
{
    memset(acc, 0, sizeof *acc);
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
    mterm ct = model_c_term(m, c);
    mstep st, cst;
    model_steps_init(m, &st, &cst);
    macc acc;
    model_acc_init(m, &acc, &ct);
    int block = m->p.block;
    int rc = 0;
    for (int s = 0; s < k && rc == 0; s += block)
        rc = step_fast(m, &acc, pr + s, k - s < block ? k - s : block, &st);
    if (rc == 0 && m->p.c_mode == MODEL_C_LAST)
        rc = step_fast(m, &acc, &ct, 1, &cst);
    uint64_t d;
    if (rc != 0)
        d = model_reference_dot(m, k, a, b, c);
    else if (!acc.present)
        d = model_output(m, MV_ZERO, 0, 0, 0, false);
    else
        d = model_output(m, acc.cls, acc.sign, acc.mag, acc.lsb, false);
    if (pr != buf)
        free(pr);
    return d;
}
