/* Backends through the library and the CLI: exact and model agree where the
 * model is set to exact, the exact chains equal values computed by a second
 * method (tools/chain_expect.py), bad input exits 2, and
 * a GPU backend that cannot be had says why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model.h"
#include "oracle/oracle.h"
#include "oracle/profile.h"
#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "tests/corpus_lines.h"
#include "tests/exact_profile.h"
#include "tests/record_out.h"
#include "tests/testutil.h"

static const char *const some[] = {"mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k32.f16.e4m3.e5m2.f16",
                                   "mma.m16n8k8.f32.tf32.tf32.f32", "wgmma.m64n16k16.f32.bf16.bf16.rs"};

static char profile_path[64];

/* A profile holding the exact parameters for a few instructions. */
static int write_exact_profile(void **state)
{
    snprintf(profile_path, sizeof profile_path, "/tmp/tcs-profile-%d.txt", (int)getpid());
    char err[256];
    return tc_write_exact_profile(profile_path, some, sizeof some / sizeof some[0], err, sizeof err);
}

static int remove_profile(void **state)
{
    unlink(profile_path);
    return 0;
}

static void model_with_exact_profile_matches_exact_backend(void **state)
{
    char err[384], spec[96];
    snprintf(spec, sizeof spec, "model:%s", profile_path);
    tc_backend *m = tc_backend_open(spec, err, sizeof err);
    if (!m)
        fail_msg("%s", err);
    tc_backend *e = tc_backend_open("exact", err, sizeof err);
    assert_non_null(e);
    for (size_t i = 0; i < sizeof some / sizeof some[0]; i++) {
        const tc_instr *ins = tc_instr_by_name(some[i]);
        assert_true(tc_backend_supports(m, ins, err, sizeof err));
        size_t nt = tc_corpus_tiles(ins, 2000);
        size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
        uint64_t *A = malloc(nt * mk * 8), *B = malloc(nt * kn * 8), *C = malloc(nt * mn * 8);
        uint64_t *D1 = malloc(nt * mn * 8), *D2 = malloc(nt * mn * 8);
        tc_corpus_inputs(ins, nt, 3, A, B, C);
        assert_int_equal(tc_backend_mma(m, ins, nt, A, B, C, D1, err, sizeof err), 0);
        assert_int_equal(tc_backend_mma(e, ins, nt, A, B, C, D2, err, sizeof err), 0);
        assert_memory_equal(D1, D2, nt * mn * 8);
        free(A), free(B), free(C), free(D1), free(D2);
    }
    /* an instruction the profile lacks is refused with its name */
    const tc_instr *other = tc_instr_by_name("mma.m16n8k8.f16.f16.f16.f16");
    assert_false(tc_backend_supports(m, other, err, sizeof err));
    assert_non_null(strstr(err, other->name));
    tc_backend_close(m);
    tc_backend_close(e);
}

/* Reads n hex numbers after the line naming them. */
static void read_hex(FILE *f, const char *name, uint64_t *v, size_t n)
{
    char word[32];
    if (fscanf(f, "%31s", word) != 1 || strcmp(word, name))
        fail_msg("tests/data/chain/exact-bf16-rz.txt: no section %s", name);
    for (size_t i = 0; i < n; i++)
        if (fscanf(f, "%" SCNx64, &v[i]) != 1)
            fail_msg("tests/data/chain/exact-bf16-rz.txt: section %s short at %zu", name, i);
}

/* The exact backend's chains against values computed by a second method
 * (tools/chain_expect.py: Python Fractions and the IEEE rules written out
 * there): every step's D the exact sum rounded once to f32 (RNE), every next
 * input D converted to bf16 toward zero. */
