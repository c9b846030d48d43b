/* The H100 audited again on 2026-11-24, twice, each with one command at the
 * default budget (`tcscope audit --instr all`, --jobs 16): with the kernels
 * of this build's ptxas (reports/baselines/h100-audit-jobs.jsonl.gz) and
 * with the kernels the driver compiled from the binary's PTX (gpu:jit,
 * h100-audit-jit.jsonl.gz). Checked here: each record says which compiler
 * made its code; both verified every instruction; the two agree on every
 * fingerprint field (`tcscope compare`); and each field either equals the
 * committed profile's or is one the record marks undecided at that budget,
 * with the profile's value among its equivalents (the committed profile was
 * fitted with a larger hunt budget and a hunt's counterexample).
 *
 * These four records are slim (tools/audit-slim.py, reports/SCHEMA.md "Slim
 * audit records"): where an object's answers, evidence or features equal the
 * single-process record's (h100-audit.jsonl.gz) it keeps only their sha256,
 * and the record reader puts them back. Checked here on the files as
 * committed: every hash is that of the value it stands for; the H200 gave
 * the --jobs run's answers, evidence and features, and the JIT and ptxas
 * 12.9 audits its evidence and features, to every instruction. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "reports/record_audit.h"
#include "reports/reports.h"
#include "tests/testutil.h"

#define JOBS "reports/baselines/h100-audit-jobs.jsonl.gz"
#define JIT "reports/baselines/h100-audit-jit.jsonl.gz"
#define H200 "reports/baselines/h200-audit.jsonl.gz"
#define PTXAS12 "reports/baselines/h100-audit-ptxas12.jsonl.gz"
#define SINGLE "reports/baselines/h100-audit.jsonl.gz"

static char tmp_jobs[64], tmp_jit[64], tmp_h200[64], tmp_p12[64], tmp_single[64];

static int unpack(void **state)
{
    snprintf(tmp_jobs, sizeof tmp_jobs, "/tmp/tcs-reaudit-jobs-%d.jsonl", (int)getpid());
    snprintf(tmp_jit, sizeof tmp_jit, "/tmp/tcs-reaudit-jit-%d.jsonl", (int)getpid());
    snprintf(tmp_h200, sizeof tmp_h200, "/tmp/tcs-reaudit-h200-%d.jsonl", (int)getpid());
    snprintf(tmp_p12, sizeof tmp_p12, "/tmp/tcs-reaudit-p12-%d.jsonl", (int)getpid());
    snprintf(tmp_single, sizeof tmp_single, "/tmp/tcs-reaudit-single-%d.jsonl", (int)getpid());
    char cmd[640];
    snprintf(cmd, sizeof cmd, "gzip -dc " JOBS " > %s && gzip -dc " JIT " > %s && gzip -dc " H200 " > %s && gzip -dc "
             PTXAS12 " > %s && gzip -dc " SINGLE " > %s", tmp_jobs, tmp_jit, tmp_h200, tmp_p12, tmp_single);
    return system(cmd);
}

static int cleanup(void **state)
{
    unlink(tmp_jobs);
    unlink(tmp_jit);
    unlink(tmp_h200);
    unlink(tmp_p12);
    unlink(tmp_single);
    return 0;
}

/* The lines of a decompressed file as written (a slim record's hashes
 * without the values they stand for). */
static json_t *raw_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    json_t *all = json_array();
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        if (!o)
            fail_msg("%s: %s", path, je.text);
        json_array_append_new(all, o);
    }
    free(line);
    fclose(f);
    return all;
}

/* A committed record as every reader sees it (tc_record_load: a slim one
 * completed from its full record): the header, then the objects. */
static json_t *lines(const char *path)
{
    tc_record rec;
    char err[1024];
    if (tc_record_load(path, &rec, err, sizeof err))
        fail_msg("%s", err);
    json_t *all = json_array();
    json_array_append(all, rec.header);
    json_array_extend(all, rec.objects);
    tc_record_free(&rec);
    return all;
}

static void compilers_are_recorded_and_the_records_agree(void **state)
{
    json_t *a = lines(JOBS), *b = lines(JIT);
    const json_t *ha = json_array_get(a, 0), *hb = json_array_get(b, 0);
    assert_non_null(strstr(json_string_value(json_object_get(ha, "compiler")), "ptxas V13.0"));
    assert_non_null(strstr(json_string_value(json_object_get(hb, "compiler")), "driver JIT 580.159.04"));
    assert_string_equal(json_string_value(json_object_get(hb, "backend")), "gpu:0:jit");
    json_decref(a);
    json_decref(b);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "compare " JOBS " " JIT);
    tc_run_result r = tc_run_cli(cmd);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "256 objects compared, no difference"));
    tc_run_result_free(&r);
}

