/* Chain records (probes/backend_corpus.h, lines by reports/record_corpus.h):
 * written on the exact backend and the H100 model, read back and replayed step by step with zero mismatches;
 * a planted one-bit change is found; damaged lines are refused; a wgmma of
 * another N (and .rs) is written as same_as its twin. And the recorded H100
 * chains (reports/baselines/h100-chain.packed.xz) replayed on the model,
 * each line written back byte for byte from what was read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "probes/record_json.h"
#include "reports/record_packed.h"
#include "tests/corpus_lines.h"

#define NCHAINS 3
#define LEN 4
#define NREC 5

static const char *const chain_file = "reports/baselines/h100-chain.packed.xz";

static const tc_rounding RNE_SAT = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
static const tc_rounding RNE_INF = {.mode = TC_RNE, .ovf = TC_OVF_INF};

/* The lines written to a memory stream, split in place; *n receives the count. */
static char **split_lines(char *buf, size_t *n)
{
    char **v = calloc(64, sizeof *v);
    assert_non_null(v);
    *n = 0;
    for (char *p = buf, *nl; *p && (nl = strchr(p, '\n')); p = nl + 1) {
        *nl = '\0';
        assert_true(*n < 64);
        v[(*n)++] = p;
    }
    return v;
}

static void check_clean(tc_backend *b, const tc_chain_rec *r)
{
    char err[384];
    size_t dm, xm, xn;
    if (tc_chain_check(b, r, &dm, &xm, &xn, err, sizeof err))
        fail_msg("%s", err);
    if (dm || xm || xn)
        fail_msg("%s on %s: %zu D, %zu X mismatches, %zu X NaN patterns", r->ins->name, r->backend, dm, xm, xn);
}

/* The index of an element of step `step` (of mk elements of f) whose bit at
 * f's last place can be flipped without leaving the finite values, or
 * SIZE_MAX when there is none (a chain that NaN has taken over). */
static size_t finite_flip(const uint64_t *x, size_t step, size_t mk, const tc_format *f, uint64_t *flipped)
{
    for (size_t e = step * mk; e < (step + 1) * mk; e++) {
        uint64_t y = x[e] ^ (1ull << f->shift);
        if (tc_classify(f, x[e]) == TC_FINITE && tc_classify(f, y) == TC_FINITE) {
            *flipped = y;
            return e;
        }
    }
    return SIZE_MAX;
}

/* A planted change of one bit: in the last step's D of a chain (read by no
 * later X) exactly one D mismatch; in an X after a chain's first step exactly
 * one X mismatch (the D it fed is then judged against that input). */
static void planted_bits_are_found(tc_backend *b, tc_chain_rec *r)
{
    char err[384];
    size_t dm, xm, xn, mk = (size_t)r->ins->m * (size_t)r->ins->k, L = (size_t)r->len;
    uint64_t y;
    size_t e = SIZE_MAX;
    for (size_t c = 0; c < r->nchains && e == SIZE_MAX; c++)
        e = finite_flip(r->D, c * L + L - 1, mk, r->ins->d, &y);
    assert_true(e != SIZE_MAX);
    uint64_t keep = r->D[e];
    r->D[e] = y;
    assert_int_equal(tc_chain_check(b, r, &dm, &xm, &xn, err, sizeof err), 0);
    assert_int_equal(dm, 1);
    assert_int_equal(xm, 0);
    r->D[e] = keep;
    e = SIZE_MAX;
    for (size_t s = 0; s < r->nchains * L && e == SIZE_MAX; s++)
        if (s % L)
            e = finite_flip(r->X, s, mk, r->ins->a, &y);
    assert_true(e != SIZE_MAX);
    keep = r->X[e];
    r->X[e] = y;
    assert_int_equal(tc_chain_check(b, r, &dm, &xm, &xn, err, sizeof err), 0);
    assert_int_equal(xm, 1);
    assert_int_equal(xn, 0);
    r->X[e] = keep;
}

/* Records a few instructions on `spec`, reads them back and replays them on
 * the same backend: zero mismatches; the .rs wgmma of another N is same_as
 * the n8 line; planted bits and damaged lines are caught. */
