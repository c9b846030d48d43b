/* Chain sweeps: the statistics agree with an independent, deliberately
 * simple recomputation (plain MPFR chain, exact by mpfr_sum's ternary, sort,
 * nearest-rank quantiles) from the traced inputs and outputs, on the exact
 * backend and on the model backend with a synthetic profile (test data, not
 * a GPU profile). Exact arithmetic properties: on the exact backend each
 * step's own error is within half an ulp of f32, exactly representable f64
 * chains have error 0 at every step, per-tensor scaling prevents FP8
 * overflow that the unscaled chain shows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <mpfr.h>

#include "cases/sweep.h"
#include "reports/reports.h"
#include "tests/testutil.h"

#define SYNTH_PROFILE "model:tests/data/records/synthetic-trunc.profile"

static sweep_params params(const char *fmt, int chain, int trials)
{
    static tc_format scratch;
    sweep_params p = {.fmt = tc_format_by_name(fmt, &scratch), .chain = chain, .trials = trials,
                      .dist = SWEEP_NORMAL, .log_range = 16, .from_f32 = true, .round = TC_RNE,
                      .pertensor = true, .seed = 7, .keep_trace = true, .threads = 2};
    assert_non_null(p.fmt);
    return p;
}

static tc_backend *open_backend(const char *spec)
{
    char err[256];
    tc_backend *b = tc_backend_open(spec, err, sizeof err);
    if (!b)
        fail_msg("backend %s: %s", spec, err);
    return b;
}

/* The independent path: exact chain in plain MPFR, one element at a time. */
static void exact_value(mpfr_t x, const tc_format *f, uint64_t bits)
{
    mpfr_set_prec(x, 64);
    mpfr_set_d(x, tc_decode_to_f64(f, bits), MPFR_RNDN);   /* formats here have <= 53 bits */
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Recomputes median/p90/max of every step from the trace and compares. */
static void check_against_independent_path(const sweep_params *p, const sweep_result *r)
{
    const int m = r->m, k = r->k, n = p->chain;
    const size_t mk = (size_t)m * k, kk = (size_t)k * k, T = (size_t)p->trials;
    const tc_format *df = r->ins ? r->ins->d : &tc_f32;
    double *errs = malloc(n * T * mk * sizeof *errs);
    size_t *cnt = calloc((size_t)n, sizeof *cnt);
    mpfr_t *E = malloc(mk * sizeof *E), *En = malloc(mk * sizeof *En), *terms = malloc(k * sizeof *terms), b, t, d;
    mpfr_ptr *ptr = malloc(k * sizeof *ptr);
    for (size_t j = 0; j < mk; j++) {
        mpfr_init(E[j]);
        mpfr_init(En[j]);
    }
    for (int q = 0; q < k; q++) {
        mpfr_init(terms[q]);
        ptr[q] = terms[q];
    }
    mpfr_inits2(64, b, t, d, (mpfr_ptr)0);
    for (size_t tr = 0; tr < T; tr++) {
        for (size_t j = 0; j < mk; j++)
            exact_value(E[j], p->fmt, r->A0[tr * mk + j]);
        for (int i = 0; i < n; i++) {
            const uint64_t *B = r->B + (tr * n + i) * kk, *D = r->D + (tr * n + i) * mk;
            double s = r->scale_x[tr * n + i];   /* X_i = D_{i-1} * s: follow it exactly */
            for (size_t j = 0; j < mk && i > 0; j++)
                mpfr_mul_d(E[j], E[j], s, MPFR_RNDN);   /* a power of two: exact */
            for (int row = 0; row < m; row++)
                for (int col = 0; col < k; col++) {
                    for (int q = 0; q < k; q++) {
                        exact_value(b, p->fmt, B[q * k + col]);
                        mpfr_set_prec(terms[q], mpfr_get_prec(E[row * k + q]) + 64);
                        mpfr_mul(terms[q], E[row * k + q], b, MPFR_RNDN);
                    }
                    mpfr_prec_t prec = 128;
                    do
                        mpfr_set_prec(En[row * k + col], prec *= 2);
                    while (mpfr_sum(En[row * k + col], ptr, (unsigned long)k, MPFR_RNDN) != 0);
                }
            for (size_t j = 0; j < mk; j++) {
                mpfr_swap(E[j], En[j]);
                double dv = tc_decode_to_f64(df, D[j]);
                if (!isfinite(dv) || mpfr_zero_p(E[j]))
                    continue;
                /* compare D * (product of the scales)^-1 with E: E already carries them */
                mpfr_set_prec(d, 128);
                mpfr_set_d(d, dv, MPFR_RNDN);
                mpfr_sub(d, d, E[j], MPFR_RNDN);
                mpfr_div(d, d, E[j], MPFR_RNDN);
                errs[(size_t)i * T * mk + cnt[i]++] = fabs(mpfr_get_d(d, MPFR_RNDN));
            }
        }
    }
    for (int i = 0; i < n; i++) {
        double *v = errs + (size_t)i * T * mk;
        size_t c = cnt[i];
        assert_int_equal(c, r->steps[i].n);
        qsort(v, c, sizeof *v, cmp_double);
        double med = v[(c + 1) / 2 - 1], p90 = v[(size_t)ceil(0.9 * (double)c) - 1], mx = v[c - 1];
        assert_float_equal(r->steps[i].median, med, 1e-12 * med + 1e-300);
        assert_float_equal(r->steps[i].p90, p90, 1e-12 * p90 + 1e-300);
        assert_float_equal(r->steps[i].max, mx, 1e-12 * mx + 1e-300);
    }
    for (size_t j = 0; j < mk; j++) {
        mpfr_clear(E[j]);
        mpfr_clear(En[j]);
    }
    for (int q = 0; q < k; q++)
        mpfr_clear(terms[q]);
    mpfr_clears(b, t, d, (mpfr_ptr)0);
    free(E);
    free(En);
    free(terms);
    free(ptr);
    free(errs);
    free(cnt);
    mpfr_free_cache();
}

static void run_and_check(const char *backend, const char *fmt, bool pertensor)
{
    tc_backend *b = open_backend(backend);
    sweep_params p = params(fmt, 6, 5);
    p.pertensor = pertensor;
    sweep_result r;
    char err[256];
    if (sweep_run(b, &p, &r, err, sizeof err))
        fail_msg("%s: %s", fmt, err);
    assert_int_equal(r.cvt_mismatches, 0);
    check_against_independent_path(&p, &r);
    /* Errors grow after the first conversion: the sweep measures something. */
    assert_true(r.steps[p.chain - 1].median > r.steps[0].median);
    sweep_result_free(&r);
    tc_backend_close(b);
}

static void exact_backend_stats_match_independent_path(void **state)
{
    run_and_check("exact", "f16", false);
    run_and_check("exact", "bf16", false);
    run_and_check("exact", "e4m3", true);
    run_and_check("exact", "f32", false);
}

static void model_backend_stats_match_independent_path(void **state)
{
    run_and_check(SYNTH_PROFILE, "f16", false);
    run_and_check(SYNTH_PROFILE, "e5m2", true);
    run_and_check(SYNTH_PROFILE, "tf32", false);
}

static void exact_backend_steps_are_correctly_rounded(void **state)
{
    /* Each D_i of the exact backend is X_{i-1} * B_i rounded once to f32:
     * its own (local) error is at most 2^-24 and chain step 1 equals it. */
    static const char *const fmts[] = {"e4m3", "e5m2", "f16", "bf16", "tf32"};
    tc_backend *b = open_backend("exact");
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        sweep_params p = params(fmts[f], 5, 4);
        sweep_result r;
        char err[256];
        assert_int_equal(sweep_run(b, &p, &r, err, sizeof err), 0);
        for (int i = 0; i < p.chain; i++)
            assert_true(r.steps[i].local_max <= 0x1p-24);
        assert_true(r.steps[0].max == r.steps[0].local_max);
        assert_true(r.steps[0].max <= 0x1p-24);
        sweep_result_free(&r);
    }
    tc_backend_close(b);
}

