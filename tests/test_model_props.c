/* Model property tests: each parameter changes the results it should, on
 * inputs built to expose it, and leaves alone the results it cannot touch
 * (random inputs of a class where the parameter is irrelevant). Values are
 * written as hex floats and encoded with tc_encode, so every case can be
 * checked by hand. The base setting: f16 x f16 + f32 -> f32, blocks of 16,
 * 24 fraction bits truncated, f32 accumulator rounded toward zero. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/model.h"

#if defined(__SANITIZE_ADDRESS__)
#define RANDOM_CASES 3000
#else
#define RANDOM_CASES 100000
#endif

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

static oracle_formats fmts(void)
{
    oracle_formats f = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};
    return f;
}

static model_params base(void)
{
    model_params p = model_params_exact(fmts(), rne);
    p.block = 16;
    p.align_bits = 24;
    p.align_round = MODEL_ALIGN_TRUNC;
    p.acc_exact = false;
    p.acc_fmt = tc_f32;
    p.acc_round = TC_RZ;
    p.c_round = TC_RZ;
    return p;
}

static uint64_t enc(const tc_format *f, double x)
{
    return tc_encode_f64(f, x, rne);
}

static double dec(uint64_t bits)
{
    return tc_decode_to_f64(&tc_f32, bits);
}

/* d = sum a[i]*b[i] + c under p, as a double (f32 outputs are exact in double). */
static double run(const model_params *p, int k, const double *a, const double *b, double c)
{
    uint64_t ab[64], bb[64];
    for (int i = 0; i < k; i++) {
        ab[i] = enc(&tc_f16, a[i]);
        bb[i] = enc(&tc_f16, b[i]);
        /* the test values are chosen representable */
        assert_true(tc_decode_to_f64(&tc_f16, ab[i]) == a[i]);
        assert_true(tc_decode_to_f64(&tc_f16, bb[i]) == b[i]);
    }
    return dec(model_dot_params(p, fmts(), k, ab, bb, enc(&tc_f32, c)));
}

static uint64_t rng_state = 99;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* f16 bits with exponent field in [elo, ehi], random sign and fraction. */
static uint64_t rnd_f16(int elo, int ehi)
{
    uint64_t e = (uint64_t)(elo + (int)(rnd64() % (uint64_t)(ehi - elo + 1)));
    return ((rnd64() & 1) << 15) | (e << 10) | (rnd64() & 0x3FF);
}

/* Random elements of a class in which x and y must agree. */
typedef void (*gen_fn)(int *k, uint64_t *a, uint64_t *b, uint64_t *c);

static void assert_same_on(const model_params *x, const model_params *y, gen_fn gen)
{
    char err[200];
    model *mx = model_new(x, fmts(), err, sizeof err), *my = model_new(y, fmts(), err, sizeof err);
    assert_non_null(mx);
    assert_non_null(my);
    uint64_t a[64], b[64], c;
    for (int it = 0; it < RANDOM_CASES; it++) {
        int k;
        gen(&k, a, b, &c);
        uint64_t dx = model_dot(mx, k, a, b, c), dy = model_dot(my, k, a, b, c);
        if (dx != dy)
            fail_msg("case %d (k=%d a0=0x%llx b0=0x%llx c=0x%llx): 0x%llx vs 0x%llx", it, k,
                     (unsigned long long)a[0], (unsigned long long)b[0], (unsigned long long)c,
                     (unsigned long long)dx, (unsigned long long)dy);
    }
    model_free(mx);
    model_free(my);
}

/* All products in [1,4) with 22-bit significands (lowest bit 2^-20), C zero:
 * the reference is 2^0 or 2^1, so no bit lies more than 21 bits below it and
 * any alignment of >= 21 bits shifts nothing out. */
static void gen_same_exponent(int *k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    *k = 1 + (int)(rnd64() % 16);
    for (int i = 0; i < *k; i++) {
        a[i] = rnd_f16(15, 15);
        b[i] = rnd_f16(15, 15);
    }
    *c = 0;
}

