/* Every fast path of the model gives its reference's bits
 * (oracle/model_reference.c: exact integers, written once in the order the
 * hardware works), element by element:
 *   - model_dot (the dispatch), model_dot_int128, the int64 kernel
 *     (scalar and AVX-512 where the CPU has it: the elements it takes are
 *     counted, so the comparison is not vacuous), model_dot_wide for f64
 *     and model_element_wide (model_wide_core.h: its whole work, and the
 *     GPU's wide kernel's; the elements it takes are counted),
 *     model_mma's whole tiles, and model_element_int128 (model_core.h: the
 *     whole work of one thread of the GPU model, probes/cuda/model_gpu.cu,
 *     here compiled for the CPU, without the decode tables),
 * for every instruction of the shipped profiles (oracle/profiles) and the
 * test profiles (tests/profiles), and for random parameters, on random
 * inputs and on adversarial families: cancellation, carries at the
 * alignment boundary, subnormals, Inf/NaN, huge exponent spreads, and
 * huge products that cancel exactly beside the tiniest (subnormal times
 * subnormal: f64's 2^-2148 against 2^2047).
 * The reference shares only decoding and the format rounding (mfmt_round,
 * tested against formats/ by test_model) with the paths under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/model_kernel.h"
#include "oracle/model_wide_core.h"
#include "oracle/profile.h"
#include "probes/probes.h"

#if defined(__SANITIZE_ADDRESS__)
#define PER_FAMILY 4
#define RANDOM_MODELS 400
#else
#define PER_FAMILY 40
#define RANDOM_MODELS 4000
#endif
#define NFAMILIES 9

static uint64_t rng_state = 0x243F6A8885A308D3ull;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int rndn(int n)
{
    return (int)(rnd64() % (uint64_t)n);
}

/* Bits of f with sign s, exponent field e (clamped to the finite range)
 * and fraction fr; FN formats keep off their NaN code. */
static uint64_t mk(const tc_format *f, int s, int e, uint64_t fr)
{
    int top = (1 << f->ebits) - 1, hi = f->specials == TC_SPECIALS_IEEE ? top - 1 : top;
    e = e < 0 ? 0 : e > hi ? hi : e;
    fr &= (1ull << f->mbits) - 1;
    if (f->specials == TC_SPECIALS_FN && e == top && fr == (1ull << f->mbits) - 1)
        fr--;
    return (((uint64_t)s << (f->ebits + f->mbits)) | ((uint64_t)e << f->mbits) | fr) << f->shift;
}

/* kind 0: +Inf, 1: -Inf, 2: NaN (formats without Inf: NaN; without
 * specials: the largest finite). */
static uint64_t special(const tc_format *f, int kind)
{
    uint64_t top = (1ull << f->ebits) - 1, ones = (1ull << f->mbits) - 1;
    if (f->specials == TC_SPECIALS_NONE)
        return mk(f, kind & 1, (int)top, ones);
    if (f->specials == TC_SPECIALS_FN || kind == 2)
        return (((uint64_t)rndn(2) << (f->ebits + f->mbits)) | (top << f->mbits) | ones) << f->shift;
    return (((uint64_t)(kind & 1) << (f->ebits + f->mbits)) | (top << f->mbits)) << f->shift;
}

