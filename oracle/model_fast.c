/* The model's int64 kernel: the same arithmetic as model.c for the settings
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
 * roundings outside the normal range) returns to the general path, which
 * recomputes the element from scratch, or calls the model's one rounding
 * routine mfmt_round; the inline roundings below are its common case
 * (64-bit magnitude, result in the normal range) copied, so both agree
 * bit for bit.
 *
 * Operands reach the kernel only through model_decode_operand, which strips
 * the low bits an RZ conversion clears (TF32 read from its FP32 container):
 * the same value with a significand of the used format's width, which is
 * what lets TF32 take kernel_shifted. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
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

/* mfmt_decode (model_fmt.c), inline for the kernel's C. */
static inline mval kdecode(const mfmt *f, uint64_t bits, bool daz)
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

/* mfmt_encode (model_fmt.c) of a finite value with sig != 0, inline. */
static inline uint64_t kencode_finite(const mfmt *f, int sign, uint64_t sig, int e)
{
    int m = f->mbits;
    uint64_t hidden = UINT64_C(1) << m;
    uint64_t biased = sig >= hidden ? (uint64_t)(e + f->bias) : 0;
    uint64_t bits = ((uint64_t)sign << (m + f->ebits)) | (biased << m) | (sig & (hidden - 1));
    return bits << f->shift;
}

/* The common case of mfmt_round (model_fmt.c): x != 0, no sticky, the
 * result's exponent strictly inside the normal range and no overflow.
 * Returns false (nothing written) for every other case: the caller then
 * calls mfmt_round itself. */