static void gen_short_k(int *k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    *k = 1 + (int)(rnd64() % 4);
    for (int i = 0; i < *k; i++) {
        a[i] = rnd_f16(1, 30);
        b[i] = rnd_f16(1, 30);
    }
    *c = enc(&tc_f32, (double)(int64_t)(rnd64() % 2001) - 1000.0);
}

static void gen_normal(int *k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    *k = 1 + (int)(rnd64() % 32);
    for (int i = 0; i < *k; i++) {
        a[i] = rnd_f16(8, 22);
        b[i] = rnd_f16(8, 22);
    }
    *c = enc(&tc_f32, (double)(int64_t)(rnd64() % 2001) / 64.0);
}

static void gen_nonzero_c_zero(int *k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    gen_normal(k, a, b, c);
    *c = 0;
    a[0] = rnd_f16(8, 22);   /* at least one nonzero product */
}

/* ---- alignment width ---- */

static void test_align_bits_23_vs_24_differ_on_two_ulp_tail(void **state)
{
    model_params p23 = base(), p24 = base();
    p23.align_bits = 23;
    /* 1 + 2^-24 + 2^-24: 24 kept bits see both tails (sum 1 + 2^-23); 23 drop them. */
    double a[3] = {1, 0x1p-12, 0x1p-12}, b[3] = {1, 0x1p-12, 0x1p-12};
    assert_true(run(&p24, 3, a, b, 0) == 1 + 0x1p-23);
    assert_true(run(&p23, 3, a, b, 0) == 1);
}

static void test_align_bits_cannot_matter_within_one_exponent(void **state)
{
    model_params x = base(), y = base();
    x.align_bits = 22;
    y.align_bits = 40;
    assert_same_on(&x, &y, gen_same_exponent);
}

/* ---- rounding of shifted-out bits ---- */

static void test_align_round_trunc_floor_rne(void **state)
{
    model_params t = base(), f = base(), r = base();
    f.align_round = MODEL_ALIGN_FLOOR;
    r.align_round = MODEL_ALIGN_RNE;
    /* 1 - 0.75 * 2^-24 with a grid of 2^-24: toward zero keeps 1; floor and
     * nearest give 1 - 2^-24 (exact in f32). */
    double a[2] = {1, -0x1.8p-13}, b[2] = {1, 0x1p-12};
    assert_true(run(&t, 2, a, b, 0) == 1);
    assert_true(run(&f, 2, a, b, 0) == 1 - 0x1p-24);
    assert_true(run(&r, 2, a, b, 0) == 1 - 0x1p-24);
    /* 0.25 of the grid below: floor still takes a grid step, nearest does not. */
    double a2[2] = {1, -0x1p-13}, b2[2] = {1, 0x1p-13};
    assert_true(run(&f, 2, a2, b2, 0) == 1 - 0x1p-24);
    assert_true(run(&r, 2, a2, b2, 0) == 1);
    assert_true(run(&t, 2, a2, b2, 0) == 1);
}

static void test_align_round_cannot_matter_without_shifted_bits(void **state)
{
    model_params x = base(), y = base();
    x.align_round = MODEL_ALIGN_FLOOR;
    y.align_round = MODEL_ALIGN_RNE;
    x.align_bits = y.align_bits = 30;
    assert_same_on(&x, &y, gen_same_exponent);
}

/* ---- block size and steps ---- */

