/* The GPU model (probes/model_gpu.h, probes/cuda/model_gpu.cu):
 *   - its kernels' SASS, recorded by tools/model-gpu-sass.sh in
 *     tests/data/model_gpu_sass.txt (the int128 kernel) and
 *     tests/data/model_gpu_wide_sass.txt (the wide kernel, f64), holds
 *     integer instructions only: no tensor-core and no floating-point
 *     opcode (the checker is shown to reject planted ones);
 *   - on a GPU, tc_model_gpu_mma gives model_mma's bits on hunt tiles of
 *     every instruction of the H100 profile (its f64 ones on the wide
 *     kernel, counted), and on f64 tiles under random wide settings
 *     (skipped without a GPU);
 *   - on a GPU, a fit's counts (probes/model_gpu_fit.h: every candidate of
 *     every field, of every eighth instruction of the H100 profile, over
 *     cases from its hunt tiles with planted wrong answers) equal the CPU's,
 *     and the fit kernels' SASS (tests/data/model_gpu_fit_sass.txt,
 *     model_gpu_fit_wide_sass.txt) is integer only too;
 *   - the fit record of a GPU run (tools/device/fit-gpu.sh,
 *     reports/baselines/h200x2-fit-gpu.json) says what it must: the audit
 *     with its fits counted on the GPU and the one counted on the cores wrote
 *     the same fingerprints and verified as many elements, each record
 *     naming where its evaluations ran, and the GPU's counts equalled the
 *     CPU's in test_model_gpu there;
 *   - without one, tc_model_gpu_mma computes on the CPU and counts it so;
 *   - the equivalence record of a GPU run (tools/model_gpu_check.c,
 *     reports/baselines/h200-model-gpu-check.json) replays: each pair's
 *     sample inputs regenerate from the seed (their hash matches) and the
 *     CPU model gives the recorded answers; its counts add up and nothing
 *     differs. The replay is shown to fail on a changed answer.
 * Its arithmetic on the CPU (model_element_int128, model_element_wide) is
 * checked against the reference by test_model_reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "oracle/model_core.h"
#include "oracle/profile.h"
#include "oracle/model_fields.h"
#include "probes/model_gpu.h"
#include "probes/model_gpu_fit.h"
#include "probes/model_gpu_run.h"
#include "probes/probes.h"
#include "tests/sass_histogram.h"

/* ---- the SASS histogram (tests/sass_histogram.h) ---- */

static void test_sass_is_integer_only(void **state)
{
    const char *path = getenv("TC_MODEL_GPU_SASS") ? getenv("TC_MODEL_GPU_SASS") : "tests/data/model_gpu_sass.txt";
    char *text = slurp(path), why[256];
    if (!text)
        fail_msg("cannot read %s", path);
    const char *bad = check_histogram(text, "tc_model_gpu_kernel", why, sizeof why);
    if (bad)
        fail_msg("%s: %s", path, bad);
    /* the checker rejects what it must: each planted opcode fails it */
    static const char *const planted[] = {"HMMA.16816.F32 1\n", "FFMA 2\n", "MUFU.RCP 1\n", "I2F.U32.RP 1\n",
                                          "DADD 1\n", "HGMMA.64x8x16.F32 1\n", "HFMA2.MMA 3\n"};
    for (size_t i = 0; i < sizeof planted / sizeof planted[0]; i++) {
        size_t n = strlen(text) + 64;
        char *t = malloc(n);
        assert_non_null(t);
        snprintf(t, n, "%s%s", text, planted[i]);
        assert_non_null(check_histogram(t, "tc_model_gpu_kernel", why, sizeof why));
        free(t);
    }
    /* and a histogram of another function, or a partial one */
    char *other = strdup(text);
    assert_non_null(other);
    char *fn = strstr(other, "# function ");   /* the function line's name, not the title's */
    assert_non_null(fn);
    fn = strstr(fn, "tc_model_gpu_kernel");
    assert_non_null(fn);
    fn[0] = 'x';
    assert_non_null(check_histogram(other, "tc_model_gpu_kernel", why, sizeof why));
    assert_non_null(check_histogram(text, "tc_model_gpu_gemm_kernel", why, sizeof why));
    free(other);
    free(text);
}

/* The wide kernel's (f64) the same: integer only, and its own (the rule
 * itself is shown to reject planted opcodes above). */
