/* formats/: decode is exact, encode rounds once by the documented rules.
 * The reference (test_formats_ref.h) is MPFR, sharing no code with formats/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formats/formats.h"
#include "tests/test_formats_ref.h"

#if defined(__SANITIZE_ADDRESS__)
#define SCALE 100   /* the sanitized build checks 1/100 of the random inputs */
#else
#define SCALE 1
#endif

static const tc_format *const small_formats[] = {
    &tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_e2m1, &tc_e3m2, &tc_e2m3, &tc_e8m0,
};
#define NSMALL (sizeof small_formats / sizeof small_formats[0])

static uint64_t npatterns(const tc_format *f)
{
    return 1ull << (f->storage_bits - f->shift);
}

/* The value MPFR reads from the fields equals tc_decode's, for one pattern. */
static void check_decode(const tc_format *f, uint64_t bits, mpfr_t want, mpfr_t got)
{
    int cls = ref_read_fields(f, bits, want);
    tc_value v = tc_decode(f, bits, false);
    char msg[96];
    snprintf(msg, sizeof msg, "%s bits 0x%llx", f->name, (unsigned long long)bits);
    if (cls == REF_NAN) {
        if (v.cls != TC_NAN)
            fail_msg("%s: not NaN", msg);
        return;
    }
    if (cls == REF_INF) {
        if (v.cls != TC_INF || v.sign != (mpfr_signbit(want) != 0))
            fail_msg("%s: not the right Inf", msg);
        return;
    }
    if (mpfr_zero_p(want)) {
        if (v.cls != TC_ZERO || v.sign != (mpfr_signbit(want) != 0))
            fail_msg("%s: not the right zero", msg);
        return;
    }
    if (v.cls != TC_FINITE)
        fail_msg("%s: not finite", msg);
    mpfr_set_ui_2exp(got, 0, 0, MPFR_RNDN);
    mpfr_set_uj_2exp(got, v.sig, v.exp, MPFR_RNDN);
    if (v.sign)
        mpfr_neg(got, got, MPFR_RNDN);
    if (!mpfr_equal_p(want, got))
        fail_msg("%s: decode differs from the fields' value", msg);
}

static void every_small_pattern_decodes_to_its_field_value(void **state)
{
    mpfr_t want, got;
    mpfr_inits2(128, want, got, (mpfr_ptr)0);
    for (size_t i = 0; i < NSMALL; i++)
        for (uint64_t b = 0; b < npatterns(small_formats[i]); b++)
            check_decode(small_formats[i], b, want, got);
    const tc_format *ints[] = {&tc_s8, &tc_u8};
    for (int i = 0; i < 2; i++)
        for (uint64_t b = 0; b < 256; b++)
            check_decode(ints[i], b, want, got);
    mpfr_clears(want, got, (mpfr_ptr)0);
}

static void every_tf32_pattern_decodes_to_its_field_value(void **state)
{
    mpfr_t want, got;
    mpfr_inits2(128, want, got, (mpfr_ptr)0);
    for (uint64_t b = 0; b < (1u << 19); b++)
        check_decode(&tc_tf32, b << 13, want, got);
    mpfr_clears(want, got, (mpfr_ptr)0);
}

static void daz_reads_subnormals_as_signed_zero(void **state)
{
    for (size_t i = 0; i < NSMALL; i++) {
        const tc_format *f = small_formats[i];
        if (f->specials == TC_SPECIALS_E8M0)
            continue;
        uint64_t sgn = 1ull << (f->ebits + f->mbits);
        for (uint64_t m = 1; m < (1ull << f->mbits); m++) {
            tc_value v = tc_decode(f, sgn | m, true);
            assert_int_equal(v.cls, TC_ZERO);
            assert_true(v.sign);
            assert_int_equal(tc_decode(f, m, false).cls, TC_FINITE);
        }
    }
}

