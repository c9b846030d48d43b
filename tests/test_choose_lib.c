/* tcscope choose for an application with library GEMM paths as candidates,
 * on the committed H100 gemm record (reports/baselines/h100-gemm.packed.xz).
 * What each candidate must carry is checked against the record as this
 * test reads it itself (reports/record_gemm.h, the gemm records' reader):
 * the throughput is the record's timing.tflops at the recorded shape
 * nearest in shape (log M*N + log K), the structure the record's inferred one at the nearest
 * K; the ranking follows those throughputs among the paths meeting the
 * bound; a path over the bound, an untrusted structure and a K outside the
 * recorded range are never ranked. Small samples (--outputs 8) keep it short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "reports/record_gemm.h"
#include "reports/reports.h"
#include "tests/record_out.h"
#include "tests/testutil.h"

#define RECORD "reports/baselines/h100-gemm.packed.xz"
#define APP "--m 256 --n 256 --outputs 8 --backend model:h100 "

static json_t *choose(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "choose --json %s", args);
    tc_run_result r = tc_run_cli(cmd);
    if (r.status != 0)
        fail_msg("%s: status %d, stderr %s", cmd, r.status, r.err);
    json_t *out = tc_out_objects(r.out, cmd, "choice");
    tc_run_result_free(&r);
    return out;
}

/* The K = 4096 run two tests read (run once: the evaluation is the cost). */
static json_t *k4096(void)
{
    static json_t *ch;
    if (!ch)
        ch = choose(APP "--k 4096 --metric p90 --max-rel-err 0.05");
    return json_incref(ch);
}

static const char *str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static double num(const json_t *o, const char *k)
{
    return tc_json_number(json_object_get(o, k));
}

static const json_t *lib(const json_t *choices, const char *path)
{
    size_t i;
    json_t *c;
    json_array_foreach(choices, i, c) if (!strcmp(str(c, "source"), "library") && !strcmp(str(c, "path"), path))
        return c;
    fail_msg("no library candidate %s", path);
    return NULL;
}

static json_t *records(void)
{
    char err[512];
    json_t *r = tc_gemm_records_load(RECORD, NULL, err, sizeof err);
    if (!r)
        fail_msg("%s", err);
    return r;
}

/* The record of path at m x n x k, or NULL. */
static const json_t *rec_at(const json_t *recs, const char *path, long long m, long long n, long long k)
{
    size_t i;
    json_t *r;
    json_array_foreach(recs, i, r) if (!strcmp(str(r, "path"), path) && num(r, "m") == m && num(r, "n") == n &&
                                       num(r, "k") == k && !json_object_get(r, "skipped")) return r;
    return NULL;
}

/* Throughput: the candidate's figure is the record's at the shape it names,
 * and no timed record of the path is nearer in shape (|log MN/MN'| +
 * |log K/K'|). Ranking: every
 * ranked candidate meets the bound, and a faster one ranks above a slower. */