static void test_wide_sass_is_integer_only(void **state)
{
    const char *env = getenv("TC_MODEL_GPU_WIDE_SASS"), *path = env ? env : "tests/data/model_gpu_wide_sass.txt";
    char *text = slurp(path), why[256];
    if (!text)
        fail_msg("cannot read %s", path);
    const char *bad = check_histogram(text, "tc_model_gpu_wide_kernel", why, sizeof why);
    if (bad)
        fail_msg("%s: %s", path, bad);
    assert_non_null(check_histogram(text, "tc_model_gpu_kernel", why, sizeof why));
    free(text);
}

/* The fit kernels' (probes/cuda/model_gpu_fit.cu), int128 and wide. */
static void test_fit_sass_is_integer_only(void **state)
{
    static const char *const files[][2] = {{"tests/data/model_gpu_fit_sass.txt", "tc_model_gpu_fit_kernel"},
                                           {"tests/data/model_gpu_fit_wide_sass.txt", "tc_model_gpu_fit_wide_kernel"}};
    for (size_t i = 0; i < 2; i++) {
        char *text = slurp(files[i][0]), why[256];
        if (!text)
            fail_msg("cannot read %s", files[i][0]);
        const char *bad = check_histogram(text, files[i][1], why, sizeof why);
        if (bad)
            fail_msg("%s: %s", files[i][0], bad);
        assert_non_null(check_histogram(text, "tc_model_gpu_kernel", why, sizeof why));   /* its own function's */
        free(text);
    }
}

/* ---- the GPU model against the CPU model ---- */

/* Two hunt tiles of every family of ins through both; counts into *cnt,
 * and the GPU's elements of wide models (f64) into *wide. */
static void compare_on(tc_model_gpu *g, const tc_instr *ins, const model_params *p, tc_model_gpu_count *cnt,
                       size_t *wide)
{
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = {ins->a, ins->b, ins->c, ins->d}};
    if (!hunt_applies(&t))
        return;
    char err[256];
    model *m = model_new(p, t.f, err, sizeof err);
    if (!m)
        fail_msg("%s: %s", ins->name, err);
    enum { NT = 2 };
    size_t ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n, mn = (size_t)t.m * t.n;
    uint64_t *A = malloc(NT * ta * 8), *B = malloc(NT * tb * 8), *C = malloc(NT * mn * 8),
             *Dg = malloc(NT * mn * 8), *Dc = malloc(NT * mn * 8);
    assert_true(A && B && C && Dg && Dc);
    size_t gpu0 = cnt->gpu;
    for (int fam = 0; fam < HUNT_NFAMILIES; fam++) {
        uint64_t st = hunt_family_seed(11, fam);
        for (int q = 0; q < NT; q++)
            hunt_fill_tile(&t, fam, &st, A + q * ta, B + q * tb, C + q * mn);
        if (tc_model_gpu_mma(g, m, t.m, t.n, t.k, NT, A, B, C, Dg, cnt, err, sizeof err))
            fail_msg("%s: %s", ins->name, err);
        model_mma(m, t.m, t.n, t.k, NT, A, B, C, Dc);
        for (size_t e = 0; e < NT * mn; e++)
            if (Dg[e] != Dc[e])
                fail_msg("%s %s element %zu: GPU model 0x%llx, CPU model 0x%llx", ins->name, hunt_family_name(fam),
                         e, (unsigned long long)Dg[e], (unsigned long long)Dc[e]);
    }
    if (m->wide)
        *wide += cnt->gpu - gpu0;
    free(A), free(B), free(C), free(Dg), free(Dc);
    model_free(m);
}

/* The first `most` instructions of the H100 profile. */
static void compare_profile(tc_model_gpu *g, size_t most, tc_model_gpu_count *cnt, size_t *wide)
{
    model_profile prof;
    char err[256];
    if (profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err))
        fail_msg("%s", err);
    for (size_t i = 0; i < prof.count && i < most; i++) {
        const tc_instr *ins = tc_instr_by_name(prof.entries[i].instr);
        assert_non_null(ins);
        compare_on(g, ins, &prof.entries[i].params, cnt, wide);
    }
    profile_free(&prof);
}

static void test_gpu_model_equals_cpu_model(void **state)
{
    char err[256];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    if (!g) {
        printf("no GPU model here (%s)\n", err);
        skip();
    }
    tc_model_gpu_count cnt = {0};
    size_t wide = 0;
    compare_profile(g, SIZE_MAX, &cnt, &wide);
    printf("GPU model = CPU model on %zu elements computed on the GPU (%zu of them f64, the wide kernel), %zu on "
           "the CPU\n", cnt.gpu, wide, cnt.cpu);
    assert_true(cnt.gpu > 100000 && cnt.cpu < cnt.gpu / 10 && wide > 0);
    tc_model_gpu_close(g);
}

