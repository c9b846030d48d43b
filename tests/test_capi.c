/* The C API of libtcscope (api/tcscope.h), as a binding calls it: answers
 * equal to the library's own functions, and every bad argument a -1 with
 * a message (also with no err buffer), never a crash. The Python tests
 * (python/tests/) compare the same calls with the CLI on many inputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "api/tcscope.h"
#include "cases/gemm.h"
#include "formats/formats.h"
#include "oracle/model.h"
#include "oracle/profile.h"
#include "probes/probes.h"

#define INSTR "mma.m16n8k16.f32.f16.f16.f32"

static void names_and_infos(void **state)
{
    (void)state;
    size_t n = tcscope_instr_count(), nf = tcscope_format_count(), np = tcscope_gemm_path_count();
    assert_true(n > 100 && nf >= 14 && np >= 9);
    assert_null(tcscope_instr_name(n));
    assert_null(tcscope_format_name(nf));
    assert_null(tcscope_gemm_path_name(np));
    int shape[3], sparse, info[5];
    const char *f[4], *a, *b, *ins;
    assert_int_equal(tcscope_instr_info(INSTR, shape, f, &sparse, NULL, 0), 0);
    assert_true(shape[0] == 16 && shape[1] == 8 && shape[2] == 16 && !sparse);
    assert_string_equal(f[0], "f16");
    assert_string_equal(f[3], "f32");
    assert_int_equal(tcscope_format_info("tf32", info, NULL, 0), 0);
    assert_true(info[TCSCOPE_FMT_STORAGE_BITS] == 32 && info[TCSCOPE_FMT_SHIFT] == 13 && !info[TCSCOPE_FMT_IS_INT]);
    assert_int_equal(tcscope_gemm_path_info("tf32", &a, &b, &ins, NULL, 0), 0);
    assert_string_equal(a, "f32");
    assert_string_equal(ins, "wgmma.m64n256k8.f32.tf32.tf32");
    assert_int_equal(tcscope_api_version(), TCSCOPE_API_VERSION);
    char p1[4096], p2[4096];
    assert_int_equal(tcscope_profile_path("h100", p1, sizeof p1, NULL, 0), 0);
    assert_true(tc_profile_path("h100", p2, sizeof p2));
    assert_string_equal(p1, p2);
}

/* Two tiles through the API equal model_mma with the profile's parameters. */
static void mma_equals_the_model(void **state)
{
    (void)state;
    uint64_t A[2 * 16 * 16], B[2 * 16 * 8], C[2 * 16 * 8], D[2 * 16 * 8], want[2 * 16 * 8];
    for (size_t i = 0; i < 2 * 16 * 16; i++)
        A[i] = (i * 0x9E37u + 0x3000) & 0x7BFF;   /* finite f16 of both signs */
    for (size_t i = 0; i < 2 * 16 * 8; i++)
        B[i] = (i * 0x7F4Au + 0x2C00) & 0xBBFF, C[i] = (uint64_t)(i * 0x01000193u) & 0x7F7FFFFF;
    char err[256], path[4096];
    assert_int_equal(tcscope_mma(INSTR, "h100", 2, A, B, C, D, err, sizeof err), 0);
    model_profile prof;
    assert_true(tc_profile_path("h100", path, sizeof path));
    assert_int_equal(profile_load(path, &prof, err, sizeof err), 0);
    const tc_instr *ins = tc_instr_by_name(INSTR);
    model *m = model_new(profile_lookup(&prof, INSTR), (oracle_formats){ins->a, ins->b, ins->c, ins->d}, err,
                         sizeof err);
    assert_non_null(m);
    model_mma(m, 16, 8, 16, 2, A, B, C, want);
    model_free(m);
    profile_free(&prof);
    assert_memory_equal(D, want, sizeof D);
}

static void convert_equals_the_encoder(void **state)
{
    (void)state;
    uint64_t x[3] = {0x3DCCCCCD /* 0.1f */, 0x7F800000, 0x00000001}, out[3], out2[3];
    uint8_t fl[3];
    assert_int_equal(tcscope_convert("f32", x, 3, 0, "e4m3", "rz", "sat", 0, NULL, out, fl, NULL, 0), 0);
    assert_int_equal(tcscope_convert("f32", x, 3, 0, "e4m3", "rz", "sat", 0, NULL, out2, NULL, NULL, 0), 0);
    tc_rounding r = {.mode = TC_RZ, .ovf = TC_OVF_SAT};
    for (int i = 0; i < 3; i++) {
        unsigned f = 0;
        assert_int_equal(out[i], tc_encode_flags(&tc_e4m3, tc_decode(&tc_f32, x[i], false), false, r, &f));
        assert_int_equal(out2[i], out[i]);
        assert_int_equal(fl[i], f);
    }
    assert_int_equal(fl[1], TCSCOPE_INEXACT | TCSCOPE_SATURATED);
    double v[2];
    uint64_t bits[2] = {0x7E, 0xFE};
    assert_int_equal(tcscope_decode("e4m3", bits, 2, v, NULL, 0), 0);
    assert_true(v[0] == 448.0 && v[1] == -448.0);
}

