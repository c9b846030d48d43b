/* The field table (oracle/model_fields.h) against the things derived from
 * it: for every row and every candidate value the inference would try,
 *  - the profile writer's text changes on exactly that row's line, and
 *    exactly when the row's comparison says the value changed;
 *  - model_params_diff counts one difference and names that row;
 *  - a profile holding the candidate reads back to the same params and
 *    writes back byte-identically;
 * and a profile lacking one row fails naming it, unless the row is optional
 * (then it reads as zeroed params). Every check walks the table, so a row
 * added to it is covered here with no edit (the table shape test also
 * requires it to have candidates that change it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/model_fields.h"
#include "oracle/profile.h"

#define INSTR "mma.m16n8k16.f32.f16.f16.f32"

/* The instructions whose candidates are tried: together they give every
 * row a value other than the base's (TF32 operands for the cut
 * conversions, FP8 for the widening, an odd NaN answer for `nan`). */
static const uint64_t odd_nan[] = {0x7FC00001};
static model_field_scope scope(int which)
{
    static const tc_format *fs[][4] = {{&tc_f16, &tc_f16, &tc_f32, &tc_f32},
                                       {&tc_tf32, &tc_tf32, &tc_f32, &tc_f32},
                                       {&tc_e4m3, &tc_e5m2, &tc_f32, &tc_f32},
                                       {&tc_f16, &tc_f16, &tc_f16, &tc_f16},
                                       {&tc_e2m1, &tc_e2m1, &tc_f32, &tc_f32}};   /* block-scaled FP4 */
    static const int ks[] = {16, 8, 32, 16, 64};
    model_field_scope s = {{fs[which][0], fs[which][1], fs[which][2], fs[which][3]}, ks[which], odd_nan, 1};
    return s;
}
#define NSCOPES 5

/* Middle values: short steps, a rounded f32 accumulator, 24 alignment bits. */
static model_params base_params(void)
{
    oracle_formats f = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    p.block = 4;
    p.align_bits = 24;
    p.acc_exact = false;
    p.acc_fmt = tc_f32;
    p.acc_round = TC_RZ;
    return p;
}

/* The same written text with members the text does not show set: a
 * conversion that is off but keeps a format, exact products and an exact
 * accumulator that keep a rounding and a format, no floor at exponent 0.
 * Against it a comparison that looks at those members is caught. */
static model_params hidden_params(void)
{
    model_params p = base_params();
    p.cvt_b.fmt = tc_f16;
    p.cvt_b.round = TC_RZ;
    p.prod_round = TC_RZ;
    p.acc_exact = true;
    p.acc_fmt = tc_f16;
    p.floored = true;
    p.align_floor = 0;
    return p;
}

/* The body profile_write_params writes, one string per line. */
static char *body(const model_params *p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    profile_write_params(f, p);
    fclose(f);
    return text;
}