static uint64_t rng = 0x6A09E667F3BCC909ull;

static int rndn(int n)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (int)((z ^ (z >> 31)) % (uint64_t)n);
}

/* The wide kernel under random settings of every field the wide path has
 * (model_wide_unsupported: block, step order, C first or last, exact or
 * rounded accumulator of f64 or f32, every rounding, flushes, overflow,
 * NaN payload orders) on tiles of every hunt family of an f64 mma: the
 * CPU's bits (model_mma, model_dot_wide: the same source) on every
 * element, the GPU having computed them. */
static void test_gpu_wide_model_equals_cpu_on_random_settings(void **state)
{
    char err[256];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    if (!g) {
        printf("no GPU model here (%s)\n", err);
        skip();
    }
    static const tc_round modes[] = {TC_RNE, TC_RZ, TC_RU, TC_RD, TC_RNA, TC_RO};
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f64.f64.f64.f64");
    assert_non_null(ins);
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = {ins->a, ins->b, ins->c, ins->d}};
    enum { NT = 4, MODELS = 300 };
    size_t ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n, mn = (size_t)t.m * t.n;
    uint64_t *A = malloc(NT * ta * 8), *B = malloc(NT * tb * 8), *C = malloc(NT * mn * 8),
             *Dg = malloc(NT * mn * 8), *Dc = malloc(NT * mn * 8);
    assert_true(A && B && C && Dg && Dc);
    tc_model_gpu_count cnt = {0};
    for (int v = 0; v < MODELS; v++) {
        tc_rounding r = {modes[rndn(6)], rndn(3) ? TC_OVF_INF : rndn(2) ? TC_OVF_SAT : TC_OVF_NAN, rndn(4) == 0, 0,
                         false};
        model_params p = model_params_exact(t.f, r);
        p.block = 1 + rndn(rndn(2) ? 4 : 16);
        if (p.block >= 4 && p.block % 2 == 0 && rndn(4) == 0)
            p.split_runs = 2;
        p.c_mode = rndn(2) ? MODEL_C_FIRST : MODEL_C_LAST;
        p.c_round = modes[rndn(6)];
        p.acc_exact = rndn(5) == 0;
        p.acc_fmt = rndn(4) ? tc_f64 : tc_f32;
        p.acc_round = modes[rndn(6)];
        p.ftz_acc = rndn(4) == 0;
        p.ftz_a = rndn(4) == 0;
        p.ftz_b = rndn(4) == 0;
        p.ftz_c = rndn(4) == 0;
        if (rndn(2) && (p.acc_exact || p.acc_fmt.mbits == 52)) {
            p.nan_prop = (model_nan_prop)(1 + rndn(MODEL_NAN_ORDERS - 1));
            p.nan_bits = rndn(2) ? 0x7FF8000000000000ull : 0xFFF8000000000000ull;
        }
        model *m = model_new(&p, t.f, err, sizeof err);
        if (!m)
            fail_msg("model %d: %s", v, err);
        assert_true(m->wide);
        int fam = v % HUNT_NFAMILIES;
        uint64_t st = hunt_family_seed(100 + (uint64_t)v, fam);
        for (int q = 0; q < NT; q++)
            hunt_fill_tile(&t, fam, &st, A + q * ta, B + q * tb, C + q * mn);
        if (tc_model_gpu_mma(g, m, t.m, t.n, t.k, NT, A, B, C, Dg, &cnt, err, sizeof err))
            fail_msg("model %d: %s", v, err);
        model_mma(m, t.m, t.n, t.k, NT, A, B, C, Dc);
        for (size_t e = 0; e < NT * mn; e++)
            if (Dg[e] != Dc[e])
                fail_msg("model %d (%s) element %zu: GPU model 0x%llx, CPU model 0x%llx", v, hunt_family_name(fam), e,
                         (unsigned long long)Dg[e], (unsigned long long)Dc[e]);
        model_free(m);
    }
    printf("wide kernel = CPU model on %zu elements of %d random wide settings computed on the GPU, %zu on the CPU\n",
           cnt.gpu, MODELS, cnt.cpu);
    assert_true(cnt.gpu == (size_t)MODELS * NT * mn && cnt.cpu == 0);
    free(A), free(B), free(C), free(Dg), free(Dc);
    tc_model_gpu_close(g);
}

