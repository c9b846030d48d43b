/* The model's GMP path: the same steps as model.c with unbounded integers,
 * for elements whose fixed-point sums do not fit in int128 (unlimited or very
 * wide alignment over far-apart exponents). Slow, and only taken then. */
#include <limits.h>
#include <string.h>

#include <gmp.h>

#include "oracle/model_internal.h"

_Static_assert(GMP_NUMB_BITS == 64, "the model assumes 64-bit GMP limbs");

int model_force_slow = 0;

/* The accumulator with an unbounded signed integer. */
typedef struct {
    bool present;
    uint8_t cls, sign;
    mpz_t v;          /* signed value / 2^lsb when finite */
    int lsb, t;
} sacc;

static void mpz_set_u128(mpz_t z, u128 x)
{
    mpz_set_ui(z, (unsigned long)(x >> 64));
    mpz_mul_2exp(z, z, 64);
    mpz_add_ui(z, z, (unsigned long)(uint64_t)x);
}

/* |z| as a u128 of at most 120 bits, *lsb adjusted, *sticky for dropped bits. */
static u128 reduce(const mpz_t z, int *lsb, bool *sticky)
{
    mpz_t q;
    mpz_init(q);
    mpz_abs(q, z);
    size_t n = mpz_sizeinbase(q, 2);
    *sticky = false;
    if (mpz_sgn(q) != 0 && n > 120) {
        size_t sh = n - 120;
        *sticky = mpz_scan1(q, 0) < sh;
        mpz_tdiv_q_2exp(q, q, sh);
        *lsb += (int)sh;
    }
    u128 r = ((u128)mpz_getlimbn(q, 1) << 64) | mpz_getlimbn(q, 0);
    mpz_clear(q);
    return r;
}

/* Adds sign*mag*2^lsb onto grid 2^g into S, rounding per mode. */
static void add_onto_grid(mpz_t S, mpz_t tmp, int sign, const mpz_t mag, int lsb, int g,
                          model_align_round mode)
{
    if (lsb >= g) {
        mpz_mul_2exp(tmp, mag, (mp_bitcnt_t)(lsb - g));
    } else {
        mp_bitcnt_t sh = (mp_bitcnt_t)(g - lsb);
        bool half = mpz_tstbit(mag, sh - 1);
        bool rest = mpz_scan1(mag, 0) < sh - 1;
        mpz_tdiv_q_2exp(tmp, mag, sh);
        if (mode == MODEL_ALIGN_FLOOR && sign && (half || rest))
            mpz_add_ui(tmp, tmp, 1);
        else if (mode == MODEL_ALIGN_RNE && half && (rest || mpz_odd_p(tmp)))
            mpz_add_ui(tmp, tmp, 1);
    }
    if (sign)
        mpz_sub(S, S, tmp);
    else
        mpz_add(S, S, tmp);
}

static void shim(const sacc *a, macc *m)
{
    memset(m, 0, sizeof *m);
    m->present = a->present;
    m->cls = a->cls;
    m->sign = a->sign;
}

static void sacc_from_val(const model *m, sacc *acc, mval v)
{
    macc t;
    model_acc_from_val(m, &t, v);
    acc->present = true;
    acc->cls = t.cls;
    acc->sign = t.sign;
    acc->lsb = t.lsb;
    acc->t = t.t;
    mpz_set_ui(acc->v, (unsigned long)v.sig);
    if (v.sign)
        mpz_neg(acc->v, acc->v);
}

