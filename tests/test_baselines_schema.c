/* The schema checker on every committed record: each file under
 * reports/baselines/ (*.jsonl, *.jsonl.gz, *.json, *.json.gz, *.packed.xz) is either a
 * tcscope-record/1 that tc_record_load_any accepts (header, objects of the
 * header's kind, trailer; a .gz decompressed first, a packed one read as
 * its text), or one of the other
 * documented forms named below (SCHEMA.md "Other committed files"), which
 * must then not start like a record. A new committed file of neither kind
 * fails here until it is valid or documented. Then the checker itself must
 * refuse what SCHEMA.md forbids: numbers written as strings, bit strings in
 * the wrong hex case, a header kind its objects do not have. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reports/reports.h"

#define BASELINES "reports/baselines"

/* The committed files that are not tcscope-record/1, and what they are. */
static const struct {
    const char *name, *form;
} others[] = {
    {"h100-layout.jsonl", "tcscope run --layout lines, one per instruction"},
    {"h200-layout.jsonl", "tcscope run --layout lines, one per instruction"},
    {"h100-sparse-layout.jsonl", "tcscope run lines of the sparse instructions"},
    {"h100-mmasim-settled.jsonl.gz", "tools/mmasim_settle.py answers"},
    {"h200-thirdparty-settled.jsonl.gz", "tools/thirdparty_settle.py answers"},
    {"h100-bench-audit.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"vm-bench-audit.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"vm-stages-bench.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h100-corpus-executor-bench.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h100-host-bench-formats.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h100-host-bench-model.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h100-cvt.json", "one document, schema tcscope.cvt-sweep/1"},
    {"h100-cvt-exhaustive.json", "one document, schema tcscope.cvt-exhaustive/1"},
    {"h100-cvt-exhaustive-full.json", "one document, schema tcscope.cvt-exhaustive/1"},
    {"h100-cvt-exhaustive-mx.json", "one document, tools/exhaustive_f32 (schema 1)"},
    {"h100-cvt-bench-host.json", "one document, schema tcscope.bench/1"},
    {"h100-fleet-audit-1gpu.json", "one document, record tcscope-fleet (cli/fleet.c, reports/SCHEMA.md)"},
    {"h200-cvt-exhaustive.jsonl", "tools/exhaustive_f32 lines, one per format x mode x overflow x ftz x daz"},
    {"h200-model-gpu-check.json.gz", "one document, record model-gpu-check (tools/model_gpu_check.c)"},
    {"h200-model-gpu-bench.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h200-gemm-gpu-bench.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h200-stages.json", "one document, tools/device/stages.sh summary (per step: exit, wall_s, elements_per_s, stages)"},
    {"h200-choose-gpu-bench.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h200-bench-hunt.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h200-bench-audit.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h200-bench-random.jsonl", "benchmark figures {bench, value, unit, machine}"},
    {"h200-sass-build.json", "one document, runs by hand (the build's SASS file against cuobjdump)"},
    {"h200-choose-gpu.json", "one document, tools/device/choose-gpu.sh summary (steps, bench lines, choices with stages)"},
    {"h200-hunt-gpu.json", "one document, tools/device/hunt-gpu.sh summary (steps, GPU over host path)"},
    {"h200-regress-fast.json", "one document, tools/device/regress-fast.sh summary (runs, stages, ratios)"},
    {"h200-regress-slices.json", "one document, tools/device/regress-slices.sh summary (children, stages, draws)"},
    {"h200x2-fleet.json", "one document, tools/device/fleet.sh summaries (steps, wall times, ratios)"},
    {"h200x2-verify-slices.json", "one document, runs by hand (regress's check children: walls, stage sums)"},
    {"h200x2-fleet-regress.json.gz", "one document, record tcscope-fleet (cli/fleet.c, reports/SCHEMA.md)"},
    {"h200x2-fleet-audit.json", "one document, record tcscope-fleet (cli/fleet.c, reports/SCHEMA.md)"},
    {"h200x2-fit-gpu.json", "one document, tools/device/fit-gpu.sh summary (the fits on the GPU and on the cores)"},
    {"h200-audit-1e8.json", "one document, tools/device/audit-1e8.sh summary (wall, stages, elements per instruction)"},
    {"h200-random-gpu.json", "one document, runs by a script (the GPU tests, the hunt, regress: walls and lines)"},
    {"h200-regress-jobs.json", "one document, tools/device/regress-jobs.sh summaries (regress: walls and lines)"},
};