static void truncating_model_is_worse_than_exact(void **state)
{
    tc_backend *ex = open_backend("exact"), *mo = open_backend(SYNTH_PROFILE);
    sweep_params p = params("f16", 4, 6);
    sweep_result a, c;
    char err[256];
    assert_int_equal(sweep_run(ex, &p, &a, err, sizeof err), 0);
    assert_int_equal(sweep_run(mo, &p, &c, err, sizeof err), 0);
    /* Same inputs (same seed); round-toward-zero accumulation loses more. */
    assert_true(c.steps[0].local_max > 0x1p-24);
    assert_true(c.steps[0].median > a.steps[0].median);
    sweep_result_free(&a);
    sweep_result_free(&c);
    tc_backend_close(ex);
    tc_backend_close(mo);
}

static void exactly_representable_f64_chain_has_zero_error(void **state)
{
    /* Integers in [-2, 2], K = 16, 8 steps: every value stays below 2^53. */
    tc_backend *b = open_backend("exact");
    sweep_params p = params("f64", 8, 4);
    p.dist = SWEEP_INTS;
    p.from_f32 = false;
    sweep_result r;
    char err[256];
    assert_int_equal(sweep_run(b, &p, &r, err, sizeof err), 0);
    for (int i = 0; i < p.chain; i++) {
        assert_true(r.steps[i].n > 0);
        assert_true(r.steps[i].max == 0);
        assert_true(r.steps[i].median == 0);
        assert_true(r.steps[i].overflow == 0 && r.steps[i].nan == 0);
    }
    sweep_result_free(&r);
    /* The same chain in f64 from normal samples is not exact: the check can fail. */
    p.dist = SWEEP_NORMAL;
    assert_int_equal(sweep_run(b, &p, &r, err, sizeof err), 0);
    assert_true(r.steps[p.chain - 1].max > 0);
    sweep_result_free(&r);
    tc_backend_close(b);
}

