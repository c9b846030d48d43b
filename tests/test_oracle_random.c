/* The exact oracle against an independent slow path on random cases.
 *
 * The slow path shares no code with the oracle: its own field decoder, plain
 * mpfr_mul/mpfr_add at thousands of bits (each step checked exact), then
 * MPFR's own rounding with the exponent range of the output format
 * (mpfr_set_emin + mpfr_subnormalize), overflow by the IEEE rule and its
 * own bit encoder. 10^6 cases in the optimized build, across format
 * combinations, K = 0..128, all deterministic rounding modes, and inputs
 * that are uniform bit patterns (specials included), near one, across the
 * whole range (subnormals included), or that cancel C against the sum.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/formats.h"
#include "oracle/oracle.h"

#if defined(__SANITIZE_ADDRESS__)
#define NCASES 200000
#define NLONG 300
#else
#define NCASES 1000000
#define NLONG 3000
#endif

#define KMAX 1100

/* ---- a small deterministic generator (splitmix64) ------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
    return rnd64() % n;
}

/* ---- the slow path -------------------------------------------------------- */

static bool is_int(const tc_format *f)
{
    return f->specials == TC_SPECIALS_INT;
}

/* Field decoder of its own: sign, exponent field, fraction. */
static void slow_decode(const tc_format *f, uint64_t bits, mpfr_t out)
{
    if (is_int(f)) {
        uint64_t m = f->storage_bits == 64 ? ~0ull : (1ull << f->storage_bits) - 1;
        int64_t v = (int64_t)(bits & m);
        if (f->has_sign && (bits >> (f->storage_bits - 1)) & 1)
            v -= (int64_t)1 << f->storage_bits;
        mpfr_set_si(out, (long)v, MPFR_RNDN);
        return;
    }
    uint64_t b = bits >> f->shift;
    int e = f->ebits, m = f->mbits;
    bool sign = f->has_sign && ((b >> (e + m)) & 1);
    uint64_t ex = (b >> m) & ((1ull << e) - 1), fr = b & ((1ull << m) - 1);
    uint64_t top = (1ull << e) - 1;
    if (ex == top && f->specials == TC_SPECIALS_IEEE) {
        if (fr)
            mpfr_set_nan(out);
        else
            mpfr_set_inf(out, sign ? -1 : 1);
        return;
    }
    if (ex == top && f->specials == TC_SPECIALS_FN && fr == (1ull << m) - 1) {
        mpfr_set_nan(out);
        return;
    }
    if (ex == 0)
        mpfr_set_ui_2exp(out, fr, 1 - f->bias - m, MPFR_RNDN);
    else
        mpfr_set_ui_2exp(out, fr + (1ull << m), (long)ex - f->bias - m, MPFR_RNDN);
    if (sign)
        mpfr_neg(out, out, MPFR_RNDN);
}

/* c + a[0]*b[0] + a[1]*b[1] + ... in IEEE order; exact at this precision
 * (asserted), so only the sign of a zero depends on the mode. */
static void slow_sum(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                     const uint64_t *c, tc_round mode, mpfr_t sum)
{
    mpfr_rnd_t rnd = mode == TC_RD ? MPFR_RNDD : MPFR_RNDN;
    mpfr_t x, y, p;
    mpfr_inits2(64, x, y, (mpfr_ptr)0);
    mpfr_init2(p, 128);
    if (c)
        slow_decode(f.c, *c, sum);
    else
        mpfr_set_zero(sum, 1);
    for (int i = 0; i < k; i++) {
        slow_decode(f.a, a[i], x);
        slow_decode(f.b, b[i], y);
        assert_int_equal(mpfr_mul(p, x, y, rnd), 0);
        assert_int_equal(mpfr_add(sum, sum, p, rnd), 0);
    }
    mpfr_clears(x, y, p, (mpfr_ptr)0);
}

static uint64_t slow_sign_bit(const tc_format *d, bool sign)
{
    return sign && d->has_sign ? 1ull << (d->ebits + d->mbits) : 0;
}

/* Largest finite: IEEE (2 - 2^(1-p)) 2^emax; E4M3-style (2 - 2^(2-p)) 2^emax. */
static void slow_max(const tc_format *d, mpfr_t out)
{
    int p = d->mbits + 1;
    uint64_t sig = (1ull << p) - (d->specials == TC_SPECIALS_FN ? 2 : 1);
    mpfr_set_ui_2exp(out, sig, tc_format_emax(d) - (p - 1), MPFR_RNDN);
}

/* Inf in d (or what stands for it): E4M3 has none and uses NaN with the
 * value's sign, satfinite gives max. */
