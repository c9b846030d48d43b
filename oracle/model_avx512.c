/* The AVX-512 forms of the int64 kernel (model_int64.c): one step's
 * products on 8 lanes (model_step_avx512, called by kernel_shifted), and
 * model_mma's whole tiles, 8 output columns at a time (model_tile). Each
 * computes what the scalar kernel computes, and so what the reference
 * (model_reference.c) computes: tests/test_model_reference.c checks it.
 * Where the CPU lacks AVX-512 or TC_MODEL_SCALAR=1, neither runs. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model_kernel.h"

#if KERNEL_AVX512
#include <immintrin.h>

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

TARGET_AVX512 int model_step_avx512(int n, const mdec *x, const mdec *y, int F, int CS, int acc_t,
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

/* Whether the CPU runs step_avx512 (cpu_avx512), and whether the model
 * uses it: TC_MODEL_SCALAR=1 in the environment, or model_avx512_set,
 * keeps the scalar loops (to test them on such a CPU). Set before main. */
static bool cpu_avx512, use_avx512;

__attribute__((constructor)) static void kernel_cpu_init(void)
{
    __builtin_cpu_init();
    const char *e = getenv("TC_MODEL_SCALAR");
    cpu_avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                 __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512bw");
    use_avx512 = cpu_avx512 && !(e && *e && strcmp(e, "0"));
}

bool model_avx512(void)
{
    return use_avx512;
}

bool model_avx512_set(bool on)
{
    use_avx512 = on && cpu_avx512;
    return use_avx512;
}

/* ---- whole tiles, 8 output columns at a time ---- */

/* model_mma's tiles on the AVX-512 form of kernel_shifted with C_FIRST and
 * C taken into the accumulator as is (c_is_acc, no ftz_acc): the common
 * case of the tensor-core settings. Each tile's operands are decoded once,
 * into 64-bit fields (A by rows, B by chunks of 8 columns, lane = column),
 * and the 8 lanes carry 8 output elements of one row through the same
 * steps as kernel_shifted: the reductions over k are vertical (no
 * transposition, no horizontal sum), and the accumulator rounding and the
 * output encoding are done on the 8 lanes at once. A lane that leaves the
 * common case (an Inf/NaN C, no nonzero term, an accumulator far above the
 * reference, a rounding kround declines, a zero result) is marked in `left`
 * for the caller to compute with model_dot; a tile with an Inf/NaN operand
 * is left whole. So the lanes only ever produce what kernel_shifted would
 * (TC_MODEL_SCALAR=1 turns this path off with the rest of the AVX-512
 * code). */

/* The accumulator, C, output format's constants as lanes. */
typedef struct {
    int m, eb, bias, shift, emin, emax;
    uint64_t maxsig;
} ktfmt;

static ktfmt ktfmt_make(const mfmt *f)
{
    ktfmt t = {f->mbits, f->ebits, f->bias, f->shift, f->emin, f->emax, f->maxsig};
    return t;
}

/* kround on lanes (x != 0 in every lane of `live`): *q, *tl where it
 * succeeds; the returned mask holds the lanes where it does. */
