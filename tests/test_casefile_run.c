/* Running cases: verdicts, alternatives, variants, tile placement, the CLI's
 * exit statuses and its JSON shape. The exact backend must meet every
 * arithmetic expectation; a synthetic truncating model (oracle/model.h via
 * model:PATH) shows that the same checks can fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "cases/casefile.h"
#include "tests/record_out.h"
#include "tests/testutil.h"

#define INS "mma.m16n8k16.f32.f16.f16.f32"

/* A model that truncates every term to f32's 24 bits below the largest and
 * sums blocks of 4 with the accumulator inside: it breaks monotonicity and
 * order independence, so the checks below have something to find. */
static const char *trunc_profile =
    "[default]\n"
    "a_convert = none\nb_convert = none\na_ftz = no\nb_ftz = no\nc_ftz = no\n"
    "products = exact\nproduct_flush_below = none\nblock = 4\nc_mode = first\nc_round = rz\n"
    "align_ref = all\nalign_exp = nominal\nalign_bits = 23\nalign_round = trunc\n"
    "carry_bits = unlimited\nacc = f32:rz\nacc_ftz = no\nout_ftz = no\nout_round = rz\n"
    "out_overflow = inf\nnan = canonical\n"
    "[instr " INS "]\n";

static char profile_path[64];

static int write_profile(void **state)
{
    snprintf(profile_path, sizeof profile_path, "/tmp/tcs-prof-XXXXXX");
    int fd = mkstemp(profile_path);
    if (fd < 0 || write(fd, trunc_profile, strlen(trunc_profile)) < 0)
        return -1;
    close(fd);
    return 0;
}

static int remove_profile(void **state)
{
    unlink(profile_path);
    return 0;
}

static tc_backend *open_backend(const char *spec)
{
    char err[512], buf[128];
    if (!strcmp(spec, "trunc")) {
        snprintf(buf, sizeof buf, "model:%s", profile_path);
        spec = buf;
    }
    tc_backend *b = tc_backend_open(spec, err, sizeof err);
    if (!b)
        fail_msg("backend %s: %s", spec, err);
    return b;
}

/* Parses text and runs its first case on INS. */
static tc_case_result run_text(const char *backend, const char *text, tc_casefile *cf)
{
    char err[512];
    if (!tc_casefile_parse("mem.case", text, cf, err, sizeof err))
        fail_msg("parse: %s", err);
    tc_backend *b = open_backend(backend);
    const tc_case *c = &cf->cases[0];
    tc_case_result r;
    memset(&r, 0, sizeof r);
    if (tc_cases_run(b, tc_instr_by_name(INS), &c, 1, &r, err, sizeof err) != 0)
        fail_msg("run: %s", err);
    tc_backend_close(b);
    return r;
}

#define HEAD "[t]\ninstr = " INS "\nprobes = x\n"
/* 1 + 3 x 2^-25 = 1 + 0.75 ulp(1) in f32: rounded to nearest it is 1 + 2^-23
 * (0x3f800001); truncating each 2^-25 away gives 1 (0x3f800000). */
#define ONE_PLUS "a = 1, 0x1p-13 x 3\nb = 1, 0x1p-12 x 3\n"

static void exact_backend_meets_exact_expectation(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("exact", HEAD ONE_PLUS "expect = exact rne\n", &cf);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    assert_int_equal(r.d, 0x3f800001);
    assert_int_equal(r.exact, 0x3f800001);
    assert_string_equal(r.failed, "");
    tc_casefile_free(&cf);
}

static void wrong_value_fails_and_alternative_names_behaviour(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("exact",
                                HEAD ONE_PLUS "expect = 0x1p0\n"
                                              "if 0x1p0 -> \"truncation\"\n"
                                              "if 0x1.000002p0 -> \"rounding\"\n"
                                              "if exact rne -> \"correctly rounded\"\n",
                                &cf);
    assert_int_equal(r.verdict, TC_VERDICT_FAIL);
    assert_string_equal(r.failed, "expect = 0x1p0");
    assert_int_equal(r.nmatched, 2);
    assert_string_equal(r.matched[0], "rounding");
    assert_string_equal(r.matched[1], "correctly rounded");
    assert_false(r.unrecognised);
    tc_casefile_free(&cf);
}

