/* oracle/model_equiv.h: the proofs decide counts as "equivalent" hold where
 * they claim (every pair proven over the whole ranges of instructions that
 * exercise every rule answers the decide ladder, subnormal corners
 * included, sums of the largest operands of one sign, and random operands
 * alike), and claim nothing past their conditions: a term's bit below the
 * threshold (an f16 sum floored at 2^-47 or above, a product flushed below
 * 2^-47, an FP8 sum with C first floored above the accumulator's finest
 * bit), C added last (c_round), D rounding a sum it cannot hold
 * (out_round), a register K products can fill (carry_bits), an
 * accumulator overflow a sum reaches (acc_overflow) or D's range below the
 * accumulator's (out_overflow), C whose exponents the accumulator reads
 * otherwise (acc), a cut conversion (dropped_nan), a widening that moves
 * a subnormal's exponent (a_convert). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cases/decide_internal.h"
#include "oracle/model_equiv.h"
#include "oracle/model_fields.h"
#include "oracle/model_ranges.h"
#include "oracle/profile.h"

#define PROFILE "oracle/profiles/h200.profile"
/* every input optimized; sanitized, every 16th (the same kinds, in a CI-sized time) */
#if defined(__SANITIZE_ADDRESS__)
#define STRIDE 16
#else
#define STRIDE 1
#endif
#define F16 "mma.m16n8k16.f16.f16.f16.f16"
#define BF16 "mma.m16n8k16.f32.bf16.bf16.f32"
#define TF32 "mma.m16n8k8.f32.tf32.tf32.f32"
#define WG_F16 "wgmma.m64n8k16.f16.f16.f16"
#define WG_FP8 "wgmma.m64n8k32.f32.e5m2.e4m3"
#define WG_FP8_F16 "wgmma.m64n8k32.f16.e5m2.e4m3"
#define WG_BF16 "wgmma.m64n8k16.f32.bf16.bf16"
#define F64 "mma.m8n8k4.f64.f64.f64.f64"
#define MMA_FP8 "mma.m16n8k32.f32.e4m3.e4m3.f32"

static model_profile prof;

static int setup(void **state)
{
    char err[256];
    if (profile_load(PROFILE, &prof, err, sizeof err))
        fail_msg("%s", err);
    return 0;
}

static int teardown(void **state)
{
    profile_free(&prof);
    return 0;
}

static model_field_scope scope_of(const tc_instr *i)
{
    model_field_scope s = {{i->a, i->b, i->c, i->d}, i->k, NULL, 0};
    return s;
}

/* The profile's entry with field `set` = `to` (NULL: as it is), key = x against key = y. */
static bool equivalent_with(const char *instr, const char *set, const char *to, const char *key, const char *x,
                            const char *y)
{
    const tc_instr *ins = tc_instr_by_name(instr);
    const model_params *p = ins ? profile_lookup(&prof, instr) : NULL;
    int f = model_field_find(key);
    assert_non_null(p);
    model_params v = *p, w;
    if (set)
        assert_int_equal(model_fields[model_field_find(set)].parse(to, &v), MODEL_FIELD_SET);
    w = v;
    assert_int_equal(model_fields[f].parse(x, &v), MODEL_FIELD_SET);
    assert_int_equal(model_fields[f].parse(y, &w), MODEL_FIELD_SET);
    model_field_scope s = scope_of(ins);
    return model_field_equivalent(f, &v, &w, &s);
}

static bool equivalent_text(const char *instr, const char *key, const char *x, const char *y)
{
    return equivalent_with(instr, NULL, NULL, key, x, y);
}