static const tc_round all_modes[] = {TC_RNE, TC_RNA, TC_RZ, TC_RU, TC_RD, TC_RO, TC_RS};
static const tc_overflow all_ovf[] = {TC_OVF_INF, TC_OVF_SAT, TC_OVF_NAN};

/* Every non-NaN pattern comes back unchanged, in every mode: a representable
 * value is never rounded (with Inf kept except where satfinite maps it). */
static void roundtrip_format(const tc_format *f, uint64_t step)
{
    for (int mi = 0; mi < 7; mi++)
        for (int oi = 0; oi < 3; oi++) {
            tc_rounding r = {.mode = all_modes[mi], .ovf = all_ovf[oi], .rbits = 0xFFFFFFFFu};
            for (uint64_t i = 0; i < npatterns(f); i++) {
                uint64_t b = (i * step) << f->shift;
                tc_value v = tc_decode(f, b, false);
                if (v.cls == TC_NAN || (v.cls == TC_INF && r.ovf == TC_OVF_SAT))
                    continue;
                uint64_t got = tc_encode(f, v, false, r);
                if (got != b)
                    fail_msg("%s %s/%s: 0x%llx -> 0x%llx", f->name, tc_round_name(r.mode),
                             tc_overflow_name(r.ovf), (unsigned long long)b,
                             (unsigned long long)got);
            }
        }
}

static void encode_of_decode_is_identity_small(void **state)
{
    for (size_t i = 0; i < NSMALL; i++)
        roundtrip_format(small_formats[i], 1);
}

static void encode_of_decode_is_identity_tf32(void **state)
{
    roundtrip_format(&tc_tf32, 1);
}

static void encode_of_decode_is_identity_ints(void **state)
{
    const tc_format *ints[] = {&tc_s8, &tc_u8};
    for (int k = 0; k < 2; k++)
        for (int mi = 0; mi < 7; mi++)
            for (uint64_t b = 0; b < 256; b++) {
                tc_rounding r = {.mode = all_modes[mi]};
                assert_int_equal(tc_encode(ints[k], tc_decode(ints[k], b, false), false, r), b);
            }
}

/* One check of tc_encode against the reference, for an exact MPFR input. */
static void check_encode(const tc_format *f, const mpfr_t x, tc_rounding r)
{
    tc_value v;
    bool sticky = false;
    if (mpfr_nan_p(x)) {
        v = (tc_value){.cls = TC_NAN};
    } else if (mpfr_inf_p(x)) {
        v = (tc_value){.cls = TC_INF, .sign = mpfr_signbit(x) != 0};
    } else if (mpfr_zero_p(x)) {
        v = (tc_value){.cls = TC_ZERO, .sign = mpfr_signbit(x) != 0};
    } else {
        /* Top 64 bits, truncated, + sticky: the contract of tc_encode. */
        mpfr_t t;
        mpfr_init2(t, 64);
        sticky = mpfr_set(t, x, MPFR_RNDZ) != 0;
        mpz_t z;
        mpz_init(z);
        mpfr_exp_t e = mpfr_get_z_2exp(z, t);
        v.cls = TC_FINITE;
        v.sign = mpz_sgn(z) < 0;
        mpz_abs(z, z);
        v.sig = mpz_get_ui(z);
        v.exp = (int32_t)e;
        mpz_clear(z);
        mpfr_clear(t);
    }
    uint64_t got = tc_encode(f, v, sticky, r);
    if (!ref_matches(f, x, r, got)) {
        char buf[64];
        mpfr_snprintf(buf, sizeof buf, "%Ra", x);
        fail_msg("%s %s/%s%s rbits=0x%x: %s -> 0x%llx differs from MPFR", f->name,
                 tc_round_name(r.mode), tc_overflow_name(r.ovf), r.ftz ? "/ftz" : "", r.rbits,
                 buf, (unsigned long long)got);
    }
}

