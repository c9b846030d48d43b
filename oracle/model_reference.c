/* The model's reference: one output element d = sum a[i]*b[i] + c, written
 * once, in the order the hardware works, for clarity rather than speed:
 *
 *   1. decode     each operand read from its container, converted, flushed
 *   2. products   exact (times the block's scales, for a block-scaled
 *                 form), then rounded to prod_bits and flushed if so;
 *                 with scale_group, exact sums of groups of products, each
 *                 times its scales, are the terms instead
 *   3. steps      the K products cut into steps of `block` (in the order of
 *                 model_step_order); each step is one fused sum of its
 *                 products and the running accumulator:
 *   4. alignment  every term cut onto the grid 2^(E - align_bits), E the
 *                 step's reference exponent, then summed exactly (and
 *                 wrapped to carry_bits)
 *   5. accumulator the sum kept exact or rounded into acc_fmt; C joins the
 *                 first step (C_FIRST) or is added after the last (C_LAST)
 *   6. output     one rounding into the output format.
 *
 * All arithmetic is on GMP integers, so nothing here has a width limit and
 * no case is special: every fast path (model_int64.c, model_avx512.c,
 * model_int128.c, model_wide.c) must give these bits, and
 * tests/test_model_reference.c checks that they do. Roundings into a format
 * go through mfmt_round, every other cut of bits through model_round_up
 * (model_internal.h): the model has one rounding. The one thing not here is
 * NaN payload propagation (nan_prop), which only the wide path models.
 * Stages 1 (model_input_value) and 6 (model_output), and what a step does
 * (model_steps_init), are in model_core.h, written once for every path,
 * the GPU's included. */
#include <limits.h>
#include <stdlib.h>

#include <gmp.h>

#include "oracle/model_internal.h"

int model_force_slow = 0;

/* A finite value is (-1)^sign * sig * 2^lsb; t is the exponent it offers
 * as alignment reference. The accumulator is one too (present: it holds a
 * value; it does not before the first step of C_LAST). */
typedef struct {
    bool present;
    uint8_t cls, sign;
    mpz_t sig;
    int lsb, t;
} rnum;

static int nbits(const mpz_t z)
{
    return (int)mpz_sizeinbase(z, 2);
}

/* z >> sh (sh >= 1) rounded with mode, in place: the rounding rule on an
 * unbounded magnitude. */
static void shr_round(mpz_t z, int sh, int sign, tc_round mode)
{
    bool half = mpz_tstbit(z, (mp_bitcnt_t)sh - 1);
    bool rest = mpz_scan1(z, 0) < (mp_bitcnt_t)sh - 1;
    mpz_tdiv_q_2exp(z, z, (mp_bitcnt_t)sh);
    if (model_round_up(mode, sign, mpz_odd_p(z), half, rest))
        mpz_add_ui(z, z, 1);
}

/* |z| as the 128 bits and sticky bit mfmt_round takes: 120 leading bits are
 * far more than any format keeps, so the cut bits only matter as sticky. */
static u128 to_u128(const mpz_t z, int *lsb, bool *sticky)
{
    mpz_t q;
    mpz_init(q);
    mpz_abs(q, z);
    int n = nbits(q);
    *sticky = n > 120 && mpz_scan1(q, 0) < (mp_bitcnt_t)(n - 120);
    if (n > 120) {
        mpz_tdiv_q_2exp(q, q, (mp_bitcnt_t)(n - 120));
        *lsb += n - 120;
    }
    u128 r = ((u128)mpz_getlimbn(q, 1) << 64) | mpz_getlimbn(q, 0);
    mpz_clear(q);
    return r;
}

/* A format's value (mfmt_round, mfmt_decode) as an rnum. */
static void set_val(const model *m, rnum *x, mval v)
{
    x->present = true;
    x->cls = v.cls;
    x->sign = v.sign;
    x->lsb = v.lsb;
    x->t = model_ref_exp(m, v);
    mpz_set_ui(x->sig, v.cls == MV_FINITE ? v.sig : 0);
}

/* The class of a product of factors of classes x and y: IEEE 754 (NaN
 * wins, 0 * Inf is NaN). */
static uint8_t product_class(uint8_t x, uint8_t y)
{
    bool inf = x == MV_INF || y == MV_INF, zero = x == MV_ZERO || y == MV_ZERO;
    if (x == MV_NAN || y == MV_NAN || (inf && zero))
        return MV_NAN;
    return inf ? MV_INF : zero ? MV_ZERO : MV_FINITE;
}

