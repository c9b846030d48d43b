/* The Fasi et al. 2021 feature file: it is what cases/gen.c derives for the
 * catalogue, it covers every floating-point class, an exactly rounding MMA
 * (the model in its exact setting, judged by the MPFR oracle) meets all of
 * it with the answers exact arithmetic gives, and a synthetic truncating
 * core fails it where it should. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "cases/casefile.h"
#include "cases/features.h"
#include "tests/exact_profile.h"
#include "tests/record_out.h"
#include "tests/testutil.h"

#define FASI "cases/library/fasi2021.case"

/* The committed file is the generator's output for today's catalogue: when
 * the catalogue or a derivation changes, regenerate it (see its header). */
static void committed_file_is_the_generated_one(void **state)
{
    char *committed = tc_slurp(FASI);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tc_features_write_fasi2021(f);
    fclose(f);
    assert_true(strlen(committed) > 100000);
    if (strcmp(committed, buf))
        fail_msg(FASI " differs from `tcscope cases --emit fasi2021`: regenerate it");
    free(committed);
    free(buf);
}

static void file_covers_every_float_instruction(void **state)
{
    tc_casefile cf;
    char err[1024];
    if (!tc_casefile_load(FASI, &cf, err, sizeof err))
        fail_msg("%s", err);
    static const char *const core[] = {"subnormal-inputs", "subnormal-c", "products-exact",
                                       "alignment-extra-bits", "rounding", "fused-block",
                                       "c-placement", "carry-out", "monotonicity"};
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    size_t covered = 0;
    for (size_t i = 0; i < n; i++) {
        const tc_instr *ins = &cat[i];
        if (ins->sparse || tc_format_is_int(ins->a))
            continue;
        for (size_t q = 0; q < sizeof core / sizeof core[0]; q++) {
            bool found = false;
            for (size_t c = 0; c < cf.n && !found; c++)
                found = cf.cases[c].feature && !strcmp(cf.cases[c].feature, core[q]) &&
                        tc_case_applies(&cf.cases[c], ins);
            if (!found)
                fail_msg("%s: no case for %s", ins->name, core[q]);
        }
        covered++;
    }
    assert_true(covered >= 20);
    tc_casefile_free(&cf);
}

/* Runs the file through the CLI with --json on one instruction; returns the
 * feature summary objects by feature name in *sums (a JSON object). */
static int run_json(const char *backend, const char *instr, json_t **sums)
{
    char args[512];
    snprintf(args, sizeof args, "cases --json --backend %s --instr %s " FASI, backend, instr);
    tc_run_result r = tc_run_cli(args);
    *sums = json_object();
    tc_record rec = tc_out_record(r.out, args);
    int ncases = 0;
    size_t q;
    json_t *o;
    json_array_foreach(rec.objects, q, o) {
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (!strcmp(kind, "case"))
            ncases++;
        else if (!strcmp(kind, "case_feature"))
            json_object_set(*sums, json_string_value(json_object_get(o, "feature")), o);
    }
    tc_record_free(&rec);
    if (ncases < 40)
        fail_msg("%s: exit %d, %d cases, stderr: %.300s", args, r.status, ncases, r.err);
    int status = r.status;
    tc_run_result_free(&r);
    return status;
}

static bool behaviour_has(json_t *sum, const char *label)
{
    json_t *arr = json_object_get(sum, "behaviour");
    size_t i;
    json_t *v;
    json_array_foreach(arr, i, v) if (!strcmp(json_string_value(v), label)) return true;
    return false;
}

static const char *result_of(json_t *sums, const char *feature)
{
    json_t *s = json_object_get(sums, feature);
    if (!s)
        fail_msg("no summary for %s", feature);
    return json_string_value(json_object_get(s, "result"));
}

/* Exact arithmetic: every question answered the IEEE way. The answers come
 * from the model of oracle/model.h in its correctly rounded setting, while
 * `expect = exact rne` is evaluated by the MPFR oracle (oracle/exact.c): two
 * implementations, not the oracle checking itself. */
