/* Generators: exact value text, valid case files for every family and
 * format class, every generated expectation met by the exact model, and
 * the generated cases recovering synthetic tensor cores (oracle/model.h with
 * chosen block size, alignment width, rounding) from their answers alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cases/casefile.h"
#include "cases/features.h"
#include "cases/gen.h"
#include "oracle/value.h"
#include "tests/exact_profile.h"
#include "tests/testutil.h"

#define INS "mma.m16n8k16.f32.f16.f16.f32"

static void hex_text_is_exact(void **state)
{
    char buf[64];
    tc_gen_hex(0, 5, buf, sizeof buf);
    assert_string_equal(buf, "0");
    tc_gen_hex(1, 0, buf, sizeof buf);
    assert_string_equal(buf, "0x1p+0");
    tc_gen_hex(3, -1, buf, sizeof buf);
    assert_string_equal(buf, "0x1.8p+0");
    tc_gen_hex(-5, 2, buf, sizeof buf);
    assert_string_equal(buf, "-0x1.4p+4");
    tc_gen_hex((1ll << 24) - 1, -24, buf, sizeof buf);
    assert_string_equal(buf, "0x1.fffffep-1");
    /* Property: the text reads back as exactly m * 2^e. */
    uint64_t s = 12345;
    for (int i = 0; i < 20000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        long long m = (long long)(s >> (11 + (s & 31)));
        if (s >> 63)
            m = -m;
        int e = (int)((s >> 20) % 400) - 200;
        tc_gen_hex(m, e, buf, sizeof buf);
        tc_parsed_value pv;
        char err[128];
        if (!tc_value_parse(buf, NULL, &pv, err, sizeof err))
            fail_msg("'%s' does not parse: %s", buf, err);
        assert_false(pv.sticky);
        if (m == 0) {
            assert_int_equal(pv.v.cls, TC_ZERO);
            continue;
        }
        tc_value want = {.cls = TC_FINITE, .sign = m < 0, .exp = e,
                         .sig = m < 0 ? 0ull - (unsigned long long)m : (unsigned long long)m};
        if (tc_value_cmp(pv.v, want) != 0)
            fail_msg("m=%lld e=%d wrote '%s'", m, e, buf);
    }
}

/* The block model by hand: -M at 0, +M at i, small terms elsewhere. Blocks of
 * B in order: the small terms of every block up to the one holding +M are
 * lost (they share a sum with +-M), later ones count: K - B(floor(i/B) + 1).
 * Whether the running sum joins the block sum does not matter here. */
static void block_predictor_matches_hand_derivation(void **state)
{
    int big[64];
    long small[64];
    for (int k = 4; k <= 32; k *= 2)
        for (int i = 1; i < k; i++)
            for (int blk = 1; blk <= k; blk *= 2)
                for (int inside = 0; inside < 2; inside++) {
                    for (int p = 0; p < k; p++) {
                        big[p] = p == 0 ? -1 : p == i ? 1 : 0;
                        small[p] = big[p] ? 0 : 1;
                    }
                    long want = k - blk * (i / blk + 1);
                    assert_int_equal(tc_gen_block_predict(k, big, small, blk, inside), want);
                }
    /* -M at the end, +M early: the running sum's small terms die with the
     * big terms only when it joins the block sum. k = 8, B = 4, +M at 5:
     * blocks {s,s,s,s} {s,M,s,-M}: inside -> 0; after -> 4. */
    for (int p = 0; p < 8; p++) {
        big[p] = p == 7 ? -1 : p == 5 ? 1 : 0;
        small[p] = big[p] ? 0 : 1;
    }
    assert_int_equal(tc_gen_block_predict(8, big, small, 4, true), 0);
    assert_int_equal(tc_gen_block_predict(8, big, small, 4, false), 4);
}

/* One instruction per (A, B, C, D, K), the one with the smallest tile. */
static size_t representatives(const tc_instr **out, size_t max)
{
    size_t n, r = 0;
    const tc_instr *cat = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const tc_instr *ins = &cat[i];
        if (ins->sparse || tc_format_is_int(ins->a))
            continue;
        size_t j;
        for (j = 0; j < r; j++)
            if (out[j]->a == ins->a && out[j]->b == ins->b && out[j]->c == ins->c &&
                out[j]->d == ins->d && out[j]->k == ins->k)
                break;
        if (j == r && r < max)
            out[r++] = ins;
        else if (j < r && ins->m * ins->n < out[j]->m * out[j]->n)
            out[j] = ins;
    }
    return r;
}

/* Every family, every format class: the text parses back, and an exactly
 * rounding MMA meets every expectation and shows a listed outcome. The MMA
 * is the model of oracle/model.h in its correctly rounded setting; the
 * expectations (`expect = exact rne`) are evaluated by the MPFR oracle: two
 * implementations, not the oracle checking itself. */
