/* tcscope compare and the record reader: identical records compare equal; a
 * changed fingerprint field, one flipped output bit and a 10% slower
 * throughput are each found and named; truncated, unreadable and
 * wrong-schema files exit 2. The records are built here with the reports API
 * (synthetic data, not GPU data). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "reports/compare.h"
#include "reports/reports.h"
#include "tests/record_out.h"
#include "tests/testutil.h"

#define NOUT 64

static char dir[] = "/tmp/tcs-compareXXXXXX";

/* A small pseudo-random corpus so every output differs from its neighbours. */
static void corpus_bits(uint64_t *d, size_t n)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        d[i] = s & 0xffffffffu;
    }
}

static tc_record base_record(void)
{
    tc_run_info info = {.backend = "model:test", .device = "model (no GPU)", .sm = 0};
    uint64_t seed = 42;
    tc_record r = tc_record_new(tc_record_header("mixed", &info, &seed, 1));
    json_t *fp = json_pack("{s:b, s:i, s:i, s:s}", "products_exact", 1, "block", 16, "align_bits", 25,
                           "rounding", "rz");
    json_t *ev = json_pack("{s:[{s:s, s:s}]}", "block", "case", "fprev-16", "d", "0x3f800000");
    json_t *ver = json_pack("{s:i, s:i, s:b}", "elements", 1000000, "mismatches", 0, "verified", 1);
    json_t *audit = json_pack("{s:s, s:s, s:o, s:o, s:o, s:n}", "kind", "audit", "instr",
                              "mma.m16n8k16.f32.f16.f16.f32", "fingerprint", fp, "evidence", ev,
                              "verification", ver, "timing");
    assert_int_equal(tc_record_add(&r, audit, NULL, 0), 0);
    uint64_t d[NOUT];
    corpus_bits(d, NOUT);
    assert_int_equal(tc_record_add(&r, tc_record_corpus_new("mma.m16n8k16.f32.f16.f16.f32", d, NOUT, NOUT,
                                                            0, NULL, NULL, NULL),
                                   NULL, 0),
                     0);
    json_t *bench = json_pack("{s:s, s:s, s:f, s:f, s:f, s:f}", "kind", "bench", "instr",
                              "mma.m16n8k16.f32.f16.f16.f32", "latency_cycles", 33.0,
                              "throughput_fma_clk_sm", 1024.0, "fraction_of_peak", 0.5, "tflops", 400.0);
    assert_int_equal(tc_record_add(&r, bench, NULL, 0), 0);
    return r;
}

static void save(const tc_record *r, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    char err[256];
    assert_int_equal(tc_record_save(path, r, err, sizeof err), 0);
}

static json_t *object_of(tc_record *r, const char *kind)
{
    json_t *a = tc_record_objects_of(r, kind);
    json_t *o = json_array_get(a, 0);
    json_decref(a);
    return o;
}

static tc_run_result compare_files(const char *a, const char *b, const char *extra)
{
    char args[600];
    snprintf(args, sizeof args, "compare %s %s %s", a, b, extra);
    return tc_run_cli(args);
}

static void save_and_load_round_trip(void **state)
{
    tc_record r = base_record(), back;
    char path[256], err[256];
    save(&r, "rt.json", path, sizeof path);
    assert_int_equal(tc_record_load(path, &back, err, sizeof err), 0);
    assert_true(json_equal(r.header, back.header));
    assert_true(json_equal(r.objects, back.objects));
    tc_record_free(&r);
    tc_record_free(&back);
}