static inline TARGET_AVX512 __attribute__((always_inline)) __mmask8
kround8(const ktfmt *f, __mmask8 live, __m512i sign, __m512i x, __m512i lsb, tc_round mode,
        __m512i *qo, __m512i *tlo)
{
    const __m512i one = _mm512_set1_epi64(1), zero = _mm512_setzero_si512();
    __m512i n = _mm512_sub_epi64(_mm512_set1_epi64(64), _mm512_lzcnt_epi64(x));
    __m512i e = _mm512_sub_epi64(_mm512_add_epi64(lsb, n), one);
    __mmask8 ok = _mm512_mask_cmpgt_epi64_mask(live, e, _mm512_set1_epi64(f->emin));
    ok = _mm512_mask_cmplt_epi64_mask(ok, e, _mm512_set1_epi64(f->emax));
    __m512i sh = _mm512_sub_epi64(n, _mm512_set1_epi64(f->m + 1));
    __m512i shp = _mm512_max_epi64(sh, zero), shn = _mm512_max_epi64(_mm512_sub_epi64(zero, sh), zero);
    __m512i tl = _mm512_add_epi64(lsb, sh);
    __m512i q = _mm512_srlv_epi64(x, shp);
    __mmask8 rm = _mm512_cmpgt_epi64_mask(sh, zero);   /* lanes with bits shifted out */
    if (mode != TC_RZ) {
        __m512i bit = _mm512_sllv_epi64(one, shp);
        __m512i rem = _mm512_and_si512(x, _mm512_sub_epi64(bit, one));
        __m512i half = _mm512_srli_epi64(bit, 1);
        __mmask8 nzr = _mm512_mask_test_epi64_mask(rm, rem, rem), inc = 0;
        __mmask8 neg = _mm512_test_epi64_mask(sign, sign);
        switch (mode) {
        case TC_RNE:
            inc = _mm512_mask_cmpgt_epu64_mask(rm, rem, half) |
                  (_mm512_mask_cmpeq_epu64_mask(rm, rem, half) & _mm512_test_epi64_mask(q, one));
            break;
        case TC_RNA: inc = _mm512_mask_cmpge_epu64_mask(rm, rem, half); break;
        case TC_RU: inc = nzr & (__mmask8)~neg; break;
        case TC_RD: inc = nzr & neg; break;
        case TC_RO: q = _mm512_mask_or_epi64(q, nzr, q, one); break;
        default: break;
        }
        q = _mm512_mask_add_epi64(q, inc, q, one);
        __mmask8 carry = _mm512_test_epi64_mask(_mm512_srli_epi64(q, (unsigned)(f->m + 1)),
                                                _mm512_srli_epi64(q, (unsigned)(f->m + 1)));
        q = _mm512_mask_srli_epi64(q, carry, q, 1);
        tl = _mm512_mask_add_epi64(tl, carry, tl, one);
    }
    q = _mm512_sllv_epi64(q, shn);
    __m512i ve = _mm512_add_epi64(tl, _mm512_set1_epi64(f->m));
    __m512i emax = _mm512_set1_epi64(f->emax);
    __mmask8 bad = _mm512_cmpgt_epi64_mask(ve, emax) |
                   (_mm512_cmpeq_epi64_mask(ve, emax) &
                    _mm512_cmpgt_epu64_mask(q, _mm512_set1_epi64((int64_t)f->maxsig)));
    *qo = q;
    *tlo = tl;
    return ok & (__mmask8)~bad;
}

/* kencode_finite on lanes: sig with its leading bit at or below bit m, e. */
static inline TARGET_AVX512 __attribute__((always_inline)) __m512i
kencode8(const ktfmt *f, __m512i sign, __m512i sig, __m512i e)
{
    __m512i hidden = _mm512_set1_epi64((int64_t)1 << f->m);
    __mmask8 normal = _mm512_cmpge_epu64_mask(sig, hidden);
    __m512i biased = _mm512_maskz_add_epi64(normal, e, _mm512_set1_epi64(f->bias));
    __m512i bits = _mm512_or_si512(_mm512_slli_epi64(sign, (unsigned)(f->m + f->eb)),
                                   _mm512_slli_epi64(biased, (unsigned)f->m));
    bits = _mm512_or_si512(bits, _mm512_and_si512(sig, _mm512_sub_epi64(hidden, _mm512_set1_epi64(1))));
    return _mm512_slli_epi64(bits, (unsigned)f->shift);
}

/* onto_grid on lanes: X (< 2^62) >> sh (>= 1), signed by neg (0 or -1). */
static inline TARGET_AVX512 __attribute__((always_inline)) __m512i onto_grid8(__m512i X, __m512i sh,
                                                                               __m512i neg, int AR)
{
    if (AR == MODEL_ALIGN_FLOOR)
        return _mm512_srav_epi64(_mm512_sub_epi64(_mm512_xor_si512(X, neg), neg), sh);
    __m512i q = _mm512_srlv_epi64(X, sh);
    if (AR == MODEL_ALIGN_RNE) {
        /* (X + half - 1 + (q & 1)) >> sh; half = 0 for sh >= 65 */
        __m512i one = _mm512_set1_epi64(1);
        __m512i half = _mm512_sllv_epi64(one, _mm512_sub_epi64(sh, one));
        __m512i t = _mm512_add_epi64(_mm512_sub_epi64(_mm512_add_epi64(X, half), one),
                                     _mm512_and_si512(q, one));
        q = _mm512_srlv_epi64(t, sh);
    }
    return _mm512_sub_epi64(_mm512_xor_si512(q, neg), neg);
}

/* A decoded tile: one operand's fields as 64-bit lanes. neg is 0 or -1. */
typedef struct {
    int64_t *sig, *lsb, *e, *neg;
} ksoa;

