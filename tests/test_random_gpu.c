/* The proof's random tiles on the GPU path (hunt_gpu_random, cases/hunt_gpu.h),
 * on a GPU (each test skipped with a message without one):
 *   - the device's draw (cases/cuda/hunt_gpu.cu compiling
 *     cases/random_draw.h) gives the host's tiles bit for bit: five tiles of
 *     every hunted instruction from tile 1000 of the stream (all four
 *     distributions), each from the start state the host's pass finds;
 *   - verify_run with its random tiles on the GPU path gives the host
 *     path's counts (elements and mismatches per distribution) on the same
 *     tiles, on instructions of each kind, with the H100 profile (which
 *     differs from an H200 in places: mismatches to count), at a count of
 *     one round and at one of several rounds; and every failure it keeps is
 *     of a random distribution and differs from the model on the CPU.
 * Without nvcc: the GPU path says why it cannot run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "cases/hunt_gpu.h"
#include "cases/hunt_gpu_run.h"
#include "cases/random_draw.h"
#include "cases/verify.h"
#include "oracle/profile.h"
#include "probes/model_gpu.h"
#include "probes/probes.h"

#if TC_HAVE_CUDA

static void test_device_draw_is_the_hosts(void **state)
{
    char err[320];
    hgpu_win *h = NULL;
    if (hgpu_win_open(0, &h, err, sizeof err)) {
        printf("no GPU here (%s)\n", err);
        skip();
    }
    size_t count, nj = 0, tiles = 0;
    const tc_instr *cat = tc_catalogue(&count);
    enum { Q0 = 1000, NT = 5 };
    hgpu_shape *s = calloc(count, sizeof *s);
    infer_target *t = calloc(count, sizeof *t);
    audit_backend_ctx *ctx = calloc(count, sizeof *ctx);
    size_t *q0 = calloc(count, sizeof *q0), *nt = calloc(count, sizeof *nt);
    uint64_t(*rst)[NT] = calloc(count, sizeof *rst);
    assert_true(s && t && ctx && q0 && nt && rst);
    for (size_t i = 0; i < count; i++) {
        ctx[nj] = (audit_backend_ctx){NULL, &cat[i]};
        t[nj] = audit_target(&ctx[nj], 9);
        if (!hunt_applies(&t[nj]))
            continue;
        hgpu_shape *sj = &s[nj];
        sj->m = t[nj].m, sj->n = t[nj].n, sj->k = t[nj].k, sj->kb = t[nj].k;
        const tc_format *f[4] = {t[nj].f.a, t[nj].f.b, t[nj].f.c, t[nj].f.d};
        for (int w = 0; w < 4; w++)
            sj->f[w] = *f[w];
        for (int w = 0; w < 3; w++)
            sj->mask[w] = tc_operand_mask(f[w]);
        rd_shape rs = verify_random_shape(&t[nj]);
        uint64_t st = 77;
        for (size_t q = 0; q < Q0; q++)
            rd_skip_tile(&rs, q, &st);
        for (size_t q = 0; q < NT; q++) {
            rst[nj][q] = st;
            rd_skip_tile(&rs, Q0 + q, &st);
        }
        sj->random = 1, sj->czero = rs.czero, sj->rst = rst[nj];
        q0[nj] = Q0;
        nt[nj++] = NT;
    }
    size_t bad_job = 0;
    if (hgpu_win_launch(h, s, q0, nt, nj, err, sizeof err) || hgpu_win_wait(h, &bad_job, err, sizeof err))
        fail_msg("the draw of %zu instructions: %s", nj, err);
    for (size_t j = 0; j < nj; j++) {
        size_t ta = (size_t)t[j].m * t[j].k, tb = (size_t)t[j].k * t[j].n, tc = (size_t)t[j].m * t[j].n;
        uint64_t *A = malloc(NT * ta * 8), *B = malloc(NT * tb * 8), *C = malloc(NT * tc * 8);
        uint64_t *a = malloc(ta * 8), *b = malloc(tb * 8), *c = malloc(tc * 8);
        assert_true(A && B && C && a && b && c);
        if (hgpu_win_copy(h, j, &s[j], NT, A, B, C, err, sizeof err))
            fail_msg("%s: %s", ctx[j].ins->name, err);
        rd_shape rs = verify_random_shape(&t[j]);
        for (size_t q = 0; q < NT; q++) {
            uint64_t st = rst[j][q];
            int dist = rd_fill_tile(&rs, Q0 + q, &st, a, b, c);
            if (memcmp(A + q * ta, a, ta * 8) || memcmp(B + q * tb, b, tb * 8) || memcmp(C + q * tc, c, tc * 8))
                fail_msg("%s tile %zu (%s): the device drew another tile than the host", ctx[j].ins->name,
                         (size_t)Q0 + q, verify_dist_name(dist));
            tiles++;
        }
        free(A), free(B), free(C), free(a), free(b), free(c);
    }
    printf("%zu random tiles of %zu instructions drawn on the GPU, equal to the host's\n", tiles, nj);
    assert_true(tiles >= 252 * NT);
    free(s), free(t), free(ctx), free(q0), free(nt), free(rst);
    hgpu_win_close(h);
}

/* infer_target.random_run onto hunt_gpu_random. */
typedef struct {
    hunt_gpu *hg;
    const tc_instr *ins;
    tc_model_gpu_count count;
} on_gpu;

