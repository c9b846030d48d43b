/* exact_acc: exact sums of products in GMP fixed point (see exact_acc.h).
 *
 * Each nonzero product is sign * P * 2^e with P < 2^128 (significands are at
 * most 64 bits). The window [lo, hi) spans the lowest to the highest bit of
 * all terms; when it fits 126 bits the sum is one signed __int128 (FP8 and
 * f16 inputs always, wider ones when their exponents are not far apart),
 * otherwise positive and negative terms go to two unsigned limb vectors
 * (carries are rare and short, unlike borrows in a two's complement vector)
 * subtracted once at the end.
 */
#include "oracle/exact_acc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

void *exact_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "tcscope: out of memory (%zu bytes) in the exact oracle\n", n);
        exit(2);
    }
    return p;
}

void exact_decode_n(const tc_format *f, const uint64_t *bits, size_t n, tc_value *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = tc_decode(f, bits[i], false);
}

/* Adds p * 2^sh into the unsigned vector acc (room for the carry assured by
 * the caller's window). */
static void add_shifted(mp_limb_t *acc, u128 p, uint64_t sh)
{
    size_t i = (size_t)(sh / 64);
    unsigned b = (unsigned)(sh % 64);
    uint64_t w0 = (uint64_t)p, w1 = (uint64_t)(p >> 64), w2 = 0;
    if (b) {
        w2 = w1 >> (64 - b);
        w1 = (w1 << b) | (w0 >> (64 - b));
        w0 <<= b;
    }
    u128 t = (u128)acc[i] + w0;
    acc[i] = (mp_limb_t)t;
    t = (u128)acc[i + 1] + w1 + (uint64_t)(t >> 64);
    acc[i + 1] = (mp_limb_t)t;
    t = (u128)acc[i + 2] + w2 + (uint64_t)(t >> 64);
    acc[i + 2] = (mp_limb_t)t;
    for (size_t j = i + 3; (uint64_t)(t >> 64); j++) {
        acc[j]++;
        t = (u128)(acc[j] == 0) << 64;
    }
}

static void set_zero(exact_sum *s, bool sign)
{
    s->cls = TC_ZERO;
    s->sign = sign;
    s->n = 0;
    s->lsb = 0;
}

exact_val exact_val_of(tc_value v)
{
    exact_val x = {.sig = v.sig, .exp = v.exp, .cls = (uint8_t)v.cls, .sign = v.sign, .len = 0};
    if (v.cls == TC_FINITE && v.sig == 0)
        x.cls = TC_ZERO;   /* a decoder's FINITE never has sig 0; be safe anyway */
    if (x.cls == TC_FINITE) {
        int tz = __builtin_ctzll(v.sig);
        x.sig >>= tz;
        x.exp += tz;
        x.len = (uint8_t)(64 - __builtin_clzll(x.sig));
    } else {
        x.sig = 0;
        x.exp = 0;
    }
    return x;
}

void exact_load_n(const tc_format *f, const uint64_t *bits, size_t n, exact_val *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = exact_val_of(tc_decode(f, bits[i], false));
}

/* The IEEE outcome when some operand is not a nonzero finite: NaN, an Inf,
 * or (when no term is a nonzero finite) which zeros there are. */
typedef struct {
    bool nan, pinf, ninf, pzero, nzero;
} dot_specials;

static void special_term(dot_specials *st, const exact_val *x, const exact_val *y)
{
    bool neg = x->sign ^ (y ? y->sign : 0);
    int cx = x->cls, cy = y ? y->cls : TC_FINITE;
    if (cx == TC_NAN || cy == TC_NAN) {
        st->nan = true;
    } else if (cx == TC_INF || cy == TC_INF) {
        if (cx == TC_ZERO || cy == TC_ZERO)
            st->nan = true;
        else if (neg)
            st->ninf = true;
        else
            st->pinf = true;
    } else if (cx == TC_ZERO || cy == TC_ZERO) {
        if (neg)
            st->nzero = true;
        else
            st->pzero = true;
    }
}

