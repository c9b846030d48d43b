/* metrics: errors of result bits against exact values (definitions in
 * oracle.h). The difference got - x is formed exactly in MPFR and rounded
 * once, so an error of 2^-3000 ulps is reported as such, not as 0. */
#include "oracle/oracle.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/exact_acc.h"

static long format_precision(const tc_format *f)
{
    return tc_format_precision(f);
}

long oracle_ulp_exp(const tc_format *f, const mpfr_t x)
{
    if (f->specials == TC_SPECIALS_INT)
        return 0;
    long p = format_precision(f), emin = tc_format_emin(f), emax = tc_format_emax(f);
    long e = emin;
    if (mpfr_regular_p(x))
        e = (long)mpfr_get_exp(x) - 1;   /* MPFR: x = m * 2^E with m in [1/2, 1) */
    else if (mpfr_inf_p(x) || mpfr_nan_p(x))
        e = emax;
    if (e < emin)
        e = emin;
    if (e > emax)
        e = emax;
    return e - p + 1;
}

/* The decoded result as an exact MPFR number (64 bits hold any significand). */
static void value_to_mpfr(tc_value v, mpfr_t out)
{
    mpfr_set_prec(out, 64);
    if (v.cls == TC_ZERO) {
        mpfr_set_zero(out, v.sign ? -1 : 1);
        return;
    }
    mpfr_set_ui_2exp(out, (unsigned long)v.sig, (mpfr_exp_t)v.exp, MPFR_RNDN);
    if (v.sign)
        mpfr_neg(out, out, MPFR_RNDN);
}

static void err_special(long p, tc_value g, const mpfr_t x, oracle_err *e)
{
    bool gnan = g.cls == TC_NAN, xnan = mpfr_nan_p(x) != 0;
    if (gnan && xnan) {
        *e = (oracle_err){0, 0, (double)(p + 1)};
    } else if (gnan || xnan) {
        *e = (oracle_err){NAN, NAN, 0};
    } else if (g.cls == TC_INF && mpfr_inf_p(x) && (mpfr_signbit(x) != 0) == g.sign) {
        *e = (oracle_err){0, 0, (double)(p + 1)};
    } else if (mpfr_inf_p(x)) {
        /* got is below +Inf (or above -Inf): the error has the opposite sign */
        *e = (oracle_err){mpfr_signbit(x) ? INFINITY : -INFINITY, INFINITY, 0};
    } else {
        *e = (oracle_err){g.sign ? -INFINITY : INFINITY, INFINITY, 0};
    }
}

void oracle_err_of(const tc_format *f, uint64_t got, const mpfr_t x, oracle_err *e)
{
    long p = format_precision(f);
    tc_value g = tc_decode(f, got, false);
    if (g.cls == TC_NAN || g.cls == TC_INF || !mpfr_number_p(x)) {
        err_special(p, g, x, e);
        return;
    }
    mpfr_t gm, diff;
    mpfr_init2(gm, 64);
    value_to_mpfr(g, gm);
    /* Precision for an exact difference: from the higher top bit down to the
     * lower last bit of the two operands. */
    long top = LONG_MIN, low = LONG_MAX;
    if (!mpfr_zero_p(x)) {
        top = (long)mpfr_get_exp(x);
        low = top - (long)mpfr_get_prec(x);
    }
    if (!mpfr_zero_p(gm)) {
        long t = (long)mpfr_get_exp(gm);
        if (t > top)
            top = t;
        if (t - 64 < low)
            low = t - 64;
    }
    mpfr_prec_t prec = top == LONG_MIN ? 2 : (mpfr_prec_t)(top - low + 2);
    mpfr_init2(diff, prec);
    mpfr_sub(diff, gm, x, MPFR_RNDN);   /* exact */
    if (mpfr_zero_p(diff)) {
        *e = (oracle_err){0, 0, (double)(p + 1)};
    } else {
        mpfr_t q;
        mpfr_init2(q, 53);
        mpfr_mul_2si(diff, diff, -oracle_ulp_exp(f, x), MPFR_RNDN);   /* exact */
        e->ulps = mpfr_get_d(diff, MPFR_RNDN);
        if (mpfr_zero_p(x)) {
            e->rel = INFINITY;
            e->bits = 0;
        } else {
            mpfr_mul_2si(diff, diff, oracle_ulp_exp(f, x), MPFR_RNDN);
            mpfr_abs(diff, diff, MPFR_RNDN);
            mpfr_div(q, diff, x, MPFR_RNDN);
            mpfr_abs(q, q, MPFR_RNDN);
            e->rel = mpfr_get_d(q, MPFR_RNDN);
            /* From the correctly rounded rel: a summary, not an exact figure. */
            double bits = -log2(e->rel);
            e->bits = bits < 0 ? 0 : bits > (double)(p + 1) ? (double)(p + 1) : bits;
        }
        mpfr_clear(q);
    }
    mpfr_clear(diff);
    mpfr_clear(gm);
}

