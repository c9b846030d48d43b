/* chain: exact chains of MMAs (chain.h).
 *
 * Y is an m x k matrix of integers Z times one power of two 2^e. A step
 * turns B and C into integers the same way (W 2^fb, V 2^fc), forms Z*W with
 * mpz_addmul (exact at any width), aligns it with V on the smaller exponent
 * and divides out the common power of two so the integers stay as narrow as
 * the values allow. */
#include "oracle/chain.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/exact_acc.h"

struct oracle_chain {
    oracle_formats f;
    int m, k, len;
    long e;              /* Y = Z * 2^e */
    mpz_t *z, *next;     /* m * k each */
    mpz_t *w;            /* B as integers: k * k */
    mpz_t *v;            /* C as integers: m * k */
    tc_class *cls;       /* per element: TC_FINITE (zero included), TC_INF, TC_NAN */
    bool *neg;           /* sign of an Inf element */
    tc_class *ncls;
    bool *nneg;
    tc_value *bval, *cval;
};

static mpz_t *mpz_array(size_t n)
{
    mpz_t *a = malloc((n ? n : 1) * sizeof(mpz_t));
    if (a)
        for (size_t i = 0; i < n; i++)
            mpz_init(a[i]);
    return a;
}

static void mpz_array_free(mpz_t *a, size_t n)
{
    if (!a)
        return;
    for (size_t i = 0; i < n; i++)
        mpz_clear(a[i]);
    free(a);
}

/* Finite decoded values as integers times 2^(*scale); returns false when
 * none is a nonzero finite (then every out[i] is 0 and *scale is 0). */
static bool to_integers(const tc_value *val, size_t n, mpz_t *out, long *scale)
{
    long lo = LONG_MAX;
    for (size_t i = 0; i < n; i++)
        if (val[i].cls == TC_FINITE && val[i].exp < lo)
            lo = val[i].exp;
    *scale = lo == LONG_MAX ? 0 : lo;
    for (size_t i = 0; i < n; i++) {
        if (val[i].cls != TC_FINITE) {
            mpz_set_ui(out[i], 0);
            continue;
        }
        mpz_set_ui(out[i], (unsigned long)val[i].sig);
        mpz_mul_2exp(out[i], out[i], (mp_bitcnt_t)(val[i].exp - lo));
        if (val[i].sign)
            mpz_neg(out[i], out[i]);
    }
    return lo != LONG_MAX;
}

/* Divides every Z by the largest common power of two, into e. */
static void normalize(mpz_t *z, size_t n, long *e)
{
    mp_bitcnt_t t = ~(mp_bitcnt_t)0;
    for (size_t i = 0; i < n; i++)
        if (mpz_sgn(z[i])) {
            mp_bitcnt_t s = mpz_scan1(z[i], 0);
            if (s < t)
                t = s;
        }
    if (t == ~(mp_bitcnt_t)0) {
        *e = 0;
        return;
    }
    if (t == 0)
        return;
    for (size_t i = 0; i < n; i++)
        mpz_tdiv_q_2exp(z[i], z[i], t);
    *e += (long)t;
}

void oracle_chain_free(oracle_chain *ch)
{
    if (!ch)
        return;
    size_t mk = (size_t)ch->m * (size_t)ch->k, kk = (size_t)ch->k * (size_t)ch->k;
    mpz_array_free(ch->z, mk);
    mpz_array_free(ch->next, mk);
    mpz_array_free(ch->w, kk);
    mpz_array_free(ch->v, mk);
    free(ch->cls);
    free(ch->neg);
    free(ch->ncls);
    free(ch->nneg);
    free(ch->bval);
    free(ch->cval);
    free(ch);
}