static void test_block_size_changes_stepwise_truncation(void **state)
{
    model_params b4 = base(), b8 = base(), b16 = base();
    b4.block = 4;
    b8.block = 8;
    b4.align_bits = b8.align_bits = b16.align_bits = 30;
    /* 1 followed by 15 terms of 2^-26 (1/8 ulp of 1 in f32): one step keeps
     * 15/8 ulp (RZ: 1 ulp); steps of 4 lose 3/8 then 4/8 ulp each time. */
    double a[16], b[16];
    a[0] = b[0] = 1;
    for (int i = 1; i < 16; i++) {
        a[i] = 0x1p-13;
        b[i] = 0x1p-13;
    }
    assert_true(run(&b16, 16, a, b, 0) == 1 + 0x1p-23);
    assert_true(run(&b8, 16, a, b, 0) == 1 + 0x1p-23);
    assert_true(run(&b4, 16, a, b, 0) == 1);
    /* The large term last: steps of 8 sum the first 8 tails exactly (2^-23)
     * before it, steps of 16 see 15/8 ulp beside it. Moving it tells 8 from 16. */
    double a2[16], b2[16];
    for (int i = 0; i < 16; i++) {
        a2[i] = 0x1p-13;
        b2[i] = 0x1.8p-13;   /* 1.5 * 2^-26 = 3/16 ulp */
    }
    a2[15] = b2[15] = 1;
    double r16 = run(&b16, 16, a2, b2, 0), r8 = run(&b8, 16, a2, b2, 0);
    /* 16: 1 + 15*3/16 ulp = 1 + 2.8125 ulp -> 1 + 2 ulp;
     * 8: 8*3/16 = 1.5 ulp exactly (kept: acc is tiny), then 1 + 1.5 + 7*3/16 = 1 + 2.8125 -> 2 ulp */
    assert_true(r16 == 1 + 0x1p-22);
    assert_true(r8 == 1 + 0x1p-22);
    /* With a grid of 2^-24 the first step of 8 is exact but the block of 16
     * drops the 3/16-ulp tails at once. */
    b8.align_bits = b16.align_bits = 24;
    assert_true(run(&b16, 16, a2, b2, 0) == 1);
    assert_true(run(&b8, 16, a2, b2, 0) == 1 + 0x1p-23);
}

static void test_block_size_cannot_matter_for_one_step(void **state)
{
    model_params x = base(), y = base();
    x.block = 4;
    y.block = 16;
    assert_same_on(&x, &y, gen_short_k);
}

/* Runs of 2 dealt over two steps of 4: positions {0,1,4,5} then {2,3,6,7}.
 * The same model fed the permuted inputs contiguously agrees everywhere;
 * fed them as given it does not. */
static void test_step_split_deals_runs_over_the_steps(void **state)
{
    model_params split = base(), contig = base();
    split.block = contig.block = 4;
    split.split_runs = 2;
    int idx[8];
    assert_true(model_step_order(&split, 8, idx));
    static const int want[8] = {0, 1, 4, 5, 2, 3, 6, 7};
    assert_memory_equal(idx, want, sizeof want);
    assert_false(model_step_order(&contig, 8, idx));
    char err[200];
    model *ms = model_new(&split, fmts(), err, sizeof err), *mc = model_new(&contig, fmts(), err, sizeof err);
    assert_non_null(ms);
    assert_non_null(mc);
    int differ = 0;
    for (int it = 0; it < RANDOM_CASES; it++) {
        uint64_t a[8], b[8], pa[8], pb[8], c = 0;
        for (int i = 0; i < 8; i++) {
            a[i] = rnd_f16(8, 22);
            b[i] = rnd_f16(8, 22);
        }
        for (int i = 0; i < 8; i++) {
            pa[i] = a[want[i]];
            pb[i] = b[want[i]];
        }
        assert_int_equal(model_dot(ms, 8, a, b, c), model_dot(mc, 8, pa, pb, c));
        differ += model_dot(ms, 8, a, b, c) != model_dot(mc, 8, a, b, c);
    }
    assert_true(differ > 0);
    model_free(ms);
    model_free(mc);
    /* runs must divide the block */
    split.split_runs = 3;
    assert_non_null(model_params_check(&split, fmts()));
    split.split_runs = 4;
    assert_non_null(model_params_check(&split, fmts()));
}

/* ---- where C enters ---- */

