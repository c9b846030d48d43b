/* The recorded exhaustive conversion sweeps (doc/findings.md: "the encoders equal the
 * MPFR-built reference on all 2^32 inputs in every rounding, overflow and ftz
 * mode for every format ... 0 mismatches"): reports/baselines/
 * h100-cvt-exhaustive{,-full,-mx}.json, read together. Every result is well
 * formed and claims 0 mismatches (and 0 in the MPFR spot check); every one
 * of the 9 formats x 28 combinations (7 modes x 3 overflow modes, 7 with
 * ftz) has a result over all 2^32 inputs; each record says what it tested:
 * the commit and encoder per result (tools/exhaustive_f32 writes them), or,
 * for the records written before that, a provenance note naming the commit
 * that added them. Broken copies are refused: one mismatch, a result gone,
 * the text cut short, the provenance gone. What these records cannot say
 * (they predate today's encoders, and daz was not swept) the H200 host's
 * lines say (h200-cvt-exhaustive.jsonl, every combination with daz, each
 * line naming its commit); tests/test_cvt_sweep.c sweeps 2^24 inputs in CI. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "formats/formats.h"
#include "tests/testutil.h"

#define NREC 3
#define NCOMBO 35
static const char *const paths[NREC] = {"reports/baselines/h100-cvt-exhaustive.json",
                                        "reports/baselines/h100-cvt-exhaustive-full.json",
                                        "reports/baselines/h100-cvt-exhaustive-mx.json"};
static const char *const fmts[] = {"e4m3", "e5m2", "f16", "bf16", "tf32", "e2m1", "e3m2", "e2m3", "e8m0"};
#define NFMT (sizeof fmts / sizeof fmts[0])
static const char *const modes[] = {"rne", "rna", "rz", "ru", "rd", "ro", "rs"};
static const char *const ovfs[] = {"inf", "sat", "nan"};

#define REFUSE(...) (snprintf(msg, len, __VA_ARGS__), -1)

static int index_of(const char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; s && i < n; i++)
        if (!strcmp(list[i], s))
            return (int)i;
    return -1;
}

static bool is_hex64(const char *h)
{
    if (!h || strncmp(h, "0x", 2) || strlen(h) != 18)
        return false;
    for (const char *p = h + 2; *p; p++)
        if (!strchr("0123456789abcdef", *p))
            return false;
    return true;
}

/* One result line: well formed, 0 mismatches; marks full (2^32) coverage. */
static int check_result(json_t *r, bool has_provenance, unsigned char full[NFMT][NCOMBO], char *msg, size_t len)
{
    const char *f = json_string_value(json_object_get(r, "format")), *m = json_string_value(json_object_get(r, "round")),
               *o = json_string_value(json_object_get(r, "overflow"));
    int fi = index_of(fmts, NFMT, f), mi = index_of(modes, 7, m), oi = index_of(ovfs, 3, o);
    json_t *ftz = json_object_get(r, "ftz"), *daz = json_object_get(r, "daz");
    json_int_t in = json_integer_value(json_object_get(r, "inputs"));
    if (fi < 0 || mi < 0 || oi < 0 || !json_is_boolean(ftz) || (daz && !json_is_boolean(daz)))
        return REFUSE("a result of unknown format/mode: %s %s %s", f ? f : "?", m ? m : "?", o ? o : "?");
    if (in < (1 << 16) || in > (1ll << 32) || (in & (in - 1)))
        return REFUSE("%s %s/%s: inputs %lld is not a power of two in 2^16..2^32", f, m, o, (long long)in);
    if (json_integer_value(json_object_get(r, "mismatches")) != 0 || !json_is_integer(json_object_get(r, "mismatches")) ||
        json_integer_value(json_object_get(r, "mpfr_spot_mismatches")) != 0 ||
        json_array_size(json_object_get(r, "first_mismatches")) != 0)
        return REFUSE("%s %s/%s ftz=%d: mismatches recorded", f, m, o, json_is_true(ftz));
    if (!is_hex64(json_string_value(json_object_get(r, "hash"))))
        return REFUSE("%s %s/%s: no 64-bit output hash", f, m, o);
    const char *commit = json_string_value(json_object_get(r, "commit")),
               *enc = json_string_value(json_object_get(r, "encoder"));
    if (!has_provenance && (!commit || strlen(commit) < 7 || !enc || !strstr(enc, "formats/")))
        return REFUSE("%s %s/%s: neither the commit and encoder tested nor a provenance note", f, m, o);
    int c = json_is_true(daz) ? (oi == 0 && !json_is_true(ftz) ? 28 + mi : -1)
          : json_is_true(ftz) ? (oi == 0 ? 21 + mi : -1) : oi * 7 + mi;
    if (c < 0)
        return REFUSE("%s %s/%s: ftz or daz with overflow other than inf is not a swept combination", f, m, o);
    if (in == (1ll << 32))
        full[fi][c] = 1;
    return 0;
}

/* 0 when the records together back the doc/findings.md sentence, with a
 * result over all 2^32 inputs for each of the first ncombo combinations of
 * every format (28: the older records, without daz; 35 with it); else -1 + msg. */
