/* The audit object's values (reports/record_audit.h): a new record writes
 * each fingerprint field with the JSON type the field table gives it (an
 * integer as a JSON number, checked against the fit's own profile text, not
 * against a list typed here); an audit written the old way (every value the
 * profile's text, as cases/audit.c wrote until 2026-11-24) compares equal to
 * the new one of the same fit, and a real difference is still reported; the
 * checker refuses values of the wrong type in either form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cases/audit.h"
#include "oracle/model_fields.h"
#include "reports/compare.h"
#include "reports/record_audit.h"
#include "reports/reports.h"

static const char *const instrs[] = {"mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k32.f32.e4m3.e4m3.f32"};

/* One instruction audited on model:h100 (a small proof: the record's form
 * is under test, not the fingerprint). */
static void run_audit(const char *name, audit_result *r)
{
    char err[512];
    tc_backend *be = tc_backend_open("model:h100", err, sizeof err);
    if (!be)
        fail_msg("%s", err);
    const tc_instr *ins = tc_instr_by_name(name);
    assert_non_null(ins);
    audit_opts o = {.verify_n = 2048, .hunt_n = 64, .seed = 0x7c5c09e};
    if (audit_instr(be, ins, &o, r, err, sizeof err) != 0)
        fail_msg("%s: %s", name, err);
    tc_backend_close(be);
}

/* The audits of instrs, run once for all the tests (the group's setup). */
static audit_result audits[2];

static int audit_all(void **state)
{
    for (size_t n = 0; n < sizeof instrs / sizeof *instrs; n++)
        run_audit(instrs[n], &audits[n]);
    return 0;
}

static int free_all(void **state)
{
    for (size_t n = 0; n < sizeof instrs / sizeof *instrs; n++)
        audit_result_free(&audits[n]);
    return 0;
}

/* text is a whole decimal integer; *v its value. */
static bool integer_text(const char *text, long long *v)
{
    char *end;
    *v = strtoll(text, &end, 10);
    return text[0] && !isspace((unsigned char)text[0]) && *end == '\0';
}

/* v is field i's value `text` (the profile's) in the form the table says. */
static void assert_typed(int i, const char *text, const json_t *v, const char *where)
{
    const model_field *f = &model_fields[i];
    long long x;
    if (f->type == MODEL_FIELD_INT && integer_text(text, &x)) {
        if (!json_is_integer(v) || json_integer_value(v) != x)
            fail_msg("%s %s: profile text %s, want the JSON integer", where, f->key, text);
        return;
    }
    const char *s = json_string_value(v);
    if (!s)
        fail_msg("%s %s: profile text %s, want a string", where, f->key, text);
    if (f->type == MODEL_FIELD_BITS && !strncmp(text, "0x", 2)) {
        assert_int_equal(strcasecmp(s, text), 0);
        for (const char *c = s + 2; *c; c++)
            if (isupper((unsigned char)*c))
                fail_msg("%s %s: '%s' is not lower-case hex", where, f->key, s);
        return;
    }
    assert_string_equal(s, text);
}

/* Every field of a new audit object: the fingerprint and each evidence
 * value (and rejected candidate) have the table's JSON type; the numbers
 * are exactly the INT fields with an integer value. */