/* Without a GPU the same call computes on the CPU, and says so. */
static void test_without_gpu_the_cpu_computes(void **state)
{
    char err[256];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    if (g) {
        tc_model_gpu_close(g);
        skip();   /* a GPU is here: test_gpu_model_equals_cpu_model covers it */
    }
    assert_true(strstr(err, "GPU") != NULL);
    tc_model_gpu_count cnt = {0};
    size_t wide = 0;
    compare_profile(NULL, 6, &cnt, &wide);
    assert_int_equal(cnt.gpu, 0);
    assert_true(cnt.cpu > 10000);
}

/* The CPU's share (tc_model_gpu_finish), without a GPU: elements marked
 * declined (every 7th, and all of tile 1 of 3, as a batch of hunt families
 * has them bunched) are computed to model_mma's bits, the others left as
 * they are, and counted. */
static void finish_on(const tc_instr *ins, const model_params *p)
{
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = {ins->a, ins->b, ins->c, ins->d}};
    if (!hunt_applies(&t) || t.k > MODEL_ELEMENT_MAX_K)
        return;
    char err[256];
    model *m = model_new(p, t.f, err, sizeof err);
    if (!m)
        fail_msg("%s: %s", ins->name, err);
    enum { NT = 3 };
    size_t ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n, mn = (size_t)t.m * t.n;
    uint64_t *A = malloc(NT * ta * 8), *B = malloc(NT * tb * 8), *C = malloc(NT * mn * 8),
             *D = malloc(NT * mn * 8), *Dc = malloc(NT * mn * 8);
    assert_true(A && B && C && D && Dc);
    for (int fam = 0; fam < HUNT_NFAMILIES; fam++) {
        uint64_t st = hunt_family_seed(5, fam);
        for (int q = 0; q < NT; q++)
            hunt_fill_tile(&t, fam, &st, A + q * ta, B + q * tb, C + q * mn);
        model_mma(m, t.m, t.n, t.k, NT, A, B, C, Dc);
        size_t marked = 0, declined = 0;
        for (size_t e = 0; e < NT * mn; e++) {
            bool mark = e % 7 == 0 || e / mn == 1;
            D[e] = mark ? TC_MODEL_GPU_DECLINED : Dc[e];
            marked += mark;
        }
        if (tc_model_gpu_finish(m, t.m, t.n, t.k, NT, A, B, C, D, &declined, err, sizeof err))
            fail_msg("%s: %s", ins->name, err);
        assert_int_equal(declined, marked);
        for (size_t e = 0; e < NT * mn; e++)
            if (D[e] != Dc[e])
                fail_msg("%s %s element %zu: finished 0x%llx, model_mma 0x%llx", ins->name, hunt_family_name(fam), e,
                         (unsigned long long)D[e], (unsigned long long)Dc[e]);
    }
    free(A), free(B), free(C), free(D), free(Dc);
    model_free(m);
}

/* A fit's counts on the GPU against the CPU's: for every eighth instruction
 * of the H100 profile (K up to 64), cases from one hunt tile of each family
 * (element (i, j): row i of A, column j of B), answered by the profile's
 * model with every seventh answer's last bit flipped (so that the truth
 * too gets some wrong), and as candidates the profile's and every candidate
 * of every field from it: each count the CPU's model_dot gives. */
