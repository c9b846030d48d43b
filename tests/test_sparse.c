/* Structured-sparse A on the host (probes/sparse.h): the input contract, the
 * compression, the metadata nibbles and registers (checked against formulas
 * written here from the PTX ISA's text, not against the code's own helpers),
 * the compressed fragments, and the sparse layout proof on the exact backend.
 * No GPU needed; with nvcc the generated mma.sp and wgmma.sp kernels are checked too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/backend_corpus.h"
#include "probes/layout.h"
#include "probes/sparse.h"
#if TC_HAVE_CUDA
#include "probes/gpu.h"
#endif

#define ONE16 0x3c00u /* 1.0 in f16 */

static const tc_instr *instr(const char *name)
{
    const tc_instr *ins = tc_instr_by_name(name);
    if (!ins)
        fail_msg("no catalogue entry %s", name);
    return ins;
}

/* Group sizes and metadata lanes per ISA shape ("Sparse matrix storage"). */
static void ratios_and_selector_lanes(void **state)
{
    static const struct {
        const char *name;
        int G, S, nib, lanes;
    } t[] = {
        {"mma.sp.m16n8k16.f16.f16.f16.f16", 4, 2, 4, 1},   {"mma.sp.m16n8k32.f32.bf16.bf16.f32", 4, 2, 8, 2},
        {"mma.sp.m16n8k8.f32.tf32.tf32.f32", 2, 1, 4, 1},  {"mma.sp.m16n8k16.f32.tf32.tf32.f32", 2, 1, 8, 2},
        {"mma.sp.m16n8k64.f32.e4m3.e5m2.f32", 4, 2, 16, 4},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const tc_instr *ins = instr(t[i].name);
        int G, S;
        tc_sparse_ratio(ins, &G, &S);
        assert_int_equal(G, t[i].G);
        assert_int_equal(S, t[i].S);
        assert_int_equal(tc_sparse_nibbles_per_row(ins), t[i].nib);
        assert_int_equal(tc_sparse_meta_lanes(ins), t[i].lanes);
    }
    size_t n, nsp = 0, nwg = 0;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++)
        if (c[i].sparse && !strcmp(c[i].api, "mma.sp")) {
            uint32_t regs[32];
            uint8_t nib[16 * 16] = {0};
            assert_int_equal(tc_sparse_meta_threads(&c[i]), 32);
            assert_true(tc_sparse_meta_regs(&c[i], nib, regs));
            nsp++;
        } else if (c[i].sparse) {
            uint32_t regs[128];
            uint8_t nib[64 * 16] = {0};
            assert_string_equal(c[i].api, "wgmma.sp");
            assert_int_equal(tc_sparse_meta_threads(&c[i]), 128); /* a warpgroup */
            assert_true(tc_sparse_meta_regs(&c[i], nib, regs));
            nwg++;
        } else
            assert_int_equal(tc_sparse_meta_threads(&c[i]), 0);
    assert_int_equal(nsp, 12);
    assert_int_equal(nwg, 72);
    /* wgmma.sp per warp as the mma.sp shape of the same K bits (ISA figures 176, 178, 180-181) */
    static const struct {
        const char *name;
        int G, nib, lanes;
    } w[] = {{"wgmma.sp.m64n8k32.f16.f16.f16", 4, 8, 2},
             {"wgmma.sp.m64n256k32.f32.bf16.bf16", 4, 8, 2},
             {"wgmma.sp.m64n64k16.f32.tf32.tf32", 2, 8, 2},
             {"wgmma.sp.m64n16k64.f16.e5m2.e4m3", 4, 16, 4}};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        const tc_instr *ins = instr(w[i].name);
        int G, S;
        tc_sparse_ratio(ins, &G, &S);
        assert_int_equal(G, w[i].G);
        assert_int_equal(tc_sparse_nibbles_per_row(ins), w[i].nib);
        assert_int_equal(tc_sparse_meta_lanes(ins), w[i].lanes);
    }
}