static uint64_t slow_inf_bits(const tc_format *d, bool sign, tc_rounding r)
{
    int e = d->ebits, m = d->mbits;
    if (r.ovf == TC_OVF_SAT) {
        uint64_t code = d->specials == TC_SPECIALS_FN ? (1ull << (e + m)) - 2
                                                      : ((((1ull << e) - 2) << m) | ((1ull << m) - 1));
        return (slow_sign_bit(d, sign) | code) << d->shift;
    }
    if (d->specials == TC_SPECIALS_FN)
        return (slow_sign_bit(d, sign) | ((1ull << (e + m)) - 1)) << d->shift;
    return (slow_sign_bit(d, sign) | (((1ull << e) - 1) << m)) << d->shift;
}

/* A finite, in-range value of d (already on its grid) to bits. */
static uint64_t slow_encode(const tc_format *d, const mpfr_t v)
{
    bool sign = mpfr_signbit(v) != 0;
    if (mpfr_zero_p(v))
        return slow_sign_bit(d, sign) << d->shift;
    int p = d->mbits + 1, emin = tc_format_emin(d);
    long E = (long)mpfr_get_exp(v) - 1;
    mpfr_t t;
    mpfr_init2(t, 64);
    mpfr_abs(t, v, MPFR_RNDN);
    uint64_t code;
    if (E >= emin) {
        mpfr_mul_2si(t, t, p - 1 - E, MPFR_RNDN);
        code = ((uint64_t)(E - emin + 1) << d->mbits) | (mpfr_get_ui(t, MPFR_RNDN) - (1ull << (p - 1)));
    } else {
        mpfr_mul_2si(t, t, p - 1 - emin, MPFR_RNDN);
        code = mpfr_get_ui(t, MPFR_RNDN);
    }
    assert_true(mpfr_integer_p(t));
    mpfr_clear(t);
    return (slow_sign_bit(d, sign) | code) << d->shift;
}

/* x rounded to d's precision and subnormal grid with MPFR's own rounding,
 * exponent unbounded above. */
static void slow_grid(const tc_format *d, const mpfr_t x, mpfr_rnd_t rnd, mpfr_t y)
{
    int p = d->mbits + 1, emin = tc_format_emin(d);
    mpfr_set_prec(y, p);
    int t = mpfr_set(y, x, rnd);
    mpfr_exp_t old = mpfr_get_emin();
    mpfr_set_emin(emin - p + 2);   /* MPFR exponent of the least subnormal */
    t = mpfr_check_range(y, t, rnd);
    mpfr_subnormalize(y, t, rnd);
    mpfr_set_emin(old);
}

static uint64_t slow_round(const tc_format *d, const mpfr_t x, tc_rounding r)
{
    if (is_int(d)) {
        assert_true(mpfr_integer_p(x));
        uint64_t m = (1ull << d->storage_bits) - 1;
        return (uint64_t)mpfr_get_si(x, MPFR_RNDN) & m;
    }
    if (mpfr_nan_p(x))
        return d->nan_bits;
    bool sign = mpfr_signbit(x) != 0;
    if (mpfr_inf_p(x))
        return slow_inf_bits(d, sign, r);
    if (mpfr_zero_p(x))
        return slow_sign_bit(d, sign) << d->shift;
    mpfr_t lo, hi, res, mid, max;
    mpfr_inits2(64, lo, hi, res, max, (mpfr_ptr)0);
    mpfr_init2(mid, mpfr_get_prec(x) + 2);
    slow_grid(d, x, MPFR_RNDZ, lo);
    slow_grid(d, x, MPFR_RNDA, hi);
    switch (r.mode) {
    case TC_RNE:
        slow_grid(d, x, MPFR_RNDN, res);
        break;
    case TC_RZ:
        mpfr_set(res, lo, MPFR_RNDN);
        break;
    case TC_RU:
        mpfr_set(res, sign ? lo : hi, MPFR_RNDN);
        break;
    case TC_RD:
        mpfr_set(res, sign ? hi : lo, MPFR_RNDN);
        break;
    case TC_RNA:
        mpfr_add(mid, lo, hi, MPFR_RNDN);
        mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
        mpfr_set(res, mpfr_cmpabs(x, mid) >= 0 ? hi : lo, MPFR_RNDN);
        break;
    case TC_RO:
        mpfr_set(res, lo, MPFR_RNDN);
        if (!mpfr_equal_p(lo, hi) && (slow_encode(d, lo) >> d->shift & 1) == 0)
            mpfr_set(res, hi, MPFR_RNDN);
        break;
    default:
        fail_msg("mode not covered by the slow path");
    }
    slow_max(d, max);
    uint64_t out;
    if (mpfr_cmpabs(res, max) > 0) {
        bool away = r.mode == TC_RNE || r.mode == TC_RNA || (r.mode == TC_RU && !sign) ||
                    (r.mode == TC_RD && sign);
        if (r.ovf == TC_OVF_SAT || !away) {
            tc_rounding sat = r;
            sat.ovf = TC_OVF_SAT;
            out = slow_inf_bits(d, sign, sat);
        } else {
            out = slow_inf_bits(d, sign, r);
        }
    } else {
        out = slow_encode(d, res);
    }
    mpfr_clears(lo, hi, res, mid, max, (mpfr_ptr)0);
    return out;
}

