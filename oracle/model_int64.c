/* The model's int64 kernel: the reference's arithmetic (model_reference.c) for the settings
 * real tensor cores are suspected to have (finite alignment of at most ~55
 * bits, an accumulator format, no wrap-around), on finite inputs.
 *
 * Two forms of the same arithmetic, chosen per call from the params (a few
 * compares; the model stays immutable, so nothing is cached in it):
 *
 *  - kernel_shifted, the tensor-core case (nominal reference exponents, no
 *    product flush, operand significands narrow enough: see nominal_ok).
 *    One pass over the exponent fields finds the reference exponent E of
 *    the step, a second multiplies, shifts each product onto the grid
 *    2^(E-F) and sums, branch-free. No product is normalised: a product of
 *    significands p with lsb L is held as p << CS (CS = 62 - Wa - Wb, W
 *    the widest significands) and its value on the grid is
 *    (p << CS) >> (E - F + CS - L), a right shift of at least 1 because
 *    |a| < 2^(ea+1), |b| < 2^(eb+1) put its leading bit at most at E + 1.
 *    Instantiated once per align_round, so the inner loop has no branch on
 *    a parameter.
 *  - kernel_general, every other kernel-eligible setting: every term held
 *    left-aligned (leading bit at bit 62) with its normalized exponent tn;
 *    its value on the grid is X >> (62 - F + E - tn).
 *
 * Anything else (NaN/Inf, an accumulator above the reference, overflow,
 * roundings outside the normal range) returns BAIL, and model_dot
 * recomputes the element on the general path. Roundings into a format go
 * through mfmt_round_normal / mfmt_round (model_fmt.c, the model's one
 * rounding); the cuts onto the grid are branch-free forms of
 * model_round_up, checked against the reference bit for bit by
 * tests/test_model_reference.c.
 *
 * kernel_shifted's step has an AVX-512 form (model_avx512.c), which also
 * holds model_mma's whole-tile kernel.
 *
 * Operands reach the kernel only through model_decode_operand
 * (model_decode.c; or direct8, its kdirect_decode on 8 lanes, in
 * model_tile), which strips the low bits
 * an RZ conversion clears (TF32 read from its FP32 container): the same
 * value with a significand of the used format's width, which is what lets
 * TF32 take kernel_shifted. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model_kernel.h"

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

/* mfmt_encode (model_fmt.c) of a finite value with sig != 0, inline. */
static inline uint64_t kencode_finite(const mfmt *f, int sign, uint64_t sig, int e)
{
    int m = f->mbits;
    uint64_t hidden = UINT64_C(1) << m;
    uint64_t biased = sig >= hidden ? (uint64_t)(e + f->bias) : 0;
    uint64_t bits = ((uint64_t)sign << (m + f->ebits)) | (biased << m) | (sig & (hidden - 1));
    return bits << f->shift;
}

/* A step's sum (mag != 0) rounded into the accumulator format. */
static inline __attribute__((always_inline)) int acc_round(const model *m, kacc *acc, int sign, uint64_t mag, int lsb)
{
    const model_params *p = &m->p;
    uint64_t q;
    int tl;
    if (mfmt_round_normal(&m->acc, sign, mag, lsb, p->acc_round, &q, &tl)) {
        /* a normal result: its exponent field is also its leading bit's */
        acc->cls = MV_FINITE;
        acc->sign = (uint8_t)sign;
        acc->sig = q;
        acc->lsb = tl;
        acc->t = tl + m->acc.mbits;
        return 0;
    }
    mval v = mfmt_round(&m->acc, sign, mag, lsb, false, p->acc_round, p->ftz_acc, MODEL_ACC_OVF(p));
    if (v.cls >= MV_INF)
        return BAIL;
    kacc_from_val(m, acc, v);
    return 0;
}

/* C decoded, and for C_FIRST the accumulator before the first step. */
static inline __attribute__((always_inline)) int kernel_start(const model *m, uint64_t c, mval *cv, kacc *acc, bool *present)
{
    const model_params *p = &m->p;
    *cv = mfmt_decode_inline(&m->cfmt, c, p->ftz_c);
    if (cv->cls >= MV_INF)
        return BAIL;
    memset(acc, 0, sizeof *acc);
    *present = p->c_mode == MODEL_C_FIRST;
    if (*present) {
        /* C already in the accumulator's format is taken as is, unless a
         * subnormal C would be flushed (ftz_acc) by that rounding */
        if (cv->cls == MV_ZERO || (m->c_is_acc && !p->ftz_acc)) {
            kacc_from_val(m, acc, *cv);
        } else {
            mval v = mfmt_round(&m->acc, cv->sign, cv->sig, cv->lsb, false, p->acc_round, p->ftz_acc,
                                MODEL_ACC_OVF(p));
            if (v.cls >= MV_INF)
                return BAIL;
            kacc_from_val(m, acc, v);
        }
    }
    return 0;
}

