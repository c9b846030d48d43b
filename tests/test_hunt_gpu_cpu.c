/* The GPU hunt's CPU share (cases/hunt_gpu_cpu.h), on the CPU: the lists a
 * round's comparison hands over (elements the GPU model declined, elements
 * that differ, with their inputs) become the same counts and failures
 * whether a worker thread or the caller finishes them:
 *   - a declined element gets model_dot's answer: counted a mismatch
 *     exactly when the hardware's differs, in its family, and kept;
 *   - a listed differing element is kept with the model's answer given;
 *   - the GPU's own counts per family are added as given;
 *   - the jobs are reported in order, each once its last item is done;
 *   - the failures are kept in the elements' order whatever the lists'
 *     (given to the thread in reverse), so both ways keep the same ones. */
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
#include "cases/hunt_gpu_cpu.h"
#include "oracle/profile.h"
#include "probes/probes.h"

enum { JOBS = 5, NT = 2 };

typedef struct {
    size_t order[JOBS], n;
} reported;

static void done(void *ctx, size_t j)
{
    reported *r = ctx;
    r->order[r->n++] = j;
}

/* The lists of job j's round: every 7th element declined (its hardware
 * answer model_dot's, flipped in bit 0 for every second one), every 11th
 * listed as differing (model answer flipped in bit 1). */
typedef struct {
    hgpu_list ml, dl;
    size_t at_m[512], at_d[512];
    uint64_t g_m[512 * 35], g_d[512 * 35];
    unsigned long long mism[HUNT_NFAMILIES];
    size_t flipped;   /* declined elements whose hardware answer differs */
} lists;

static void make_lists(const infer_target *t, const model *m, int j, lists *L)
{
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tc = (size_t)t->m * t->n;
    size_t fam_elems = NT * tc, w = 2 * (size_t)t->k + 3;
    uint64_t *A = malloc(NT * HUNT_NFAMILIES * ta * 8), *B = malloc(NT * HUNT_NFAMILIES * tb * 8),
             *C = malloc(NT * HUNT_NFAMILIES * tc * 8);
    assert_true(A && B && C);
    for (int f = 0; f < HUNT_NFAMILIES; f++)
        hunt_fill_tiles(t, HUNT_DRAW_TILE, (uint64_t)j + 1, f, 0, NT, A + f * NT * ta, B + f * NT * tb,
                        C + f * NT * tc);
    memset(L, 0, sizeof *L);
    for (size_t o = 0; o < HUNT_NFAMILIES * fam_elems && L->dl.n < 512 && L->ml.n < 512; o++) {
        bool d = o % 7 == 3, x = o % 11 == 5;
        if (!d && !x)
            continue;
        size_t q = o / tc, e = o % tc, i = e / (size_t)t->n, c = e % (size_t)t->n;
        uint64_t *g = d ? L->g_d + L->dl.n * w : L->g_m + L->ml.n * w;
        for (int z = 0; z < t->k; z++) {
            g[z] = A[q * ta + i * (size_t)t->k + (size_t)z];
            g[t->k + z] = B[q * tb + (size_t)z * t->n + c];
        }
        g[2 * t->k] = C[o];
        uint64_t md = model_dot(m, t->k, g, g + t->k, C[o]);
        if (d) {
            bool flip = L->dl.n % 2 == 1;
            g[2 * t->k + 1] = md ^ (flip ? 1u : 0u);
            g[2 * t->k + 2] = 0xDEC11DEDDEC11DEDull;
            L->flipped += flip;
            L->at_d[L->dl.n++] = o;
        } else {
            g[2 * t->k + 1] = md;
            g[2 * t->k + 2] = md ^ 2;
            L->at_m[L->ml.n++] = o;
            L->mism[o / fam_elems]++;
        }
    }
    L->ml.at = L->at_m, L->ml.g = L->g_m, L->dl.at = L->at_d, L->dl.g = L->g_d;
    free(A), free(B), free(C);
}

/* A list's copy in memory of its own, its entries in reverse when `rev`
 * (the GPU lists them in any order). */
