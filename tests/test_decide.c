/* cases/decide.h, oracle/model_ranges.h, reports/record_decide.h: the
 * ranges hold every inference candidate and reach the formats' limits; the
 * deciding inputs separate every pair they claim to, catch a fingerprint
 * that differs from the answers in one field, and say "sampled only"
 * without answers; the record reads back what was written and refuses a
 * changed pool or malformed answers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cases/decide.h"
#include "oracle/model_fields.h"
#include "oracle/model_ranges.h"
#include "oracle/profile.h"
#include "reports/record_decide.h"

#define PROFILE "oracle/profiles/h100.profile"
#define INSTR "mma.m16n8k8.f32.bf16.bf16.f32"

static model_profile prof;
static const tc_instr *ins;
static const model_params *v;

static int setup(void **state)
{
    char err[256];
    if (profile_load(PROFILE, &prof, err, sizeof err))
        fail_msg("%s", err);
    ins = tc_instr_by_name(INSTR);
    v = ins ? profile_lookup(&prof, INSTR) : NULL;
    assert_non_null(v);
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

/* Which of the range's values has field f's text t (-1: none). */
static int find_text(const model_params *r, int n, int f, const char *t)
{
    char x[64];
    for (int i = 0; i < n; i++) {
        model_field_text(&r[i], f, x, sizeof x);
        if (!strcmp(x, t))
            return i;
    }
    return -1;
}

static void test_ranges_hold_candidates_without_repeats(void **state)
{
    static const char *const names[] = {INSTR, "wgmma.m64n256k8.f32.tf32.tf32", "mma.m16n8k32.f16.e4m3.e5m2.f16",
                                        "mma.m16n8k16.f16.f16.f16.f16"};
    model_params *r = malloc(MODEL_RANGE_MAX * sizeof *r), c[MODEL_FIELD_MAX_CANDIDATES];
    assert_non_null(r);
    for (size_t q = 0; q < sizeof names / sizeof *names; q++) {
        const tc_instr *i = tc_instr_by_name(names[q]);
        const model_params *p = profile_lookup(&prof, names[q]);
        assert_non_null(p);
        model_field_scope s = scope_of(i);
        for (int f = 0; f < model_field_count(); f++) {
            int n = model_field_range(f, p, &s, r), nc = model_field_candidates(f, p, &s, c);
            assert_true(n >= nc && n <= MODEL_RANGE_MAX);
            for (int j = 0; j < nc; j++) {
                char t[64];
                model_field_text(&c[j], f, t, sizeof t);
                if (find_text(r, n, f, t) < 0)
                    fail_msg("%s %s: candidate %s not in the range", names[q], model_fields[f].key, t);
            }
            for (int a = 0; a < n; a++)
                for (int b = a + 1; b < n; b++)
                    assert_false(model_fields[f].same(&r[a], &r[b]));
        }
    }
    free(r);
}

static void test_ranges_reach_the_limits(void **state)
{
    model_params *r = malloc(MODEL_RANGE_MAX * sizeof *r);
    assert_non_null(r);
    model_field_scope s = scope_of(ins); /* bf16 x bf16 -> f32, K = 8 */
    int n = model_field_range(model_field_find("align_floor"), v, &s, r);
    for (int e = -126; e >= -149 - 16; e--) { /* f32's smallest normal down past its smallest subnormal */
        char t[16];
        snprintf(t, sizeof t, "%d", e);
        assert_true(find_text(r, n, model_field_find("align_floor"), t) >= 0);
    }
    /* f16 x f16 -> f16 with an f16 accumulator: the products reach 2^-48, below the
     * accumulator's 2^-24, and the H200's floor is 2^-46 (h200-thirdparty-settled). */
    const char *f16name = "mma.m16n8k16.f16.f16.f16.f16";
    const tc_instr *h = tc_instr_by_name(f16name);
    const model_params *hv = h ? profile_lookup(&prof, f16name) : NULL;
    assert_non_null(hv);
    model_field_scope hs = scope_of(h);
    int hn = model_field_range(model_field_find("align_floor"), hv, &hs, r);
    for (int e = -14; e >= -50; e--) {
        char t[16];
        snprintf(t, sizeof t, "%d", e);
        assert_true(find_text(r, hn, model_field_find("align_floor"), t) >= 0);
    }
    n = model_field_range(model_field_find("block"), v, &s, r);
    for (int b = 1; b <= 8; b++) {
        char t[16];
        snprintf(t, sizeof t, "%d", b);
        assert_int_equal(find_text(r, n, model_field_find("block"), t) >= 0, 8 % b == 0 || (b & (b - 1)) == 0);
    }
    static const char *const dirs[] = {"rne", "rna", "rz", "ru", "rd", "ro"};
    n = model_field_range(model_field_find("out_round"), v, &s, r);
    for (int d = 0; d < 6; d++)
        assert_true(find_text(r, n, model_field_find("out_round"), dirs[d]) >= 0);
    n = model_field_range(model_field_find("a_convert"), v, &s, r);
    assert_true(find_text(r, n, model_field_find("a_convert"), "f16:rne") >= 0);
    assert_true(find_text(r, n, model_field_find("a_convert"), "f32:rne") >= 0);
    n = model_field_range(model_field_find("nan"), v, &s, r);
    assert_true(find_text(r, n, model_field_find("nan"), "0xFFC00000") >= 0);
    free(r);
    (void)state;
}

