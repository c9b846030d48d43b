/* The hunt on the GPU (cases/hunt_gpu.h), on a GPU (each test skipped with
 * a message without one):
 *   - the device's draw (cases/cuda/hunt_gpu.cu, the code of
 *     cases/hunt_draw.h compiled by nvcc) gives the host's tiles bit for
 *     bit: tiles of every family of every hunted instruction, from a tile
 *     well into the stream;
 *   - the device path's results equal the host path's on the same tiles
 *     (verify_hunt_start with HUNT_DRAW_TILE through tc_backend_mma and the
 *     CPU model): per family elements and mismatches, on instructions of
 *     each kind (mma, mma.sp, wgmma, wgmma.sp; f16, bf16, tf32, e4m3), one
 *     instruction at a time (hunt_gpu_run) and all of them in windows
 *     (hunt_gpu_run_all, also with a count that takes several rounds), and
 *     the replay sample is the backend's answers to those tiles. */
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
    /* every hunted instruction of the catalogue in one window (one launch:
     * one at a time, each waits for its widest tile's thread) */
    size_t count, nj = 0, tiles = 0;
    const tc_instr *cat = tc_catalogue(&count);
    enum { Q0 = 1000, NT = 3 };
    hgpu_shape *s = calloc(count, sizeof *s);
    infer_target *t = calloc(count, sizeof *t);
    audit_backend_ctx *ctx = calloc(count, sizeof *ctx);
    size_t *q0 = calloc(count, sizeof *q0), *nt = calloc(count, sizeof *nt);
    assert_true(s && t && ctx && q0 && nt);
    for (size_t i = 0; i < count; i++) {
        ctx[nj] = (audit_backend_ctx){NULL, &cat[i]};
        t[nj] = audit_target(&ctx[nj], 9);
        if (!hunt_applies(&t[nj]))
            continue;
        hgpu_shape *sj = &s[nj];
        sj->m = t[nj].m, sj->n = t[nj].n, sj->k = t[nj].k, sj->kb = t[nj].k, sj->seed = 9;
        const tc_format *f[4] = {t[nj].f.a, t[nj].f.b, t[nj].f.c, t[nj].f.d};
        for (int w = 0; w < 4; w++)
            sj->f[w] = *f[w];
        for (int w = 0; w < 3; w++)
            sj->mask[w] = tc_operand_mask(f[w]);
        q0[nj] = Q0;
        nt[nj++] = NT;
    }
    size_t bad_job = 0;
    if (hgpu_win_launch(h, s, q0, nt, nj, err, sizeof err) || hgpu_win_wait(h, &bad_job, err, sizeof err))
        fail_msg("the draw of %zu instructions: %s", nj, err);
    for (size_t j = 0; j < nj; j++) {
        size_t ta = (size_t)t[j].m * t[j].k, tb = (size_t)t[j].k * t[j].n, tc = (size_t)t[j].m * t[j].n;
        size_t all = NT * HUNT_NFAMILIES;
        uint64_t *A = malloc(all * ta * 8), *B = malloc(all * tb * 8), *C = malloc(all * tc * 8);
        uint64_t *a = malloc(NT * ta * 8), *b = malloc(NT * tb * 8), *c = malloc(NT * tc * 8);
        assert_true(A && B && C && a && b && c);
        if (hgpu_win_copy(h, j, &s[j], NT, A, B, C, err, sizeof err))
            fail_msg("%s: %s", ctx[j].ins->name, err);
        for (int fam = 0; fam < HUNT_NFAMILIES; fam++) {
            size_t q = (size_t)fam * NT;
            hunt_fill_tiles(&t[j], HUNT_DRAW_TILE, 9, fam, Q0, NT, a, b, c);
            if (memcmp(A + q * ta, a, NT * ta * 8) || memcmp(B + q * tb, b, NT * tb * 8) ||
                memcmp(C + q * tc, c, NT * tc * 8))
                fail_msg("%s %s: the device drew other tiles than the host", ctx[j].ins->name,
                         hunt_family_name(fam));
            tiles += NT;
        }
        free(A), free(B), free(C), free(a), free(b), free(c);
    }
    printf("%zu tiles of %zu instructions drawn on the GPU, equal to the host's\n", tiles, nj);
    assert_true(tiles >= 252 * HUNT_NFAMILIES * NT);
    free(s), free(t), free(ctx), free(q0), free(nt);
    hgpu_win_close(h);
}