/* The ISA's meaningful index values: 0b0100 0b1000 0b1001 0b1100 0b1101 0b1110
 * for the six pairs of 2:4 (idx0 in bits 0-1), 0b0100 and 0b1110 for tf32. */
static void all_patterns_have_the_isa_nibbles(void **state)
{
    const tc_instr *h = instr("mma.sp.m16n8k32.f32.f16.f16.f32");
    static const struct {
        int i0, i1;
        unsigned nib;
    } p[6] = {{0, 1, 0x4}, {0, 2, 0x8}, {0, 3, 0xC}, {1, 2, 0x9}, {1, 3, 0xD}, {2, 3, 0xE}};
    for (int k = 0; k < 6; k++) {
        uint64_t g[4] = {0, 0, 0, 0};
        g[p[k].i0] = 0x4000; /* 2.0 */
        g[p[k].i1] = 0xc200; /* -3.0 */
        int idx[2];
        assert_int_equal(tc_sparse_kept(h, g, idx), 0);
        assert_int_equal(idx[0], p[k].i0);
        assert_int_equal(idx[1], p[k].i1);
        assert_int_equal(tc_sparse_nibble(h, idx), p[k].nib);
    }
    const tc_instr *t = instr("mma.sp.m16n8k16.f32.tf32.tf32.f32");
    uint64_t g0[2] = {0x3f800000, 0}, g1[2] = {0, 0xbf800000}, gz[2] = {0, 0x80000000}, g2[2] = {0x3f800000, 0x40000000};
    int idx[2];
    assert_int_equal(tc_sparse_kept(t, g0, idx), 0);
    assert_int_equal(tc_sparse_nibble(t, idx), 0x4);
    assert_int_equal(tc_sparse_kept(t, g1, idx), 0);
    assert_int_equal(tc_sparse_nibble(t, idx), 0xE);
    assert_int_equal(tc_sparse_kept(t, gz, idx), 0); /* -0 is a zero: the first position is kept */
    assert_int_equal(idx[0], 0);
    assert_int_equal(tc_sparse_kept(t, g2, idx), -1);
}

/* Fewer nonzeros than kept slots: the nonzeros, then the lowest free positions. */
static void short_groups_fill_from_the_left(void **state)
{
    const tc_instr *h = instr("mma.sp.m16n8k16.f32.bf16.bf16.f32");
    static const struct {
        uint64_t g[4];
        int i0, i1;
    } t[] = {
        {{0, 0, 0, 0}, 0, 1},          {{0, 0, 0, 0x3f80}, 0, 3},      {{0, 0x3f80, 0, 0}, 0, 1},
        {{0, 0, 0x3f80, 0}, 0, 2},     {{0x8000, 0, 0, 0x3f80}, 0, 3}, {{0, 0, 0x7fc0, 0x8000}, 0, 2},
        {{0x3f80, 0, 0, 0x7f80}, 0, 3}, /* NaN and Inf are nonzero */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        int idx[2];
        assert_int_equal(tc_sparse_kept(h, t[i].g, idx), 0);
        if (idx[0] != t[i].i0 || idx[1] != t[i].i1)
            fail_msg("case %zu: kept (%d,%d), want (%d,%d)", i, idx[0], idx[1], t[i].i0, t[i].i1);
    }
    uint64_t three[4] = {0x3f80, 0x3f80, 0, 0x3f80};
    int idx[2];
    assert_int_equal(tc_sparse_kept(h, three, idx), -1);
}

