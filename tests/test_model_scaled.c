/* The block-scaled arithmetic (model_dot_scaled, oracle/model_reference.c)
 * against the exact oracle (oracle_dot_scaled_exact: exact_dot's fixed
 * point, none of the model's code), and the ISA table of the scaled forms
 * (oracle/model_scales.c):
 *   - with exact parameters the model is the correctly rounded answer, on
 *     random blocks of every kind (FP8, FP6, FP4 operands; E8M0 and UE4M3
 *     scales, NaN and zero scales among them), with and without groups;
 *   - hand-made blocks whose answer under a narrow alignment is known: the
 *     model equals the oracle of the same block with exactly the terms the
 *     alignment must drop removed (and differs from the full block's);
 *   - names: each kind's K, scale format and block; bad names refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/model.h"
#include "oracle/model_scales.h"

#if defined(__SANITIZE_ADDRESS__)
#define RANDOM_BLOCKS 300
#else
#define RANDOM_BLOCKS 3000
#endif

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *forms[] = {
    "mma.m16n8k32.f32.e4m3.e4m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0",
    "mma.m16n8k32.f32.e5m2.e2m3.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0",
    "mma.m16n8k32.f32.e3m2.e2m1.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0",
    "mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4.block_scale.scale_vec::2X.ue8m0",
    "mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3",
    "tcgen05.mma.m128n8k32.f32.e4m3.e5m2.kind::mxf8f6f4.block_scale",
};
#define NFORMS (sizeof forms / sizeof forms[0])

static model_kind_form form(const char *name)
{
    model_kind_form f;
    char err[200];
    if (!model_kind_form_of(name, &f, err, sizeof err))
        fail_msg("%s", err);
    return f;
}

/* A scale: mostly near 1 (so blocks overlap), sometimes anywhere in range. */
static uint64_t random_scale(const tc_format *fmt)
{
    uint64_t r = next();
    if (fmt == &tc_e8m0)
        return r % 8 == 0 ? r >> 8 & 0xFF : 127 - 6 + (r >> 8) % 12;
    return r % 8 == 0 ? r >> 8 & 0x7F : 0x30 + (r >> 8) % 0x20;   /* ue4m3: 0 and NaN (0x7F) included */
}

static uint64_t random_c(void)
{
    uint64_t r = next();
    if (r % 5 == 0)
        return (r >> 8) % 2 ? 0x80000000u : 0;
    return (r >> 32 & 0x807FFFFFu) | (uint64_t)(127 - 12 + (r >> 8) % 24) << 23;
}

/* k operands of format f: every code, Inf and NaN one block in eight. */
static void random_operands(const tc_format *f, int k, uint64_t *x)
{
    bool specials = next() % 8 == 0;
    for (int i = 0; i < k; i++)
        do
            x[i] = next() >> 11 & tc_format_mask(f);
        while (!specials && tc_classify(f, x[i]) >= TC_INF);
}

static model *model_of(const model_params *p, oracle_formats f)
{
    char err[200];
    model *m = model_new(p, f, err, sizeof err);
    if (!m)
        fail_msg("model_new: %s", err);
    return m;
}

/* Exact parameters (one step; then several steps of 8 with an exact
 * accumulator; then groups of 8 and 16): the correctly rounded answer. */