/* After the steps: C added last if so, then the output rounding. */
static inline __attribute__((always_inline)) int kernel_finish(const model *m, mval cv, kacc acc, bool present, uint64_t *out)
{
    const model_params *p = &m->p;
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
    if (acc.cls == MV_FINITE) {
        /* A finite accumulator already in the output format needs no rounding. */
        if (m->acc_is_out) {
            int e = acc.sig >> m->out.mbits ? acc.lsb + m->out.mbits : m->out.emin;
            *out = kencode_finite(&m->out, acc.sign, acc.sig, e);
            return 0;
        }
        uint64_t q;
        int tl;
        if (mfmt_round_normal(&m->out, acc.sign, acc.sig, acc.lsb, p->out_round, &q, &tl)) {
            *out = kencode_finite(&m->out, acc.sign, q, tl + m->out.mbits);
            return 0;
        }
    }
    *out = model_output(m, acc.cls, acc.sign, acc.sig, acc.lsb, false);
    return 0;
}


/* ---- kernel_shifted ---- */

/* X (< 2^62) >> sh (1..63) onto the grid with align_round AR, signed. */
static inline __attribute__((always_inline)) int64_t onto_grid(uint64_t X, unsigned sh, unsigned sign,
                                                               int AR)
{
    int64_t neg = -(int64_t)sign;
    if (AR == MODEL_ALIGN_FLOOR)
        return ((int64_t)(X ^ (uint64_t)neg) - neg) >> sh;   /* arithmetic: floor */
    uint64_t q;
    if (AR == MODEL_ALIGN_TRUNC)
        q = X >> sh;
    else   /* RNE: adding half - 1 + (q & 1) carries exactly when q must go up */
        q = (X + (UINT64_C(1) << (sh - 1)) - 1 + ((X >> sh) & 1)) >> sh;
    return ((int64_t)q ^ neg) - neg;
}

/* Zero signs of a step with no nonzero term (IEEE: one sign kept, mixed +0,
 * or -0 when rounding down). */
static int zero_step_sign(const model *m, int n, const mdec *a, const mdec *b, const kacc *acc,
                          bool present)
{
    bool zp = false, zn = false;
    for (int i = 0; i < n; i++) {
        int s = a[i].sign ^ b[i].sign;
        zp |= !s;
        zn |= s;
    }
    if (present) {
        zp |= !acc->sign;
        zn |= acc->sign;
    }
    return (zn && !zp) || (zn && zp && m->p.acc_round == TC_RD);
}

/* The products of one step: E (the step's reference exponent, the
 * accumulator's t counted as the params say) and S (the products' sum on
 * the grid 2^(E-F)). Returns 0, 1 when no term is nonzero (E undefined),
 * BAIL on Inf/NaN. */
static inline __attribute__((always_inline)) int step_scalar(int n, const mdec *x, const mdec *y, int F,
                                                             int CS, int acc_t, int *Eo, int64_t *So,
                                                             int AR, bool NORM)
{
    int E = INT_MIN;
    unsigned flags = 0;
    if (NORM) {
        for (int i = 0; i < n; i++) {
            flags |= x[i].cls | y[i].cls;
            uint64_t pr = (uint64_t)x[i].sig * y[i].sig;
            int r = pr ? x[i].lsb + y[i].lsb + 63 - __builtin_clzll(pr | 1) : INT_MIN;
            E = r > E ? r : E;
        }
    } else {
        for (int i = 0; i < n; i++) {
            unsigned ca = x[i].cls, cb = y[i].cls;
            flags |= ca | cb;
            int r = (ca & cb & 1) ? x[i].e + y[i].e : INT_MIN;
            E = r > E ? r : E;
        }
    }
    if (flags & 2)   /* Inf or NaN */
        return BAIL;
    bool prods = E != INT_MIN;
    E = acc_t > E ? acc_t : E;
    if (E == INT_MIN)
        return 1;
    *Eo = E;
    int64_t S = 0;
    if (prods) {
        int base = E - F + CS;
        for (int i = 0; i < n; i++) {
            uint64_t pr = (uint64_t)x[i].sig * y[i].sig;   /* 0 for a zero input */
            /* a zero product may have any shift: clamped to 1..63, it stays 0 */
            unsigned sh = (unsigned)(base - (x[i].lsb + y[i].lsb)) - 1u;
            sh = (sh > 62u ? 62u : sh) + 1u;
            S += onto_grid(pr << CS, sh, (unsigned)(x[i].sign ^ y[i].sign), AR);
        }
    }
    *So = S;
    return 0;
}