static void every_family_parses_and_passes_on_the_exact_model(void **state)
{
    const tc_instr *reps[64];
    size_t nrep = representatives(reps, 64);
    assert_true(nrep >= 10);
    char err[1024], path[32], spec[64];
    if (tc_exact_profile_backend(path, spec, sizeof spec, err, sizeof err))
        fail_msg("%s", err);
    tc_backend *be = tc_backend_open(spec, err, sizeof err);
    if (!be)
        fail_msg("%s", err);
    unlink(path);
    size_t total = 0;
    for (size_t r = 0; r < nrep; r++) {
        tc_gen_target t;
        tc_gen_target_of(reps[r], &t);
        tc_casefile gen = {0};
        int n = tc_gen_family("all", &t, &gen, err, sizeof err);
        if (n < 20)
            fail_msg("%s: only %d cases", reps[r]->name, n);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        for (size_t i = 0; i < gen.n; i++)
            tc_case_write(&gen.cases[i], f);
        fclose(f);
        tc_casefile cf;
        if (!tc_casefile_parse("gen.case", buf, &cf, err, sizeof err))
            fail_msg("%s: generated text does not parse: %s", reps[r]->name, err);
        assert_int_equal(cf.n, gen.n);
        const tc_case **sel = malloc(cf.n * sizeof *sel);
        tc_case_result *res = calloc(cf.n, sizeof *res);
        for (size_t i = 0; i < cf.n; i++)
            sel[i] = &cf.cases[i];
        if (tc_cases_run(be, reps[r], sel, cf.n, res, err, sizeof err))
            fail_msg("%s: %s", reps[r]->name, err);
        for (size_t i = 0; i < cf.n; i++)
            if (res[i].verdict == TC_VERDICT_FAIL)
                fail_msg("%s on %s: %s", cf.cases[i].name, reps[r]->name, res[i].failed);
        total += cf.n;
        free(sel);
        free(res);
        free(buf);
        tc_casefile_free(&cf);
        tc_casefile_free(&gen);
    }
    tc_backend_close(be);
    assert_true(total > 1000);
}