/* Boundary inputs of a format, all derived from its own grid: each
 * representable value, and values at, just below and just above every
 * midpoint near zero, near the normal boundary and near max finite, plus
 * half the smallest subnormal, the overflow threshold and its neighbours,
 * signed zeros, Inf and NaN. */
static void boundary_inputs(const tc_format *f, void (*visit)(const tc_format *, const mpfr_t))
{
    mpfr_t a, b, m, t;
    mpfr_inits2(200, a, b, m, t, (mpfr_ptr)0);
    uint64_t n = npatterns(f) / (f->has_sign ? 2 : 1);
    uint64_t step = n > 4096 ? n / 1024 : 1;
    for (uint64_t i = 0; i + 1 < n; i += (i < 64 || i > n - 64) ? 1 : step) {
        if (ref_read_fields(f, i << f->shift, a) != REF_FIN)
            continue;
        int cb = ref_read_fields(f, (i + 1) << f->shift, b);
        if (cb == REF_NAN) {   /* above max: the next grid point of the unbounded range */
            mpfr_set_ui_2exp(t, 1, ref_ulp_exp(f, a), MPFR_RNDN);
            mpfr_add(b, a, t, MPFR_RNDN);
        } else if (cb == REF_INF) {
            mpfr_set_ui_2exp(b, 1, mpfr_get_exp(a), MPFR_RNDN);
        }
        mpfr_add(m, a, b, MPFR_RNDN);
        mpfr_div_2ui(m, m, 1, MPFR_RNDN);   /* the midpoint */
        mpfr_sub(t, b, a, MPFR_RNDN);
        mpfr_div_2ui(t, t, 40, MPFR_RNDN);  /* a step well below the ulp */
        for (int s = 0; s < 2; s++) {
            mpfr_t x;
            mpfr_init2(x, 200);
            mpfr_set(x, a, MPFR_RNDN);
            if (s) mpfr_neg(x, x, MPFR_RNDN);
            visit(f, x);
            mpfr_set(x, m, MPFR_RNDN);
            if (s) mpfr_neg(x, x, MPFR_RNDN);
            visit(f, x);
            mpfr_add(x, m, t, MPFR_RNDN);
            if (s) mpfr_neg(x, x, MPFR_RNDN);
            visit(f, x);
            mpfr_sub(x, m, t, MPFR_RNDN);
            if (s) mpfr_neg(x, x, MPFR_RNDN);
            visit(f, x);
            mpfr_clear(x);
        }
    }
    /* Far beyond max, far below min subnormal, zeros, Inf, NaN. */
    mpfr_set_ui_2exp(a, 3, 5000, MPFR_RNDN);
    visit(f, a);
    mpfr_neg(a, a, MPFR_RNDN);
    visit(f, a);
    mpfr_set_ui_2exp(a, 3, -5000, MPFR_RNDN);
    visit(f, a);
    mpfr_neg(a, a, MPFR_RNDN);
    visit(f, a);
    mpfr_set_zero(a, 1);
    visit(f, a);
    mpfr_set_zero(a, -1);
    visit(f, a);
    mpfr_set_inf(a, 1);
    visit(f, a);
    mpfr_set_inf(a, -1);
    visit(f, a);
    mpfr_set_nan(a);
    visit(f, a);
    mpfr_clears(a, b, m, t, (mpfr_ptr)0);
}

static void visit_all_modes(const tc_format *f, const mpfr_t x)
{
    for (int mi = 0; mi < 7; mi++)
        for (int oi = 0; oi < 3; oi++)
            for (int ftz = 0; ftz < 2; ftz++) {
                tc_rounding r = {.mode = all_modes[mi], .ovf = all_ovf[oi], .ftz = ftz};
                static const uint32_t rb[] = {0, 0x80000000u, 0x7FFFFFFFu, 0xFFFFFFFFu, 12345};
                int nrb = r.mode == TC_RS ? 5 : 1;
                for (int k = 0; k < nrb; k++) {
                    r.rbits = rb[k];
                    check_encode(f, x, r);
                }
            }
}

