/* The recorded GPU corpus (reports/baselines/h100-corpus-*.jsonl.gz) replayed
 * bit for bit through the inferred model (model:h100; the integer control
 * through the exact backend): every recorded output element must be
 * reproduced, NaN patterns included. Error statistics against the exact
 * oracle are printed beside; every line is written back byte for byte from
 * its parsed struct (reports/record_corpus.c, sass included). And the corpus
 * writer/reader round trip on the exact backend. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"
#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "probes/record_json.h"
#include "probes/sparse.h"
#include "reports/record_packed.h"
#include "reports/reports.h"
#include "tests/corpus_lines.h"

/* The H100 record, in files each under the fetch limit of the GPU machine;
 * .rs lines of the second refer to lines before them. Packed records
 * (reports/record_packed.h): the inputs are drawn again from the recorded
 * seed and checked against the recorded sha256 as the files are opened. */
static const char *const corpus_files[] = {
    "reports/baselines/h100-corpus-mma.packed.xz", "reports/baselines/h100-corpus-wgmma.packed.xz",
    "reports/baselines/h100-corpus-mma-sp.packed.xz", "reports/baselines/h100-corpus-wgmma-sp.packed.xz"};
#define NFILES (sizeof corpus_files / sizeof corpus_files[0])

/* Errors of every output against the correctly rounded sum of what the
 * instruction sums: every term, or for a sparse one its kept terms. */
static void corpus_errors(const tc_corpus_rec *rec, oracle_err *e)
{
    const tc_instr *ins = rec->ins;
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    if (!ins->sparse) {
        oracle_mma_err(f, ins->m, ins->n, ins->k, rec->ntiles, rec->A, rec->B, rec->C, rec->D, e);
        return;
    }
    size_t rows = rec->ntiles * (size_t)ins->m, kc = (size_t)ins->k / 2;
    uint64_t *Ar = malloc(rows * kc * sizeof *Ar), *Br = malloc(rows * kc * (size_t)ins->n * sizeof *Br);
    assert_non_null(Ar);
    assert_non_null(Br);
    if (tc_sparse_rows(ins, rec->ntiles, rec->A, rec->B, Ar, Br))
        fail_msg("%s: the recorded A is not 2:4 structured", ins->name);
    oracle_mma_err(f, 1, ins->n, (int)kc, rows, Ar, Br, rec->C, rec->D, e);
    free(Ar);
    free(Br);
}

/* Writing a corpus with the exact backend and reading it back gives the same
 * inputs (the generator's, for that seed) and outputs with zero error. */
static void exact_corpus_round_trips(void **state)
{
    char err[384];
    tc_backend *e = tc_backend_open("exact", err, sizeof err);
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k32.f32.e5m2.e4m3.f32");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(tc_corpus_line(e, ins, 1000, 5, f, err, sizeof err), 0);
    fclose(f);
    tc_corpus_rec rec;
    assert_int_equal(tc_corpus_parse(buf, &rec, err, sizeof err), 0);
    assert_ptr_equal(rec.ins, ins);
    assert_int_equal(rec.ntiles, tc_corpus_tiles(ins, 1000));
    assert_string_equal(rec.layout, "pass");
    size_t mk = 16 * 32, kn = 32 * 8, mn = 16 * 8;
    uint64_t *A = malloc(rec.ntiles * mk * 8), *B = malloc(rec.ntiles * kn * 8), *C = malloc(rec.ntiles * mn * 8);
    tc_corpus_inputs(ins, rec.ntiles, 5, A, B, C);
    assert_memory_equal(A, rec.A, rec.ntiles * mk * 8);
    assert_memory_equal(B, rec.B, rec.ntiles * kn * 8);
    assert_memory_equal(C, rec.C, rec.ntiles * mn * 8);
    oracle_formats fm = {ins->a, ins->b, ins->c, ins->d};
    oracle_err *er = malloc(rec.ntiles * mn * sizeof *er);
    oracle_mma_err(fm, 16, 8, 32, rec.ntiles, rec.A, rec.B, rec.C, rec.D, er);
    oracle_err_stats st;
    oracle_err_summarize(er, rec.ntiles * mn, &st);
    assert_int_equal(st.n_half, st.n); /* correctly rounded: within half an ulp, every one */
    assert_int_equal(st.n_nan, 0);
    /* a damaged line is refused, not half-read */
    buf[strlen(buf) / 2] = 'z';
    tc_corpus_rec bad;
    assert_int_equal(tc_corpus_parse(buf, &bad, err, sizeof err), -1);
    free(A), free(B), free(C), free(er), free(buf);
    tc_corpus_rec_free(&rec);
    tc_backend_close(e);
}