static inline bool kround(const mfmt *f, int sign, uint64_t x, int lsb, tc_round mode,
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
        uint64_t rem = x & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
        switch (mode) {
        case TC_RNE: q += rem > half || (rem == half && (q & 1)); break;
        case TC_RNA: q += rem >= half; break;
        case TC_RU: q += rem != 0 && !sign; break;
        case TC_RD: q += rem != 0 && sign; break;
        case TC_RO: q |= rem != 0; break;
        default: break;
        }
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

/* A step's sum (mag != 0) rounded into the accumulator format. */
static inline __attribute__((always_inline)) int acc_round(const model *m, kacc *acc, int sign, uint64_t mag, int lsb)
{
    const model_params *p = &m->p;
    uint64_t q;
    int tl;
    if (kround(&m->acc, sign, mag, lsb, p->acc_round, &q, &tl)) {
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
    *cv = kdecode(&m->cfmt, c, p->ftz_c);
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
        if (kround(&m->out, acc.sign, acc.sig, acc.lsb, p->out_round, &q, &tl)) {
            *out = kencode_finite(&m->out, acc.sign, q, tl + m->out.mbits);
            return 0;
        }
    }
    *out = model_output(m, acc.cls, acc.sign, acc.sig, acc.lsb, false);
    return 0;
}

/* ---- kernel_shifted ---- */

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

#if defined(__x86_64__) && defined(__GNUC__)
#define KERNEL_AVX512 1
#include <immintrin.h>
#define TARGET_AVX512 __attribute__((target("avx512f,avx512cd,avx512vl,avx512dq,avx512bw")))

_Static_assert(sizeof(mdec) == 12 && offsetof(mdec, lsb) == 4 && offsetof(mdec, e) == 6 &&
                   offsetof(mdec, cls) == 8 && offsetof(mdec, sign) == 9,
               "step_avx512 reads mdec as three 32-bit words");

/* n (1..8) mdecs as 8 lanes: sig, the word lsb|e<<16 and the word cls|sign<<8
 * (its two padding bytes are masked off). Lanes past n read as 0. */
static inline TARGET_AVX512 __attribute__((always_inline)) void load8(const mdec *p, int n, __m256i *sig,
                                                                       __m256i *w1, __m256i *w2)
{
    int d = 3 * n;
    __mmask16 m0 = d >= 16 ? 0xFFFF : (__mmask16)((1u << d) - 1);
    __mmask16 m1 = d > 16 ? (__mmask16)((1u << (d - 16)) - 1) : 0;
    const int *q = (const int *)(const void *)p;
    __m512i v0 = _mm512_maskz_loadu_epi32(m0, q);
    __m512i v1 = _mm512_maskz_loadu_epi32(m1, q + 16);
    const __m512i i0 = _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m512i one = _mm512_set1_epi32(1), two = _mm512_set1_epi32(2);
    *sig = _mm512_castsi512_si256(_mm512_permutex2var_epi32(v0, i0, v1));
    *w1 = _mm512_castsi512_si256(_mm512_permutex2var_epi32(v0, _mm512_add_epi32(i0, one), v1));
    *w2 = _mm512_castsi512_si256(_mm512_permutex2var_epi32(v0, _mm512_add_epi32(i0, two), v1));
}

/* step_scalar on 8 products at a time (n <= 64 by m->fast). Shifts of 64
 * and more give 0 (vpsrlvq) or the sign (vpsravq), so nothing is clamped;
 * zero products are masked out of the sum. */
static inline TARGET_AVX512 __attribute__((always_inline)) int
step_avx512_t(int n, const mdec *x, const mdec *y, int F, int CS, int acc_t, int *Eo, int64_t *So,
              int AR, bool NORM, int NC)
{
    /* initialised only to keep -Wmaybe-uninitialized quiet: chunks past nc are not read */
    __m512i X[8] = {0}, L[8] = {0}, NEG[8] = {0};
    __mmask8 NZ[8] = {0};
    const int64_t none = INT64_MIN / 2;
    __m512i Ev = _mm512_set1_epi64(none);
    __m256i flags = _mm256_setzero_si256();
    /* NC: a constant number of chunks (registers, no loop), or 8: as many as n needs */
    int nc = NC < 8 ? NC : (n + 7) / 8;
#pragma GCC unroll 8
    for (int j = 0; j < nc; j++) {
        int cnt = n - 8 * j < 8 ? n - 8 * j : 8;
        cnt = cnt < 0 ? 0 : cnt;
        __m256i sa, w1a, w2a, sb, w1b, w2b;
        load8(x + 8 * j, cnt, &sa, &w1a, &w2a);
        load8(y + 8 * j, cnt, &sb, &w1b, &w2b);
        flags = _mm256_or_si256(flags, _mm256_or_si256(w2a, w2b));
        __m512i pr = _mm512_mul_epu32(_mm512_cvtepu32_epi64(sa), _mm512_cvtepu32_epi64(sb));
        __mmask8 nz = _mm512_test_epi64_mask(pr, pr);
        __m256i l32 = _mm256_add_epi32(_mm256_srai_epi32(_mm256_slli_epi32(w1a, 16), 16),
                                       _mm256_srai_epi32(_mm256_slli_epi32(w1b, 16), 16));
        __m512i l = _mm512_cvtepi32_epi64(l32);
        __m512i r;
        if (NORM)
            r = _mm512_sub_epi64(_mm512_add_epi64(l, _mm512_set1_epi64(63)), _mm512_lzcnt_epi64(pr));
        else
            r = _mm512_cvtepi32_epi64(_mm256_add_epi32(_mm256_srai_epi32(w1a, 16), _mm256_srai_epi32(w1b, 16)));
        Ev = _mm512_mask_max_epi64(Ev, nz, Ev, r);
        __m256i sg = _mm256_and_si256(_mm256_srli_epi32(_mm256_xor_si256(w2a, w2b), 8), _mm256_set1_epi32(1));
        X[j] = _mm512_slli_epi64(pr, (unsigned)CS);
        L[j] = l;
        NEG[j] = _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_cvtepu32_epi64(sg));
        NZ[j] = nz;
    }
    if (_mm256_test_epi32_mask(flags, _mm256_set1_epi32(2)))   /* Inf or NaN */
        return BAIL;
    int64_t e64 = _mm512_reduce_max_epi64(Ev);
    bool prods = e64 != none;
    int E = prods ? (int)e64 : INT_MIN;
    E = acc_t > E ? acc_t : E;
    if (E == INT_MIN)
        return 1;
    *Eo = E;
    int64_t S = 0;
    if (prods) {
        __m512i base = _mm512_set1_epi64((int64_t)E - F + CS), Sv = _mm512_setzero_si512();
#pragma GCC unroll 8
        for (int j = 0; j < nc; j++) {
            __m512i sh = _mm512_sub_epi64(base, L[j]), v;
            if (AR == MODEL_ALIGN_FLOOR) {
                v = _mm512_srav_epi64(_mm512_sub_epi64(_mm512_xor_si512(X[j], NEG[j]), NEG[j]), sh);
            } else {
                __m512i q = _mm512_srlv_epi64(X[j], sh);
                if (AR == MODEL_ALIGN_RNE) {
                    /* (X + half - 1 + (q & 1)) >> sh; half = 0 for sh >= 65 */
                    __m512i one = _mm512_set1_epi64(1);
                    __m512i half = _mm512_sllv_epi64(one, _mm512_sub_epi64(sh, one));
                    __m512i t = _mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(X[j], half), one),
                                                 _mm512_and_si512(q, one));
                    q = _mm512_srlv_epi64(t, sh);
                }
                v = _mm512_sub_epi64(_mm512_xor_si512(q, NEG[j]), NEG[j]);
            }
            Sv = _mm512_mask_add_epi64(Sv, NZ[j], Sv, v);
        }
        S = _mm512_reduce_add_epi64(Sv);
    }
    *So = S;
    return 0;
}