static void boundary_cases_match_mpfr_every_mode(void **state)
{
    for (size_t i = 0; i < NSMALL; i++)
        boundary_inputs(small_formats[i], visit_all_modes);
    boundary_inputs(&tc_tf32, visit_all_modes);
}

/* xorshift64*: reproducible inputs. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static const tc_format *const random_targets[] = {
    &tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32, &tc_e2m1, &tc_e3m2, &tc_e2m3, &tc_e8m0,
};

/* Random float32 inputs, biased so every target sees its interesting
 * exponents: each checks one (format, mode, overflow, ftz) in turn, through
 * the public fast path tc_encode_f32, against MPFR. */
static void random_f32_match_mpfr(void **state)
{
    long n = 10000000 / SCALE;
    uint64_t s = 0x9E3779B97F4A7C15ull;
    mpfr_t x;
    mpfr_init2(x, 64);
    size_t nt = sizeof random_targets / sizeof random_targets[0];
    for (long i = 0; i < n; i++) {
        uint64_t z = rng_next(&s);
        uint32_t bits = (uint32_t)z;
        const tc_format *f = random_targets[(z >> 32) % nt];
        /* Half the inputs get an exponent near the target's range. */
        if ((z >> 40) & 1) {
            int lo = tc_format_emin(f) - f->mbits - 3, hi = tc_format_emax(f) + 3;
            int e = lo + (int)((z >> 41) % (uint64_t)(hi - lo + 1));
            if (e >= -126 && e <= 127)
                bits = (bits & 0x807FFFFFu) | ((uint32_t)(e + 127) << 23);
        }
        tc_rounding r = {.mode = all_modes[(z >> 50) % 7], .ovf = all_ovf[(z >> 53) % 3],
                         .ftz = (z >> 56) & 1, .rbits = (uint32_t)(z >> 20)};
        float fx;
        memcpy(&fx, &bits, sizeof fx);
        mpfr_set_flt(x, fx, MPFR_RNDN);
        uint64_t got = tc_encode_f32(f, fx, r);
        if (!ref_matches(f, x, r, got))
            fail_msg("%s %s/%s%s rbits=0x%x: f32 0x%08x -> 0x%llx differs from MPFR", f->name,
                     tc_round_name(r.mode), tc_overflow_name(r.ovf), r.ftz ? "/ftz" : "",
                     r.rbits, bits, (unsigned long long)got);
    }
    mpfr_clear(x);
}

static void random_f64_match_mpfr(void **state)
{
    long n = 1000000 / SCALE;
    uint64_t s = 0x243F6A8885A308D3ull;
    mpfr_t x;
    mpfr_init2(x, 64);
    const tc_format *targets[] = {&tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32, &tc_f32,
                                  &tc_e2m1, &tc_e8m0};
    for (long i = 0; i < n; i++) {
        uint64_t bits = rng_next(&s), z = rng_next(&s);
        const tc_format *f = targets[z % 8];
        if ((z >> 8) & 1) {
            int lo = tc_format_emin(f) - f->mbits - 3, hi = tc_format_emax(f) + 3;
            int e = lo + (int)((z >> 9) % (uint64_t)(hi - lo + 1));
            bits = (bits & 0x800FFFFFFFFFFFFFull) | ((uint64_t)(e + 1023) << 52);
        }
        tc_rounding r = {.mode = all_modes[(z >> 30) % 7], .ovf = all_ovf[(z >> 33) % 3],
                         .ftz = (z >> 36) & 1, .rbits = (uint32_t)(z >> 37)};
        double d;
        memcpy(&d, &bits, sizeof d);
        mpfr_set_d(x, d, MPFR_RNDN);
        uint64_t got = tc_encode_f64(f, d, r);
        if (!ref_matches(f, x, r, got))
            fail_msg("%s %s/%s%s: f64 0x%016llx -> 0x%llx differs from MPFR", f->name,
                     tc_round_name(r.mode), tc_overflow_name(r.ovf), r.ftz ? "/ftz" : "",
                     (unsigned long long)bits, (unsigned long long)got);
    }
    mpfr_clear(x);
}

