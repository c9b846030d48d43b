/* The hunt's "tile" stream (cases/hunt.h) and what the GPU hunt
 * (cases/hunt_gpu.h) assumes of it, on the CPU:
 *   - tile q of a family drawn alone (hunt_fill_tiles from q) is tile q of
 *     the whole stream, for both streams; the two streams differ;
 *   - the hunt's rounds (verify_hunt_start with HUNT_DRAW_TILE) are each
 *     family's tile stream in order, none lost, repeated or mixed;
 *   - a sparse instruction's hunt tile, put into the logical tile as the
 *     audit's target does (kept positions: the first of every group), is
 *     compressed by tc_sparse_compress into the drawn A itself, with the
 *     metadata registers hunt_gpu_sparse_meta gives every tile, for every
 *     sparse floating-point instruction and every family.
 * The device's own draw is compared with this one bit for bit by
 * tests/test_hunt_gpu.c (on a GPU). */
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
#include "cases/verify.h"
#include "probes/probes.h"
#include "probes/sparse.h"
#include "tests/hunt_hash.h"

static infer_target target_of(const tc_instr *ins)
{
    infer_target t = {.m = ins->m, .n = ins->n, .k = ins->sparse ? ins->k / 2 : ins->k,
                      .f = {ins->a, ins->b, ins->c, ins->d}};
    return t;
}

static void test_a_tile_alone_is_the_streams_tile(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.bf16.bf16.f32");
    assert_non_null(ins);
    infer_target t = target_of(ins);
    size_t ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n, tc = (size_t)t.m * t.n, nt = 9;
    uint64_t *A = malloc(nt * ta * 8), *B = malloc(nt * tb * 8), *C = malloc(nt * tc * 8);
    uint64_t *a1 = malloc(ta * 8), *b1 = malloc(tb * 8), *c1 = malloc(tc * 8), *a2 = malloc(ta * 8);
    assert_true(A && B && C && a1 && b1 && c1 && a2);
    for (int d = HUNT_DRAW_FAMILY; d <= HUNT_DRAW_TILE; d++)
        for (int f = 0; f < HUNT_NFAMILIES; f++) {
            hunt_fill_tiles(&t, (hunt_draw)d, 77, f, 0, nt, A, B, C);
            for (size_t q = 0; q < nt; q += 4) {
                hunt_fill_tiles(&t, (hunt_draw)d, 77, f, q, 1, a1, b1, c1);
                assert_memory_equal(a1, A + q * ta, ta * 8);
                assert_memory_equal(b1, B + q * tb, tb * 8);
                assert_memory_equal(c1, C + q * tc, tc * 8);
            }
            if (d == HUNT_DRAW_TILE) {   /* tile 1 of the two streams: different tiles */
                hunt_fill_tiles(&t, HUNT_DRAW_FAMILY, 77, f, 1, 1, a2, b1, c1);
                assert_true(memcmp(a2, A + ta, ta * 8) || memcmp(c1, C + tc, tc * 8));
            }
        }
    assert_string_equal(hunt_draw_name(HUNT_DRAW_TILE), "tile");
    assert_int_equal(hunt_draw_by_name("family"), HUNT_DRAW_FAMILY);
    assert_int_equal(hunt_draw_by_name("tiles"), -1);
    assert_true(hunt_tile_seed(1, 0, 0) != hunt_tile_seed(1, 0, 1));
    assert_true(hunt_tile_seed(1, 0, 0) != hunt_tile_seed(1, 1, 0));
    free(A), free(B), free(C), free(a1), free(b1), free(c1), free(a2);
}