static void test_c_first_vs_last(void **state)
{
    model_params first = base(), last = base();
    last.c_mode = MODEL_C_LAST;
    last.c_round = TC_RNE;
    /* C = 1, products 2^-26 each (3 of them): in the fused sum with C they
     * are cut on C's grid (2^-24): 0; added to C last as one exact sum 3*2^-26
     * = 0.375 ulp -> RNE 1. Make the tails 2^-24 each instead: fused with C
     * they count (1 + 3*2^-24 -> RZ 1 + 2^-23); summed first (exactly, 3*2^-24)
     * then added with RNE: 1 + 1.5 ulp -> 1 + 2 ulp. */
    double a[3] = {0x1p-12, 0x1p-12, 0x1p-12}, b[3] = {0x1p-12, 0x1p-12, 0x1p-12};
    assert_true(run(&first, 3, a, b, 1) == 1 + 0x1p-23);
    assert_true(run(&last, 3, a, b, 1) == 1 + 0x1p-22);
}

static void test_c_mode_cannot_matter_when_c_is_zero(void **state)
{
    model_params x = base(), y = base();
    y.c_mode = MODEL_C_LAST;
    assert_same_on(&x, &y, gen_nonzero_c_zero);
}

/* ---- alignment reference ---- */

static void test_align_ref_with_or_without_c(void **state)
{
    model_params all = base(), prods = base();
    prods.align_with_acc = false;
    all.align_bits = prods.align_bits = 10;
    /* C = 2^10 is the largest term; the product 1 + 2^-10 keeps its low bit
     * only when the grid hangs from the product (2^-10), not from C (2^0). */
    double a[1] = {1 + 0x1p-10}, b[1] = {1};
    assert_true(run(&all, 1, a, b, 1024) == 1025);
    assert_true(run(&prods, 1, a, b, 1024) == 1025 + 0x1p-10);
}

static void test_nominal_vs_normalized_exponent(void **state)
{
    model_params nom = base(), nor = base();
    nom.exp_ref = MODEL_EXP_NOMINAL;
    nom.align_bits = nor.align_bits = 4;
    /* 1.5 * 1.5 = 2.25 has nominal exponent 0 but is 1.125 * 2^1. With 4
     * bits below the reference: nominal grid 2^-4 keeps 0.0625 tails of
     * 2^-4 (1/16); normalized grid 2^-3 drops them. */
    double a[2] = {1.5, 0x1p-4}, b[2] = {1.5, 1};
    assert_true(run(&nom, 2, a, b, 0) == 2.25 + 0x1p-4);
    assert_true(run(&nor, 2, a, b, 0) == 2.25);
}

/* ---- accumulator and output ---- */

static void test_acc_rounding_between_steps(void **state)
{
    model_params rz = base(), rn = base(), ex = base();
    rz.block = rn.block = ex.block = 1;
    rn.acc_round = TC_RNE;
    ex.acc_exact = true;
    ex.align_bits = rz.align_bits = rn.align_bits = 40;
    /* 1 + 0.75 ulp + 0.75 ulp, one term per step: RZ keeps 1 twice; RNE
     * rounds up twice (1 + 2 ulp); held exactly: 1 + 1.5 ulp -> RNE 1 + 2 ulp,
     * so the difference shows with 0.5 + 0.5: RNE ties to even (1, 1), exact
     * gives 1 + 1 ulp. */
    double a[3] = {1, 0x1.8p-12, 0x1.8p-12}, b[3] = {1, 0x1p-12, 0x1p-12};
    assert_true(run(&rz, 3, a, b, 0) == 1);
    assert_true(run(&rn, 3, a, b, 0) == 1 + 0x1p-22);
    double a2[3] = {1, 0x1p-12, 0x1p-12}, b2[3] = {1, 0x1p-12, 0x1p-12};
    assert_true(run(&rn, 3, a2, b2, 0) == 1);
    assert_true(run(&ex, 3, a2, b2, 0) == 1 + 0x1p-23);
}