/* The H100 record: every catalogue entry present, its layout proven on
 * the GPU, its SASS read; the integer control exact; per-instruction error
 * statistics against the correctly rounded result printed. */
/* Every output of rec through b (model:h100, or exact for integers): the
 * number of elements whose bits differ, the first few printed with inputs. */
static size_t replay_bits(tc_backend *b, const tc_corpus_rec *rec)
{
    const tc_instr *ins = rec->ins;
    size_t mn = (size_t)ins->m * (size_t)ins->n, n = rec->ntiles * mn;
    uint64_t *D = malloc(n * sizeof *D);
    assert_non_null(D);
    char err[384];
    if (tc_backend_mma(b, ins, rec->ntiles, rec->A, rec->B, rec->C, D, err, sizeof err))
        fail_msg("%s: %s", ins->name, err);
    size_t bad = 0;
    int kk = ins->k;
    for (size_t e = 0; e < n; e++) {
        if (D[e] == rec->D[e])
            continue;
        if (bad++ >= 4)
            continue;
        size_t t = e / mn, i = (e % mn) / (size_t)ins->n, j = e % (size_t)ins->n;
        print_message("MISMATCH %s tile %zu (%zu,%zu): gpu 0x%llx model 0x%llx c 0x%llx\n  a:", ins->name, t, i,
                      j, (unsigned long long)rec->D[e], (unsigned long long)D[e],
                      (unsigned long long)rec->C[e]);
        for (int k = 0; k < kk; k++)
            print_message(" %llx", (unsigned long long)rec->A[(t * (size_t)ins->m + i) * (size_t)kk + (size_t)k]);
        print_message("\n  b:");
        for (int k = 0; k < kk; k++)
            print_message(" %llx",
                          (unsigned long long)rec->B[(t * (size_t)kk + (size_t)k) * (size_t)ins->n + j]);
        print_message("\n");
    }
    free(D);
    return bad;
}

