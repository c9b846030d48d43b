/* Hostile input, second sweep (issue 32), what is read: records compared,
 * record fields used for sizes and arithmetic, merged audits, number pairs,
 * case files, .npy samples and the records options take. Each test is one
 * item of the sweep's list of reproducers (numbered as there), each ending
 * in exit 2 with a message that names the problem, or in a correct result,
 * on the binary of this build (the sanitized test runs build/san/tcscope,
 * so a sanitizer report fails the test). Inputs: tests/data/hostile/ and
 * copies of the committed records edited here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>

#include "reports/reports.h"
#include "tests/testutil.h"

#define H "tests/data/hostile/"
#define GEMM "reports/baselines/h100-gemm.packed.xz"
#define HUNT "tests/data/hunt-fp8-subnormal.jsonl"

/* Exit 2, the message in stderr, and no sanitizer report. */
static void refused(const char *args, const char *msg)
{
    tc_run_result r = tc_run_cli(args);
    if (r.status != 2 || !strstr(r.err, msg) || strstr(r.err, "Sanitizer") || strstr(r.err, "runtime error"))
        fail_msg("tcscope %s\n  exit %d (want 2), stderr:\n%s  (want '%s')", args, r.status, r.err, msg);
    tc_run_result_free(&r);
}

/* The status, with stdout and stderr (free with tc_run_result_free); no sanitizer report. */
static tc_run_result ran(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static tc_run_result ran(const char *fmt, ...)
{
    char args[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    tc_run_result r = tc_run_cli(args);
    if (strstr(r.err, "Sanitizer") || strstr(r.err, "runtime error"))
        fail_msg("tcscope %s: sanitizer report:\n%s", args, r.err);
    return r;
}

/* A shell command that must succeed (making the inputs). */
static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    if (system(cmd) != 0)
        fail_msg("failed: %s", cmd);
}

/* 5: NEW repeats an instruction and its second copy differs: compare kept
 * the first and said "same". A record that repeats a key is refused. */
static void compare_repeated_key(void **state)
{
    const char *t = tc_tmp_root();
    sh("(head -n 2 " H "compare-audit-one.jsonl; sed -n 2p " H "compare-audit-one.jsonl | "
       "sed 's/\"align_bits\":36/\"align_bits\":35/'; echo '{\"kind\":\"end\",\"objects\":2}') > %s/dup.jsonl", t);
    char args[512];
    snprintf(args, sizeof args, "compare " H "compare-audit-one.jsonl %s/dup.jsonl", t);
    refused(args, "dup.jsonl: audit mma.m16n8k8.f16.f16.f16.f16 appears twice (objects 1 and 2)");
    snprintf(args, sizeof args, "compare %s/dup.jsonl " H "compare-audit-one.jsonl", t);
    refused(args, "appears twice");
}

/* Issue 31: records of two kinds are refused; what the instruction does
 * (fingerprint) is listed before the counters; NEW holding part of OLD's
 * instructions suggests --subset. */
static void compare_kinds_order_subset(void **state)
{
    const char *t = tc_tmp_root();
    refused("compare reports/baselines/h100-sweep.json " H "compare-audit-one.jsonl",
            "OLD is a sweep record and NEW an audit record: compare records of one kind");
    sh("zcat reports/baselines/h100-audit.jsonl.gz | sed -n 1,3p > %s/two.jsonl && "
       "echo '{\"kind\":\"end\",\"objects\":2}' >> %s/two.jsonl && "
       "sed -E '2s/\"elements\":1690279,\"mismatches\":0,/\"elements\":1690279,\"mismatches\":5,/; "
       "3s/\"a_convert\":\"none\"/\"a_convert\":\"f16\"/' %s/two.jsonl > %s/two-b.jsonl && "
       "sed 4d %s/two.jsonl | sed 2d > %s/one.jsonl && echo '{\"kind\":\"end\",\"objects\":1}' >> %s/one.jsonl",
       t, t, t, t, t, t, t);
    tc_run_result r = ran("compare %s/two.jsonl %s/two-b.jsonl", t, t);
    assert_int_equal(r.status, 1);
    const char *fp = strstr(r.out, "fingerprint.a_convert"), *ver = strstr(r.out, "verification.mismatches 0 -> 5");
    assert_non_null(fp);
    assert_non_null(ver);
    assert_true(fp < ver);
    tc_run_result_free(&r);
    r = ran("compare %s/two.jsonl %s/one.jsonl", t, t);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "every object of NEW is in OLD, 1 of OLD's are not in NEW: if NEW covers part of "
                                  "OLD on purpose, compare with --subset"));
    tc_run_result_free(&r);
    r = ran("compare %s/one.jsonl %s/two.jsonl", t, t);
    assert_int_equal(r.status, 1);
    assert_null(strstr(r.err, "--subset"));
    tc_run_result_free(&r);
}