static void test_ranked_by_recorded_library_tflops(void **state)
{
    (void)state;
    const double bound = 0.05;
    json_t *ch = k4096(), *recs = records();
    size_t i, j, ranked = 0;
    json_t *c, *d;
    const double want_mn = log(256.0 * 256), want_k = log(4096.0);
    json_array_foreach(ch, i, c)
    {
        if (strcmp(str(c, "source"), "library") || !json_object_get(c, "tflops_shape"))
            continue;
        const json_t *sh = json_object_get(c, "tflops_shape");
        const json_t *r = rec_at(recs, str(c, "path"), (long long)num(sh, "m"), (long long)num(sh, "n"),
                                 (long long)num(sh, "k"));
        assert_non_null(r);
        assert_true(num(c, "tflops") == tc_json_number(json_object_get(json_object_get(r, "timing"), "tflops")));
        double got = fabs(log(num(sh, "m") * num(sh, "n")) - want_mn) + fabs(log(num(sh, "k")) - want_k);
        json_t *x;
        json_array_foreach(recs, j, x) if (!strcmp(str(x, "path"), str(c, "path")) &&
                                           num(json_object_get(x, "timing"), "tflops") > 0)
            assert_true(got <= fabs(log(num(x, "m") * num(x, "n")) - want_mn) + fabs(log(num(x, "k")) - want_k));
        if (json_is_integer(json_object_get(c, "rank"))) {
            ranked++;
            assert_true(num(c, "error") <= bound);
        }
    }
    assert_true(ranked >= 2);   /* else the order below proves nothing */
    json_array_foreach(ch, i, c) json_array_foreach(ch, j, d)
    {
        if (!json_is_integer(json_object_get(c, "rank")) || !json_is_integer(json_object_get(d, "rank")))
            continue;
        if (num(c, "tflops") > num(d, "tflops"))
            assert_true(json_integer_value(json_object_get(c, "rank")) <
                        json_integer_value(json_object_get(d, "rank")));
    }
    /* Instruction chains are listed for comparison, never ranked beside the library paths. */
    json_array_foreach(ch, i, c) if (strcmp(str(c, "source"), "library"))
        assert_false(json_is_integer(json_object_get(c, "rank")));
    json_decref(ch), json_decref(recs);
}

/* Each path's error comes from its own recorded structure: e4m3 (FP32
 * promotion every 128) and e4m3-fast (no promotion at 256x256x4096) use
 * what the record inferred, and the promoted one adds less error to the
 * rounded inputs. FP8's input rounding puts both over the bound: not ranked. */
static void test_error_from_each_paths_structure(void **state)
{
    (void)state;
    json_t *ch = k4096(), *recs = records();
    const char *paths[] = {"e4m3", "e4m3-fast"};
    for (int p = 0; p < 2; p++) {
        const json_t *c = lib(ch, paths[p]), *sf = json_object_get(c, "structure_from");
        assert_int_equal(num(sf, "k"), 4096);
        assert_int_equal(num(sf, "m"), 256);   /* of the two K = 4096 records, the one nearest in M*N */
        const json_t *r = rec_at(recs, paths[p], 256, 256, 4096);
        const json_t *in = json_object_get(json_object_get(r, "structure"), "inferred");
        char want[96];
        json_int_t pr = json_integer_value(json_object_get(in, "promote"));
        snprintf(want, sizeof want, "chunk %lld, promote ", (long long)json_integer_value(json_object_get(in, "chunk")));
        assert_non_null(strstr(str(c, "strategy"), want));
        if (pr)
            snprintf(want, sizeof want, "promote %lld,", (long long)pr);
        assert_non_null(strstr(str(c, "strategy"), pr ? want : "promote none"));
        assert_true(num(c, "error") > 0.05);
        assert_false(json_is_integer(json_object_get(c, "rank")));
        assert_non_null(strstr(str(c, "reason"), "> bound"));
    }
    assert_true(num(lib(ch, "e4m3"), "error_vs_rounded") < num(lib(ch, "e4m3-fast"), "error_vs_rounded"));
    assert_true(strcmp(str(lib(ch, "e4m3"), "strategy"), str(lib(ch, "e4m3-fast"), "strategy")));
    json_decref(ch), json_decref(recs);
}

/* K = 8 is below every recorded K (16 and up): each evaluated path says so and none is ranked. */
static void test_k_outside_recorded_range(void **state)
{
    (void)state;
    json_t *ch = choose(APP "--k 8 --metric p90 --max-rel-err 0.5");
    size_t i, n = 0;
    json_t *c;
    json_array_foreach(ch, i, c) if (!strcmp(str(c, "source"), "library") && json_object_get(c, "structure_from"))
    {
        n++;
        assert_false(json_is_integer(json_object_get(c, "rank")));
        assert_non_null(strstr(str(c, "structure_note"), "outside the recorded K range"));
    }
    assert_true(n >= 8);
    json_decref(ch);
}

/* A structure that does not predict the library's outputs is labelled with
 * its rate and never ranked: the f16 records of K = 1024 copied into a
 * tcscope-record/1 (the format `gemm --json` writes), one of them marked
 * not consistent with prediction rate 0.25. */
