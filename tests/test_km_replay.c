/* The third-party recorded rows (reports/baselines/km/km-<gpu>.jsonl.gz,
 * Khattak & Mikaitis, BSD-2) replayed through the profiles the audit
 * inferred from them (oracle/profiles/<gpu>.profile): every row of every
 * set, fit and verify halves alike, must come out bit for bit, except
 * exactly the verify rows the audit record
 * (reports/baselines/km/<gpu>-audit-rows.json) lists as missed and
 * explains; a set the profile has no entry for must be one the record says
 * fits no candidate.
 * Then the pieces on known answers: a flipped output is caught, the fit
 * recovers the parameters that generated a synthetic set, the corpus
 * backend refuses what was not recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cases/fit_rows.h"
#include "oracle/profile.h"
#include "probes/dots.h"
#include "probes/probes.h"

#define KM "reports/baselines/km"

static size_t replay(const tc_dots *d, const model_params *p)
{
    char err[256];
    oracle_formats f = {d->ins->a, d->ins->b, d->ins->c, d->ins->d};
    model *m = model_new(p, f, err, sizeof err);
    if (!m)
        fail_msg("%s: %s", d->ins->name, err);
    size_t miss = 0;
    for (size_t r = 0; r < d->rows; r++)
        miss += model_dot(m, d->k, d->A + r * (size_t)d->k, d->B + r * (size_t)d->k, d->C[r]) != d->D[r];
    model_free(m);
    return miss;
}

/* The audit record's object of instr (a new reference), or NULL. */
static json_t *record_of(const char *gpu, const char *instr)
{
    char path[256];
    snprintf(path, sizeof path, KM "/%s-audit-rows.json", gpu);
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je), *v, *found = NULL;
    size_t i;
    json_array_foreach(json_object_get(doc, "instructions"), i, v)
        if (!strcmp(json_string_value(json_object_get(v, "instr")), instr))
            found = json_incref(v);
    json_decref(doc);
    return found;
}

static bool record_says_no_fit(const char *gpu, const char *instr)
{
    json_t *v = record_of(gpu, instr);
    bool no = v && json_is_false(json_object_get(v, "fits"));
    json_decref(v);
    return no;
}

/* Every row the profile misses must be a verify row the record lists
 * (with its explanation), and every listed row must be missed. */
static size_t check_against_record(const char *gpu, const tc_dots *d, const model_params *p)
{
    char err[256];
    oracle_formats f = {d->ins->a, d->ins->b, d->ins->c, d->ins->d};
    model *m = model_new(p, f, err, sizeof err);
    assert_non_null(m);
    json_t *rec = record_of(gpu, d->ins->name), *listed = json_object_get(rec, "verify_mismatch_rows");
    size_t miss = 0;
    for (size_t r = 0; r < d->rows; r++) {
        bool missed = model_dot(m, d->k, d->A + r * (size_t)d->k, d->B + r * (size_t)d->k, d->C[r]) != d->D[r];
        bool is_listed = false;
        json_t *v;
        size_t i;
        json_array_foreach(listed, i, v)
            is_listed |= (size_t)json_integer_value(json_object_get(v, "row")) == r;
        if (missed != is_listed)
            fail_msg("%s %s row %zu: %s by the profile but %s in the record", gpu, d->ins->name, r,
                     missed ? "missed" : "reproduced", is_listed ? "listed" : "not listed");
        if (missed && (r % 2 == 0 || !json_is_string(json_object_get(rec, "verify_explanation"))))
            fail_msg("%s %s row %zu: a missed row must be an explained verify row", gpu, d->ins->name, r);
        miss += missed;
    }
    assert_int_equal(miss, (size_t)json_integer_value(json_object_get(rec, "verify_mismatches")));
    json_decref(rec);
    model_free(m);
    return miss;
}