static const char *other_form(const char *name)
{
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        if (!strcmp(name, others[i].name))
            return others[i].form;
    return NULL;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* path, or for a .gz its contents in a temporary file (tmp, to be removed):
 * what starts_like_a_record reads. */
static const char *plain_copy(const char *path, char *tmp, size_t len)
{
    if (!ends_with(path, ".gz"))
        return path;
    snprintf(tmp, len, "/tmp/tcs-schema-XXXXXX");
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "gzip -dc '%s' > '%s'", path, tmp);
    assert_int_equal(system(cmd), 0);
    return tmp;
}

/* Whether the file's first bytes are a record header's. */
static bool starts_like_a_record(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char head[200] = "";
    size_t n = fread(head, 1, sizeof head - 1, f);
    head[n] = '\0';
    fclose(f);
    return strstr(head, "\"tcscope-record/") != NULL;
}

/* Appends "name: why" to the failures. */
static void note(char *fails, size_t len, const char *name, const char *why)
{
    size_t o = strlen(fails);
    snprintf(fails + o, len - o, "\n  %s: %s", name, why);
}

static void check_one(const char *dir, const char *name, size_t *nrec, size_t *nother, char *fails, size_t len)
{
    char path[1100], tmp[64] = "", err[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    const char *form = other_form(name);
    if (form) {
        if (starts_like_a_record(plain_copy(path, tmp, sizeof tmp)))
            note(fails, len, name, "listed as not a record, but it starts like one: check it as a record");
        ++*nother;
    } else {
        tc_record rec;
        /* as committed: a slim record beside its full record */
        if (tc_record_load_any(path, &rec, err, sizeof err) != 0)
            note(fails, len, name, err);
        else {
            tc_record_free(&rec);
            ++*nrec;
        }
    }
    if (tmp[0])
        unlink(tmp);
}

static void every_committed_record_is_valid(void **state)
{
    (void)state;
    static char fails[1 << 16];
    fails[0] = '\0';
    size_t nrec = 0, nother = 0;
    /* km/: the imported third-party rows km-<gpu>.jsonl.gz are records "dots"
     * (SCHEMA.md "Raw GPU records"); its *-audit-rows.json are audit tables
     * (tools/km_table.py), checked by test_km_replay */
    static const char *const dirs[] = {BASELINES, BASELINES "/km"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        DIR *d = opendir(dirs[i]);
        assert_non_null(d);
        struct dirent *e;
        while ((e = readdir(d)))
            if (i ? !strncmp(e->d_name, "km-", 3) && ends_with(e->d_name, ".jsonl.gz")
                  : ends_with(e->d_name, ".jsonl") || ends_with(e->d_name, ".jsonl.gz") ||
                        ends_with(e->d_name, ".json") || ends_with(e->d_name, ".packed.xz") ||
                        ends_with(e->d_name, ".json.gz"))
                check_one(dirs[i], e->d_name, &nrec, &nother, fails, sizeof fails);
        closedir(d);
    }
    check_one("tests/data", "hunt-fp8-subnormal.jsonl", &nrec, &nother, fails, sizeof fails);
    if (fails[0])
        fail_msg("committed files that are not valid tcscope-record/1:%s", fails);
    /* every listed other form is still there (a removed one is taken off the list) */
    assert_int_equal(nother, sizeof others / sizeof *others);
    /* 3 audits, 6 hunts, 2 sweeps, the H100 and H200 bench documents (.json.gz), the test hunt, 4 corpus
     * records, the chains record, 6 dots records: at least these */
    assert_true(nrec >= 24);
    print_message("%zu records valid, %zu files of other documented forms\n", nrec, nother);
}

/* A small valid record; each case below changes one thing in it. */
#define HEADER                                                                                             \
    "{\"schema\":\"tcscope-record/1\",\"kind\":\"%s\",\"tcscope_version\":\"t\",\"date\":\"d\",\"host\":\"h\"," \
    "\"backend\":\"exact\",\"gpu\":\"\",\"driver\":\"\",\"cuda\":\"\",\"clock_mhz\":null,\"seeds\":[\"%s\"],"   \
    "\"sm\":%s}\n"
#define AUDIT                                                                                                  \
    "{\"kind\":\"audit\",\"instr\":\"mma.m16n8k8.f32.f16.f16.f32\",\"fingerprint\":{\"block\":\"8\","          \
    "\"nan\":\"%s\",\"deterministic\":true},\"evidence\":{},\"verification\":{\"elements\":%s,\"mismatches\":0," \
    "\"verified\":true},\"timing\":null,\"fit_mismatches\":%s}\n"
#define CORPUS                                                                                             \
    "{\"kind\":\"corpus\",\"instr\":\"mma.m16n8k8.f32.f16.f16.f32\",\"count\":2,\"hash\":\"%s\","           \
    "\"outputs\":[\"0x3f800000\",\"%s\"]}\n"
#define BENCH                                                                                              \
    "{\"kind\":\"bench\",\"instr\":\"mma.m16n8k8.f32.f16.f16.f32\",\"latency_cycles\":%s,"                   \
    "\"throughput_fma_clk_sm\":null,\"fraction_of_peak\":null,\"tflops\":null,\"tflops_runs\":[%s]}\n"

typedef struct {
    const char *kind, *seed, *sm, *nan, *elements, *fit, *hash, *out, *lat, *runs;
} knobs;

static const knobs valid = {"mixed", "0x2a", "90", "0x7FFF", "500", "0", "0x00000000deadbeef", "0x3f80", "16.5", "1.0"};

/* Writes the record with these knobs and loads it: 0, or -1 with err. */
static int load_with(knobs k, bool with_corpus, char *err, size_t len)
{
    char path[] = "/tmp/tcs-schema-caseXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, HEADER, k.kind, k.seed, k.sm);
    fprintf(f, AUDIT, k.nan, k.elements, k.fit);
    if (with_corpus) {
        fprintf(f, CORPUS, k.hash, k.out);
        fprintf(f, BENCH, k.lat, k.runs);
    }
    fprintf(f, "{\"kind\":\"end\",\"objects\":%d}\n", with_corpus ? 3 : 1);
    fclose(f);
    tc_record rec;
    int rc = tc_record_load(path, &rec, err, len);
    if (rc == 0)
        tc_record_free(&rec);
    unlink(path);
    return rc;
}

static void refused(knobs k, bool with_corpus, const char *why)
{
    char err[600] = "";
    if (load_with(k, with_corpus, err, sizeof err) == 0)
        fail_msg("accepted a record that should be refused (%s)", why);
    if (!strstr(err, why))
        fail_msg("refused for another reason: '%s', expected '%s'", err, why);
}

static void checker_refuses_what_schema_forbids(void **state)
{
    (void)state;
    char err[600];
    if (load_with(valid, true, err, sizeof err) != 0)
        fail_msg("the valid record is refused: %s", err);
    knobs k = valid;
    k.kind = "audit";
    if (load_with(k, false, err, sizeof err) != 0) /* a kind all its objects have */
        fail_msg("an audit record is refused: %s", err);
    /* numbers as strings, in required and in optional fields */
    k = valid, k.elements = "\"500\"";
    refused(k, true, "'elements' must be an integer");
    k = valid, k.fit = "\"0\"";
    refused(k, true, "'fit_mismatches' must be an integer");
    k = valid, k.sm = "\"90\"";
    refused(k, true, "'sm' must be an integer or null");
    k = valid, k.lat = "\"16.5\"";
    refused(k, true, "'latency_cycles' must be a number or null");
    k = valid, k.runs = "\"1.0\"";
    refused(k, true, "'tflops_runs' must be an array of numbers");
    /* hex case: bit strings lower-case; the fingerprint's NaN pattern upper-case in this record's
     * form from before 2026-11-24 ("block":"8": tests/test_record_audit.c checks the current form) */
    k = valid, k.seed = "0x2A";
    refused(k, true, "'seeds' must be an array of \"0x..\" bit strings");
    k = valid, k.seed = "0X2a";
    refused(k, true, "'seeds' must be an array of \"0x..\" bit strings");
    k = valid, k.out = "0x3F80";
    refused(k, true, "'outputs' must be an array of \"0x..\" bit strings");
    k = valid, k.hash = "0x00000000DEADBEEF";
    refused(k, true, "'hash' must be \"0x\" and 16 lower-case hex digits");
    k = valid, k.hash = "0xdeadbeef";
    refused(k, true, "'hash' must be \"0x\" and 16 lower-case hex digits");
    k = valid, k.nan = "0x7fff";
    refused(k, true, "'nan' must be \"0x\" and upper-case hex");
    /* a header kind the objects do not have */
    k = valid, k.kind = "audit";
    refused(k, true, "header kind is 'audit' but object 2 is 'corpus'");
    k = valid, k.kind = "bench";
    refused(k, false, "header kind is 'bench' but object 1 is 'audit'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_committed_record_is_valid),
        cmocka_unit_test(checker_refuses_what_schema_forbids),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