/* Operands of family fam for a model with align_bits F (or MODEL_EXACT). */
static void family(int fam, oracle_formats f, int F, int k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    const tc_format *fa = f.a, *fb = f.b;
    int ba = fa->bias, bb = fb->bias, w = F == MODEL_EXACT ? 30 + rndn(40) : F;
    for (int i = 0; i < k; i++) {
        int s = rndn(2);
        switch (fam) {
        case 0:   /* every encoding, specials included */
            a[i] = rnd64() & tc_format_mask(fa) & ~((1ull << fa->shift) - 1);
            b[i] = rnd64() & tc_format_mask(fb) & ~((1ull << fb->shift) - 1);
            break;
        case 1:   /* near one */
            a[i] = mk(fa, s, ba + rndn(7) - 3, rnd64());
            b[i] = mk(fb, rndn(2), bb + rndn(7) - 3, rnd64());
            break;
        case 2:   /* cancellation: each odd product undoes the previous one, perturbed */
            if (i % 2) {
                a[i] = a[i - 1] ^ (1ull << (fa->ebits + fa->mbits + fa->shift));
                b[i] = b[i - 1] ^ ((rnd64() & 3) << fb->shift);
            } else {
                a[i] = mk(fa, s, ba + rndn(9) - 4, rnd64());
                b[i] = mk(fb, 0, bb + rndn(9) - 4, rnd64());
            }
            break;
        case 3: {   /* carries at the alignment boundary: all-ones significands at E and
                       E - w + {-1, 0, 1}, so cut bits and carries meet the grid's last bit */
            static const int off[] = {0, 0, 1, 2, 3};
            int d = i == 0 ? 0 : w - 1 + off[rndn(5)] - 1;
            a[i] = mk(fa, i == 0 ? 0 : s, ba + 2 - (d < 0 ? 0 : d), rndn(3) ? ~0ull : 0);
            b[i] = mk(fb, 0, bb, rndn(3) ? ~0ull : 1);
            break;
        }
        case 4:   /* subnormals and the smallest normals */
            a[i] = mk(fa, s, rndn(2), rnd64());
            b[i] = mk(fb, rndn(2), rndn(3) ? bb + rndn(5) : rndn(2), rnd64());
            break;
        case 5:   /* finite values with Inf and NaN sprinkled in */
            a[i] = rndn(6) ? mk(fa, s, ba + rndn(9) - 4, rnd64()) : special(fa, rndn(3));
            b[i] = rndn(6) ? mk(fb, rndn(2), bb + rndn(9) - 4, rnd64()) : special(fb, rndn(3));
            break;
        case 6:   /* huge exponent spreads: the top and the bottom of the range */
            a[i] = mk(fa, s, rndn(2) ? (1 << fa->ebits) - 2 - rndn(3) : rndn(3), rnd64());
            b[i] = mk(fb, rndn(2), rndn(2) ? (1 << fb->ebits) - 2 - rndn(3) : bb, rnd64());
            break;
        case 8: {   /* the widest spans: a huge product, the same negated (exact
                       cancellation), subnormal times subnormal, and a tiny
                       product beside a huge one's remainder */
            int topb = (1 << fb->ebits) - 2;
            switch (i % 4) {
            case 0:
                a[i] = mk(fa, s, (1 << fa->ebits) - 2 - rndn(2), rnd64());
                b[i] = mk(fb, rndn(2), topb - rndn(2), rnd64());
                break;
            case 1:
                a[i] = a[i - 1] ^ (1ull << (fa->ebits + fa->mbits + fa->shift));
                b[i] = rndn(2) ? b[i - 1] : b[i - 1] ^ ((rnd64() & 1) << fb->shift);
                break;
            case 2:
                a[i] = mk(fa, s, 0, rndn(2) ? rnd64() : 1);
                b[i] = mk(fb, rndn(2), 0, rndn(2) ? rnd64() : 1);
                break;
            default:
                a[i] = mk(fa, s, rndn(2), rnd64());
                b[i] = mk(fb, rndn(2), rndn(2) ? topb : bb, rnd64());
                break;
            }
            break;
        }
        default:   /* exact zeros of both signs among tiny products */
            a[i] = rndn(3) ? mk(fa, s, 0, 0) : mk(fa, s, rndn(3), rnd64());
            b[i] = mk(fb, rndn(2), rndn(2) ? 0 : bb - rndn(4), rnd64());
            break;
        }
    }
    const tc_format *fc = f.c;
    int top = (1 << fc->ebits) - 2;
    switch (rndn(6)) {
    case 0: *c = 0; break;
    case 1: *c = mk(fc, 1, 0, 0); break;
    case 2: *c = fam == 5 ? special(fc, rndn(3)) : mk(fc, rndn(2), rndn(2), rnd64()); break;
    case 3: *c = mk(fc, rndn(2), fam == 6 ? top : fc->bias + 4, rnd64()); break;
    default: *c = mk(fc, rndn(2), fc->bias + rndn(9) - 4, rnd64()); break;
    }
}