static int random_on_gpu(void *ctx, const infer_target *t, const model *m, size_t n, uint64_t seed, verify_result *r,
                         char *err, size_t errlen)
{
    on_gpu *g = ctx;
    return hunt_gpu_random(g->hg, t, g->ins, m, n, seed, r, &g->count, err, errlen);
}

/* name's random tiles (n elements) both ways: the same counts; false when
 * it is not on this GPU. */
static bool both_paths(tc_backend *be, hunt_gpu *hg, const model_profile *prof, const char *name, size_t n,
                       size_t *elements)
{
    const tc_instr *ins = tc_instr_by_name(name);
    if (!ins)
        fail_msg("no instruction %s", name);
    const model_params *p = profile_lookup(prof, name);
    assert_non_null(p);
    char err[512], why[256];
    if (!tc_backend_supports(be, ins, why, sizeof why)) {
        printf("%s: not on this GPU (%s)\n", name, why);
        return false;
    }
    audit_backend_ctx ctx = {be, ins};
    infer_target t = audit_target(&ctx, 3);
    verify_result rg, rh;
    if (verify_run(&t, p, n, 0, 5, &rh, err, sizeof err))
        fail_msg("%s: host path: %s", name, err);
    assert_false(rh.random_gpu);
    on_gpu g = {hg, ins, {0}};
    t.random_run = random_on_gpu, t.random_ctx = &g;
    if (verify_run(&t, p, n, 0, 5, &rg, err, sizeof err))
        fail_msg("%s: GPU path: %s", name, err);
    assert_true(rg.random_gpu);
    size_t rnd = 0;
    for (int d = 0; d < VERIFY_NDIST; d++) {
        if (rg.dist_n[d] != rh.dist_n[d] || rg.dist_mismatches[d] != rh.dist_mismatches[d])
            fail_msg("%s %s: GPU path %zu elements %zu mismatches, host path %zu, %zu", name, verify_dist_name(d),
                     rg.dist_n[d], rg.dist_mismatches[d], rh.dist_n[d], rh.dist_mismatches[d]);
        rnd += d < VERIFY_NDIST_RANDOM ? rg.dist_n[d] : 0;
    }
    assert_int_equal(rg.n, rh.n);
    assert_int_equal(rg.mismatches, rh.mismatches);
    assert_int_equal(g.count.gpu + g.count.cpu, rnd);
    model *m = model_new(p, t.f, err, sizeof err);
    assert_non_null(m);
    for (size_t i = 0; i < rg.nfails; i++) {   /* shrunk, but still failing: the model disagrees */
        const verify_failure *f = &rg.fails[i];
        if (model_dot(m, f->c.k, f->c.a, f->c.b, f->c.c) == f->c.d)
            fail_msg("%s: a kept failure (%s) the model does not fail", name, f->dist);
    }
    model_free(m);
    printf("%-40s %9zu random elements, %zu mismatches, %zu failures kept, GPU model %zu, CPU %zu: the same both "
           "ways\n", name, rnd, rg.mismatches, rg.nfails, g.count.gpu, g.count.cpu);
    *elements += rnd;
    verify_result_free(&rg);
    verify_result_free(&rh);
    return true;
}

static void test_gpu_path_equals_host_path(void **state)
{
    char err[512];
    tc_backend *be = tc_backend_open("gpu:0", err, sizeof err);
    if (!be) {
        printf("no GPU here (%s)\n", err);
        skip();
    }
    tc_model_gpu *mg = tc_model_gpu_open(0, err, sizeof err);
    assert_non_null(mg);
    hunt_gpu *hg = hunt_gpu_open(be, mg, err, sizeof err);
    if (!hg)
        fail_msg("GPU path: %s", err);
    model_profile prof;
    if (profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err))
        fail_msg("%s", err);
    static const char *const names[] = {
        "mma.m16n8k16.f16.f16.f16.f16",     "mma.m16n8k8.f32.tf32.tf32.f32",
        "mma.m16n8k32.f32.e4m3.e4m3.f32",   "mma.sp.m16n8k16.f32.bf16.bf16.f32",
        "wgmma.m64n256k16.f16.f16.f16",     "wgmma.m64n8k32.f16.e4m3.e5m2",
        "wgmma.sp.m64n64k32.f32.f16.f16",   "mma.m16n8k8.f64.f64.f64.f64" /* the wide kernel */};
    size_t elements = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        both_paths(be, hg, &prof, names[i], 300000, &elements);
    assert_true(elements > 2000000);
    /* several rounds (2^23 outputs a round): 20e6 elements */
    size_t big = 0;
    both_paths(be, hg, &prof, "mma.m16n8k16.f16.f16.f16.f16", 20000000, &big);
    assert_true(big >= 20000000);
    profile_free(&prof);
    hunt_gpu_close(hg);
    tc_model_gpu_close(mg);
    tc_backend_close(be);
}

#else

static void test_device_draw_is_the_hosts(void **state)
{
    printf("built without nvcc: no GPU path here\n");
    skip();
}

static void test_gpu_path_equals_host_path(void **state)
{
    char err[256];
    tc_backend *be = tc_backend_open("model:h100", err, sizeof err);
    assert_non_null(be);
    assert_null(hunt_gpu_open(be, NULL, err, sizeof err));   /* says why, never pretends */
    assert_true(err[0] != '\0');
    tc_backend_close(be);
    printf("built without nvcc: no GPU path here\n");
    skip();
}

#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_draw_is_the_hosts),
        cmocka_unit_test(test_gpu_path_equals_host_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
