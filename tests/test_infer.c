/* The inference self-test: for synthetic profiles that vary every field,
 * inferring the fingerprint of the model itself (as the target) must give
 * back the profile, or parameters proven equivalent: 0 mismatches on the
 * crafted cases and on a large random + adversarial verify batch. Fields
 * that differ are then listed as not identifiable, and must be ones the
 * inference itself marked so. Also: verify finds a planted difference and
 * shrinks the witness; a fit counted elsewhere (infer_target.fit, the GPU's
 * way in) decides as the cores' does, falls back to the cores when its ops
 * decline, and stops with their message when they fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cases/infer.h"
#include "cases/verify.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"

#if defined(__SANITIZE_ADDRESS__)
#define VERIFY_N 4000
#define NPROFILES 1
#else
#define VERIFY_N 200000
#define NPROFILES 12
#endif


typedef struct {
    const model *m;
    int mr, nc, k;
} target_ctx;

static int run_target(void *ctx, size_t ntiles, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                      uint64_t *D, char *err, size_t errlen)
{
    const target_ctx *t = ctx;
    (void)err;
    (void)errlen;
    model_mma(t->m, t->mr, t->nc, t->k, ntiles, A, B, C, D);
    return 0;
}

static uint64_t rng_state = 2024;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static unsigned rndn(unsigned n)
{
    return (unsigned)(rnd64() % n);
}

typedef struct {
    const char *instr;
    int m, n, k;
    const tc_format *a, *b, *c, *d;
} shape;

static const shape shapes[] = {
    {"mma.m16n8k16.f32.f16.f16.f32", 16, 8, 16, &tc_f16, &tc_f16, &tc_f32, &tc_f32},
    {"mma.m16n8k16.f32.bf16.bf16.f32", 16, 8, 16, &tc_bf16, &tc_bf16, &tc_f32, &tc_f32},
    {"mma.m16n8k8.f32.tf32.tf32.f32", 16, 8, 8, &tc_tf32, &tc_tf32, &tc_f32, &tc_f32},
    {"mma.m16n8k32.f32.e4m3.e4m3.f32", 16, 8, 32, &tc_e4m3, &tc_e4m3, &tc_f32, &tc_f32},
    {"mma.m16n8k32.f32.e5m2.e4m3.f32", 16, 8, 32, &tc_e5m2, &tc_e4m3, &tc_f32, &tc_f32},
    {"mma.m16n8k16.f16.f16.f16.f16", 16, 8, 16, &tc_f16, &tc_f16, &tc_f16, &tc_f16},
    {"mma.m16n8k32.f16.e4m3.e4m3.f16", 16, 8, 32, &tc_e4m3, &tc_e4m3, &tc_f16, &tc_f16},
};

static const tc_round dirs[] = {TC_RNE, TC_RZ, TC_RD, TC_RU};

/* A synthetic profile: tensor-core-like values with each field varied. */
static model_params synth(const shape *s, int variant)
{
    oracle_formats f = {s->a, s->b, s->c, s->d};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    int blocks[] = {1, 2, 4, 8, 16, 32};
    int nb = 0;
    while (nb < 6 && blocks[nb] <= s->k)
        nb++;
    p.block = blocks[rndn((unsigned)nb)];
    p.align_bits = s->d->mbits + 1 + (int)rndn(6) - 1;
    p.align_round = (model_align_round)rndn(3);
    p.acc_exact = false;
    p.acc_fmt = *s->d;
    p.acc_round = rndn(2) ? TC_RZ : TC_RNE;
    p.c_round = dirs[rndn(2)];
    if (variant % 3 == 1)
        p.c_mode = MODEL_C_LAST;
    p.align_with_acc = variant % 4 != 2;
    p.exp_ref = rndn(2) ? MODEL_EXP_NOMINAL : MODEL_EXP_NORMALIZED;
    p.ftz_a = rndn(4) == 0;
    p.ftz_b = rndn(4) == 0;
    p.ftz_c = rndn(4) == 0;
    p.ftz_out = rndn(4) == 0;
    if (s->a->shift > 0) {
        p.cvt_a.round = rndn(2) ? TC_RZ : TC_RNE;
        p.cvt_b.round = p.cvt_a.round;
    }
    if (s->a->mbits <= 3 && rndn(2)) {
        p.cvt_a.convert = p.cvt_b.convert = true;
        p.cvt_a.fmt = p.cvt_b.fmt = tc_f16;
        p.cvt_a.round = p.cvt_b.round = TC_RNE;
    }
    if (s->d->mbits < 23 && rndn(2)) {   /* f16 out: accumulate in f32, round at the end */
        p.acc_fmt = tc_f32;
        p.align_bits = 24 + (int)rndn(3);
        p.out_round = dirs[rndn(2)];
    }
    if (rndn(5) == 0)
        p.prod_flush_exp = tc_format_emin(s->d);
    if (rndn(4) == 0)
        p.nan_bits = s->d->nan_bits ^ 1;
    if (rndn(4) == 0)
        p.out_ovf = TC_OVF_SAT;
    /* Runs dealt over the steps, drawn from the variant so that the other
     * fields' draws stay as they were. */
    if (s->k / p.block >= 2 && p.block >= 2 && variant % 5 == 2)
        p.split_runs = p.block >= 4 ? 2 : 1;
    return p;
}