double oracle_err_ulps(const tc_format *f, uint64_t got, const mpfr_t x)
{
    oracle_err e;
    oracle_err_of(f, got, x, &e);
    return e.ulps;
}

double oracle_err_rel(const tc_format *f, uint64_t got, const mpfr_t x)
{
    oracle_err e;
    oracle_err_of(f, got, x, &e);
    return e.rel;
}

double oracle_correct_bits(const tc_format *f, uint64_t got, const mpfr_t x)
{
    oracle_err e;
    oracle_err_of(f, got, x, &e);
    return e.bits;
}

/* ---- batches -------------------------------------------------------------- */

void oracle_err_vec(const tc_format *f, size_t n, const uint64_t *got, const mpfr_t *x,
                    oracle_err *err)
{
    for (size_t i = 0; i < n; i++)
        oracle_err_of(f, got[i], x[i], &err[i]);
}

typedef struct {
    const tc_format *d;
    const uint64_t *D;
    oracle_err *err;
} err_ctx;

static void err_visit(void *ctx, size_t e, const exact_sum *s)
{
    const err_ctx *c = ctx;
    mpfr_t x;
    mpfr_init2(x, 64);
    exact_sum_to_mpfr(s, x);
    oracle_err_of(c->d, c->D[e], x, &c->err[e]);
    mpfr_clear(x);
}

void oracle_mma_err(oracle_formats f, int m, int n, int k, size_t ntiles,
                    const uint64_t *A, const uint64_t *B, const uint64_t *C,
                    const uint64_t *D, oracle_err *err)
{
    err_ctx c = {f.d, D, err};
    /* The exact value does not depend on the rounding mode (only an exact
     * zero's sign does, which no error metric sees). */
    exact_mma_each(f, m, n, k, ntiles, A, B, C, TC_RNE, err_visit, &c);
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

void oracle_err_summarize(const oracle_err *e, size_t n, oracle_err_stats *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    s->min_bits = INFINITY;
    double *abs_ulps = exact_xmalloc(n * sizeof(double));
    size_t m = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(e[i].ulps) || isnan(e[i].rel)) {
            s->n_nan++;
            continue;
        }
        double u = fabs(e[i].ulps);
        abs_ulps[m++] = u;
        sum += u;
        s->n_exact += u == 0;
        s->n_half += u <= 0.5;
        s->n_one += u < 1;
        if (u > s->max_ulps)
            s->max_ulps = u;
        if (e[i].rel > s->max_rel)
            s->max_rel = e[i].rel;
        if (e[i].bits < s->min_bits)
            s->min_bits = e[i].bits;
    }
    if (m) {
        qsort(abs_ulps, m, sizeof(double), cmp_double);
        s->median_ulps = m % 2 ? abs_ulps[m / 2] : (abs_ulps[m / 2 - 1] + abs_ulps[m / 2]) / 2;
        s->mean_ulps = sum / (double)m;
    } else {
        s->min_bits = 0;
    }
    free(abs_ulps);
}