static void exact_model_passes_every_feature(void **state)
{
    char path[32], err[256], backend[64];
    if (tc_exact_profile_backend(path, backend, sizeof backend, err, sizeof err))
        fail_msg("%s", err);
    static const char *const instrs[] = {
        "mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k8.f16.f16.f16.f16", "mma.m16n8k16.f32.bf16.bf16.f32",
        "mma.m16n8k8.f32.tf32.tf32.f32", "mma.m16n8k32.f32.e4m3.e5m2.f32", "mma.m16n8k32.f16.e5m2.e5m2.f16",
        "mma.m8n8k4.f64.f64.f64.f64"};
    for (size_t i = 0; i < sizeof instrs / sizeof instrs[0]; i++) {
        json_t *sums;
        int status = run_json(backend, instrs[i], &sums);
        if (status != 0)
            fail_msg("%s: exit %d", instrs[i], status);
        const char *key;
        json_t *s;
        json_object_foreach(sums, key, s)
        {
            if (strcmp(json_string_value(json_object_get(s, "result")), "pass"))
                fail_msg("%s: %s fails on the exact model", instrs[i], key);
        }
        json_t *align = json_object_get(sums, "alignment-extra-bits");
        assert_int_equal(json_integer_value(json_object_get(align, "level")),
                         json_integer_value(json_object_get(align, "max_level")));
        json_t *rnd = json_object_get(sums, "rounding");
        assert_true(behaviour_has(rnd, "round to nearest, ties to even"));
        assert_false(behaviour_has(rnd, "toward zero"));
        assert_false(behaviour_has(rnd, "small term dropped"));
        assert_true(behaviour_has(json_object_get(sums, "fused-block"), "no term lost (exact sum)"));
        assert_true(behaviour_has(json_object_get(sums, "products-exact"), "products exact"));
        assert_true(behaviour_has(json_object_get(sums, "subnormal-inputs"), "subnormal A used"));
        json_decref(sums);
    }
    unlink(path);
}

/* A core that aligns to the largest term with no extra bit, truncates, and
 * sums blocks of 4: the file must say so. */
static void truncating_core_fails_where_it_should(void **state)
{
    char path[] = "/tmp/tcs-fasi-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("[default]\na_convert = none\nb_convert = none\na_ftz = no\nb_ftz = no\nc_ftz = no\n"
          "products = exact\nproduct_flush_below = none\nblock = 4\nc_mode = first\nc_round = rz\n"
          "align_ref = all\nalign_exp = nominal\nalign_bits = 23\nalign_round = trunc\n"
          "carry_bits = unlimited\nacc = f32:rz\nacc_ftz = no\nout_ftz = no\nout_round = rz\n"
          "out_overflow = inf\nnan = canonical\n[instr mma.m16n8k16.f32.f16.f16.f32]\n",
          f);
    fclose(f);
    char backend[64];
    snprintf(backend, sizeof backend, "model:%s", path);
    json_t *sums;
    int status = run_json(backend, "mma.m16n8k16.f32.f16.f16.f32", &sums);
    assert_int_equal(status, 0); /* departures from `reference = exact rne` are findings, not failures */
    assert_string_equal(result_of(sums, "products-exact"), "pass");
    assert_string_equal(result_of(sums, "subnormal-inputs"), "pass");
    assert_string_equal(result_of(sums, "alignment-extra-bits"), "fail");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sums, "alignment-extra-bits"), "level")), 0);
    assert_string_equal(result_of(sums, "monotonicity"), "fail");
    assert_true(behaviour_has(json_object_get(sums, "rounding"), "small term dropped"));
    assert_true(behaviour_has(json_object_get(sums, "fused-block"),
                              "fused blocks of 4, running sum inside the block sum"));
    json_decref(sums);
    unlink(path);
}

/* Summaries: levels are the largest fully passing level. */
static void summary_levels_stop_at_first_failure(void **state)
{
    tc_case cases[4];
    tc_case_result res[4];
    memset(cases, 0, sizeof cases);
    memset(res, 0, sizeof res);
    static const tc_instr ins = {.name = "x"};
    for (int i = 0; i < 4; i++) {
        cases[i].feature = "f";
        cases[i].level = i;
        res[i].c = &cases[i];
        res[i].ins = &ins;
        res[i].verdict = i == 2 ? TC_VERDICT_FAIL : TC_VERDICT_PASS; /* level 3 passes after a failure */
    }
    tc_feature_summary s[2];
    assert_int_equal(tc_features_summarize(res, 4, s, 2), 1);
    assert_true(s[0].levelled);
    assert_int_equal(s[0].level, 1);
    assert_int_equal(s[0].max_level, 3);
    assert_int_equal(s[0].nfail, 1);
    res[2].verdict = TC_VERDICT_PASS;
    tc_features_summarize(res, 4, s, 2);
    assert_int_equal(s[0].level, 3);
    res[0].verdict = TC_VERDICT_FAIL;
    tc_features_summarize(res, 4, s, 2);
    assert_int_equal(s[0].level, -1);
}