enum { WANT = 40 };

/* The replay sample of t (seed 3): the backend's answers to the first tiles
 * of every family. */
static void check_sample(infer_target *t, const char *name, const uint64_t *sample, bool sampled)
{
    char err[512];
    assert_true(sampled);
    size_t mn = (size_t)t->m * t->n, nt = (WANT + mn - 1) / mn;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n;
    uint64_t *A = malloc(nt * ta * 8), *B = malloc(nt * tb * 8), *C = malloc(nt * mn * 8), *D = malloc(nt * mn * 8);
    assert_true(A && B && C && D);
    for (int f = 0; f < HUNT_NFAMILIES; f++) {
        hunt_fill_tiles(t, HUNT_DRAW_TILE, 3, f, 0, nt, A, B, C);
        if (t->run(t->ctx, nt, A, B, C, D, err, sizeof err))
            fail_msg("%s: %s", name, err);
        if (memcmp(D, sample + (size_t)f * WANT, WANT * 8))
            fail_msg("%s %s: the sample is not the backend's answers", name, hunt_family_name(f));
    }
    free(A), free(B), free(C), free(D);
}

/* The same counts: the GPU path's g and the host path's h of one instruction. */
static void same_counts(const char *name, const char *how, const verify_result *g, const verify_result *h)
{
    assert_int_equal(g->n, h->n);
    assert_int_equal(g->mismatches, h->mismatches);
    for (int f = 0; f < VERIFY_NDIST; f++)
        if (g->dist_n[f] != h->dist_n[f] || g->dist_mismatches[f] != h->dist_mismatches[f])
            fail_msg("%s %s: GPU path (%s) %zu elements %zu mismatches, host path %zu, %zu", name,
                     verify_dist_name(f), how, g->dist_n[f], g->dist_mismatches[f], h->dist_n[f],
                     h->dist_mismatches[f]);
}

/* ins hunted both ways: the same counts per family, the same sample; the
 * host path's results kept in *host (false when ins is not on this GPU). */
static bool both_paths(tc_backend *be, tc_model_gpu *mg, hunt_gpu *hg, const model_profile *prof, const char *name,
                       size_t n, size_t *elements, verify_result *host)
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
    model *m = model_new(p, t.f, err, sizeof err);
    assert_non_null(m);
    assert_null(hunt_gpu_unsupported(&t, ins, m));
    verify_result rg, rh;
    memset(&rg, 0, sizeof rg);
    memset(&rh, 0, sizeof rh);
    tc_model_gpu_count cnt = {0};
    uint64_t sample[WANT * HUNT_NFAMILIES];
    bool sampled = false;
    if (hunt_gpu_run(hg, &t, ins, m, n, 3, WANT, sample, &sampled, &rg, &cnt, err, sizeof err))
        fail_msg("%s: GPU path: %s", name, err);
    verify_hunt_ahead *a = verify_hunt_start(&t, n, 3, HUNT_DRAW_TILE, err, sizeof err);
    assert_non_null(a);
    if (verify_hunt_finish(a, &t, m, &rh, err, sizeof err))
        fail_msg("%s: host path: %s", name, err);
    same_counts(name, "one instruction", &rg, &rh);
    assert_int_equal(cnt.gpu + cnt.cpu, rg.n);
    check_sample(&t, name, sample, sampled);
    printf("%-40s %9zu elements, %zu mismatches, GPU model %zu, CPU %zu: the same both ways\n", name, rg.n,
           rg.mismatches, cnt.gpu, cnt.cpu);
    *elements += rg.n;
    verify_result_free(&rg);
    *host = rh;
    model_free(m);
    return true;
}