static void exact_params_give_the_oracle_on_random_blocks(void **state)
{
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    size_t compared = 0, nan = 0;
    for (size_t n = 0; n < NFORMS; n++) {
        model_kind_form sf = form(forms[n]);
        model_params p = model_params_exact(sf.f, rne);
        for (int variant = 0; variant < 4; variant++) {
            p.block = variant == 0 ? sf.k : 8 * (variant == 1 ? 1 : 2);
            p.scale_group = variant < 2 ? 0 : 8 * (variant - 1);   /* none, none, 8, 16 */
            model *m = model_of(&p, sf.f);
            for (int t = 0; t < RANDOM_BLOCKS; t++) {
                uint64_t a[64], b[64], sa[4], sb[4], c = random_c();
                random_operands(sf.f.a, sf.k, a);
                random_operands(sf.f.b, sf.k, b);
                for (int j = 0; j < sf.k / sf.block; j++) {
                    sa[j] = random_scale(sf.scale_fmt);
                    sb[j] = random_scale(sf.scale_fmt);
                }
                oracle_scales s = {sf.scale_fmt, sf.block, sa, sb};
                uint64_t want = oracle_dot_scaled_exact(sf.f, sf.k, a, b, c, &s, rne);
                uint64_t got = model_dot_scaled(m, sf.k, a, b, c, &s);
                if (got != want)
                    fail_msg("%s block %d group %d: model 0x%llx, oracle 0x%llx (c 0x%llx, sa[0] 0x%llx)", forms[n],
                             p.block, p.scale_group, (unsigned long long)got, (unsigned long long)want,
                             (unsigned long long)c, (unsigned long long)sa[0]);
                compared++;
                nan += want == sf.f.d->nan_bits;
            }
            model_free(m);
        }
    }
    printf("    %zu random blocks, %zu of them NaN: model = oracle\n", compared, nan);
    assert_true(nan > 0 && nan < compared / 4);
}

/* One element under params p (compiled, computed, freed). */
static uint64_t scaled_dot(const model_params *p, oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                           uint64_t c, const oracle_scales *s)
{
    model *m = model_of(p, f);
    uint64_t d = model_dot_scaled(m, k, a, b, c, s);
    model_free(m);
    return d;
}

/* Parameters of the shape the third parties publish: one fused sum of the
 * block aligned to its largest exponent keeping F bits, truncated, an f32
 * accumulator rounded toward zero. */
static model_params truncating(oracle_formats f, int block, int F, int group)
{
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, rne);
    p.block = block;
    p.align_bits = F;
    p.exp_ref = MODEL_EXP_NOMINAL;
    p.align_round = MODEL_ALIGN_TRUNC;
    p.acc_exact = false;
    p.acc_fmt = tc_f32;
    p.acc_round = TC_RZ;
    p.scale_group = group;
    return p;
}

/* mxf8f6f4, e5m2 x e5m2, scales 2^100 (A) and 2^-50 (B): one product 1 and
 * eight of 2^-13 * 2^-13 = 2^-26, so the exact sum 2^50 (1 + 2^-23) is an
 * f32. F = 25 drops the eight small ones (26 bits below): the model must
 * give 2^50 exactly, the oracle of the block without them; F = 26 keeps
 * them: the full block's oracle. */
static void narrow_alignment_drops_exactly_the_small_products(void **state)
{
    model_kind_form sf = form("mma.m16n8k32.f32.e5m2.e5m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0");
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    uint64_t a[32] = {0x3C}, b[32] = {0x3C}, kept[32] = {0x3C}, sa[1] = {127 + 100}, sb[1] = {127 - 50};
    for (int i = 1; i <= 8; i++)
        a[i] = b[i] = 0x08;   /* e5m2 2^-13 */
    oracle_scales s = {sf.scale_fmt, sf.block, sa, sb};
    uint64_t full = oracle_dot_scaled_exact(sf.f, 32, a, b, 0, &s, rne);
    uint64_t without = oracle_dot_scaled_exact(sf.f, 32, kept, b, 0, &s, rne);
    assert_int_equal(full, 0x58800001);
    assert_int_equal(without, 0x58800000);
    model_params p25 = truncating(sf.f, 32, 25, 0), p26 = truncating(sf.f, 32, 26, 0);
    assert_int_equal(scaled_dot(&p25, sf.f, 32, a, b, 0, &s), without);
    assert_int_equal(scaled_dot(&p26, sf.f, 32, a, b, 0, &s), full);
}

/* mxf4 (e2m1, E8M0 scales of 1), F = 2: position 0 holds 0.5 * 0.5 (its
 * nominal exponent -2), position 16 (the second group) 6 * 6 (nominal 4).
 * Without groups the reference is 4: the grid 2^2 drops 0.25, giving 36.
 * With groups of 16 each group offers its scales' exponent 0: the grid
 * 2^-2 keeps it, giving 36.25 (and would not from exponent 1 up). Each answer is the oracle of the block with
 * exactly the dropped terms removed, and the two differ. */