/* The matrix's words: a level as bits, consistent behaviours as short words
 * (the labels themselves when the words would hide a difference), else how
 * many cases differ. */
static void matrix_words_say_the_behaviour(void **state)
{
    static const tc_instr ins = {.name = "x"};
    char w[256];
    tc_feature_summary s = {.feature = "alignment-extra-bits", .ins = &ins, .ncases = 6, .npass = 3,
                            .nfail = 3, .levelled = true, .level = 2, .max_level = 5};
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "2 extra bits");
    s.level = 5;
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, ">= 5 extra bits");
    s = (tc_feature_summary){.feature = "subnormal-inputs", .ins = &ins, .ncases = 2, .npass = 2,
                             .common = {"subnormal A used", "subnormal B used"}, .ncommon = 2};
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "keeps");
    s.common[1] = "subnormal B flushed to zero"; /* "keeps, flushes" would not say which */
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "subnormal A used, subnormal B flushed to zero");
    s = (tc_feature_summary){.feature = "rounding", .ins = &ins, .ncases = 4, .nfail = 4,
                             .common = {"toward zero"}, .ncommon = 1};
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "RZ-like");
    s.ncommon = 0; /* no behaviour explains every case */
    s.npass = 1;
    s.nfail = 3;
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "3 of 4 differ");
    s.nfail = 0;
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "as reference");
    s = (tc_feature_summary){.feature = "monotonicity", .ins = &ins, .ncases = 2, .nfail = 1};
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "not monotone");
    s = (tc_feature_summary){.feature = "fused-block", .ins = &ins, .ncases = 2,
                             .common = {"fused blocks of 8, running sum inside the block sum"}, .ncommon = 1};
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "blocks of 8 (sum inside)");
    s.common[1] = "fused blocks of 8, running sum added after each block"; /* both fit: the cases cannot tell */
    s.ncommon = 2;
    tc_feature_words(&s, w, sizeof w);
    assert_string_equal(w, "blocks of 8");
    assert_string_equal(tc_feature_heading("subnormal-inputs"), "subnormal in");
    assert_string_equal(tc_feature_heading("my-feature"), "my-feature");
}

/* The matrix: a column per feature, "-" where one was not tested, and wgmma
 * shapes that differ only in N share a row only when every cell agrees. */
static void matrix_rows_and_columns(void **state)
{
    static const tc_instr w8 = {.name = "wgmma.m64n8k16.f32.f16.f16"}, w16 = {.name = "wgmma.m64n16k16.f32.f16.f16"},
                          w32 = {.name = "wgmma.m64n32k16.f32.f16.f16"}, m = {.name = "mma.m16n8k16.f32.f16.f16.f32"};
    tc_feature_summary s[] = {
        {.feature = "monotonicity", .ins = &m, .ncases = 1},
        {.feature = "monotonicity", .ins = &w8, .ncases = 1, .nfail = 1},
        {.feature = "rounding", .ins = &w8, .ncases = 1, .common = {"toward zero"}, .ncommon = 1},
        {.feature = "monotonicity", .ins = &w16, .ncases = 1, .nfail = 1},
        {.feature = "rounding", .ins = &w16, .ncases = 1, .common = {"toward zero"}, .ncommon = 1},
        {.feature = "monotonicity", .ins = &w32, .ncases = 1}, /* differs from n8 and n16 */
        {.feature = "rounding", .ins = &w32, .ncases = 1, .common = {"toward zero"}, .ncommon = 1},
    };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tc_features_write_matrix(s, sizeof s / sizeof s[0], f);
    fclose(f);
    /* the name column as wide as its longest entry, then two blanks */
    const char *want = "instruction                        monotone      rounding\n"
                       "mma.m16n8k16.f32.f16.f16.f32       monotone      -\n"
                       "wgmma.m64nNk16.f32.f16.f16 N=8,16  not monotone  RZ-like\n"
                       "wgmma.m64n32k16.f32.f16.f16        monotone      RZ-like\n";
    if (strcmp(buf, want))
        fail_msg("matrix:\n%s\nwant:\n%s", buf, want);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(committed_file_is_the_generated_one),
        cmocka_unit_test(file_covers_every_float_instruction),
        cmocka_unit_test(exact_model_passes_every_feature),
        cmocka_unit_test(truncating_core_fails_where_it_should),
        cmocka_unit_test(summary_levels_stop_at_first_failure),
        cmocka_unit_test(matrix_words_say_the_behaviour),
        cmocka_unit_test(matrix_rows_and_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
