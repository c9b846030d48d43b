/* Fragment layouts and the wgmma shared-memory layout, on the host:
 * bijections, the ISA's packing rules, points read off the ISA's figures,
 * and the layout proof's own logic: it passes on the exact backend and on an
 * emulated warp with the right tables, and fails when two entries of a
 * fragment table are swapped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "probes/layout.h"

/* Every (row, col) of every operand with a fragment is held exactly once. */
static void fragments_are_bijections(void **state)
{
    size_t n, checked = 0;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++)
        for (int op = TC_OPND_A; op <= TC_OPND_C; op++) {
            tc_frag_shape s;
            if (!tc_frag_shape_of(&c[i], (tc_operand)op, &s))
                continue;
            size_t cells = (size_t)s.rows * (size_t)s.cols;
            assert_int_equal((size_t)s.threads * (size_t)s.elems, cells);
            uint16_t *tab = malloc(cells * sizeof *tab);
            unsigned char *seen = calloc(cells, 1);
            assert_int_equal(tc_frag_table(&c[i], (tc_operand)op, tab, cells), cells);
            for (size_t e = 0; e < cells; e++) {
                assert_true(tab[e] < cells);
                if (seen[tab[e]]++)
                    fail_msg("%s %s: cell %u held twice", c[i].name, tc_operand_name((tc_operand)op), tab[e]);
            }
            assert_int_equal(tc_frag_table(&c[i], (tc_operand)op, tab, cells - 1), 0); /* short buffer */
            free(tab);
            free(seen);
            checked++;
        }
    assert_true(checked > 100);
}

/* Elements sharing a 32-bit register are neighbours: along a row for A and
 * C/D (the .f16x2 / .e4m3x4 pairs), along a column (K) for B. */
static void packed_elements_are_neighbours(void **state)
{
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++)
        for (int op = TC_OPND_A; op <= TC_OPND_C; op++) {
            tc_frag_shape s;
            if (!tc_frag_shape_of(&c[i], (tc_operand)op, &s) || s.elem_bits >= 32)
                continue;
            int per = 32 / s.elem_bits;
            for (int t = 0; t < s.threads; t++)
                for (int e = 0; e < s.elems; e++) {
                    if (e % per == 0)
                        continue;
                    int r0, c0, r1, c1;
                    assert_true(tc_frag_coord(&c[i], (tc_operand)op, t, e - 1, &r0, &c0));
                    assert_true(tc_frag_coord(&c[i], (tc_operand)op, t, e, &r1, &c1));
                    if (op == TC_OPND_B) {
                        assert_int_equal(c1, c0);
                        assert_int_equal(r1, r0 + 1);
                    } else {
                        assert_int_equal(r1, r0);
                        assert_int_equal(c1, c0 + 1);
                    }
                }
        }
}

static void expect(const char *name, tc_operand op, int t, int e, int row, int col)
{
    const tc_instr *ins = tc_instr_by_name(name);
    assert_non_null(ins);
    int r, c;
    assert_true(tc_frag_coord(ins, op, t, e, &r, &c));
    if (r != row || c != col)
        fail_msg("%s %s thread %d elem %d: (%d,%d), ISA says (%d,%d)", name, tc_operand_name(op), t, e, r, c, row,
                 col);
}

/* Points read off the PTX ISA's fragment figures. */
static void points_from_the_isa_figures(void **state)
{
    const char *h16 = "mma.m16n8k16.f32.f16.f16.f32";
    expect(h16, TC_OPND_A, 0, 0, 0, 0);
    expect(h16, TC_OPND_A, 0, 3, 8, 1);
    expect(h16, TC_OPND_A, 0, 4, 0, 8);
    expect(h16, TC_OPND_A, 5, 0, 1, 2);
    expect(h16, TC_OPND_A, 31, 7, 15, 15);
    expect(h16, TC_OPND_B, 0, 2, 8, 0);
    expect(h16, TC_OPND_B, 6, 1, 5, 1);
    expect(h16, TC_OPND_C, 0, 2, 8, 0);
    expect(h16, TC_OPND_C, 31, 3, 15, 7);
    expect("mma.m16n8k8.f16.f16.f16.f16", TC_OPND_B, 3, 1, 7, 0);
    const char *t8 = "mma.m16n8k8.f32.tf32.tf32.f32";
    expect(t8, TC_OPND_A, 0, 1, 8, 0);
    expect(t8, TC_OPND_A, 0, 2, 0, 4);
    expect(t8, TC_OPND_B, 2, 1, 6, 0);
    expect("mma.m16n8k4.f32.tf32.tf32.f32", TC_OPND_A, 7, 1, 9, 3);
    const char *q = "mma.m16n8k32.f32.e4m3.e4m3.f32";
    expect(q, TC_OPND_A, 1, 0, 0, 4);
    expect(q, TC_OPND_A, 1, 4, 8, 4);
    expect(q, TC_OPND_A, 1, 8, 0, 20);
    expect(q, TC_OPND_B, 1, 4, 20, 0);
    expect("mma.m16n8k32.s32.s8.s8.s32", TC_OPND_A, 31, 15, 15, 31);
    expect("mma.m8n8k4.f64.f64.f64.f64", TC_OPND_A, 5, 0, 1, 1);
    expect("mma.m8n8k4.f64.f64.f64.f64", TC_OPND_C, 5, 1, 1, 3);
    expect("mma.m16n8k16.f64.f64.f64.f64", TC_OPND_A, 0, 3, 8, 4);
    expect("mma.m16n8k16.f64.f64.f64.f64", TC_OPND_B, 0, 3, 12, 0);
    /* wgmma D: warp w owns rows 16w..; every 4 elements the next 8 columns */
    const char *w = "wgmma.m64n256k16.f32.f16.f16";
    expect(w, TC_OPND_C, 32, 0, 16, 0);
    expect(w, TC_OPND_C, 33, 5, 16, 11);
    expect(w, TC_OPND_C, 127, 127, 63, 255);
    expect("wgmma.m64n8k16.f32.f16.f16.rs", TC_OPND_A, 64, 7, 40, 9);
}