static void groups_align_at_the_scales_exponent(void **state)
{
    model_kind_form sf = form("mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4.block_scale.scale_vec::2X.ue8m0");
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    uint64_t a[64] = {0}, b[64] = {0}, sa[2] = {127, 127}, sb[2] = {127, 127};
    a[0] = b[0] = 0x1;    /* e2m1 0.5 */
    a[16] = b[16] = 0x7;  /* e2m1 6 */
    oracle_scales s = {sf.scale_fmt, sf.block, sa, sb};
    uint64_t full = oracle_dot_scaled_exact(sf.f, 64, a, b, 0, &s, rne);
    uint64_t a_big[64] = {0};
    a_big[16] = 0x7;
    uint64_t big = oracle_dot_scaled_exact(sf.f, 64, a_big, b, 0, &s, rne);
    assert_int_equal(full, 0x42110000);   /* 36.25 */
    assert_int_equal(big, 0x42100000);    /* 36 */
    model_params grouped = truncating(sf.f, 64, 2, 16), products = truncating(sf.f, 64, 2, 0);
    assert_int_equal(scaled_dot(&grouped, sf.f, 64, a, b, 0, &s), full);
    assert_int_equal(scaled_dot(&products, sf.f, 64, a, b, 0, &s), big);
    /* A group that cancels still offers its exponent; one of zeros does not:
     * 6*6 - 6*6 in group 2 (scale 2^4 via B's second scale) lifts the grid. */
    uint64_t sb2[2] = {127, 127 + 4};
    a[32] = b[32] = 0x7;
    a[33] = 0xF, b[33] = 0x7;   /* -6 * 6 */
    oracle_scales s2 = {sf.scale_fmt, sf.block, sa, sb2};
    assert_int_equal(oracle_dot_scaled_exact(sf.f, 64, a, b, 0, &s2, rne), full);
    assert_int_equal(scaled_dot(&grouped, sf.f, 64, a, b, 0, &s2), big);   /* E = 4: 0.25 dropped */
}

/* NVFP4: UE4M3 scales carry a significand; 1.5 * 1.25 on 1 * 1 is exact. */
static void ue4m3_scales_multiply_with_their_significand(void **state)
{
    model_kind_form sf = form("mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3");
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    uint64_t a[64] = {0}, b[64] = {0}, sa[4] = {0x3C, 0x38, 0x38, 0x38}, sb[4] = {0x3A, 0x38, 0x38, 0x38};
    a[0] = b[0] = 0x2;   /* e2m1 1 */
    oracle_scales s = {sf.scale_fmt, sf.block, sa, sb};
    assert_int_equal(oracle_dot_scaled_exact(sf.f, 64, a, b, 0, &s, rne), 0x3FF00000);   /* 1.875 */
    model_params p = truncating(sf.f, 64, 35, 16);
    assert_int_equal(scaled_dot(&p, sf.f, 64, a, b, 0, &s), 0x3FF00000);
    sa[0] = 0x7F;   /* NaN scale */
    assert_int_equal(scaled_dot(&p, sf.f, 64, a, b, 0, &s), tc_f32.nan_bits);
    sa[0] = 0;      /* zero scale: the group is a zero term */
    assert_int_equal(scaled_dot(&p, sf.f, 64, a, b, 0x3F800000, &s), 0x3F800000);
}