/* Refusals name the tile, row and group; tf32 is 1:2, not 2:4. */
static void refusals_name_tile_row_group(void **state)
{
    char err[256];
    const tc_instr *h = instr("mma.sp.m16n8k32.f32.f16.f16.f32");
    size_t mk = 16 * 32;
    uint64_t *A = calloc(3 * mk, 8);
    A[2 * mk + 5 * 32 + 8] = A[2 * mk + 5 * 32 + 9] = A[2 * mk + 5 * 32 + 11] = ONE16;
    assert_int_equal(tc_sparse_check(h, 2, A, err, sizeof err), 0); /* tile 2 not looked at */
    assert_int_equal(tc_sparse_check(h, 3, A, err, sizeof err), -1);
    assert_non_null(strstr(err, "tile 2 row 5 group 2 (columns 8..11) has 3 nonzeros (2:4 allows 2)"));
    uint64_t Ac[16 * 16];
    uint8_t nib[16 * 8];
    assert_int_equal(tc_sparse_compress(h, A + 2 * mk, 7, Ac, nib, err, sizeof err), -1);
    assert_non_null(strstr(err, "tile 7 row 5 group 2"));
    free(A);

    const tc_instr *t = instr("mma.sp.m16n8k8.f32.tf32.tf32.f32");
    uint64_t T[16 * 8] = {0};
    T[3 * 8 + 0] = T[3 * 8 + 2] = 0x3f800000; /* x 0 x 0: 1:2 holds, 2:4 would too */
    assert_int_equal(tc_sparse_check(t, 1, T, err, sizeof err), 0);
    T[3 * 8 + 1] = 0x3f800000; /* x x x 0: pair 0 has two */
    assert_int_equal(tc_sparse_check(t, 1, T, err, sizeof err), -1);
    assert_non_null(strstr(err, "tile 0 row 3 group 0 (columns 0..1) has 2 nonzeros (1:2 allows 1)"));

    /* and through the backend interface, on the exact backend */
    tc_backend *e = tc_backend_open("exact", err, sizeof err);
    assert_non_null(e);
    uint64_t B[8 * 8] = {0}, D[16 * 8];
    assert_int_equal(tc_backend_mma(e, t, 1, T, B, NULL, D, err, sizeof err), -1);
    assert_non_null(strstr(err, "1:2"));
    T[3 * 8 + 1] = 0;
    assert_int_equal(tc_backend_mma(e, t, 1, T, B, NULL, D, err, sizeof err), 0);
    tc_backend_close(e);
}

/* Register of lane `lane` and bit offset of the nibble of (row, group), from
 * the ISA's metadata figures as read in probes/sparse.h, written out again
 * independently. One or two lanes per group of four (16 nibbles a row or
 * fewer): lane = 4*(row%8) + group/4, bits 16*(row/8) + 4*(group%4). All
 * four lanes (m16n8k64 8-bit, 16 nibbles a row): one row per lane, T0 row g
 * columns 0..31, T1 row g+8 columns 0..31, T2 row g columns 32..63, T3 row
 * g+8 columns 32..63: lane = 4*(row%8) + 2*(group/8) + row/8, bits
 * 4*(group%8). */
static void isa_meta_position(const tc_instr *ins, int row, int group, int *lane, int *bit)
{
    /* wgmma.sp: warp row / 16 provides rows 16w..16w+15 with the same figures
     * (thread 32w + lane; the ISA's "Sparsity information for rows of matrix A") */
    int warp = row / 16;
    row %= 16;
    if (tc_sparse_nibbles_per_row(ins) == 16) {
        *lane = 32 * warp + 4 * (row % 8) + 2 * (group / 8) + row / 8;
        *bit = 4 * (group % 8);
        return;
    }
    *lane = 32 * warp + 4 * (row % 8) + group / 4;
    *bit = 16 * (row / 8) + 4 * (group % 4);
}

/* Compressing, packing, then decoding with the formula above gives the
 * logical tile back, for random structured tiles of every mma.sp entry. */