static void truncating_model_shows_truncation(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("trunc",
                                HEAD ONE_PLUS "expect = exact rne\n"
                                              "if 0x1p0 -> \"truncation\"\n"
                                              "if 0x1.000002p0 -> \"rounding\"\n",
                                &cf);
    assert_int_equal(r.verdict, TC_VERDICT_FAIL);
    assert_int_equal(r.d, 0x3f800000);
    assert_int_equal(r.exact, 0x3f800001);
    assert_int_equal(r.nmatched, 1);
    assert_string_equal(r.matched[0], "truncation");
    tc_casefile_free(&cf);
}

static void unlisted_outcome_is_unrecognised(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("exact", HEAD ONE_PLUS "if 0x1p1 -> \"two\"\nif nan -> \"nan\"\n", &cf);
    assert_true(r.unrecognised);
    assert_int_equal(r.verdict, TC_VERDICT_FAIL);
    tc_casefile_free(&cf);
    r = run_text("exact", HEAD ONE_PLUS "if 0x1.000002p0 -> \"rounding\"\n", &cf);
    assert_int_equal(r.verdict, TC_VERDICT_INFO);
    assert_false(r.unrecognised);
    tc_casefile_free(&cf);
}

/* Signed zero is part of the value: -0 is not +0. The padding of a short
 * case is +0 * +0 = +0 products, so only a full row of -0 terms gives -0. */
static void signed_zero_expectation(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("exact", HEAD "a = -0 x 16\nb = 1 x 16\nc = -0\nexpect = -0\n", &cf);
    assert_int_equal(r.d, 0x80000000);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    tc_casefile_free(&cf);
    r = run_text("exact", HEAD "a = -0 x 16\nb = 1 x 16\nc = -0\nexpect = 0\n", &cf);
    assert_int_equal(r.verdict, TC_VERDICT_FAIL);
    tc_casefile_free(&cf);
    r = run_text("exact", HEAD "a = -0\nb = 1\nc = -0\nexpect = 0\n", &cf);
    assert_int_equal(r.d, 0x00000000);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    tc_casefile_free(&cf);
}

/* The dot product sits at (row, col); the rest of the tile is zero. */
static void row_and_col_place_the_dot_product(void **state)
{
    tc_casefile cf;
    tc_case_result r =
        run_text("exact", HEAD "a = 1.5, 2\nb = 2, 0.25\nc = 0.125\nrow = 13\ncol = 6\nexpect = 3.625\n", &cf);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    assert_int_equal(r.d, 0x40680000); /* 3.625 = 0x1.dp1 */
    tc_casefile_free(&cf);
}

/* Terms far apart in magnitude: the exact sum ignores order, the truncating
 * model does not. */
#define ORDER_CASE                                                                        \
    HEAD "a = -0x1p15, 0x1p15, 0x1p-14 x 14\nb = 0x1p15, 0x1p15, 0x1p-14 x 14\n"          \
         "vary = permutations 24\nexpect = invariant\n"

static void permutations_are_invariant_exactly_not_in_truncating_model(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("exact", ORDER_CASE, &cf);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    assert_int_equal(r.nvariants, 24);
    assert_int_equal(r.ndistinct, 1);
    tc_casefile_free(&cf);
    r = run_text("trunc", ORDER_CASE, &cf);
    assert_int_equal(r.nvariants, 24);
    assert_true(r.ndistinct > 1);
    assert_int_equal(r.verdict, TC_VERDICT_FAIL);
    assert_string_equal(r.failed, "expect = invariant");
    tc_casefile_free(&cf);
}

static void tiles_and_runs_are_deterministic(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("trunc", HEAD ONE_PLUS "vary = tiles 40\nexpect = invariant\n", &cf);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    assert_int_equal(r.nvariants, 40);
    tc_casefile_free(&cf);
    r = run_text("exact", HEAD ONE_PLUS "vary = runs 3\nexpect = invariant\nexpect = exact\n", &cf);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    assert_int_equal(r.nvariants, 3);
    assert_int_equal(r.d_last, 0x3f800001);
    tc_casefile_free(&cf);
}

/* C = 1 - 2^-24, then C = 1, with 3 x 2^-24: exactly 1 + 2^-23, then
 * 1 + 1.5 x 2^-23, a tie, 1 + 2^-22. Aligned to C's exponent with no extra
 * bit and truncated, the terms survive beside the first C (its last bit is
 * 2^-24) but not beside the second (2^-23): D falls from 1 + 2^-23 to 1. */
#define MONO_CASE                                                                         \
    HEAD "a = 0x1p-12 x 3\nb = 0x1p-12 x 3\nc = 0x1.fffffep-1\nvary = c 1\n"              \
         "expect = monotone\n"