static void self_test_one(const shape *s, const model_params *truth, int idx)
{
    oracle_formats f = {s->a, s->b, s->c, s->d};
    char err[256];
    model *m = model_new(truth, f, err, sizeof err);
    if (!m)
        fail_msg("profile %d: %s", idx, err);
    target_ctx ctx = {m, s->m, s->n, s->k};
    infer_target t = {.m = s->m, .n = s->n, .k = s->k, .f = f, .run = run_target, .ctx = &ctx, .random_cases = 2048};
    infer_result r;
    if (infer_fingerprint(&t, &r, err, sizeof err))
        fail_msg("profile %d: %s", idx, err);
    assert_true(r.deterministic);
    const char *first = NULL;
    int nd = model_params_diff(truth, &r.params, &first);
    if (r.mismatches != 0 || nd != 0) {
        verify_result v;
        if (verify_run(&t, &r.params, VERIFY_N, 0, 99, &v, err, sizeof err))
            fail_msg("verify: %s", err);
        if (r.mismatches != 0 || v.mismatches != 0) {
            fprintf(stderr, "profile %d (%s): %zu crafted mismatches, %zu verify mismatches; first differing field %s\n",
                    idx, s->instr, r.mismatches, v.mismatches, first ? first : "-");
            fprintf(stderr, "truth:\n");
            profile_write_params(stderr, truth);
            fprintf(stderr, "inferred:\n");
            profile_write_params(stderr, &r.params);
            fail_msg("profile %d not recovered", idx);
        }
        verify_result_free(&v);
        /* Every differing field is either one the inference marked undecided
         * (the true value among its equivalents), or part of a trade between
         * fields (e.g. flushing A's subnormals vs C's): then the combination
         * verified above (0 mismatches), and the inference holds evidence
         * against the true value alone, a case it contradicts with the other
         * fields as inferred; without that evidence "identifiable" is false. */
        for (int fi = 0; fi < model_field_count(); fi++) {
            char tv[64], iv[64];
            model_field_text(truth, fi, tv, sizeof tv);
            model_field_text(&r.params, fi, iv, sizeof iv);
            if (strcmp(tv, iv) == 0 || !r.ev[fi].identifiable || strstr(r.ev[fi].equivalent, tv))
                continue;
            bool rejected = false;
            for (int q = 0; q < r.ev[fi].nrejected && !rejected; q++)
                rejected = !strcmp(r.ev[fi].rejected[q].value, tv) && r.ev[fi].rejected[q].nrefs >= 1;
            if (!rejected)
                fail_msg("profile %d: %s = %s inferred as %s, marked identifiable with no case against %s", idx,
                         model_fields[fi].key, tv, iv, tv);
        }
    }
    /* evidence: every identifiable field rejects its alternatives with cases */
    for (size_t fi = 0; fi < r.nev; fi++)
        for (int q = 0; q < r.ev[fi].nrejected; q++) {
            const infer_rejected *rj = &r.ev[fi].rejected[q];
            assert_true(rj->nrefs >= 1);
            assert_true(rj->ref_case[0] < r.ncases);
            assert_true(rj->ref_pred[0] != r.cases[rj->ref_case[0]].d);
        }
    infer_result_free(&r);
    model_free(m);
}

static void test_inference_recovers_synthetic_profiles(void **state)
{
    for (int i = 0; i < NPROFILES; i++) {
        const shape *s = &shapes[i % 6];   /* the first six: the draws stay as they were */
        model_params p = synth(s, i);
        self_test_one(s, &p, i);
    }
}

