/* The portable build's architectures: names parsed both ways, the code each
 * GPU runs, which architectures have which catalogue instructions (from the
 * ISA tables probes/isa/arch/, generated into probes/catalogue_archs.c), and
 * --arch on a model backend refusing what the architecture lacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "probes/probes.h"
#include "tests/testutil.h"

static void names_parse_both_ways(void **state)
{
    static const char *const targets[] = {"sm_70", "sm_75", "sm_80", "sm_86", "sm_89", "sm_90a", "sm_100a", "sm_120a"};
    static const int sms[] = {70, 75, 80, 86, 89, 90, 100, 120};
    for (int i = 0; i < 8; i++) {
        assert_int_equal(tc_arch_parse(targets[i]), sms[i]);
        assert_string_equal(tc_arch_target(sms[i]), targets[i]);
        assert_int_equal(tc_arch_parse(targets[i] + 3), sms[i]); /* "80", "90a" */
    }
    assert_int_equal(tc_arch_parse("sm80"), 80);
    assert_int_equal(tc_arch_parse("sm_90"), 90);
    static const char *const bad[] = {"sm_72", "sm_60", "sm_87", "sm_80a", "sm_", "", "9", "sm_100b", "sm_1200", "x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(tc_arch_parse(bad[i]), -1);
    assert_int_equal(tc_arch_parse(NULL), -1);
    assert_null(tc_arch_target(72));
}

/* An 'a' target runs on its own compute capability only; the others on any
 * later minor of their major (Xavier's 7.2 runs sm_70 code). */
static void each_gpu_runs_one_architecture(void **state)
{
    static const int cc[][2] = {{75, 75}, {80, 80}, {86, 86}, {87, 86}, {89, 89}, {90, 90}, {100, 100},
                                {103, 0}, {120, 120}, {121, 0}, {70, 70}, {72, 70}, {61, 0}, {110, 0}};
    for (size_t i = 0; i < sizeof cc / sizeof cc[0]; i++)
        if (tc_arch_of_device(cc[i][0]) != cc[i][1])
            fail_msg("compute capability %d: architecture %d, want %d", cc[i][0], tc_arch_of_device(cc[i][0]),
                     cc[i][1]);
}

static bool on(const char *name, int sm)
{
    const tc_instr *ins = tc_instr_by_name(name);
    assert_non_null(ins);
    return tc_instr_on_arch(ins, sm);
}

/* The facts the ISA tables state (and tools/isa-ptxas-check.py checks
 * against ptxas), read through the catalogue. */
static void architectures_have_what_the_isa_gives_them(void **state)
{
    assert_true(on("mma.m16n8k8.f32.f16.f16.f32", 75));
    assert_false(on("mma.m16n8k16.f32.f16.f16.f32", 75));
    assert_true(on("mma.m16n8k16.f32.f16.f16.f32", 80));
    assert_true(on("mma.m16n8k16.f32.bf16.bf16.f32", 86));
    assert_false(on("mma.m16n8k32.f32.e4m3.e4m3.f32", 86));
    assert_true(on("mma.m16n8k32.f32.e4m3.e4m3.f32", 89));
    assert_true(on("mma.m16n8k32.f32.e4m3.e4m3.f32", 120));
    assert_false(on("mma.m16n8k16.f64.f64.f64.f64", 89));
    assert_true(on("mma.m16n8k16.f64.f64.f64.f64", 90));
    assert_true(on("wgmma.m64n256k32.f32.e4m3.e4m3", 90));
    assert_false(on("wgmma.m64n256k32.f32.e4m3.e4m3", 100));
    assert_false(on("wgmma.m64n8k16.f16.f16.f16.rs", 120));
    assert_false(on("mma.sp.m16n8k16.f32.f16.f16.f32", 75));
    /* Volta: the f16 wmma, not Turing's m16n8k8 */
    assert_true(on("wmma.m16n16k16.f32.f16.f16.f32", 70));
    assert_true(on("wmma.m16n16k16.f16.f16.f16.f16", 70));
    assert_false(on("mma.m16n8k8.f32.f16.f16.f32", 70));
    assert_false(on("wmma.m16n16k16.f32.bf16.bf16.f32", 70));
    /* every catalogue instruction is on sm_90a (it is that GPU's catalogue),
     * and on no architecture before its sm_min */
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    static const int sms[] = {70, 75, 80, 86, 89, 90, 100, 120};
    for (size_t i = 0; i < n; i++) {
        assert_true(tc_instr_on_arch(&c[i], 90));
        for (int j = 0; j < 8; j++)
            if (sms[j] < c[i].sm_min && tc_instr_on_arch(&c[i], sms[j]))
                fail_msg("%s on sm %d, before its sm_min %d", c[i].name, sms[j], c[i].sm_min);
    }
    assert_false(tc_instr_on_arch(&c[0], 70));
    assert_false(tc_instr_on_arch(NULL, 90));
}