/* The 8 elements D[r][c0 .. c0+7] (lanes past `valid` unused) of one row.
 * Returns the lanes left to the general path; *d gets the others. */
static inline TARGET_AVX512 __attribute__((always_inline)) __mmask8
tile_row8(const model *m, int K, const ksoa *a, const ksoa *b, __mmask8 valid, const uint64_t *C,
          __m512i *d, int AR, bool NORM)
{
    const model_params *p = &m->p;
    const int F = p->align_bits;
    const int CS = 62 - operand_width(m, 0) - operand_width(m, 1);
    const int64_t NONE = INT64_MIN / 2;
    const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi64(1);
    const ktfmt cf = ktfmt_make(&m->cfmt), af = ktfmt_make(&m->acc), of = ktfmt_make(&m->out);

    /* C: kdecode, and kacc_from_val (c_is_acc, no ftz_acc) */
    __m512i c = _mm512_srli_epi64(_mm512_maskz_loadu_epi64(valid, C), (unsigned)cf.shift);
    __m512i fm = _mm512_set1_epi64(((int64_t)1 << cf.m) - 1);
    __m512i frac = _mm512_and_si512(c, fm);
    __m512i expf = _mm512_and_si512(_mm512_srli_epi64(c, (unsigned)cf.m), _mm512_set1_epi64((1 << cf.eb) - 1));
    __m512i asign = _mm512_and_si512(_mm512_srli_epi64(c, (unsigned)(cf.m + cf.eb)), one);
    __mmask8 top = _mm512_cmpeq_epi64_mask(expf, _mm512_set1_epi64((1 << cf.eb) - 1));
    __mmask8 bail = (__mmask8)~valid;
    if (m->cfmt.specials == TC_SPECIALS_IEEE)
        bail |= top;
    else if (m->cfmt.specials == TC_SPECIALS_FN)
        bail |= top & _mm512_cmpeq_epi64_mask(frac, fm);
    __mmask8 ef0 = _mm512_testn_epi64_mask(expf, expf);
    __mmask8 czero = ef0 & (p->ftz_c ? (__mmask8)0xFF : _mm512_testn_epi64_mask(frac, frac));
    __m512i asig = _mm512_mask_or_epi64(frac, (__mmask8)~ef0, frac, _mm512_add_epi64(fm, one));
    __m512i ae = _mm512_mask_blend_epi64(ef0, _mm512_sub_epi64(expf, _mm512_set1_epi64(cf.bias)),
                                         _mm512_set1_epi64(cf.emin));
    __m512i alsb = _mm512_sub_epi64(ae, _mm512_set1_epi64(cf.m));
    __mmask8 accnz = (__mmask8)~czero;
    __m512i at = NORM ? _mm512_sub_epi64(_mm512_add_epi64(alsb, _mm512_set1_epi64(63)), _mm512_lzcnt_epi64(asig))
                      : ae;

    const int block = p->block;
    for (int s = 0; s < K; s += block) {
        int n = K - s < block ? K - s : block;
        /* the products' reference exponent */
        __m512i Ep = _mm512_set1_epi64(NONE);
        for (int i = s; i < s + n; i++) {
            __m512i pr = _mm512_mul_epu32(_mm512_set1_epi64(a->sig[i]), _mm512_loadu_si512(b->sig + 8 * i));
            __mmask8 nz = _mm512_test_epi64_mask(pr, pr);
            __m512i r;
            if (NORM)
                r = _mm512_sub_epi64(_mm512_add_epi64(_mm512_set1_epi64(a->lsb[i] + 63),
                                                      _mm512_loadu_si512(b->lsb + 8 * i)),
                                     _mm512_lzcnt_epi64(pr));
            else
                r = _mm512_add_epi64(_mm512_set1_epi64(a->e[i]), _mm512_loadu_si512(b->e + 8 * i));
            Ep = _mm512_mask_max_epi64(Ep, nz, Ep, r);
        }
        __m512i E = p->align_with_acc ? _mm512_mask_max_epi64(Ep, accnz, Ep, at) : Ep;
        __mmask8 none = _mm512_cmpeq_epi64_mask(E, _mm512_set1_epi64(NONE));
        E = _mm512_mask_mov_epi64(E, none & accnz, at);   /* the accumulator is the reference */
        bail |= none & (__mmask8)~accnz;                    /* no nonzero term: a signed zero */
        /* the products on the grid 2^(E-F) */
        __m512i base = _mm512_add_epi64(E, _mm512_set1_epi64(CS - F)), S = zero;
        for (int i = s; i < s + n; i++) {
            __m512i pr = _mm512_mul_epu32(_mm512_set1_epi64(a->sig[i]), _mm512_loadu_si512(b->sig + 8 * i));
            __mmask8 nz = _mm512_test_epi64_mask(pr, pr);
            __m512i sh = _mm512_sub_epi64(_mm512_sub_epi64(base, _mm512_set1_epi64(a->lsb[i])),
                                          _mm512_loadu_si512(b->lsb + 8 * i));
            __m512i neg = _mm512_xor_si512(_mm512_set1_epi64(a->neg[i]), _mm512_loadu_si512(b->neg + 8 * i));
            S = _mm512_mask_add_epi64(S, nz, S, onto_grid8(_mm512_slli_epi64(pr, (unsigned)CS), sh, neg, AR));
        }
        /* the accumulator, left-aligned at bit 61 */
        __m512i lz = _mm512_lzcnt_epi64(asig);
        __m512i tn = _mm512_sub_epi64(_mm512_add_epi64(alsb, _mm512_set1_epi64(63)), lz);
        bail |= _mm512_mask_cmpgt_epi64_mask(accnz, tn, _mm512_add_epi64(E, one));
        __m512i sh = _mm512_min_epi64(_mm512_sub_epi64(_mm512_add_epi64(E, _mm512_set1_epi64(61 - F)), tn),
                                      _mm512_set1_epi64(63));
        __m512i X = _mm512_sllv_epi64(asig, _mm512_sub_epi64(lz, _mm512_set1_epi64(2)));
        S = _mm512_mask_add_epi64(S, accnz, S, onto_grid8(X, sh, _mm512_sub_epi64(zero, asign), AR));
        /* rounded into the accumulator format */
        accnz = _mm512_test_epi64_mask(S, S);
        __mmask8 sneg = _mm512_cmplt_epi64_mask(S, zero);
        __m512i mag = _mm512_abs_epi64(S), q, tl;
        __m512i sg = _mm512_maskz_mov_epi64(sneg, one);
        __mmask8 ok = kround8(&af, accnz, sg, mag, _mm512_sub_epi64(E, _mm512_set1_epi64(F)), p->acc_round, &q, &tl);
        bail |= accnz & (__mmask8)~ok;
        asign = _mm512_mask_blend_epi64(accnz, _mm512_set1_epi64(p->acc_round == TC_RD), sg);
        asig = q;
        alsb = tl;
        at = _mm512_add_epi64(tl, _mm512_set1_epi64(af.m));
    }
    /* the output: a zero result is left to the general path */
    bail |= (__mmask8)~accnz;
    if (m->acc_is_out) {
        /* kround leaves a normal value: its exponent is lsb + m */
        *d = kencode8(&of, asign, asig, _mm512_add_epi64(alsb, _mm512_set1_epi64(of.m)));
    } else {
        __m512i q, tl;
        __mmask8 ok = kround8(&of, accnz, asign, asig, alsb, p->out_round, &q, &tl);
        bail |= (__mmask8)~ok;
        *d = kencode8(&of, asign, q, _mm512_add_epi64(tl, _mm512_set1_epi64(of.m)));
    }
    return bail;
}