static const decide_opts small = {0x5eed, 64, 50};

/* The model's answers of p to s's inputs. */
static uint64_t *answers(const decide_set *s, const model_params *p)
{
    char err[256];
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    model *m = model_new(p, f, err, sizeof err);
    uint64_t *hw = malloc((s->ninputs + 1) * sizeof *hw);
    assert_non_null(m);
    assert_non_null(hw);
    for (size_t i = 0; i < s->ninputs; i++)
        hw[i] = model_dot(m, s->inputs[i].k, s->inputs[i].a, s->inputs[i].b, s->inputs[i].c);
    model_free(m);
    return hw;
}

/* Every excluded pair: the hardware gave v's answer there, and w's differs. */
static void check_pair(void *ctx, const decide_pair *pr)
{
    size_t *n = ctx;
    if (pr->kind != DECIDE_PAIR_EXCLUDED)
        return;
    assert_int_equal(pr->hw_answer, pr->v_answer);
    assert_true(pr->w_answer != pr->v_answer);
    ++*n;
}

static void test_answers_of_v_decide_every_field(void **state)
{
    char err[256];
    decide_set s;
    assert_int_equal(decide_build(ins, v, &small, &s, err, sizeof err), 0);
    assert_true(s.ninputs > 0 && s.ninputs < 200 && s.pairs > 150);
    int nf = model_field_count();
    decide_field *df = calloc((size_t)nf, sizeof *df);
    size_t contra;
    uint64_t *hw = answers(&s, v);
    size_t npairs = 0;
    assert_int_equal(decide_classify_pairs(&s, v, hw, df, &contra, check_pair, &npairs, err, sizeof err), 0);
    assert_int_equal(contra, 0);
    assert_int_equal(npairs, s.pairs - s.nopen);
    size_t alt = 0, eq = 0, unsep = 0, listed_eq = 0;
    for (size_t o = 0; o < s.nopen; o++)
        listed_eq += s.open[o].equivalent;
    for (int f = 0; f < nf; f++) {
        /* a pair the budget left open is the audit's sampled evidence, not a construction */
        assert_int_equal(df[f].status, df[f].unseparated ? DECIDE_SAMPLED : DECIDE_CONSTRUCTION);
        assert_int_equal(df[f].open, 0);
        assert_int_equal(df[f].excluded + df[f].equivalent + df[f].unseparated, df[f].alternatives);
        alt += (size_t)df[f].alternatives, eq += (size_t)df[f].equivalent, unsep += (size_t)df[f].unseparated;
    }
    assert_int_equal(alt, s.pairs); /* every pair walked is excluded, proven equivalent or listed open */
    assert_int_equal(eq, listed_eq);
    assert_int_equal(eq + unsep, s.nopen);
    /* without answers: sampled only */
    assert_int_equal(decide_classify(&s, v, NULL, df, &contra, err, sizeof err), 0);
    for (int f = 0; f < nf; f++)
        assert_int_equal(df[f].status, DECIDE_SAMPLED);
    free(hw);
    free(df);
    decide_set_free(&s);
}

/* Answers of a fingerprint that differs from v in one field, each separated
 * alternative in turn: the inputs built for v always catch it. */