static void test_product_rounding(void **state)
{
    model_params ex = base(), p12 = base();
    p12.prod_bits = 12;
    p12.prod_round = TC_RZ;
    /* (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 needs 21 bits; 12 bits drop 2^-20. */
    double a[1] = {1 + 0x1p-10}, b[1] = {1 + 0x1p-10};
    assert_true(run(&ex, 1, a, b, 0) == 1 + 0x1p-9 + 0x1p-20);
    assert_true(run(&p12, 1, a, b, 0) == 1 + 0x1p-9);
}

/* ---- subnormals ---- */

static void test_ftz_each_stage(void **state)
{
    double sub = 0x1p-20;   /* f16 subnormal */
    double a[1] = {sub}, b[1] = {0x1p10};
    model_params p = base();
    assert_true(run(&p, 1, a, b, 0) == 0x1p-10);
    p.ftz_a = true;
    assert_true(run(&p, 1, a, b, 0) == 0);
    p = base();
    p.ftz_b = true;   /* B is normal: nothing flushed */
    assert_true(run(&p, 1, a, b, 0) == 0x1p-10);
    /* products below 2^-30 flushed */
    double a2[1] = {0x1p-14}, b2[1] = {0x1p-17};
    p = base();
    assert_true(run(&p, 1, a2, b2, 0) == 0x1p-31);
    p.prod_flush_exp = -30;
    assert_true(run(&p, 1, a2, b2, 0) == 0);
    /* C subnormal in f32 */
    p = base();
    double z[1] = {0};
    assert_true(run(&p, 1, z, z, 0x1p-140) == 0x1p-140);
    p.ftz_c = true;
    assert_true(run(&p, 1, z, z, 0x1p-140) == 0);
    /* output flush: the product 2^-14 * 2^-14 * 2^-100... use C */
    p = base();
    p.ftz_out = true;
    assert_true(run(&p, 1, z, z, 0x1p-140) == 0);
    p.ftz_out = false;
    p.ftz_acc = true;
    assert_true(run(&p, 1, z, z, 0x1p-140) == 0);
}

static void test_ftz_cannot_matter_without_subnormals(void **state)
{
    model_params x = base(), y = base();
    y.ftz_a = y.ftz_b = y.ftz_c = y.ftz_acc = y.ftz_out = true;
    assert_same_on(&x, &y, gen_normal);
}

/* ---- input conversion ---- */

static void test_tf32_operands_truncated_or_used_whole(void **state)
{
    oracle_formats f = {&tc_tf32, &tc_tf32, &tc_f32, &tc_f32};
    model_params trunc = model_params_exact(f, rne), whole = trunc, rnd = trunc;
    whole.cvt_a.convert = whole.cvt_b.convert = false;
    rnd.cvt_a.round = rnd.cvt_b.round = TC_RNE;
    /* a = 1 + 2^-11 + 2^-12 as f32 bits: tf32 keeps 10 fraction bits. */
    uint64_t a = 0x3F800000 | (1u << 12) | (1u << 11), b = 0x3F800000;
    uint64_t one = 0x3F800000;
    assert_int_equal(model_dot_params(&trunc, f, 1, &a, &b, 0), one);
    assert_int_equal(model_dot_params(&whole, f, 1, &a, &b, 0), a);
    assert_int_equal(model_dot_params(&rnd, f, 1, &a, &b, 0), one + (1u << 13));
    /* bits below tf32 zero: the three agree */
    uint64_t a2 = 0x3F812000;
    assert_int_equal(model_dot_params(&trunc, f, 1, &a2, &b, 0), model_dot_params(&whole, f, 1, &a2, &b, 0));
}