/* 6: gemm and hunt objects were matched and never compared ("same: 110
 * objects" with every TFLOP/s changed; 1 and 0 mismatches "same"). */
static void compare_gemm_and_hunt(void **state)
{
    const char *t = tc_tmp_root();
    sh("build/tcscope pack " GEMM " --text > %s/g.jsonl && build/tcscope pack " GEMM " --text | sed -E 's/\"tflops\":([0-9.]+)/\"tflops\":1\\1/g' > "
       "%s/g-fast.jsonl && build/tcscope pack " GEMM " --text | sed -E 's/\"median_ulps\":0.40625,/\"median_ulps\":0.5,/' > %s/g-err.jsonl",
       t, t, t);
    tc_run_result r = ran("compare %s/g.jsonl %s/g-fast.jsonl", t, t);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "changed: gemm tcscope-wgmma-f16 8192x8192x8192 normal seed=1: tflops 440.999 -> "
                                  "1441 (+226.8%"));
    assert_non_null(strstr(r.out, "109 differences (110 objects in OLD, 110 in NEW)"));
    tc_run_result_free(&r);
    r = ran("compare %s/g.jsonl %s/g-err.jsonl", t, t);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "changed: gemm f16 256x256x16 normal seed=1: error_vs_rounded.median_ulps 0.40625 -> 0.5"));
    tc_run_result_free(&r);
    r = ran("compare %s/g.jsonl %s/g.jsonl", t, t);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "same: 110 objects compared"));
    tc_run_result_free(&r);
    /* the hunt found 1 mismatch (subnormal); a copy says 0 */
    sh("sed -E 's/\"mismatches\":1,\"families\"/\"mismatches\":0,\"families\"/; s/\"subnormal\":\\{\"elements\":400000,"
       "\"mismatches\":1\\}/\"subnormal\":{\"elements\":400000,\"mismatches\":0}/; s/,\"failures\":\\[.*\\]//' "
       HUNT " > %s/h0.jsonl", t);
    r = ran("compare " HUNT " %s/h0.jsonl", t);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "changed: hunt mma.m16n8k32.f16.e4m3.e5m2.f16: mismatches 1 -> 0"));
    assert_non_null(strstr(r.out, "changed: hunt mma.m16n8k32.f16.e4m3.e5m2.f16: families.subnormal.mismatches 1 -> 0"));
    tc_run_result_free(&r);
}

/* 7: gemm fields were not range-checked: m = k = 2^62 overflowed in the
 * report, k = 0 and negative TFLOP/s were taken and choose dropped every
 * library path without a word. */
