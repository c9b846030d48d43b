/* The tensor-core model: one output element, step by step.
 *
 * d = sum a[i]*b[i] + c is computed as
 *   decode (convert, flush) -> products (round, flush) -> steps of `block`
 *   products, each a fused sum of the accumulator and the block aligned to
 *   a reference exponent E on the grid 2^(E - align_bits) -> accumulator
 *   rounded into its format (or kept exact) -> C added last if so -> output
 *   rounding.
 * Fast path: int128 fixed point. When the terms of a step span more bits
 * than that holds (unlimited alignment on far-apart exponents) the element
 * is recomputed on the GMP path (model_slow.c), which follows the same steps.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model_internal.h"

/* ---- decoding inputs ---- */

static mdec dec_make(mval v)
{
    mdec d;
    d.cls = v.cls;
    d.sign = v.sign;
    d.sig = (uint32_t)v.sig;
    d.lsb = (int16_t)v.lsb;
    d.e = (int16_t)v.e;
    return d;
}

mdec model_input_decode(const model *m, int which, uint64_t bits)
{
    const mfmt *src = which ? &m->src_b : &m->src_a;
    const mfmt *used = which ? &m->used_b : &m->used_a;
    const model_cvt *cvt = which ? &m->p.cvt_b : &m->p.cvt_a;
    bool ftz = which ? m->p.ftz_b : m->p.ftz_a;
    mval v = mfmt_decode(src, bits & m->mask_ab[which] & m->premask[which], false);
    if (cvt->convert && v.cls == MV_FINITE)
        v = mfmt_round(used, v.sign, v.sig, v.lsb, false, cvt->round, false, TC_OVF_INF);
    if (ftz && v.cls == MV_FINITE && v.sig < (UINT64_C(1) << used->mbits)) {
        v.cls = MV_ZERO;
        v.sig = 0;   /* the kernel relies on: a zero has sig 0 */
    }
    return dec_make(v);
}

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
    bool inexact = half || rest;
    switch (mode) {
    case TC_RNE: return q + (half && (rest || (q & 1)));
    case TC_RNA: return q + half;
    case TC_RU: return q + (inexact && !sign);
    case TC_RD: return q + (inexact && sign);
    case TC_RO: return inexact ? q | 1 : q;
    default: return q;
    }
}

mterm model_product(const model *m, mdec x, mdec y)
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

int model_step_specials(macc *acc, const mterm *pr, int n)
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
int model_zero_sign(const macc *acc, const mterm *pr, int n, bool any_nonzero, tc_round rnd)
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
    switch (mode) {
    case MODEL_ALIGN_FLOOR:
        if (sign && (half || rest))
            q++;
        break;
    case MODEL_ALIGN_RNE:
        q += half && (rest || (q & 1));
        break;
    default:
        break;
    }
    return sign ? -(i128)q : (i128)q;
}

/* One step: acc <- fused(acc, pr[0..n)). Returns -1 when the fixed point
 * does not fit in int128 (the caller then takes the GMP path). */
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

void model_acc_set(const model *m, macc *acc, int sign, u128 mag, int lsb, bool sticky,
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

void model_acc_from_val(const model *m, macc *acc, mval v)
{
    acc->present = true;
    acc->cls = v.cls;
    acc->sign = v.sign;
    acc->mag = v.sig;
    acc->lsb = v.lsb;
    acc->t = model_ref_exp(m, v);
}

/* ---- C, the output ---- */

mterm model_c_term(const model *m, uint64_t c)
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
void model_acc_init(const model *m, macc *acc, const mterm *ct)
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

uint64_t model_output(const model *m, int cls, int sign, u128 mag, int lsb, bool sticky)
{
    mval v = {0};
    v.sign = (uint8_t)sign;
    switch (cls) {
    case MV_NAN:
        return m->p.nan_bits;
    case MV_INF:
        /* Inf stays Inf unless the policy saturates or the format has no Inf
         * (the same stand-ins as tc_encode). */
        if (m->out.specials != TC_SPECIALS_IEEE || m->p.out_ovf == TC_OVF_SAT) {
            v = mfmt_round(&m->out, sign, 1, 100000, false, TC_RNE, false, m->p.out_ovf);
            break;
        }
        v.cls = MV_INF;
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

void model_steps_init(const model *m, mstep *st, mstep *cst)
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

/* ---- one element ---- */

bool model_step_order(const model_params *p, int k, int *idx)
{
    int G = p->split_runs, nsteps = k / p->block;
    if (G <= 0 || nsteps < 2)
        return false;
    int j = 0;
    for (int s = 0; s < nsteps; s++)
        for (int r = s; r < nsteps * p->block / G; r += nsteps)
            for (int i = 0; i < G; i++)
                idx[j++] = r * G + i;
    for (; j < k; j++)
        idx[j] = j;
    return true;
}

uint64_t model_dot_generic(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    if (m->wide)
        return model_dot_wide(m, k, a, b, c);
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
    int rc = model_force_slow ? -1 : 0;
    for (int s = 0; s < k && rc == 0; s += block)
        rc = step_fast(m, &acc, pr + s, k - s < block ? k - s : block, &st);
    if (rc == 0 && m->p.c_mode == MODEL_C_LAST)
        rc = step_fast(m, &acc, &ct, 1, &cst);
    uint64_t d;
    if (rc != 0)
        d = model_dot_slow(m, k, pr, &ct);
    else if (!acc.present)
        d = model_output(m, MV_ZERO, 0, 0, 0, false);
    else
        d = model_output(m, acc.cls, acc.sign, acc.mag, acc.lsb, false);
    if (pr != buf)
        free(pr);
    return d;
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