static void compress_and_registers_round_trip(void **state)
{
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const tc_instr *ins = &c[i];
        if (!ins->sparse || ins->n > 16)
            continue; /* every mma.sp entry; wgmma.sp with N 8 and 16 (N plays no part here) */
        int G, S, M = ins->m, K = ins->k, ng;
        tc_sparse_ratio(ins, &G, &S);
        ng = K / G;
        size_t mk = (size_t)M * K, nt = 4;
        uint64_t *A = malloc(nt * mk * 8), *B = malloc(nt * (size_t)K * ins->n * 8),
                 *C = malloc(nt * (size_t)M * ins->n * 8), *Ac = malloc(mk / 2 * 8), *back = malloc(mk * 8);
        uint8_t *nib = malloc((size_t)M * ng);
        tc_corpus_inputs(ins, nt, 7, A, B, C);
        char err[256];
        assert_int_equal(tc_sparse_check(ins, nt, A, err, sizeof err), 0);
        for (size_t t = 0; t < nt; t++) {
            const uint64_t *At = A + t * mk;
            assert_int_equal(tc_sparse_compress(ins, At, t, Ac, nib, err, sizeof err), 0);
            uint32_t regs[128];
            assert_true(tc_sparse_meta_regs(ins, nib, regs));
            int lanes = tc_sparse_meta_lanes(ins), threads = tc_sparse_meta_threads(ins);
            assert_int_equal(threads, M == 64 ? 128 : 32);
            for (int l = 0; l < threads; l++)
                if (l % 4 >= lanes)
                    assert_int_equal(regs[l], TC_SPARSE_DECOY);
            memset(back, 0, mk * 8);
            for (int r = 0; r < M; r++)
                for (int g = 0; g < ng; g++) {
                    int lane, bit;
                    isa_meta_position(ins, r, g, &lane, &bit);
                    assert_true(lane % 4 < lanes);
                    unsigned v = regs[lane] >> bit & 0xF;
                    int pos[2];
                    if (G == 2) {
                        assert_true(v == 0x4 || v == 0xE);
                        pos[0] = v == 0x4 ? 0 : 1;
                    } else {
                        pos[0] = (int)(v & 3);
                        pos[1] = (int)(v >> 2);
                        assert_true(pos[0] < pos[1]); /* ordered metadata */
                    }
                    for (int s = 0; s < S; s++)
                        back[r * K + g * G + pos[s]] = Ac[r * (K / 2) + g * S + s];
                }
            for (size_t e = 0; e < mk; e++) /* a dropped -0 comes back +0: it takes no part */
                if (back[e] != At[e] &&
                    !(tc_classify(ins->a, At[e]) == TC_ZERO && tc_classify(ins->a, back[e]) == TC_ZERO))
                    fail_msg("%s tile %zu: element (%zu,%zu) 0x%llx came back as 0x%llx", ins->name, t,
                             e / (size_t)K, e % (size_t)K, (unsigned long long)At[e], (unsigned long long)back[e]);
        }
        free(A), free(B), free(C), free(Ac), free(back), free(nib);
    }
}