typedef struct {
    long elements, bad, kernel_scalar, kernel_simd, wide, tile, gpu_element;
    long declined;   /* by the GPU model's element where only an exact accumulator wider than 126 bits may be */
    long wide_declined;   /* by model_element_wide: no f64 step may span more than MODEL_WIDE_LIMBS */
} tally;

static void report(tally *t, const char *what, const model *m, int k, const uint64_t *a,
                   const uint64_t *b, uint64_t c, uint64_t want, uint64_t got)
{
    if (want == got)
        return;
    if (t->bad++ < 8)
        fprintf(stderr, "%s (k=%d, c=0x%llx, a0=0x%llx b0=0x%llx): reference 0x%llx, path 0x%llx\n", what,
                k, (unsigned long long)c, (unsigned long long)a[0], (unsigned long long)b[0],
                (unsigned long long)want, (unsigned long long)got);
}

/* NaN payloads propagate (nan_prop) on the wide path alone: where the
 * reference's answer is its NaN, the path's must be a NaN (its payload is
 * test_model's business); elsewhere the bits must agree. */
static uint64_t nan_agreed(const model *m, uint64_t want, uint64_t got)
{
    if (m->p.nan_prop != MODEL_NAN_CANONICAL && want == m->p.nan_bits && tc_classify(m->f.d, got) == TC_NAN)
        return want;
    return got;
}

/* One element on every path that applies to m. */
static void check_element(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c, tally *t)
{
    uint64_t want = model_reference_dot(m, k, a, b, c), got;
    t->elements++;
    report(t, "model_dot", m, k, a, b, c, want, nan_agreed(m, want, model_dot(m, k, a, b, c)));
    if (m->wide) {
        report(t, "model_dot_wide", m, k, a, b, c, want, nan_agreed(m, want, model_dot_wide(m, k, a, b, c)));
        int order[512];
        bool ordered = model_step_order(&m->p, k, order);
        if (model_element_wide(m, k, a, 1, b, 1, c, ordered ? order : NULL, &got) == 0) {
            t->wide++;
            report(t, "model_element_wide (the GPU's wide kernel's element)", m, k, a, b, c, want,
                   nan_agreed(m, want, got));
        } else {
            t->wide_declined++;
        }
        return;
    }
    report(t, "model_dot_int128", m, k, a, b, c, want, model_dot_int128(m, k, a, b, c));
    int order[MODEL_ELEMENT_MAX_K];
    bool ordered = k <= MODEL_ELEMENT_MAX_K && model_step_order(&m->p, k, order);
    if (model_element_int128(m, k, a, 1, b, 1, c, ordered ? order : NULL, &got) == 0) {
        t->gpu_element++;
        report(t, "model_element_int128 (the GPU model's element)", m, k, a, b, c, want, got);
    } else if (!m->p.acc_exact && k <= MODEL_ELEMENT_MAX_K) {   /* model_step_wide takes every other span */
        t->declined++;
    }
    for (int simd = 0; simd < 2; simd++) {
        if (model_avx512_set(simd) != simd)
            continue;   /* no AVX-512 on this CPU */
        if (model_kernel_dot(m, k, a, b, c, &got) == 0) {
            *(simd ? &t->kernel_simd : &t->kernel_scalar) += 1;
            report(t, simd ? "int64 kernel (AVX-512)" : "int64 kernel (scalar)", m, k, a, b, c, want, got);
        }
    }
    model_avx512_set(true);
}

/* model_mma's tiles (the AVX-512 tile kernel where it applies) element by
 * element against the reference. */