/* n (1..8) mdecs into the fields of t at o (8 written: lanes past n get
 * zeros); the lanes holding an Inf or NaN returned. */
static inline TARGET_AVX512 __mmask8 expand8(const mdec *x, int n, const ksoa *t, size_t o)
{
    __m256i sig, w1, w2;
    load8(x, n, &sig, &w1, &w2);
    _mm512_storeu_si512(t->sig + o, _mm512_cvtepu32_epi64(sig));
    _mm512_storeu_si512(t->lsb + o, _mm512_cvtepi32_epi64(_mm256_srai_epi32(_mm256_slli_epi32(w1, 16), 16)));
    _mm512_storeu_si512(t->e + o, _mm512_cvtepi32_epi64(_mm256_srai_epi32(w1, 16)));
    __m256i sg = _mm256_and_si256(_mm256_srli_epi32(w2, 8), _mm256_set1_epi32(1));
    _mm512_storeu_si512(t->neg + o, _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_cvtepu32_epi64(sg)));
    return _mm256_test_epi32_mask(w2, _mm256_set1_epi32(2));
}

/* kdirect_decode of n (1..8) operands bits[0..n) into the fields of t at o
 * (8 written: lanes past n get zeros); the lanes holding an Inf or NaN
 * returned. Zero operands get zero fields (kdirect_decode's). */