static int check_cvt_records(json_t *const *recs, size_t n, int ncombo, char *msg, size_t len)
{
    unsigned char full[NFMT][NCOMBO];
    memset(full, 0, sizeof full);
    for (size_t k = 0; k < n; k++) {
        if (!recs[k])
            return REFUSE("record %zu is not JSON (cut short?)", k);
        json_t *schema = json_object_get(recs[k], "schema"), *res = json_object_get(recs[k], "results");
        if (!(json_is_string(schema) && !strcmp(json_string_value(schema), "tcscope.cvt-exhaustive/1")) &&
            !(json_is_integer(schema) && json_integer_value(schema) == 1))
            return REFUSE("record %zu: unknown schema", k);
        json_t *prov = json_object_get(recs[k], "provenance");
        const char *added = json_string_value(json_object_get(prov, "committed_in"));
        bool has_prov = added && strlen(added) >= 7 && json_string_value(json_object_get(prov, "note"));
        if (!json_is_array(res) || json_array_size(res) == 0)
            return REFUSE("record %zu: no results", k);
        size_t i;
        json_t *r;
        json_array_foreach(res, i, r) if (check_result(r, has_prov, full, msg, len)) return -1;
    }
    for (size_t f = 0; f < NFMT; f++)
        for (int c = 0; c < ncombo; c++)
            if (!full[f][c])
                return REFUSE("%s %s/%s%s: no result over all 2^32 inputs", fmts[f], modes[c % 7],
                              ovfs[c < 21 ? c / 7 : 0], c >= 28 ? " daz" : c >= 21 ? " ftz" : "");
    return 0;
}

static void load_all(json_t *recs[NREC])
{
    for (size_t k = 0; k < NREC; k++) {
        json_error_t e;
        recs[k] = json_load_file(paths[k], 0, &e);
        if (!recs[k])
            fail_msg("%s: %s", paths[k], e.text);
    }
}

static void free_all(json_t *recs[NREC])
{
    for (size_t k = 0; k < NREC; k++)
        json_decref(recs[k]);
}

static void records_claim_zero_mismatches_for_every_format_and_mode(void **state)
{
    json_t *recs[NREC];
    char msg[256];
    load_all(recs);
    if (check_cvt_records(recs, NREC, 28, msg, sizeof msg))
        fail_msg("%s", msg);
    free_all(recs);
}

static void broken_records_are_refused(void **state)
{
    json_t *recs[NREC];
    char msg[256];
    /* one recorded mismatch */
    load_all(recs);
    json_t *r0 = json_array_get(json_object_get(recs[1], "results"), 5);
    json_object_set_new(r0, "mismatches", json_integer(1));
    assert_int_equal(check_cvt_records(recs, NREC, 28, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "mismatches recorded"));
    free_all(recs);
    /* the last result gone (a truncated results list): a combination uncovered */
    load_all(recs);
    json_t *res = json_object_get(recs[2], "results");
    assert_int_equal(json_array_remove(res, json_array_size(res) - 1), 0);
    assert_int_equal(check_cvt_records(recs, NREC, 28, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "e8m0 rs/inf ftz: no result over all 2^32 inputs"));
    free_all(recs);
    /* the text cut short */
    load_all(recs);
    char *text = tc_slurp(paths[0]);
    text[strlen(text) / 2] = '\0';
    json_error_t e;
    json_decref(recs[0]);
    recs[0] = json_loads(text, 0, &e);
    assert_int_equal(check_cvt_records(recs, NREC, 28, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not JSON"));
    free(text);
    free_all(recs);
    /* a legacy record without its provenance note: nothing says what it tested */
    load_all(recs);
    json_object_del(recs[1], "provenance");
    assert_int_equal(check_cvt_records(recs, NREC, 28, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "neither the commit and encoder tested nor a provenance note"));
    free_all(recs);
}

/* reports/baselines/h200-cvt-exhaustive.jsonl (tools/exhaustive_f32 lines
 * from the H200 host, today's encoders): read as one record's results, every
 * format x all 35 combinations (daz too) over all 2^32 inputs, 0 mismatches,
 * each line naming the commit and encoder it tested. */
static json_t *load_h200_lines(void)
{
    char *text = tc_slurp("reports/baselines/h200-cvt-exhaustive.jsonl");
    assert_non_null(text);
    json_t *res = json_array();
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        json_error_t e;
        json_t *r = json_loads(line, 0, &e);
        if (!r)
            fail_msg("h200-cvt-exhaustive.jsonl: %s", e.text);
        json_array_append_new(res, r);
    }
    free(text);
    return json_pack("{s:i, s:o}", "schema", 1, "results", res);
}

static void h200_lines_name_their_commit_for_every_combination(void **state)
{
    json_t *rec = load_h200_lines();
    char msg[256];
    if (check_cvt_records(&rec, 1, NCOMBO, msg, sizeof msg))
        fail_msg("%s", msg);
    /* a daz line gone: its combination uncovered; a line without its commit: refused */
    json_t *res = json_object_get(rec, "results");
    size_t i;
    json_t *r;
    json_array_foreach(res, i, r) if (json_is_true(json_object_get(r, "daz"))) break;
    json_t *keep = json_incref(json_array_get(res, i));
    assert_int_equal(json_array_remove(res, i), 0);
    assert_int_equal(check_cvt_records(&rec, 1, NCOMBO, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, " daz: no result over all 2^32 inputs"));
    json_object_del(keep, "commit");
    json_array_append_new(res, keep);
    assert_int_equal(check_cvt_records(&rec, 1, NCOMBO, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "neither the commit and encoder tested"));
    json_decref(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(records_claim_zero_mismatches_for_every_format_and_mode),
        cmocka_unit_test(broken_records_are_refused),
        cmocka_unit_test(h200_lines_name_their_commit_for_every_combination),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