static void scaling_prevents_fp8_overflow(void **state)
{
    tc_backend *b = open_backend("exact");
    sweep_params p = params("e4m3", 4, 4);
    p.dist = SWEEP_LOGUNIFORM;
    p.log_range = 12;
    p.pertensor = false;
    sweep_result r;
    char err[256];
    assert_int_equal(sweep_run(b, &p, &r, err, sizeof err), 0);
    /* Independent count: D elements above E4M3's 448 saturate when converted. */
    size_t mk = (size_t)r.m * r.k, over = 0, total = (size_t)p.trials * mk;
    double frac_seen = 0;
    for (int i = 0; i < p.chain; i++) {
        over = 0;
        for (int t = 0; t < p.trials; t++)
            for (size_t j = 0; j < mk; j++)
                over += fabs(tc_decode_to_f64(&tc_f32, r.D[((size_t)t * p.chain + i) * mk + j])) > 448;
        assert_float_equal(r.steps[i].overflow, (double)over / (double)total, 0);
        frac_seen += r.steps[i].overflow;
    }
    assert_true(frac_seen > 0);
    sweep_result_free(&r);
    p.pertensor = true;
    assert_int_equal(sweep_run(b, &p, &r, err, sizeof err), 0);
    for (int i = 0; i < p.chain; i++)
        assert_true(r.steps[i].overflow == 0);
    sweep_result_free(&r);
    tc_backend_close(b);
}

static void same_seed_same_numbers_other_seed_other_numbers(void **state)
{
    tc_backend *b = open_backend("exact");
    sweep_params p = params("bf16", 3, 3);
    sweep_result a, c;
    char err[256];
    assert_int_equal(sweep_run(b, &p, &a, err, sizeof err), 0);
    assert_int_equal(sweep_run(b, &p, &c, err, sizeof err), 0);
    assert_memory_equal(a.D, c.D, (size_t)p.trials * p.chain * a.m * a.k * sizeof *a.D);
    sweep_result_free(&c);
    p.seed = 8;
    assert_int_equal(sweep_run(b, &p, &c, err, sizeof err), 0);
    assert_true(memcmp(a.A0, c.A0, (size_t)p.trials * a.m * a.k * sizeof *a.A0) != 0);
    sweep_result_free(&a);
    sweep_result_free(&c);
    tc_backend_close(b);
}

static void stepwise_tiles_equal_backend_chain(void **state)
{
    /* The stepwise path (MMA tiles, conversion by formats/) must produce the
     * very bits of the backend's own chain: same products, same conversions. */
    static const char *const backends[] = {"exact", SYNTH_PROFILE};
    static const char *const fmts[] = {"f16", "tf32", "e5m2"};
    for (size_t bi = 0; bi < 2; bi++) {
        tc_backend *b = open_backend(backends[bi]);
        for (size_t f = 0; f < 3; f++) {
            sweep_params p = params(fmts[f], 5, 3);
            p.pertensor = false;
            sweep_result a, c;
            char err[256];
            assert_int_equal(sweep_run(b, &p, &a, err, sizeof err), 0);
            p.stepwise = true;
            assert_int_equal(sweep_run(b, &p, &c, err, sizeof err), 0);
            assert_string_equal(a.chain_path, "backend chain");
            assert_non_null(strstr(c.chain_path, "stepwise"));
            size_t n = (size_t)p.trials * p.chain * a.m * a.k;
            assert_memory_equal(a.D, c.D, n * sizeof *a.D);
            assert_memory_equal(a.X, c.X, n * sizeof *a.X);
            sweep_result_free(&a);
            sweep_result_free(&c);
        }
        tc_backend_close(b);
    }
}