static void exact_chain_matches_an_independent_computation(void **state)
{
    char err[384];
    tc_backend *e = tc_backend_open("exact", err, sizeof err);
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.bf16.bf16.f32");
    FILE *f = fopen("tests/data/chain/exact-bf16-rz.txt", "r");
    assert_non_null(f);
    char line[256];
    while (fgets(line, sizeof line, f) && line[0] == '#')
        ;
    size_t nch, M, K;
    int len;
    assert_int_equal(sscanf(line, "%zu %d %zu %zu", &nch, &len, &M, &K), 4);
    assert_true(M == (size_t)ins->m && K == (size_t)ins->k);
    size_t steps = nch * (size_t)len;
    uint64_t *A0 = malloc(nch * M * K * 8), *B = malloc(steps * K * K * 8), *C = malloc(steps * M * K * 8);
    uint64_t *Xw = malloc(steps * M * K * 8), *Dw = malloc(steps * M * K * 8);
    uint64_t *X = malloc(steps * M * K * 8), *D = malloc(steps * M * K * 8);
    read_hex(f, "A0", A0, nch * M * K);
    read_hex(f, "B", B, steps * K * K);
    read_hex(f, "C", C, steps * M * K);
    read_hex(f, "X", Xw, steps * M * K);
    read_hex(f, "D", Dw, steps * M * K);
    fclose(f);
    tc_rounding rz = {.mode = TC_RZ, .ovf = TC_OVF_SAT};
    assert_int_equal(tc_backend_chain(e, ins, nch, len, A0, B, C, rz, X, D, err, sizeof err), 0);
    for (size_t i = 0; i < steps * M * K; i++)
        if (X[i] != Xw[i] || D[i] != Dw[i])
            fail_msg("chain %zu step %zu element %zu: X 0x%llx D 0x%llx, independently X 0x%llx D 0x%llx",
                     i / (M * K) / (size_t)len, i / (M * K) % (size_t)len, i % (M * K), (unsigned long long)X[i],
                     (unsigned long long)D[i], (unsigned long long)Xw[i], (unsigned long long)Dw[i]);
    free(A0), free(B), free(C), free(Xw), free(Dw), free(X), free(D);
    tc_backend_close(e);
}

/* A cvt the GPU has into A's format: the i-th of those tried, in turn. */
static tc_rounding chain_cvt_for(const tc_instr *ins, size_t i)
{
    static const tc_rounding f16[] = {{.mode = TC_RZ, .ovf = TC_OVF_SAT},
                                      {.mode = TC_RD, .ovf = TC_OVF_INF},
                                      {.mode = TC_RNE, .ovf = TC_OVF_INF},
                                      {.mode = TC_RU, .ovf = TC_OVF_INF}},
                             bf16[] = {{.mode = TC_RNE, .ovf = TC_OVF_INF}, {.mode = TC_RZ, .ovf = TC_OVF_SAT}},
                             tf32[] = {{.mode = TC_RNA, .ovf = TC_OVF_SAT},
                                       {.mode = TC_RZ, .ovf = TC_OVF_INF},
                                       {.mode = TC_RNE, .ovf = TC_OVF_INF}},
                             fp8[] = {{.mode = TC_RNE, .ovf = TC_OVF_SAT}};
    if (ins->a == ins->d) /* nothing to convert: a saturating cvt would not be the identity */
        return (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF};
    if (ins->a == &tc_f16)
        return f16[i % 4];
    if (ins->a == &tc_bf16)
        return bf16[i % 2];
    if (ins->a == &tc_tf32)
        return tf32[i % 3];
    return fp8[0]; /* FP8, and f64 (no conversion) */
}

/* On a GPU, every dense floating-point instruction: the on-GPU chain equals
 * its own steps replayed with plain MMAs on the GPU (column blocks where N
 * is not K), and each next input is the previous output rounded by the
 * GPU's cvt, equal to tc_encode with the same rounding. */