oracle_chain *oracle_chain_new(oracle_formats f, int m, int k, const uint64_t *A0)
{
    if (m <= 0 || k <= 0)
        return NULL;
    oracle_chain *ch = calloc(1, sizeof *ch);
    if (!ch)
        return NULL;
    size_t mk = (size_t)m * (size_t)k, kk = (size_t)k * (size_t)k;
    ch->f = f;
    ch->m = m;
    ch->k = k;
    ch->z = mpz_array(mk);
    ch->next = mpz_array(mk);
    ch->w = mpz_array(kk);
    ch->v = mpz_array(mk);
    ch->cls = malloc(mk * sizeof *ch->cls);
    ch->neg = malloc(mk * sizeof *ch->neg);
    ch->ncls = malloc(mk * sizeof *ch->ncls);
    ch->nneg = malloc(mk * sizeof *ch->nneg);
    ch->bval = malloc(kk * sizeof *ch->bval);
    ch->cval = malloc(mk * sizeof *ch->cval);
    if (!ch->z || !ch->next || !ch->w || !ch->v || !ch->cls || !ch->neg || !ch->ncls ||
        !ch->nneg || !ch->bval || !ch->cval) {
        oracle_chain_free(ch);
        return NULL;
    }
    exact_decode_n(f.a, A0, mk, ch->cval);
    to_integers(ch->cval, mk, ch->z, &ch->e);
    for (size_t i = 0; i < mk; i++) {
        ch->cls[i] = ch->cval[i].cls == TC_ZERO ? TC_FINITE : ch->cval[i].cls;
        ch->neg[i] = ch->cval[i].sign;
    }
    normalize(ch->z, mk, &ch->e);
    return ch;
}

int oracle_chain_len(const oracle_chain *ch)
{
    return ch->len;
}

/* The IEEE class of element (r, j) of Y*B + C when some operand is Inf or
 * NaN; TC_FINITE when all are finite. */
static tc_class special_class(const oracle_chain *ch, int r, int j, bool have_c, bool *neg)
{
    bool nan = false, pinf = false, ninf = false;
    for (int kk = 0; kk < ch->k; kk++) {
        size_t yi = (size_t)r * (size_t)ch->k + (size_t)kk;
        const tc_value *b = &ch->bval[(size_t)kk * (size_t)ch->k + (size_t)j];
        tc_class cy = ch->cls[yi], cb = b->cls;
        if (cy == TC_FINITE && cb != TC_INF && cb != TC_NAN)
            continue;
        bool yzero = cy == TC_FINITE && mpz_sgn(ch->z[yi]) == 0;
        bool sg = (cy == TC_INF ? ch->neg[yi] : mpz_sgn(ch->z[yi]) < 0) ^ b->sign;
        if (cy == TC_NAN || cb == TC_NAN || (cy == TC_INF && cb == TC_ZERO) ||
            (cb == TC_INF && yzero))
            nan = true;
        else if (sg)
            ninf = true;
        else
            pinf = true;
    }
    if (have_c) {
        const tc_value *c = &ch->cval[(size_t)r * (size_t)ch->k + (size_t)j];
        if (c->cls == TC_NAN)
            nan = true;
        else if (c->cls == TC_INF && c->sign)
            ninf = true;
        else if (c->cls == TC_INF)
            pinf = true;
    }
    if (nan || (pinf && ninf))
        return TC_NAN;
    if (pinf || ninf) {
        *neg = ninf;
        return TC_INF;
    }
    return TC_FINITE;
}