/* The instructions of names hunted by hunt_gpu_run_all: the host path's counts. */
static void all_at_once(tc_backend *be, hunt_gpu *hg, const model_profile *prof, const char *const *names,
                        size_t count, const bool *on, const verify_result *host, size_t n)
{
    audit_backend_ctx ctx[16];
    infer_target t[16];
    model *m[16];
    hunt_gpu_job jobs[16];
    static uint64_t samples[16][WANT * HUNT_NFAMILIES];
    size_t nj = 0, at[16];
    char err[512];
    memset(jobs, 0, sizeof jobs);
    for (size_t i = 0; i < count && nj < 16; i++) {
        if (!on[i])
            continue;
        const tc_instr *ins = tc_instr_by_name(names[i]);
        ctx[nj] = (audit_backend_ctx){be, ins};
        t[nj] = audit_target(&ctx[nj], 3);
        m[nj] = model_new(profile_lookup(prof, names[i]), t[nj].f, err, sizeof err);
        assert_non_null(m[nj]);
        jobs[nj] = (hunt_gpu_job){.t = &t[nj], .ins = ins, .m = m[nj], .sample = samples[nj]};
        at[nj++] = i;
    }
    if (hunt_gpu_run_all(hg, jobs, nj, n, 3, WANT, NULL, NULL, err, sizeof err))
        fail_msg("GPU path, all at once: %s", err);
    for (size_t j = 0; j < nj; j++) {
        same_counts(names[at[j]], "all at once", &jobs[j].r, &host[at[j]]);
        check_sample(&t[j], names[at[j]], samples[j], jobs[j].sampled);
        assert_int_equal(jobs[j].count.gpu + jobs[j].count.cpu, jobs[j].r.n);
        verify_result_free(&jobs[j].r);
        model_free(m[j]);
    }
    printf("%zu instructions at once (%zu per family): the same counts as the host path\n", nj, n);
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
        fail_msg("GPU hunt: %s", err);
    model_profile prof;
    if (profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err))
        fail_msg("%s", err);
    static const char *const names[] = {
        "mma.m16n8k16.f32.f16.f16.f32",     "mma.m16n8k8.f32.tf32.tf32.f32",
        "mma.m16n8k32.f32.e4m3.e4m3.f32",   "mma.sp.m16n8k16.f32.bf16.bf16.f32",
        "mma.sp.m16n8k8.f32.tf32.tf32.f32", "wgmma.m64n256k16.f32.bf16.bf16",
        "wgmma.m64n8k32.f16.e4m3.e5m2", "wgmma.sp.m64n64k32.f32.f16.f16",
        "wgmma.sp.m64n16k16.f32.tf32.tf32", "mma.m16n8k8.f64.f64.f64.f64" /* the wide kernel */};
    enum { NN = sizeof names / sizeof names[0] };
    size_t elements = 0;
    bool on[NN];
    verify_result host[NN];
    memset(host, 0, sizeof host);
    for (size_t i = 0; i < NN; i++)
        on[i] = both_paths(be, mg, hg, &prof, names[i], 20000, &elements, &host[i]);
    assert_true(elements > 1000000);
    all_at_once(be, hg, &prof, names, NN, on, host, 20000);
    /* a count whose tiles take several rounds (2^23 outputs a round) */
    for (size_t i = 0; i < NN; i++) {
        verify_result_free(&host[i]);
        if (i != 0 && i != 3)
            on[i] = false;
        if (!on[i])
            continue;
        const tc_instr *ins = tc_instr_by_name(names[i]);
        audit_backend_ctx ctx = {be, ins};
        infer_target t = audit_target(&ctx, 3);
        model *m = model_new(profile_lookup(&prof, names[i]), t.f, err, sizeof err);
        assert_non_null(m);
        verify_hunt_ahead *a = verify_hunt_start(&t, 1000000, 3, HUNT_DRAW_TILE, err, sizeof err);
        assert_non_null(a);
        if (verify_hunt_finish(a, &t, m, &host[i], err, sizeof err))
            fail_msg("%s: host path: %s", names[i], err);
        model_free(m);
    }
    all_at_once(be, hg, &prof, names, NN, on, host, 1000000);
    for (size_t i = 0; i < NN; i++)
        verify_result_free(&host[i]);
    profile_free(&prof);
    hunt_gpu_close(hg);
    tc_model_gpu_close(mg);
    tc_backend_close(be);
}

#else

static void test_device_draw_is_the_hosts(void **state)
{
    printf("built without nvcc: no GPU hunt here\n");
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
    printf("built without nvcc: no GPU hunt here\n");
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