static void gpu_chain_matches_its_own_steps(void **state)
{
    char err[384];
    tc_backend *g = tc_backend_open("gpu", err, sizeof err);
    if (!g) { /* no GPU here: the refusal must say why, and the test is a skip, not a pass */
#if !TC_HAVE_CUDA
        assert_string_equal(err, "no GPU backend: built without nvcc");
#else
        assert_non_null(strstr(err, "GPU"));
#endif
        print_message("no GPU, chains not run: %s\n", err);
        skip();
    }
    size_t ncat, tried[4] = {0}; /* per A format, so that each sees all its roundings */
    const tc_instr *cat = tc_catalogue(&ncat);
    for (size_t i = 0; i < ncat; i++) {
        const tc_instr *ins = &cat[i];
        if (ins->sparse || tc_format_is_int(ins->a))
            continue;
        size_t fi = ins->a == &tc_f16 ? 0 : ins->a == &tc_bf16 ? 1 : ins->a == &tc_tf32 ? 2 : 3;
        tc_rounding r = chain_cvt_for(ins, ins->a == ins->d ? 0 : tried[fi]++);
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        tc_chain_rec rec;
        if (tc_chain_line(g, ins, 64, 6, r, 21 + i, NULL, &rec, f, err, sizeof err))
            fail_msg("%s: %s", ins->name, err);
        fclose(f);
        free(buf);
        size_t dm = 0, xm = 0, xnan = 0;
        if (tc_chain_check(g, &rec, &dm, &xm, &xnan, err, sizeof err))
            fail_msg("%s: %s", ins->name, err);
        print_message("%-40s cvt %s/%s: 64 chains x 6 steps, D mismatches %zu, X mismatches %zu, X NaN patterns "
                      "%zu\n",
                      ins->name, tc_round_name(r.mode), tc_overflow_name(r.ovf), dm, xm, xnan);
        assert_int_equal(dm, 0);
        assert_int_equal(xm, 0);
        tc_chain_rec_free(&rec);
    }
    /* a cvt the ISA lacks is refused with a message, not emulated */
    const tc_instr *f8 = tc_instr_by_name("mma.m16n8k32.f32.e4m3.e4m3.f32");
    uint64_t one[16 * 32] = {0}, bb[32 * 32] = {0}, xo[16 * 32], dd[16 * 32];
    tc_rounding rz = {.mode = TC_RZ, .ovf = TC_OVF_SAT};
    assert_int_equal(tc_backend_chain(g, f8, 1, 1, one, bb, NULL, rz, xo, dd, err, sizeof err), -1);
    assert_non_null(strstr(err, "no cvt"));
    /* a sparse instruction has no chain, and says why */
    const tc_instr *sp = tc_instr_by_name("mma.sp.m16n8k32.f32.f16.f16.f32");
    assert_int_equal(tc_backend_chain(g, sp, 1, 1, one, bb, NULL, rz, xo, dd, err, sizeof err), -1);
    assert_non_null(strstr(err, "2:4"));
    tc_backend_close(g);
}

static void bad_backends_are_named(void **state)
{
    char err[384];
    assert_null(tc_backend_open("gpx", err, sizeof err));
    assert_non_null(strstr(err, "unknown backend 'gpx'"));
    assert_null(tc_backend_open("model:no-such-profile", err, sizeof err));
    assert_non_null(strstr(err, "no-such-profile"));
    assert_null(tc_backend_open("gpu:x", err, sizeof err));
    tc_backend *g = tc_backend_open("gpu", err, sizeof err);
    if (g) { /* on a GPU machine: it must run the plain f16 instruction */
        assert_true(tc_backend_supports(g, tc_instr_by_name(some[0]), err, sizeof err));
        tc_backend_close(g);
    } else {
#if !TC_HAVE_CUDA
        assert_string_equal(err, "no GPU backend: built without nvcc");
#else
        assert_true(strlen(err) > 10);
#endif
    }
}

/* An empty batch runs nothing and succeeds on every backend (it crashed the
 * model's tile path once: an audit asked zero given counterexamples). */