static void shared_memory_operands_hold_core_matrices(void **state)
{
    static const int ebytes[] = {1, 2, 4};
    for (size_t x = 0; x < 3; x++) {
        int eb = ebytes[x], K = 32 / eb, rows = 256;
        size_t bytes = (size_t)rows * 32;
        unsigned char *seen = calloc(bytes, 1);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < K; c++) {
                unsigned off = tc_wg_smem_offset(r, c, eb, 32);
                assert_true(off + (unsigned)eb <= bytes);
                assert_int_equal(off % (unsigned)eb, 0);
                for (int b = 0; b < eb; b++)
                    assert_int_equal(seen[off + (unsigned)b]++, 0);
                /* a core matrix: 8 rows of 16 contiguous bytes, 128 bytes in all */
                unsigned base = tc_wg_smem_offset(r / 8 * 8, c * eb / 16 * 16 / eb, eb, 32);
                assert_int_equal(off - base, (unsigned)(r % 8 * 16 + c * eb % 16));
                /* neighbours along K cross core matrices by LBO, along rows by SBO */
                if (c * eb % 16 == 0 && c * eb >= 16)
                    assert_int_equal(off - tc_wg_smem_offset(r, c - 16 / eb, eb, 32), tc_wg_lbo(32));
                if (r % 8 == 0 && r >= 8)
                    assert_int_equal(off - tc_wg_smem_offset(r - 8, c, eb, 32), tc_wg_sbo(32));
            }
        free(seen);
    }
    uint64_t d = tc_wg_desc(0x12340, 128, 256);
    assert_int_equal(d & 0x3FFF, 0x12340 >> 4);
    assert_int_equal((d >> 16) & 0x3FFF, 128 >> 4);
    assert_int_equal((d >> 32) & 0x3FFF, 256 >> 4);
    assert_int_equal(d >> 62, 0); /* no swizzle */
}

/* The proof itself: on the exact backend every entry up to N = 64 passes,
 * sparse ones included. */
static void layout_probe_passes_on_the_exact_backend(void **state)
{
    char err[256], msg[384];
    tc_backend *b = tc_backend_open("exact", err, sizeof err);
    assert_non_null(b);
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        if (c[i].n > 64 && !strncmp(c[i].api, "wgmma", 5))
            continue; /* the big tiles add nothing here and cost seconds under ASAN */
        if (tc_layout_probe(b, &c[i], msg, sizeof msg))
            fail_msg("%s", msg);
    }
    tc_backend_close(b);
}

/* ---- The proof fails on a wrong layout ----------------------------------------
 * A warp emulated on the host. The "hardware" places the elements of an
 * operand as the ISA says (tc_frag_table, checked above against the ISA's
 * figures); the "executor" packs registers with its own table, here the true
 * one with entries x0 and x1 swapped (a wrong layout in the executor: the
 * thing the proof on the GPU must catch). Packing: reg[x] = M[exec[x]], read
 * by the hardware as M_hw[true[x]]; so M_hw is M with cells true[x0] and
 * true[x1] swapped. C and D share a table: a wrong C/D table swaps those
 * cells of C on the way in and of D on the way out. The arithmetic in
 * between is the exact oracle. x0 == x1 is the correct executor. */
typedef struct {
    tc_backend *exact;
    tc_operand op;
    size_t x0, x1;
} warp_emu;

