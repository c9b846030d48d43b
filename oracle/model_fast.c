/* The model's int64 kernel: the same arithmetic as model.c for the settings
 * real tensor cores are suspected to have (finite alignment of at most ~55
 * bits, an accumulator format, no wrap-around), on finite inputs.
 *
 * Every term is held left-aligned (leading bit at bit 62) with its
 * normalized exponent tn; with E the reference exponent and F the kept
 * fraction bits, its value on the grid 2^(E-F) is X >> (62 - F + E - tn),
 * always a right shift since tn <= E + 1. Anything else (NaN/Inf,
 * an accumulator above the reference, overflow) returns to the general
 * path, which recomputes the element from scratch. */
#include <limits.h>
#include <string.h>

#include "oracle/model_internal.h"

#define BAIL (-1)

typedef struct {
    uint8_t cls, sign;
    uint64_t sig;
    int lsb, t;
} kacc;

static void kacc_from_val(const model *m, kacc *acc, mval v)
{
    acc->cls = v.cls;
    acc->sign = v.sign;
    acc->sig = v.sig;
    acc->lsb = v.lsb;
    acc->t = model_ref_exp(m, v);
}

/* Products of one step into X/tn/sg; returns the number of nonzero ones or
 * BAIL. *E gets the largest reference exponent, zero signs go to zpos/zneg. */
static inline int step_products(const model *m, int n, const mdec *a, const mdec *b,
                                int64_t *X, int *tn, int *sg, int *E, bool *zpos, bool *zneg)
{
    const int flush = m->p.prod_flush_exp;
    const bool nominal = m->p.exp_ref == MODEL_EXP_NOMINAL;
    int nz = 0, e = INT_MIN, flags = 0;
    bool zp = false, zn = false;
    for (int i = 0; i < n; i++) {
        mdec x = a[i], y = b[i];
        flags |= x.cls | y.cls;
        /* a zero or special input decodes with sig 0: its product is 0 */
        uint64_t p = (uint64_t)x.sig * y.sig;
        int s = x.sign ^ y.sign;
        int lz = __builtin_clzll(p | 1);
        int t = x.lsb + y.lsb + 63 - lz;
        if (p == 0 || t < flush) {
            zp |= !s;
            zn |= s;
            continue;
        }
        X[nz] = (int64_t)(p << (lz - 1));
        tn[nz] = t;
        sg[nz] = s;
        int r = nominal ? x.e + y.e : t;
        e = r > e ? r : e;
        nz++;
    }
    if (flags & 2)   /* Inf or NaN */
        return BAIL;
    *zpos |= zp;
    *zneg |= zn;
    *E = e;
    return nz;
}

/* Branch-free: the signs of products are random, so a branch mispredicts
 * half the time. */
static inline int64_t sum_trunc(int nz, const int64_t *X, const int *tn, const int *sg, int base)
{
    int64_t S = 0;
    for (int i = 0; i < nz; i++) {
        int sh = base - tn[i];
        sh = sh > 63 ? 63 : sh;
        int64_t v = X[i] >> sh, neg = -(int64_t)sg[i];
        S += (v ^ neg) - neg;
    }
    return S;
}

static inline int64_t sum_floor(int nz, const int64_t *X, const int *tn, const int *sg, int base)
{
    int64_t S = 0;
    for (int i = 0; i < nz; i++) {
        int sh = base - tn[i];
        sh = sh > 63 ? 63 : sh;
        int64_t neg = -(int64_t)sg[i];
        S += ((X[i] ^ neg) - neg) >> sh;   /* arithmetic shift: floor */
    }
    return S;
}

static inline int64_t sum_rne(int nz, const int64_t *X, const int *tn, const int *sg, int base)
{
    int64_t S = 0;
    for (int i = 0; i < nz; i++) {
        int sh = base - tn[i];
        uint64_t x = (uint64_t)X[i], q = 0;
        if (sh < 64) {
            q = x >> sh;
            uint64_t rem = x & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
            q += rem > half || (rem == half && (q & 1));
        }
        S += sg[i] ? -(int64_t)q : (int64_t)q;
    }
    return S;
}

