/* tcscope gemm's own wgmma kernel, what can be checked without a GPU: its
 * paths are listed beside the cuBLASLt ones, the instruction whose model
 * predicts each is the one the kernel source issues, the structure it has
 * by construction is recorded, the record says whether the inference
 * recovered it (yes on a simulated library built that way, no on one with
 * promotion or split-K), and the command exits 2 without a GPU or with an
 * unknown path. The kernel itself (probes/cuda/gemm_wgmma.cu) needs an
 * sm_90a GPU: tools/device.sh gemm runs it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cases/gemm.h"
#include "tests/gemm_testutil.h"
#include "probes/probes.h"
#include "tests/testutil.h"

#define PROFILE "oracle/profiles/h100.profile"
static const char *const own[] = {"tcscope-wgmma-f16", "tcscope-wgmma-e4m3"};

/* The own paths carry a kernel and a structure; cuBLASLt's carry neither.
 * The structure's chunk is the K of the path's instruction in the
 * catalogue, and the kernel source issues that instruction in its PTX form. */
static void test_own_paths_and_their_construction(void **state)
{
    (void)state;
    size_t np, nown = 0;
    const tc_gemm_path *p = tc_gemm_paths(&np);
    char *src = tc_slurp("probes/cuda/gemm_wgmma.cu");
    assert_non_null(src);
    for (size_t i = 0; i < np; i++) {
        bool is_own = !strncmp(p[i].name, "tcscope-", 8);
        assert_int_equal(p[i].kernel != NULL, is_own);
        assert_int_equal(p[i].built.chunk != 0, is_own);
        if (!is_own)
            continue;
        nown++;
        const tc_instr *ins = tc_instr_by_name(p[i].instr);
        assert_non_null(ins);
        assert_int_equal(p[i].built.chunk, ins->k);
        assert_int_equal(p[i].built.promote, 0);
        assert_int_equal(p[i].built.splitk, 1);
        assert_int_equal(p[i].built.combine, GEMM_COMBINE_SEQ);
        char ptx[128];   /* "wgmma.m64n128k16..." issued as "wgmma.mma_async.sync.aligned.m64n128k16..." */
        snprintf(ptx, sizeof ptx, "wgmma.mma_async.sync.aligned.%s ", p[i].instr + strlen("wgmma."));
        if (!strstr(src, ptx))
            fail_msg("%s: the kernel source does not issue %s", p[i].name, ptx);
    }
    assert_int_equal(nown, 2);
    for (int i = 0; i < 2; i++)
        assert_non_null(tc_gemm_path_by_name(own[i]));
    free(src);
}

/* One case of an own path on a simulated library with structure s: the
 * record's "structure" object (the record is returned for decref). */
static json_t *sim_case(const char *path, tc_gemm_struct s, int k, json_t **rec)
{
    char err[512];
    tc_gemm_lib lib;
    assert_int_equal(tc_gemm_lib_sim(&lib, PROFILE, &s, GEMM_IN_AS_UPLOADED, err, sizeof err), 0);
    tc_gemm_case c = {.m = 32, .n = 32, .k = k, .dist = SWEEP_NORMAL, .seed = 5, .samples = 100,
                      .infer = true, .profile = PROFILE};
    *rec = tc_gemm_case_record(&lib, tc_gemm_path_by_name(path), &c);
    tc_gemm_lib_sim_free(&lib);
    assert_null(json_object_get(*rec, "error"));
    return json_object_get(*rec, "structure");
}

/* A library built as the kernel is: the inference recovers the recorded
 * construction and predicts every sample. Built with promotion or with
 * split-K: the record says it does not match. */
static void test_record_says_whether_inference_recovers_the_construction(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        const tc_gemm_path *p = tc_gemm_path_by_name(own[i]);
        json_t *rec;
        json_t *st = sim_case(own[i], p->built, 1024, &rec);
        assert_string_equal(json_string_value(json_object_get(rec, "library")), "sim");
        assert_null(json_object_get(rec, "algo"));   /* no cuBLASLt heuristic behind an own kernel */
        json_t *bc = json_object_get(rec, "structure_by_construction");
        assert_int_equal(json_integer_value(json_object_get(bc, "chunk")), p->built.chunk);
        assert_true(json_is_null(json_object_get(bc, "promote")));
        assert_int_equal(json_integer_value(json_object_get(bc, "splitk")), 1);
        assert_true(json_is_true(json_object_get(st, "consistent")));
        assert_true(json_is_true(json_object_get(st, "matches_construction")));
        assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "prediction"), "bit_exact")), 100);
        json_decref(rec);

        tc_gemm_struct promoted = p->built, split = p->built;
        promoted.promote = 128;
        split.splitk = 2;
        st = sim_case(own[i], promoted, 1024, &rec);
        assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "inferred"), "promote")), 128);
        assert_true(json_is_false(json_object_get(st, "matches_construction")));
        json_decref(rec);
        /* two split-K slices met in K order read as runs of K/2 (tests/test_gemm.c: the same bits) */
        st = sim_case(own[i], split, 1024, &rec);
        assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "inferred"), "promote")), 512);
        assert_true(json_is_false(json_object_get(st, "matches_construction")));
        json_decref(rec);
    }
    /* a cuBLASLt path has no construction to match */
    json_t *rec;
    json_t *st = sim_case("f16", (tc_gemm_struct){16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, 256, &rec);
    assert_null(json_object_get(st, "matches_construction"));
    assert_null(json_object_get(rec, "structure_by_construction"));
    assert_non_null(json_object_get(rec, "algo"));
    json_decref(rec);
}

static void test_cli(void **state)
{
    (void)state;
#if !TC_HAVE_CUDA
    tc_run_result r = tc_run_cli("gemm --path tcscope-wgmma-f16 --k 64");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no GPU ("));
    tc_run_result_free(&r);
#endif
    tc_run_result u = tc_run_cli("gemm --path tcscope-wgmma-bf16");
    assert_int_equal(u.status, 2);
    assert_non_null(strstr(u.err, "unknown --path 'tcscope-wgmma-bf16'"));
    assert_non_null(strstr(u.err, "tcscope-wgmma-e4m3"));
    tc_run_result_free(&u);
    u = tc_run_cli("gemm --help");
    assert_int_equal(u.status, 0);
    assert_non_null(strstr(u.out, "tcscope-wgmma-f16"));
    tc_run_result_free(&u);
    /* "all" takes the own paths too; the self-test runs them end to end */
    u = tc_run_cli("gemm --backend model:h100 --m 32 --n 32 --k 256 --samples 20 --json");
    assert_int_equal(u.status, 0);
    int seen = 0;
    for (const char *line = u.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        json_t *rec = json_loads(line, JSON_DISABLE_EOF_CHECK, NULL);
        assert_non_null(rec);
        const char *path = json_string_value(json_object_get(rec, "path"));
        if (path && !strncmp(path, "tcscope-wgmma-", 14)) {
            seen++;
            json_t *st = json_object_get(rec, "structure");
            assert_true(json_is_true(json_object_get(st, "matches_construction")));
        }
        json_decref(rec);
    }
    assert_int_equal(seen, 2);
    tc_run_result_free(&u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_paths_and_their_construction),
        cmocka_unit_test(test_record_says_whether_inference_recovers_the_construction),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