/* Hand-placed nibbles land where the ISA's figures put them. */
static void metadata_points_from_the_isa_figures(void **state)
{
    static const struct {
        const char *name;
        int row, group, lane, bit;
    } p[] = {
        {"mma.sp.m16n8k16.f16.f16.f16.f16", 0, 3, 0, 12},    /* one lane (T0) holds rows g, g+8 */
        {"mma.sp.m16n8k16.f16.f16.f16.f16", 10, 1, 8, 20},
        {"mma.sp.m16n8k32.f32.f16.f16.f32", 9, 5, 5, 20},    /* T1 holds columns 16..31 */
        {"mma.sp.m16n8k32.f32.f16.f16.f32", 7, 2, 28, 8},
        {"mma.sp.m16n8k8.f32.tf32.tf32.f32", 15, 2, 28, 24},
        {"mma.sp.m16n8k16.f32.tf32.tf32.f32", 4, 6, 17, 8},
        /* m16n8k64 fp8, all four lanes, one row each (ISA figures for columns
         * 0-31 and 32-63): row 8 group 0 is T1 bits 0..3 of groupID 0 (the
         * point the first H100 run got wrong with the k32 pattern continued:
         * D[8][0] = 0), row 3 group 13 is T2 of groupID 3 bits 20..23 */
        {"mma.sp.m16n8k64.f32.e4m3.e4m3.f32", 8, 0, 1, 0},
        {"mma.sp.m16n8k64.f32.e4m3.e4m3.f32", 3, 13, 14, 20},
        {"mma.sp.m16n8k64.f32.e5m2.e4m3.f32", 12, 8, 19, 0},
        {"mma.sp.m16n8k64.f32.e4m3.e5m2.f32", 0, 7, 0, 28},
        {"mma.sp.m16n8k64.f32.e5m2.e5m2.f32", 15, 15, 31, 28},
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        const tc_instr *ins = instr(p[i].name);
        int ng = tc_sparse_nibbles_per_row(ins);
        uint8_t nib[16 * 16];
        for (int k = 0; k < 16 * ng; k++)
            nib[k] = 0x4;
        nib[p[i].row * ng + p[i].group] = 0xD;
        uint32_t regs[32];
        assert_true(tc_sparse_meta_regs(ins, nib, regs));
        for (int l = 0; l < 32; l++) {
            uint32_t want = TC_SPARSE_DECOY;
            if (l == p[i].lane)
                want = (want & ~(0xFu << p[i].bit)) | 0xDu << p[i].bit;
            if (regs[l] != want)
                fail_msg("%s (%d,%d): lane %d = 0x%08x, want 0x%08x", p[i].name, p[i].row, p[i].group, l, regs[l],
                         want);
        }
        int r, g;
        assert_true(tc_sparse_meta_coord(ins, p[i].lane, p[i].bit / 4, &r, &g));
        assert_int_equal(r, p[i].row);
        assert_int_equal(g, p[i].group);
    }
    /* The MLIR sparse-mma-2-4-f16 example: every group keeps (0, 2): 0x8888 per row half. */
    const tc_instr *h = instr("mma.sp.m16n8k32.f32.f16.f16.f32");
    uint8_t nib[16 * 8];
    memset(nib, 0x8, sizeof nib);
    uint32_t regs[32];
    assert_true(tc_sparse_meta_regs(h, nib, regs));
    assert_int_equal(regs[0], 0x88888888u);
    assert_int_equal(regs[1], 0x88888888u);
    assert_int_equal(regs[2], TC_SPARSE_DECOY);
}

/* wgmma.sp: hand-placed nibbles land in the thread of the warp that provides
 * the row (16 rows a warp), at the place the mma.sp figure gives its lane;
 * every other thread's register is the all-0x4 background or the decoy. */
