/* tcscope probe without a GPU: export, the D's computed by the simulated
 * library (the instruction model of the h100 profile with a known
 * structure, tc_gemm_lib_sim), infer. The inference recovers every
 * structure it is given: split-K with 1 to 16 slices cut unevenly at
 * random tile boundaries, with and without promotion, met in each order;
 * stream-K (output blocks with different shares of K); a 16-bit output
 * (torch.matmul on f16 returns f16); the tf32 input conversion. A library
 * no structure explains is reported unexplained with the outputs no
 * candidate predicts and the best candidates' rates. Through the files:
 * the hashes, and a malformed or mismatched .npy is a clear error, exit 2. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <jansson.h>

#include "cases/npy_write.h"
#include "cases/probe.h"
#include "oracle/oracle.h"
#include "reports/probe_record.h"
#include "reports/record_gemm.h"
#include "tests/testutil.h"

#define PROFILE "oracle/profiles/h100.profile"

/* The scratch folder of this program (mkdtemp) and paths in it: fmt
 * names it %1$s; 8 results live at once. */
static char scratch[] = "/tmp/tcscope-probe-XXXXXX";

static const char *S(const char *fmt)
{
    static char buf[8][128];
    static int at;
    at = (at + 1) % 8;
    snprintf(buf[at], sizeof buf[at], fmt, scratch);
    return buf[at];
}

/* D of product p: output (i, j) from lib when row i of A and column j of
 * B share a nonzero position (blocks: the struct of each output block,
 * NULL: one library for all), else 0; out16: rounded to f16 (a 16-bit output). */
typedef struct {
    const tc_gemm_struct *s;       /* one per block (row-major, nbm x nbn), or one */
    int nblocks;
    tc_gemm_incvt cv;
    const tc_format *out16;
} sim_spec;

static void sim_product(const tc_probe_design *d, tc_probe_product p, const sim_spec *sp, uint32_t *D)
{
    uint32_t *A = calloc((size_t)d->m * d->k, 4), *B = calloc((size_t)d->k * d->n, 4);
    tc_probe_inputs(d, p, A, B);
    int nbn = (d->n + d->runs_c - 1) / d->runs_c;
    int *ii = malloc((size_t)d->m * d->n * sizeof *ii), *jj = malloc((size_t)d->m * d->n * sizeof *jj);
    uint32_t *out = malloc((size_t)d->m * d->n * sizeof *out);
    memset(D, 0, (size_t)d->m * d->n * 4);
    for (int b = 0; b < sp->nblocks; b++) {
        size_t n = 0;
        for (int i = 0; i < d->m; i++)
            for (int j = 0; j < d->n; j++) {
                int blk = sp->nblocks == 1 ? 0 : (i / d->runs_r) * nbn + j / d->runs_c;
                if (blk != b)
                    continue;
                bool meet = false;
                for (int q = 0; q < d->k && !meet; q++)
                    meet = A[(size_t)i * d->k + q] && B[(size_t)q * d->n + j];
                if (meet)
                    ii[n] = i, jj[n] = j, n++;
            }
        tc_gemm_lib lib;
        char err[512];
        assert_int_equal(tc_gemm_lib_sim(&lib, PROFILE, &sp->s[b], sp->cv, err, sizeof err), 0);
        double ms;
        tc_gemm_algo algo;
        if (n && lib.run(lib.ctx, d->path, d->m, d->n, d->k, A, B, n, ii, jj, out, 0, 0, &ms, &algo, err, sizeof err))
            fail_msg("%s", err);
        tc_gemm_lib_sim_free(&lib);
        for (size_t e = 0; e < n; e++) {
            uint32_t u = out[e];
            if (sp->out16) {
                float f;
                memcpy(&f, &u, 4);
                f = (float)tc_decode_to_f64(sp->out16, tc_encode_f64(sp->out16, f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF}));
                memcpy(&u, &f, 4);
            }
            D[(size_t)ii[e] * d->n + jj[e]] = u;
        }
    }
    free(A), free(B), free(ii), free(jj), free(out);
}