/* The product of a block's two scales (unsigned), as a factor: sig * 2^lsb,
 * e the sum of their exponent fields as exponents (emin for subnormals). */
static mval scale_product(const oracle_scales *s, int block)
{
    tc_value x = tc_decode(s->fmt, s->a[block], false), y = tc_decode(s->fmt, s->b[block], false);
    mval v = {.cls = MV_FINITE, .sign = 0, .lsb = 0, .e = 0, .sig = 0};
    static const uint8_t cls[] = {[TC_ZERO] = MV_ZERO, [TC_FINITE] = MV_FINITE, [TC_INF] = MV_INF,
                                  [TC_NAN] = MV_NAN};
    v.cls = product_class(cls[x.cls], cls[y.cls]);
    if (v.cls == MV_FINITE) {
        v.sig = x.sig * y.sig;
        v.lsb = x.exp + y.exp;
        v.e = x.exp + y.exp + 2 * s->fmt->mbits;
    }
    return v;
}

/* 2. A product a * b (* sc, a block's scales, or NULL): IEEE classes, else
 * exact, then rounded to prod_bits significant bits and flushed below
 * 2^prod_flush_exp. */
static void product(const model *m, mval x, mval y, const mval *sc, rnum *p)
{
    p->sign = x.sign ^ y.sign;
    p->lsb = p->t = 0;
    mpz_set_ui(p->sig, 0);
    p->cls = product_class(x.cls, y.cls);
    if (sc)
        p->cls = product_class(p->cls, sc->cls);
    if (p->cls != MV_FINITE)
        return;
    mpz_set_ui(p->sig, x.sig);
    mpz_mul_ui(p->sig, p->sig, y.sig);
    p->lsb = x.lsb + y.lsb;
    if (sc) {
        mpz_mul_ui(p->sig, p->sig, sc->sig);
        p->lsb += sc->lsb;
        x.e += sc->e;   /* the nominal exponent below: ea + eb + the scales' */
    }
    int pb = m->p.prod_bits, n = nbits(p->sig);
    if (pb != MODEL_EXACT && n > pb) {
        shr_round(p->sig, n - pb, p->sign, m->p.prod_round);
        p->lsb += n - pb;
    }
    int top = p->lsb + nbits(p->sig) - 1;   /* floor(log2 |p|) */
    if (top < m->p.prod_flush_exp)
        p->cls = MV_ZERO;   /* the sign stays */
    p->t = m->p.exp_ref == MODEL_EXP_NOMINAL ? x.e + y.e : top;
}

/* 4. sign * sig * 2^lsb onto the grid 2^G (align_round), added to S. */
static void add_on_grid(mpz_t S, const rnum *x, int G, model_align_round r)
{
    mpz_t q;
    mpz_init_set(q, x->sig);
    if (x->lsb >= G)
        mpz_mul_2exp(q, q, (mp_bitcnt_t)(x->lsb - G));
    else
        shr_round(q, G - x->lsb, x->sign, model_align_mode(r));
    if (x->sign)
        mpz_sub(S, S, q);
    else
        mpz_add(S, S, q);
    mpz_clear(q);
}