/* --arch on the recorded model: what sm_80 lacks is refused, naming sm_80. */
static void a_model_backend_keeps_to_its_architecture(void **state)
{
    char err[256], why[384] = "";
    tc_backend *b = tc_backend_open("model:h100", err, sizeof err);
    assert_non_null(b);
    const tc_instr *fp8 = tc_instr_by_name("mma.m16n8k32.f32.e4m3.e4m3.f32");
    const tc_instr *bf16 = tc_instr_by_name("mma.m16n8k16.f32.bf16.bf16.f32");
    assert_true(tc_backend_supports(b, fp8, why, sizeof why));
    tc_backend_set_arch(b, 80);
    assert_false(tc_backend_supports(b, fp8, why, sizeof why));
    assert_non_null(strstr(why, "not an instruction of sm_80"));
    assert_true(tc_backend_supports(b, bf16, why, sizeof why));
    uint64_t A[16 * 32] = {0}, B[32 * 8] = {0}, C[16 * 8] = {0}, D[16 * 8];
    assert_int_equal(tc_backend_mma(b, fp8, 1, A, B, C, D, err, sizeof err), -1);
    assert_non_null(strstr(err, "sm_80"));
    tc_backend_set_arch(b, 0);
    assert_true(tc_backend_supports(b, fp8, why, sizeof why));
    tc_backend_close(b);
}

static int lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* The command line: list --arch (header and one line per instruction),
 * run and audit --arch on the model refusing what the architecture lacks,
 * run on the V100's third-party profile saying so,
 * an unknown architecture, and --arch with the recorded model's name. */
static void the_cli_keeps_to_an_architecture(void **state)
{
    tc_run_result r = tc_run_clif("list --arch sm_80");
    assert_int_equal(r.status, 0);
    assert_int_equal(lines(r.out), 1 + 25);
    assert_null(strstr(r.out, "e4m3"));
    tc_run_result_free(&r);
    r = tc_run_clif("list --arch sm_89");
    assert_int_equal(lines(r.out), 1 + 37);
    tc_run_result_free(&r);
    r = tc_run_clif("list --arch sm_70");
    assert_int_equal(r.status, 0);
    assert_int_equal(lines(r.out), 1 + 2);
    assert_non_null(strstr(r.out, "wmma.m16n16k16.f32.f16.f16.f32"));
    tc_run_result_free(&r);
    /* Volta on the model: the V100 profile fitted to third-party rows, labelled so, with its undecided fields */
    r = tc_run_clif("run --backend model:v100 --arch sm_70 --instr wmma.m16n16k16.f32.f16.f16.f32 --a 1 --b 1 --c 0");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "THIRD-PARTY, NOT MEASURED"));
    assert_non_null(strstr(r.out, "undecided  a_convert"));
    tc_run_result_free(&r);
    r = tc_run_clif("run --backend model:v100 --arch sm_70 --instr mma.m16n8k8.f32.f16.f16.f32 --a 1 --b 1 --c 0");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "not an instruction of sm_70"));
    tc_run_result_free(&r);
    r = tc_run_clif("run --backend model:h100 --instr wmma.m16n16k16.f32.f16.f16.f32 --a 1 --b 1 --c 0");
    assert_null(strstr(r.out, "THIRD-PARTY"));
    tc_run_result_free(&r);
    r = tc_run_clif("list --arch sm_72");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "not an architecture tcscope builds"));
    tc_run_result_free(&r);
    r = tc_run_clif("run --backend model:h100 --arch sm_86 --instr mma.m16n8k32.f32.e4m3.e4m3.f32 --a 1 --b 1 --c 0");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "not an instruction of sm_86"));
    tc_run_result_free(&r);
    r = tc_run_clif("run --backend model:h100 --arch sm_89 --instr mma.m16n8k32.f32.e4m3.e4m3.f32 --a 1 --b 1 --c 0");
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    r = tc_run_clif("audit --backend model:h100 --arch sm_75 --instr mma.m16n8k16.f32.f16.f16.f32 --no-timing "
                    "--out /nonexistent/never-written");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "not an instruction of sm_75"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_parse_both_ways),
        cmocka_unit_test(each_gpu_runs_one_architecture),
        cmocka_unit_test(architectures_have_what_the_isa_gives_them),
        cmocka_unit_test(a_model_backend_keeps_to_its_architecture),
        cmocka_unit_test(the_cli_keeps_to_an_architecture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