static void wgmma_sp_metadata_points(void **state)
{
    static const struct {
        const char *name;
        int row, group, thread, bit;
    } p[] = {
        {"wgmma.sp.m64n8k32.f16.f16.f16", 37, 5, 85, 4},       /* warp 2, row 5: lane 4*5+1, T1 columns 16..31 */
        {"wgmma.sp.m64n128k32.f32.bf16.bf16", 15, 0, 28, 16},  /* warp 0, row 15: lane 28, upper half */
        {"wgmma.sp.m64n8k16.f32.tf32.tf32", 63, 7, 125, 28},   /* warp 3, row 15: lane 29 */
        {"wgmma.sp.m64n8k64.f32.e4m3.e5m2", 24, 0, 33, 0},     /* warp 1, row 8: T1 of groupID 0 */
        {"wgmma.sp.m64n8k64.f16.e5m2.e5m2", 50, 13, 106, 20},  /* warp 3, row 2: T2 of groupID 2 */
        {"wgmma.sp.m64n256k64.f32.e4m3.e4m3", 47, 15, 95, 28}, /* warp 2, row 15: T3 of groupID 7 */
    };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) {
        const tc_instr *ins = instr(p[i].name);
        int ng = tc_sparse_nibbles_per_row(ins), lanes = tc_sparse_meta_lanes(ins);
        uint8_t nib[64 * 16];
        for (int k = 0; k < 64 * ng; k++)
            nib[k] = 0x4;
        nib[p[i].row * ng + p[i].group] = 0xD;
        uint32_t regs[128];
        assert_true(tc_sparse_meta_regs(ins, nib, regs));
        for (int t = 0; t < 128; t++) {
            uint32_t want = t % 4 < lanes ? 0x44444444u : TC_SPARSE_DECOY;
            if (t == p[i].thread)
                want = (want & ~(0xFu << p[i].bit)) | 0xDu << p[i].bit;
            if (regs[t] != want)
                fail_msg("%s (%d,%d): thread %d = 0x%08x, want 0x%08x", p[i].name, p[i].row, p[i].group, t, regs[t],
                         want);
        }
        int r, g;
        assert_true(tc_sparse_meta_coord(ins, p[i].thread, p[i].bit / 4, &r, &g));
        assert_int_equal(r, p[i].row);
        assert_int_equal(g, p[i].group);
        assert_false(tc_sparse_meta_coord(ins, 128, 0, &r, &g));
    }
    /* fp8 k64: thread 32w + l holds lane l's register of the mma.sp layout for rows 16w.. */
    const tc_instr *q = instr("wgmma.sp.m64n32k64.f32.e5m2.e4m3"), *m = instr("mma.sp.m16n8k64.f32.e5m2.e4m3.f32");
    uint8_t nib[64 * 16];
    for (int k = 0; k < 64 * 16; k++)
        nib[k] = (uint8_t)(0x4 + (k * 7 % 11 == 0 ? 0xA : 0)); /* 0x4 or 0xE */
    uint32_t wr[128], mr[32];
    assert_true(tc_sparse_meta_regs(q, nib, wr));
    for (int w = 0; w < 4; w++) {
        assert_true(tc_sparse_meta_regs(m, nib + 16 * 16 * w, mr));
        for (int l = 0; l < 32; l++)
            assert_int_equal(wr[32 * w + l], mr[l]);
    }
}

/* m16n8k64 fp8: whole registers. Rows r hold pattern code (r + group) % 6 of
 * the six 2:4 nibbles; lane 4g+j is then, nibble c at bits 4c, row g + 8*(j&1)
 * groups 8*(j>>1)+c: e.g. lane 1 (row 8, groups 0..7) = codes 2,3,4,5,0,1,2,3
 * = nibbles C 9 D E 4 8 C 9, read from bit 0 up: 0x9C84ED9C. No decoy lanes. */
static void fp8_k64_metadata_registers(void **state)
{
    static const unsigned code[6] = {0x4, 0x8, 0xC, 0x9, 0xD, 0xE};
    const tc_instr *q = instr("mma.sp.m16n8k64.f32.e4m3.e4m3.f32");
    assert_int_equal(tc_sparse_nibbles_per_row(q), 16);
    uint8_t nib[16 * 16];
    for (int r = 0; r < 16; r++)
        for (int g = 0; g < 16; g++)
            nib[r * 16 + g] = (uint8_t)code[(r + g) % 6];
    uint32_t regs[32];
    assert_true(tc_sparse_meta_regs(q, nib, regs));
    assert_int_equal(regs[1], 0x9C84ED9Cu); /* row 8, groups 0..7: codes 2,3,4,5,0,1,2,3 */
    assert_int_equal(regs[0], 0x84ED9C84u); /* row 0, groups 0..7: codes 0,1,2,3,4,5,0,1 */
    assert_int_equal(regs[2], 0x9C84ED9Cu); /* row 0, groups 8..15: codes 2,3,4,5,0,1,2,3 */
    assert_int_equal(regs[3], 0xED9C84EDu); /* row 8, groups 8..15: codes 4,5,0,1,2,3,4,5 */
    for (int l = 0; l < 32; l++) {
        int row = l / 4 + 8 * (l % 4 % 2), g0 = 8 * (l % 4 / 2);
        uint32_t want = 0;
        for (int c = 0; c < 8; c++)
            want |= (uint32_t)code[(row + g0 + c) % 6] << (4 * c);
        if (regs[l] != want)
            fail_msg("lane %d = 0x%08x, want 0x%08x", l, regs[l], want);
        assert_int_not_equal(regs[l], TC_SPARSE_DECOY);
    }
}