static void test_inference_recovers_the_exact_setting(void **state)
{
    const shape *s = &shapes[0];
    oracle_formats f = {s->a, s->b, s->c, s->d};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    p.block = s->k;
    self_test_one(s, &p, -1);
}

/* An instruction emulated by two narrower MMAs, each fed every other pair
 * of K positions, C added last: the structure must be discovered, not
 * assumed (the block alone, contiguous, cannot express it). */
static void test_inference_recovers_an_interleaved_split(void **state)
{
    for (int v = 0; v < 3; v++) {
        const shape *s = &shapes[v == 2 ? 6 : 3 + v];
        oracle_formats f = {s->a, s->b, s->c, s->d};
        tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
        model_params p = model_params_exact(f, r);
        p.cvt_a = p.cvt_b = (model_cvt){true, tc_f16, TC_RNE};
        p.block = v == 1 ? 8 : 16;
        p.split_runs = v == 1 ? 4 : 2;
        p.c_mode = MODEL_C_LAST;
        p.c_round = TC_RNE;
        p.align_bits = 25;
        p.acc_exact = false;
        p.acc_fmt = v == 2 ? tc_f16 : tc_f32;
        p.acc_round = v == 2 ? TC_RNE : TC_RZ;
        self_test_one(s, &p, 100 + v);
    }
}

/* f64 operands: a chain of fused multiply-adds in K order from C that
 * passes NaN payloads through, and steps of 4 rounded toward zero with C
 * added last; both must come back. */
static void test_inference_recovers_wide_operand_chains(void **state)
{
    static const shape s = {"mma.m16n8k16.f64.f64.f64.f64", 16, 8, 16, &tc_f64, &tc_f64, &tc_f64, &tc_f64};
    oracle_formats f = {s.a, s.b, s.c, s.d};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    for (int v = 0; v < 2; v++) {
        model_params p = model_params_exact(f, r);
        p.block = v ? 4 : 1;
        p.acc_exact = false;
        p.acc_fmt = tc_f64;
        p.acc_round = v ? TC_RZ : TC_RNE;
        if (v) {
            p.c_mode = MODEL_C_LAST;
            p.c_round = TC_RNE;
        } else {
            p.nan_prop = MODEL_NAN_B_A_ACC;   /* payloads pass through, B's first */
            p.nan_bits = 0xFFF8000000000000ull;
        }
        self_test_one(&s, &p, 200 + v);
    }
}

static void test_verify_finds_and_shrinks_a_planted_difference(void **state)
{
    const shape *s = &shapes[0];
    oracle_formats f = {s->a, s->b, s->c, s->d};
    model_params truth = synth(s, 0), wrong = truth;
    truth.align_bits = 24;
    wrong.align_bits = 23;
    char err[256];
    model *m = model_new(&truth, f, err, sizeof err);
    assert_non_null(m);
    target_ctx ctx = {m, s->m, s->n, s->k};
    infer_target t = {.m = s->m, .n = s->n, .k = s->k, .f = f, .run = run_target, .ctx = &ctx};
    verify_result v;
    assert_int_equal(verify_run(&t, &wrong, VERIFY_N / 10, 0, 5, &v, err, sizeof err), 0);
    assert_true(v.mismatches > 0);
    assert_true(v.nfails > 0);
    /* the shrunk witness still tells the two apart, with few terms */
    model *mw = model_new(&wrong, f, err, sizeof err);
    const infer_case *c = &v.fails[0].c;
    assert_int_equal(model_dot(m, c->k, c->a, c->b, c->c), c->d);
    assert_int_not_equal(model_dot(mw, c->k, c->a, c->b, c->c), c->d);
    assert_true(v.fails[0].nonzero_terms <= 4);
    verify_result_free(&v);
    assert_int_equal(verify_run(&t, &truth, VERIFY_N / 10, 0, 5, &v, err, sizeof err), 0);
    assert_int_equal(v.mismatches, 0);
    assert_true(v.n >= (size_t)VERIFY_N / 10);
    verify_result_free(&v);
    model_free(mw);
    model_free(m);
}

/* ---- fit ops (infer_target.fit): here exact counts on the CPU, as the
 * GPU's are; mode 0 counts, 1 declines the cases, 2 fails the third count */
typedef struct {
    int mode, opened, calls;
} fake_ctx;
typedef struct {
    fake_ctx *x;
    const infer_case *cs;
    size_t n;
} fake_set;