static void test_rounds_are_each_familys_tile_stream(void **state)
{
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    hash_target ht = {ins->m, ins->n, ins->k, 0, {0}};
    infer_target t = target_of(ins);
    t.run = hash_run;
    t.ctx = &ht;
    t.model_run = zero_model;
    model_params p = model_params_exact(t.f, (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_INF});
    char err[256];
    model *m = model_new(&p, t.f, err, sizeof err);
    assert_non_null(m);
    size_t mn = (size_t)t.m * t.n, ntiles = 1600;   /* several rounds: 2^21 / 128 / 22 = 744 tiles each */
    verify_result v;
    memset(&v, 0, sizeof v);
    verify_hunt_ahead *a = verify_hunt_start(&t, ntiles * mn, 11, HUNT_DRAW_TILE, err, sizeof err);
    assert_non_null(a);
    if (verify_hunt_finish(a, &t, m, &v, err, sizeof err))
        fail_msg("hunt: %s", err);
    assert_int_equal(v.n, HUNT_NFAMILIES * ntiles * mn);
    assert_true(ht.calls >= 3);
    size_t ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n;
    uint64_t *A = malloc(ntiles * ta * 8), *B = malloc(ntiles * tb * 8), *C = malloc(ntiles * mn * 8);
    assert_true(A && B && C);
    for (int f = 0; f < HUNT_NFAMILIES; f++) {
        hunt_fill_tiles(&t, HUNT_DRAW_TILE, 11, f, 0, ntiles, A, B, C);
        uint64_t h = 0;
        for (size_t q = 0; q < ntiles; q++) {
            h = fold(h, A + q * ta, ta);
            h = fold(h, B + q * tb, tb);
            h = fold(h, C + q * mn, mn);
        }
        assert_true(h == ht.hash[f]);
    }
    free(A), free(B), free(C);
    verify_result_free(&v);
    model_free(m);
}

static void test_sparse_hunt_tiles_compress_to_themselves(void **state)
{
    size_t count, checked = 0;
    const tc_instr *cat = tc_catalogue(&count);
    for (size_t i = 0; i < count; i++) {
        const tc_instr *ins = &cat[i];
        infer_target t = target_of(ins);
        if (!ins->sparse || !hunt_applies(&t))
            continue;
        uint32_t regs[HUNT_SPARSE_META_MAX], got[HUNT_SPARSE_META_MAX];
        int nregs = 0, map[TC_SPARSE_MAP_MAX], group, keep;
        char err[320];
        if (hunt_gpu_sparse_meta(ins, regs, &nregs, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(tc_sparse_meta_map(ins, map), nregs);
        tc_sparse_ratio(ins, &group, &keep);
        size_t kc = (size_t)t.k, K = (size_t)ins->k, M = (size_t)ins->m;
        uint64_t *A = malloc(M * kc * 8), *B = malloc(kc * (size_t)t.n * 8), *C = malloc(M * (size_t)t.n * 8);
        uint64_t *L = calloc(M * K, 8), *Ac = malloc(M * kc * 8);
        uint8_t *nib = malloc(M * K);
        assert_true(A && B && C && L && Ac && nib);
        for (int f = 0; f < HUNT_NFAMILIES; f++)
            for (size_t q = 0; q < 3; q++) {
                hunt_fill_tiles(&t, HUNT_DRAW_TILE, 5, f, q, 1, A, B, C);
                for (size_t r = 0; r < M; r++)   /* audit.c's run_sparse: compressed q to group q/keep, place q%keep */
                    for (size_t c = 0; c < kc; c++)
                        L[r * K + c / (size_t)keep * (size_t)group + c % (size_t)keep] = A[r * kc + c];
                if (tc_sparse_compress(ins, L, q, Ac, nib, err, sizeof err))
                    fail_msg("%s: %s", ins->name, err);
                assert_memory_equal(Ac, A, M * kc * 8);
                tc_sparse_meta_regs_mapped(map, nregs, nib, got);
                assert_memory_equal(got, regs, (size_t)nregs * sizeof *regs);
                checked++;
            }
        free(A), free(B), free(C), free(L), free(Ac), free(nib);
    }
    print_message("%zu sparse hunt tiles compressed to themselves\n", checked);
    assert_true(checked >= 84 * HUNT_NFAMILIES * 3);   /* every sparse floating-point instruction */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_tile_alone_is_the_streams_tile),
        cmocka_unit_test(test_rounds_are_each_familys_tile_stream),
        cmocka_unit_test(test_sparse_hunt_tiles_compress_to_themselves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
