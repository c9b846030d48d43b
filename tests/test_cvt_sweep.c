/* The current float32 encoders (formats/, tc_encode_f32_array) against the
 * MPFR-built grid reference (tests/test_formats_grid.h, the reference of
 * tools/exhaustive_f32), for every narrow format and every combination of
 * rounding mode x overflow mode, ftz, and daz: 2^24 float32 inputs spread
 * evenly (every 256th bit pattern, both signs) in the optimized build, 2^18
 * (every 16384th) under the sanitizers. The sweep is shown able to fail: with
 * the reference's tie-breaking flipped it reports mismatches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/test_formats_grid.h"

#if defined(__SANITIZE_ADDRESS__)
#define LOG2N 18
#else
#define LOG2N 24
#endif

static const tc_format *const formats[] = {&tc_e4m3, &tc_e5m2, &tc_f16,  &tc_bf16, &tc_tf32,
                                           &tc_e2m1, &tc_e3m2, &tc_e2m3, &tc_e8m0};

static void every_format_and_mode_equals_the_reference(void **state)
{
    for (size_t fi = 0; fi < sizeof formats / sizeof formats[0]; fi++) {
        grid_result res[NCOMBO];
        assert_int_equal(grid_sweep(formats[fi], LOG2N, 2, false, res), 0);
        for (int c = 0; c < NCOMBO; c++) {
            tc_rounding r = combo(c);
            assert_int_equal(res[c].inputs, 1ull << LOG2N);
            if (res[c].mismatches)
                fail_msg("%s %s/%s ftz=%d daz=%d: %llu of %llu inputs differ, first f32 0x%08x: got 0x%llx, want 0x%llx",
                         formats[fi]->name, tc_round_name(r.mode), tc_overflow_name(r.ovf), r.ftz, r.daz,
                         (unsigned long long)res[c].mismatches, (unsigned long long)res[c].inputs,
                         res[c].first[0].in, (unsigned long long)res[c].first[0].got,
                         (unsigned long long)res[c].first[0].want);
        }
    }
}

/* Ties broken the other way in the reference: rne and ro (which read the
 * last bit) must then disagree with the encoder, the directed modes not. */
static void the_sweep_fails_on_a_wrong_reference(void **state)
{
    grid_result res[NCOMBO];
    assert_int_equal(grid_sweep(&tc_e4m3, 18, 1, true, res), 0);
    for (int c = 0; c < NCOMBO; c++) {
        tc_round m = combo(c).mode;
        if (m == TC_RNE || m == TC_RO)
            assert_true(res[c].mismatches > 0);
        if (m == TC_RZ || m == TC_RU || m == TC_RD)
            assert_int_equal(res[c].mismatches, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_format_and_mode_equals_the_reference),
        cmocka_unit_test(the_sweep_fails_on_a_wrong_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