/* Values wider than 64 bits (MPFR at 200 bits) round once through the
 * top-64 + sticky contract. */
static void wide_values_round_once(void **state)
{
    uint64_t s = 42;
    mpfr_t x, t;
    mpfr_inits2(200, x, t, (mpfr_ptr)0);
    for (int i = 0; i < 20000 / (SCALE > 1 ? 10 : 1); i++) {
        const tc_format *f = random_targets[rng_next(&s) % 9];
        /* a grid midpoint plus or minus a tiny amount: the hard cases */
        uint64_t code = rng_next(&s) % (npatterns(f) / 2 - 1);
        if (ref_read_fields(f, code << f->shift, x) != REF_FIN)
            continue;
        mpfr_set_ui_2exp(t, 1, ref_ulp_exp(f, x) - 1, MPFR_RNDN);
        mpfr_add(x, x, t, MPFR_RNDN);
        mpfr_set_ui_2exp(t, 1, ref_ulp_exp(f, x) - 100 - (int)(rng_next(&s) % 60), MPFR_RNDN);
        if (rng_next(&s) & 1)
            mpfr_add(x, x, t, MPFR_RNDN);
        else
            mpfr_sub(x, x, t, MPFR_RNDN);
        if (rng_next(&s) & 1)
            mpfr_neg(x, x, MPFR_RNDN);
        tc_rounding r = {.mode = all_modes[rng_next(&s) % 7], .ovf = all_ovf[rng_next(&s) % 3],
                         .rbits = (uint32_t)rng_next(&s)};
        check_encode(f, x, r);
    }
    mpfr_clears(x, t, (mpfr_ptr)0);
}

/* Stochastic rounding: the same rbits give the same bits, and the mean of
 * many roundings of one value with uniform rbits is that value. */
static void stochastic_is_reproducible_and_unbiased(void **state)
{
    const tc_format *f = &tc_bf16;
    float x = 1.0f + 0x1.3p-9f;   /* 0.59375 of the way from 1 to 1 + 2^-7 */
    uint64_t s = 7;
    double sum = 0;
    long n = 1 << 20;
    for (long i = 0; i < n; i++) {
        tc_rounding r = {.mode = TC_RS, .rbits = (uint32_t)rng_next(&s)};
        uint64_t a = tc_encode_f32(f, x, r), b = tc_encode_f32(f, x, r);
        assert_int_equal(a, b);
        sum += tc_decode_to_f64(f, a);
    }
    double mean = sum / (double)n;
    /* The step is 2^-7; the standard error of the mean is < 2^-7 / 2^10. */
    assert_true(fabs(mean - (double)x) < 4 * 0x1p-7 / 1024);
    /* An exact value never moves. */
    tc_rounding r = {.mode = TC_RS, .rbits = 0xFFFFFFFFu};
    assert_int_equal(tc_encode_f32(f, 1.5f, r), 0x3FC0);
}

/* Spot facts that follow from the specifications (OCP FP8, IEEE 754),
 * each derived here from the format descriptor, not typed in. */