static void zero_tiles_run_nothing(void **state)
{
    const char *specs[] = {"exact", "model:h100", "gpu"};
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k32.f16.e4m3.e5m2.f16");
    uint64_t A[1] = {0}, B[1] = {0}, C[1] = {0}, D[1] = {0x1234};
    int opened = 0;
    for (int i = 0; i < 3; i++) {
        char err[384];
        tc_backend *b = tc_backend_open(specs[i], err, sizeof err);
        if (!b)
            continue; /* no GPU here */
        opened++;
        assert_int_equal(tc_backend_mma(b, ins, 0, A, B, C, D, err, sizeof err), 0);
        assert_int_equal(tc_backend_mma(b, ins, 0, A, B, NULL, D, err, sizeof err), 0);
        assert_int_equal(D[0], 0x1234); /* nothing written */
        tc_backend_close(b);
    }
    assert_true(opened >= 2);
}

static void sparse_input_must_be_2_4(void **state)
{
    char err[384];
    tc_backend *e = tc_backend_open("exact", err, sizeof err);
    const tc_instr *ins = tc_instr_by_name("mma.sp.m16n8k32.f32.f16.f16.f32");
    size_t mk = 16 * 32, kn = 32 * 8, mn = 16 * 8;
    uint64_t *A = calloc(mk, 8), *B = calloc(kn, 8), *D = calloc(mn, 8);
    A[0] = A[1] = 0x3c00;
    assert_int_equal(tc_backend_mma(e, ins, 1, A, B, NULL, D, err, sizeof err), 0);
    /* Only the kept terms are summed, as the hardware does: an Inf of B
     * behind a dropped zero of A does not make the result NaN. */
    B[2 * 8 + 0] = 0x7c00;   /* B[2][0] = Inf; A[0][2] = 0 is dropped */
    B[0 * 8 + 0] = 0x4000;   /* B[0][0] = 2 */
    assert_int_equal(tc_backend_mma(e, ins, 1, A, B, NULL, D, err, sizeof err), 0);
    assert_int_equal(D[0], 0x40000000);   /* 1*2 + 1*B[1][0] (0) = 2.0f */
    B[2 * 8 + 0] = B[0] = 0;
    A[3] = 0x3c00; /* three nonzeros in columns 0..3 */
    assert_int_equal(tc_backend_mma(e, ins, 1, A, B, NULL, D, err, sizeof err), -1);
    assert_non_null(strstr(err, "2:4"));
    A[3] = 0x13c00; /* not an f16 pattern */
    assert_int_equal(tc_backend_mma(e, ins, 1, A, B, NULL, D, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a f16 bit pattern"));
    free(A), free(B), free(D);
    tc_backend_close(e);
}

static void cli_run_exact_gives_oracle_value(void **state)
{
    /* An operand the format cannot hold (2^-30 in f16) is refused, not rounded away. */
    tc_run_result r = tc_run_cli("run --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 --a 1,2,3 "
                                 "--b 0.5,0.25,0x1p-30 --c bits:0x3a83126f --json");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "'0x1p-30' is not representable in f16"));
    tc_run_result_free(&r);
    r = tc_run_cli("run --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 --a 1,2,3 "
                   "--b 0.5,0.25,0x1p-24 --c bits:0x3a83126f --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"instr\":\"mma.m16n8k16.f32.f16.f16.f32\""));
    /* By hand, in exact rationals: C = 0x3a83126f = 0x1.0624dep-10, and
     * 1/2 + 1/2 + 3*2^-24 + C = 8598526063 / 2^33 = 1 + 8390.1083984375 * 2^-23.
     * In f32 ulps at 1 (2^-23) the fraction is 8390 + 0.1083984375, so RNE
     * keeps 8390 = 0x20c6: D = 0x3f800000 + 0x20c6 = 0x3f8020c6 (0x1.00418cp+0),
     * the exact value is 0x1.00418c378p+0, D - exact = -0.1083984375 ulp. */
    assert_non_null(strstr(r.out, "\"d\":\"0x3f8020c6\""));
    assert_non_null(strstr(r.out, "\"exact\":\"0x1.00418c378p+0\""));
    assert_non_null(strstr(r.out, "\"err_ulps\":-0.1083984375"));
    json_t *runs = tc_out_objects(r.out, "run --json", "run"); /* a record of one run object */
    assert_int_equal(json_array_size(runs), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 0), "d")), "0x3f8020c6");
    json_decref(runs);
    tc_run_result_free(&r);
    r = tc_run_cli("run --backend exact --instr mma.m16n8k32.s32.s8.s8.s32 --a 127,-128 --b 127,127 --c -5 --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"d\":\"0xffffff7c\"")); /* 127*127 - 128*127 - 5 = -132 */
    assert_non_null(strstr(r.out, "\"exact\":\"-0x1.08p+7\""));
    tc_run_result_free(&r);
}