static void identical_records_exit_zero(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "same-a.json", a, sizeof a);
    save(&r, "same-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 0);
    assert_non_null(strstr(res.out, "same"));
    tc_run_result_free(&res);
    res = compare_files(a, b, "--json");
    assert_int_equal(res.status, 0);
    assert_non_null(strstr(res.out, "\"compare\":\"same\""));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void changed_fingerprint_field_is_named(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "fp-a.json", a, sizeof a);
    json_object_set_new(json_object_get(object_of(&r, "audit"), "fingerprint"), "align_bits", json_integer(24));
    save(&r, "fp-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "fingerprint.align_bits 25 -> 24"));
    assert_null(strstr(res.out, "rounding"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void one_flipped_output_bit_is_found(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "bit-a.json", a, sizeof a);
    uint64_t d[NOUT];
    corpus_bits(d, NOUT);
    d[37] ^= 1u << 9;
    json_t *corpus = object_of(&r, "corpus");
    char hash[24];
    snprintf(hash, sizeof hash, "0x%016llx", (unsigned long long)tc_corpus_hash(d, NOUT));
    json_object_set_new(corpus, "hash", json_string(hash));
    json_array_set_new(json_object_get(corpus, "outputs"), 37, tc_json_bits(d[37]));
    save(&r, "bit-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "--json");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "\"field\":\"hash\""));
    assert_non_null(strstr(res.out, "\"field\":\"outputs[37]\""));
    assert_null(strstr(res.out, "outputs[36]"));
    assert_non_null(strstr(res.out, "\"differences\":2"));
    json_t *ds = tc_out_objects(res.out, "compare --json", "difference"); /* the output is a record */
    assert_int_equal(json_array_size(ds), 2);
    json_decref(ds);
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void hash_alone_detects_a_flip_beyond_the_kept_outputs(void **state)
{
    uint64_t d[NOUT];
    corpus_bits(d, NOUT);
    uint64_t h = tc_corpus_hash(d, NOUT);
    for (size_t i = 0; i < NOUT; i++)
        for (int bit = 0; bit < 32; bit += 7) {
            d[i] ^= 1ull << bit;
            assert_true(tc_corpus_hash(d, NOUT) != h);
            d[i] ^= 1ull << bit;
        }
    assert_true(tc_corpus_hash(d, NOUT) == h);
}

static void ten_percent_slower_throughput_is_named(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "tp-a.json", a, sizeof a);
    json_object_set_new(object_of(&r, "bench"), "throughput_fma_clk_sm", json_real(1024.0 * 0.9));
    save(&r, "tp-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "throughput_fma_clk_sm 1024 -> 921.6 (-10.0%"));
    assert_null(strstr(res.out, "latency"));
    tc_run_result_free(&res);
    /* A threshold above the change makes it noise. */
    res = compare_files(a, b, "--threshold 12%");
    assert_int_equal(res.status, 0);
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void small_change_within_recorded_noise_is_not_a_difference(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    json_t *bench = object_of(&r, "bench");
    /* Runs spread 3% around 1024: threshold 2 x 3% = 6%; a 4% change is noise, 10% is not. */
    json_object_set_new(bench, "throughput_fma_clk_sm_runs", json_pack("[f,f,f]", 1009.0, 1024.0, 1039.72));
    save(&r, "noise-a.json", a, sizeof a);
    json_object_set_new(bench, "throughput_fma_clk_sm", json_real(1024.0 * 0.96));
    save(&r, "noise-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 0);
    tc_run_result_free(&res);
    json_object_set_new(bench, "throughput_fma_clk_sm", json_real(1024.0 * 0.9));
    save(&r, "noise-c.json", b, sizeof b);
    res = compare_files(a, b, "");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "from the repeated runs"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void threshold_follows_the_spread_of_runs(void **state)
{
    tc_compare_opts o = tc_compare_defaults();
    bool derived;
    json_t *tight = json_pack("[f,f,f]", 100.0, 100.1, 100.2);
    json_t *loose = json_pack("[f,f,f,f]", 90.0, 100.0, 101.0, 110.0);
    double t = tc_compare_threshold(NULL, NULL, &o, &derived);
    assert_false(derived);
    assert_true(t == o.default_threshold);
    t = tc_compare_threshold(tight, NULL, &o, &derived);
    assert_true(derived);
    assert_true(t == o.min_threshold);   /* 0.2% spread: the floor applies */
    t = tc_compare_threshold(tight, loose, &o, &derived);
    assert_true(derived);
    assert_float_equal(t, o.noise_factor * 20.0 / 100.5, 1e-12);
    json_decref(tight);
    json_decref(loose);
}

static void missing_object_is_named(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "miss-a.json", a, sizeof a);
    json_array_remove(r.objects, 2);
    save(&r, "miss-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "bench mma.m16n8k16.f32.f16.f16.f32: in OLD only"));
    tc_run_result_free(&res);
    /* --subset: NEW covers part of OLD on purpose; the rest is a note. */
    res = compare_files(a, b, "--subset");
    assert_int_equal(res.status, 0);
    assert_non_null(strstr(res.out, "in OLD only, not compared (--subset)"));
    tc_run_result_free(&res);
    /* ... but an object in NEW only is still a difference. */
    res = compare_files(b, a, "--subset");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "in NEW only"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

/* bench --json figures are matched by their names ("bench"): the wall time
 * has no instruction (instr null), and two such figures once met as "?". */
static void figures_are_matched_by_name(void **state)
{
    (void)state;
    tc_record r = base_record();
    const char *names[] = {"elapsed", "cublas_gemm_8192_f16"};
    for (int i = 0; i < 2; i++)
        assert_int_equal(tc_record_add(&r,
                                       json_pack("{s:s, s:s, s:n, s:f, s:s, s:s}", "kind", "figure", "bench", names[i],
                                                 "instr", "value", 1.0 + i, "unit", i ? "TFLOP/s" : "s", "machine",
                                                 "test"),
                                       NULL, 0),
                         0);
    char a[256], b[256];
    save(&r, "fig-a.json", a, sizeof a);
    json_array_remove(r.objects, json_array_size(r.objects) - 2); /* the wall time */
    save(&r, "fig-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "figure elapsed: in OLD only"));
    assert_null(strstr(res.out, "cublas_gemm_8192_f16: in"));
    assert_null(strstr(res.out, "figure ?"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void driver_change_alone_is_context_not_difference(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "ctx-a.json", a, sizeof a);
    json_object_set_new(r.header, "driver", json_string("999.1"));
    save(&r, "ctx-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 0);
    assert_non_null(strstr(res.out, "context: driver"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

/* Writes the first `keep` bytes of src to dst. */
static void truncate_copy(const char *src, const char *dst, long keep)
{
    char *text = tc_slurp(src);
    assert_true((long)strlen(text) > keep);
    FILE *f = fopen(dst, "w");
    fwrite(text, 1, (size_t)keep, f);
    fclose(f);
    free(text);
}

static void truncated_file_exits_two(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "trunc-a.json", a, sizeof a);
    char *text = tc_slurp(a);
    long len = (long)strlen(text);
    long last_line = (long)(strrchr(text, '\n') - text);
    text[last_line] = '\0';
    long cut_line = (long)(strrchr(text, '\n') - text) + 1;   /* just before the trailer */
    free(text);
    snprintf(b, sizeof b, "%s/trunc-b.json", dir);
    long cuts[] = {cut_line, len / 2, 10};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        truncate_copy(a, b, cuts[i]);
        tc_run_result res = compare_files(a, b, "");
        assert_int_equal(res.status, 2);
        assert_non_null(strstr(res.err, "trunc-b.json"));
        assert_string_equal(res.out, "");
        tc_run_result_free(&res);
    }
    tc_record_free(&r);
}

/* Records are committed gzip-compressed: compare reads them as they are, and a
 * .gz cut short (before or inside the trailer) is bad input, not a shorter record. */
static void gzip_records_are_read_and_cut_ones_refused(void **state)
{
    tc_record r = base_record();
    char a[256], gz[300], cut[300], cmd[2048];
    save(&r, "gz-a.json", a, sizeof a);
    snprintf(gz, sizeof gz, "%s/gz-a.json.gz", dir);
    snprintf(cut, sizeof cut, "%s/gz-cut.json.gz", dir);
    snprintf(cmd, sizeof cmd, "gzip -9 -c '%s' > '%s' && head -c $(( $(stat -c %%s '%s') - 12 )) '%s' > '%s'", a, gz,
             gz, gz, cut);
    assert_int_equal(system(cmd), 0);
    tc_run_result res = compare_files(a, gz, "");
    assert_int_equal(res.status, 0);
    tc_run_result_free(&res);
    res = compare_files(gz, cut, "");
    assert_int_equal(res.status, 2);
    assert_non_null(strstr(res.err, "gz-cut.json.gz"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void wrong_schema_exits_two(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "schema-a.json", a, sizeof a);
    char *text = tc_slurp(a);
    char *p = strstr(text, "tcscope-record/1");
    assert_non_null(p);
    p[strlen("tcscope-record/")] = '2';
    snprintf(b, sizeof b, "%s/schema-b.json", dir);
    FILE *f = fopen(b, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 2);
    assert_non_null(strstr(res.err, "tcscope-record/2"));
    tc_run_result_free(&res);
    f = fopen(b, "w");
    fputs("{\"bench\":\"x\",\"value\":1}\n", f);
    fclose(f);
    res = compare_files(a, b, "");
    assert_int_equal(res.status, 2);
    assert_non_null(strstr(res.err, "not a tcscope record"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void missing_required_field_exits_two(void **state)
{
    tc_record r = base_record();
    char a[256], b[256];
    save(&r, "req-a.json", a, sizeof a);
    char *text = tc_slurp(a);
    char *p = strstr(text, "\"verification\"");
    assert_non_null(p);
    memcpy(p, "\"verificatiom\"", 14);
    snprintf(b, sizeof b, "%s/req-b.json", dir);
    FILE *f = fopen(b, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 2);
    assert_non_null(strstr(res.err, "missing field 'verification'"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void unreadable_file_and_bad_usage_exit_two(void **state)
{
    tc_record r = base_record();
    char a[256];
    save(&r, "u-a.json", a, sizeof a);
    tc_run_result res = compare_files(a, "/nonexistent/x.json", "");
    assert_int_equal(res.status, 2);
    assert_non_null(strstr(res.err, "/nonexistent/x.json"));
    tc_run_result_free(&res);
    res = compare_files(a, "", "");
    assert_int_equal(res.status, 2);
    tc_run_result_free(&res);
    res = compare_files(a, a, "--threshold abc");
    assert_int_equal(res.status, 2);
    assert_non_null(strstr(res.err, "bad threshold 'abc'"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static void invalid_objects_are_refused_by_the_writer(void **state)
{
    tc_record r = base_record();
    char err[256];
    assert_int_equal(tc_record_add(&r, json_pack("{s:s}", "kind", "bench"), err, sizeof err), -1);
    assert_non_null(strstr(err, "missing field 'instr'"));
    assert_int_equal(tc_record_add(&r, json_pack("{s:s}", "kind", "frob"), err, sizeof err), -1);
    assert_non_null(strstr(err, "unknown object kind 'frob'"));
    assert_int_equal(json_array_size(r.objects), 3);
    tc_record_free(&r);
}

/* The timing probes' single-document bench file is read as a bench record. */
static void timing_bench_file_is_imported_and_compared(void **state)
{
    char a[256], b[256];
    const char *doc = "{\"record\":\"tcscope-bench\",\"version\":1,\"machine\":{\"gpu\":\"G\",\"driver\":\"1.0\"},"
                      "\"instructions\":[{\"instr\":\"mma.x\",\"latency_cycles\":30.0,\"latency_cycles_runs\":[30.0,30.0],"
                      "\"best_fma_per_clk_per_sm\":1000.0,\"fraction_of_peak\":0.5,\"whole_gpu\":{\"random\":{\"tflops\":%g}}}]}";
    snprintf(a, sizeof a, "%s/tb-a.json", dir);
    snprintf(b, sizeof b, "%s/tb-b.json", dir);
    FILE *f = fopen(a, "w");
    fprintf(f, doc, 500.0);
    fclose(f);
    f = fopen(b, "w");
    fprintf(f, doc, 450.0);
    fclose(f);
    tc_record r;
    char err[256];
    assert_int_equal(tc_record_load_any(a, &r, err, sizeof err), 0);
    assert_int_equal(json_array_size(r.objects), 1);
    assert_true(json_number_value(json_object_get(json_array_get(r.objects, 0), "tflops")) == 500.0);
    assert_string_equal(json_string_value(json_object_get(r.header, "gpu")), "G");
    tc_record_free(&r);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "tflops 500 -> 450 (-10.0%"));
    tc_run_result_free(&res);
    /* Another version of that format is refused like a wrong schema. */
    f = fopen(b, "w");
    fputs("{\"record\":\"tcscope-bench\",\"version\":2,\"machine\":{},\"instructions\":[]}", f);
    fclose(f);
    res = compare_files(a, b, "");
    assert_int_equal(res.status, 2);
    assert_non_null(strstr(res.err, "version 2 is not supported"));
    tc_run_result_free(&res);
}

/* Sweeps with the same seed must agree statistic for statistic; with
 * different seeds they are not comparable (a note, no difference). */
static void sweep_statistics_change_is_named(void **state)
{
    tc_record r = base_record();
    json_t *steps = json_array();
    for (int i = 1; i <= 5; i++)
        json_array_append_new(steps, json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:n}", "step", i, "median", 1e-3 * i,
                                               "p90", 2e-3 * i, "max", 4e-3 * i, "overflow", 0.0, "nan", 0.0, "time_s"));
    json_t *sw = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:i, s:s, s:i, s:o}", "kind", "sweep", "format",
                           "f16", "instr", "mma.m16n8k16.f32.f16.f16.f32", "k", 16, "dist", "normal", "from", "f32",
                           "round", "rne", "scale", "none", "trials", 100, "seed", "0x1", "chain", 5, "steps", steps);
    assert_int_equal(tc_record_add(&r, sw, NULL, 0), 0);
    char a[256], b[256];
    save(&r, "sw-a.json", a, sizeof a);
    json_object_set_new(json_array_get(steps, 3), "median", json_real(5e-3));
    save(&r, "sw-b.json", b, sizeof b);
    tc_run_result res = compare_files(a, b, "");
    assert_int_equal(res.status, 1);
    assert_non_null(strstr(res.out, "step 4 median 0.004 -> 0.005"));
    tc_run_result_free(&res);
    json_object_set_new(sw, "seed", json_string("0x2"));
    save(&r, "sw-c.json", b, sizeof b);
    res = compare_files(a, b, "");
    assert_int_equal(res.status, 0);
    assert_non_null(strstr(res.out, "different seeds"));
    tc_run_result_free(&res);
    tc_record_free(&r);
}

static int setup(void **state)
{
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(save_and_load_round_trip),
        cmocka_unit_test(identical_records_exit_zero),
        cmocka_unit_test(changed_fingerprint_field_is_named),
        cmocka_unit_test(one_flipped_output_bit_is_found),
        cmocka_unit_test(hash_alone_detects_a_flip_beyond_the_kept_outputs),
        cmocka_unit_test(ten_percent_slower_throughput_is_named),
        cmocka_unit_test(small_change_within_recorded_noise_is_not_a_difference),
        cmocka_unit_test(threshold_follows_the_spread_of_runs),
        cmocka_unit_test(missing_object_is_named),
        cmocka_unit_test(figures_are_matched_by_name),
        cmocka_unit_test(driver_change_alone_is_context_not_difference),
        cmocka_unit_test(truncated_file_exits_two),
        cmocka_unit_test(gzip_records_are_read_and_cut_ones_refused),
        cmocka_unit_test(wrong_schema_exits_two),
        cmocka_unit_test(missing_required_field_exits_two),
        cmocka_unit_test(unreadable_file_and_bad_usage_exit_two),
        cmocka_unit_test(invalid_objects_are_refused_by_the_writer),
        cmocka_unit_test(timing_bench_file_is_imported_and_compared),
        cmocka_unit_test(sweep_statistics_change_is_named),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