static void expect(const char *name, tc_operand op, int t, int e, int row, int col)
{
    int r, c;
    assert_true(tc_frag_coord(instr(name), op, t, e, &r, &c));
    if (r != row || c != col)
        fail_msg("%s %s thread %d elem %d: (%d,%d), ISA says (%d,%d)", name, tc_operand_name(op), t, e, r, c, row,
                 col);
}

/* The compressed A fragment from the ISA's row/col text (firstcol of the
 * logical chunk, compressed column = firstcol * S / G + position), and B. */
static void compressed_fragments_from_the_isa_text(void **state)
{
    const char *h16 = "mma.sp.m16n8k16.f32.f16.f16.f32", *h32 = "mma.sp.m16n8k32.f16.f16.f16.f16",
               *t8 = "mma.sp.m16n8k8.f32.tf32.tf32.f32", *t16 = "mma.sp.m16n8k16.f32.tf32.tf32.f32",
               *q = "mma.sp.m16n8k64.f32.e4m3.e4m3.f32";
    tc_frag_shape s;
    assert_true(tc_frag_shape_of(instr(h32), TC_OPND_A, &s));
    assert_int_equal(s.cols, 16);
    assert_int_equal(s.elems, 8);
    assert_true(tc_frag_shape_of(instr(q), TC_OPND_B, &s));
    assert_int_equal(s.rows, 64);
    assert_int_equal(s.elems, 16);
    assert_false(tc_frag_shape_of(instr("wgmma.sp.m64n8k32.f32.f16.f16"), TC_OPND_A, &s)); /* SS: shared memory */
    assert_false(tc_frag_shape_of(instr("wgmma.sp.m64n8k32.f32.f16.f16"), TC_OPND_B, &s));
    assert_true(tc_frag_shape_of(instr("wgmma.sp.m64n16k64.f16.e4m3.e4m3"), TC_OPND_C, &s));
    assert_int_equal(s.threads, 128);
    assert_int_equal(s.rows, 64);
    assert_int_equal(s.cols, 16);
    expect("wgmma.sp.m64n8k32.f32.f16.f16", TC_OPND_C, 33, 2, 24, 2); /* warp 1, g 0 t 1: d2 row g+8 */
    expect("wgmma.sp.m64n16k64.f16.e4m3.e4m3", TC_OPND_C, 127, 7, 63, 15); /* as dense wgmma's D */
    expect(h16, TC_OPND_A, 31, 3, 15, 7);  /* a2,a3 row g+8, firstcol 4t = 12 -> 6, +1 */
    expect(h16, TC_OPND_A, 5, 1, 1, 3);
    expect(h32, TC_OPND_A, 5, 5, 1, 11);   /* a4,a5 row g, firstcol 4t+16 = 20 -> 10, +1 */
    expect(h32, TC_OPND_A, 5, 6, 9, 10);
    expect(t8, TC_OPND_A, 7, 1, 9, 3);     /* a1 row g+8, firstcol 2t = 6 -> 3 */
    expect(t16, TC_OPND_A, 6, 2, 1, 6);    /* a2 row g, firstcol 2t+8 = 12 -> 6 */
    expect(t16, TC_OPND_A, 6, 3, 9, 6);
    expect(q, TC_OPND_A, 7, 9, 1, 29);     /* a8..a11 row g, firstcol 8t+32 = 56 -> 28, +1 */
    expect(q, TC_OPND_A, 7, 5, 9, 13);     /* a4..a7 row g+8, firstcol 24 -> 12, +1 */
    expect(h32, TC_OPND_B, 6, 5, 21, 1);   /* b4,b5 rows 2t+16.. */
    expect(h16, TC_OPND_B, 6, 1, 5, 1);    /* as dense m16n8k16 */
    expect(t16, TC_OPND_B, 3, 3, 15, 0);
    expect(q, TC_OPND_B, 1, 13, 53, 0);    /* b12..b15 rows 48 + 4t.. */
    expect(q, TC_OPND_C, 31, 3, 15, 7);
}