static void h100_corpus_replays_against_the_oracle(void **state)
{
    char berr[384];
    tc_backend *model_b = tc_backend_open("model:h100", berr, sizeof berr),
               *exact_b = tc_backend_open("exact", berr, sizeof berr);
    assert_non_null(model_b);
    assert_non_null(exact_b);
    size_t total_bad = 0, total_elems = 0, instr_bad = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    size_t ncat, lines = 0;
    const tc_instr *cat = tc_catalogue(&ncat);
    unsigned char *seen = calloc(ncat, 1);
    tc_corpus_rec *kept = calloc(ncat, sizeof *kept); /* shared-memory twins of .rs lines */
    print_message("%-38s %7s %7s %7s %7s %10s %9s %-6s %s\n", "instruction", "n", "exact%", "<=1/2%", "<1ulp%",
                  "max_ulps", "nan_diff", "native", "sass");
    for (size_t fi = 0; fi < NFILES; fi++) {
        char err[700];
        tc_record_file rf;
        FILE *p = tc_record_open(corpus_files[fi], &rf, err, sizeof err);
        if (!p)
            fail_msg("%s", err);
        tc_lines form; /* a record "corpus" (or bare lines) */
        tc_lines_init(&form, "corpus");
        while ((got = getline(&line, &cap, p)) > 0) {
            tc_corpus_rec rec;
            int role = tc_lines_next(&form, line, err, sizeof err);
            if (role < 0)
                fail_msg("%s: %s", corpus_files[fi], err);
            if (role == 0)
                continue;
            if (tc_corpus_parse(line, &rec, err, sizeof err))
                fail_msg("line %zu: %s", lines + 1, err);
            lines++;
            if (!tc_line_rewrites(line, &rec, NULL))
                fail_msg("line %zu: reports/record_corpus.c does not write it back byte for byte", lines);
            if (rec.inputs_of[0]) {
                const tc_instr *tw = tc_instr_by_name(rec.inputs_of);
                if (!tw || tc_corpus_resolve(&rec, &kept[tw - cat], err, sizeof err))
                    fail_msg("line %zu: %s", lines, tw ? err : "unknown twin");
            }
            const tc_instr *ins = rec.ins;
            seen[ins - cat] = 1;
            if (strcmp(rec.layout, "pass") != 0)
                fail_msg("%s: layout on the GPU: %s", ins->name, rec.layout);
            assert_true(rec.ntiles * (size_t)ins->m * (size_t)ins->n >= 10000);
            assert_true(rec.sass_read > 0 && rec.sass.opcode[0] != '\0');
            size_t n = rec.ntiles * (size_t)ins->m * (size_t)ins->n;
            oracle_err *e = malloc(n * sizeof *e);
            corpus_errors(&rec, e);
            oracle_err_stats s;
            oracle_err_summarize(e, n, &s);
            print_message("%-38s %7zu %7.2f %7.2f %7.2f %10.3g %9zu %-6s %s\n", ins->name, s.n,
                          100.0 * (double)s.n_exact / (double)s.n, 100.0 * (double)s.n_half / (double)s.n,
                          100.0 * (double)s.n_one / (double)s.n, s.max_ulps, s.n_nan,
                          rec.sass_read < 1 ? "?" : rec.sass.native ? "yes" : "no", rec.sass.opcode);
            if (tc_format_is_int(ins->d)) /* the exact-integer control: the sums fit, so no error at all */
                assert_int_equal(s.n_exact, s.n);
            free(e);
            size_t bad = replay_bits(tc_format_is_int(ins->d) ? exact_b : model_b, &rec);
            total_bad += bad;
            total_elems += n;
            instr_bad += bad != 0;
            if (!strncmp(ins->api, "wgmma", 5) && !ins->a_in_regs)
                kept[ins - cat] = rec;
            else
                tc_corpus_rec_free(&rec);
        }
        assert_int_equal(tc_record_close(p, &rf), 0);
        if (tc_lines_end(&form, err, sizeof err))
            fail_msg("%s: %s", corpus_files[fi], err);
    }
    free(line);
    print_message("bit-for-bit replay: %zu of %zu recorded elements differ from the model, in %zu instructions\n",
                  total_bad, total_elems, instr_bad);
    assert_int_equal(total_bad, 0);
    tc_backend_close(model_b);
    tc_backend_close(exact_b);
    for (size_t i = 0; i < ncat; i++)
        tc_corpus_rec_free(&kept[i]);
    free(kept);
    for (size_t i = 0; i < ncat; i++)
        if (!seen[i])
            fail_msg("%s: not in the H100 corpus", cat[i].name);
    free(seen);
}

/* Feeds text's lines to a tc_lines of record; the sum of the roles, or -1
 * at the first refusal (the end included). */
static int lines_of(const char *record, const char *text)
{
    tc_lines s;
    tc_lines_init(&s, record);
    char err[256], *copy = strdup(text), *save = NULL;
    int sum = 0;
    for (char *l = strtok_r(copy, "\n", &save); l && sum >= 0; l = strtok_r(NULL, "\n", &save)) {
        int r = tc_lines_next(&s, l, err, sizeof err);
        sum = r < 0 ? -1 : sum + r;
    }
    free(copy);
    return sum < 0 || tc_lines_end(&s, err, sizeof err) ? -1 : sum;
}

/* Both forms of a file of lines are read, a record only when whole and of its
 * kind; the header is reports' (tc_record_header), so the probes' copy of
 * the schema string is checked against TC_RECORD_SCHEMA here. */