void oracle_chain_step(oracle_chain *ch, const uint64_t *B, const uint64_t *C)
{
    int m = ch->m, k = ch->k;
    size_t mk = (size_t)m * (size_t)k, kk2 = (size_t)k * (size_t)k;
    long fb, fc = 0;
    exact_decode_n(ch->f.b, B, kk2, ch->bval);
    to_integers(ch->bval, kk2, ch->w, &fb);
    bool have_c = C != NULL, c_nonzero = false;
    if (have_c) {
        exact_decode_n(ch->f.c, C, mk, ch->cval);
        c_nonzero = to_integers(ch->cval, mk, ch->v, &fc);
    }
    long pe = ch->e + fb;                      /* exponent of Z*W */
    long ne = c_nonzero && fc < pe ? fc : pe;  /* exponent of the new Y */
    for (int r = 0; r < m; r++) {
        for (int j = 0; j < k; j++) {
            size_t o = (size_t)r * (size_t)k + (size_t)j;
            mpz_ptr acc = ch->next[o];
            ch->nneg[o] = false;
            ch->ncls[o] = special_class(ch, r, j, have_c, &ch->nneg[o]);
            mpz_set_ui(acc, 0);
            if (ch->ncls[o] != TC_FINITE)
                continue;
            for (int kk = 0; kk < k; kk++)
                mpz_addmul(acc, ch->z[(size_t)r * (size_t)k + (size_t)kk],
                           ch->w[(size_t)kk * (size_t)k + (size_t)j]);
            mpz_mul_2exp(acc, acc, (mp_bitcnt_t)(pe - ne));
            if (c_nonzero && mpz_sgn(ch->v[o])) {
                mpz_mul_2exp(ch->v[o], ch->v[o], (mp_bitcnt_t)(fc - ne));
                mpz_add(acc, acc, ch->v[o]);
            }
        }
    }
    mpz_t *t = ch->z;
    ch->z = ch->next;
    ch->next = t;
    tc_class *tc = ch->cls;
    ch->cls = ch->ncls;
    ch->ncls = tc;
    bool *tn = ch->neg;
    ch->neg = ch->nneg;
    ch->nneg = tn;
    ch->e = ne;
    normalize(ch->z, mk, &ch->e);
    ch->len++;
}

/* Element o as an exact_sum that borrows Z's limbs. */
static void element_view(const oracle_chain *ch, size_t o, exact_sum *s)
{
    s->heap = NULL;
    s->n = 0;
    s->lsb = 0;
    s->sign = false;
    if (ch->cls[o] != TC_FINITE) {
        s->cls = ch->cls[o];
        s->sign = ch->cls[o] == TC_INF && ch->neg[o];
        return;
    }
    int sg = mpz_sgn(ch->z[o]);
    if (sg == 0) {
        s->cls = TC_ZERO;
        return;
    }
    s->cls = TC_FINITE;
    s->sign = sg < 0;
    s->lsb = ch->e;
    s->n = mpz_size(ch->z[o]);
    s->mag = (mp_limb_t *)mpz_limbs_read(ch->z[o]);
}

void oracle_chain_value(const oracle_chain *ch, int i, int j, mpfr_t out)
{
    exact_sum s;
    element_view(ch, (size_t)i * (size_t)ch->k + (size_t)j, &s);
    exact_sum_to_mpfr(&s, out);
}

uint64_t oracle_chain_round(const oracle_chain *ch, int i, int j, const tc_format *fmt,
                            tc_rounding r)
{
    exact_sum s;
    element_view(ch, (size_t)i * (size_t)ch->k + (size_t)j, &s);
    return exact_sum_round(&s, fmt, r);
}

void oracle_chain_err(const oracle_chain *ch, const uint64_t *D, oracle_err *err)
{
    size_t mk = (size_t)ch->m * (size_t)ch->k;
    mpfr_t x;
    mpfr_init2(x, 64);
    for (size_t o = 0; o < mk; o++) {
        exact_sum s;
        element_view(ch, o, &s);
        exact_sum_to_mpfr(&s, x);
        oracle_err_of(ch->f.d, D[o], x, &err[o]);
    }
    mpfr_clear(x);
}

/* ---- batches ---------------------------------------------------------------- */

typedef struct {
    oracle_formats f;
    int m, k, len;
    const uint64_t *A0, *B, *C, *Xused, *D;
    oracle_err *step, *chain;
    tc_rounding r, cvt;
    uint64_t *Xout, *Dout;
} chain_job;