static void gemm_equals_the_simulated_library(void **state)
{
    (void)state;
    enum { M = 64, N = 256, K = 64 };
    static uint32_t A[M * K], B[K * N], D[M * N], want[M * N];
    static int ii[M * N], jj[M * N];
    for (size_t i = 0; i < M * K; i++)
        A[i] = (uint32_t)((i * 0x9E37u + 0x3000) & 0x7BFF);
    for (size_t i = 0; i < K * N; i++)
        B[i] = (uint32_t)((i * 0x7F4Au + 0x2C00) & 0xBBFF);
    char err[256], path[4096];
    assert_int_equal(tcscope_gemm_predict("f16", "h100", M, N, K, A, B, 16, 32, 2, "pairwise", 0, "as-uploaded", D,
                                          err, sizeof err), 0);
    tc_gemm_struct s = {.chunk = 16, .promote = 32, .splitk = 2, .combine = GEMM_COMBINE_PAIRWISE};
    tc_gemm_lib lib;
    assert_true(tc_profile_path("h100", path, sizeof path));
    assert_int_equal(tc_gemm_lib_sim(&lib, path, &s, GEMM_IN_AS_UPLOADED, err, sizeof err), 0);
    for (int e = 0; e < M * N; e++)
        ii[e] = e / N, jj[e] = e % N;
    double ms;
    tc_gemm_algo algo;
    assert_int_equal(lib.run(lib.ctx, tc_gemm_path_by_name("f16"), M, N, K, A, B, M * N, ii, jj, want, 0, 0, &ms,
                             &algo, err, sizeof err), 0);
    tc_gemm_lib_sim_free(&lib);
    assert_memory_equal(D, want, sizeof D);
}

/* -1 and a message containing `has`; the same call with no buffer is -1 too. */
#define FAILS(call_with_err, call_without, has)                                                                   \
    do {                                                                                                           \
        char err[512] = "unset";                                                                                   \
        assert_int_equal(call_with_err, -1);                                                                       \
        if (!strstr(err, has))                                                                                     \
            fail_msg("message '%s' lacks '%s'", err, has);                                                         \
        assert_int_equal(call_without, -1);                                                                        \
    } while (0)

static void bad_arguments_fail_with_a_message(void **state)
{
    (void)state;
    uint64_t A[16 * 16] = {0}, B[16 * 8] = {0}, D[16 * 8], x[2] = {1, 0x1FF};
    uint32_t a32[16 * 32] = {0}, b32[32 * 16] = {0}, d32[16 * 16];
    int shape[3], info[5];
    FAILS(tcscope_instr_info("mma.nope", shape, NULL, NULL, err, sizeof err),
          tcscope_instr_info(NULL, shape, NULL, NULL, NULL, 0), "unknown instruction 'mma.nope'");
    FAILS(tcscope_format_info("e99m1x", info, err, sizeof err), tcscope_format_info(NULL, info, NULL, 0),
          "unknown format");
    char path[64];
    FAILS(tcscope_profile_path("nope", path, sizeof path, err, sizeof err),
          tcscope_profile_path("h100", NULL, 0, NULL, 0), "unknown model profile 'nope'");
    FAILS(tcscope_mma(INSTR, "nope", 1, A, B, NULL, D, err, sizeof err), tcscope_mma(INSTR, "", 1, A, B, NULL, D, NULL, 0),
          "unknown model profile 'nope'");
    FAILS(tcscope_mma(INSTR, "h100", 1, A, NULL, NULL, D, err, sizeof err), tcscope_mma(INSTR, NULL, 1, A, B, NULL, D, NULL, 0),
          "A, B and D are required");
    A[5] = 0x10000;
    FAILS(tcscope_mma(INSTR, "h100", 1, A, B, NULL, D, err, sizeof err), tcscope_mma(INSTR, "exact", 1, A, B, NULL, D, NULL, 0),
          "A[5] = 0x10000 is not a f16 bit pattern");
    FAILS(tcscope_convert("e4m3", x, 2, 0, "f16", "rne", "inf", 0, NULL, D, NULL, err, sizeof err),
          tcscope_convert("e4m3", x, 2, 0, "f16", "rne", "inf", 0, NULL, D, NULL, NULL, 0), "x[1] = 0x1ff is not a e4m3");
    FAILS(tcscope_convert("f32", x, 1, 0, "f16", "up", "inf", 0, NULL, D, NULL, err, sizeof err),
          tcscope_convert("f32", x, 1, 0, "f16", "rne", "clip", 0, NULL, D, NULL, NULL, 0), "unknown rounding 'up'");
    FAILS(tcscope_convert("f32", x, 1, 0, "f16", "rs", "inf", 0, NULL, D, NULL, err, sizeof err),
          tcscope_convert("f32", x, 1, 0, "f16", "rs", "inf", 0, NULL, D, NULL, NULL, 0), "rs needs rbits");
    FAILS(tcscope_gemm_predict("f16", "h100", 16, 16, 32, a32, b32, 16, 0, 0, "seq", 0, "as-uploaded", d32, err,
                               sizeof err),
          tcscope_gemm_predict("f16", "h100", 16, 16, 0, a32, b32, 16, 0, 1, "seq", 0, "as-uploaded", d32, NULL, 0),
          "bad structure");
    FAILS(tcscope_gemm_predict("f32", "h100", 16, 16, 32, a32, b32, 16, 0, 1, "seq", 0, "as-uploaded", d32, err,
                               sizeof err),
          tcscope_gemm_predict("nope", "h100", 16, 16, 32, a32, b32, 16, 0, 1, "seq", 0, "as-uploaded", d32, NULL, 0),
          "no tensor-core instruction");
    FAILS(tcscope_gemm_predict("f16", "h100", 16, 16, 32, a32, b32, 16, 0, 1, "seq", 0, "tf32-rz", d32, err,
                               sizeof err),
          tcscope_gemm_predict("f16", "h100", 16, 16, 32, a32, b32, 16, 0, 1, "tree", 0, "as-uploaded", d32, NULL, 0),
          "has no input conversion tf32-rz");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_and_infos),
        cmocka_unit_test(mma_equals_the_model),
        cmocka_unit_test(convert_equals_the_encoder),
        cmocka_unit_test(gemm_equals_the_simulated_library),
        cmocka_unit_test(bad_arguments_fail_with_a_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