static void step_slow(const model *m, sacc *acc, const mterm *pr, int n, const mstep *st)
{
    macc sh;
    shim(acc, &sh);
    if (model_step_specials(&sh, pr, n)) {
        acc->present = true;
        acc->cls = sh.cls;
        acc->sign = sh.sign;
        return;
    }
    int E = INT_MIN, minlsb = INT_MAX, nz = 0;
    for (int i = 0; i < n; i++) {
        if (pr[i].cls != MV_FINITE)
            continue;
        nz++;
        if (pr[i].t > E)
            E = pr[i].t;
        if (pr[i].lsb < minlsb)
            minlsb = pr[i].lsb;
    }
    bool acc_nz = acc->present && acc->cls == MV_FINITE;
    if (acc_nz) {
        nz++;
        if ((st->acc_in_ref || E == INT_MIN) && acc->t > E)
            E = acc->t;
        if (acc->lsb < minlsb)
            minlsb = acc->lsb;
    }
    if (nz == 0) {
        acc->sign = (uint8_t)model_zero_sign(&sh, pr, n, false, st->rnd);
        acc->cls = MV_ZERO;
        acc->present = true;
        mpz_set_ui(acc->v, 0);
        return;
    }
    int G = minlsb;
    if (st->F != MODEL_EXACT && E - st->F > G)
        G = E - st->F;
    if (st->floored && st->floor > G)
        G = st->floor;
    mpz_t S, tmp, mag;
    mpz_inits(S, tmp, mag, NULL);
    for (int i = 0; i < n; i++) {
        if (pr[i].cls != MV_FINITE)
            continue;
        mpz_set_ui(mag, (unsigned long)pr[i].sig);
        add_onto_grid(S, tmp, pr[i].sign, mag, pr[i].lsb, G, st->align_round);
    }
    if (acc_nz) {
        mpz_abs(mag, acc->v);
        add_onto_grid(S, tmp, acc->sign, mag, acc->lsb, G, st->align_round);
    }
    if (st->carry_bits != MODEL_UNLIMITED) {
        mp_bitcnt_t w = (mp_bitcnt_t)(E + 1 + st->carry_bits - G + 1);
        mpz_fdiv_r_2exp(S, S, w);
        if (mpz_tstbit(S, w - 1)) {
            mpz_set_ui(tmp, 1);
            mpz_mul_2exp(tmp, tmp, w);
            mpz_sub(S, S, tmp);
        }
    }
    acc->present = true;
    if (mpz_sgn(S) == 0) {
        acc->sign = (uint8_t)model_zero_sign(&sh, pr, n, true, st->rnd);
        acc->cls = MV_ZERO;
        mpz_set_ui(acc->v, 0);
    } else if (st->exact) {
        acc->cls = MV_FINITE;
        acc->sign = mpz_sgn(S) < 0;
        mpz_set(acc->v, S);
        acc->lsb = G;
        acc->t = G + (int)mpz_sizeinbase(S, 2) - 1;
    } else {
        int lsb = G;
        bool sticky;
        u128 q = reduce(S, &lsb, &sticky);
        mval v = mfmt_round(&m->acc, mpz_sgn(S) < 0, q, lsb, sticky, st->rnd, m->p.ftz_acc,
                            MODEL_ACC_OVF(&m->p));
        sacc_from_val(m, acc, v);
    }
    mpz_clears(S, tmp, mag, NULL);
}

uint64_t model_dot_slow(const model *m, int k, const mterm *pr, const mterm *ct)
{
    mstep st, cst;
    model_steps_init(m, &st, &cst);
    macc init;
    model_acc_init(m, &init, ct);
    sacc acc;
    mpz_init(acc.v);
    acc.present = init.present;
    acc.cls = init.cls;
    acc.sign = init.sign;
    acc.lsb = init.lsb;
    acc.t = init.t;
    if (init.cls == MV_FINITE) {
        mpz_set_u128(acc.v, init.mag);
        if (init.sign)
            mpz_neg(acc.v, acc.v);
    }
    int block = m->p.block;
    for (int s = 0; s < k; s += block)
        step_slow(m, &acc, pr + s, k - s < block ? k - s : block, &st);
    if (m->p.c_mode == MODEL_C_LAST)
        step_slow(m, &acc, ct, 1, &cst);
    uint64_t d;
    if (!acc.present) {
        d = model_output(m, MV_ZERO, 0, 0, 0, false);
    } else if (acc.cls == MV_FINITE) {
        int lsb = acc.lsb;
        bool sticky;
        u128 q = reduce(acc.v, &lsb, &sticky);
        d = model_output(m, MV_FINITE, acc.sign, q, lsb, sticky);
    } else {
        d = model_output(m, acc.cls, acc.sign, 0, 0, false);
    }
    mpz_clear(acc.v);
    return d;
}