static void test_untrusted_structure_labelled(void **state)
{
    (void)state;
    json_t *recs = records();
    char path[] = "/tmp/tcs-gemmrecXXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    json_t *h = tc_record_header("gemm", NULL, NULL, 0);
    char *hl = json_dumps(h, JSON_COMPACT);
    fprintf(f, "%s\n", hl);
    free(hl);
    json_decref(h);
    int n = 0;
    const char *paths[] = {"f16", "bf16"};
    for (int p = 0; p < 2; p++) {
        json_t *r = json_deep_copy(rec_at(recs, paths[p], 256, 256, 1024));
        assert_non_null(r);
        json_object_del(r, "record");
        json_object_del(r, "version");
        json_object_set_new(r, "kind", json_string("gemm"));
        if (p == 0) {
            json_t *st = json_object_get(r, "structure");
            json_object_set_new(st, "consistent", json_false());
            json_object_set_new(json_object_get(st, "prediction"), "rate", json_real(0.25));
        }
        char *line = json_dumps(r, JSON_COMPACT);
        fprintf(f, "%s\n", line);
        free(line);
        json_decref(r);
        n++;
    }
    fprintf(f, "{\"kind\":\"end\",\"objects\":%d}\n", n);
    fclose(f);
    char args[512];
    snprintf(args, sizeof args, APP "--k 1024 --metric p90 --max-rel-err 0.5 --gemm-records %s", path);
    json_t *ch = choose(args);
    const json_t *bad = lib(ch, "f16"), *good = lib(ch, "bf16");
    assert_false(json_is_integer(json_object_get(bad, "rank")));
    assert_non_null(strstr(str(bad, "reason"), "0.25"));
    assert_non_null(strstr(str(bad, "reason"), "not trusted"));
    assert_true(json_is_integer(json_object_get(good, "rank")));   /* the same data, trusted: ranked */
    json_decref(ch);
    json_t *only = choose(APP "--k 64 --no-library");
    size_t i;
    json_t *c;
    json_array_foreach(only, i, c) assert_true(strcmp(str(c, "source"), "library"));
    json_decref(only);
    tc_run_result r = tc_run_cli("choose " APP "--k 64 --gemm-records /nonexistent/x.jsonl");
    assert_int_equal(r.status, 2);
    tc_run_result_free(&r);
    unlink(path);
    json_decref(recs);
}

/* Over 10^6 outputs only the library paths are evaluated, on the GPU model
 * with exact references on the GPU: refused with --no-library, and (here,
 * with no GPU) without a GPU model; each library choice names where its
 * outputs and references were computed. */
static void test_every_output_needs_the_gpu(void **state)
{
    (void)state;
    tc_run_result r = tc_run_cli("choose --m 2048 --n 2048 --k 16 --outputs 2048 --no-library");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--no-library leaves none"));
    tc_run_result_free(&r);
    json_t *ch = choose(APP "--k 64");
    size_t i, lib = 0;
    bool gpu = false;
    json_t *c;
    json_array_foreach(ch, i, c) if (json_object_get(c, "model_on"))
    {
        lib++;
        gpu |= strncmp(str(c, "model_on"), "gpu", 3) == 0;
        assert_string_equal(str(c, "references_on"), str(c, "model_on"));
        json_t *n = json_object_get(c, "model_outputs");
        assert_int_equal(json_integer_value(json_object_get(n, "gpu")) + json_integer_value(json_object_get(n, "cpu")),
                         64);   /* --outputs 8: 8 x 8 */
    }
    assert_true(lib > 0);
    json_decref(ch);
    if (gpu)
        return;   /* a GPU model opens here: the every-output run is the device task's (tools/device/gemm-gpu.sh) */
    r = tc_run_cli("choose --m 2048 --n 2048 --k 16 --outputs 2048 --max-rel-err 1%");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no GPU model opens here"));
    tc_run_result_free(&r);
}