static void new_record_numbers_follow_the_field_table(void **state)
{
    for (size_t n = 0; n < sizeof instrs / sizeof *instrs; n++) {
        const audit_result *r = &audits[n];
        json_t *obj = tc_audit_object(r, NULL);
        const json_t *fp = json_object_get(obj, "fingerprint"), *ev = json_object_get(obj, "evidence");
        int numbers = 0, want_numbers = 0;
        for (int i = 0; i < model_field_count(); i++) {
            char text[128];
            long long x;
            model_field_text(&r->fit.params, i, text, sizeof text);
            assert_typed(i, text, json_object_get(fp, model_fields[i].key), "fingerprint");
            want_numbers += model_fields[i].type == MODEL_FIELD_INT && integer_text(text, &x);
        }
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)fp, k, v) numbers += json_is_number(v);
        assert_int_equal(numbers, want_numbers);
        assert_true(numbers >= 2);   /* block and align_bits are integers for these */
        for (size_t e = 0; e < r->fit.nev; e++) {
            const infer_evidence *x = &r->fit.ev[e];
            int i = model_field_find(x->field);
            const json_t *je = json_object_get(ev, x->field);
            assert_typed(i, x->value, json_object_get(je, "value"), "evidence");
            const json_t *rej = json_object_get(je, "rejected");   /* the first few of nrejected */
            assert_true(json_array_size(rej) <= (size_t)x->nrejected);
            for (size_t q = 0; q < json_array_size(rej); q++)
                assert_typed(i, x->rejected[q].value, json_object_get(json_array_get(rej, q), "value"),
                             "evidence rejected");
        }
        char err[300];
        if (!tc_record_check_object(obj, err, sizeof err))
            fail_msg("the checker refuses the new object: %s", err);
        json_decref(obj);
    }
}

/* The same fit written the old way: every fingerprint and evidence value
 * the profile's text (NaN pattern in upper-case hex, as profiles write it). */
static json_t *old_form(const audit_result *r, const json_t *new_obj)
{
    json_t *o = json_deep_copy(new_obj), *fp = json_object_get(o, "fingerprint"), *ev = json_object_get(o, "evidence");
    for (int i = 0; i < model_field_count(); i++) {
        char text[128];
        model_field_text(&r->fit.params, i, text, sizeof text);
        json_object_set_new(fp, model_fields[i].key, json_string(text));
    }
    for (size_t e = 0; e < r->fit.nev; e++) {
        const infer_evidence *x = &r->fit.ev[e];
        json_t *je = json_object_get(ev, x->field), *rej = json_object_get(je, "rejected");
        json_object_set_new(je, "value", json_string(x->value));
        for (size_t q = 0; q < json_array_size(rej); q++)
            json_object_set_new(json_array_get(rej, q), "value", json_string(x->rejected[q].value));
    }
    return o;
}

static tc_record record_of(json_t *obj)
{
    tc_run_info info = {.backend = "model:h100", .device = "model (no GPU)", .sm = 0};
    uint64_t seed = 0x7c5c09e;
    tc_record rec = tc_record_new(tc_record_header("audit", &info, &seed, 1));
    char err[300] = "";
    if (tc_record_add(&rec, obj, err, sizeof err) != 0)
        fail_msg("record refused: %s", err);
    return rec;
}

/* compare's differences between records holding one object each;
 * *field the first one's field (or NULL). */
static size_t differences(json_t *old_obj, json_t *new_obj, char *field, size_t len)
{
    tc_record a = record_of(old_obj), b = record_of(new_obj);
    tc_compare_opts o = tc_compare_defaults();
    json_t *diffs = json_array(), *ctx = json_array();
    size_t n = tc_compare_records(&a, &b, &o, diffs, ctx);
    snprintf(field, len, "%s", n ? json_string_value(json_object_get(json_array_get(diffs, 0), "field")) : "");
    json_decref(diffs);
    json_decref(ctx);
    tc_record_free(&a);
    tc_record_free(&b);
    return n;
}