static void lines_come_bare_or_as_a_record(void **state)
{
    json_t *h = tc_record_header("corpus", NULL, NULL, 0);
    char *hs = json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER), text[2048];
    json_decref(h);
    const char *obj = "{\"kind\":\"tiles\",\"instr\":\"x\"}";
    assert_int_equal(lines_of("corpus", "{\"instr\":\"x\"}\n{\"instr\":\"y\"}\n"), 2); /* bare */
    snprintf(text, sizeof text, "%s\n%s\n%s\n{\"kind\":\"end\",\"objects\":2}\n", hs, obj, obj);
    assert_int_equal(lines_of("corpus", text), 2);
    assert_int_equal(lines_of("chains", text), -1); /* another record's header */
    snprintf(text, sizeof text, "%s\n%s\n%s\n", hs, obj, obj); /* cut: no trailer */
    assert_int_equal(lines_of("corpus", text), -1);
    snprintf(text, sizeof text, "%s\n%s\n{\"kind\":\"end\",\"objects\":2}\n", hs, obj); /* wrong count */
    assert_int_equal(lines_of("corpus", text), -1);
    snprintf(text, sizeof text, "%s\n%s\n{\"kind\":\"partial\",\"objects\":1,\"stopped\":\"x\"}\n", hs, obj);
    assert_int_equal(lines_of("corpus", text), -1);
    snprintf(text, sizeof text, "%s\n%s\n{\"kind\":\"end\",\"objects\":1}\n%s\n", hs, obj, obj); /* after */
    assert_int_equal(lines_of("corpus", text), -1);
    snprintf(text, sizeof text, "{\"instr\":\"x\"}\n%s\n", hs); /* a header amid bare lines */
    assert_int_equal(lines_of("corpus", text), -1);
    free(hs);
    /* a line of another kind is no corpus line */
    tc_corpus_rec rec;
    char err[256];
    assert_int_equal(tc_corpus_parse("{\"kind\":\"chain\",\"instr\":\"mma.m16n8k8.f16.f16.f16.f16\"}", &rec,
                                     err, sizeof err), -1);
    assert_non_null(strstr(err, "kind"));
}

/* A .rs line takes its twin's inputs and, when equal, its outputs. */
static void rs_lines_reference_their_twin(void **state)
{
    char err[384];
    tc_backend *e = tc_backend_open("exact", err, sizeof err);
    const tc_instr *ss = tc_instr_by_name("wgmma.m64n8k16.f32.bf16.bf16"),
                   *rs = tc_instr_by_name("wgmma.m64n8k16.f32.bf16.bf16.rs");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(tc_corpus_line(e, ss, 600, 9, f, err, sizeof err), 0);
    assert_int_equal(tc_corpus_line(e, rs, 600, 9, f, err, sizeof err), 0);
    fclose(f);
    char *second = strchr(buf, '\n') + 1;
    second[-1] = '\0';
    assert_non_null(strstr(second, "\"d_same_as\":\"wgmma.m64n8k16.f32.bf16.bf16\""));
    assert_null(strstr(second, "\"a\":"));
    tc_corpus_rec r1, r2;
    assert_int_equal(tc_corpus_parse(buf, &r1, err, sizeof err), 0);
    assert_int_equal(tc_corpus_parse(second, &r2, err, sizeof err), 0);
    assert_null(r2.A);
    assert_int_equal(tc_corpus_resolve(&r2, NULL, err, sizeof err), -1);
    assert_int_equal(tc_corpus_resolve(&r2, &r1, err, sizeof err), 0);
    assert_memory_equal(r2.D, r1.D, r1.ntiles * 64 * 8 * 8);
    tc_corpus_rec_free(&r1);
    tc_corpus_rec_free(&r2);
    free(buf);
    tc_backend_close(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lines_come_bare_or_as_a_record),
        cmocka_unit_test(exact_corpus_round_trips),
        cmocka_unit_test(rs_lines_reference_their_twin),
        cmocka_unit_test(h100_corpus_replays_against_the_oracle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