/* Infers from D's the sim computed; r must be freed. */
static void infer_sim(const char *fmt, int m, int n, int k, const sim_spec *sp, tc_probe_result *r)
{
    tc_probe_design d;
    char err[512];
    assert_int_equal(tc_probe_design_make(m, n, k, fmt, 7, &d, err, sizeof err), 0);
    uint32_t *D[PROBE_NPRODUCTS];
    for (int p = 0; p < PROBE_NPRODUCTS; p++) {
        D[p] = malloc((size_t)m * n * 4);
        sim_product(&d, (tc_probe_product)p, sp, D[p]);
    }
    uint32_t *A = calloc((size_t)m * k, 4), *B = calloc((size_t)k * n, 4);
    tc_probe_inputs(&d, PROBE_VERIFY, A, B);
    if (tc_probe_infer(&d, PROFILE, (const uint32_t *const *)D, A, B, NULL, r, err, sizeof err))
        fail_msg("%s", err);
    for (int p = 0; p < PROBE_NPRODUCTS; p++)
        free(D[p]);
    free(A), free(B);
}

/* Same arithmetic: the inferred structure predicts what the given one computes. */
static void expect(const char *fmt, int m, int n, int k, const sim_spec *sp, const char *what)
{
    tc_probe_result r;
    infer_sim(fmt, m, n, k, sp, &r);
    if (!r.explained || r.bit_exact != r.n)
        fail_msg("%s %s: %zu/%zu (%s)", fmt, what, r.bit_exact, r.n, r.why);
    assert_int_equal(r.nclass, sp->nblocks == 1 ? 1 : r.nclass);
    assert_int_equal(r.chunk, sp->s[0].chunk);
    tc_probe_result_free(&r);
}

/* Random uneven cuts of K at multiples of unit into S slices. */
static tc_gemm_struct uneven(int chunk, int promote, int S, int k, int unit, tc_gemm_combine c, unsigned *seed)
{
    tc_gemm_struct s = {.chunk = chunk, .promote = promote, .splitk = S, .combine = c, .slice_unit = TC_GEMM_CUTS};
    int units = k / unit;
    for (;;) {   /* S - 1 distinct cut points among units - 1 */
        int pts[TC_GEMM_MAX_SLICES], np = 0;
        while (np < S - 1) {
            int x = 1 + (int)(rand_r(seed) % (unsigned)(units - 1)), dup = 0;
            for (int y = 0; y < np; y++)
                dup |= pts[y] == x;
            if (!dup)
                pts[np++] = x;
        }
        for (int a = 0; a < np; a++)   /* sort */
            for (int b = a + 1; b < np; b++)
                if (pts[b] < pts[a]) {
                    int t = pts[a];
                    pts[a] = pts[b], pts[b] = t;
                }
        s.cut[0] = 0;
        for (int t = 0; t < np; t++)
            s.cut[t + 1] = pts[t] * unit;
        s.cut[S] = k;
        return s;
    }
}

static void uneven_splitk_every_count_and_order(void **state)
{
    (void)state;
    unsigned seed = 27;
    static const tc_gemm_combine order[] = {GEMM_COMBINE_SEQ, GEMM_COMBINE_PAIRWISE, GEMM_COMBINE_REVERSE};
    for (int S = 1; S <= 16; S++) {
        tc_gemm_struct s = uneven(32, 0, S, 512, 32, order[S % 3], &seed);
        sim_spec sp = {&s, 1, GEMM_IN_AS_UPLOADED, NULL};
        char what[64];
        snprintf(what, sizeof what, "split-K %d uneven, %s", S, tc_gemm_combine_name(s.combine));
        expect("e4m3", 32, 32, 512, &sp, what);
    }
    for (int o = 0; o < 3; o++) {   /* every order at one count, with promotion inside the slices */
        tc_gemm_struct s = uneven(16, 64, 6, 512, 64, order[o], &seed);
        sim_spec sp = {&s, 1, GEMM_IN_AS_UPLOADED, NULL};
        expect("bf16", 32, 32, 512, &sp, tc_gemm_combine_name(order[o]));
    }
}