static void test_fp8_widened_to_f16_keeps_values_but_moves_ftz(void **state)
{
    oracle_formats f = {&tc_e4m3, &tc_e4m3, &tc_f32, &tc_f32};
    model_params p = model_params_exact(f, rne), w = p;
    w.cvt_a.convert = w.cvt_b.convert = true;
    w.cvt_a.fmt = w.cvt_b.fmt = tc_f16;
    w.cvt_a.round = w.cvt_b.round = TC_RNE;
    p.ftz_a = w.ftz_a = true;
    /* 0x01 is e4m3's smallest subnormal (2^-9): flushed as e4m3, normal as f16 */
    uint64_t a = 0x01, b = 0x38;   /* b = 1 */
    assert_int_equal(model_dot_params(&p, f, 1, &a, &b, 0), 0);
    assert_int_equal(model_dot_params(&w, f, 1, &a, &b, 0), 0x3B000000);   /* 2^-9 */
}

/* ---- specials ---- */

static void test_nan_pattern_and_inf(void **state)
{
    model_params p = base();
    p.nan_bits = 0x7FC00001;
    uint64_t inf = 0x7C00, ninf = 0xFC00, one = 0x3C00, zero = 0;
    uint64_t a[2] = {inf, ninf}, b[2] = {one, one};
    assert_int_equal(model_dot_params(&p, fmts(), 2, a, b, 0), 0x7FC00001);   /* Inf - Inf */
    assert_int_equal(model_dot_params(&p, fmts(), 1, a, b, 0), 0x7F800000);
    uint64_t z[1] = {zero};
    assert_int_equal(model_dot_params(&p, fmts(), 1, a, z, 0), 0x7FC00001);    /* Inf * 0 */
    p.out_ovf = TC_OVF_SAT;
    assert_int_equal(model_dot_params(&p, fmts(), 1, a, b, 0), 0x7F7FFFFF);
}

static void test_carry_bits_wrap_only_when_exceeded(void **state)
{
    model_params u = base(), c1 = base();
    c1.carry_bits = 1;
    c1.exp_ref = u.exp_ref = MODEL_EXP_NORMALIZED;
    /* The register: a sign bit and the integer bits up to the reference
     * exponent E plus carry_bits, two's complement: with E = 0 (1.5) and one
     * carry bit it holds [-2^(E+1+1), 2^(E+1+1)) = [-4, 4) and wraps modulo
     * 2^(E+1+1+1) = 8. 1.5 + 1.5 = 3 fits. 1.5*3 = 4.5 does not: 4.5 - 8 =
     * -3.5, exact in the f32 accumulator and output. */
    double a[3] = {1.5, 1.5, 1.5}, b[3] = {1, 1, 1};
    assert_true(run(&c1, 2, a, b, 0) == 3);
    assert_true(run(&u, 3, a, b, 0) == 4.5);
    assert_true(run(&c1, 3, a, b, 0) == -3.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_align_bits_23_vs_24_differ_on_two_ulp_tail),
        cmocka_unit_test(test_step_split_deals_runs_over_the_steps),
        cmocka_unit_test(test_align_bits_cannot_matter_within_one_exponent),
        cmocka_unit_test(test_align_round_trunc_floor_rne),
        cmocka_unit_test(test_align_round_cannot_matter_without_shifted_bits),
        cmocka_unit_test(test_block_size_changes_stepwise_truncation),
        cmocka_unit_test(test_block_size_cannot_matter_for_one_step),
        cmocka_unit_test(test_c_first_vs_last),
        cmocka_unit_test(test_c_mode_cannot_matter_when_c_is_zero),
        cmocka_unit_test(test_align_ref_with_or_without_c),
        cmocka_unit_test(test_nominal_vs_normalized_exponent),
        cmocka_unit_test(test_acc_rounding_between_steps),
        cmocka_unit_test(test_product_rounding),
        cmocka_unit_test(test_ftz_each_stage),
        cmocka_unit_test(test_ftz_cannot_matter_without_subnormals),
        cmocka_unit_test(test_tf32_operands_truncated_or_used_whole),
        cmocka_unit_test(test_fp8_widened_to_f16_keeps_values_but_moves_ftz),
        cmocka_unit_test(test_nan_pattern_and_inf),
        cmocka_unit_test(test_carry_bits_wrap_only_when_exceeded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