static void every_row_replays_through_its_profile(void **state)
{
    DIR *dir = opendir(KM);
    assert_non_null(dir);
    struct dirent *e;
    size_t files = 0, rows = 0, sets = 0, unfit = 0, explained = 0;
    while ((e = readdir(dir))) {
        char gpu[32];
        if (sscanf(e->d_name, "km-%31[^.].jsonl.gz", gpu) != 1)
            continue;
        char path[512], err[512];
        snprintf(path, sizeof path, KM "/%s", e->d_name);
        tc_dots *s;
        size_t n;
        assert_int_equal(tc_dots_load(path, &s, &n, err, sizeof err), 0);
        model_profile prof;
        snprintf(path, sizeof path, "oracle/profiles/%s.profile", gpu);
        if (profile_load(path, &prof, err, sizeof err))
            fail_msg("%s", err);
        for (size_t i = 0; i < n; i++) {
            const model_params *p = profile_lookup(&prof, s[i].ins->name);
            if (!p) {
                if (!record_says_no_fit(gpu, s[i].ins->name))
                    fail_msg("%s %s: no profile entry, and the record does not say it fits nothing", gpu,
                             s[i].ins->name);
                unfit++;
                continue;
            }
            explained += check_against_record(gpu, &s[i], p);
            rows += s[i].rows;
            sets++;
        }
        profile_free(&prof);
        tc_dots_free_all(s, n);
        files++;
    }
    closedir(dir);
    printf("km: %zu GPUs, %zu sets, %zu rows replayed: all bit for bit but %zu verify rows the records list and "
           "explain; %zu sets fit no candidate (no profile entry)\n", files, sets, rows, explained, unfit);
    assert_true(files >= 6);
    assert_true(rows > 0);
}

