/* infer_split (cases/families/bits_build.c) skips the powers of two that
 * cannot split x: its answers must be the ones of the search over every
 * power, kept here as it was (ref_split), for every pair of operand formats
 * of the catalogue and values of every kind: products of the formats'
 * values (subnormals, the largest, the smallest), random doubles of every
 * exponent and width, zeros, infinities and NaN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cases/families/families.h"
#include "cases/hunt_draw.h"   /* hd_rnd: the project's splitmix64 */
#include "probes/probes.h"

#if defined(__SANITIZE_ADDRESS__)
#define PER_PAIR 1500
#else
#define PER_PAIR 12000
#endif

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

/* The search before the skip, word for word. */
static bool ref_split(const oracle_formats *f, double x, uint64_t *a, uint64_t *b)
{
    if (x == 0) {
        *b = tc_encode_f64(f->b, 1.0, rne);
        return infer_enc(f->a, x, a);
    }
    for (int d = 0; d <= 300; d++) {
        for (int s = -1; s <= 1; s += 2) {
            int e = s * d;
            double pb = ldexp(1.0, e);
            if (infer_enc(f->b, pb, b) && infer_enc(f->a, x / pb, a) &&
                tc_classify(f->a, *a) == TC_FINITE && tc_classify(f->b, *b) == TC_FINITE) {
                tc_value va = tc_decode(f->a, *a, false);
                int bl = 64 - __builtin_clzll(va.sig);
                if (va.exp + bl - 1 >= tc_format_emin(f->a) || d > 200)
                    return true;
            }
            if (d == 0)
                break;
        }
    }
    return false;
}

/* A finite value of f (any of its bit patterns that decodes finite), as a double. */
static double value_of(const tc_format *f, uint64_t *st)
{
    for (;;) {
        uint64_t bits = (hd_rnd(st) & tc_format_mask(f)) & ~((1ull << f->shift) - 1);
        if (tc_classify(f, bits) == TC_FINITE || tc_classify(f, bits) == TC_ZERO)
            return tc_decode_to_f64(f, bits);
    }
}

static double sample(const oracle_formats *f, uint64_t *st, size_t i)
{
    switch (i % 6) {
    case 0: case 1: case 2:   /* a product the formats may hold */
        return value_of(f->a, st) * value_of(f->b, st);
    case 3: {                 /* a significand of 1 to 53 bits at any exponent */
        int bits = 1 + (int)(hd_rnd(st) % 53);
        double sig = (double)((hd_rnd(st) >> (64 - bits)) | 1ull);
        return (hd_rnd(st) & 1 ? -1 : 1) * ldexp(sig, (int)(hd_rnd(st) % 2200) - 1100);
    }
    case 4:                   /* a power of two, a format's edge or past it */
        return ldexp(1.0, (int)(hd_rnd(st) % 700) - 350);
    default: {
        static const double special[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.75};
        return special[hd_rnd(st) % (sizeof special / sizeof special[0])];
    }
    }
}

static void test_split_is_the_whole_search(void **state)
{
    size_t n = 0, pairs = 0, split = 0;
    const tc_instr *cat = tc_catalogue(&n);
    const tc_format *seen[64][2];
    for (size_t i = 0; i < n; i++) {
        const tc_format *fa = cat[i].a, *fb = cat[i].b;
        bool dup = false;
        for (size_t p = 0; p < pairs; p++)
            dup |= seen[p][0] == fa && seen[p][1] == fb;
        if (dup || pairs == 64)
            continue;
        seen[pairs][0] = fa, seen[pairs][1] = fb;
        pairs++;
        oracle_formats f = {fa, fb, cat[i].c, cat[i].d};
        uint64_t st = 0x5917 + pairs;
        for (size_t k = 0; k < PER_PAIR; k++) {
            double x = sample(&f, &st, k);
            uint64_t a1 = 0, b1 = 0, a2 = 0, b2 = 0;
            bool r1 = ref_split(&f, x, &a1, &b1), r2 = infer_split(&f, x, &a2, &b2);
            if (r1 != r2 || (r1 && (a1 != a2 || b1 != b2)))
                fail_msg("%s x %s: x = %a: the whole search %d (%#llx, %#llx), infer_split %d (%#llx, %#llx)",
                         fa->name, fb->name, x, r1, (unsigned long long)a1, (unsigned long long)b1, r2,
                         (unsigned long long)a2, (unsigned long long)b2);
            split += r1;
        }
    }
    print_message("%zu format pairs, %zu of %zu samples split\n", pairs, split, pairs * (size_t)PER_PAIR);
    assert_true(pairs >= 8);                 /* f16, bf16, tf32, f64, the FP8 pairs, the integers */
    assert_true(split > pairs * PER_PAIR / 5);   /* a quarter split: the answers compared, not only "no" */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_is_the_whole_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
