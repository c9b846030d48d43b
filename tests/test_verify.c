/* tcscope verify, end to end: the model in its exact setting against the
 * MPFR oracle (two implementations) is verified (exit 0), a different
 * profile is not (exit 1, with the failing inputs), sparse instructions on
 * their kept terms, one flipped output bit is caught, and bad input exits 2
 * with a one-line message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cases/infer_internal.h"
#include "cases/verify.h"
#include "oracle/oracle.h"
#include "probes/probes.h"
#include "tests/record_out.h"
#include "tests/testutil.h"
#include "tests/hunt_hash.h"

#define INSTR "--instr mma.m16n8k16.f32.f16.f16.f32"
#define SYNTH "tests/profiles/synthetic.profile"

/* The exact setting of oracle/model.h (tests/profiles/exact.profile) against
 * the exact backend (the MPFR oracle of oracle/exact.c): not one code path
 * checked against itself. */
static void test_exact_model_against_the_oracle_is_verified(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend exact --profile tests/profiles/exact.profile " INSTR " --count 20000");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 mismatches: VERIFIED"));
    tc_run_result_free(&r);
}

/* A target: the exact oracle, with one bit of one output flipped on its
 * first call when flip is set (a deliberately broken tensor core). */
typedef struct {
    oracle_formats f;
    int m, n, k;
    bool flip;
    int calls;
} flip_target;

static int flip_run(void *ctx, size_t ntiles, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D,
                    char *err, size_t errlen)
{
    flip_target *t = ctx;
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    oracle_mma_exact(t->f, t->m, t->n, t->k, ntiles, A, B, C, D, rne);
    if (t->flip && t->calls == 0)
        D[37] ^= 1; /* the last bit of one element: one ulp */
    t->calls++;
    return 0;
}

/* verify's claim is bit-exactness: on the flipped target it finds exactly
 * the one element that differs; on the same target unflipped, none. */
static void test_one_flipped_output_bit_is_caught(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    flip_target ft = {{ins->a, ins->b, ins->c, ins->d}, ins->m, ins->n, ins->k, false, 0};
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = ft.f, .run = flip_run, .ctx = &ft};
    model_params p = model_params_exact(ft.f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    verify_result v;
    char err[256];
    for (int flip = 0; flip < 2; flip++) {
        ft.flip = flip;
        ft.calls = 0;
        if (verify_run(&t, &p, 5000, 512, 7, &v, err, sizeof err))
            fail_msg("verify: %s", err);
        assert_true(v.n >= 5000);
        assert_int_equal(v.mismatches, (size_t)flip);
        assert_int_equal(v.nfails, (size_t)flip);
        if (flip)
            assert_int_equal(v.fails[0].model_d ^ v.fails[0].c.d, 1);
        verify_result_free(&v);
    }
}

/* The stage times (verify_result.stage_s) cover the whole-tile checks:
 * each stage took time, and together no more than the run's wall time. */
static void test_stages_add_up_to_at_most_the_wall_time(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    flip_target ft = {{ins->a, ins->b, ins->c, ins->d}, ins->m, ins->n, ins->k, false, 0};
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = ft.f, .run = flip_run, .ctx = &ft};
    model_params p = model_params_exact(ft.f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    verify_result v;
    char err[256];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (verify_run(&t, &p, 2000, 512, 7, &v, err, sizeof err))
        fail_msg("verify: %s", err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec), sum = 0;
    for (int i = 0; i < VERIFY_NSTAGES; i++) {
        if (!(v.stage_s[i] > 0))
            fail_msg("stage %s: %g s", verify_stage_name(i), v.stage_s[i]);
        sum += v.stage_s[i];
    }
    assert_true(sum <= wall);
    assert_string_equal(verify_stage_name(VERIFY_STAGE_COMPARE), "compare");
    verify_result_free(&v);
}

/* A path in place of the host's for the hunt families (infer_target.hunt_run)
 * or the random tiles (random_run), the GPU's in cli/hunt_on.h: `answer` 1
 * hands them back, 0 takes them (adding `per` elements to each of its
 * distributions, dist0..dist0+ndist), -1 fails with `failure`. */