static void check_tile(const model *m, oracle_formats f, int K, int fam, tally *t)
{
    enum { MR = 4, NC = 9 };
    uint64_t *A = malloc(sizeof *A * MR * K), *B = malloc(sizeof *B * K * NC), *col = malloc(sizeof *col * K),
             *tmp = malloc(sizeof *tmp * K);
    uint64_t C[MR * NC], D[MR * NC], x, y;
    for (int r = 0; r < MR; r++)
        for (int j = 0; j < NC; j++)
            family(fam, f, m->p.align_bits, 1, &x, &y, &C[r * NC + j]);
    for (int r = 0; r < MR; r++)   /* rows of A and columns of B from whole draws */
        family(fam, f, m->p.align_bits, K, A + (size_t)r * K, tmp, &x);
    for (int j = 0; j < NC; j++) {
        family(fam, f, m->p.align_bits, K, tmp, col, &x);
        for (int kk = 0; kk < K; kk++)
            B[(size_t)kk * NC + j] = col[kk];
    }
    t->tile += model_tile_scratch(m, MR, NC, K) != 0;
    model_mma(m, MR, NC, K, 1, A, B, C, D);
    for (int r = 0; r < MR; r++)
        for (int j = 0; j < NC; j++) {
            for (int kk = 0; kk < K; kk++)
                col[kk] = B[(size_t)kk * NC + j];
            uint64_t want = model_reference_dot(m, K, A + (size_t)r * K, col, C[r * NC + j]);
            report(t, "model_mma", m, K, A + (size_t)r * K, col, C[r * NC + j], want, D[r * NC + j]);
        }
    free(A);
    free(B);
    free(col);
    free(tmp);
}

static void check_model(const model *m, oracle_formats f, int K, int per_family, tally *t)
{
    uint64_t a[512], b[512], c;
    for (int fam = 0; fam < NFAMILIES; fam++)
        for (int i = 0; i < per_family; i++) {
            int k = i % 3 == 2 ? 1 + rndn(K) : K;   /* partial last steps too */
            family(fam, f, m->p.align_bits, k, a, b, &c);
            check_element(m, k, a, b, c, t);
        }
}

static void check_profile(const char *path, tally *t)
{
    model_profile prof;
    char err[256];
    if (profile_load(path, &prof, err, sizeof err))
        fail_msg("%s", err);
    for (size_t i = 0; i < prof.count; i++) {
        const tc_instr *ins = tc_instr_by_name(prof.entries[i].instr);
        if (!ins || ins->k > 512)
            fail_msg("%s: %s is not a catalogue instruction the test covers", path, prof.entries[i].instr);
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        model *m = model_new(&prof.entries[i].params, f, err, sizeof err);
        if (!m)
            fail_msg("%s: %s: %s", path, ins->name, err);
        check_model(m, f, ins->k, PER_FAMILY, t);
        if (!m->wide && ins->k <= 256)
            check_tile(m, f, ins->k, rndn(NFAMILIES), t);
        model_free(m);
    }
    profile_free(&prof);
}

static void summary(const char *what, const tally *t)
{
    printf("%s: %ld elements, %ld differ; int64 kernel took %ld (scalar) and %ld (AVX-512), the wide element "
           "%ld (%ld declined), tile kernel on %ld tiles, the GPU model's element %ld (%ld declined without an "
           "exact accumulator)\n",
           what, t->elements, t->bad, t->kernel_scalar, t->kernel_simd, t->wide, t->wide_declined, t->tile,
           t->gpu_element, t->declined);
}

static void test_profiles_equal_reference(void **state)
{
    static const char *const paths[] = {
        "oracle/profiles/h100.profile", "oracle/profiles/h200.profile", "tests/profiles/exact.profile",
        "tests/profiles/synthetic.profile", "tests/profiles/narrow-acc.profile",
        "tests/profiles/fp8-before-refit.profile",
    };
    tally t = {0};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        check_profile(paths[i], &t);
    summary("profiles", &t);
    assert_int_equal(t.bad, 0);
    assert_int_equal(t.declined, 0);
    assert_int_equal(t.wide_declined, 0);
    /* the fast paths were exercised, not skipped */
    assert_true(t.kernel_scalar > t.elements / 4 && t.wide > 0);
    assert_true(t.gpu_element > (t.elements - t.wide) * 9 / 10);
    if (model_avx512_set(true))
        assert_true(t.kernel_simd == t.kernel_scalar && t.tile > 0);
}