static void gemm_fields_in_range(void **state)
{
    const char *t = tc_tmp_root();
    static const struct {
        const char *name, *sed, *msg;
    } bad[] = {
        {"big", "s/\"m\":256,\"n\":256,\"k\":16,/\"m\":4611686018427387904,\"n\":256,\"k\":4611686018427387904,/",
         "g-big.jsonl:2: not a gemm case (gemm: field 'm' is 4611686018427387904, outside 1..1048576)"},
        {"k0", "s/\"k\":16,/\"k\":0,/", "g-k0.jsonl:2: not a gemm case (gemm: field 'k' is 0, outside 1..1048576)"},
        {"neg", "s/\"tflops\":[0-9.e+-]+/\"tflops\":-1e300/g", "g-neg.jsonl:2: not a gemm case (gemm: field "
                                                                "'timing.tflops' is -1.0000000000000001e300, outside"},
        {"rate", "s/\"rate\":1.0/\"rate\":2/", "field 'structure.prediction.rate' is 2, outside 0..1"},
        {"ulps", "s/\"median_ulps\":0.40625/\"median_ulps\":-1/", "field 'error_vs_rounded.median_ulps' is -1"},
        /* counts nested where no field table types them: integers all the same (the span table) */
        {"reps", "s/\"reps\":([0-9]+)/\"reps\":\\1.5/", "field 'timing.reps' must be an integer"},
    };
    char args[512];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        sh("build/tcscope pack " GEMM " --text | sed -E '%s' > %s/g-%s.jsonl", bad[i].sed, t, bad[i].name);
        snprintf(args, sizeof args, "gemm --report %s/rep-%s --from %s/g-%s.jsonl", t, bad[i].name, t, bad[i].name);
        refused(args, bad[i].msg);
        snprintf(args, sizeof args, "choose --m 256 --n 256 --k 256 --gemm-records %s/g-%s.jsonl", t, bad[i].name);
        refused(args, bad[i].msg);
        snprintf(args, sizeof args, "compare %s/g-%s.jsonl " GEMM, t, bad[i].name);
        refused(args, bad[i].name);
    }
    /* The older tcscope-gemm lines (no header) are checked alike. */
    sh("build/tcscope pack " GEMM " --text | sed -n 2p | sed 's/^{\"kind\":\"gemm\",/{\"record\":\"tcscope-gemm\",\"version\":2,/; "
       "s/\"k\":16,/\"k\":-16,/' > %s/g-old.jsonl", t);
    snprintf(args, sizeof args, "gemm --report %s/rep-old --from %s/g-old.jsonl", t, t);
    refused(args, "g-old.jsonl:1: not a gemm case (gemm: field 'k' is -16");
    sh("sed 's/\"k\":-16,/\"k\":16,/; s/\"chunk\":\\([0-9]*\\)/\"chunk\":\\1.5/' %s/g-old.jsonl > %s/g-old-chunk.jsonl && "
       "grep -q '\"chunk\":[0-9]*[.]5' %s/g-old-chunk.jsonl", t, t, t);
    snprintf(args, sizeof args, "gemm --report %s/rep-old --from %s/g-old-chunk.jsonl", t, t);
    refused(args, "g-old-chunk.jsonl:1: not a gemm case (gemm: field 'structure.inferred.chunk' must be an integer)");
    /* Another kind: a hunt family's count of elements is a whole number too. */
    sh("sed 's/\"subnormal\":{\"elements\":400000,/\"subnormal\":{\"elements\":400000.5,/' " HUNT " > %s/h-frac.jsonl", t);
    snprintf(args, sizeof args, "compare " HUNT " %s/h-frac.jsonl", t);
    refused(args, "hunt family subnormal: field 'elements' must be an integer");
    /* A path whose every case was skipped is listed with why, not dropped. */
    sh("build/tcscope pack " GEMM " --text | sed -E '/\"path\":\"e4m3\"/s/,\"algo\":.*$/,\"skipped\":\"no FP8 heuristic\"}/' > "
       "%s/g-skip.jsonl", t);
    tc_run_result r = ran("choose --m 256 --n 256 --k 256 --gemm-records %s/g-skip.jsonl", t);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "cublaslt e4m3 "));
    assert_non_null(strstr(r.out, "none of its 10 recorded cases has a measured TFLOP/s or an inferred structure "
                                  "(10 skipped or failed, the first: \"no FP8 heuristic\")"));
    tc_run_result_free(&r);
}

/* 8: audit --merge of two folders that audited one instruction with two
 * results let the last folder win, exit 0. Now: refused naming both, or
 * the folder --prefer names; one result twice is taken once. */