/* The PTX table: K, scale format and block of each kind; what it lacks is refused. */
static void names_give_the_isa_facts(void **state)
{
    static const struct {
        const char *name;
        int k, block;
        const tc_format *fmt;
    } good[] = {
        {"mma.m16n8k32.f32.e2m3.e3m2.f32.kind::mxf8f6f4.block_scale.scale_vec::1X.ue8m0", 32, 32, &tc_e8m0},
        {"mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4.block_scale.scale_vec::2X.ue8m0", 64, 32, &tc_e8m0},
        {"mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::2X.ue8m0", 64, 32, &tc_e8m0},
        {"mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3", 64, 16, &tc_ue4m3},
        {"tcgen05.mma.m128n8k64.f32.e2m1.e2m1.kind::mxf4nvf4.block_scale.scale_vec::4X", 64, 16, &tc_ue4m3},
        {"tcgen05.mma.m128n8k32.f32.e2m1.e4m3.kind::mxf8f6f4.block_scale", 32, 32, &tc_e8m0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        model_kind_form f = form(good[i].name);
        assert_int_equal(f.k, good[i].k);
        assert_int_equal(f.block, good[i].block);
        assert_ptr_equal(f.scale_fmt, good[i].fmt);
        assert_ptr_equal(f.f.d, &tc_f32);
    }
    model_kind_form u = form("mma.m16n8k32.f16.e3m2.e2m1.f16.kind::f8f6f4");
    assert_true(u.k == 32 && u.block == 0 && u.scale_fmt == NULL && u.f.a == &tc_e3m2 && u.f.c == &tc_f16);
    u = form("tcgen05.mma.m128n8k8.f32.tf32.tf32.kind::tf32");
    assert_true(u.k == 8 && u.block == 0 && u.f.a == &tc_tf32 && u.f.c == &tc_f32);
    static const char *bad[] = {
        "mma.m16n8k32.f32.e4m3.e4m3.f32.kind::f8f6f4.block_scale",
        "mma.m16n8k32.f32.e4m3.e4m3.f32.kind::mxf8f6f4",
        "mma.m16n8k32.f32.e4m3.e4m3.f32",
        "mma.m16n8k32.f32.e4m3.e4m3.f32.kind::mxf8f6f4.block_scale.scale_vec::2X.ue8m0",
        "mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4.block_scale.scale_vec::2X.ue4m3",
        "mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::4X.ue8m0",
        "mma.m16n8k32.f32.e4m3.e9m9.f32.kind::mxf8f6f4.block_scale",
        "wgmma.m64n8k32.f32.e4m3.e4m3.kind::mxf8f6f4.block_scale",
        "mma.m16n8k32.f32.e4m3.e4m3.f32.kind::mxf8f6f4.block_scale.satfinite",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        model_kind_form f;
        char err[200] = "";
        if (model_kind_form_of(bad[i], &f, err, sizeof err))
            fail_msg("accepted %s", bad[i]);
        assert_non_null(strstr(err, ": "));
    }
}

/* What model_dot_scaled cannot compute is refused by model_scaled_check
 * (and answered NaN, never read out of bounds). */
static void bad_scales_are_refused(void **state)
{
    model_kind_form sf = form("mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3");
    model_params p = truncating(sf.f, 64, 35, 32);   /* a group of 32 over scale blocks of 16 */
    model *m = model_of(&p, sf.f);
    uint64_t a[64] = {0x2}, b[64] = {0x2}, sa[4] = {0x38, 0x38, 0x38, 0x38};
    oracle_scales s = {sf.scale_fmt, sf.block, sa, sa};
    assert_non_null(model_scaled_check(m, 64, &s));
    assert_int_equal(model_dot_scaled(m, 64, a, b, 0, &s), tc_f32.nan_bits);
    oracle_scales odd = {&tc_ue4m3, 48, sa, sa}, fmt = {&tc_e4m3, 16, sa, sa};
    assert_non_null(model_scaled_check(m, 64, &odd));
    assert_non_null(model_scaled_check(m, 64, &fmt));
    model_free(m);
    p.scale_group = 16;
    m = model_of(&p, sf.f);
    assert_null(model_scaled_check(m, 64, &s));
    assert_int_equal(model_dot_scaled(m, 64, a, b, 0, &s), 0x3F800000);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_params_give_the_oracle_on_random_blocks),
        cmocka_unit_test(narrow_alignment_drops_exactly_the_small_products),
        cmocka_unit_test(groups_align_at_the_scales_exponent),
        cmocka_unit_test(ue4m3_scales_multiply_with_their_significand),
        cmocka_unit_test(names_give_the_isa_facts),
        cmocka_unit_test(bad_scales_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