/* 3.-5. One step: acc <- the fused sum of acc and the n terms x. */
static void step(const model *m, rnum *acc, const rnum *x, int n, const mstep *st)
{
    /* Specials decide alone: NaN, or Infs of both signs, give NaN. */
    bool nan = acc->present && acc->cls == MV_NAN, pinf = false, ninf = false, pos = false, neg = false;
    bool acc_nz = acc->present && acc->cls == MV_FINITE;
    for (int i = -1; i < n; i++) {
        const rnum *y = i < 0 ? acc : &x[i];
        if (i < 0 && !acc->present)
            continue;
        nan |= y->cls == MV_NAN;
        pinf |= y->cls == MV_INF && !y->sign;
        ninf |= y->cls == MV_INF && y->sign;
        pos |= !y->sign;   /* the signs a zero result may take */
        neg |= y->sign;
    }
    acc->present = true;
    if (nan || pinf || ninf) {
        acc->cls = nan || (pinf && ninf) ? MV_NAN : MV_INF;
        acc->sign = ninf;
        return;
    }
    /* The reference exponent E: the largest of the products'; the
     * accumulator's counts when align_with_acc, or when it is alone. */
    int E = INT_MIN, G = INT_MAX;
    for (int i = 0; i < n; i++)
        if (x[i].cls == MV_FINITE) {
            E = x[i].t > E ? x[i].t : E;
            G = x[i].lsb < G ? x[i].lsb : G;
        }
    if (acc_nz) {
        if ((st->acc_in_ref || E == INT_MIN) && acc->t > E)
            E = acc->t;
        G = acc->lsb < G ? acc->lsb : G;
    }
    if (E == INT_MIN) {   /* only zeros: IEEE 754 zero signs */
        acc->cls = MV_ZERO;
        acc->sign = pos != neg ? neg : st->rnd == TC_RD;
        mpz_set_ui(acc->sig, 0);
        return;
    }
    /* The grid: align_bits below E (no finer than the finest term needs),
     * and never finer than 2^align_floor. */
    if (st->F != MODEL_EXACT && E - st->F > G)
        G = E - st->F;
    if (st->floored && st->floor > G)
        G = st->floor;
    mpz_t S;
    mpz_init(S);
    for (int i = 0; i < n; i++)
        if (x[i].cls == MV_FINITE)
            add_on_grid(S, &x[i], G, st->align_round);
    if (acc_nz)
        add_on_grid(S, acc, G, st->align_round);
    /* A register of carry_bits integer bits above E (and a sign) wraps. */
    if (st->carry_bits != MODEL_UNLIMITED) {
        long w = (long)E + 1 + st->carry_bits - G + 1;
        if (w <= 0) {   /* the floor lies above every kept bit */
            mpz_set_ui(S, 0);
        } else {
            mpz_fdiv_r_2exp(S, S, (mp_bitcnt_t)w);
            if (mpz_tstbit(S, (mp_bitcnt_t)w - 1)) {
                mpz_t mod;
                mpz_init_set_ui(mod, 1);
                mpz_mul_2exp(mod, mod, (mp_bitcnt_t)w);
                mpz_sub(S, S, mod);
                mpz_clear(mod);
            }
        }
    }
    /* 5. The accumulator: the sum exact, or rounded into acc_fmt. */
    if (mpz_sgn(S) == 0) {
        acc->cls = MV_ZERO;
        acc->sign = st->rnd == TC_RD;   /* a cancelled sum */
        mpz_set_ui(acc->sig, 0);
    } else if (st->exact) {
        acc->cls = MV_FINITE;
        acc->sign = mpz_sgn(S) < 0;
        mpz_abs(acc->sig, S);
        acc->lsb = G;
        acc->t = G + nbits(S) - 1;
    } else {
        int lsb = G;
        bool sticky;
        u128 q = to_u128(S, &lsb, &sticky);
        set_val(m, acc, mfmt_round(&m->acc, mpz_sgn(S) < 0, q, lsb, sticky, st->rnd, m->p.ftz_acc,
                                   MODEL_ACC_OVF(&m->p)));
    }
    mpz_clear(S);
}

/* 3. The order in which the K positions enter the steps (model.h). */
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

/* 2. (scale_group) The n products x, summed exactly, times the scales sc:
 * one term offering the scales' exponent. NaN, or Infs of both signs, give
 * NaN; an Inf its sign; products all zero a zero (which offers no
 * exponent); a sum that cancels is a finite term of value 0 (which does). */
static void group_term(const model *m, const rnum *x, int n, const mval *sc, rnum *g)
{
    bool nan = false, pinf = false, ninf = false, finite = false, neg = true;
    int lsb = INT_MAX;
    for (int i = 0; i < n; i++) {
        neg &= x[i].sign;
        nan |= x[i].cls == MV_NAN;
        pinf |= x[i].cls == MV_INF && !x[i].sign;
        ninf |= x[i].cls == MV_INF && x[i].sign;
        finite |= x[i].cls == MV_FINITE;
        if (x[i].cls == MV_FINITE && x[i].lsb < lsb)
            lsb = x[i].lsb;
    }
    uint8_t cls = nan || (pinf && ninf) ? MV_NAN : pinf || ninf ? MV_INF : finite ? MV_FINITE : MV_ZERO;
    g->present = true;
    g->cls = product_class(cls, sc->cls);
    g->sign = cls == MV_INF ? ninf : neg;   /* zeros: -0 only when every one is */
    g->lsb = g->t = 0;
    mpz_set_ui(g->sig, 0);
    if (g->cls != MV_FINITE)
        return;
    mpz_t q;
    mpz_init(q);
    for (int i = 0; i < n; i++)
        if (x[i].cls == MV_FINITE) {
            mpz_mul_2exp(q, x[i].sig, (mp_bitcnt_t)(x[i].lsb - lsb));
            if (x[i].sign)
                mpz_sub(g->sig, g->sig, q);
            else
                mpz_add(g->sig, g->sig, q);
        }
    mpz_clear(q);
    g->sign = mpz_sgn(g->sig) < 0;
    mpz_abs(g->sig, g->sig);
    mpz_mul_ui(g->sig, g->sig, sc->sig);
    g->lsb = lsb + sc->lsb;
    g->t = m->p.exp_ref == MODEL_EXP_NOMINAL ? sc->e : sc->lsb + (int)(64 - __builtin_clzll(sc->sig)) - 1;
    if (mpz_sgn(g->sig) == 0)
        g->lsb = g->t;   /* a cancelled group: no bit, so no finer grid */
}