static void cli_bad_input_exits_two(void **state)
{
    static const char *const bad[] = {
        "run --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 --a 1,x --b 1 --c 0",
        "run --backend exact --instr mma.nope --a 1 --b 1 --c 0",
        "run --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 --a 1 --b 1",
        "run --backend exact --instr mma.m16n8k8.f32.tf32.tf32.f32 --a 1,2,3,4,5,6,7,8,9 --b 1 --c 0",
        "run --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 --a 1,,2 --b 1 --c 0",
        "run --backend bogus --instr mma.m16n8k16.f32.f16.f16.f32 --a 1 --b 1 --c 0",
        "run --backend exact --instr mma.m16n8k16.f32.f16.f16.f32 --a bits:0x10000 --b 1 --c 0",
        "run --backend exact --instr all --random 0",
        "list --backend nope",
        "list --frob",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tc_run_result r = tc_run_cli(bad[i]);
        if (r.status != 2 || !strstr(r.err, "tcscope") || strchr(r.err, '\n') != r.err + strlen(r.err) - 1)
            fail_msg("'%s': status %d, stderr '%s'", bad[i], r.status, r.err);
        tc_run_result_free(&r);
    }
}

/* Without a usable GPU, the CLI refuses the GPU backend with the library's
 * one-line reason and exit 2 (on a GPU machine the run must succeed). */
static void cli_gpu_backend_refusal_or_run(void **state)
{
    char err[384];
    tc_backend *g = tc_backend_open("gpu", err, sizeof err);
    tc_run_result r = tc_run_cli("run --backend gpu --instr mma.m16n8k16.f32.f16.f16.f32 --a 1,2 --b 3,4 --c 0.5");
    if (g) {
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "0x41380000")); /* 1*3 + 2*4 + 0.5 = 11.5, exact in f32 */
        tc_backend_close(g);
    } else {
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, err));
    }
    tc_run_result_free(&r);
}

static void cli_list_shows_catalogue_and_backend(void **state)
{
    size_t n;
    tc_catalogue(&n);
    tc_run_result r = tc_run_cli("list --json");
    assert_int_equal(r.status, 0);
    json_t *instrs = tc_out_objects(r.out, "list --json", "instr"); /* one object per instruction */
    assert_int_equal(json_array_size(instrs), n);
    json_decref(instrs);
    assert_non_null(strstr(r.out, "\"instr\":\"wgmma.m64n256k32.f32.e4m3.e4m3\""));
    tc_run_result_free(&r);
    r = tc_run_cli("list --backend exact --json");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "\"supported\":true"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(model_with_exact_profile_matches_exact_backend, write_exact_profile,
                                        remove_profile),
        cmocka_unit_test(exact_chain_matches_an_independent_computation),
        cmocka_unit_test(gpu_chain_matches_its_own_steps),
        cmocka_unit_test(bad_backends_are_named),
        cmocka_unit_test(zero_tiles_run_nothing),
        cmocka_unit_test(sparse_input_must_be_2_4),
        cmocka_unit_test(cli_run_exact_gives_oracle_value),
        cmocka_unit_test(cli_bad_input_exits_two),
        cmocka_unit_test(cli_gpu_backend_refusal_or_run),
        cmocka_unit_test(cli_list_shows_catalogue_and_backend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