static void fields_match_the_profile_or_are_undecided(void **state)
{
    model_profile prof;
    char err[256];
    if (profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err))
        fail_msg("%s", err);
    json_t *a = lines(JOBS);
    size_t i, verified = 0, fields = 0, same = 0, undecided = 0;
    json_t *o;
    json_array_foreach(a, i, o) {
        const char *instr = json_string_value(json_object_get(o, "instr"));
        if (!instr || json_object_get(o, "control"))
            continue;
        verified += json_is_true(json_object_get(json_object_get(o, "verification"), "verified"));
        const model_params *p = profile_lookup(&prof, instr);
        assert_non_null(p);
        json_t *no = tc_audit_normalized(o);   /* a field added after the record: its absent value */
        const json_t *fp = json_object_get(no, "fingerprint"), *ev = json_object_get(o, "evidence");
        for (int f = 0; f < model_field_count(); f++) {
            const char *key = model_fields[f].key;
            char want[64], got[64];   /* profile text, whichever form the record has (reports/record_audit.h) */
            model_field_text(p, f, want, sizeof want);
            assert_true(tc_fingerprint_text(key, json_object_get(fp, key), got, sizeof got));
            fields++;
            if (!strcmp(got, want)) {
                same++;
                continue;
            }
            const json_t *e = json_object_get(ev, key);
            const char *eq = json_string_value(json_object_get(e, "equivalent"));
            if (json_is_true(json_object_get(e, "identifiable")) || !eq || !strstr(eq, want))
                fail_msg("%s %s: the re-audit says %s (decided), the profile %s", instr, key, got, want);
            undecided++;
        }
        json_decref(no);
    }
    printf("re-audit: %zu verified; %zu fields, %zu as the profile, %zu undecided at the default budget\n",
           verified, fields, same, undecided);
    assert_int_equal(verified, 252);
    assert_true(undecided <= 5); /* the 3 m64n256 tf32 floors and the 2 FP8 widenings, on 2026-11-24 */
    json_decref(a);
    profile_free(&prof);
}

/* Pairs the instruction lines of the records a and b (the same order, the
 * same instructions) and checks that each of b's fingerprints and SASS
 * opcodes equals a's (na and nb name them in the messages); with timing,
 * also the latency and throughput per clock and SM within 1%. Returns the
 * pairs, with *verified the lines of b that say they are verified. */
static size_t same_arithmetic(const json_t *a, const json_t *b, const char *na, const char *nb, bool timing,
                              size_t *verified)
{
    assert_int_equal(json_array_size(a), json_array_size(b));
    size_t i, n = 0;
    json_t *o;
    *verified = 0;
    json_array_foreach(a, i, o) {
        const char *instr = json_string_value(json_object_get(o, "instr"));
        if (!instr)
            continue;
        const json_t *p = json_array_get(b, i);
        assert_string_equal(json_string_value(json_object_get(p, "instr")), instr);
        *verified += json_is_true(json_object_get(json_object_get(p, "verification"), "verified"));
        json_t *no = tc_audit_normalized(o), *np = tc_audit_normalized(p);   /* either form, as one */
        if (!json_equal(json_object_get(no, "fingerprint"), json_object_get(np, "fingerprint")))
            fail_msg("%s: %s's fingerprint differs from %s's", instr, nb, na);
        json_decref(no);
        json_decref(np);
        const json_t *ta = json_object_get(o, "timing"), *tb = json_object_get(p, "timing");
        const char *sa = json_string_value(json_object_get(ta, "sass")), *sb = json_string_value(json_object_get(tb, "sass"));
        assert_true(sa && sb);
        assert_string_equal(sa, sb);
        static const char *const keys[] = {"latency_cycles", "throughput_fma_clk_sm"};
        for (int k = 0; timing && k < 2; k++) {
            double x = json_number_value(json_object_get(ta, keys[k])), y = json_number_value(json_object_get(tb, keys[k]));
            if (x > 0 && (y < 0.99 * x || y > 1.01 * x))
                fail_msg("%s %s: %s %g, %s %g", instr, keys[k], na, x, nb, y);
        }
        n++;
    }
    return n;
}