static void test_a_one_field_change_is_caught(void **state)
{
    char err[256];
    decide_set s;
    assert_int_equal(decide_build(ins, v, &small, &s, err, sizeof err), 0);
    model_params *r = malloc(MODEL_RANGE_MAX * sizeof *r);
    decide_field *df = calloc((size_t)model_field_count(), sizeof *df);
    assert_non_null(r);
    model_field_scope sc = scope_of(ins);
    size_t caught = 0;
    uint64_t *hv = answers(&s, v);
    for (int f = 0; f < model_field_count(); f++) {
        int n = model_field_range(f, v, &sc, r);
        for (int j = 0; j < n; j++) {
            char t[64], merr[128];
            oracle_formats fm = {ins->a, ins->b, ins->c, ins->d};
            model *m = model_new(&r[j], fm, merr, sizeof merr);
            model_field_text(&r[j], f, t, sizeof t);
            bool open = false;
            for (size_t o = 0; o < s.nopen; o++)
                open |= s.open[o].field == f && !strcmp(s.open[o].value, t);
            if (!m || model_fields[f].same(v, &r[j]) || open) {
                model_free(m);
                continue;
            }
            model_free(m);
            uint64_t *hw = answers(&s, &r[j]);
            size_t differ = 0;
            for (size_t i = 0; i < s.ninputs; i++)
                differ += hw[i] != hv[i];
            if (differ == 0)
                fail_msg("%s = %s is not told from %s's value", model_fields[f].key, t, INSTR);
            if (caught++ % 16 == 0) { /* what infer says of such answers, for some of them */
                size_t contra;
                assert_int_equal(decide_classify(&s, v, hw, df, &contra, err, sizeof err), 0);
                assert_int_equal(contra, differ);
                assert_int_equal(df[f].status, DECIDE_UNDECIDED);
            }
            free(hw);
        }
    }
    assert_true(caught > 150);
    free(hv);
    free(r);
    free(df);
    decide_set_free(&s);
}

static void test_record_reads_back(void **state)
{
    char err[256];
    decide_set s, back;
    uint64_t *hw2;
    assert_int_equal(decide_build(ins, v, &small, &s, err, sizeof err), 0);
    uint64_t *hw = answers(&s, v);
    json_t *o = tc_decide_object(&s, hw);
    assert_int_equal(tc_decide_read(o, &back, &hw2, err, sizeof err), 0);
    assert_int_equal(back.ninputs, s.ninputs);
    assert_int_equal(back.nopen, s.nopen);
    assert_int_equal(back.pool_hash, s.pool_hash);
    assert_int_equal(model_params_diff(&back.v, v, NULL), 0);
    for (size_t i = 0; i < s.ninputs; i++) {
        assert_int_equal(hw2[i], hw[i]);
        assert_int_equal(back.inputs[i].c, s.inputs[i].c);
        assert_memory_equal(back.inputs[i].a, s.inputs[i].a, (size_t)s.k * 8);
        assert_memory_equal(back.inputs[i].b, s.inputs[i].b, (size_t)s.k * 8);
    }
    for (size_t i = 0; i < s.nopen; i++) { /* read back as open or as proven equivalent, as written */
        size_t j = 0;
        while (j < back.nopen && (back.open[j].field != s.open[i].field || strcmp(back.open[j].value, s.open[i].value)))
            j++;
        assert_true(j < back.nopen);
        assert_int_equal(back.open[j].equivalent, s.open[i].equivalent);
    }
    free(hw2);
    decide_set_free(&back);
    /* a pool that is no longer the recorded one */
    json_object_set_new(o, "pool_hash", json_string("0x0000000000000001"));
    assert_int_equal(tc_decide_read(o, &back, &hw2, err, sizeof err), -1);
    assert_non_null(strstr(err, "pool_hash"));
    /* one answer short */
    json_t *o2 = tc_decide_object(&s, hw);
    const char *h = json_string_value(json_object_get(o2, "hw"));
    char *cut = strdup(h);
    cut[strlen(cut) - 1] = '\0';
    json_object_set_new(o2, "hw", json_string(cut));
    assert_int_equal(tc_decide_read(o2, &back, &hw2, err, sizeof err), -1);
    assert_non_null(strstr(err, "hw"));
    /* an index past the pool */
    json_t *o3 = tc_decide_object(&s, NULL);
    json_array_append_new(json_object_get(o3, "inputs"), json_integer(100000000));
    assert_int_equal(tc_decide_read(o3, &back, &hw2, err, sizeof err), -1);
    free(cut);
    json_decref(o);
    json_decref(o2);
    json_decref(o3);
    free(hw);
    decide_set_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges_hold_candidates_without_repeats),
        cmocka_unit_test(test_ranges_reach_the_limits),
        cmocka_unit_test(test_answers_of_v_decide_every_field),
        cmocka_unit_test(test_a_one_field_change_is_caught),
        cmocka_unit_test(test_record_reads_back),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