static void old_strings_compare_equal_to_new_numbers(void **state)
{
    const audit_result *r = &audits[0];
    json_t *fresh = tc_audit_object(r, NULL), *old = old_form(r, fresh);
    char field[200];
    /* the two forms really differ as JSON: block "16" against 16 */
    assert_false(json_equal(json_object_get(old, "fingerprint"), json_object_get(fresh, "fingerprint")));
    assert_true(json_is_string(json_object_get(json_object_get(old, "fingerprint"), "block")));
    assert_true(json_is_integer(json_object_get(json_object_get(fresh, "fingerprint"), "block")));
    /* ... and are the same values, either way round */
    assert_int_equal(differences(json_deep_copy(old), json_deep_copy(fresh), field, sizeof field), 0);
    assert_int_equal(differences(json_deep_copy(fresh), json_deep_copy(old), field, sizeof field), 0);

    /* a real difference is still one: an integer field */
    json_t *changed = json_deep_copy(fresh), *fp = json_object_get(changed, "fingerprint");
    json_object_set_new(fp, "align_bits", json_integer(json_integer_value(json_object_get(fp, "align_bits")) + 1));
    assert_int_equal(differences(json_deep_copy(old), changed, field, sizeof field), 1);
    assert_string_equal(field, "fingerprint.align_bits");
    /* the NaN pattern, whatever the hex case of either side */
    changed = json_deep_copy(fresh);
    json_object_set_new(json_object_get(changed, "fingerprint"), "nan", json_string("0x7ffffffe"));
    assert_int_equal(differences(json_deep_copy(old), changed, field, sizeof field), 1);
    assert_string_equal(field, "fingerprint.nan");
    /* an evidence value (a rejected candidate's) */
    changed = json_deep_copy(fresh);
    json_t *ab = json_object_get(json_object_get(changed, "evidence"), "align_bits");
    json_object_set_new(ab, "value", json_integer(7));
    assert_int_equal(differences(json_deep_copy(old), changed, field, sizeof field), 1);
    assert_string_equal(field, "evidence.align_bits");
    json_decref(old);
    json_decref(fresh);
}

/* The checker: each form on its own terms, never a mix. */
static void checker_refuses_wrong_types(void **state)
{
    const audit_result *r = &audits[0];
    json_t *fresh = tc_audit_object(r, NULL), *old = old_form(r, fresh);
    char err[300];
    assert_true(tc_record_check_object(old, err, sizeof err));
    static const struct {
        bool from_old;
        const char *key;
        const char *why;
    } bad[] = {
        {false, "align_bits", "'align_bits' must be a JSON number"},
        {false, "nan", "'nan' must be \"0x\" and lower-case hex"},
        {false, "acc", "'acc' must be exact or FORMAT:ROUND"},
        {true, "align_bits", "'align_bits' is not a string"},
        {true, "nan", "'nan' must be \"0x\" and upper-case hex"},
    };
    json_t *vals[] = {json_string("25"), json_string("0x7FFFFFFF"), json_integer(32), json_integer(25),
                      json_string("0x7fffffff")};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        json_t *o = json_deep_copy(bad[i].from_old ? old : fresh);
        json_object_set_new(json_object_get(o, "fingerprint"), bad[i].key, vals[i]);
        err[0] = '\0';
        if (tc_record_check_object(o, err, sizeof err))
            fail_msg("case %zu accepted", i);
        if (!strstr(err, bad[i].why))
            fail_msg("case %zu refused for another reason: '%s', expected '%s'", i, err, bad[i].why);
        json_decref(o);
    }
    /* an evidence value of the new form written as a string number */
    json_t *o = json_deep_copy(fresh);
    json_object_set_new(json_object_get(json_object_get(o, "evidence"), "block"), "value", json_string("16"));
    assert_false(tc_record_check_object(o, err, sizeof err));
    assert_non_null(strstr(err, "evidence value: 'block' must be a JSON number"));
    json_decref(o);
    json_decref(old);
    json_decref(fresh);
}

/* The table's type column against what the fields print: over every
 * candidate of every field for two instructions, a WORD or BITS field never
 * prints a bare integer (a numeric field labelled as a word would stay a
 * string in records), and an INT field prints integers and at most one word. */