static void round_trip_on(const char *spec)
{
    char err[384];
    tc_backend *b = tc_backend_open(spec, err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    /* the .rs n32 line (3) is written with the n8 line (2) as its twin; the
     * TF32 line (4) has a 32-bit container and the cvt the GPU can do */
    static const char *const names[NREC] = {"mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k32.f32.e4m3.e5m2.f32",
                                            "wgmma.m64n8k16.f32.bf16.bf16", "wgmma.m64n32k16.f32.bf16.bf16.rs",
                                            "mma.m16n8k8.f32.tf32.tf32.f32"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tc_chain_rec full[NREC];
    for (size_t i = 0; i < NREC; i++) {
        const tc_instr *ins = tc_instr_by_name(names[i]);
        assert_non_null(ins);
        const tc_chain_rec *twin = i == 3 ? &full[2] : NULL;
        if (tc_chain_line(b, ins, NCHAINS, LEN, i == 4 ? RNE_INF : RNE_SAT, 7, twin, &full[i], f, err, sizeof err))
            fail_msg("%s: %s", names[i], err);
    }
    fclose(f);
    size_t n;
    char **lines = split_lines(buf, &n);
    assert_int_equal(n, NREC);
    assert_non_null(strstr(lines[3], "\"same_as\":\"wgmma.m64n8k16.f32.bf16.bf16\""));
    assert_string_equal(full[3].same_as, "wgmma.m64n8k16.f32.bf16.bf16");
    assert_null(strstr(lines[3], "\"d\":"));
    assert_non_null(strstr(lines[1], "\"cvt\":{\"round\":\"rne\",\"overflow\":\"sat\"}"));
    tc_chain_rec rec[NREC];
    for (size_t i = 0; i < NREC; i++)
        if (tc_chain_parse(lines[i], &rec[i], err, sizeof err))
            fail_msg("line %zu: %s", i + 1, err);
    assert_null(rec[3].X);
    assert_int_equal(tc_chain_resolve(&rec[3], NULL, err, sizeof err), -1);
    assert_int_equal(tc_chain_resolve(&rec[3], &rec[1], err, sizeof err), -1); /* another key */
    assert_int_equal(tc_chain_resolve(&rec[3], &rec[2], err, sizeof err), 0);
    for (size_t i = 0; i < NREC; i++) {
        const tc_instr *ins = rec[i].ins;
        size_t mk = (size_t)ins->m * (size_t)ins->k, steps = NCHAINS * LEN;
        assert_string_equal(ins->name, names[i]);
        assert_int_equal(rec[i].nchains, NCHAINS);
        assert_int_equal(rec[i].len, LEN);
        assert_int_equal(rec[i].seed, 7);
        assert_int_equal(rec[i].cvt.mode, TC_RNE);
        assert_int_equal(rec[i].cvt.ovf, i == 4 ? TC_OVF_INF : TC_OVF_SAT);
        assert_string_equal(rec[i].backend, tc_backend_get_info(b)->backend);
        /* what was read is what was run, bit for bit */
        assert_memory_equal(rec[i].A0, full[i].A0, NCHAINS * mk * 8);
        assert_memory_equal(rec[i].B, full[i].B, steps * (size_t)ins->k * (size_t)ins->k * 8);
        assert_memory_equal(rec[i].C, full[i].C, steps * mk * 8);
        assert_memory_equal(rec[i].X, full[i].X, steps * mk * 8);
        assert_memory_equal(rec[i].D, full[i].D, steps * mk * 8);
        check_clean(b, &rec[i]);
    }
    planted_bits_are_found(b, &rec[0]);
    planted_bits_are_found(b, &rec[2]); /* N = 8 < K = 16: two column blocks per step */
    planted_bits_are_found(b, &rec[4]); /* TF32: the last place is bit 13 of the container */
    /* an unresolved same_as line cannot be replayed */
    tc_chain_rec bare;
    assert_int_equal(tc_chain_parse(lines[3], &bare, err, sizeof err), 0);
    size_t dm, xm, xn;
    assert_int_equal(tc_chain_check(b, &bare, &dm, &xm, &xn, err, sizeof err), -1);
    /* a damaged line is refused, not half-read */
    lines[1][strlen(lines[1]) / 2] = 'z';
    tc_chain_rec bad;
    assert_int_equal(tc_chain_parse(lines[1], &bad, err, sizeof err), -1);
    assert_null(bad.A0);
    lines[0][strlen(lines[0]) - 40] = '\0'; /* cut short */
    assert_int_equal(tc_chain_parse(lines[0], &bad, err, sizeof err), -1);
    for (size_t i = 0; i < NREC; i++) {
        tc_chain_rec_free(&rec[i]);
        tc_chain_rec_free(&full[i]);
    }
    free(lines);
    free(buf);
    tc_backend_close(b);
}

static void chains_round_trip_on_exact(void **state)
{
    round_trip_on("exact");
}

static void chains_round_trip_on_the_h100_model(void **state)
{
    round_trip_on("model:h100");
}

/* Keys: one per wgmma type and K; inputs: the same for the same key and
 * seed, chain c the same whatever the number and length of chains; B small
 * (about 1/sqrt(K)), so that a chain of normal values stays bounded. */
static void chain_keys_and_inputs(void **state)
{
    char k1[96], k2[96], k3[96];
    const tc_instr *n8 = tc_instr_by_name("wgmma.m64n8k16.f32.bf16.bf16"),
                   *n256rs = tc_instr_by_name("wgmma.m64n256k16.f32.bf16.bf16.rs"),
                   *mma = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    tc_chain_key(n8, k1, sizeof k1);
    tc_chain_key(n256rs, k2, sizeof k2);
    tc_chain_key(mma, k3, sizeof k3);
    assert_string_equal(k1, "wgmma.m64nk16.f32.bf16.bf16");
    assert_string_equal(k2, k1);
    assert_string_equal(k3, mma->name);
    size_t mk = 64 * 16, kk = 16 * 16;
    uint64_t *A = malloc(4 * mk * 8), *B = malloc(4 * 3 * kk * 8), *C = malloc(4 * 3 * mk * 8);
    uint64_t *A2 = malloc(2 * mk * 8), *B2 = malloc(2 * 2 * kk * 8), *C2 = malloc(2 * 2 * mk * 8);
    tc_chain_inputs(n8, 4, 3, 11, A, B, C);
    tc_chain_inputs(n256rs, 2, 2, 11, A2, B2, C2);
    assert_memory_equal(A, A2, 2 * mk * 8);
    for (size_t c = 0; c < 2; c++) /* chain c, steps 1 and 2 */
        for (size_t i = 0; i < 2; i++) {
            assert_memory_equal(B + (c * 3 + i) * kk, B2 + (c * 2 + i) * kk, kk * 8);
            assert_memory_equal(C + (c * 3 + i) * mk, C2 + (c * 2 + i) * mk, mk * 8);
        }
    size_t finite = 0;
    double sum2 = 0;
    for (size_t e = 0; e < 4 * 3 * kk; e++)
        if (tc_classify(&tc_bf16, B[e]) == TC_FINITE) {
            double v = tc_decode_to_f64(&tc_bf16, B[e]);
            if (v > -1 && v < 1) {
                finite++;
                sum2 += v * v;
            }
        }
    assert_true(finite > 4 * 3 * kk * 9 / 10); /* 1 in 32 any pattern */
    double k_eb2 = 16 * sum2 / (double)finite;
    assert_true(k_eb2 > 0.1 && k_eb2 < 0.5);
    free(A), free(B), free(C), free(A2), free(B2), free(C2);
}

/* Sparse and integer instructions have no chains; a twin of another key or
 * seed is refused; a stochastic cvt is refused; nothing is written then. */
static void chain_record_refuses(void **state)
{
    char err[384];
    tc_backend *b = tc_backend_open("exact", err, sizeof err);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tc_chain_rec rec, twin;
    assert_int_equal(tc_chain_line(b, tc_instr_by_name("mma.sp.m16n8k16.f32.f16.f16.f32"), 1, 2, RNE_SAT, 1,
                                     NULL, &rec, f, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "sparse"));
    assert_int_equal(tc_chain_line(b, tc_instr_by_name("mma.m16n8k32.s32.s8.s8.s32"), 1, 2, RNE_SAT, 1, NULL,
                                     &rec, f, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "integer"));
    tc_rounding rs = {.mode = TC_RS, .ovf = TC_OVF_SAT};
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k8.f32.bf16.bf16.f32");
    assert_int_equal(tc_chain_line(b, ins, 1, 2, rs, 1, NULL, &rec, f, err, sizeof err), -1);
    assert_int_equal(tc_chain_line(b, ins, 1, 2, RNE_SAT, 1, NULL, &twin, f, err, sizeof err), 0);
    fflush(f);
    size_t one = len;
    assert_true(one > 0);
    assert_int_equal(tc_chain_line(b, ins, 1, 2, RNE_SAT, 2, &twin, &rec, f, err, sizeof err), -1);
    assert_int_equal(tc_chain_line(b, ins, 2, 2, RNE_SAT, 1, &twin, &rec, f, err, sizeof err), -1);
    fclose(f);
    assert_int_equal(len, one);
    assert_null(rec.A0);
    /* a line of another kind is not a chain */
    assert_int_equal(tc_chain_parse("{\"kind\":\"corpus\"}", &rec, err, sizeof err), -1);
    tc_chain_rec_free(&twin);
    free(buf);
    tc_backend_close(b);
}

/* The H100 record: every line written back byte for byte by the writer from
 * its parsed struct; every dense floating-point catalogue entry present, every
 * step of every chain reproduced by the recorded hardware model (D) and by
 * tc_encode with the recorded cvt (X); per instruction counts printed. */
static void h100_chain_record_replays_on_the_model(void **state)
{
    char err[700];
    tc_backend *b = tc_backend_open("model:h100", err, sizeof err);
    if (!b)
        fail_msg("%s", err);
    tc_record_file rf; /* packed: inputs drawn again from the seed, their sha256 checked */
    FILE *p = tc_record_open(chain_file, &rf, err, sizeof err);
    if (!p)
        fail_msg("%s", err);
    size_t ncat, lines = 0, bad = 0;
    const tc_instr *cat = tc_catalogue(&ncat);
    unsigned char *seen = calloc(ncat, 1);
    tc_chain_rec *kept = calloc(ncat, sizeof *kept); /* full wgmma lines, for the same_as lines after them */
    char *line = NULL;
    size_t cap = 0;
    print_message("%-38s %6s %4s %9s %10s %10s %13s\n", "instruction", "chains", "len", "elements", "d_mismatch",
                  "x_mismatch", "x_nan_pattern");
    tc_lines form; /* a record "chains" (or bare lines) */
    tc_lines_init(&form, "chains");
    while (getline(&line, &cap, p) > 0) {
        tc_chain_rec rec;
        int role = tc_lines_next(&form, line, err, sizeof err);
        if (role < 0)
            fail_msg("%s: %s", chain_file, err);
        if (role == 0)
            continue;
        if (tc_chain_parse(line, &rec, err, sizeof err))
            fail_msg("line %zu: %s", lines + 1, err);
        lines++;
        if (!tc_line_rewrites(line, NULL, &rec))
            fail_msg("line %zu: reports/record_corpus.c does not write it back byte for byte", lines);
        if (rec.same_as[0]) {
            const tc_instr *tw = tc_instr_by_name(rec.same_as);
            if (tc_chain_resolve(&rec, &kept[tw - cat], err, sizeof err))
                fail_msg("line %zu: %s", lines, err);
        }
        const tc_instr *ins = rec.ins;
        seen[ins - cat] = 1;
        size_t dm, xm, xn;
        if (tc_chain_check(b, &rec, &dm, &xm, &xn, err, sizeof err))
            fail_msg("line %zu: %s", lines, err);
        print_message("%-38s %6zu %4d %9zu %10zu %10zu %13zu\n", ins->name, rec.nchains, rec.len,
                      rec.nchains * (size_t)rec.len * (size_t)ins->m * (size_t)ins->k, dm, xm, xn);
        bad += dm || xm;
        if (!rec.same_as[0] && !strncmp(ins->api, "wgmma", 5)) { /* only wgmma keys are shared */
            tc_chain_rec_free(&kept[ins - cat]);
            kept[ins - cat] = rec;
        } else
            tc_chain_rec_free(&rec);
    }
    assert_int_equal(tc_record_close(p, &rf), 0);
    if (tc_lines_end(&form, err, sizeof err))
        fail_msg("%s: %s", chain_file, err);
    free(line);
    for (size_t i = 0; i < ncat; i++)
        tc_chain_rec_free(&kept[i]);
    free(kept);
    tc_backend_close(b);
    if (bad)
        fail_msg("%zu instructions with D or X mismatches (above)", bad);
    for (size_t i = 0; i < ncat; i++)
        if (!seen[i] && !cat[i].sparse && !tc_format_is_int(cat[i].a) && !tc_format_is_int(cat[i].d))
            fail_msg("%s: not in %s", cat[i].name, chain_file);
    free(seen);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(chain_keys_and_inputs),
        cmocka_unit_test(chain_record_refuses),
        cmocka_unit_test(chains_round_trip_on_exact),
        cmocka_unit_test(chains_round_trip_on_the_h100_model),
        cmocka_unit_test(h100_chain_record_replays_on_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