static void monotone_holds_exactly_fails_when_truncating(void **state)
{
    tc_casefile cf;
    tc_case_result r = run_text("exact", MONO_CASE, &cf);
    assert_int_equal(r.verdict, TC_VERDICT_PASS);
    assert_int_equal(r.d, 0x3f800001);
    assert_int_equal(r.d_last, 0x3f800002);
    tc_casefile_free(&cf);
    r = run_text("trunc", MONO_CASE, &cf);
    assert_int_equal(r.d, 0x3f800001);
    assert_int_equal(r.d_last, 0x3f800000);
    assert_int_equal(r.verdict, TC_VERDICT_FAIL);
    assert_string_equal(r.failed, "expect = monotone");
    tc_casefile_free(&cf);
}

/* ---- CLI ---------------------------------------------------------------------- */

static char *write_temp(const char *text)
{
    char *path = strdup("/tmp/tcs-case-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_true(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    return path;
}

static tc_run_result cli(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static tc_run_result cli(const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return tc_run_cli(args);
}

static void cli_exit_statuses(void **state)
{
    char *pass = write_temp(HEAD ONE_PLUS "expect = exact\n");
    char *failing = write_temp(HEAD ONE_PLUS "expect = 0x1p0\n");
    tc_run_result r = cli("cases -v --backend exact %s", pass);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "pass  t  on " INS));
    assert_non_null(strstr(r.out, "0x3f800001 (0x1.000002p+0)"));
    assert_non_null(strstr(r.out, "probes: x"));
    tc_run_result_free(&r);
    r = cli("cases --backend exact %s %s", pass, failing);
    assert_int_equal(r.status, 1); /* one passes, one fails: names are unique per file only */
    tc_run_result_free(&r);
    r = cli("cases --verbose --backend exact %s", failing);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "not as expected: expect = 0x1p0"));
    tc_run_result_free(&r);
    r = cli("cases --backend exact %s", failing); /* no -v: no per-case lines */
    assert_int_equal(r.status, 1);
    assert_null(strstr(r.out, "probes: x"));
    assert_non_null(strstr(r.out, "1 stated expectations (expect =) do not hold"));
    tc_run_result_free(&r);
    r = cli("cases --backend nosuch %s", pass);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown backend 'nosuch'"));
    tc_run_result_free(&r);
    r = cli("cases --backend exact --instr mma.m1n1k1.f32.f16.f16.f32 %s", pass);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown instruction"));
    tc_run_result_free(&r);
    r = cli("cases --backend exact --instr mma.m16n8k8.f32.f16.f16.f32 %s", pass);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no case applies"));
    tc_run_result_free(&r);
    r = cli("cases");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    r = cli("cases --frob %s", pass);
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    r = cli("cases --backend model:%s %s", profile_path, pass);
    assert_int_equal(r.status, 1);
    tc_run_result_free(&r);
    unlink(pass);
    unlink(failing);
    free(pass);
    free(failing);
}

static void field_is_string(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_string(v))
        fail_msg("field %s is not a string", key);
}

/* A `reference` that does not hold is a finding: exit 0 (1 under --strict),
 * "diff" in the per-case text; the matrix names the behaviour in words: the
 * truncating model rounds toward zero here, the exact backend to nearest. */
static void reference_departures_are_findings(void **state)
{
    char *path = write_temp(HEAD ONE_PLUS "feature = rounding\nreference = exact rne\n"
                                          "if 0x1p0 -> \"toward zero\"\n"
                                          "if 0x1.000002p0 -> \"round to nearest, ties to even\"\n");
    tc_run_result r = cli("cases --backend model:%s %s", profile_path, path);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "probes: x"));
    const char *row = strstr(r.out, "\n" INS " ");
    if (!row || !strstr(r.out, "rounding") || !strstr(row, "RZ-like"))
        fail_msg("no matrix row saying RZ-like:\n%s", r.out);
    assert_non_null(strstr(r.out, "1 differ"));
    assert_non_null(strstr(r.out, "every stated expectation (expect =) holds"));
    tc_run_result_free(&r);
    r = cli("cases --strict --backend model:%s %s", profile_path, path);
    assert_int_equal(r.status, 1);
    tc_run_result_free(&r);
    r = cli("cases -v --backend model:%s %s", profile_path, path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "diff  t  on " INS));
    assert_non_null(strstr(r.out, "differs from: reference = exact rne"));
    tc_run_result_free(&r);
    r = cli("cases --strict --backend exact %s", path);
    assert_int_equal(r.status, 0);
    row = strstr(r.out, "\n" INS " ");
    if (!row || !strstr(row, "RNE-like"))
        fail_msg("no matrix row saying RNE-like:\n%s", r.out);
    tc_run_result_free(&r);
    unlink(path);
    free(path);
}