uint64_t model_reference_dot(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    return model_dot_scaled(m, k, a, b, c, NULL);
}

const char *model_scaled_check(const model *m, int k, const oracle_scales *s)
{
    if (!s->fmt || (s->fmt != &tc_e8m0 && s->fmt != &tc_ue4m3))
        return "block scales must be e8m0 or ue4m3";
    if (s->block < 1 || k < 1 || k % s->block)
        return "the scale block must divide K";
    if (m->p.scale_group > 0 && s->block % m->p.scale_group)
        return "scale_group must divide the scale block (one scale a group)";
    return NULL;
}

uint64_t model_dot_scaled(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c,
                          const oracle_scales *s)
{
    const model_params *p = &m->p;
    if (s && model_scaled_check(m, k, s))
        return p->nan_bits;
    int *idx = malloc((size_t)(k > 0 ? k : 1) * sizeof *idx);
    rnum *x = malloc((size_t)(k + 2) * sizeof *x), *ct = &x[k], *acc = &x[k + 1];
    if (!idx || !x)
        abort();
    for (int i = 0; i < k + 2; i++)
        mpz_init(x[i].sig);
    /* 1.-2. the products, in the order the steps take them; a block-scaled
     * form's products carry their scales, or its groups do (scale_group) */
    bool ordered = model_step_order(p, k, idx);
    int group = s && p->scale_group > 0 ? p->scale_group : 1, block = p->block, nterms = k;
    for (int i = 0; i < k; i++) {
        int q = ordered ? idx[i] : i;
        mval sc = s && group == 1 ? scale_product(s, q / s->block) : (mval){0};
        product(m, model_input_value(m, 0, a[q]), model_input_value(m, 1, b[q]), s && group == 1 ? &sc : NULL,
                &x[i]);
    }
    if (group > 1) {   /* the groups replace the products: terms k / group, steps block / group */
        for (int g = 0; g * group < k; g++) {
            mval sc = scale_product(s, g * group / s->block);
            rnum t;
            mpz_init(t.sig);
            group_term(m, x + g * group, group, &sc, &t);
            mpz_swap(x[g].sig, t.sig);
            x[g].present = t.present, x[g].cls = t.cls, x[g].sign = t.sign, x[g].lsb = t.lsb, x[g].t = t.t;
            mpz_clear(t.sig);
        }
        nterms = k / group;
        block = block / group > 0 ? block / group : 1;
    }
    /* 5. the accumulator before the first step: C in its form (C_FIRST) */
    set_val(m, ct, mfmt_decode(&m->cfmt, c, p->ftz_c));
    acc->present = false;
    acc->cls = MV_ZERO;
    acc->sign = 0;
    if (p->c_mode == MODEL_C_FIRST) {
        set_val(m, acc, mfmt_decode(&m->cfmt, c, p->ftz_c));
        if (acc->cls == MV_FINITE && !p->acc_exact)
            set_val(m, acc, mfmt_round(&m->acc, acc->sign, mpz_get_ui(acc->sig), acc->lsb, false,
                                       p->acc_round, p->ftz_acc, MODEL_ACC_OVF(p)));
    }
    /* 3. the steps, then C last (one exact addition, one rounding) */
    mstep st, cst;
    model_steps_init(m, &st, &cst);
    for (int j = 0; j < nterms; j += block)
        step(m, acc, x + j, nterms - j < block ? nterms - j : block, &st);
    if (p->c_mode == MODEL_C_LAST)
        step(m, acc, ct, 1, &cst);
    /* 6. the output (no step and no C: +0) */
    int lsb = acc->lsb;
    bool sticky = false;
    u128 mag = acc->cls == MV_FINITE ? to_u128(acc->sig, &lsb, &sticky) : 0;
    uint64_t d = model_output(m, acc->cls, acc->sign, mag, lsb, sticky);
    for (int i = 0; i < k + 2; i++)
        mpz_clear(x[i].sig);
    free(x);
    free(idx);
    return d;
}