static inline TARGET_AVX512 __mmask8 direct8(const kdirect *k, const uint64_t *bits, int n,
                                             const ksoa *t, size_t o)
{
    __mmask8 live = (__mmask8)((1u << n) - 1);
    __m512i x = _mm512_maskz_loadu_epi64(live, bits);
    __m512i fmask = _mm512_set1_epi64((int64_t)k->fmask), top = _mm512_set1_epi64(k->top);
    __m512i frac = _mm512_and_si512(x, fmask);
    __m512i ef = _mm512_and_si512(_mm512_srli_epi64(x, (unsigned)k->mb), top);
    __m512i sign = _mm512_and_si512(_mm512_srli_epi64(x, (unsigned)(k->mb + k->eb)), _mm512_set1_epi64(1));
    __mmask8 special = _mm512_mask_cmpeq_epi64_mask(live, ef, top);
    if (!k->ieee)
        special &= _mm512_cmpeq_epi64_mask(frac, fmask);
    int mb = k->mb - k->drop;
    frac = _mm512_srli_epi64(_mm512_and_si512(frac, _mm512_set1_epi64((int64_t)k->keep)), (unsigned)k->drop);
    __mmask8 ef0 = _mm512_testn_epi64_mask(ef, ef);
    __mmask8 zero = ef0 & (k->ftz ? (__mmask8)0xFF : _mm512_testn_epi64_mask(frac, frac));
    __mmask8 fin = (__mmask8)~zero & (__mmask8)~special & live;
    __m512i sig = _mm512_mask_or_epi64(frac, (__mmask8)~ef0, frac, _mm512_set1_epi64((int64_t)1 << mb));
    __m512i e = _mm512_mask_blend_epi64(ef0, _mm512_sub_epi64(ef, _mm512_set1_epi64(k->bias)),
                                        _mm512_set1_epi64(k->emin));
    _mm512_storeu_si512(t->sig + o, _mm512_maskz_mov_epi64(fin, sig));
    _mm512_storeu_si512(t->lsb + o, _mm512_maskz_sub_epi64(fin, e, _mm512_set1_epi64(mb)));
    _mm512_storeu_si512(t->e + o, _mm512_maskz_mov_epi64(fin, e));
    _mm512_storeu_si512(t->neg + o, _mm512_sub_epi64(_mm512_setzero_si512(), _mm512_maskz_mov_epi64(live, sign)));
    return special;
}

static TARGET_AVX512 __attribute__((noinline)) void
tile_rows(const model *m, int mr, int nc, int K, const ksoa *a, const ksoa *b, const uint64_t *C,
          uint64_t *D, uint8_t *left, int AR, bool NORM)
{
    for (int c0 = 0; c0 < nc; c0 += 8) {
        int cnt = nc - c0 < 8 ? nc - c0 : 8;
        __mmask8 valid = (__mmask8)((1u << cnt) - 1);
        ksoa bc = {b->sig + (size_t)c0 * K, b->lsb + (size_t)c0 * K, b->e + (size_t)c0 * K,
                   b->neg + (size_t)c0 * K};
        for (int r = 0; r < mr; r++) {
            size_t ar = (size_t)r * K;
            ksoa ra = {a->sig + ar, a->lsb + ar, a->e + ar, a->neg + ar};
            __m512i d;
            size_t o = (size_t)r * nc + c0;
            __mmask8 lanes = tile_row8(m, K, &ra, &bc, valid, C + o, &d, AR, NORM) & valid;
            _mm512_mask_storeu_epi64(D + o, (__mmask8)(valid & ~lanes), d);
            for (int l = 0; l < cnt; l++)
                left[o + l] = (lanes >> l) & 1;
        }
    }
}

/* Bytes of scratch model_tile needs, 0 where it does not apply. */
size_t model_tile_scratch(const model *m, int mr, int nc, int K)
{
    const model_params *p = &m->p;
    if (!(use_avx512 && m->fast && !model_force_slow && shifted_ok(m) && K >= 1 && mr >= 1 &&
          p->split_runs == 0 && !p->floored &&
          nc >= 1 && p->c_mode == MODEL_C_FIRST && m->c_is_acc && !p->ftz_acc &&
          (m->cfmt.specials == TC_SPECIALS_IEEE || m->cfmt.specials == TC_SPECIALS_FN ||
           m->cfmt.specials == TC_SPECIALS_NONE)))
        return 0;
    size_t nc8 = ((size_t)nc + 7) / 8 * 8, mk8 = ((size_t)mr * K + 7) / 8 * 8;
    size_t cells = 4 * (mk8 + nc8 * K);               /* the ksoa fields */
    size_t dec = (size_t)mr * K + (size_t)K * nc;     /* mdec, before the fields */
    return cells * sizeof(int64_t) + dec * sizeof(mdec);
}