/* Random settings over every field the model has (wide pairs included). */
static model_params random_params(oracle_formats f, bool wide)
{
    static const tc_round modes[] = {TC_RNE, TC_RZ, TC_RU, TC_RD, TC_RNA, TC_RO};
    tc_rounding r0 = {modes[rndn(6)], rndn(4) ? TC_OVF_INF : TC_OVF_SAT, rndn(4) == 0, 0, false};
    model_params p = model_params_exact(f, r0);
    p.block = 1 + rndn(rndn(2) ? 16 : 64);
    p.c_mode = rndn(2) ? MODEL_C_FIRST : MODEL_C_LAST;
    p.c_round = modes[rndn(6)];
    p.acc_exact = rndn(4) == 0;
    p.acc_fmt = wide ? tc_f64 : rndn(2) ? tc_f32 : tc_f16;
    p.acc_round = modes[rndn(6)];
    p.ftz_acc = rndn(4) == 0;
    p.ftz_a = rndn(4) == 0;
    p.ftz_b = rndn(4) == 0;
    p.ftz_c = rndn(4) == 0;
    if (p.block >= 4 && p.block % 2 == 0 && rndn(4) == 0)
        p.split_runs = 2;
    if (wide) {
        /* The settings the wide path computes (model_wide_unsupported), less
         * one where it differs from the reference: the wide path starts
         * from C as given, where the reference (and the other paths) first
         * round C into the accumulator (acc_fmt, ftz_acc). So C_FIRST with
         * an f64 accumulator that does not flush. */
        if (p.c_mode == MODEL_C_FIRST)
            p.ftz_acc = false;
        return p;
    }
    p.align_with_acc = rndn(2);
    p.exp_ref = rndn(2) ? MODEL_EXP_NOMINAL : MODEL_EXP_NORMALIZED;
    p.align_bits = rndn(5) == 0 ? MODEL_EXACT : rndn(80);
    p.align_round = (model_align_round)rndn(3);
    p.carry_bits = rndn(3) == 0 ? 1 + rndn(6) : MODEL_UNLIMITED;
    p.acc_ovf_inf = rndn(4) == 0;
    p.zero_positive = rndn(4) == 0;
    p.dropped_nan_inf = rndn(2);
    if (rndn(4) == 0) {
        p.floored = true;
        p.align_floor = -30 + rndn(40);
    }
    if (rndn(3) == 0) {
        p.prod_bits = 4 + rndn(20);
        p.prod_round = modes[rndn(6)];
    }
    if (rndn(4) == 0)
        p.prod_flush_exp = -30 - rndn(100);
    if (rndn(3) == 0) {
        p.cvt_a.convert = true;
        p.cvt_a.fmt = rndn(2) ? tc_tf32 : tc_bf16;
        p.cvt_a.round = rndn(2) ? TC_RZ : modes[rndn(6)];
        p.cvt_b = p.cvt_a;
    }
    return p;
}

static void test_random_settings_equal_reference(void **state)
{
    const tc_format *const ins[] = {&tc_f16, &tc_bf16, &tc_tf32, &tc_e4m3, &tc_e5m2, &tc_f32, &tc_f64};
    tally t = {0};
    for (int v = 0; v < RANDOM_MODELS; v++) {
        const tc_format *fi = ins[rndn(7)];
        bool wide = fi == &tc_f64;
        const tc_format *fo = wide ? &tc_f64 : rndn(2) ? &tc_f32 : &tc_f16;
        oracle_formats f = {fi, fi, fo, fo};
        model_params p = random_params(f, wide);
        char err[200];
        model *m = model_new(&p, f, err, sizeof err);
        if (!m)
            fail_msg("model_new: %s", err);
        check_model(m, f, 1 + rndn(40), 2, &t);
        model_free(m);
    }
    summary("random settings", &t);
    assert_int_equal(t.bad, 0);
    assert_int_equal(t.declined, 0);
    assert_int_equal(t.wide_declined, 0);
    assert_true(t.kernel_scalar > 0 && t.wide > 0 && t.gpu_element > (t.elements - t.wide) / 2);
}

/* A step whose products are all zero, with align_with_acc off: the
 * accumulator alone is the reference, and its grid is still never finer
 * than 2^align_floor. With the floor at 2^5 every bit of C = 1.0 lies
 * below the grid and is cut (trunc), so the sum is +0. The int64 kernel
 * once skipped the floor in this case and answered 1.0. */