static void even_splitk_and_promotion(void **state)
{
    (void)state;
    tc_gemm_struct one = {.chunk = 32, .promote = 128, .splitk = 1};
    sim_spec sp = {&one, 1, GEMM_IN_AS_UPLOADED, NULL};
    expect("e4m3", 32, 32, 1024, &sp, "promote 128");
    tc_gemm_struct units = {.chunk = 8, .promote = 0, .splitk = 5, .combine = GEMM_COMBINE_REVERSE, .slice_unit = 32};
    sp.s = &units;
    expect("f32", 32, 32, 1056, &sp, "tf32 split-K 5 in units of 32, reverse");
}

/* Slices met as an XOR tree (JAX's split-K reduction on the H200: 32 slices
 * at bits 3 4 0 2 1, 16 at 2 3 1 0): found with its levels, written into the
 * record, read back by the replay (all 512 recorded outputs). */
static void xor_tree_splitk(void **state)
{
    (void)state;
    static const struct {
        int S, k;
        unsigned char bits[TC_GEMM_XOR_LEVELS];
    } t[] = {{32, 2048, {3, 4, 0, 2, 1}}, {16, 1024, {2, 3, 1, 0}}};
    for (size_t x = 0; x < sizeof t / sizeof t[0]; x++) {
        tc_gemm_struct s = {.chunk = 16, .splitk = t[x].S, .combine = GEMM_COMBINE_XOR};
        memcpy(s.xor_bits, t[x].bits, sizeof s.xor_bits);
        sim_spec sp = {&s, 1, GEMM_IN_AS_UPLOADED, NULL};
        tc_probe_result r;
        infer_sim("bf16", 64, 64, t[x].k, &sp, &r);
        if (!r.explained || r.bit_exact != r.n)
            fail_msg("xor tree of %d: %zu/%zu (%s)", t[x].S, r.bit_exact, r.n, r.why);
        assert_int_equal(r.cls[0].s.splitk, t[x].S);
        assert_int_equal(r.cls[0].s.combine, GEMM_COMBINE_XOR);
        assert_memory_equal(r.cls[0].s.xor_bits, t[x].bits, sizeof t[x].bits);
        tc_probe_design d;
        char err[512];
        assert_int_equal(tc_probe_design_make(64, 64, t[x].k, "bf16", 7, &d, err, sizeof err), 0);
        json_t *o = tc_probe_case_json(&d, &r, NULL, PROFILE);
        char text[200];
        assert_non_null(strstr(tc_gemm_slices_text(&r.cls[0].s, text, sizeof text), "xor"));
        size_t n = 0, exact = 0;
        if (tc_gemm_replay(o, PROFILE, &n, &exact, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(exact, 512);
        /* the levels in another order predict fewer of the recorded outputs */
        json_t *bits = json_object_get(json_object_get(json_array_get(json_object_get(json_object_get(o, "probe"),
                                                                                      "classes"), 0), "structure"),
                                       "xor_bits");
        json_t *b0 = json_incref(json_array_get(bits, 0));
        json_array_set(bits, 0, json_array_get(bits, 1)), json_array_set_new(bits, 1, b0);
        assert_int_equal(tc_gemm_replay(o, PROFILE, &n, &exact, err, sizeof err), 0);
        assert_true(exact < 480);
        json_decref(o);
        tc_probe_result_free(&r);
    }
}

/* Stream-K: two output blocks with their own shares of K, met their own way. */
static void stream_k_blocks(void **state)
{
    (void)state;
    unsigned seed = 5;
    tc_gemm_struct blocks[2] = {uneven(16, 0, 3, 512, 64, GEMM_COMBINE_SEQ, &seed),
                                uneven(16, 0, 4, 512, 64, GEMM_COMBINE_PAIRWISE, &seed)};
    sim_spec sp = {blocks, 2, GEMM_IN_AS_UPLOADED, NULL};
    tc_probe_result r;
    infer_sim("f16", 128, 32, 512, &sp, &r);
    if (!r.explained || r.bit_exact != r.n)
        fail_msg("stream-K: %zu/%zu (%s)", r.bit_exact, r.n, r.why);
    assert_int_equal(r.nclass, 2);
    assert_int_equal(r.block_class[0], 0);
    assert_int_equal(r.block_class[1], 1);
    assert_int_equal(r.cls[0].s.splitk, 3);
    assert_int_equal(r.cls[1].s.splitk, 4);
    tc_probe_result_free(&r);
}

/* torch.matmul on f16 returns f16: the D's are rounded, the inference says so. */
static void sixteen_bit_output(void **state)
{
    (void)state;
    tc_gemm_struct s = {.chunk = 16, .promote = 0, .splitk = 2, .slice_unit = 64};
    sim_spec sp = {&s, 1, GEMM_IN_AS_UPLOADED, &tc_f16};
    tc_probe_result r;
    infer_sim("f16", 32, 32, 1024, &sp, &r);
    if (!r.explained)
        fail_msg("f16 output: %zu/%zu (%s)", r.bit_exact, r.n, r.why);
    assert_ptr_equal(r.out, &tc_f16);
    tc_probe_result_free(&r);
}

static void tf32_conversion(void **state)
{
    (void)state;
    tc_gemm_struct s = {.chunk = 8, .splitk = 1};
    sim_spec sp = {&s, 1, GEMM_IN_TF32_RZ, NULL};
    tc_probe_result r;
    infer_sim("f32", 32, 32, 512, &sp, &r);
    assert_true(r.explained);
    assert_int_equal(r.cvt, GEMM_IN_TF32_RZ);
    tc_probe_result_free(&r);
}

/* A SIMT "library": FP32 FMA chains, each restarted from +0 every *ctx
 * positions (K / 2: two halves) and added in K order. */
static int fma_run(void *ctx, const tc_gemm_path *p, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                   size_t nout, const int *ii, const int *jj, uint32_t *out, int warmup, int reps, double *ms,
                   tc_gemm_algo *algo, char *err, size_t errlen)
{
    int run = *(const int *)ctx;
    for (size_t e = 0; e < nout; e++) {
        float d = 0, chain = 0;
        for (int q = 0; q < k; q++) {
            float a, b;
            memcpy(&a, &A[(size_t)ii[e] * k + q], 4);
            memcpy(&b, &B[(size_t)q * n + jj[e]], 4);
            chain = fmaf(a, b, chain);
            if ((q + 1) % run == 0 || q + 1 == k)
                d = q < run ? chain : d + chain, chain = 0;
        }
        memcpy(&out[e], &d, 4);
    }
    *ms = 0;
    return 0;
}

/* cuBLAS's SGEMM on the H200 (torch f32 without TF32 at K = 1024 and 2048:
 * tools/probe_run_sums on the record's outputs): chains of 64 positions. */
static void fma_chains_of_64(void **state)
{
    (void)state;
    tc_probe_design d;
    char err[512];
    assert_int_equal(tc_probe_design_make(32, 32, 1024, "f32", 7, &d, err, sizeof err), 0);
    int run = 64;
    tc_gemm_lib lib = {.name = "fma", .ctx = &run, .run = fma_run};
    int *ii = malloc(32 * 32 * sizeof *ii), *jj = malloc(32 * 32 * sizeof *jj);
    for (int e = 0; e < 32 * 32; e++)
        ii[e] = e / 32, jj[e] = e % 32;
    uint32_t *D[PROBE_NPRODUCTS], *A = calloc(32 * 1024, 4), *B = calloc(1024 * 32, 4);
    for (int p = 0; p < PROBE_NPRODUCTS; p++) {
        D[p] = malloc(32 * 32 * 4);
        tc_probe_inputs(&d, (tc_probe_product)p, A, B);
        double ms;
        tc_gemm_algo algo;
        lib.run(lib.ctx, d.path, 32, 32, 1024, A, B, 32 * 32, ii, jj, D[p], 0, 0, &ms, &algo, err, sizeof err);
    }
    tc_probe_result r;
    assert_int_equal(tc_probe_infer(&d, PROFILE, (const uint32_t *const *)D, A, B, NULL, &r, err, sizeof err), 0);
    if (r.chain || !r.explained || r.bit_exact != r.n)
        fail_msg("FMA chains of 64: %zu/%zu (%s)", r.bit_exact, r.n, r.why);
    assert_int_equal(r.cls[0].s.promote, 64);
    tc_probe_result_free(&r);
    for (int p = 0; p < PROBE_NPRODUCTS; p++)
        free(D[p]);
    free(A), free(B), free(ii), free(jj);
}

static void fma_chains(void **state)
{
    (void)state;
    tc_probe_design d;
    char err[512];
    assert_int_equal(tc_probe_design_make(32, 32, 512, "f32", 7, &d, err, sizeof err), 0);
    int half = 256;
    tc_gemm_lib lib = {.name = "fma", .ctx = &half, .run = fma_run};
    int *ii = malloc(32 * 32 * sizeof *ii), *jj = malloc(32 * 32 * sizeof *jj);
    for (int e = 0; e < 32 * 32; e++)
        ii[e] = e / 32, jj[e] = e % 32;
    uint32_t *D[PROBE_NPRODUCTS], *A = calloc(32 * 512, 4), *B = calloc(512 * 32, 4);
    for (int p = 0; p < PROBE_NPRODUCTS; p++) {
        D[p] = malloc(32 * 32 * 4);
        tc_probe_inputs(&d, (tc_probe_product)p, A, B);
        double ms;
        tc_gemm_algo algo;
        lib.run(lib.ctx, d.path, 32, 32, 512, A, B, 32 * 32, ii, jj, D[p], 0, 0, &ms, &algo, err, sizeof err);
    }
    tc_probe_result r;
    assert_int_equal(tc_probe_infer(&d, PROFILE, (const uint32_t *const *)D, A, B, NULL, &r, err, sizeof err), 0);
    assert_false(r.chain);
    if (!r.explained || r.bit_exact != r.n)
        fail_msg("FMA chains: %zu/%zu (%s)", r.bit_exact, r.n, r.why);
    /* two chains added: split-K 2, or (the same arithmetic) one slice restarting its chain at 256 */
    assert_true(r.cls[0].s.splitk == 2 || (r.cls[0].s.splitk == 1 && r.cls[0].s.promote == 256));
    /* the record carries the FMA fit's prediction like any other (no instruction model, no profile), and
     * the replay predicts its recorded outputs as FMA chains: all of them; one changed bit costs one */
    json_t *o = tc_probe_case_json(&d, &r, NULL, PROFILE), *pr = json_object_get(json_object_get(o, "structure"),
                                                                             "prediction");
    assert_string_equal(json_string_value(json_object_get(pr, "model")), "fp32-fma");
    assert_true(json_is_null(json_object_get(pr, "profile")));
    assert_int_equal(json_integer_value(json_object_get(pr, "n")), r.n);
    assert_int_equal(json_integer_value(json_object_get(pr, "bit_exact")), r.n);
    assert_int_equal(json_integer_value(json_object_get(pr, "recorded_outputs_bit_exact")), 512);
    size_t nrep = 0, exact = 0;
    if (tc_gemm_replay(o, PROFILE, &nrep, &exact, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(nrep, 512);
    assert_int_equal(exact, 512);
    json_t *out = json_object_get(o, "outputs");
    char *hex = strdup(json_string_value(json_object_get(out, "d_hex")));
    hex[8 * 5 + 7] = hex[8 * 5 + 7] == '0' ? '1' : '0';
    json_object_set_new(out, "d_hex", json_string(hex));
    free(hex);
    assert_int_equal(tc_gemm_replay(o, PROFILE, &nrep, &exact, err, sizeof err), 0);
    assert_int_equal(exact, 511);
    json_decref(o);
    tc_probe_result_free(&r);
    for (int p = 0; p < PROBE_NPRODUCTS; p++)
        free(D[p]);
    free(A), free(B), free(ii), free(jj);
}

/* A library with no such structure (its verify outputs one ulp off): not a
 * bare failure but the outputs and the candidates' rates. */
static void unexplained_says_what(void **state)
{
    (void)state;
    tc_probe_design d;
    char err[512];
    assert_int_equal(tc_probe_design_make(32, 32, 512, "f16", 7, &d, err, sizeof err), 0);
    tc_gemm_struct s = {.chunk = 16, .splitk = 1};
    sim_spec sp = {&s, 1, GEMM_IN_AS_UPLOADED, NULL};
    uint32_t *D[PROBE_NPRODUCTS];
    for (int p = 0; p < PROBE_NPRODUCTS; p++) {
        D[p] = malloc(32 * 32 * 4);
        sim_product(&d, (tc_probe_product)p, &sp, D[p]);
    }
    for (int e = 0; e < 32 * 32; e += 3)
        D[PROBE_VERIFY][e] ^= 1;   /* a third of the outputs one ulp away */
    uint32_t *A = calloc(32 * 512, 4), *B = calloc(512 * 32, 4);
    tc_probe_inputs(&d, PROBE_VERIFY, A, B);
    tc_probe_result r;
    assert_int_equal(tc_probe_infer(&d, PROFILE, (const uint32_t *const *)D, A, B, NULL, &r, err, sizeof err), 0);
    assert_false(r.explained);
    assert_true(r.nunexplained > 0);
    assert_true(r.ncand > 0 && r.cand[0].bit_exact < r.cand[0].n);
    assert_non_null(strstr(r.why, "verify outputs"));
    tc_probe_result_free(&r);
    for (int p = 0; p < PROBE_NPRODUCTS; p++)
        free(D[p]);
    free(A), free(B);
}

/* ---- through the files and the command ----------------------------------- */

static void write_d(const char *dir, const char *name, const char *descr, size_t r, size_t c, const uint32_t *bits)
{
    size_t shape[2] = {r, c}, n;
    unsigned char *buf = tc_npy_encode(descr, shape, 2, bits, &n);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, n, f), n);
    fclose(f);
    free(buf);
}

/* A folder exported by the command, its D's from the sim. */
static void exported(const char *dir, const char *fmt, int m, int n, int k, const tc_gemm_struct *s)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "probe export --m %d --n %d --k %d --format %s --seed 7 --out %s", m, n, k, fmt, dir);
    tc_run_result rr = tc_run_cli(cmd);
    if (rr.status)
        fail_msg("%s", rr.err);
    tc_run_result_free(&rr);
    tc_probe_design d;
    char err[256];
    assert_int_equal(tc_probe_design_make(m, n, k, fmt, 7, &d, err, sizeof err), 0);
    sim_spec sp = {s, 1, GEMM_IN_AS_UPLOADED, NULL};
    uint32_t *D = malloc((size_t)m * n * 4);
    for (int p = 0; p < PROBE_NPRODUCTS; p++) {
        char name[32];
        snprintf(name, sizeof name, "%s_D.npy", tc_probe_product_name((tc_probe_product)p));
        sim_product(&d, (tc_probe_product)p, &sp, D);
        write_d(dir, name, "<f4", (size_t)m, (size_t)n, D);
    }
    free(D);
}

