/* oracle/model_equiv.h: the proofs decide counts as "equivalent" hold where
 * they claim (every pair proven over the whole ranges of a few
 * instructions answers the decide ladder, subnormal corners included, and
 * random operands alike), and claim nothing where a term's bit lies below
 * the threshold (an f16 sum floored at 2^-47 or above, a product flushed
 * below 2^-47), where C is added last (c_round) or D rounds another
 * format's sum (out_round). */
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
    assert_false(equivalent_text("mma.m16n8k16.f32.bf16.bf16.f32", "align_floor", "none", "-165"));
    assert_true(equivalent_text("mma.m16n8k16.f32.bf16.bf16.f32", "align_floor", "none", "-266"));
    /* C first: its rounding is never read; C last: it is */
    assert_true(equivalent_text(F16, "c_round", "rne", "rz"));
    assert_false(equivalent_with(F16, "c_mode", "last", "c_round", "rne", "rz"));
    /* an f16 accumulator into f16: D exact; an f32 one, or the sum carried exact: not */
    assert_true(equivalent_text(F16, "out_round", "rne", "ru"));
    assert_false(equivalent_with(F16, "acc", "f32:rne", "out_round", "rne", "ru"));
    assert_false(equivalent_with(F16, "acc", "exact", "out_round", "rne", "ru"));
    /* no rule for other fields */
    assert_false(equivalent_text(F16, "block", "8", "4"));
    (void)state;
}

/* Random operand bits, and the ladder, into s. */
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
    static const char *const names[] = {F16, "mma.m16n8k8.f32.tf32.tf32.f32", "mma.m16n8k16.f32.bf16.bf16.f32",
                                        "mma.m16n8k32.f16.e4m3.e5m2.f16"};
    model_params *r = malloc(MODEL_RANGE_MAX * sizeof *r);
    assert_non_null(r);
    size_t proven = 0;
    for (size_t q = 0; q < sizeof names / sizeof *names; q++) {
        const tc_instr *ins = tc_instr_by_name(names[q]);
        const model_params *v = ins ? profile_lookup(&prof, names[q]) : NULL;
        assert_non_null(v);
        int k = ins->k < INFER_KMAX ? ins->k : INFER_KMAX;
        model_field_scope sc = scope_of(ins);
        sc.k = k;
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        char err[128];
        model *mv = model_new(v, f, err, sizeof err);
        assert_non_null(mv);
        cset in;
        inputs_of(ins, v, k, &in);
        for (int i = 0; i < model_field_count(); i++) {
            int n = model_field_range(i, v, &sc, r);
            for (int j = 0; j < n; j++) {
                model *mw = model_new(&r[j], f, err, sizeof err);
                if (!mw || !model_field_equivalent(i, v, &r[j], &sc)) {
                    model_free(mw);
                    continue;
                }
                proven++;
                for (size_t c = 0; c < in.n; c += STRIDE) {
                    const infer_case *x = &in.v[c];
                    uint64_t dv = model_dot(mv, x->k, x->a, x->b, x->c), dw = model_dot(mw, x->k, x->a, x->b, x->c);
                    if (dv != dw) {
                        char t[64];
                        model_field_text(&r[j], i, t, sizeof t);
                        fail_msg("%s: %s = %s proven equivalent, answers 0x%llx for 0x%llx", names[q],
                                 model_fields[i].key, t, (unsigned long long)dw, (unsigned long long)dv);
                    }
                }
                model_free(mw);
            }
        }
        cset_free(&in);
        model_free(mv);
    }
    assert_true(proven >= 10);
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