static void wgmma_tile_widths_give_the_same_bits_on_exact(void **state)
{
    /* On the exact backend every tile width computes the same correctly
     * rounded dot products, so N = 8 (four column blocks), N = 32 (one) and
     * N = 256 (one block padded with zero columns) must give identical bits,
     * and every step's own error stays within 2^-24. Proves the blocks land
     * where they belong. */
    static const char *const names[] = {"wgmma.m64n8k32.f32.e4m3.e4m3", "wgmma.m64n32k32.f32.e4m3.e4m3",
                                        "wgmma.m64n256k32.f32.e4m3.e4m3"};
    tc_backend *b = open_backend("exact");
    sweep_result r[3];
    sweep_params p = params("e4m3", 3, 2);
    char err[256];
    for (int i = 0; i < 3; i++) {
        p.ins = tc_instr_by_name(names[i]);
        assert_non_null(p.ins);
        if (sweep_run(b, &p, &r[i], err, sizeof err))
            fail_msg("%s: %s", names[i], err);
        for (int s = 0; s < p.chain; s++)
            assert_true(r[i].steps[s].local_max <= 0x1p-24);
    }
    size_t n = (size_t)p.trials * p.chain * r[0].m * r[0].k;
    assert_int_equal(r[0].m, 64);
    assert_memory_equal(r[0].D, r[1].D, n * sizeof *r[0].D);
    assert_memory_equal(r[0].D, r[2].D, n * sizeof *r[0].D);
    for (int i = 0; i < 3; i++)
        sweep_result_free(&r[i]);
    tc_backend_close(b);
}

static void quantiles_follow_nearest_rank(void **state)
{
    double v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assert_true(sweep_quantile_sorted(v, 10, 0.5) == 5);
    assert_true(sweep_quantile_sorted(v, 10, 0.9) == 9);
    assert_true(sweep_quantile_sorted(v, 9, 0.5) == 5);
    assert_true(sweep_quantile_sorted(v, 1, 0.9) == 1);
    assert_true(isnan(sweep_quantile_sorted(v, 0, 0.5)));
}

static void cli_json_is_a_readable_record(void **state)
{
    char path[] = "/tmp/tcs-sweepXXXXXX";
    int fd = mkstemp(path);
    tc_run_result res = tc_run_cli("sweep --backend exact --formats f16,f32 --chain 1..4 --trials 3 --json");
    assert_int_equal(res.status, 0);
    assert_true(write(fd, res.out, strlen(res.out)) == (ssize_t)strlen(res.out));
    close(fd);
    tc_record rec;
    char err[256];
    if (tc_record_load(path, &rec, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(json_array_size(rec.objects), 2);
    json_t *o = json_array_get(rec.objects, 0);
    assert_string_equal(json_string_value(json_object_get(o, "instr")), "mma.m16n8k16.f32.f16.f16.f32");
    assert_int_equal(json_array_size(json_object_get(o, "steps")), 4);
    assert_string_equal(json_string_value(json_object_get(rec.header, "backend")), "exact");
    tc_record_free(&rec);
    tc_run_result_free(&res);
    unlink(path);
}

static void cli_bad_input_exits_two(void **state)
{
    static const char *const bad[][2] = {
        {"sweep --backend exact --formats e9m9x", "unknown format 'e9m9x'"},
        {"sweep --backend exact --chain 0", "bad chain length '0'"},
        {"sweep --backend exact --chain 1..x", "bad chain length"},
        {"sweep --backend exact --dist cauchy", "bad --dist 'cauchy'"},
        {"sweep --backend exact --trials -3", "bad --trials '-3' (a whole number in 1..1000000"},
        {"sweep --backend exact --round sideways", "bad rounding mode 'sideways'"},
        {"sweep --backend exact --from f16", "bad --from 'f16'"},
        {"sweep --backend exact --scaling perblock", "bad --scaling 'perblock'"},
        {"sweep --backend nosuch", "backend nosuch"},
        {"sweep --backend exact --formats s8", "no tensor-core instruction takes s8"},
        {"sweep --backend exact --bench /nonexistent.json", "/nonexistent.json"},
        {"sweep --backend exact --frobnicate", "unknown option '--frobnicate'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_run_result r = tc_run_cli(bad[i][0]);
        if (r.status != 2 || !strstr(r.err, bad[i][1]))
            fail_msg("'%s': status %d, stderr '%s'", bad[i][0], r.status, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quantiles_follow_nearest_rank),
        cmocka_unit_test(stepwise_tiles_equal_backend_chain),
        cmocka_unit_test(wgmma_tile_widths_give_the_same_bits_on_exact),
        cmocka_unit_test(exact_backend_stats_match_independent_path),
        cmocka_unit_test(model_backend_stats_match_independent_path),
        cmocka_unit_test(exact_backend_steps_are_correctly_rounded),
        cmocka_unit_test(truncating_model_is_worse_than_exact),
        cmocka_unit_test(exactly_representable_f64_chain_has_zero_error),
        cmocka_unit_test(scaling_prevents_fp8_overflow),
        cmocka_unit_test(same_seed_same_numbers_other_seed_other_numbers),
        cmocka_unit_test(cli_json_is_a_readable_record),
        cmocka_unit_test(cli_bad_input_exits_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