/* One recorded output bit flipped: the replay counts that row, and only it. */
static void a_flipped_output_is_caught(void **state)
{
    char err[512];
    tc_dots *s;
    size_t n;
    assert_int_equal(tc_dots_load(KM "/km-a100.jsonl.gz", &s, &n, err, sizeof err), 0);
    model_profile prof;
    assert_int_equal(profile_load("oracle/profiles/a100.profile", &prof, err, sizeof err), 0);
    const model_params *p = profile_lookup(&prof, s[0].ins->name);
    assert_non_null(p);
    s[0].D[17] ^= 1;
    assert_int_equal(replay(&s[0], p), 1);
    profile_free(&prof);
    tc_dots_free_all(s, n);
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

/* Rows made by a known arithmetic (block 8, 24 alignment bits, truncation,
 * f32 accumulator with RZ, C first): the fit must find it, decide the
 * fields random full rows can decide, and verify with 0 mismatches. */
static void the_fit_recovers_a_known_arithmetic(void **state)
{
    const tc_instr *ins = tc_instr_by_name("wmma.m16n16k16.f32.f16.f16.f32");
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    model_params p = model_params_exact(f, rne);
    p.block = 8;
    p.align_bits = 24;
    p.align_round = MODEL_ALIGN_TRUNC;
    p.acc_exact = false;
    p.acc_fmt = tc_f32;
    p.acc_round = TC_RZ;
    p.c_mode = MODEL_C_FIRST;
    tc_dots d = {.ins = ins, .k = 16, .rows = 600};
    snprintf(d.gpu, sizeof d.gpu, "synthetic");
    d.A = malloc(600 * 16 * 8), d.B = malloc(600 * 16 * 8), d.C = malloc(600 * 8), d.D = malloc(600 * 8);
    uint64_t x = 88172645463325252ull;
    for (size_t i = 0; i < 600 * 16; i++) { /* normal f16 with exponents -4..4, random sign and fraction */
        d.A[i] = (next(&x) & 0x83ff) | (uint64_t)(11 + next(&x) % 9) << 10;
        d.B[i] = (next(&x) & 0x83ff) | (uint64_t)(11 + next(&x) % 9) << 10;
    }
    for (size_t r = 0; r < 600; r++)
        d.C[r] = tc_encode_f32(&tc_f32, (float)((double)(next(&x) % 20001) / 1000.0 - 10.0), rne);
    char err[256];
    model *m = model_new(&p, f, err, sizeof err);
    assert_non_null(m);
    for (size_t r = 0; r < 600; r++)
        d.D[r] = model_dot(m, 16, d.A + r * 16, d.B + r * 16, d.C[r]);
    model_free(m);
    fit_result res;
    assert_int_equal(tc_fit_rows(&d, &res, err, sizeof err), 0);
    assert_true(res.fits);
    assert_int_equal(res.verify_mismatch, 0);
    assert_int_equal(res.fit_rows, 300);
    for (int i = 0; i < res.nfields; i++) {
        const fit_field *fl = &res.fields[i];
        const char *want = !strcmp(fl->key, "block") ? "8" : !strcmp(fl->key, "align_bits") ? "24"
                           : !strcmp(fl->key, "c_mode") ? "first" : !strcmp(fl->key, "acc") ? "f32:rz" : NULL;
        if (!want)
            continue;
        if (fl->nvalues != 1 || strcmp(fl->values[0], want))
            fail_msg("%s: fit says %s (%d values), generated with %s", fl->key, fl->values[0], fl->nvalues, want);
        assert_true(fl->deciding_rows > 0);
    }
    tc_fit_result_free(&res);
    free(d.A), free(d.B), free(d.C), free(d.D);
}

/* The corpus backend answers only recorded rows: an instruction without
 * rows is unsupported, a tile of other inputs refused, a missing file an error. */
static void the_corpus_backend_refuses_what_was_not_recorded(void **state)
{
    char err[512];
    tc_backend *b = tc_backend_open("corpus:" KM "/km-v100.jsonl.gz", err, sizeof err);
    assert_non_null(b);
    const tc_instr *other = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    const tc_instr *ins = tc_instr_by_name("wmma.m16n16k16.f32.f16.f16.f32");
    assert_false(tc_backend_supports(b, other, err, sizeof err));
    assert_true(tc_backend_supports(b, ins, err, sizeof err));
    uint64_t *A = calloc(256, 8), *B = calloc(256, 8), *C = calloc(256, 8), *D = calloc(256, 8);
    assert_int_equal(tc_backend_mma(b, ins, 1, A, B, C, D, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a recorded row"));
    size_t n;
    assert_non_null(tc_dots_of_backend(b, &n));
    assert_int_equal(n, 2);
    tc_backend_close(b);
    free(A), free(B), free(C), free(D);
    assert_null(tc_backend_open("corpus:" KM "/no-such.jsonl.gz", err, sizeof err));
    assert_null(tc_backend_open("corpus:", err, sizeof err));
}

/* reports/baselines/km/ is not scanned by test_baselines_schema: here every
 * file there must be one of its documented forms (reports/SCHEMA.md). */
static void every_km_file_is_a_documented_form(void **state)
{
    DIR *dir = opendir(KM);
    assert_non_null(dir);
    struct dirent *e;
    size_t dots = 0, audits = 0;
    while ((e = readdir(dir))) {
        const char *n = e->d_name;
        char gpu[32], tail[8], path[512], err[512];
        snprintf(path, sizeof path, KM "/%s", n);
        if (n[0] == '.' || !strcmp(n, "README.md") || !strcmp(n, "LICENCE") || !strcmp(n, "README.km-validation"))
            continue;
        if (sscanf(n, "km-%31[^.].jsonl.g%1[z]", gpu, tail) == 2) {
            tc_dots *s;
            size_t k;
            if (tc_dots_load(path, &s, &k, err, sizeof err))
                fail_msg("%s", err);
            tc_dots_free_all(s, k);
            dots++;
            continue;
        }
        json_error_t je;
        json_t *doc = json_load_file(path, 0, &je);
        const char *schema = json_string_value(json_object_get(doc, "schema"));
        if (!schema || strcmp(schema, "tcscope.fit-rows/1"))
            fail_msg("%s: not a documented form of " KM " (dots lines, tcscope.fit-rows/1)", n);
        json_decref(doc);
        audits++;
    }
    closedir(dir);
    assert_int_equal(dots, audits); /* one audit per corpus */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_km_file_is_a_documented_form),
        cmocka_unit_test(every_row_replays_through_its_profile),
        cmocka_unit_test(a_flipped_output_is_caught),
        cmocka_unit_test(the_fit_recovers_a_known_arithmetic),
        cmocka_unit_test(the_corpus_backend_refuses_what_was_not_recorded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