/* Line i of text (without its newline) into out. */
static void line_of(const char *text, int i, char *out, size_t len)
{
    for (int k = 0; k < i && text; k++) {
        text = strchr(text, '\n');
        if (text)
            text++;
    }
    out[0] = '\0';
    if (!text)
        return;
    size_t n = strcspn(text, "\n");
    snprintf(out, len, "%.*s", (int)n, text);
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

static void test_table_shape(void **state)
{
    int n = model_field_count();
    assert_true(n > 0 && n <= MODEL_FIELDS_MAX);
    bool rank_seen[MODEL_FIELDS_MAX] = {false};
    for (int i = 0; i < n; i++) {
        const model_field *r = &model_fields[i];
        assert_non_null(r->key);
        assert_non_null(r->expect);
        assert_non_null(r->parse);
        assert_non_null(r->print);
        assert_non_null(r->same);
        assert_non_null(r->candidates);
        assert_int_equal(model_field_find(r->key), i);   /* keys are unique */
        if (r->descent < 0 || r->descent >= n || rank_seen[r->descent])
            fail_msg("row %s: descent rank %d is not a free rank in 0..%d", r->key, r->descent, n - 1);
        rank_seen[r->descent] = true;
    }
    assert_int_equal(model_field_find("no_such_field"), -1);
    model_params base = base_params();
    char *text = body(&base);
    assert_int_equal(count_lines(text), n);   /* the writer writes one line per row */
    free(text);
}

/* Writes p as a one-instruction profile, reads it back. */
static char *profile_text(const model_params *p)
{
    model_profile pr = {0};
    assert_int_equal(profile_set(&pr, INSTR, p), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_int_equal(profile_write(f, &pr), 0);
    fclose(f);
    profile_free(&pr);
    return text;
}

static void check_candidate(int i, const model_params *base, const char *base_text, const model_params *q)
{
    const model_field *row = &model_fields[i];
    char *qt = body(q);
    int ndiff = 0, where = -1;
    for (int l = 0; l < model_field_count(); l++) {
        char x[300], y[300];
        line_of(base_text, l, x, sizeof x);
        line_of(qt, l, y, sizeof y);
        if (strcmp(x, y)) {
            ndiff++;
            where = l;
        }
    }
    bool same = row->same(base, q);
    if (same != (ndiff == 0))
        fail_msg("row %s: its comparison says %s but the written text differs on %d lines:\n%s", row->key,
                 same ? "same" : "changed", ndiff, qt);
    if (ndiff > 1 || (ndiff == 1 && where != i))
        fail_msg("a candidate of row %s changed %d written lines (last: line %d)", row->key, ndiff, where);
    const char *first = NULL;
    int nd = model_params_diff(base, q, &first);
    assert_int_equal(nd, same ? 0 : 1);
    if (!same)
        assert_string_equal(first, row->key);
    /* round trip through a whole profile */
    char *text = profile_text(q), err[256];
    model_profile back;
    if (profile_parse(text, "mem", &back, err, sizeof err) != 0)
        fail_msg("row %s: a candidate's profile does not read back: %s\n%s", row->key, err, text);
    const model_params *got = profile_lookup(&back, INSTR);
    assert_non_null(got);
    if (model_params_diff(q, got, &first))
        fail_msg("row %s: field %s changed on the round trip", row->key, first);
    char *again = profile_text(got);
    assert_string_equal(again, text);
    free(again);
    profile_free(&back);
    free(text);
    free(qt);
}

static void every_candidate(const model_params *base)
{
    char *base_text = body(base);
    model_params *v = malloc(MODEL_FIELD_MAX_CANDIDATES * sizeof *v);
    assert_non_null(v);
    for (int i = 0; i < model_field_count(); i++) {
        int changed = 0;
        for (int sc = 0; sc < NSCOPES; sc++) {
            model_field_scope s = scope(sc);
            int nv = model_field_candidates(i, base, &s, v);
            assert_true(nv >= 1 && nv <= MODEL_FIELD_MAX_CANDIDATES);
            for (int c = 0; c < nv; c++) {
                check_candidate(i, base, base_text, &v[c]);
                changed += !model_fields[i].same(base, &v[c]);
            }
        }
        if (!changed)
            fail_msg("row %s: no candidate differs from the base, so nothing above tested it",
                     model_fields[i].key);
    }
    assert_int_equal(model_field_candidates(-1, base, &(model_field_scope){0}, v), 0);
    assert_int_equal(model_field_candidates(model_field_count(), base, &(model_field_scope){0}, v), 0);
    free(v);
    free(base_text);
}

static void test_every_candidate_changes_one_field_and_round_trips(void **state)
{
    model_params base = base_params(), hidden = hidden_params();
    every_candidate(&base);
    every_candidate(&hidden);
}

/* A section lacking row i: a required row is named in the error, an
 * optional one reads as zeroed params. */
static void test_missing_rows(void **state)
{
    model_params base = base_params();
    char *full = body(&base);
    for (int i = 0; i < model_field_count(); i++) {
        char *text = malloc(strlen(full) + 64);
        assert_non_null(text);
        strcpy(text, "[instr " INSTR "]\n");
        for (int l = 0; l < model_field_count(); l++) {
            char x[300];
            line_of(full, l, x, sizeof x);
            if (l != i)
                strcat(strcat(text, x), "\n");
        }
        model_profile back;
        char err[256];
        int rc = profile_parse(text, "mem", &back, err, sizeof err);
        if (!model_fields[i].optional) {
            char want[128];
            snprintf(want, sizeof want, "missing field '%s'", model_fields[i].key);
            if (rc == 0 || !strstr(err, want))
                fail_msg("without required row %s: rc %d, '%s'", model_fields[i].key, rc, rc ? err : "");
        } else {
            if (rc != 0)
                fail_msg("without optional row %s: %s", model_fields[i].key, err);
            char got[128], zero[128];
            model_field_text(profile_lookup(&back, INSTR), i, got, sizeof got);
            model_field_text(&(model_params){0}, i, zero, sizeof zero);
            assert_string_equal(got, zero);
            profile_free(&back);
        }
        free(text);
    }
    free(full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_shape),
        cmocka_unit_test(test_every_candidate_changes_one_field_and_round_trips),
        cmocka_unit_test(test_missing_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