static void test_floor_cuts_a_lone_accumulator(void **state)
{
    oracle_formats f = {&tc_e4m3, &tc_e4m3, &tc_f32, &tc_f32};
    tc_rounding r = {TC_RZ, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(f, r);
    p.block = 2;
    p.align_bits = 10;
    p.align_with_acc = false;
    p.floored = true;
    p.align_floor = 5;
    p.acc_exact = false;
    p.acc_fmt = tc_f32;
    p.acc_round = TC_RZ;
    char err[200];
    model *m = model_new(&p, f, err, sizeof err);
    if (!m)
        fail_msg("model_new: %s", err);
    assert_true(m->fast);   /* the int64 kernel is asked first */
    uint64_t a[2] = {0x00, 0x80}, b[2] = {0x38, 0x38}, c = 0x3f800000;   /* 0 * 1, -0 * 1, C = 1.0 */
    assert_int_equal(model_reference_dot(m, 2, a, b, c), 0);
    assert_int_equal(model_dot(m, 2, a, b, c), 0);
    model_free(m);
}

/* NaN payloads on the wide path, which the reference does not model: the
 * first NaN in nan_prop's order passes on, quieted (signaling payloads
 * here, so the quieting shows). One step of A = {NaN_A, 1}, B = {NaN_B, 1}
 * with C a NaN or 1 (C_FIRST: the accumulator); then a chain (block 1)
 * whose second product holds the NaN, which later steps keep. */
static void test_wide_nan_payloads_follow_the_order(void **state)
{
    static const struct {
        model_nan_prop order;
        char with_c, without_c;   /* whose NaN comes out: 'a', 'b' or 'c' */
    } cases[] = {
        {MODEL_NAN_ACC_A_B, 'c', 'a'}, {MODEL_NAN_ACC_B_A, 'c', 'b'}, {MODEL_NAN_A_B_ACC, 'a', 'a'},
        {MODEL_NAN_B_A_ACC, 'b', 'b'}, {MODEL_NAN_A_ACC_B, 'a', 'a'}, {MODEL_NAN_B_ACC_A, 'b', 'b'},
    };
    const uint64_t na = 0x7FF0000000000A01ull, nb = 0xFFF0000000000B02ull, nc = 0x7FF0000000000C03ull,
                   one = 0x3FF0000000000000ull, q = 1ull << 51;
    oracle_formats f = {&tc_f64, &tc_f64, &tc_f64, &tc_f64};
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int cn = 0; cn < 2; cn++) {
            model_params p = model_params_exact(f, r);
            p.acc_exact = false;
            p.acc_fmt = tc_f64;
            p.block = 2;
            p.c_mode = MODEL_C_FIRST;
            p.nan_prop = cases[i].order;
            p.nan_bits = 0x7FF8000000000000ull;
            char err[200];
            model *m = model_new(&p, f, err, sizeof err);
            if (!m)
                fail_msg("model_new: %s", err);
            uint64_t a[2] = {na, one}, b[2] = {nb, one}, c = cn ? nc : one, d = 0;
            char who = cn ? cases[i].with_c : cases[i].without_c;
            uint64_t want = (who == 'a' ? na : who == 'b' ? nb : nc) | q;
            assert_int_equal(model_dot_wide(m, 2, a, b, c), want);
            assert_int_equal(model_element_wide(m, 2, a, 1, b, 1, c, NULL, &d), 0);
            assert_int_equal(d, want);
            model_free(m);
        }
    model_params p = model_params_exact(f, r);
    p.acc_exact = false;
    p.acc_fmt = tc_f64;
    p.block = 1;
    p.nan_prop = MODEL_NAN_ACC_B_A;
    p.nan_bits = 0x7FF8000000000000ull;
    char err[200];
    model *m = model_new(&p, f, err, sizeof err);
    if (!m)
        fail_msg("model_new: %s", err);
    uint64_t a[4] = {one, na, nb, one}, b[4] = {one, one, one, one}, d = 0;
    assert_int_equal(model_dot_wide(m, 4, a, b, one), na | q);   /* the accumulator's NaN first, from step 2 on */
    assert_int_equal(model_element_wide(m, 4, a, 1, b, 1, one, NULL, &d), 0);
    assert_int_equal(d, na | q);
    model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profiles_equal_reference),
        cmocka_unit_test(test_random_settings_equal_reference),
        cmocka_unit_test(test_floor_cuts_a_lone_accumulator),
        cmocka_unit_test(test_wide_nan_payloads_follow_the_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