static void test_thresholds_below_every_bit(void **state)
{
    /* f16 x f16: the smallest product is 2^-48 */
    assert_true(equivalent_text(F16, "align_floor", "none", "-48"));
    assert_true(equivalent_text(F16, "align_floor", "-49", "-60"));
    assert_false(equivalent_text(F16, "align_floor", "none", "-47"));
    assert_false(equivalent_text(F16, "align_floor", "none", "-46"));
    assert_false(equivalent_text(F16, "align_floor", "-46", "-47"));
    assert_true(equivalent_text(F16, "product_flush_below", "none", "-48"));
    assert_true(equivalent_text(F16, "product_flush_below", "none", "-126"));
    assert_false(equivalent_text(F16, "product_flush_below", "none", "-47"));
    /* bf16 x bf16 -> f32: products reach 2^-266 */
    assert_false(equivalent_text(BF16, "align_floor", "none", "-165"));
    assert_true(equivalent_text(BF16, "align_floor", "none", "-266"));
    /* C first: its rounding is never read; C last: it is */
    assert_true(equivalent_text(F16, "c_round", "rne", "rz"));
    assert_false(equivalent_with(F16, "c_mode", "last", "c_round", "rne", "rz"));
    /* an f16 accumulator into f16: D exact; an f32 one, or the sum carried exact: not */
    assert_true(equivalent_text(F16, "out_round", "rne", "ru"));
    assert_false(equivalent_with(F16, "acc", "f32:rne", "out_round", "rne", "ru"));
    assert_false(equivalent_with(F16, "acc", "exact", "out_round", "rne", "ru"));
    /* FP8 -> f32 wgmma: C first into e8m13 holds no bit below 2^-139; mma, C last: the products' 2^-18 */
    assert_true(equivalent_text(WG_FP8, "align_floor", "none", "-139"));
    assert_false(equivalent_text(WG_FP8, "align_floor", "none", "-138"));
    assert_true(equivalent_text(MMA_FP8, "align_floor", "none", "-18"));
    assert_false(equivalent_text(MMA_FP8, "align_floor", "none", "-17"));
    /* 16 f16 products and C in a 32-wide step: below 2^(E+7) (6 carry bits), not 2^(E+6) */
    assert_true(equivalent_text(WG_F16, "carry_bits", "unlimited", "6"));
    assert_false(equivalent_text(WG_F16, "carry_bits", "unlimited", "5"));
    assert_false(equivalent_with(WG_F16, "align_ref", "products", "carry_bits", "unlimited", "8"));
    /* overflow of the accumulator: RNE gives Inf under both rules; RZ only where no sum reaches 2^(emax+1) */
    assert_true(equivalent_text(F16, "acc_overflow", "ieee", "inf"));
    assert_true(equivalent_text(WG_FP8, "acc_overflow", "ieee", "inf"));
    assert_false(equivalent_with(BF16, "acc", "f32:rz", "acc_overflow", "ieee", "inf"));
    assert_false(equivalent_with(F16, "acc", "f16:rz", "acc_overflow", "ieee", "inf"));
    /* D's overflow rule: never reached from an accumulator D holds; from an f32 one into f16 it is */
    assert_true(equivalent_text(F16, "out_overflow", "inf", "nan"));
    assert_false(equivalent_with(F16, "acc", "f32:rne", "out_overflow", "inf", "nan"));
    assert_false(equivalent_with(F16, "acc", "exact", "out_overflow", "inf", "nan"));
    /* e8m13 into f32: exact; f64 into f32: not */
    assert_true(equivalent_text(WG_FP8, "out_round", "rne", "rz"));
    assert_false(equivalent_with(WG_FP8, "acc", "f64:rz", "out_round", "rne", "rz"));
    /* one step, C first: D's rounding of the accumulator equals the exact sum rounded once; not with
       C last, nor f32, whose C exponents differ from f16's for subnormal C */
    assert_true(equivalent_text(WG_F16, "acc", "f16:rne", "exact"));
    assert_false(equivalent_with(WG_F16, "c_mode", "last", "acc", "f16:rne", "exact"));
    assert_false(equivalent_text(WG_F16, "acc", "f16:rne", "f32:rne"));
    assert_false(equivalent_text(WG_F16, "acc", "f16:rne", "f16:rz"));
    /* FP8 into f16, 13 bits below E: every sum fits f32; a subnormal C's exponent, -14 in f16 and its
       own in f32, sets E only where the grid 2^(-14-13) lies below every FP8 product (2^-25): exact
       either way; with 10 bits it does not; flushed, no C is subnormal */
    assert_true(equivalent_text(WG_FP8_F16, "acc", "f16:rne", "exact"));
    assert_true(equivalent_text(WG_FP8_F16, "acc", "f16:rne", "f32:rz"));
    assert_false(equivalent_with(WG_FP8_F16, "align_bits", "10", "acc", "f16:rne", "f32:rz"));
    assert_true(equivalent_with(WG_FP8_F16, "c_ftz", "yes", "acc", "f16:rne", "f32:rz"));
    assert_false(equivalent_with(WG_FP8_F16, "c_ftz", "yes", "acc", "f16:rne", "bf16:rz"));
    /* dropped_nan: read only where an operand is cut (tf32 from its f32 register by RZ) */
    assert_true(equivalent_text(F16, "dropped_nan", "nan", "inf"));
    assert_false(equivalent_with(TF32, "a_convert", "tf32:rz", "dropped_nan", "nan", "inf"));
    /* widenings: e5m2 -> f16 keeps every value and exponent; e4m3 -> f16 makes subnormals normal,
       alike for f16 and bf16; bf16 -> f32 keeps them, f16 -> f32 does not */
    assert_true(equivalent_text(WG_FP8, "a_convert", "none", "f16:rz"));
    assert_false(equivalent_text(WG_FP8, "b_convert", "none", "f16:rne"));
    assert_true(equivalent_with(WG_FP8, "b_convert", "f16:rne", "b_convert", "f16:rne", "bf16:rz"));
    assert_true(equivalent_text(BF16, "b_convert", "none", "f32:rz"));
    assert_false(equivalent_text("mma.m16n8k16.f32.f16.f16.f32", "b_convert", "none", "f32:rz"));
    /* bf16 -> f32 wgmma floored at 2^-158: a product below 2^-252 (a reference exponent below 2^-238)
       truncates to 0 flushed or not; not without the floor, nor with it at -237 */
    assert_true(equivalent_text(WG_BF16, "product_flush_below", "none", "-252"));
    assert_false(equivalent_with(WG_BF16, "align_floor", "none", "product_flush_below", "none", "-252"));
    assert_false(equivalent_with(WG_BF16, "align_floor", "-237", "product_flush_below", "none", "-252"));
    assert_false(equivalent_with(WG_BF16, "align_round", "rne", "product_flush_below", "none", "-252"));
    /* f64: every bit kept, E read nowhere: its reference and the alignment's rounding are never read */
    assert_true(equivalent_text(F64, "align_ref", "all", "products"));
    assert_true(equivalent_text(F64, "align_exp", "normalized", "nominal"));
    assert_true(equivalent_text(F64, "align_round", "trunc", "rne"));
    assert_false(equivalent_with(F64, "align_bits", "52", "align_round", "trunc", "rne"));
    /* e4m3 widened to f16: no value subnormal, nothing to flush; read as given: subnormals */
    assert_true(equivalent_with(WG_FP8, "b_convert", "f16:rne", "b_ftz", "no", "yes"));
    assert_false(equivalent_text(WG_FP8, "b_ftz", "no", "yes"));
    assert_false(equivalent_with(WG_FP8, "a_convert", "f16:rne", "a_ftz", "no", "yes"));
    /* no rule for other fields */
    assert_false(equivalent_text(F16, "block", "8", "4"));
    (void)state;
}