int model_kernel(const model *m, int k, const mdec *a, const mdec *b, uint64_t c, uint64_t *out)
{
    const model_params *p = &m->p;
    const int F = p->align_bits;
    mval cv = mfmt_decode(&m->cfmt, c, p->ftz_c);
    if (cv.cls >= MV_INF)
        return BAIL;
    kacc acc = {0};
    bool present = p->c_mode == MODEL_C_FIRST;
    if (present) {
        if (cv.cls == MV_ZERO || m->c_is_acc) {
            kacc_from_val(m, &acc, cv);
        } else {
            mval v = mfmt_round(&m->acc, cv.sign, cv.sig, cv.lsb, false, p->acc_round, p->ftz_acc,
                                MODEL_ACC_OVF(p));
            if (v.cls >= MV_INF)
                return BAIL;
            kacc_from_val(m, &acc, v);
        }
    }
    int64_t X[65];
    int tn[65];
    int sg[65];
    const int block = p->block;
    for (int s = 0; s < k; s += block) {
        int n = k - s < block ? k - s : block;
        bool zpos = false, zneg = false;
        int E;
        int nz = step_products(m, n, a + s, b + s, X, tn, sg, &E, &zpos, &zneg);
        if (nz < 0)
            return BAIL;
        if (present) {
            if (acc.cls == MV_FINITE) {
                int lz = __builtin_clzll(acc.sig);
                X[nz] = (int64_t)(acc.sig << (lz - 1));
                tn[nz] = acc.lsb + 63 - lz;
                sg[nz] = acc.sign;
                if ((p->align_with_acc || E == INT_MIN) && acc.t > E)
                    E = acc.t;
                if (tn[nz] > E + 1)
                    return BAIL;   /* far above the reference: needs left shifts */
                nz++;
            } else {
                zpos |= !acc.sign;
                zneg |= acc.sign;
            }
        }
        present = true;
        int64_t S = 0;
        if (nz) {
            int base = 62 - F + E;
            switch (p->align_round) {
            case MODEL_ALIGN_TRUNC: S = sum_trunc(nz, X, tn, sg, base); break;
            case MODEL_ALIGN_FLOOR: S = sum_floor(nz, X, tn, sg, base); break;
            default: S = sum_rne(nz, X, tn, sg, base); break;
            }
        }
        if (S == 0) {
            acc.cls = MV_ZERO;
            acc.sign = (!nz && zneg && !zpos) || ((nz || (zneg && zpos)) && p->acc_round == TC_RD);
            continue;
        }
        int sign = S < 0;
        uint64_t mag = sign ? (uint64_t)(-S) : (uint64_t)S;
        mval v = mfmt_round(&m->acc, sign, mag, E - F, false, p->acc_round, p->ftz_acc, MODEL_ACC_OVF(p));
        if (v.cls >= MV_INF)
            return BAIL;
        kacc_from_val(m, &acc, v);
    }
    if (p->c_mode == MODEL_C_LAST) {
        /* one exact addition acc + C, rounded once with c_round */
        if (!present) {
            acc.cls = MV_ZERO;
            acc.sign = 0;
        }
        if (cv.cls == MV_ZERO && acc.cls == MV_ZERO) {
            acc.sign = acc.sign == cv.sign ? acc.sign : p->c_round == TC_RD;
            if (!present)
                acc.sign = cv.sign;
        } else if (cv.cls == MV_ZERO) {
            /* acc unchanged */
        } else {
            int lo = acc.cls == MV_FINITE && acc.lsb < cv.lsb ? acc.lsb : cv.lsb;
            if ((acc.cls == MV_FINITE && acc.lsb + 64 - lo > 120) || cv.lsb + 64 - lo > 120)
                return BAIL;
            i128 S = (i128)((u128)cv.sig << (cv.lsb - lo));
            if (cv.sign)
                S = -S;
            if (acc.cls == MV_FINITE) {
                i128 t = (i128)((u128)acc.sig << (acc.lsb - lo));
                S += acc.sign ? -t : t;
            }
            if (S == 0) {
                acc.cls = MV_ZERO;
                acc.sign = p->c_round == TC_RD;
            } else {
                int sign = S < 0;
                mval v = mfmt_round(&m->acc, sign, sign ? (u128)(-S) : (u128)S, lo, false,
                                    p->c_round, p->ftz_acc, MODEL_ACC_OVF(p));
                if (v.cls >= MV_INF)
                    return BAIL;
                kacc_from_val(m, &acc, v);
            }
        }
    }
    if (!present && p->c_mode != MODEL_C_LAST) {
        acc.cls = MV_ZERO;
        acc.sign = 0;
    }
    /* A finite accumulator already in the output format needs no rounding. */
    if (m->acc_is_out && acc.cls == MV_FINITE) {
        mval v = {MV_FINITE, acc.sign, acc.lsb, 0, acc.sig};
        v.e = acc.sig >> m->out.mbits ? acc.lsb + m->out.mbits : m->out.emin;
        *out = mfmt_encode(&m->out, v);
        return 0;
    }
    *out = model_output(m, acc.cls, acc.sign, acc.sig, acc.lsb, false);
    return 0;
}

void model_decode_operand(const model *m, int w, size_t n, size_t stride, const uint64_t *bits,
                          mdec *out)
{
    if (m->direct[w]) {
        const mfmt *f = w ? &m->src_b : &m->src_a;
        bool ftz = w ? m->p.ftz_b : m->p.ftz_a;
        for (size_t i = 0; i < n; i++)
            out[i] = model_direct_decode(f, bits[i * stride], m->keep[w], ftz);
    } else if (m->tab[w]) {
        for (size_t i = 0; i < n; i++)
            out[i] = m->tab[w][bits[i * stride] & m->mask_ab[w]];
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = model_input_decode(m, w, bits[i * stride]);
    }
}

uint64_t model_dot(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    uint64_t d;
    if (m->fast && !model_force_slow && k <= 256) {
        mdec da[256], db[256];
        model_decode_operand(m, 0, (size_t)k, 1, a, da);
        model_decode_operand(m, 1, (size_t)k, 1, b, db);
        if (model_kernel(m, k, da, db, c, &d) == 0)
            return d;
    }
    return model_dot_generic(m, k, a, b, c);
}