static void json_has_one_object_per_case(void **state)
{
    char *path = write_temp(HEAD ONE_PLUS "feature = rounding\nexpect = exact\n"
                                          "if 0x1.000002p0 -> \"rounding\"\n\n"
                                          "[u]\ninstr = " INS "\nprobes = y\nfeature = rounding\n"
                                          "a = 1\nb = 1\nexpect = 0x1p1\n");
    tc_run_result r = cli("cases --backend exact --json %s", path);
    assert_int_equal(r.status, 1);
    int ncase = 0, nsummary = 0, ntotal = 0;
    tc_record rec = tc_out_record(r.out, "cases --json"); /* header, objects, trailer */
    assert_string_equal(json_string_value(json_object_get(rec.header, "backend")), "exact");
    size_t q;
    json_t *o;
    json_array_foreach(rec.objects, q, o) {
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (!strcmp(kind, "case")) {
            ncase++;
            const char *keys[] = {"case", "file", "instr", "backend", "probes", "feature", "d",
                                  "d_value", "exact", "exact_value", "verdict"};
            for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
                field_is_string(o, keys[i]);
            assert_true(json_is_integer(json_object_get(o, "line")));
            assert_true(json_is_array(json_object_get(o, "behaviour")));
            assert_true(json_is_boolean(json_object_get(o, "unrecognised")));
            assert_true(json_is_integer(json_object_get(o, "variants")));
            assert_true(json_is_integer(json_object_get(o, "distinct")));
            const char *d = json_string_value(json_object_get(o, "d"));
            assert_int_equal(strlen(d), 10); /* "0x" + 8 hex digits of f32 */
            assert_memory_equal(d, "0x", 2);
            const char *name = json_string_value(json_object_get(o, "case"));
            const char *verdict = json_string_value(json_object_get(o, "verdict"));
            if (!strcmp(name, "t")) {
                assert_string_equal(verdict, "pass");
                assert_true(json_is_null(json_object_get(o, "failed")));
                assert_string_equal(json_string_value(json_object_get(o, "exact_value")), "0x1.000002p+0");
                assert_string_equal(json_string_value(json_array_get(json_object_get(o, "behaviour"), 0)),
                                    "rounding");
            } else {
                assert_string_equal(verdict, "fail");
                field_is_string(o, "failed");
            }
        } else if (!strcmp(kind, "case_feature")) {
            nsummary++;
            assert_string_equal(json_string_value(json_object_get(o, "feature")), "rounding");
            assert_string_equal(json_string_value(json_object_get(o, "result")), "fail");
            assert_int_equal(json_integer_value(json_object_get(o, "cases")), 2);
            assert_int_equal(json_integer_value(json_object_get(o, "pass")), 1);
            assert_true(json_is_null(json_object_get(o, "level")));
        } else {
            ntotal++;
            assert_string_equal(kind, "case_total");
            assert_int_equal(json_integer_value(json_object_get(o, "cases")), 2);
            assert_int_equal(json_integer_value(json_object_get(o, "fail")), 1);
        }
    }
    tc_record_free(&rec);
    assert_int_equal(ncase, 2);
    assert_int_equal(nsummary, 1);
    assert_int_equal(ntotal, 1);
    tc_run_result_free(&r);
    unlink(path);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_backend_meets_exact_expectation),
        cmocka_unit_test(wrong_value_fails_and_alternative_names_behaviour),
        cmocka_unit_test(truncating_model_shows_truncation),
        cmocka_unit_test(unlisted_outcome_is_unrecognised),
        cmocka_unit_test(signed_zero_expectation),
        cmocka_unit_test(row_and_col_place_the_dot_product),
        cmocka_unit_test(permutations_are_invariant_exactly_not_in_truncating_model),
        cmocka_unit_test(tiles_and_runs_are_deterministic),
        cmocka_unit_test(monotone_holds_exactly_fails_when_truncating),
        cmocka_unit_test(cli_exit_statuses),
        cmocka_unit_test(reference_departures_are_findings),
        cmocka_unit_test(json_has_one_object_per_case),
    };
    return cmocka_run_group_tests(tests, write_profile, remove_profile);
}