/* Random operand bits, and the ladder (its sums of extremes included), into s. */
static void inputs_of(const tc_instr *ins, const model_params *v, int k, cset *s)
{
    assert_int_equal(decide_ladder_make(ins, k, v, s), 0);
    uint64_t st = 0x5eed, a[INFER_KMAX], b[INFER_KMAX];
    for (int n = 0; n < 4000; n++) {
        for (int x = 0; x < k; x++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            a[x] = (st >> 11) & tc_operand_mask(ins->a);
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            b[x] = (st >> 11) & tc_operand_mask(ins->b);
        }
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        assert_int_equal(cset_add_bits(s, "random", k, a, b, (st >> 11) & tc_operand_mask(ins->c)), 0);
    }
}

static void test_proven_pairs_answer_alike(void **state)
{
    /* between them, pairs of every rule (checked below); the profile's entries, and with a field set
       (flushed subnormal C; a grid where C's exponent matters, which no rule may then claim) */
    static const struct {
        const char *name, *set, *to;
    } cases[] = {{F16, NULL, NULL},    {TF32, NULL, NULL},   {BF16, NULL, NULL},
                 {"mma.m16n8k32.f16.e4m3.e5m2.f16", NULL, NULL},
                 {WG_F16, NULL, NULL}, {WG_FP8, NULL, NULL}, {MMA_FP8, NULL, NULL},
                 {F64, NULL, NULL},    {WG_FP8_F16, NULL, NULL}, {WG_BF16, NULL, NULL},
                 {WG_FP8_F16, "c_ftz", "yes"}, {WG_FP8_F16, "align_bits", "10"}, {WG_FP8, "b_convert", "f16:rne"}};
    static const char *const rules[] = {"align_floor", "product_flush_below", "c_round",      "out_round",
                                        "carry_bits",  "acc_overflow",        "out_overflow", "acc",
                                        "dropped_nan", "a_convert",           "b_convert",
                                        "align_ref",   "align_exp",           "align_round",
                                        "a_ftz",       "b_ftz"};
    model_params *r = malloc(MODEL_RANGE_MAX * sizeof *r);
    assert_non_null(r);
    size_t proven = 0, by_field[MODEL_FIELDS_MAX] = {0};
    for (size_t q = 0; q < sizeof cases / sizeof *cases; q++) {
        const tc_instr *ins = tc_instr_by_name(cases[q].name);
        const model_params *p = ins ? profile_lookup(&prof, cases[q].name) : NULL;
        assert_non_null(p);
        model_params pv = *p, *v = &pv;
        if (cases[q].set)
            assert_int_equal(model_fields[model_field_find(cases[q].set)].parse(cases[q].to, v), MODEL_FIELD_SET);
        int k = ins->k < INFER_KMAX ? ins->k : INFER_KMAX;
        model_field_scope sc = scope_of(ins);
        sc.k = k;
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        char err[128];
        model *mv = model_new(v, f, err, sizeof err);
        assert_non_null(mv);
        cset in;
        inputs_of(ins, v, k, &in);
        uint64_t *dv = malloc((in.n + 1) * sizeof *dv);
        assert_non_null(dv);
        for (size_t c = 0; c < in.n; c += STRIDE)
            dv[c] = model_dot(mv, in.v[c].k, in.v[c].a, in.v[c].b, in.v[c].c);
        for (int i = 0; i < model_field_count(); i++) {
            int n = model_field_range(i, v, &sc, r);
            for (int j = 0; j < n; j++) {
                bool proof = !model_fields[i].same(v, &r[j]) && model_field_equivalent(i, v, &r[j], &sc);
                model *mw = proof ? model_new(&r[j], f, err, sizeof err) : NULL;
                if (!mw)
                    continue;
                proven++;
                by_field[i]++;
                for (size_t c = 0; c < in.n; c += STRIDE) {
                    const infer_case *x = &in.v[c];
                    uint64_t dw = model_dot(mw, x->k, x->a, x->b, x->c);
                    if (dv[c] != dw) {
                        char t[64];
                        model_field_text(&r[j], i, t, sizeof t);
                        fail_msg("%s: %s = %s proven equivalent, answers 0x%llx for 0x%llx", cases[q].name,
                                 model_fields[i].key, t, (unsigned long long)dw, (unsigned long long)dv[c]);
                    }
                }
                model_free(mw);
            }
        }
        free(dv);
        cset_free(&in);
        model_free(mv);
    }
    assert_true(proven >= 10);
    for (size_t q = 0; q < sizeof rules / sizeof *rules; q++)
        if (!by_field[model_field_find(rules[q])])
            fail_msg("no pair proven by the %s rule was asked", rules[q]);
    free(r);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thresholds_below_every_bit),
        cmocka_unit_test(test_proven_pairs_answer_alike),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
