/* The exact GEMM outputs of the GPU model (probes/model_gpu_exact.h,
 * oracle/exact_dot_core.h, probes/cuda/model_gpu_exact.cu): the integer
 * exact sum rounded once to f64 equals the MPFR oracle (oracle_mma_exact)
 * on every output of GEMMs of normal values, values over the whole double
 * range (subnormal products under large ones, overflow to Inf), cancelling
 * rows, halfway cases decided by a term ~1000 binades down, zeros, and
 * rows with Inf or NaN (the oracle's, counted as the CPU's), the sum in a
 * 192-bit window where the products fit one and in limbs where they do
 * not (the window's answers the limbs' bits wherever it answers): on the CPU
 * (no GPU: the same code) and on a GPU (skipped without one). The kernel's
 * SASS histogram holds integer opcodes only (tests/data/
 * model_gpu_exact_sass.txt or TC_MODEL_GPU_EXACT_SASS, from a GPU machine's
 * tools/device/gemm-gpu.sh; skipped until there is one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "oracle/exact_dot_core.h"
#include "oracle/oracle.h"
#include "probes/model_gpu_exact.h"
#include "tests/sass_histogram.h"

static void test_exact_sass_is_integer_only(void **state)
{
    (void)state;
    const char *env = getenv("TC_MODEL_GPU_EXACT_SASS"), *path = env ? env : "tests/data/model_gpu_exact_sass.txt";
    char *text = slurp(path), why[256];
    if (!text) {
        if (env)
            fail_msg("cannot read %s", path);
        print_message("no %s yet (a GPU machine's tools/device/gemm-gpu.sh writes it)\n", path);
        skip();
    }
    const char *bad = check_histogram(text, "tc_model_gpu_exact_kernel", why, sizeof why);
    if (bad)
        fail_msg("%s: %s", path, bad);
    free(text);
}

static uint64_t rng(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

/* Double bits with a random sign and significand, exponent field in [lo, hi]. */
static uint64_t draw(uint64_t *s, int lo, int hi)
{
    uint64_t e = (uint64_t)(lo + (int)(rng(s) % (uint64_t)(hi - lo + 1)));
    return (rng(s) & 0x800fffffffffffffull) | (e << 52);
}

enum { ROWS = 12, COLS = 20 };

/* Rows of a (ROWS x k) and columns of b (COLS x k) of kind `kind`: 0
 * normal values; 1 position q's products near 2^d_q, d_q in [-1150, 50]
 * (subnormal and tiny products under large ones); 2 cancelling; 3 zeros,
 * Inf and NaN; 4 halfway cases 1 + 2^-53 +- a term up to ~2^-1074 (the
 * sticky bit, hundreds of limbs below, decides the rounding); 5 within one
 * 192-bit window (exact_dot_f64_window): cancelling rows, a halfway case. */
static void fill(int kind, int k, uint64_t *a, uint64_t *b, uint64_t *s)
{
    for (size_t i = 0; i < (size_t)ROWS * k; i++)
        a[i] = kind == 0 ? draw(s, 1013, 1033) : draw(s, 0, 2046);
    for (size_t i = 0; i < (size_t)COLS * k; i++)
        b[i] = kind == 0 ? draw(s, 1013, 1033) : draw(s, 900, 1100);
    if (kind == 1)
        for (int q = 0; q < k; q++) {
            int ea = 1 + (int)(rng(s) % 2046), d = (int)(rng(s) % 1201) - 1150, eb = 2046 - ea + d;
            eb = eb < 0 ? 0 : eb > 2046 ? 2046 : eb;
            for (int r = 0; r < ROWS; r++)
                a[(size_t)r * k + q] = draw(s, ea, ea);
            for (int c = 0; c < COLS; c++)
                b[(size_t)c * k + q] = draw(s, eb, eb);
        }
    if (kind == 4 && k >= 3) {
        memset(a, 0, (size_t)ROWS * k * 8);
        for (size_t i = 0; i < (size_t)COLS * k; i++)
            b[i] = 0x3ff0000000000000ull;   /* 1 */
        for (int r = 0; r < ROWS; r++) {
            a[(size_t)r * k] = 0x3ff0000000000000ull, a[(size_t)r * k + 1] = 0x3ca0000000000000ull;   /* 1, 2^-53 */
            a[(size_t)r * k + 2] = r < 2 ? 0 : draw(s, 0, 300);
        }
    }
    if (kind == 2)   /* cancelling: the second half of each row of a negates the first, b repeats: sums near 0 */
        for (int r = 0; r < ROWS; r++)
            for (int q = k / 2; q < k; q++)
                a[(size_t)r * k + q] = a[(size_t)r * k + q - k / 2] ^ (r % 3 ? 0x8000000000000000ull : 0);
    if (kind == 2)
        for (int c = 0; c < COLS; c++)
            for (int q = k / 2; q < k; q++)
                b[(size_t)c * k + q] = c % 4 ? b[(size_t)c * k + q - k / 2] : b[(size_t)c * k + q - k / 2] + 1;
    if (kind == 5) {   /* within one 192-bit window (the registers' sum): magnitudes and significands as
                        * narrow formats have them, halves that cancel in some rows, and in row 0
                        * 2^40 + 2^-13 +- 2^-100 times 1 (halfway: the sticky below the top 128 bits decides) */
        for (size_t i = 0; i < (size_t)ROWS * k; i++)
            a[i] = draw(s, 1003, 1043) & ~((1ull << 30) - 1);
        for (size_t i = 0; i < (size_t)COLS * k; i++)
            b[i] = draw(s, 1023, 1025) & ~((1ull << 50) - 1);
        for (int r = 1; r < ROWS; r += 2)
            for (int q = k / 2; q < k; q++)
                a[(size_t)r * k + q] = a[(size_t)r * k + q - k / 2] ^ 0x8000000000000000ull;
        for (int c = 0; c < COLS; c += 3)
            for (int q = k / 2; q < k; q++)
                b[(size_t)c * k + q] = b[(size_t)c * k + q - k / 2];
        if (k >= 3) {
            for (int q = 0; q < k; q++)
                a[q] = 0;
            a[0] = (uint64_t)(1023 + 40) << 52, a[1] = (uint64_t)(1023 - 13) << 52;
            a[2] = ((uint64_t)(1023 - 100) << 52) | (rng(s) & 0x8000000000000000ull);
            for (int c = 0; c < COLS; c++)
                for (int q = 0; q < 3; q++)
                    b[(size_t)c * k + q] = 0x3ff0000000000000ull;   /* 1 */
        }
    }
    if (kind == 3) {   /* zeros, an Inf and a NaN */
        a[0] = 0, a[k] = 0x7ff0000000000000ull, a[2 * (size_t)k + 1] = 0x7ff8000000000001ull;
        for (int q = 0; q < k; q++)
            a[3 * (size_t)k + q] = q & 1 ? 0 : 0x8000000000000000ull;
    }
}