/* The H200 (tools/device.sh h200, the same build and budget): every
 * instruction verified, each fingerprint equal to the H100's, the same SASS
 * opcode, and the same latency and throughput per clock and SM within 1%;
 * model:h200 is usable like model:h100. */
static void h200_is_the_h100s_arithmetic(void **state)
{
    json_t *a = lines(JOBS), *b = lines(H200);
    assert_string_equal(json_string_value(json_object_get(json_array_get(b, 0), "gpu")), "NVIDIA H200");
    size_t verified;
    assert_int_equal(same_arithmetic(a, b, "the H100", "the H200", true, &verified), 256);
    assert_int_equal(verified, 256);
    json_decref(a);
    json_decref(b);
    tc_run_result r = tc_run_cli("run --backend model:h200 --instr mma.m16n8k8.f32.f16.f16.f32 --a 1 --b 1 --c 0");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "on model:h200"));
    tc_run_result_free(&r);
}

/* The catalogue audited with kernels from CUDA 12.9's ptxas (make PTXAS=..., tools/device.sh ptxas;
 * the record's per-case answers removed for size): the record names that assembler, every
 * instruction is verified, and each fingerprint and SASS opcode equals the ptxas 13.0 record's. */
static void ptxas12_gives_the_same_arithmetic(void **state)
{
    json_t *a = lines(JOBS), *b = lines(PTXAS12);
    assert_non_null(strstr(json_string_value(json_object_get(json_array_get(b, 0), "compiler")), "ptxas V12.9.86"));
    size_t verified;
    assert_int_equal(same_arithmetic(a, b, "ptxas 13.0", "ptxas 12.9", false, &verified), 256);
    assert_int_equal(verified, 256);
    json_decref(a);
    json_decref(b);
}

/* The sha256 of each value's canonical form (compact, keys sorted: what
 * tools/audit-slim.py hashes), as 64 hex digits in hex[i]: each written to a
 * file of a scratch folder, one sha256sum (coreutils) over them all. */