static void merge_conflict(void **state)
{
    const char *t = tc_tmp_root();
    tc_run_result r = ran("audit --backend model:h100 --instr mma.m16n8k8.f16.f16.f16.f16,mma.m16n8k8.f32.f16.f16.f32 "
                          "--n 10 --no-timing --out %s/m/a", t);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    sh("cp -r %s/m/a %s/m/b && sed -i 's/\"align_bits\":25,/\"align_bits\":26,/' %s/m/b/audit.jsonl && "
       "grep -q '\"align_bits\":26,' %s/m/b/audit.jsonl", t, t, t, t);
    char args[512];
    snprintf(args, sizeof args, "audit --merge %s/m/a,%s/m/b --out %s/m/o", t, t, t);
    refused(args, "/m/b hold different results for mma.m16n8k8.f16.f16.f16.f16 (fingerprint.align_bits): give "
                  "--prefer DIR to take one");
    snprintf(args, sizeof args, "audit --merge %s/m/a,%s/m/b --prefer %s/m/c --out %s/m/o", t, t, t, t);
    refused(args, "/m/c: not one of the --merge folders");
    for (int pick = 0; pick < 2; pick++) {
        r = ran("audit --merge %s/m/a,%s/m/b --prefer %s/m/%c --out %s/m/p%d", t, t, t, "ab"[pick], t, pick);
        assert_int_equal(r.status, 0);
        tc_run_result_free(&r);
        char path[300];
        snprintf(path, sizeof path, "%s/m/p%d/audit.jsonl", t, pick);
        char *rec = tc_slurp(path);
        assert_non_null(strstr(rec, pick ? "\"align_bits\":26," : "\"align_bits\":25,"));
        assert_null(strstr(rec, pick ? "\"align_bits\":25," : "\"align_bits\":26,"));
        free(rec);
    }
    r = ran("audit --merge %s/m/a,%s/m/a --out %s/m/same", t, t, t);
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
    r = ran("compare %s/m/a/audit.jsonl %s/m/same/audit.jsonl", t, t);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "same: 2 objects"));
    tc_run_result_free(&r);
}

/* 9: --shard was read by sscanf %u: 0/4294967297 became 0/1, 1/-1 and
 * " +0/ +2" passed. Now two counts by the shared parser (cli/args.c). */
static void shard_pair_parsed(void **state)
{
    static const char *const bad[] = {"0/4294967297", "1/-1", "' +0/ +2'", "0/0", "2/2", "/2", "1/", "1", "0x0/2",
                                      "0/2/3", "000000000000000000000001/2", "0/1000001"};
    char args[512];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(args, sizeof args, "audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16 --n 10 --no-timing "
                                    "--shard %s --out %s/never", bad[i], tc_tmp_root());
        refused(args, "(I/N: whole numbers, 0 <= I < N <= 1000000)");
    }
    tc_run_result r = ran("audit --backend model:h100 --instr mma.m16n8k8.f16.f16.f16.f16,mma.m16n8k8.f32.f16.f16.f32 "
                          "--n 10 --no-timing --shard 1/2 --json --out %s/shard", tc_tmp_root());
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "mma.m16n8k8.f32.f16.f16.f32"));
    assert_null(strstr(r.out, "\"instr\":\"mma.m16n8k8.f16.f16.f16.f16\""));
    tc_run_result_free(&r);
}

/* 10: a case file with a byte outside UTF-8 ran, and --json ended with a
 * header and a "partial" trailer, 0 objects (exit 0 on the sweep's build). */
static void cases_not_utf8(void **state)
{
    refused("cases --json --backend model:h100 " H "cases-latin1.case",
            "cases-latin1.case:3: byte \\xE9 is not UTF-8 (the file must be UTF-8 text)");
    refused("cases --backend model:h100 " H "cases-latin1.case", "cases-latin1.case:3: byte \\xE9 is not UTF-8");
    refused("list --backend model:" H "cases-latin1.case", "cases-latin1.case:3: byte \\xE9 is not UTF-8");
    /* a profile key of control characters (UTF-8) is still quoted escaped */
    sh("LC_ALL=C sed 's/\\xff\\xfe//' " H "profile-binary-key.profile > %s/ctl.profile", tc_tmp_root());
    char args[300];
    snprintf(args, sizeof args, "list --backend model:%s/ctl.profile", tc_tmp_root());
    refused(args, "ctl.profile:1: key '\\x01\\x02\\x1B[31m' outside a section");
}

/* 10, the rule behind it: a --json record that ends "partial" (an object
 * failed its check) is remembered, and main turns exit 0 or 1 into 2. */