/* choose ranks the probe record's structure for its GPU and caller only;
 * another caller's is refused unless --allow-transfer, then labelled. */
static void choose_from_the_record(const char *dir)
{
    char path[256];
    snprintf(path, sizeof path, "%s/call.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"framework\": \"torch\", \"call_id\": \"torch-matmul-bf16\", \"status\": \"ok\", \"host\": "
          "{\"gpu\": \"NVIDIA H200\", \"driver\": \"580\"}, \"versions\": {\"cublasLt_version\": 130100}}", f);
    fclose(f);
    snprintf(path, sizeof path, "probe infer %s --out %s", dir, S("%1$s/p3.jsonl"));
    tc_run_result rr = tc_run_cli(path);
    assert_int_equal(rr.status, 0);
    tc_run_result_free(&rr);
    char *rec = tc_slurp(S("%1$s/p3.jsonl"));   /* no --profile: the model of the GPU call.json names */
    if (!strstr(rec, "\"profile\":\"h200\""))   /* the profile's name, never a path of this machine */
        fail_msg("probe infer without --profile did not take h200's for an H200 call");
    free(rec);
    char base[300];
    snprintf(base, sizeof base, "choose --m 64 --n 64 --k 1024 --max-rel-err 0.5 --backend model:h100 --outputs 8 "
             "--gemm-records %s,reports/baselines/h100-gemm.packed.xz --gpu H200", S("%1$s/p3.jsonl"));
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --caller torch", base);
    rr = tc_run_cli(cmd);
    assert_int_equal(rr.status, 0);
    if (!strstr(rr.out, "structure from GPU NVIDIA H200, torch version 130100, caller torch-matmul-bf16"))
        fail_msg("%s", rr.out);
    assert_null(strstr(rr.out, "torch bf16 [transferred]"));
    tc_run_result_free(&rr);
    snprintf(cmd, sizeof cmd, "%s --caller jax", base);
    rr = tc_run_cli(cmd);
    assert_non_null(strstr(rr.out, "not on H200 by jax: not ranked"));
    tc_run_result_free(&rr);
    snprintf(cmd, sizeof cmd, "%s --caller jax --allow-transfer", base);
    rr = tc_run_cli(cmd);
    assert_non_null(strstr(rr.out, "[transferred]"));
    assert_non_null(strstr(rr.out, "(transferred: recorded on another GPU or by another caller)"));
    tc_run_result_free(&rr);
    remove(S("%1$s/p3.jsonl"));
}