/* Two passes over the terms: the first finds the window [lo, hi) of the
 * nonzero finite products from exponents and lengths alone, the second adds
 * them into a signed __int128 or, when the window is wider, into limbs. */
void exact_dot(const exact_val *a, long sa, const exact_val *b, long sb, int k,
               const exact_val *c, tc_round mode, exact_sum *s)
{
    s->heap = NULL;
    s->mag = s->buf;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t nt = 0;
    bool other = false;
    for (int i = 0; i < k; i++) {
        const exact_val *x = &a[(long)i * sa], *y = &b[(long)i * sb];
        if (__builtin_expect(x->cls == TC_FINITE && y->cls == TC_FINITE, 1)) {
            int64_t e = (int64_t)x->exp + y->exp;
            lo = e < lo ? e : lo;
            e += x->len + y->len;
            hi = e > hi ? e : hi;
            nt++;
        } else {
            other = true;
        }
    }
    bool c_term = c && c->cls == TC_FINITE;
    if (c_term) {
        lo = c->exp < lo ? c->exp : lo;
        hi = (int64_t)c->exp + c->len > hi ? (int64_t)c->exp + c->len : hi;
        nt++;
    } else if (c) {
        other = true;
    }
    if (other) {
        dot_specials st = {false, false, false, false, false};
        for (int i = 0; i < k; i++)
            special_term(&st, &a[(long)i * sa], &b[(long)i * sb]);
        if (c)
            special_term(&st, c, NULL);
        if (st.nan || (st.pinf && st.ninf)) {
            s->cls = TC_NAN;
            s->sign = false;
            s->n = 0;
            return;
        }
        if (st.pinf || st.ninf) {
            s->cls = TC_INF;
            s->sign = st.ninf;
            s->n = 0;
            return;
        }
        if (nt == 0) {
            /* Only zeros: -0 if all are -0, +0 if all are +0, and a mix is
             * an exact zero sum of opposite signs: +0, or -0 under RD. */
            set_zero(s, st.nzero && (!st.pzero || mode == TC_RD));
            return;
        }
    }
    if (nt == 0) {   /* k = 0 and no C */
        set_zero(s, false);
        return;
    }
    int64_t width = hi - lo + (64 - __builtin_clzll((uint64_t)nt)) + 1;
    s->cls = TC_FINITE;
    s->lsb = lo;
    if (width <= 126) {
        /* Signs applied without branches: they are random in real data. */
        __int128 acc = 0;
        for (int i = 0; i < k; i++) {
            const exact_val *x = &a[(long)i * sa], *y = &b[(long)i * sb];
            if (other && (x->cls != TC_FINITE || y->cls != TC_FINITE))
                continue;
            __int128 v = (__int128)(((u128)x->sig * y->sig) << ((int64_t)x->exp + y->exp - lo));
            __int128 msk = -(__int128)(x->sign ^ y->sign);
            acc += (v ^ msk) - msk;
        }
        if (c_term) {
            __int128 v = (__int128)((u128)c->sig << (c->exp - lo));
            acc += c->sign ? -v : v;
        }
        if (acc == 0) {
            set_zero(s, mode == TC_RD);
            return;
        }
        s->sign = acc < 0;
        u128 m = s->sign ? (u128)0 - (u128)acc : (u128)acc;
        s->buf[0] = (mp_limb_t)m;
        s->buf[1] = (mp_limb_t)(m >> 64);
        s->n = s->buf[1] ? 2 : 1;
        return;
    }
    size_t n = (size_t)(width / 64) + 4;
    mp_limb_t *pos, *neg;
    if (n <= EXACT_INLINE_LIMBS) {
        pos = s->buf;
    } else {
        s->heap = exact_xmalloc(2 * n * sizeof(mp_limb_t));
        pos = s->heap;
    }
    neg = pos + n;
    memset(pos, 0, 2 * n * sizeof(mp_limb_t));
    bool any_neg = false, any_pos = false;
    for (int i = 0; i < k; i++) {
        const exact_val *x = &a[(long)i * sa], *y = &b[(long)i * sb];
        if (x->cls == TC_FINITE && y->cls == TC_FINITE) {
            bool ng = x->sign ^ y->sign;
            add_shifted(ng ? neg : pos, (u128)x->sig * y->sig,
                        (uint64_t)((int64_t)x->exp + y->exp - lo));
            any_neg |= ng;
            any_pos |= !ng;
        }
    }
    if (c_term) {
        add_shifted(c->sign ? neg : pos, c->sig, (uint64_t)(c->exp - lo));
        any_neg |= c->sign;
        any_pos |= !c->sign;
    }
    mp_limb_t *mag = pos;
    if (any_neg && any_pos) {
        int cmp = mpn_cmp(pos, neg, (mp_size_t)n);
        if (cmp == 0) {
            set_zero(s, mode == TC_RD);
            return;
        }
        if (cmp > 0) {
            mpn_sub_n(pos, pos, neg, (mp_size_t)n);
            s->sign = false;
        } else {
            mpn_sub_n(neg, neg, pos, (mp_size_t)n);
            mag = neg;
            s->sign = true;
        }
    } else {
        mag = any_neg ? neg : pos;
        s->sign = any_neg;
    }
    while (n > 0 && mag[n - 1] == 0)
        n--;
    s->mag = mag;
    s->n = n;
}