static void errors_range(void *ctx, size_t lo, size_t hi)
{
    const chain_job *j = ctx;
    size_t mk = (size_t)j->m * (size_t)j->k, kk = (size_t)j->k * (size_t)j->k;
    size_t per = (size_t)j->len * mk;
    for (size_t c = lo; c < hi; c++) {
        const uint64_t *Bc = j->B + c * (size_t)j->len * kk;
        const uint64_t *Cc = j->C ? j->C + c * per : NULL;
        if (j->step) {
            /* Step i's input is X_{i-1}: Xused[c][i-1] (laid out as D). */
            oracle_mma_err(j->f, j->m, j->k, j->k, (size_t)j->len, j->Xused + c * per, Bc, Cc,
                           j->D + c * per, j->step + c * per);
        }
        if (j->chain) {
            oracle_chain *ch = oracle_chain_new(j->f, j->m, j->k, j->A0 + c * mk);
            if (!ch) {
                fprintf(stderr, "tcscope: out of memory in the chain oracle\n");
                exit(2);
            }
            for (int i = 0; i < j->len; i++) {
                oracle_chain_step(ch, Bc + (size_t)i * kk, Cc ? Cc + (size_t)i * mk : NULL);
                oracle_chain_err(ch, j->D + c * per + (size_t)i * mk,
                                 j->chain + c * per + (size_t)i * mk);
            }
            oracle_chain_free(ch);
        }
    }
}

void oracle_chain_errors(oracle_formats f, int m, int k, size_t nchains, int len,
                         const uint64_t *A0, const uint64_t *B, const uint64_t *C,
                         const uint64_t *Xused, const uint64_t *D,
                         oracle_err *step, oracle_err *chain)
{
    if (m <= 0 || k <= 0 || len <= 0 || nchains == 0)
        return;
    chain_job j = {.f = f, .m = m, .k = k, .len = len, .A0 = A0, .B = B, .C = C,
                   .Xused = Xused, .D = D, .step = step, .chain = chain};
    size_t work = nchains * (size_t)len * (size_t)m * (size_t)k * (size_t)k * 8;
    exact_parallel(nchains, work, errors_range, &j);
}

static void rounded_range(void *ctx, size_t lo, size_t hi)
{
    const chain_job *j = ctx;
    size_t mk = (size_t)j->m * (size_t)j->k, kk = (size_t)j->k * (size_t)j->k;
    size_t per = (size_t)j->len * mk;
    uint64_t *x = exact_xmalloc(mk * sizeof *x), *d = exact_xmalloc(mk * sizeof *d);
    for (size_t c = lo; c < hi; c++) {
        memcpy(x, j->A0 + c * mk, mk * sizeof *x);
        for (int i = 0; i < j->len; i++) {
            size_t at = c * per + (size_t)i * mk;
            if (j->Xout)
                memcpy(j->Xout + at, x, mk * sizeof *x);
            oracle_mma_exact(j->f, j->m, j->k, j->k, 1, x, j->B + (c * (size_t)j->len + (size_t)i) * kk,
                             j->C ? j->C + at : NULL, d, j->r);
            for (size_t o = 0; o < mk; o++)
                x[o] = tc_encode(j->f.a, tc_decode(j->f.d, d[o], false), false, j->cvt);
            if (j->Dout)
                memcpy(j->Dout + at, d, mk * sizeof *d);
        }
    }
    free(x);
    free(d);
}

void oracle_chain_rounded(oracle_formats f, int m, int k, size_t nchains, int len,
                          const uint64_t *A0, const uint64_t *B, const uint64_t *C,
                          tc_rounding r, tc_rounding cvt, uint64_t *Xused, uint64_t *D)
{
    if (m <= 0 || k <= 0 || len <= 0 || nchains == 0)
        return;
    chain_job j = {.f = f, .m = m, .k = k, .len = len, .A0 = A0, .B = B, .C = C,
                   .r = r, .cvt = cvt, .Xout = Xused, .Dout = D};
    size_t work = nchains * (size_t)len * (size_t)m * (size_t)k * (size_t)k;
    exact_parallel(nchains, work, rounded_range, &j);
}