static void format_properties_follow_the_fields(void **state)
{
    char buf[64];
    tc_value_to_hex(tc_format_max(&tc_e4m3), buf, sizeof buf);
    assert_string_equal(buf, "0x1.cp+8");    /* 448: S.1111.110 */
    tc_value_to_hex(tc_format_max(&tc_e5m2), buf, sizeof buf);
    assert_string_equal(buf, "0x1.cp+15");   /* 57344 */
    assert_true(tc_decode_to_f64(&tc_e4m3, 0x7E) == 448.0);
    assert_true(tc_decode_to_f64(&tc_e5m2, 0x7B) == 57344.0);
    assert_true(tc_decode_to_f64(&tc_e2m1, 0x7) == 6.0);
    assert_true(tc_decode_to_f64(&tc_e8m0, 0x7F) == 1.0);
    assert_int_equal(tc_classify(&tc_e8m0, 0xFF), TC_NAN);
    assert_int_equal(tc_classify(&tc_e4m3, 0x7F), TC_NAN);
    assert_int_equal(tc_classify(&tc_e4m3, 0x78), TC_FINITE);   /* 256: no Inf in E4M3 */
    assert_int_equal(tc_classify(&tc_e5m2, 0x7C), TC_INF);
    assert_int_equal(tc_format_emin(&tc_f16), -14);
    assert_int_equal(tc_format_emax(&tc_bf16), 127);
    assert_int_equal(tc_format_mask(&tc_tf32), 0xFFFFE000u);
    tc_value_to_hex(tc_format_min_subnormal(&tc_f16), buf, sizeof buf);
    assert_string_equal(buf, "0x1p-24");
    tc_format scratch;
    const tc_format *g = tc_format_by_name("e3m4", &scratch);
    assert_non_null(g);
    assert_int_equal(g->bias, 3);
    assert_null(tc_format_by_name("e0m3", &scratch));
    assert_ptr_equal(tc_format_by_name("fp16", &scratch), &tc_f16);
    assert_ptr_equal(tc_format_by_name("fp8e4m3", &scratch), &tc_e4m3);
    assert_null(tc_format_by_name("f17", &scratch));
}

/* The overflow policy on E4M3, where "Inf" has no encoding. */
static void e4m3_overflow_policy(void **state)
{
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    tc_rounding rz = {.mode = TC_RZ, .ovf = TC_OVF_INF};
    tc_rounding rzn = {.mode = TC_RZ, .ovf = TC_OVF_NAN};
    tc_rounding sat = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
    assert_int_equal(tc_encode_f32(&tc_e4m3, 464.0f, rne), 0x7E);    /* tie to even: 448 */
    assert_int_equal(tc_encode_f32(&tc_e4m3, 464.5f, rne), 0x7F);    /* NaN */
    assert_int_equal(tc_encode_f32(&tc_e4m3, -500.0f, rne), 0xFF);   /* -NaN, as cuda_fp8 */
    assert_int_equal(tc_encode_f32(&tc_e4m3, 500.0f, rz), 0x7E);
    assert_int_equal(tc_encode_f32(&tc_e4m3, 500.0f, rzn), 0x7F);
    assert_int_equal(tc_encode_f32(&tc_e4m3, -INFINITY, sat), 0xFE);
    assert_int_equal(tc_encode_f32(&tc_e4m3, INFINITY, rne), 0x7F);
    assert_int_equal(tc_encode_f32(&tc_e4m3, -NAN, sat), 0x7F);
    assert_int_equal(tc_encode_f32(&tc_e5m2, INFINITY, sat), 0x7B);
    assert_int_equal(tc_encode_f32(&tc_e5m2, 1e6f, rz), 0x7B);
    assert_int_equal(tc_encode_f32(&tc_e5m2, 1e6f, rne), 0x7C);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_small_pattern_decodes_to_its_field_value),
        cmocka_unit_test(every_tf32_pattern_decodes_to_its_field_value),
        cmocka_unit_test(daz_reads_subnormals_as_signed_zero),
        cmocka_unit_test(encode_of_decode_is_identity_small),
        cmocka_unit_test(encode_of_decode_is_identity_tf32),
        cmocka_unit_test(encode_of_decode_is_identity_ints),
        cmocka_unit_test(format_properties_follow_the_fields),
        cmocka_unit_test(e4m3_overflow_policy),
        cmocka_unit_test(boundary_cases_match_mpfr_every_mode),
        cmocka_unit_test(wide_values_round_once),
        cmocka_unit_test(stochastic_is_reproducible_and_unbiased),
        cmocka_unit_test(random_f32_match_mpfr),
        cmocka_unit_test(random_f64_match_mpfr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