void exact_sum_free(exact_sum *s)
{
    free(s->heap);
    s->heap = NULL;
}

uint64_t exact_sum_round(const exact_sum *s, const tc_format *f, tc_rounding r)
{
    tc_value v = {.cls = s->cls, .sign = s->sign, .exp = 0, .sig = 0};
    if (s->cls != TC_FINITE)
        return tc_encode(f, v, false, r);
    size_t t = s->n - 1;
    int lz = __builtin_clzll(s->mag[t]);
    bool sticky = false;
    uint64_t sig = (uint64_t)s->mag[t] << lz;
    if (t > 0) {
        uint64_t below = s->mag[t - 1];
        if (lz) {
            sig |= below >> (64 - lz);
            below <<= lz;
        }
        sticky = below != 0;
        for (size_t i = 0; i + 1 < t && !sticky; i++)
            sticky = s->mag[i] != 0;
    }
    int64_t e = s->lsb + 64 * (int64_t)t - lz;
    /* Beyond any format's range by far: clamping keeps the rounding the same
     * (a huge value overflows, a tiny one is below half the least subnormal). */
    if (e > INT32_MAX / 2)
        e = INT32_MAX / 2;
    if (e < INT32_MIN / 2)
        e = INT32_MIN / 2;
    v.exp = (int32_t)e;
    v.sig = sig;
    return tc_encode(f, v, sticky, r);
}

void exact_sum_to_mpfr(const exact_sum *s, mpfr_t out)
{
    switch (s->cls) {
    case TC_NAN:
        mpfr_set_nan(out);
        return;
    case TC_INF:
        mpfr_set_inf(out, s->sign ? -1 : 1);
        return;
    case TC_ZERO:
        mpfr_set_zero(out, s->sign ? -1 : 1);
        return;
    case TC_FINITE:
        break;
    }
    mpfr_prec_t bits = (mpfr_prec_t)(64 * s->n) - __builtin_clzll(s->mag[s->n - 1]);
    mpfr_set_prec(out, bits < MPFR_PREC_MIN ? MPFR_PREC_MIN : bits);
    mpz_t z;
    mpz_roinit_n(z, s->mag, (mp_size_t)s->n);
    int inex = mpfr_set_z_2exp(out, z, (mpfr_exp_t)s->lsb, MPFR_RNDN);
    (void)inex;   /* exact: the precision holds every bit */
    if (s->sign)
        mpfr_neg(out, out, MPFR_RNDN);
}