/* ---- random cases --------------------------------------------------------- */

typedef enum { GEN_BITS, GEN_NEAR_ONE, GEN_WIDE } gen_kind;

static uint64_t gen(const tc_format *f, gen_kind kind)
{
    if (is_int(f)) {
        uint64_t m = (1ull << f->storage_bits) - 1;
        if (f->storage_bits > 8)   /* C of integer MMAs: keep the total in range */
            return (uint64_t)((int64_t)rnd_below(1ull << 31) - (1ll << 30)) & m;
        return rnd64() & m;
    }
    if (kind == GEN_BITS)
        return rnd64() & tc_format_mask(f);
    int e = f->ebits, m = f->mbits;
    uint64_t top = (1ull << e) - 1, ex;
    if (kind == GEN_NEAR_ONE) {
        int64_t x = f->bias + (int64_t)rnd_below(7) - 3;
        ex = (uint64_t)(x < 1 ? 1 : x > (int64_t)top - 1 ? (int64_t)top - 1 : x);
    } else {
        ex = rnd_below(top);   /* 0 .. top-1: subnormals and normals */
    }
    uint64_t fr = m ? rnd64() & ((1ull << m) - 1) : 0;
    uint64_t b = (ex << m) | fr | ((rnd64() & 1) << (e + m));
    return b << f->shift;
}

typedef struct {
    const tc_format *a, *b, *c, *d;
} combo;

static void report(oracle_formats f, int k, const uint64_t *a, const uint64_t *b, uint64_t c,
                   tc_rounding r, uint64_t got, uint64_t want, const char *what)
{
    fprintf(stderr, "%s: %s*%s+%s->%s k=%d mode=%s ovf=%s c=0x%" PRIx64 " got 0x%" PRIx64
                    " want 0x%" PRIx64 "\n  a:",
            what, f.a->name, f.b->name, f.c->name, f.d->name, k, tc_round_name(r.mode),
            tc_overflow_name(r.ovf), c, got, want);
    for (int i = 0; i < k; i++)
        fprintf(stderr, " %" PRIx64, a[i]);
    fprintf(stderr, "\n  b:");
    for (int i = 0; i < k; i++)
        fprintf(stderr, " %" PRIx64, b[i]);
    fprintf(stderr, "\n");
}

static const combo combos[] = {
        {&tc_e4m3, &tc_e4m3, &tc_f32, &tc_f32}, {&tc_e5m2, &tc_e5m2, &tc_f32, &tc_f32},
        {&tc_e4m3, &tc_e5m2, &tc_f32, &tc_f32}, {&tc_e4m3, &tc_e4m3, &tc_f16, &tc_f16},
        {&tc_e5m2, &tc_e5m2, &tc_f16, &tc_f16}, {&tc_f16, &tc_f16, &tc_f32, &tc_f32},
        {&tc_f16, &tc_f16, &tc_f16, &tc_f16},   {&tc_f16, &tc_f16, &tc_f32, &tc_f16},
        {&tc_bf16, &tc_bf16, &tc_f32, &tc_f32}, {&tc_tf32, &tc_tf32, &tc_f32, &tc_f32},
        {&tc_f32, &tc_f32, &tc_f32, &tc_f32},   {&tc_f64, &tc_f64, &tc_f64, &tc_f64},
        {&tc_f32, &tc_f32, &tc_f32, &tc_bf16},  {&tc_f32, &tc_f32, &tc_f32, &tc_e4m3},
        {&tc_f16, &tc_f16, &tc_f16, &tc_e5m2},  {&tc_bf16, &tc_bf16, &tc_f32, &tc_f16},
        {&tc_s8, &tc_s8, &tc_s32, &tc_s32},     {&tc_u8, &tc_s8, &tc_s32, &tc_s32},
        {&tc_u8, &tc_u8, &tc_s32, &tc_s32},
};
#define NCOMBO (sizeof combos / sizeof combos[0])