static void partial_record_remembered(void **state)
{
    assert_false(tc_json_out_ended_partial());
    int saved = dup(1), null = open("/dev/null", O_WRONLY);
    assert_true(saved >= 0 && null >= 0);
    fflush(stdout);
    dup2(null, 1);
    tc_json_out j = {.on = false};
    tc_json_out_begin(&j, true, tc_record_header("cases", NULL, NULL, 0));
    tc_json_out_put(&j, "case", json_pack("{s:s}", "case", "no other field")); /* fails the case table */
    tc_json_out_end(&j, NULL);
    fflush(stdout);
    dup2(saved, 1);
    close(null);
    close(saved);
    assert_true(tc_json_out_ended_partial());
}

/* 15 (part): gemm --sim 0,,1 and 0,1, were read as 0,1 (strtok_r passes
 * over an empty item). */
static void gemm_sim_empty_item(void **state)
{
    refused("gemm --backend model:h100 --sim 0,,1 --k 16 --samples 10 --reps 0", "--sim: empty item in '0,,1'");
    refused("gemm --backend model:h100 --sim 0,1, --k 16 --samples 10 --reps 0", "--sim: empty item in '0,1,'");
}

/* A .npy file of version 1.0: header dict text, then n float64 values 1..n. */
static void write_npy(const char *path, const char *dict, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    size_t hlen = strlen(dict) + 1;
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc((int)(hlen & 0xff), f);
    fputc((int)(hlen >> 8), f);
    fprintf(f, "%s\n", dict);
    for (size_t i = 0; i < n; i++) {
        double v = (double)(i + 1);
        fwrite(&v, sizeof v, 1, f);
    }
    fclose(f);
}

/* 11: the .npy header was matched by substring: a first key whose value
 * held "'descr': '<f8'" had its int64 data read as float64 (numpy refuses
 * the file); fortran_order: Truely and shape: (100,)garbage passed. */
static void npy_header_as_defined(void **state)
{
    refused("choose --m 256 --n 256 --k 256 --samples " H "npy-spoof-descr.npy --max-rel-err 1e-2",
            "npy-spoof-descr.npy: unknown key 'x' in the .npy header (descr, fortran_order, shape)");
    static const struct {
        const char *dict, *msg;
    } bad[] = {
        {"{'descr': '<f8', 'fortran_order': Truely, 'shape': (4,), }", "fortran_order is not True or False"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,)garbage, }", "a ',' or '}' expected"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4), }", "shape (4) is an int, not a tuple"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), 'descr': '<f8'}", "key 'descr' twice"},
        {"{'descr': '<f8', 'shape': (4,), }", "the .npy header lacks 'fortran_order'"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (04,), }", "not a whole number"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (-4,), }", "not a whole number"},
        {"{'descr': '<i8', 'fortran_order': False, 'shape': (4,), }", "dtype '<i8' is not little-endian float32"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } x", "text after the dict"},
        {"{'descr': '<f8' 'fortran_order': False, 'shape': (4,), }", "a ',' or '}' expected"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", "the .npy shape says 6 values"},
    };
    char path[300], args[512];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(path, sizeof path, "%s/bad%zu.npy", tc_tmp_root(), i);
        write_npy(path, bad[i].dict, 4);
        snprintf(args, sizeof args, "choose --m 64 --n 64 --k 64 --no-library --max-rel-err 1e-2 --samples %s", path);
        refused(args, bad[i].msg);
    }
    /* what numpy writes: double quotes too, (2, 2) and a trailing comma */
    snprintf(path, sizeof path, "%s/good.npy", tc_tmp_root());
    write_npy(path, "{\"descr\": \"<f8\", \"fortran_order\": True, \"shape\": (2, 2,)}", 4);
    tc_run_result r = ran("choose --m 64 --n 64 --k 64 --no-library --max-rel-err 1e-2 --samples %s", path);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "(4 .npy values)"));
    tc_run_result_free(&r);
}

/* 12: options that take a record took one of another kind (sweep --bench
 * an audit record: no throughput; audit --counterexamples an audit record
 * or another instruction's hunt: nothing added) or a missing file
 * (regress --record, found after the whole run). */