static void swap_cells(uint64_t *tile, const uint16_t *tab, size_t x0, size_t x1)
{
    uint64_t t = tile[tab[x0]];
    tile[tab[x0]] = tile[tab[x1]];
    tile[tab[x1]] = t;
}

static int warp_emu_mma(void *ctx, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                        const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    const warp_emu *w = ctx;
    tc_frag_shape s;
    assert_true(tc_frag_shape_of(ins, w->op, &s));
    size_t cells = (size_t)s.rows * (size_t)s.cols, mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n,
           mn = (size_t)ins->m * ins->n;
    uint16_t *tab = malloc(cells * sizeof *tab);
    assert_int_equal(tc_frag_table(ins, w->op, tab, cells), cells);
    uint64_t *A2 = malloc(ntiles * mk * 8), *B2 = malloc(ntiles * kn * 8), *C2 = calloc(ntiles * mn, 8);
    memcpy(A2, A, ntiles * mk * 8);
    memcpy(B2, B, ntiles * kn * 8);
    if (C)
        memcpy(C2, C, ntiles * mn * 8);
    uint64_t *M = w->op == TC_OPND_A ? A2 : w->op == TC_OPND_B ? B2 : C2;
    size_t per = w->op == TC_OPND_A ? mk : w->op == TC_OPND_B ? kn : mn;
    for (size_t t = 0; t < ntiles; t++)
        swap_cells(M + t * per, tab, w->x0, w->x1);
    int rc = tc_backend_mma(w->exact, ins, ntiles, A2, B2, C2, D, err, errlen);
    if (w->op == TC_OPND_C)
        for (size_t t = 0; t < ntiles; t++)
            swap_cells(D + t * mn, tab, w->x0, w->x1);
    free(A2), free(B2), free(C2), free(tab);
    return rc;
}

/* For each operand with a register fragment: the correct executor passes,
 * and one with two entries swapped fails (two neighbours in one register,
 * and the first and last entries). Sparse A is a compressed fragment, not a
 * permutation of A's cells: its B and C/D tables are tried. */
static void layout_probe_fails_on_a_permuted_layout(void **state)
{
    static const char *const names[] = {
        "mma.m16n8k16.f32.f16.f16.f32",  "mma.m16n8k8.f16.f16.f16.f16",    "mma.m16n8k8.f32.tf32.tf32.f32",
        "mma.m16n8k32.f32.e4m3.e5m2.f32", "mma.m8n8k4.f64.f64.f64.f64",    "mma.m16n8k32.s32.s8.s8.s32",
        "wgmma.m64n8k16.f32.f16.f16.rs", "wgmma.m64n16k32.f16.e4m3.e4m3", "mma.sp.m16n8k32.f32.f16.f16.f32",
        "wgmma.sp.m64n8k32.f32.f16.f16"};
    char err[256], msg[384];
    warp_emu w = {.exact = tc_backend_open("exact", err, sizeof err)};
    assert_non_null(w.exact);
    tc_backend *b = tc_backend_open_fn("warp-emulator", warp_emu_mma, &w);
    assert_non_null(b);
    size_t failed = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const tc_instr *ins = tc_instr_by_name(names[i]);
        assert_non_null(ins);
        for (int op = TC_OPND_A; op <= TC_OPND_C; op++) {
            tc_frag_shape s;
            if (!tc_frag_shape_of(ins, (tc_operand)op, &s) || (ins->sparse && op == TC_OPND_A))
                continue;
            size_t last = (size_t)s.threads * (size_t)s.elems - 1;
            const size_t swaps[3][2] = {{0, 0}, {0, 1}, {0, last}};
            for (size_t q = 0; q < 3; q++) {
                w.op = (tc_operand)op;
                w.x0 = swaps[q][0];
                w.x1 = swaps[q][1];
                int rc = tc_layout_probe(b, ins, msg, sizeof msg);
                if (q == 0 && rc)
                    fail_msg("%s: the correct layout fails: %s", names[i], msg);
                if (q > 0 && !rc)
                    fail_msg("%s %s: entries %zu and %zu swapped, yet the proof passes", names[i],
                             tc_operand_name((tc_operand)op), w.x0, w.x1);
                if (q > 0) {
                    assert_non_null(strstr(msg, names[i]));
                    assert_non_null(strstr(msg, "expected"));
                    failed++;
                }
            }
        }
    }
    assert_true(failed >= 40);
    tc_backend_close(b);
    tc_backend_close(w.exact);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fragments_are_bijections),
        cmocka_unit_test(packed_elements_are_neighbours),
        cmocka_unit_test(points_from_the_isa_figures),
        cmocka_unit_test(shared_memory_operands_hold_core_matrices),
        cmocka_unit_test(layout_probe_passes_on_the_exact_backend),
        cmocka_unit_test(layout_probe_fails_on_a_permuted_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