static void canonical_sha256(const json_t *values, char (*hex)[65])
{
    char dir[] = "/tmp/tcs-reaudit-shaXXXXXX";
    assert_non_null(mkdtemp(dir));
    size_t i, n = json_array_size(values);
    json_t *v;
    json_array_foreach(values, i, v) {
        char path[64];
        snprintf(path, sizeof path, "%s/%zu", dir, i);
        assert_int_equal(json_dump_file(v, path, JSON_COMPACT | JSON_SORT_KEYS), 0);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "cd %s && sha256sum -- * && rm -f -- *", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t got = 0, k;
    char h[65], name[32];
    while (fscanf(p, "%64s %31s", h, name) == 2) {
        assert_true(sscanf(name, "%zu", &k) == 1 && k < n);
        memcpy(hex[k], h, sizeof h);
        got++;
    }
    assert_int_equal(pclose(p), 0);
    rmdir(dir);
    assert_int_equal(got, n);
}

/* Checks every FIELD_sha256 of the slim record at path (raw: decompressed,
 * as committed) against the value it stands for (the object's own, else the
 * single-process record's for that instruction); returns the hashes as
 * {instr: {field: hash}} and, in *left_out, how many values it relies on
 * the single record for. name: the committed file, for the messages. */
static json_t *slim_hashes(const char *path, const char *name, const json_t *single, size_t *left_out)
{
    json_t *rec = raw_lines(path), *vals = json_array(), *where = json_array(), *by_instr = json_object();
    const json_t *fields = json_object_get(json_object_get(json_array_get(rec, 0), "slim"), "fields");
    assert_true(json_array_size(fields) > 0);
    size_t i, k;
    json_t *o, *f;
    *left_out = 0;
    json_array_foreach(rec, i, o) {
        const char *instr = json_string_value(json_object_get(o, "instr"));
        json_array_foreach(fields, k, f) {
            const char *field = json_string_value(f);
            char key[64];
            snprintf(key, sizeof key, "%s_sha256", field);
            const char *h = json_string_value(json_object_get(o, key));
            if (!instr || !h)
                continue;
            json_t *v = json_object_get(o, field);
            if (!v) {
                v = json_object_get(json_object_get(single, instr), field);
                if (!v)
                    fail_msg("%s %s: no %s here or in " SINGLE, name, instr, field);
                ++*left_out;
            }
            json_array_append(vals, v);
            json_array_append_new(where, json_pack("[s,s,s]", instr, field, h));
            json_t *per = json_object_get(by_instr, instr);
            if (!per)
                json_object_set_new(by_instr, instr, per = json_object());
            json_object_set_new(per, field, json_string(h));
        }
    }
    char (*hex)[65] = calloc(json_array_size(vals) + 1, sizeof *hex);
    canonical_sha256(vals, hex);
    json_array_foreach(where, i, o) {
        const char *instr = json_string_value(json_array_get(o, 0)), *field = json_string_value(json_array_get(o, 1));
        const char *want = json_string_value(json_array_get(o, 2));
        if (strcmp(hex[i], want))
            fail_msg("%s %s: %s_sha256 %s, the %s hash to %s", name, instr, field, want, field, hex[i]);
    }
    free(hex);
    json_decref(vals);
    json_decref(where);
    json_decref(rec);
    return by_instr;
}

/* Every field of b's hashes equals a's (b: the record named nb). */
static void same_hashes(const json_t *a, const json_t *b, const char *nb, const char *const *fields, int nfields)
{
    assert_int_equal(json_object_size(a), json_object_size(b));
    const char *instr;
    json_t *pa;
    json_object_foreach((json_t *)a, instr, pa) {
        const json_t *pb = json_object_get(b, instr);
        for (int k = 0; k < nfields; k++) {
            const char *ha = json_string_value(json_object_get(pa, fields[k]));
            const char *hb = json_string_value(json_object_get(pb, fields[k]));
            if (!ha != !hb || (ha && strcmp(ha, hb)))
                fail_msg("%s %s: its %s differ from the --jobs run's", nb, instr, fields[k]);
        }
    }
}

static void slim_records_hold_the_hash_of_their_values(void **state)
{
    json_t *all = raw_lines(tmp_single), *single = json_object();
    size_t i;
    json_t *o;
    json_array_foreach(all, i, o) {
        const char *instr = json_string_value(json_object_get(o, "instr"));
        if (instr)
            json_object_set(single, instr, o);
    }
    size_t out_jobs, out_h200, out_jit, out_p12;
    json_t *jobs = slim_hashes(tmp_jobs, JOBS, single, &out_jobs);
    json_t *h200 = slim_hashes(tmp_h200, H200, single, &out_h200);
    json_t *jit = slim_hashes(tmp_jit, JIT, single, &out_jit);
    json_t *p12 = slim_hashes(tmp_p12, PTXAS12, single, &out_p12);
    static const char *const all_fields[] = {"answers", "evidence", "features"};
    assert_int_equal(json_object_size(jobs), 256);
    same_hashes(jobs, h200, H200, all_fields, 3);   /* the H200 answered every case as the H100 */
    same_hashes(jobs, jit, JIT, all_fields + 1, 2); /* the same evidence through the driver's JIT */
    same_hashes(jobs, p12, PTXAS12, all_fields + 1, 2);
    printf("slim records: values taken from the single run's record: %zu (--jobs), %zu (H200), %zu (JIT), "
           "%zu (ptxas 12.9)\n", out_jobs, out_h200, out_jit, out_p12);
    assert_true(out_jobs >= 740 && out_h200 >= 740 && out_jit >= 498 && out_p12 >= 498);
    json_decref(jobs);
    json_decref(h200);
    json_decref(jit);
    json_decref(p12);
    json_decref(single);
    json_decref(all);
}

/* A slim record away from its full record is refused, naming what is
 * missing (never read with its evidence absent). */
static void a_slim_record_needs_its_full_record(void **state)
{
    tc_record rec;
    char err[1024];
    assert_int_equal(tc_record_load(tmp_jit, &rec, err, sizeof err), -1);
    assert_non_null(strstr(err, "slim record: its full record"));
    assert_non_null(strstr(err, "h100-audit.jsonl.gz"));
    char cmd[256];
    snprintf(cmd, sizeof cmd, "compare %s " JOBS, tmp_jit);
    tc_run_result r = tc_run_cli(cmd);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "slim record"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compilers_are_recorded_and_the_records_agree),
        cmocka_unit_test(fields_match_the_profile_or_are_undecided),
        cmocka_unit_test(h200_is_the_h100s_arithmetic),
        cmocka_unit_test(ptxas12_gives_the_same_arithmetic),
        cmocka_unit_test(slim_records_hold_the_hash_of_their_values),
        cmocka_unit_test(a_slim_record_needs_its_full_record),
    };
    return cmocka_run_group_tests(tests, unpack, cleanup);
}