static void type_column_matches_the_printed_values(void **state)
{
    for (size_t n = 0; n < sizeof instrs / sizeof *instrs; n++) {
        const tc_instr *ins = tc_instr_by_name(instrs[n]);
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
        model_params cur = model_params_exact(f, rne), cand[MODEL_FIELD_MAX_CANDIDATES];
        model_field_scope s = {f, ins->k, NULL, 0};
        int ints = 0;
        for (int i = 0; i < model_field_count(); i++) {
            int nc = model_field_candidates(i, &cur, &s, cand);
            char word[128] = "";
            for (int c = 0; c < nc; c++) {
                char text[128];
                long long x;
                model_field_text(&cand[c], i, text, sizeof text);
                bool num = integer_text(text, &x);
                if (model_fields[i].type != MODEL_FIELD_INT) {
                    if (num)
                        fail_msg("%s prints the integer %s but is not an INT field", model_fields[i].key, text);
                    continue;
                }
                ints += num;
                if (!num && word[0] && strcmp(word, text))
                    fail_msg("%s: two words, %s and %s", model_fields[i].key, word, text);
                if (!num)
                    snprintf(word, sizeof word, "%s", text);
            }
        }
        assert_true(ints > 100);   /* block, align_bits, align_floor, ... give many */
    }
}

/* The proof's hunt path in the record: absent on the host (every record
 * before, so old and model records read the same), "hunt_draw": "tile" and
 * "hunt_path": "gpu" when the GPU path ran the families, "host" when the
 * host's cores drew the tile stream's few tiles (cli/hunt_on.c). */
static void the_hunt_path_is_said_only_when_on_the_gpu(void **state)
{
    audit_result *r = &audits[0];
    assert_false(r->proof.hunt_gpu);   /* model:h100: the host */
    json_t *host = tc_audit_object(r, NULL);
    const json_t *v = json_object_get(host, "verification");
    assert_non_null(v);
    assert_null(json_object_get(v, "hunt_draw"));
    assert_null(json_object_get(v, "hunt_path"));
    r->proof.hunt_gpu = true;
    json_t *gpu = tc_audit_object(r, NULL);
    r->proof.hunt_gpu = false;
    v = json_object_get(gpu, "verification");
    assert_string_equal(json_string_value(json_object_get(v, "hunt_draw")), "tile");
    assert_string_equal(json_string_value(json_object_get(v, "hunt_path")), "gpu");
    r->proof.hunt_gpu = r->proof.hunt_host_draw = true;
    json_t *drawn = tc_audit_object(r, NULL);
    r->proof.hunt_gpu = r->proof.hunt_host_draw = false;
    v = json_object_get(drawn, "verification");
    assert_string_equal(json_string_value(json_object_get(v, "hunt_draw")), "tile");
    assert_string_equal(json_string_value(json_object_get(v, "hunt_path")), "host");
    json_decref(host);
    json_decref(gpu);
    json_decref(drawn);
}

/* The proof's random path in the record: absent on the host's cores (every
 * record before), "random_path": "gpu" when the GPU path ran the tiles. */
static void the_random_path_is_said_only_when_on_the_gpu(void **state)
{
    audit_result *r = &audits[0];
    assert_false(r->proof.random_gpu);
    json_t *host = tc_audit_object(r, NULL);
    assert_null(json_object_get(json_object_get(host, "verification"), "random_path"));
    r->proof.random_gpu = true;
    json_t *gpu = tc_audit_object(r, NULL);
    r->proof.random_gpu = false;
    assert_string_equal(json_string_value(json_object_get(json_object_get(gpu, "verification"), "random_path")),
                        "gpu");
    json_decref(host);
    json_decref(gpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(new_record_numbers_follow_the_field_table),
        cmocka_unit_test(the_hunt_path_is_said_only_when_on_the_gpu),
        cmocka_unit_test(the_random_path_is_said_only_when_on_the_gpu),
        cmocka_unit_test(old_strings_compare_equal_to_new_numbers),
        cmocka_unit_test(checker_refuses_wrong_types),
        cmocka_unit_test(type_column_matches_the_printed_values),
    };
    return cmocka_run_group_tests(tests, audit_all, free_all);
}