static void unknown_family_is_an_error(void **state)
{
    tc_gen_target t;
    tc_gen_target_of(tc_instr_by_name(INS), &t);
    tc_casefile cf = {0};
    char err[512];
    assert_int_equal(tc_gen_family("frob", &t, &cf, err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown case family 'frob'"));
    assert_non_null(strstr(err, "align"));
    assert_int_equal(cf.n, 0);
    tc_run_result r = tc_run_cli("cases --emit frob --instr " INS);
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
}

/* ---- Recovering synthetic tensor cores ----------------------------------------- */

typedef struct {
    int block;
    const char *align_ref, *align_bits, *align_round, *acc, *out_round;
} synth;

static tc_backend *open_synth(const synth *s, char *path, size_t len)
{
    snprintf(path, len, "/tmp/tcs-synth-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f,
            "[default]\na_convert = none\nb_convert = none\na_ftz = no\nb_ftz = no\nc_ftz = no\n"
            "products = exact\nproduct_flush_below = none\nblock = %d\nc_mode = first\n"
            "c_round = rz\nalign_ref = %s\nalign_exp = nominal\nalign_bits = %s\n"
            "align_round = %s\ncarry_bits = unlimited\nacc = %s\nacc_ftz = no\nout_ftz = no\n"
            "out_round = %s\nout_overflow = inf\nnan = canonical\n[instr " INS "]\n",
            s->block, s->align_ref, s->align_bits, s->align_round, s->acc, s->out_round);
    fclose(f);
    char spec[128], err[512];
    snprintf(spec, sizeof spec, "model:%s", path);
    tc_backend *b = tc_backend_open(spec, err, sizeof err);
    if (!b)
        fail_msg("%s: %s", spec, err);
    return b;
}

/* Runs one family on INS against a synthetic core; returns its summary. */
static tc_feature_summary summarize_family(const synth *s, const char *family, const char *feature)
{
    char path[64], err[512];
    tc_backend *be = open_synth(s, path, sizeof path);
    tc_gen_target t;
    tc_gen_target_of(tc_instr_by_name(INS), &t);
    tc_casefile cf = {0};
    assert_true(tc_gen_family(family, &t, &cf, err, sizeof err) > 0);
    const tc_case **sel = malloc(cf.n * sizeof *sel);
    tc_case_result *res = calloc(cf.n, sizeof *res);
    for (size_t i = 0; i < cf.n; i++)
        sel[i] = &cf.cases[i];
    if (tc_cases_run(be, tc_instr_by_name(INS), sel, cf.n, res, err, sizeof err))
        fail_msg("%s", err);
    tc_feature_summary sum[8], out;
    size_t ns = tc_features_summarize(res, cf.n, sum, 8);
    bool found = false;
    for (size_t i = 0; i < ns; i++)
        if (!strcmp(sum[i].feature, feature)) {
            out = sum[i];
            found = true;
        }
    assert_true(found);
    /* The labels point into cf, which dies here: keep copies. */
    static char labels[TC_FEATURE_MAX_LABELS][160];
    for (int i = 0; i < out.ncommon; i++) {
        snprintf(labels[i], sizeof labels[i], "%s", out.common[i]);
        out.common[i] = labels[i];
    }
    out.feature = feature;
    free(sel);
    free(res);
    tc_casefile_free(&cf);
    tc_backend_close(be);
    unlink(path);
    return out;
}

static bool shows(const tc_feature_summary *s, const char *label)
{
    for (int i = 0; i < s->ncommon; i++)
        if (!strcmp(s->common[i], label))
            return true;
    return false;
}

/* The block family names the synthetic block size, and no other. */
static void block_family_recovers_block_size(void **state)
{
    for (int blk = 2; blk <= 16; blk *= 2) {
        synth s = {blk, "all", "23", "trunc", "f32:rz", "rz"};
        tc_feature_summary sum = summarize_family(&s, "block", "fused-block");
        char want[128];
        snprintf(want, sizeof want, "fused blocks of %d, running sum inside the block sum", blk);
        if (!shows(&sum, want))
            fail_msg("block %d: '%s' not shown (%d labels)", blk, want, sum.ncommon);
        for (int other = 1; other <= 16; other *= 2) {
            char lab[128];
            if (other == blk)
                continue;
            snprintf(lab, sizeof lab, "fused blocks of %d, running sum inside the block sum", other);
            assert_false(shows(&sum, lab));
        }
        assert_false(shows(&sum, "no term lost (exact sum)"));
        assert_true(sum.nfail > 0);
    }
}

/* The alignment scan's level is the number of bits kept below the largest
 * term's last bit: align_bits - 23 for an f32 accumulator. */
static void align_family_recovers_extra_bits(void **state)
{
    static const char *const bits[] = {"23", "24", "26", "30"};
    static const int want[] = {0, 1, 3, 7};
    for (int i = 0; i < 4; i++) {
        synth s = {16, "all", bits[i], "trunc", "f32:rz", "rz"};
        tc_feature_summary sum = summarize_family(&s, "align", "alignment-extra-bits");
        assert_true(sum.levelled);
        if (sum.level != want[i])
            fail_msg("align_bits %s: level %d, want %d", bits[i], sum.level, want[i]);
    }
    synth exact = {16, "all", "exact", "trunc", "exact", "rne"};
    tc_feature_summary sum = summarize_family(&exact, "align", "alignment-extra-bits");
    assert_int_equal(sum.level, sum.max_level);
    assert_int_equal(sum.nfail, 0);
}

/* With exact alignment and accumulation, the truth table names the output
 * rounding and no other; truncating alignment shows "small term dropped". */
static void round_family_recovers_rounding(void **state)
{
    static const char *const mode[] = {"rne", "rz", "ru", "rd"};
    static const char *const label[] = {"round to nearest, ties to even", "toward zero",
                                        "toward +inf", "toward -inf"};
    for (int i = 0; i < 4; i++) {
        synth s = {16, "all", "exact", "trunc", "exact", mode[i]};
        tc_feature_summary sum = summarize_family(&s, "round", "rounding");
        for (int j = 0; j < 4; j++)
            if (shows(&sum, label[j]) != (i == j))
                fail_msg("out_round %s: '%s' %s", mode[i], label[j], i == j ? "missing" : "shown");
        assert_false(shows(&sum, "small term dropped"));
        assert_int_equal(sum.nfail > 0, i != 0);
    }
    synth t = {16, "all", "23", "trunc", "f32:rz", "rz"};
    tc_feature_summary sum = summarize_family(&t, "round", "rounding");
    assert_true(shows(&sum, "small term dropped"));
    assert_false(shows(&sum, "round to nearest, ties to even"));
}

/* C placement: C joining the first block's aligned sum is lost beside the
 * cancelling big products; C added after them survives. */
static void cplace_family_tells_where_c_enters(void **state)
{
    synth in = {16, "all", "23", "trunc", "f32:rz", "rz"};
    tc_feature_summary sum = summarize_family(&in, "cplace", "c-placement");
    assert_true(shows(&sum, "C aligned with the products (inside the fused sum)"));
    synth ex = {16, "all", "exact", "trunc", "exact", "rne"};
    sum = summarize_family(&ex, "cplace", "c-placement");
    assert_true(shows(&sum, "C added apart from the products' aligned sum"));
    assert_int_equal(sum.nfail, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hex_text_is_exact),
        cmocka_unit_test(block_predictor_matches_hand_derivation),
        cmocka_unit_test(every_family_parses_and_passes_on_the_exact_model),
        cmocka_unit_test(unknown_family_is_an_error),
        cmocka_unit_test(block_family_recovers_block_size),
        cmocka_unit_test(align_family_recovers_extra_bits),
        cmocka_unit_test(round_family_recovers_rounding),
        cmocka_unit_test(cplace_family_tells_where_c_enters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