typedef struct {
    size_t per_combo[NCOMBO], specials, subnormal_out, fails;
} run_stats;

/* ncases random cases with K drawn from ks; every mismatch is counted and
 * the first few printed. */
static void run_cases(size_t ncases, const int *ks, size_t nks, run_stats *st)
{
    static const tc_round modes[] = {TC_RNE, TC_RNE, TC_RNA, TC_RZ, TC_RU, TC_RD, TC_RO};
    size_t ncombo = NCOMBO;
    static uint64_t a[KMAX], b[KMAX];
    mpfr_t slow, val;
    mpfr_init2(slow, 4800);
    mpfr_init2(val, 64);
    memset(st, 0, sizeof *st);
    for (size_t n = 0; n < ncases; n++) {
        const combo *cb = &combos[rnd_below(ncombo)];
        oracle_formats f = {cb->a, cb->b, cb->c, cb->d};
        int k = ks[rnd_below(nks)];
        tc_rounding r = {modes[rnd_below(sizeof modes / sizeof modes[0])], TC_OVF_INF, false, 0,
                         false};
        if (f.d->specials == TC_SPECIALS_FN && rnd64() & 1)
            r.ovf = TC_OVF_SAT;
        unsigned pick = (unsigned)rnd_below(10);
        gen_kind kind = pick == 0 ? GEN_BITS : pick < 6 ? GEN_NEAR_ONE : GEN_WIDE;
        for (int i = 0; i < k; i++) {
            a[i] = gen(f.a, kind);
            b[i] = gen(f.b, kind);
        }
        uint64_t c = gen(f.c, kind);
        if (pick >= 8 && k > 0 && !is_int(f.c)) {
            /* C = -(the sum of products, rounded to C's format): the result
             * is what is left after deep cancellation. */
            slow_sum(f, k, a, b, NULL, TC_RNE, slow);
            if (mpfr_number_p(slow)) {
                mpfr_neg(slow, slow, MPFR_RNDN);
                tc_rounding rc = {TC_RNE, TC_OVF_INF, false, 0, false};
                c = slow_round(f.c, slow, rc);
            }
        }
        slow_sum(f, k, a, b, &c, r.mode, slow);
        uint64_t want = slow_round(f.d, slow, r);
        uint64_t got = oracle_dot_exact(f, k, a, b, c, r);
        if (got != want) {
            if (st->fails++ < 5)
                report(f, k, a, b, c, r, got, want, "rounded result differs");
            continue;
        }
        oracle_dot_value(f, k, a, b, c, val);
        bool same = mpfr_nan_p(slow) ? mpfr_nan_p(val) != 0
                                     : !mpfr_nan_p(val) && mpfr_equal_p(val, slow) &&
                                           (!mpfr_zero_p(val) || mpfr_signbit(val) == mpfr_signbit(slow) ||
                                            r.mode == TC_RD);
        if (!same) {
            if (st->fails++ < 5)
                report(f, k, a, b, c, r, got, want, "exact value differs");
            continue;
        }
        st->per_combo[cb - combos]++;
        st->specials += !mpfr_number_p(slow);
        if (!is_int(f.d) && mpfr_regular_p(slow) &&
            mpfr_get_exp(slow) - 1 < tc_format_emin(f.d))
            st->subnormal_out++;
    }
    mpfr_clears(slow, val, (mpfr_ptr)0);
}

static void random_cases_match_slow_path(void **state)
{
    static const int ks[] = {0, 1, 2, 3, 4, 8, 16, 16, 32, 64, 128};
    run_stats st;
    run_cases(NCASES, ks, sizeof ks / sizeof ks[0], &st);
    printf("# %d cases: %zu specials, %zu exact values in the output's subnormal range\n",
           NCASES, st.specials, st.subnormal_out);
    assert_int_equal(st.fails, 0);
    /* The generator really reached every combination and the hard regions. */
    for (size_t i = 0; i < NCOMBO; i++)
        assert_true(st.per_combo[i] > NCASES / NCOMBO / 2);
    assert_true(st.specials > NCASES / 100);
    assert_true(st.subnormal_out > NCASES / 1000);
}

/* K beyond the oracle's inline buffers (256) and up to 1024. */
static void long_dots_match_slow_path(void **state)
{
    static const int ks[] = {255, 256, 257, 300, 1024};
    run_stats st;
    run_cases(NLONG, ks, sizeof ks / sizeof ks[0], &st);
    assert_int_equal(st.fails, 0);
    assert_true(st.specials > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_cases_match_slow_path),
        cmocka_unit_test(long_dots_match_slow_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