static hgpu_list own(const hgpu_list *l, int k, bool rev)
{
    size_t w = 2 * (size_t)k + 3;
    hgpu_list o = {l->n, malloc(l->n * sizeof *o.at + 1), malloc(l->n * w * sizeof *o.g + 1)};
    assert_true(o.at && o.g);
    for (size_t x = 0; x < l->n; x++) {
        size_t y = rev ? l->n - 1 - x : x;
        o.at[x] = l->at[y];
        memcpy(o.g + x * w, l->g + y * w, w * sizeof *o.g);
    }
    return o;
}

static void run_jobs(bool thread, const infer_target *t, const model *m, verify_result *r, tc_model_gpu_count *cnt,
                     reported *rep, size_t *want_mism)
{
    hgc_worker wk;
    assert_int_equal(hgc_start(&wk, JOBS, thread), 0);
    size_t tc = (size_t)t->m * t->n;
    static lists L;
    size_t seen = 0;   /* jobs reported so far, as hunt_gpu_run_all reports them */
    for (int j = 0; j < JOBS; j++) {
        make_lists(t, m, j, &L);
        want_mism[j] = L.ml.n + L.flipped;
        /* the item takes them (L is reused); the thread's in reverse */
        hgpu_list ml = own(&L.ml, t->k, thread), dl = own(&L.dl, t->k, thread);
        hgc_item *it = hgc_item_new(t, m, &r[j], &cnt[j], (size_t)j, true, false, NT * tc, L.mism, &ml, &dl);
        assert_non_null(it);
        assert_null(ml.at);
        assert_int_equal(hgc_submit(&wk, it), 0);
        hgc_report(&wk, JOBS, &seen, done, rep);
    }
    hgc_drain(&wk);
    assert_false(hgc_stop(&wk));
    hgc_report(&wk, JOBS, &seen, done, rep);
    assert_int_equal(seen, JOBS);
    hgc_free(&wk);
}

static void test_the_worker_finishes_what_the_caller_would(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.bf16.bf16.f32");
    audit_backend_ctx ctx = {NULL, ins};
    infer_target t = audit_target(&ctx, 1);
    model_profile prof;
    char err[256];
    if (profile_load("oracle/profiles/h100.profile", &prof, err, sizeof err))
        fail_msg("%s", err);
    model *m = model_new(profile_lookup(&prof, ins->name), t.f, err, sizeof err);
    assert_non_null(m);
    verify_result r[2][JOBS];
    tc_model_gpu_count cnt[2][JOBS];
    reported rep[2];
    size_t want[2][JOBS];
    memset(r, 0, sizeof r);
    memset(cnt, 0, sizeof cnt);
    memset(rep, 0, sizeof rep);
    for (int way = 0; way < 2; way++)
        run_jobs(way == 1, &t, m, r[way], cnt[way], &rep[way], want[way]);
    for (int way = 0; way < 2; way++) {
        assert_int_equal(rep[way].n, JOBS);
        for (size_t j = 0; j < JOBS; j++) {
            assert_int_equal(rep[way].order[j], j);
            assert_int_equal(r[way][j].mismatches, want[way][j]);
            assert_true(r[way][j].mismatches > 10 && cnt[way][j].cpu > 10);
            assert_true(r[way][j].nfails > 0);
            for (size_t x = 0; x < r[way][j].nfails; x++)   /* a kept failure differs */
                assert_true(r[way][j].fails[x].c.d != r[way][j].fails[x].model_d);
        }
    }
    for (size_t j = 0; j < JOBS; j++) {   /* the thread's results are the caller's */
        assert_int_equal(r[0][j].mismatches, r[1][j].mismatches);
        assert_memory_equal(r[0][j].dist_mismatches, r[1][j].dist_mismatches, sizeof r[0][j].dist_mismatches);
        assert_int_equal(r[0][j].nfails, r[1][j].nfails);
        assert_int_equal(cnt[0][j].cpu, cnt[1][j].cpu);
        for (size_t x = 0; x < r[0][j].nfails; x++) {
            assert_int_equal(r[0][j].fails[x].c.c, r[1][j].fails[x].c.c);
            assert_int_equal(r[0][j].fails[x].model_d, r[1][j].fails[x].model_d);
        }
        verify_result_free(&r[0][j]);
        verify_result_free(&r[1][j]);
    }
    model_free(m);
    profile_free(&prof);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_worker_finishes_what_the_caller_would),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