static inline __attribute__((always_inline)) int kernel_shifted(const model *m, int k, const mdec *a,
                                                                const mdec *b, uint64_t c,
                                                                uint64_t *out, int AR, bool NORM,
                                                                bool SIMD)
{
    const model_params *p = &m->p;
    const int F = p->align_bits;
    const int CS = 62 - operand_width(m, 0) - operand_width(m, 1);
    const bool with_acc = p->align_with_acc;
    mval cv;
    kacc acc;
    bool present;
    if (kernel_start(m, c, &cv, &acc, &present) != 0)
        return BAIL;
    const int block = p->block;
    for (int s = 0; s < k; s += block) {
        int n = k - s < block ? k - s : block;
        const mdec *x = a + s, *y = b + s;
        bool acc_nz = present && acc.cls == MV_FINITE;
        /* the accumulator's t counts when align_with_acc, or alone */
        int acc_t = acc_nz && with_acc ? acc.t : INT_MIN;
        int E = INT_MIN, rc;
        int64_t S = 0;
#if KERNEL_AVX512
        if (SIMD)
            rc = model_step_avx512(n, x, y, F, CS, acc_t, &E, &S, AR, NORM);
        else
#endif
            rc = step_scalar(n, x, y, F, CS, acc_t, &E, &S, AR, NORM);
        if (rc < 0)
            return BAIL;
        if (rc == 1 && acc_nz) {   /* no nonzero product: the accumulator is the reference */
            E = acc.t;
            rc = 0;
        }
        if (rc == 0 && p->floored && E - F < p->align_floor)
            return BAIL;   /* the grid would go below align_floor: the general path cuts it there */
        if (rc == 1) {   /* no nonzero term: a signed zero */
            acc.sign = (uint8_t)zero_step_sign(m, n, x, y, &acc, present);
            acc.cls = MV_ZERO;
            present = true;
            continue;
        }
        if (acc_nz) {
            /* left-aligned at bit 61: shift 61 - F + E - tn >= 60 - F >= 1 */
            int lz = __builtin_clzll(acc.sig);
            int tn = acc.lsb + 63 - lz;
            if (tn > E + 1)
                return BAIL;   /* far above the reference: needs left shifts */
            int sh = 61 - F + E - tn;
            S += onto_grid(acc.sig << (lz - 2), (unsigned)(sh > 63 ? 63 : sh), acc.sign, AR);
        }
        present = true;
        if (S == 0) {
            acc.cls = MV_ZERO;
            acc.sign = p->acc_round == TC_RD;
            continue;
        }
        int sign = S < 0;
        if (acc_round(m, &acc, sign, sign ? (uint64_t)(-S) : (uint64_t)S, E - F) != 0)
            return BAIL;
    }
    return kernel_finish(m, cv, acc, present, out);
}

/* ---- kernel_general ---- */

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

static int kernel_general(const model *m, int k, const mdec *a, const mdec *b, uint64_t c,
                          uint64_t *out)
{
    const model_params *p = &m->p;
    const int F = p->align_bits;
    mval cv;
    kacc acc;
    bool present;
    if (kernel_start(m, c, &cv, &acc, &present) != 0)
        return BAIL;
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
        if (nz && p->floored && E - F < p->align_floor)
            return BAIL;   /* below align_floor: the general path cuts it there */
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
        if (acc_round(m, &acc, sign, sign ? (uint64_t)(-S) : (uint64_t)S, E - F) != 0)
            return BAIL;
    }
    return kernel_finish(m, cv, acc, present, out);
}

static int kernel_shifted_scalar(const model *m, int k, const mdec *a, const mdec *b, uint64_t c,
                                 uint64_t *out)
{
    bool norm = m->p.exp_ref == MODEL_EXP_NORMALIZED;
    switch (m->p.align_round * 2 + norm) {
    case MODEL_ALIGN_TRUNC * 2: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_TRUNC, false, false);
    case MODEL_ALIGN_TRUNC * 2 + 1: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_TRUNC, true, false);
    case MODEL_ALIGN_FLOOR * 2: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_FLOOR, false, false);
    case MODEL_ALIGN_FLOOR * 2 + 1: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_FLOOR, true, false);
    case MODEL_ALIGN_RNE * 2: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_RNE, false, false);
    default: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_RNE, true, false);
    }
}

#if KERNEL_AVX512
/* The step's products in step_avx512; AR and NORM are dispatched there. */
static int kernel_shifted_simd(const model *m, int k, const mdec *a, const mdec *b, uint64_t c,
                               uint64_t *out)
{
    bool norm = m->p.exp_ref == MODEL_EXP_NORMALIZED;
    switch (m->p.align_round * 2 + norm) {
    case MODEL_ALIGN_TRUNC * 2: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_TRUNC, false, true);
    case MODEL_ALIGN_TRUNC * 2 + 1: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_TRUNC, true, true);
    case MODEL_ALIGN_FLOOR * 2: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_FLOOR, false, true);
    case MODEL_ALIGN_FLOOR * 2 + 1: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_FLOOR, true, true);
    case MODEL_ALIGN_RNE * 2: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_RNE, false, true);
    default: return kernel_shifted(m, k, a, b, c, out, MODEL_ALIGN_RNE, true, true);
    }
}
#endif

int model_kernel(const model *m, int k, const mdec *a, const mdec *b, uint64_t c, uint64_t *out)
{
    if (shifted_ok(m)) {
#if KERNEL_AVX512
        if (model_avx512())
            return kernel_shifted_simd(m, k, a, b, c, out);
#endif
        return kernel_shifted_scalar(m, k, a, b, c, out);
    }
    return kernel_general(m, k, a, b, c, out);
}