/* The page names the source of each library throughput: record file, path, shape. */
static void test_report_names_throughput_source(void **state)
{
    (void)state;
    char cmd[512], page[300];
    snprintf(cmd, sizeof cmd, "choose " APP "--k 64 --max-rel-err 0.5 --sweep-k 16 --report %s/rep", tc_tmp_root());
    tc_run_result r = tc_run_cli(cmd);
    if (r.status)
        fail_msg("%s: status %d: %s", cmd, r.status, r.err);
    tc_run_result_free(&r);
    snprintf(page, sizeof page, "%s/rep/choose.html", tc_tmp_root());
    char *html = tc_slurp(page);
    /* 256x256x64 is itself recorded for every path: the nearest shape is it */
    assert_non_null(strstr(html, "h100-gemm.packed.xz: f16 at 256x256x64 (timing.tflops, measured)"));
    assert_non_null(strstr(html, "h100-gemm.packed.xz: e4m3-fast at 256x256x64 (timing.tflops, measured)"));
    free(html);
}

/* The H200 framework record for PyTorch (issue 27's choose run): every
 * structure evaluated is an H200 call's, predicted with the H200 profile
 * (the one whose [about] device is the record's GPU), its rate a number;
 * no TFLOP/s is borrowed from the H100 record (probe records have none:
 * "not timed", and nothing is ranked by speed); the FP32 call without TF32
 * is no structure of the tf32 path (refused, its reason given), the tf32
 * path's is the TF32 call's; the header names both records' GPUs. */
#define H200 "--gemm-records reports/baselines/h200-frameworks.jsonl.gz," RECORD " --gpu H200 --caller torch "
static void test_h200_framework_record_for_torch(void **state)
{
    (void)state;
    json_t *ch = choose(APP "--k 1024 --metric p90 --max-rel-err 0.01 " H200);
    size_t i, evaluated = 0;
    json_t *c;
    bool tf32 = false, refused = false;
    json_array_foreach(ch, i, c)
    {
        if (strcmp(str(c, "source"), "library"))
            continue;
        const json_t *sf = json_object_get(c, "structure_from");
        assert_null(strstr(str(c, "reason"), "nan"));
        assert_true(json_is_null(json_object_get(c, "tflops")));   /* no H200 torch record is timed */
        assert_string_equal(str(c, "tflops_from"), "not timed");
        assert_false(json_is_integer(json_object_get(c, "rank")));
        if (strstr(str(c, "reason"), "the call torch-matmul-f32 used no tensor-core step"))
            refused = true;
        if (!sf)
            continue;
        evaluated++;
        assert_string_equal(str(sf, "gpu"), "NVIDIA H200");
        assert_true(strncmp(str(sf, "caller"), "torch-", 6) == 0);
        const char *prof = str(sf, "profile");
        assert_true(strlen(prof) > 13 && !strcmp(prof + strlen(prof) - 13, "/h200.profile"));
        assert_true(json_is_number(json_object_get(sf, "prediction_rate")));
        if (!strcmp(str(c, "path"), "tf32")) {
            assert_string_equal(str(sf, "caller"), "torch-matmul-f32-tf32");
            tf32 = true;
        }
    }
    assert_true(evaluated >= 5 && tf32 && refused);
    json_decref(ch);
    tc_run_result r = tc_run_cli("choose " APP "--k 1024 --metric p90 --max-rel-err 0.01 " H200);
    assert_int_equal(r.status, 0);
    if (!strstr(r.out, "from the records of NVIDIA H200, NVIDIA H100 80GB HBM3") || strstr(r.out, "H100 records") ||
        !strstr(r.out, "Recommended: no library path ranked, because those meeting p90 <= 0.01 were not timed"))
        fail_msg("%s", r.out);
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranked_by_recorded_library_tflops),
        cmocka_unit_test(test_error_from_each_paths_structure),
        cmocka_unit_test(test_k_outside_recorded_range),
        cmocka_unit_test(test_untrusted_structure_labelled),
        cmocka_unit_test(test_report_names_throughput_source),
        cmocka_unit_test(test_h200_framework_record_for_torch),
        cmocka_unit_test(test_every_output_needs_the_gpu),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