static void test_gpu_fit_counts_equal_the_cpu(void **state)
{
    char err[256];
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    if (!g) {
        printf("no GPU model here (%s)\n", err);
        skip();
    }
    model_profile prof;
    if (profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err))
        fail_msg("%s", err);
    tc_model_gpu_count cnt = {0};
    size_t instrs = 0, candidates = 0, wrong = 0;
    model_params *v = malloc((MODEL_FIELD_MAX_CANDIDATES * MODEL_FIELDS_MAX + 1) * sizeof *v);
    assert_non_null(v);
    for (size_t e = 0; e < prof.count; e += 8) {
        const tc_instr *ins = tc_instr_by_name(prof.entries[e].instr);
        assert_non_null(ins);
        infer_target t = {.m = ins->m, .n = ins->n, .k = ins->k, .f = {ins->a, ins->b, ins->c, ins->d}};
        if (!hunt_applies(&t) || t.k > MODEL_ELEMENT_MAX_K)
            continue;
        model *truth = model_new(&prof.entries[e].params, t.f, err, sizeof err);
        if (!truth)
            fail_msg("%s: %s", ins->name, err);
        size_t k = (size_t)t.k, ta = (size_t)t.m * k, tb = k * (size_t)t.n, mn = (size_t)t.m * t.n;
        size_t cap = HUNT_NFAMILIES * mn, n = 0;
        uint64_t *A = malloc(ta * 8), *B = malloc(tb * 8), *C = malloc(mn * 8);
        uint64_t *a = malloc(cap * k * 8), *b = malloc(cap * k * 8), *c = malloc(cap * 8), *d = malloc(cap * 8);
        assert_true(A && B && C && a && b && c && d);
        for (int fam = 0; fam < HUNT_NFAMILIES; fam++) {
            uint64_t st = hunt_family_seed(29, fam);
            hunt_fill_tile(&t, fam, &st, A, B, C);
            for (size_t o = 0; o < mn; o++, n++) {
                size_t i = o / (size_t)t.n, j = o % (size_t)t.n;
                for (size_t q = 0; q < k; q++) {
                    a[n * k + q] = A[i * k + q];
                    b[n * k + q] = B[q * (size_t)t.n + j];
                }
                c[n] = C[o];
                d[n] = model_dot(truth, t.k, a + n * k, b + n * k, c[n]) ^ (n % 7 == 3);
            }
        }
        tc_model_gpu_fit *fs = NULL;
        if (tc_model_gpu_fit_open(g, t.k, n, a, b, c, d, &fs, err, sizeof err))
            fail_msg("%s: %s", ins->name, err);
        model_field_scope sc = {t.f, t.k, NULL, 0};
        int nv = 1;
        v[0] = prof.entries[e].params;
        for (int fi = 0; fi < model_field_count(); fi++)
            nv += model_field_candidates(fi, &v[0], &sc, v + nv);
        model **ms = calloc((size_t)nv, sizeof *ms);
        const model **run = calloc((size_t)nv, sizeof *run);
        size_t *bad = calloc((size_t)nv, sizeof *bad), nrun = 0;
        assert_true(ms && run && bad);
        for (int q = 0; q < nv; q++)
            if ((ms[q] = model_new(&v[q], t.f, err, sizeof err)))
                run[nrun++] = ms[q];
        if (tc_model_gpu_fit_count(fs, run, nrun, bad, &cnt, err, sizeof err))
            fail_msg("%s: %s", ins->name, err);
        for (size_t q = 0; q < nrun; q++) {
            size_t want = 0;
            for (size_t x = 0; x < n; x++)
                want += model_dot(run[q], t.k, a + x * k, b + x * k, c[x]) != d[x];
            if (bad[q] != want)
                fail_msg("%s candidate %zu: GPU counts %zu wrong, the CPU %zu", ins->name, q, bad[q], want);
            wrong += want;
        }
        assert_int_equal(bad[0], (n + 3) / 7);   /* the truth: exactly the flipped answers */
        instrs++;
        candidates += nrun;
        for (int q = 0; q < nv; q++)
            model_free(ms[q]);
        free(ms), free(run), free(bad);
        tc_model_gpu_fit_close(fs);
        free(A), free(B), free(C), free(a), free(b), free(c), free(d);
        model_free(truth);
    }
    printf("GPU fit counts = CPU counts: %zu instructions, %zu candidates, %zu wrong answers counted; %zu "
           "evaluations on the GPU, %zu declined to the CPU\n", instrs, candidates, wrong, cnt.gpu, cnt.cpu);
    assert_true(instrs >= 20 && cnt.gpu > 1000000 && wrong > 0);
    free(v);
    profile_free(&prof);
    tc_model_gpu_close(g);
}

/* The fit record of a GPU run (see the top). */
static void test_fit_record_says_the_same_fit(void **state)
{
    json_error_t je;
    json_t *d = json_load_file("reports/baselines/h200x2-fit-gpu.json", 0, &je);
    if (!d)
        fail_msg("h200x2-fit-gpu.json: %s", je.text);
    assert_true(json_is_true(json_object_get(d, "same_profile")));
    assert_true(json_is_true(json_object_get(d, "same_elements")));
    assert_true(json_integer_value(json_object_get(d, "profile_lines")) > 1000);
    json_t *g = json_object_get(d, "audit_gpu"), *c = json_object_get(d, "audit_cpu");
    json_t *ge = json_object_get(g, "fit_evaluations"), *ce = json_object_get(c, "fit_evaluations");
    assert_int_equal(json_integer_value(json_object_get(g, "verified")), 252);
    assert_int_equal(json_integer_value(json_object_get(c, "verified")), 252);
    assert_true(json_integer_value(json_object_get(ge, "gpu")) > 1000000000);   /* the GPU counted */
    assert_true(json_integer_value(json_object_get(ge, "cpu")) <
                json_integer_value(json_object_get(ge, "gpu")) / 100);
    assert_int_equal(json_integer_value(json_object_get(ce, "gpu")), 0);        /* the cores counted */
    assert_true(json_integer_value(json_object_get(ce, "cpu")) > 0);
    bool counts = false, passed = false;
    size_t i;
    json_t *l;
    json_array_foreach(json_object_get(d, "test_model_gpu"), i, l) {
        const char *t = json_string_value(l);
        counts |= t && strstr(t, "GPU fit counts = CPU counts") != NULL;
        passed |= t && strstr(t, "PASSED") != NULL;
    }
    assert_true(counts && passed);
    json_decref(d);
}