static void record_options_check_kind(void **state)
{
    char args[512];
    snprintf(args, sizeof args, "sweep --bench " H "compare-audit-one.jsonl --formats e4m3 --trials 10 --chain 2 "
                                "--out %s/sw", tc_tmp_root());
    refused(args, "--bench " H "compare-audit-one.jsonl holds no bench object (it is an audit record)");
    snprintf(args, sizeof args, "sweep --bench %s/none.json --formats e4m3 --trials 10 --chain 2 --out %s/sw",
             tc_tmp_root(), tc_tmp_root());
    refused(args, "none.json: No such file or directory");
    snprintf(args, sizeof args, "audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16 --n 10 --no-timing "
                                "--counterexamples " H "compare-audit-one.jsonl --out %s/ce", tc_tmp_root());
    refused(args, "--counterexamples " H "compare-audit-one.jsonl holds no hunt object (it is an audit record)");
    snprintf(args, sizeof args, "audit --backend exact --instr mma.m16n8k8.f16.f16.f16.f16 --n 10 --no-timing "
                                "--counterexamples " HUNT " --out %s/ce", tc_tmp_root());
    refused(args, "no hunt of an audited instruction in it (it holds mma.m16n8k32.f16.e4m3.e5m2.f16)");
    refused("regress --model --record /nonexistent", "--record: /nonexistent: No such file or directory");
    refused("regress --model --record reports/baselines/h100-sweep.json",
            "--record reports/baselines/h100-sweep.json holds no audit object (it is a sweep record)");
    /* the hunt of the audited instruction is taken */
    tc_run_result r = ran("audit --backend model:h100 --instr mma.m16n8k32.f16.e4m3.e5m2.f16 --n 10 --no-timing "
                          "--counterexamples " HUNT " --out %s/ce2", tc_tmp_root());
    assert_int_equal(r.status, 0);
    tc_run_result_free(&r);
}

/* 15 (part): a trailer "objects":1.0 was reported as -1; a profile
 * section of an unknown instruction was passed over; sweep --render drew
 * negative error statistics. */
static void smaller_reads(void **state)
{
    const char *t = tc_tmp_root();
    char args[512];
    sh("sed '$s/\"objects\":7/\"objects\":7.0/' reports/baselines/h100-sweep.json > %s/t1.json", t);
    snprintf(args, sizeof args, "compare reports/baselines/h100-sweep.json %s/t1.json", t);
    refused(args, "t1.json:9: the trailer's \"objects\" is 7.0, not a count (the file has 7 objects)");
    sh("(build/tcscope pack " GEMM " --text | sed '$d'; echo '{\"kind\":\"end\",\"objects\":\"110\"}') > %s/t2.jsonl", t);
    snprintf(args, sizeof args, "gemm --report %s/t2 --from %s/t2.jsonl", t, t);
    refused(args, "the trailer's \"objects\" is \"110\", not a count (the file has 110 cases)");
    sh("sed 's/\\[instr mma.m16n8k8.f16.f16.f16.f16\\]/[instr mma.m16n8k8.f16.f16.f16.f61]/' "
       "oracle/profiles/h100.profile > %s/typo.profile", t);
    snprintf(args, sizeof args, "list --backend model:%s/typo.profile", t);
    refused(args, "typo.profile:11: [instr mma.m16n8k8.f16.f16.f16.f61]: not an instruction of the catalogue");
    sh("sed '2s/\"median\":0.026029504077371514/\"median\":-0.026029504077371514/' "
       "reports/baselines/h100-sweep.json > %s/neg.json && grep -q -- '-0.026029504077371514' %s/neg.json", t, t);
    snprintf(args, sizeof args, "sweep --render %s/neg.json --out %s/neg", t, t);
    refused(args, "neg.json:2: sweep step 2: field 'median' is -0.026029504077371514, outside 0..inf");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compare_repeated_key),
        cmocka_unit_test(compare_kinds_order_subset),
        cmocka_unit_test(compare_gemm_and_hunt),
        cmocka_unit_test(gemm_fields_in_range),
        cmocka_unit_test(merge_conflict),
        cmocka_unit_test(shard_pair_parsed),
        cmocka_unit_test(cases_not_utf8),
        cmocka_unit_test(partial_record_remembered),
        cmocka_unit_test(gemm_sim_empty_item),
        cmocka_unit_test(npy_header_as_defined),
        cmocka_unit_test(record_options_check_kind),
        cmocka_unit_test(smaller_reads),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