#define STEP_AVX512(AR, NORM)                                                                   \
    (n <= 16 ? step_avx512_t(n, x, y, F, CS, acc_t, Eo, So, AR, NORM, 2)                        \
             : step_avx512_t(n, x, y, F, CS, acc_t, Eo, So, AR, NORM, 8))

static TARGET_AVX512 int step_avx512(int n, const mdec *x, const mdec *y, int F, int CS, int acc_t,
                                     int *Eo, int64_t *So, int AR, bool NORM)
{
    switch (AR * 2 + NORM) {
    case MODEL_ALIGN_TRUNC * 2: return STEP_AVX512(MODEL_ALIGN_TRUNC, false);
    case MODEL_ALIGN_TRUNC * 2 + 1: return STEP_AVX512(MODEL_ALIGN_TRUNC, true);
    case MODEL_ALIGN_FLOOR * 2: return STEP_AVX512(MODEL_ALIGN_FLOOR, false);
    case MODEL_ALIGN_FLOOR * 2 + 1: return STEP_AVX512(MODEL_ALIGN_FLOOR, true);
    case MODEL_ALIGN_RNE * 2: return STEP_AVX512(MODEL_ALIGN_RNE, false);
    default: return STEP_AVX512(MODEL_ALIGN_RNE, true);
    }
}

/* Whether the CPU runs step_avx512; TC_MODEL_SCALAR=1 in the environment
 * keeps the scalar loops (to test them on such a CPU). Set before main. */
static bool use_avx512;

__attribute__((constructor)) static void kernel_cpu_init(void)
{
    __builtin_cpu_init();
    const char *e = getenv("TC_MODEL_SCALAR");
    use_avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                 __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512bw") && !(e && *e && strcmp(e, "0"));
}
#else
#define KERNEL_AVX512 0
#endif

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
            rc = step_avx512(n, x, y, F, CS, acc_t, &E, &S, AR, NORM);
        else
#endif
            rc = step_scalar(n, x, y, F, CS, acc_t, &E, &S, AR, NORM);
        if (rc < 0)
            return BAIL;
        if (rc == 1 && acc_nz) {   /* no nonzero product: the accumulator is the reference */
            E = acc.t;
            rc = 0;
        }
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
        if (use_avx512)
            return kernel_shifted_simd(m, k, a, b, c, out);
#endif
        return kernel_shifted_scalar(m, k, a, b, c, out);
    }
    return kernel_general(m, k, a, b, c, out);
}

/* ---- decoding operands ---- */

/* model_direct_decode's constants for one operand. */
typedef struct {
    int mb, eb, drop, bias, emin;
    uint64_t fmask, keep;
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
    frac = (frac & k->keep) >> k->drop;
    int mb = k->mb - k->drop;
    if (ef == 0) {
        if (frac == 0 || k->ftz) {
            d.cls = MV_ZERO;
            return d;
        }
        d.cls = MV_FINITE;
        d.sig = (uint32_t)frac;
        d.e = (int16_t)k->emin;
    } else {
        d.cls = MV_FINITE;
        d.sig = (uint32_t)(frac | (UINT64_C(1) << mb));
        d.e = (int16_t)((int)ef - k->bias);
    }
    d.lsb = (int16_t)(d.e - mb);
    return d;
}

void model_decode_operand(const model *m, int w, size_t n, size_t stride, const uint64_t *bits,
                          mdec *out)
{
    if (m->direct[w]) {
        kdirect d = kdirect_make(m, w);
        for (size_t i = 0; i < n; i++)
            out[i] = kdirect_decode(&d, bits[i * stride]);
    } else if (m->tab[w]) {
        const mdec *tab = m->tab[w];
        uint64_t mask = m->mask_ab[w];
        for (size_t i = 0; i < n; i++)
            out[i] = tab[bits[i * stride] & mask];
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