static void test_declined_elements_are_finished_as_model_mma(void **state)
{
    model_profile prof;
    char err[256];
    if (profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err))
        fail_msg("%s", err);
    for (size_t i = 0; i < prof.count; i += 9) {   /* every 9th: f16 to fp8, mma and wgmma */
        const tc_instr *ins = tc_instr_by_name(prof.entries[i].instr);
        assert_non_null(ins);
        finish_on(ins, &prof.entries[i].params);
    }
    profile_free(&prof);
}

/* ---- the equivalence record ---- */

static bool bits_at(const json_t *arr, size_t i, uint64_t *v)
{
    const char *s = json_string_value(json_is_array(arr) ? json_array_get(arr, i) : arr);
    char *end;
    if (!s || strncmp(s, "0x", 2))
        return false;
    *v = strtoull(s + 2, &end, 16);
    return *end == '\0';
}

/* true unless element0 (inputs and answer as bits) is the regenerated tile's
 * first element and the CPU model (model_dot) gives its answer. */
static bool element0_differs(const model *m, const infer_target *t, const uint64_t *A, const uint64_t *B,
                             const uint64_t *C, const json_t *e0)
{
    const json_t *a = json_object_get(e0, "a"), *b = json_object_get(e0, "b");
    uint64_t va[256], vb[256], c, d;
    if (json_array_size(a) != (size_t)t->k || json_array_size(b) != (size_t)t->k || t->k > 256 ||
        !bits_at(json_object_get(e0, "c"), 0, &c) || !bits_at(json_object_get(e0, "d"), 0, &d) || c != C[0])
        return true;
    for (int q = 0; q < t->k; q++)
        if (!bits_at(a, (size_t)q, &va[q]) || !bits_at(b, (size_t)q, &vb[q]) || va[q] != A[q] ||
            vb[q] != B[(size_t)q * t->n])
            return true;
    return model_dot(m, t->k, va, vb, c) != d;
}