static void files_and_command(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(scratch));   /* its own: the sanitized and optimized builds run at once */
    char dir[128];
    snprintf(dir, sizeof dir, "%s", S("%1$s/p"));
    tc_gemm_struct s = {.chunk = 16, .promote = 128, .splitk = 2, .slice_unit = 32};
    exported(dir, "bf16", 32, 32, 1024, &s);
    char summary[2048], err[1024];
    assert_int_equal(tc_probe_infer_dir(dir, PROFILE, S("%1$s/p.jsonl"), summary, sizeof summary, err,
                                        sizeof err), 0);
    if (!strstr(summary, ": explained") || !strstr(summary, "promote every 128, split-K 2"))
        fail_msg("%s", summary);
    /* the record: a gemm object whose structure the replay reads */
    setenv("TCSCOPE_PROGRESS_S", "0.001", 1);   /* the run's count in a log at once (not after 10 s) */
    tc_run_result rr = tc_run_cli(S("probe infer %1$s/p --out %1$s/p2.jsonl"));
    unsetenv("TCSCOPE_PROGRESS_S");
    assert_int_equal(rr.status, 0);
    if (!strstr(rr.err, "probe infer: ") || !strstr(rr.err, " done in "))
        fail_msg("no progress lines in the log: '%s'", rr.err);
    tc_run_result_free(&rr);
    char *text = tc_slurp(S("%1$s/p2.jsonl"));
    assert_non_null(strstr(text, "\"kind\":\"gemm\""));
    assert_non_null(strstr(text, "\"status\":\"explained\""));
    free(text);
    /* replayed on the CPU like every gemm record: the inputs made again, the recorded outputs predicted */
    json_t *recs = tc_gemm_records_load(S("%1$s/p2.jsonl"), NULL, err, sizeof err);
    assert_non_null(recs);
    size_t nrep = 0, exact = 0;
    if (tc_gemm_replay(json_array_get(recs, 0), PROFILE, &nrep, &exact, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(nrep, 512);
    assert_int_equal(exact, 512);
    json_decref(recs);
    choose_from_the_record(dir);
    /* malformed and mismatched files: exit 2, saying what */
    static const struct {
        const char *descr, *want;
        size_t r, c;
    } bad[] = {{"<u4", "dtype '<u4'", 32, 32}, {"<f4", "shape (32, 16)", 32, 16}, {"<f4", "shape (1024,)", 1024, 0}};
    uint32_t *z = calloc(1024, 4);
    for (size_t x = 0; x < sizeof bad / sizeof bad[0]; x++) {
        size_t shape[2] = {bad[x].r, bad[x].c}, n;
        unsigned char *buf = tc_npy_encode(bad[x].descr, shape, bad[x].c ? 2 : 1, z, &n);
        char path[256];
        snprintf(path, sizeof path, "%s/runs_D.npy", dir);
        FILE *f = fopen(path, "wb");
        fwrite(buf, 1, n, f);
        fclose(f);
        free(buf);
        rr = tc_run_cli(S("probe infer %1$s/p"));
        assert_int_equal(rr.status, 2);
        if (!strstr(rr.err, bad[x].want))
            fail_msg("wanted '%s' in: %s", bad[x].want, rr.err);
        tc_run_result_free(&rr);
    }
    free(z);
    /* big-endian and Fortran order: the header rewritten in place */
    exported(dir, "bf16", 32, 32, 1024, &s);
    static const char *const edits[][3] = {{"'<f4'", "'>f4'", "'>f4'"}, {"False", "True ", "fortran_order True"}};
    for (int x = 0; x < 2; x++) {
        char path[256];
        snprintf(path, sizeof path, "%s/step_D.npy", dir);
        char *t = tc_slurp(path);   /* the header is text; the data after it is not read here */
        FILE *f = fopen(path, "r+b");
        char *at = strstr(t + 10, edits[x][0]);
        assert_non_null(at);
        fseek(f, at - t, SEEK_SET);
        fwrite(edits[x][1], 1, strlen(edits[x][1]), f);
        fclose(f);
        free(t);
        rr = tc_run_cli(S("probe infer %1$s/p"));
        assert_int_equal(rr.status, 2);
        if (!strstr(rr.err, edits[x][2]))
            fail_msg("wanted '%s' in: %s", edits[x][2], rr.err);
        tc_run_result_free(&rr);
        exported(dir, "bf16", 32, 32, 1024, &s);
    }
    /* an input file of another export (another seed): its hash differs */
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s probe export --m 32 --n 32 --k 1024 --format bf16 --seed 8 --out %s >/dev/null "
             "&& cp %s %s/", tc_cli_path(), S("%1$s/other"), S("%1$s/other/verify_A.npy"), dir);
    assert_int_equal(system(cmd), 0);
    rr = tc_run_cli(S("probe infer %1$s/p"));
    assert_int_equal(rr.status, 2);
    assert_non_null(strstr(rr.err, "verify_A.npy: not the file this export wrote"));
    tc_run_result_free(&rr);
    /* the inputs may stay behind: made again from the manifest */
    assert_int_equal(system(S("rm %1$s/p/*_A.npy %1$s/p/*_B.npy")), 0);
    rr = tc_run_cli(S("probe infer %1$s/p"));
    assert_int_equal(rr.status, 0);
    tc_run_result_free(&rr);
    assert_int_equal(system(S("rm -rf %1$s")), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(uneven_splitk_every_count_and_order),
        cmocka_unit_test(even_splitk_and_promotion),
        cmocka_unit_test(stream_k_blocks),
        cmocka_unit_test(sixteen_bit_output),
        cmocka_unit_test(tf32_conversion),
        cmocka_unit_test(xor_tree_splitk),
        cmocka_unit_test(fma_chains),
        cmocka_unit_test(fma_chains_of_64),
        cmocka_unit_test(unexplained_says_what),
        cmocka_unit_test(files_and_command),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