static int fake_open(void *ctx, const infer_case *cs, size_t n, int k, void **set, char *err, size_t errlen)
{
    fake_ctx *x = ctx;
    if (x->mode == 1)
        return 1;
    fake_set *f = malloc(sizeof *f);
    assert_non_null(f);
    *f = (fake_set){x, cs, n};
    for (size_t i = 0; i < n; i++)
        assert_int_equal(cs[i].k, k);
    x->opened++;
    *set = f;
    return 0;
}

static int fake_count(void *set, const model *const *ms, size_t nv, size_t *bad, size_t *host, char *err,
                      size_t errlen)
{
    fake_set *f = set;
    if (f->x->mode == 2 && ++f->x->calls == 3) {
        snprintf(err, errlen, "planted count failure");
        return -1;
    }
    f->x->calls += f->x->mode != 2;
    for (size_t v = 0; v < nv; v++) {
        bad[v] = 0;
        for (size_t i = 0; i < f->n; i++)
            bad[v] += model_dot(ms[v], f->cs[i].k, f->cs[i].a, f->cs[i].b, f->cs[i].c) != f->cs[i].d;
    }
    *host = 0;
    return 0;
}

static void fake_close(void *set)
{
    free(set);
}

static const infer_fit_ops fake_ops = {fake_open, fake_count, fake_close};

/* The same fit, evidence and behaviours, whoever counts. */
static void assert_same_fit(const infer_result *x, const infer_result *y)
{
    assert_int_equal(model_params_diff(&x->params, &y->params, NULL), 0);
    assert_int_equal(x->mismatches, y->mismatches);
    assert_int_equal(x->ncases, y->ncases);
    assert_int_equal(x->nev, y->nev);
    for (size_t fi = 0; fi < x->nev; fi++) {
        assert_string_equal(x->ev[fi].value, y->ev[fi].value);
        assert_int_equal(x->ev[fi].identifiable, y->ev[fi].identifiable);
        assert_int_equal(x->ev[fi].nrejected, y->ev[fi].nrejected);
        for (int q = 0; q < x->ev[fi].nrejected; q++)
            assert_int_equal(x->ev[fi].rejected[q].ncontradicted, y->ev[fi].rejected[q].ncontradicted);
    }
}

static void test_a_fit_counted_elsewhere_decides_as_the_cores(void **state)
{
    for (int i = 0; i < (NPROFILES < 4 ? NPROFILES : 4); i++) {
        const shape *s = &shapes[i % 6];
        model_params truth = synth(s, 100 + i);
        oracle_formats f = {s->a, s->b, s->c, s->d};
        char err[256];
        model *m = model_new(&truth, f, err, sizeof err);
        if (!m)
            fail_msg("%s", err);
        target_ctx ctx = {m, s->m, s->n, s->k};
        infer_target t = {.m = s->m, .n = s->n, .k = s->k, .f = f, .run = run_target, .ctx = &ctx, .random_cases = 1024};
        infer_result cores, there, declined;
        assert_int_equal(infer_fingerprint(&t, &cores, err, sizeof err), 0);
        assert_int_equal(cores.evals_gpu, 0);
        assert_true(cores.evals_cpu > 0);
        fake_ctx x = {0};
        t.fit = &fake_ops;
        t.fit_ctx = &x;
        assert_int_equal(infer_fingerprint(&t, &there, err, sizeof err), 0);
        assert_true(x.opened >= 1 && x.calls > 10);
        assert_true(there.evals_gpu > 0);
        assert_int_equal(there.evals_cpu, 0);
        assert_same_fit(&cores, &there);
        fake_ctx no = {.mode = 1};
        t.fit_ctx = &no;
        assert_int_equal(infer_fingerprint(&t, &declined, err, sizeof err), 0);
        assert_int_equal(declined.evals_gpu, 0);
        assert_same_fit(&cores, &declined);
        fake_ctx bad = {.mode = 2};
        t.fit_ctx = &bad;
        infer_result failed;
        assert_int_equal(infer_fingerprint(&t, &failed, err, sizeof err), -1);
        assert_string_equal(err, "planted count failure");
        infer_result_free(&cores), infer_result_free(&there), infer_result_free(&declined);
        model_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_verify_finds_and_shrinks_a_planted_difference),
        cmocka_unit_test(test_inference_recovers_the_exact_setting),
        cmocka_unit_test(test_inference_recovers_an_interleaved_split),
        cmocka_unit_test(test_inference_recovers_wide_operand_chains),
        cmocka_unit_test(test_inference_recovers_synthetic_profiles),
        cmocka_unit_test(test_a_fit_counted_elsewhere_decides_as_the_cores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