/* One tile D = A B + C (A mr x K, B K x nc, both row-major) through
 * tile_rows, with scratch of model_tile_scratch bytes (nonzero); left[r*nc+c]
 * set for the elements left to model_dot. */
TARGET_AVX512 void model_tile(const model *m, int mr, int nc, int K, const uint64_t *A,
                              const uint64_t *B, const uint64_t *C, uint64_t *D, uint8_t *left,
                              void *scratch)
{
    size_t mk = (size_t)mr * K, mk8 = (mk + 7) / 8 * 8, nc8 = ((size_t)nc + 7) / 8 * 8, bk = nc8 * K;
    int64_t *f = scratch;
    ksoa a = {f, f + mk8, f + 2 * mk8, f + 3 * mk8};
    f += 4 * mk8;
    ksoa b = {f, f + bk, f + 2 * bk, f + 3 * bk};
    f += 4 * bk;
    mdec *da = (mdec *)f, *db = da + mk;
    /* an Inf or NaN operand (decoded with sig 0): the tile goes to the
     * per-element path */
    __mmask8 special = 0;
    if (m->direct[0]) {
        kdirect d = kdirect_make(m, 0);
        for (size_t i = 0; i < mk; i += 8)
            special |= direct8(&d, A + i, mk - i < 8 ? (int)(mk - i) : 8, &a, i);
    } else {
        model_decode_operand(m, 0, mk, 1, A, da);
        for (size_t i = 0; i < mk; i += 8)
            special |= expand8(da + i, mk - i < 8 ? (int)(mk - i) : 8, &a, i);
    }
    if (m->direct[1]) {
        kdirect d = kdirect_make(m, 1);
        for (int c0 = 0; c0 < nc; c0 += 8)
            for (int kk = 0; kk < K; kk++)
                special |= direct8(&d, B + (size_t)kk * nc + c0, nc - c0 < 8 ? nc - c0 : 8, &b,
                                   (size_t)c0 * K + (size_t)kk * 8);
    } else {
        model_decode_operand(m, 1, (size_t)K * nc, 1, B, db);
        for (int c0 = 0; c0 < nc; c0 += 8)
            for (int kk = 0; kk < K; kk++)
                special |= expand8(db + (size_t)kk * nc + c0, nc - c0 < 8 ? nc - c0 : 8, &b,
                                   (size_t)c0 * K + (size_t)kk * 8);
    }
    if (special) {   /* rare: every element of the tile on the per-element path */
        memset(left, 1, (size_t)mr * nc);
        return;
    }
    bool norm = m->p.exp_ref == MODEL_EXP_NORMALIZED;
    switch (m->p.align_round * 2 + norm) {
    case MODEL_ALIGN_TRUNC * 2: tile_rows(m, mr, nc, K, &a, &b, C, D, left, MODEL_ALIGN_TRUNC, false); break;
    case MODEL_ALIGN_TRUNC * 2 + 1: tile_rows(m, mr, nc, K, &a, &b, C, D, left, MODEL_ALIGN_TRUNC, true); break;
    case MODEL_ALIGN_FLOOR * 2: tile_rows(m, mr, nc, K, &a, &b, C, D, left, MODEL_ALIGN_FLOOR, false); break;
    case MODEL_ALIGN_FLOOR * 2 + 1: tile_rows(m, mr, nc, K, &a, &b, C, D, left, MODEL_ALIGN_FLOOR, true); break;
    case MODEL_ALIGN_RNE * 2: tile_rows(m, mr, nc, K, &a, &b, C, D, left, MODEL_ALIGN_RNE, false); break;
    default: tile_rows(m, mr, nc, K, &a, &b, C, D, left, MODEL_ALIGN_RNE, true); break;
    }
}
#else
size_t model_tile_scratch(const model *m, int mr, int nc, int K)
{
    return 0;
}

void model_tile(const model *m, int mr, int nc, int K, const uint64_t *A, const uint64_t *B,
                const uint64_t *C, uint64_t *D, uint8_t *left, void *scratch)
{
    abort();
}
#endif