static void compare(tc_model_gpu *g, int kind, int k)
{
    char err[256];
    uint64_t s = 0x9e3779b97f4a7c15ull + (uint64_t)kind * 77 + (uint64_t)k;
    uint64_t *a = malloc((size_t)ROWS * k * 8), *b = malloc((size_t)COLS * k * 8), *bt = malloc((size_t)COLS * k * 8);
    uint64_t got[ROWS * COLS], want[ROWS * COLS];
    assert_true(a && b && bt);
    fill(kind, k, a, b, &s);
    for (int c = 0; c < COLS; c++)   /* the oracle takes B as k x cols */
        for (int q = 0; q < k; q++)
            bt[(size_t)q * COLS + c] = b[(size_t)c * k + q];
    oracle_formats f = {&tc_f64, &tc_f64, &tc_f64, &tc_f64};
    oracle_mma_exact(f, ROWS, COLS, k, 1, a, bt, NULL, want, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    tc_model_gpu_count cnt = {0};
    if (tc_model_gpu_exact_dots(g, ROWS, COLS, k, a, b, got, &cnt, err, sizeof err))
        fail_msg("%s", err);
    for (int e = 0; e < ROWS * COLS; e++) {
        double x, y;
        memcpy(&x, &got[e], 8), memcpy(&y, &want[e], 8);
        bool same = got[e] == want[e] || (x == 0 && y == 0) || (x != x && y != y);
        if (!same)
            fail_msg("kind %d, K %d, output %d: integer 0x%016llx, oracle 0x%016llx", kind, k, e,
                     (unsigned long long)got[e], (unsigned long long)want[e]);
    }
    assert_int_equal(cnt.gpu + cnt.cpu, ROWS * COLS);
    if (g && kind != 3)
        assert_int_equal(cnt.gpu, ROWS * COLS);
    free(a), free(b), free(bt);
}

static void all_kinds(tc_model_gpu *g)
{
    static const int ks[] = {1, 7, 64, 1000};
    for (int kind = 0; kind < 6; kind++)
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            if ((kind != 2 || ks[i] > 1) && (kind != 4 || ks[i] >= 3))
                compare(g, kind, ks[i]);
}

static void test_exact_on_cpu_is_the_oracle(void **state)
{
    (void)state;
    all_kinds(NULL);
}

static void test_exact_on_gpu_is_the_oracle(void **state)
{
    (void)state;
    char err[256];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    if (!g) {
        print_message("no GPU model: %s\n", err);
        skip();
    }
    all_kinds(g);
    print_message("exact outputs on %s: every one the oracle's\n", tc_model_gpu_name(g));
    tc_model_gpu_close(g);
}

/* The lowest and highest set bits of n values (exact_bit_range); false when none is nonzero and finite. */
static bool span_of(const uint64_t *v, int n, int *lo, int *hi)
{
    bool any = false;
    for (int i = 0; i < n; i++) {
        int l, h;
        if (exact_bit_range(v[i], &l, &h)) {
            *lo = any && *lo < l ? *lo : l;
            *hi = any && *hi > h ? *hi : h;
            any = true;
        }
    }
    return any;
}

/* exact_dot_f64_window, the sum in a 192-bit window: where it answers, the
 * bits of exact_dot_f64 (the limbs, checked against the oracle above), over
 * spans of magnitudes from one binade to wider than the window, random
 * signs, zeros, sums that cancel to zero or to a few bits, halfway cases
 * decided by a term over 128 bits below the top (the sticky bit of the
 * top 128), and K up to 5000; where the caller's base is too high (a
 * product's bits below it) or too low (the sum could overflow 192 bits) it
 * refuses. */
static void test_window_is_the_limbs(void **state)
{
    (void)state;
    mfmt f64;
    mfmt_init(&f64, &tc_f64);
    uint64_t s = 0x2545f4914f6cdd1dull;
    enum { KMAX = 5000 };
    uint64_t *a = malloc(KMAX * 8), *b = malloc(KMAX * 8);
    assert_true(a && b);
    int answered = 0, refused = 0;
    for (int t = 0; t < 3000; t++) {
        int k = t % 7 == 0 ? KMAX : 1 + (int)(rng(&s) % 300), span = (int)(rng(&s) % 90), e0 = 900 + (int)(rng(&s) % 200);
        for (int q = 0; q < k; q++) {
            a[q] = draw(&s, e0, e0 + span), b[q] = draw(&s, e0 - 30, e0 - 30 + span / 2);
            if (rng(&s) % 17 == 0)
                a[q] = rng(&s) & 1 ? 0 : 0x8000000000000000ull;   /* +-0 */
            if (t % 5 == 1 && rng(&s) % 3 == 0)   /* few significant bits: values of narrow formats */
                a[q] &= ~0xffffffffffull, b[q] &= ~0xfffffffffffull;
        }
        if (t % 4 == 2)   /* the second half cancels the first: exact zero, or a few bits left */
            for (int q = k / 2; q < k; q++)
                a[q] = a[q - k / 2] ^ 0x8000000000000000ull, b[q] = b[q - k / 2] + (t % 8 == 2 ? 0 : (q & 1));
        if (t % 10 == 3 && k >= 3) {   /* 2^40 + 2^-13 (half an ulp of 2^40) +- 2^-120: the sticky decides */
            for (int q = 0; q < k; q++)
                a[q] = 0, b[q] = 0x3ff0000000000000ull;
            a[0] = (uint64_t)(1023 + 40) << 52, a[1] = (uint64_t)(1023 - 13) << 52;
            a[2] = ((uint64_t)(1023 - 120) << 52) | (rng(&s) & 0x8000000000000000ull);
        }
        int la, ha, lb, hb;
        uint64_t want, got;
        assert_int_equal(exact_dot_f64(&f64, k, a, 1, b, 1, &want), 0);
        if (!span_of(a, k, &la, &ha) || !span_of(b, k, &lb, &hb)) {
            assert_int_equal(exact_dot_f64_window(&f64, k, a, 1, b, 1, 0, &got), 0);
            assert_true(got == want);
            continue;
        }
        int base = la + lb;
        bool fits = ha + hb + 2 - base <= exact_window_top(k);
        int rc = exact_dot_f64_window(&f64, k, a, 1, b, 1, base, &got);
        if (fits)
            assert_int_equal(rc, 0);
        if (rc == 0) {
            if (got != want)
                fail_msg("trial %d, K %d, span %d: window 0x%016llx, limbs 0x%016llx", t, k, span,
                         (unsigned long long)got, (unsigned long long)want);
            answered++;
        } else
            refused++;
        /* a base above the lowest product's lowest bit: refused unless only zeros go */
        if (exact_dot_f64_window(&f64, k, a, 1, b, 1, base + 1, &got) == 0)
            assert_true(got == want);
        /* a base so low that the largest product reaches past the window's top: refused */
        int H = -100000;
        for (int q = 0; q < k; q++) {
            int l1, h1, l2, h2;
            if (exact_bit_range(a[q], &l1, &h1) && exact_bit_range(b[q], &l2, &h2) && h1 + h2 > H)
                H = h1 + h2;
        }
        if (H > -100000)
            assert_int_equal(exact_dot_f64_window(&f64, k, a, 1, b, 1, H - exact_window_top(k), &got), -1);
    }
    assert_true(answered > 1000 && refused > 100);
    free(a), free(b);
}

static void test_refuses_k_over_2_20(void **state)
{
    (void)state;
    char err[256];
    uint64_t one = 0;
    tc_model_gpu_count cnt = {0};
    assert_int_equal(tc_model_gpu_exact_dots(NULL, 1, 1, (1 << 20) + 1, &one, &one, &one, &cnt, err, sizeof err), -1);
    assert_non_null(strstr(err, "2^20"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_sass_is_integer_only),
        cmocka_unit_test(test_exact_on_cpu_is_the_oracle),
        cmocka_unit_test(test_window_is_the_limbs),
        cmocka_unit_test(test_exact_on_gpu_is_the_oracle),
        cmocka_unit_test(test_refuses_k_over_2_20),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