/* Replays rec (model_gpu_check's record): 0, or -1 with what failed in why. */
static int replay_record(const json_t *rec, char *why, size_t len)
{
    const char *pname = json_string_value(json_object_get(rec, "profile"));
    json_int_t seed = json_integer_value(json_object_get(rec, "seed"));
    const json_t *per = json_object_get(rec, "per_pair");
    char path[1100], err[256];
    model_profile prof;
    if (!pname || !json_is_array(per) || !tc_profile_path(pname, path, sizeof path) ||
        profile_load(path, &prof, err, sizeof err)) {
        snprintf(why, len, "no profile, seed or pairs");
        return -1;
    }
    int rc = 0;
    json_int_t n_cpu = 0, d = 0, dhw = 0, nelem0 = 0, unvisited = 0;
    size_t i;
    const json_t *e;
    const tc_instr *last = NULL;   /* the pairs of an instruction follow each other: one model for them */
    model *m = NULL;
    json_array_foreach(per, i, e) {
        const char *iname = json_string_value(json_object_get(e, "instr"));
        const char *hex = json_string_value(json_object_get(e, "sample"));
        const char *fnv = json_string_value(json_object_get(e, "sample_fnv"));
        const char *fname = json_string_value(json_object_get(e, "family"));
        int fam = fname ? hunt_family_by_name(fname) : -1;
        const tc_instr *ins = iname ? tc_instr_by_name(iname) : NULL;
        const model_params *p = ins ? profile_lookup(&prof, iname) : NULL;
        n_cpu += json_integer_value(json_object_get(e, "gpu_vs_cpu"));
        /* the model's equivalence must hold everywhere; where the hardware answered otherwise
         * than the model, that is a finding about the profile (counted, and the totals must agree) */
        d += json_integer_value(json_object_get(e, "gpu_vs_cpu_differ"));
        dhw += json_integer_value(json_object_get(e, "gpu_vs_hw_differ"));
        if (!p || !hex || !fnv || fam < 0) {
            snprintf(why, len, "pair %zu: unknown instruction, family or no sample", i);
            rc = -1;
            break;
        }
        if (json_integer_value(json_object_get(e, "chunks")) == 0) {
            unvisited++;   /* the run's time ended before this pair: no sample */
            continue;
        }
        audit_backend_ctx ctx = {NULL, ins};
        infer_target t = audit_target(&ctx, (uint64_t)seed);
        size_t ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n, mn = (size_t)t.m * t.n;
        uint64_t *A = malloc(ta * 8), *B = malloc(tb * 8), *C = malloc(mn * 8), *col = malloc((size_t)t.k * 8);
        if (ins != last) {
            model_free(m);
            m = model_new(p, t.f, err, sizeof err);
            last = ins;
        }
        assert_true(A && B && C && col && m);
        uint64_t st = hunt_family_seed((uint64_t)seed, fam);   /* chunk 0 */
        hunt_fill_tile(&t, fam, &st, A, B, C);
        char h[24];
        snprintf(h, sizeof h, "0x%016llx", (unsigned long long)hunt_tile_hash(&t, A, B, C));
        int digits = t.f.d->storage_bits / 4;
        size_t ns = strlen(hex) / (size_t)digits;
        if (strcmp(h, fnv)) {
            snprintf(why, len, "%s %s: the inputs no longer regenerate (hash %s, recorded %s)", iname,
                     hunt_family_name(fam), h, fnv);
            rc = -1;
        }
        const json_t *e0 = json_object_get(e, "element0");
        if (rc == 0 && e0 && element0_differs(m, &t, A, B, C, e0)) {
            snprintf(why, len, "%s %s: element0's inputs or answer differ from the regenerated ones", iname,
                     hunt_family_name(fam));
            rc = -1;
        }
        nelem0 += e0 != NULL;
        for (size_t q = 0; rc == 0 && q < ns && q < mn; q++) {
            size_t row = q / (size_t)t.n, j = q % (size_t)t.n;   /* the sample: the tile's first outputs */
            for (int kk = 0; kk < t.k; kk++)
                col[kk] = B[(size_t)kk * t.n + j];
            char want[24];
            snprintf(want, sizeof want, "%0*llx", digits,
                     (unsigned long long)model_dot(m, t.k, A + row * (size_t)t.k, col, C[q]));
            if (strncmp(want, hex + q * (size_t)digits, (size_t)digits)) {
                snprintf(why, len, "%s %s element %zu: recorded %.*s, the CPU model %s", iname,
                         hunt_family_name(fam), q, digits, hex + q * (size_t)digits, want);
                rc = -1;
            }
        }
        free(A), free(B), free(C), free(col);
        if (rc)
            break;
    }
    model_free(m);
    if (rc == 0 && (n_cpu != json_integer_value(json_object_get(json_object_get(rec, "gpu_vs_cpu"), "elements")) ||
                    d != 0 || dhw != json_integer_value(json_object_get(json_object_get(rec, "gpu_vs_hw"), "differ")))) {
        snprintf(why, len, "the pairs' counts do not add up to the totals, or the GPU and CPU models differ");
        rc = -1;
    }
    if (rc == 0 && unvisited)
        printf("%lld pairs of the record were not reached by its run (no sample to replay)\n", (long long)unvisited);
    if (rc == 0 && !unvisited && json_array_size(per) >= HUNT_NFAMILIES &&
        nelem0 * HUNT_NFAMILIES < (json_int_t)json_array_size(per)) {
        snprintf(why, len, "%lld pairs hold their first element's inputs: fewer than one per instruction",
                 (long long)nelem0);
        rc = -1;
    }
    profile_free(&prof);
    return rc;
}

/* A record of the shape model_gpu_check writes for two pairs, with the CPU
 * model's answers: the replay passes it and fails it once an answer changes. */