typedef struct {
    int answer, calls;
    size_t per, asked;
    int dist0, ndist;
    const char *failure;
} fake_path;

static int fake_path_run(void *ctx, const infer_target *t, const model *m, size_t n, uint64_t seed,
                         verify_result *r, char *err, size_t errlen)
{
    fake_path *h = ctx;
    h->calls++;
    h->asked = n;
    if (h->answer < 0)
        snprintf(err, errlen, "%s", h->failure);
    for (int d = 0; h->answer == 0 && d < h->ndist; d++) {
        r->n += h->per;
        r->dist_n[h->dist0 + d] += h->per;
    }
    return h->answer;
}

/* verify_run's hunt: the host's verify_hunt unless the target's hunt path
 * takes the families (then verify_result.hunt_gpu, and only its elements);
 * a path that hands them back leaves the result as without one; its error
 * is verify_run's. The wall seconds of the three parts are kept. */
static void test_hunt_path_takes_the_families_or_hands_them_back(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    flip_target ft = {{ins->a, ins->b, ins->c, ins->d}, ins->m, ins->n, ins->k, false, 0};
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = ft.f, .run = flip_run, .ctx = &ft};
    model_params p = model_params_exact(ft.f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    verify_result host, v;
    char err[256];
    if (verify_run(&t, &p, 2000, 512, 7, &host, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_false(host.hunt_gpu);
    assert_true(host.random_s > 0 && host.hunt_s > 0 && host.crafted_s > 0);
    assert_true(host.dist_n[VERIFY_DIST_HUNT] >= 512);
    fake_path fh = {.answer = 1, .per = 1000, .dist0 = VERIFY_DIST_HUNT, .ndist = HUNT_NFAMILIES,
                    .failure = "the fake hunt failed"};
    t.hunt_run = fake_path_run, t.hunt_ctx = &fh;
    if (verify_run(&t, &p, 2000, 512, 7, &v, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_int_equal(fh.calls, 1);
    assert_int_equal(fh.asked, 512);
    assert_false(v.hunt_gpu);
    assert_int_equal(v.n, host.n);
    assert_memory_equal(v.dist_n, host.dist_n, sizeof v.dist_n);
    verify_result_free(&v);
    fh.answer = 0;
    if (verify_run(&t, &p, 2000, 512, 7, &v, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_true(v.hunt_gpu);
    for (int d = 0; d < VERIFY_NDIST; d++)
        assert_int_equal(v.dist_n[d], d >= VERIFY_DIST_HUNT ? fh.per : host.dist_n[d]);
    verify_result_free(&v);
    fh.answer = -1;
    assert_int_equal(verify_run(&t, &p, 2000, 512, 7, &v, err, sizeof err), -1);
    assert_string_equal(err, "the fake hunt failed");
    fh.calls = 0;   /* no hunt asked: the path is not called */
    if (verify_run(&t, &p, 2000, 0, 7, &v, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_int_equal(fh.calls, 0);
    assert_false(v.hunt_gpu);
    verify_result_free(&v);
    verify_result_free(&host);
}


/* The hunt draws the next round while it checks one: over many rounds
 * every family's tiles are still its one stream in order (what
 * hunt_fill_tile draws tile after tile), none lost, repeated or mixed. */
static void test_hunt_rounds_are_each_familys_stream_in_order(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    hash_target ht = {ins->m, ins->n, ins->k, 0, {0}};
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = {ins->a, ins->b, ins->c, ins->d},
                      .run = hash_run, .ctx = &ht, .model_run = zero_model};
    model_params p = model_params_exact(t.f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    char err[256];
    model *m = model_new(&p, t.f, err, sizeof err);
    assert_non_null(m);
    size_t mn = (size_t)t.m * t.n, ntiles = 2000;   /* three rounds or more: 2^21 / 128 / 22 = 744 tiles each */
    verify_result v;
    memset(&v, 0, sizeof v);
    if (verify_hunt(&t, m, ntiles * mn, 11, &v, err, sizeof err))
        fail_msg("hunt: %s", err);
    assert_int_equal(v.n, HUNT_NFAMILIES * ntiles * mn);
    assert_true(ht.calls >= 3);
    uint64_t *A = malloc((size_t)t.m * t.k * 8), *B = malloc((size_t)t.k * t.n * 8), *C = malloc(mn * 8);
    assert_true(A && B && C);
    for (int f = 0; f < HUNT_NFAMILIES; f++) {
        uint64_t st = hunt_family_seed(11, f), h = 0;
        for (size_t q = 0; q < ntiles; q++) {
            hunt_fill_tile(&t, f, &st, A, B, C);
            h = fold(h, A, (size_t)t.m * t.k);
            h = fold(h, B, (size_t)t.k * t.n);
            h = fold(h, C, mn);
        }
        assert_true(h == ht.hash[f]);
    }
    free(A), free(B), free(C);
    verify_result_free(&v);
    model_free(m);
}

/* The proof's random tiles are drawn on every core, each from a state a
 * cheap pass finds (rd_case_skip), their C without a and b (rd_case_c):
 * both must move the stream exactly as drawing does, for every instruction's formats and K, every
 * distribution, from many states (a C of +-0 or not is the data-dependent
 * count). */
static void test_random_skip_moves_the_stream_as_drawing_does(void **state)
{
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    uint64_t a[INFER_KMAX], b[INFER_KMAX], c, seed = 0x5EEDull;
    for (size_t i = 0; i < count; i++) {
        infer_target t = {.m = cat[i].m, .n = cat[i].n, .k = cat[i].k,
                          .f = {cat[i].a, cat[i].b, cat[i].c, cat[i].d}};
        assert_true(t.k <= INFER_KMAX);
        rd_shape rs = verify_random_shape(&t);
        for (int d = 0; d < 4; d++)
            for (int r = 0; r < 16; r++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                uint64_t drawn = seed, skipped = seed;
                uint64_t c_only = seed;
                rd_case(&rs, &drawn, d, a, 1, b, 1, &c);
                rd_case_skip(&rs, &skipped, d);
                uint64_t c2 = rd_case_c(&rs, &c_only, d);
                if (drawn != skipped)
                    fail_msg("%s dist %d from %llx: skip %llx, draw %llx", cat[i].name, d,
                             (unsigned long long)seed, (unsigned long long)skipped, (unsigned long long)drawn);
                if (drawn != c_only || c != c2)   /* a tile's C: the same value, the stream moved alike */
                    fail_msg("%s dist %d from %llx: c alone %llx (state %llx), drawn %llx (state %llx)", cat[i].name,
                             d, (unsigned long long)seed, (unsigned long long)c2, (unsigned long long)c_only,
                             (unsigned long long)c, (unsigned long long)drawn);
            }
    }
}

/* Records key a proof's distributions by name (reports/SCHEMA.md,
 * verification.distributions): every name is its own. */
static void test_distribution_names_are_distinct(void **state)
{
    for (int i = 0; i < VERIFY_NDIST; i++)
        for (int j = i + 1; j < VERIFY_NDIST; j++)
            if (!strcmp(verify_dist_name(i), verify_dist_name(j)))
                fail_msg("distributions %d and %d are both \"%s\"", i, j, verify_dist_name(i));
}

/* verify_run's random tiles: the host's unless the target's random path
 * takes them (then verify_result.random_gpu, records' random_path "gpu",
 * and only its elements); a path that hands them back leaves the result as
 * without one; its error is verify_run's; no random elements, no call. */
static void test_random_path_takes_the_tiles_or_hands_them_back(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    flip_target ft = {{ins->a, ins->b, ins->c, ins->d}, ins->m, ins->n, ins->k, false, 0};
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = ft.f, .run = flip_run, .ctx = &ft};
    model_params p = model_params_exact(ft.f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    verify_result host, v;
    char err[256];
    if (verify_run(&t, &p, 2000, 0, 7, &host, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_false(host.random_gpu);
    assert_null(verify_random_path(&host));
    fake_path fr = {.answer = 1, .per = 1000, .dist0 = 0, .ndist = VERIFY_NDIST_RANDOM,
                    .failure = "the fake random path failed"};
    t.random_run = fake_path_run, t.random_ctx = &fr;
    if (verify_run(&t, &p, 2000, 0, 7, &v, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_int_equal(fr.calls, 1);
    assert_int_equal(fr.asked, 2000);
    assert_false(v.random_gpu);
    assert_int_equal(v.n, host.n);
    assert_memory_equal(v.dist_n, host.dist_n, sizeof v.dist_n);
    verify_result_free(&v);
    fr.answer = 0;
    if (verify_run(&t, &p, 2000, 0, 7, &v, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_true(v.random_gpu);
    assert_string_equal(verify_random_path(&v), "gpu");
    for (int d = 0; d < VERIFY_NDIST; d++)
        assert_int_equal(v.dist_n[d], d < VERIFY_NDIST_RANDOM ? fr.per : host.dist_n[d]);
    verify_result_free(&v);
    fr.answer = -1;
    assert_int_equal(verify_run(&t, &p, 2000, 0, 7, &v, err, sizeof err), -1);
    assert_string_equal(err, "the fake random path failed");
    fr.calls = 0;
    if (verify_run(&t, &p, 0, 0, 7, &v, err, sizeof err))
        fail_msg("verify: %s", err);
    assert_int_equal(fr.calls, 0);
    assert_false(v.random_gpu);
    verify_result_free(&v);
    verify_result_free(&host);
}

/* A tile's start is found by rd_skip_tile, a case at a time for the two
 * distributions whose cases' calls depend on the data and all at once for
 * the other two: from many states, for every instruction's shape and
 * formats, the state rd_fill_tile leaves, and the per-case pass's. */
static void test_tile_skip_moves_the_stream_as_drawing_does(void **state)
{
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    uint64_t seed = 0x71E5ull;
    for (size_t i = 0; i < count; i++) {
        infer_target t = {.m = cat[i].m, .n = cat[i].n, .k = cat[i].k,
                          .f = {cat[i].a, cat[i].b, cat[i].c, cat[i].d}};
        rd_shape s = verify_random_shape(&t);
        size_t ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n, tc = (size_t)t.m * t.n;
        uint64_t *A = malloc(ta * 8), *B = malloc(tb * 8), *C = malloc(tc * 8);
        assert_true(A && B && C);
        uint64_t cases = (uint64_t)t.m * (uint64_t)(t.n + 1) + (uint64_t)(t.n > t.m ? t.n - t.m : 0);
        for (uint64_t q = 0; q < 8; q++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t drawn = seed, skipped = seed, each = seed;
            assert_int_equal(rd_fill_tile(&s, q, &drawn, A, B, C), (int)(q % 4));
            rd_skip_tile(&s, q, &skipped);
            for (uint64_t c = 0; c < cases; c++)
                rd_case_skip(&s, &each, (int)(q % 4));
            if (drawn != skipped || drawn != each)
                fail_msg("%s tile %llu from %llx: drawn %llx, skipped %llx, case by case %llx", cat[i].name,
                         (unsigned long long)q, (unsigned long long)seed, (unsigned long long)drawn,
                         (unsigned long long)skipped, (unsigned long long)each);
        }
        free(A), free(B), free(C);
    }
}

static void test_other_profile_is_not_verified_and_shows_inputs(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:" SYNTH " --profile tests/profiles/exact.profile " INSTR
                                 " --count 5000 --json");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\"verified\":false"));
    assert_non_null(strstr(r.out, "\"failure\":1"));
    assert_non_null(strstr(r.out, "\"d_model\":\"0x"));
    tc_record rec = tc_out_record(r.out, "verify --json"); /* one verify object, then one per failure */
    json_t *v = tc_record_objects_of(&rec, "verify"), *f = tc_record_objects_of(&rec, "verify_failure");
    assert_int_equal(json_array_size(v), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rec.objects, 0), "kind")), "verify");
    assert_true(json_array_size(f) >= 1);
    assert_true(json_integer_value(json_object_get(json_array_get(v, 0), "mismatches")) >= (json_int_t)json_array_size(f));
    json_decref(v), json_decref(f);
    tc_record_free(&rec);
    tc_run_result_free(&r);
}

/* A sparse instruction is verified on the K/2 terms it sums: the recorded
 * H100 fingerprint against the H100 model holds, against the exact backend
 * it fails with K/2-term inputs shown. */
static void test_sparse_instruction_is_verified_on_its_kept_terms(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:h100 --profile h100 --instr wgmma.sp.m64n8k32.f32.f16.f16 "
                                 "--count 5000");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "0 mismatches: the model checked against itself"));
    tc_run_result_free(&r);
    r = tc_run_cli("verify --backend exact --profile h100 --instr mma.sp.m16n8k32.f32.f16.f16.f32 --count 5000 --json");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "\"failure\":1"));
    assert_non_null(strstr(r.out, "\"k\":16"));
    tc_run_result_free(&r);
}

static void test_bad_input_exits_2_with_a_message(void **state)
{
    static const char *const args[] = {
        "verify --backend model:" SYNTH " --profile " SYNTH " --instr mma.nope",
        "verify --backend model:" SYNTH " --profile no-such-profile " INSTR,
        "verify --backend model:" SYNTH " --profile " SYNTH " " INSTR " --count 0",
        "verify --backend model:" SYNTH " --profile " SYNTH,
        "verify --backend model:" SYNTH " --profile " SYNTH " --instr mma.m16n8k4.f64.f64.f64.f64",
        "verify --backend model:" SYNTH " --profile tests/profiles/synthetic.profile " INSTR " --bogus",
    };
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        tc_run_result r = tc_run_cli(args[i]);
        if (r.status != 2 || strncmp(r.err, "tcscope", 7) != 0)
            fail_msg("'%s': status %d, stderr '%s'", args[i], r.status, r.err);
        tc_run_result_free(&r);
    }
}

/* The model with a profile against model:the same profile checks nothing
 * about hardware: said so, never VERIFIED (issue 31); the record marks it. A
 * model against another arithmetic is a real check and is not marked. */
static void test_model_against_itself_says_so(void **state)
{
    tc_run_result r = tc_run_cli("verify --backend model:h100 --profile h100 " INSTR " --count 2000");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "VERIFIED"));
    assert_non_null(strstr(r.out, "the model checked against itself"));
    assert_non_null(strstr(r.out, "proves nothing about any GPU"));
    tc_run_result_free(&r);
    r = tc_run_cli("verify --backend model:h100 --profile oracle/profiles/h100.profile " INSTR " --count 2000 --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"self_check\":true"));
    tc_run_result_free(&r);
    r = tc_run_cli("verify --backend exact --profile tests/profiles/exact.profile " INSTR " --count 2000 --json");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "self_check"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_model_against_the_oracle_is_verified),
        cmocka_unit_test(test_one_flipped_output_bit_is_caught),
        cmocka_unit_test(test_stages_add_up_to_at_most_the_wall_time),
        cmocka_unit_test(test_hunt_path_takes_the_families_or_hands_them_back),
        cmocka_unit_test(test_hunt_rounds_are_each_familys_stream_in_order),
        cmocka_unit_test(test_random_skip_moves_the_stream_as_drawing_does),
        cmocka_unit_test(test_tile_skip_moves_the_stream_as_drawing_does),
        cmocka_unit_test(test_distribution_names_are_distinct),
        cmocka_unit_test(test_random_path_takes_the_tiles_or_hands_them_back),
        cmocka_unit_test(test_other_profile_is_not_verified_and_shows_inputs),
        cmocka_unit_test(test_sparse_instruction_is_verified_on_its_kept_terms),
        cmocka_unit_test(test_bad_input_exits_2_with_a_message),
        cmocka_unit_test(test_model_against_itself_says_so),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