/* The proof's logic on the exact backend, for every mma.sp entry and the
 * smallest wgmma.sp ones (the big ones only cost time). */
static void sparse_layout_probe_passes_on_the_exact_backend(void **state)
{
    char err[256], msg[384];
    tc_backend *b = tc_backend_open("exact", err, sizeof err);
    assert_non_null(b);
    size_t n, done = 0;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        if (!c[i].sparse || (strcmp(c[i].api, "mma.sp") && c[i].n > 8))
            continue;
        if (tc_layout_probe(b, &c[i], msg, sizeof msg))
            fail_msg("%s", msg);
        done++;
    }
    assert_int_equal(done, 24);
    tc_backend_close(b);
}

/* The random inputs of every sparse entry are structured as the contract says. */
static void corpus_inputs_are_structured(void **state)
{
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        if (!c[i].sparse || c[i].n > 32)
            continue;
        size_t nt = 2, mk = (size_t)c[i].m * c[i].k;
        uint64_t *A = malloc(nt * mk * 8), *B = malloc(nt * (size_t)c[i].k * c[i].n * 8),
                 *C = malloc(nt * (size_t)c[i].m * c[i].n * 8);
        tc_corpus_inputs(&c[i], nt, 3, A, B, C);
        char err[256];
        if (tc_sparse_check(&c[i], nt, A, err, sizeof err))
            fail_msg("%s", err);
        free(A), free(B), free(C);
    }
}

#if TC_HAVE_CUDA
/* The generated mma.sp and wgmma.sp kernels (probes/isa/gen.py) match the
 * catalogue (a build without CUDA has no kernel table to check). */
static void every_sparse_entry_has_a_gpu_kernel(void **state)
{
    size_t n, m;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        if (!c[i].sparse)
            continue;
        const tc_gpu_kernel *k = tc_gpu_kernel_find(c[i].name);
        if (!k)
            fail_msg("%s: no kernel", c[i].name);
        assert_string_equal(k->name, c[i].name);
        assert_int_equal(k->kind, strcmp(c[i].api, "mma.sp") ? TC_GPUK_WG_SP : TC_GPUK_WARP_SP);
        assert_int_equal(k->block, strcmp(c[i].api, "mma.sp") ? 128 : 256);
    }
    const tc_gpu_kernel *k = tc_gpu_kernels_mma_sp(&m);
    assert_int_equal(m, 12);
    for (size_t i = 0; i < m; i++) {
        const tc_instr *ins = tc_instr_by_name(k[i].name);
        assert_non_null(ins);
        assert_true(ins->sparse);
        assert_string_equal(ins->api, "mma.sp");
    }
    k = tc_gpu_kernels_wgmma_sp(&m);
    assert_int_equal(m, 72);
    for (size_t i = 0; i < m; i++) {
        const tc_instr *ins = tc_instr_by_name(k[i].name);
        assert_non_null(ins);
        assert_true(ins->sparse);
        assert_string_equal(ins->api, "wgmma.sp");
        assert_false(ins->a_in_regs);
    }
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ratios_and_selector_lanes),
        cmocka_unit_test(all_patterns_have_the_isa_nibbles),
        cmocka_unit_test(short_groups_fill_from_the_left),
        cmocka_unit_test(refusals_name_tile_row_group),
        cmocka_unit_test(compress_and_registers_round_trip),
        cmocka_unit_test(metadata_points_from_the_isa_figures),
        cmocka_unit_test(fp8_k64_metadata_registers),
        cmocka_unit_test(wgmma_sp_metadata_points),
        cmocka_unit_test(compressed_fragments_from_the_isa_text),
        cmocka_unit_test(sparse_layout_probe_passes_on_the_exact_backend),
        cmocka_unit_test(corpus_inputs_are_structured),
#if TC_HAVE_CUDA
        cmocka_unit_test(every_sparse_entry_has_a_gpu_kernel),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