static void test_replay_catches_a_changed_answer(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    assert_non_null(ins);
    model_profile prof;
    char err[256], why[300];
    assert_int_equal(profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err), 0);
    audit_backend_ctx ctx = {NULL, ins};
    infer_target t = audit_target(&ctx, 5);
    model *m = model_new(profile_lookup(&prof, ins->name), t.f, err, sizeof err);
    assert_non_null(m);
    json_t *per = json_array();
    for (int fam = 0; fam < 2; fam++) {
        uint64_t A[16 * 16], B[16 * 8], C[128], D[128], st = hunt_family_seed(5, fam);
        hunt_fill_tile(&t, fam, &st, A, B, C);
        model_mma(m, t.m, t.n, t.k, 1, A, B, C, D);
        char hex[16 * 8 + 1], fnv[24];
        for (int q = 0; q < 16; q++)
            snprintf(hex + q * 8, 9, "%08llx", (unsigned long long)D[q]);
        snprintf(fnv, sizeof fnv, "0x%016llx", (unsigned long long)hunt_tile_hash(&t, A, B, C));
        json_array_append_new(per, json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:s, s:s}", "instr", ins->name, "family",
                                             hunt_family_name(fam), "chunks", (json_int_t)64, "gpu_vs_cpu", (json_int_t)1000,
                                             "gpu_vs_cpu_differ", (json_int_t)0, "gpu_vs_hw_differ",
                                             (json_int_t)0, "sample", hex, "sample_fnv", fnv));
    }
    json_t *rec = json_pack("{s:s, s:I, s:{s:I}, s:o}", "profile", "h100", "seed", (json_int_t)5, "gpu_vs_cpu",
                            "elements", (json_int_t)2000, "per_pair", per);
    if (replay_record(rec, why, sizeof why))
        fail_msg("%s", why);
    json_t *e = json_array_get(per, 1);
    char hex[16 * 8 + 1];
    snprintf(hex, sizeof hex, "%s", json_string_value(json_object_get(e, "sample")));
    hex[5] = hex[5] == '0' ? '1' : '0';
    json_object_set_new(e, "sample", json_string(hex));
    assert_int_equal(replay_record(rec, why, sizeof why), -1);
    assert_non_null(strstr(why, "element 0"));
    json_decref(rec);
    model_free(m);
    profile_free(&prof);
}

/* The committed record of a GPU run (skipped until one is committed). */
static void test_equivalence_record_replays(void **state)
{
    const char *path = getenv("TC_MODEL_GPU_CHECK") ? getenv("TC_MODEL_GPU_CHECK")
                                                     : "reports/baselines/h200-model-gpu-check.json.gz";
    json_error_t je;
    json_t *rec = NULL;
    FILE *f = fopen(path, "rb");
    if (f) {   /* committed gzip-compressed (tools/device.sh model-gpu) */
        fclose(f);
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "gzip -dcf -- '%s'", path);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        rec = json_loadf(p, 0, &je);
        assert_int_equal(pclose(p), 0);
        if (!rec)
            fail_msg("%s: %s", path, je.text);
    }
    if (!rec) {
        printf("no equivalence record %s yet (tools/device.sh model-gpu writes it)\n", path);
        skip();
    }
    char why[300];
    if (replay_record(rec, why, sizeof why))
        fail_msg("%s: %s", path, why);
    /* what issue 29 asks of the committed record: at least 10^10 elements, every pair of its
     * profile's instructions and hunt families reached, nothing different */
    const json_t *gc = json_object_get(rec, "gpu_vs_cpu");
    if (!getenv("TC_MODEL_GPU_CHECK")) {
        assert_true(json_integer_value(json_object_get(gc, "elements")) >= 10000000000ll);
        assert_int_equal(json_integer_value(json_object_get(gc, "differ")), 0);
        assert_int_equal(json_integer_value(json_object_get(gc, "pairs_covered")),
                         json_array_size(json_object_get(rec, "per_pair")));
    }
    printf("%s: %zu pairs replayed; GPU model = CPU model on %lld elements; against the hardware %lld "
           "elements, %lld differ (the profile's, not the GPU model's: see first_differences)\n", path,
           json_array_size(json_object_get(rec, "per_pair")),
           (long long)json_integer_value(json_object_get(json_object_get(rec, "gpu_vs_cpu"), "elements")),
           (long long)json_integer_value(json_object_get(json_object_get(rec, "gpu_vs_hw"), "elements")),
           (long long)json_integer_value(json_object_get(json_object_get(rec, "gpu_vs_hw"), "differ")));
    json_decref(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sass_is_integer_only),
        cmocka_unit_test(test_wide_sass_is_integer_only),
        cmocka_unit_test(test_fit_sass_is_integer_only),
        cmocka_unit_test(test_gpu_fit_counts_equal_the_cpu),
        cmocka_unit_test(test_fit_record_says_the_same_fit),
        cmocka_unit_test(test_gpu_model_equals_cpu_model),
        cmocka_unit_test(test_gpu_wide_model_equals_cpu_on_random_settings),
        cmocka_unit_test(test_without_gpu_the_cpu_computes),
        cmocka_unit_test(test_declined_elements_are_finished_as_model_mma),
        cmocka_unit_test(test_replay_catches_a_changed_answer),
        cmocka_unit_test(test_equivalence_record_replays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
