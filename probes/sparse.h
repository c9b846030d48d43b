/* sparse: how a structured-sparse MMA (mma.sp, wgmma.sp) receives its A.
 *
 * The contract (probes.h): every backend takes A as the dense LOGICAL tile,
 * m x k row-major, k the logical K. Along K, A is cut into aligned groups of
 * G elements, of which at most S may be nonzero (tc_classify != TC_ZERO):
 *   f16, bf16, e4m3, e5m2: G = 4, S = 2 (2:4)      (PTX ISA "Sparse matrix storage")
 *   tf32:                  G = 2, S = 1 (1:2)
 * An A with more is refused, naming tile, row and group. The GPU backend
 * compresses each group into S kept elements and a 4-bit metadata index:
 *   kept positions = the nonzero ones, then the lowest-numbered zero positions
 *   until S are kept, in increasing order (so the metadata is always "ordered",
 *   valid for both mma.sp and mma.sp::ordered_metadata);
 *   G = 4: nibble = idx0 | idx1 << 2 (idx0 < idx1; one of 0x4 0x8 0xC 0x9 0xD 0xE);
 *   G = 2: nibble = 0x4 (element 0 kept) or 0xE (element 1 kept): the ISA
 *          counts tf32 in 16-bit halves, element e = halves 2e, 2e+1.
 * The compressed A is m x k/2, kept values of each group side by side in
 * index order; its register fragment is the dense fragment of the same type
 * with K halved (probes/layout.c). What the instruction computes is
 * sum over KEPT positions of A*B + C: equal to the dense product of the logical
 * tile except where B holds Inf/NaN in a dropped position (0 * Inf is NaN in
 * the dense product, absent from the instruction) and, for an exact-zero
 * result, possibly the sign of that zero. tc_sparse_kept says which
 * positions are kept, so an oracle can mirror the instruction exactly.
 *
 * Metadata registers (mma.sp, sparsity selector 0 always, TC_SPARSE_SELECTOR):
 * a row has k/G nibbles; in each group of four lanes (groupID g = lane >> 2,
 * j = lane % 4) the lanes j < T = (k/G)/4 contribute (T = 1: m16n8k16 f16,
 * m16n8k8 tf32; T = 2: m16n8k32 f16/bf16, m16n8k16 tf32; T = 4: m16n8k64
 * fp8). T = 1, 2: lane j holds nibbles 4j..4j+3 of row g in bits 0..15
 * (nibble 4j+c at bits 4c) and the same nibbles of row g+8 in bits 16..31.
 * T = 4 (all four lanes, 8-bit m16n8k64) is NOT that pattern continued: each
 * lane holds eight nibbles of ONE row, nibble c at bits 4c: T0 row g groups
 * 0..7 (logical columns 0..31), T1 row g+8 groups 0..7, T2 row g groups
 * 8..15 (columns 32..63), T3 row g+8 groups 8..15 (the ISA's two metadata
 * figures for m16n8k64, columns 0-31 and 32-63; sm_90 emulates it with two
 * HMMA.SP.16832 whose metadata ptxas rebuilds from this layout with shifts and
 * shuffles). The other lanes' registers (T = 1, 2) are ignored by the
 * hardware; they get TC_SPARSE_DECOY (a valid but different pattern) so that a
 * misunderstanding of the selector shows up in the layout proof instead of
 * passing by luck.
 *
 * wgmma.sp (m64nNkK, A from shared memory): 128 metadata registers, one per
 * thread of the warpgroup. The PTX ISA ("Matrix fragments for warpgroup-level
 * multiply-accumulate operation with sparse matrix A") has warp w (%warpid % 4)
 * provide the metadata of rows 16w..16w+15, and draws each warp's layout with
 * the mma.sp figures themselves: m64nNk32 f16/bf16 = sparse-mma-metadata-16832
 * (T = 2), m64nNk16 tf32 = sparse-mma-metadata-16816-tf32 (T = 2), m64nNk64
 * e4m3/e5m2 = sparse-mma-metadata-16864 first32col/last32col (T = 4, the
 * one-row-per-lane layout above, selector 0 only). So thread t holds what lane
 * t % 32 holds for mma.sp, rows + 16 * (t / 32). The compressed A (64 x k/2,
 * 32 bytes a row for every type) sits in shared memory in the dense no-swizzle
 * K-major layout of probes/layout.h; B (k x n, 64 bytes a row of B^T) too.
 * Pure C, no CUDA: tests/test_sparse.c checks it on the host.
 */
#ifndef TC_SPARSE_H
#define TC_SPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/probes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TC_SPARSE_SELECTOR 0
#define TC_SPARSE_DECOY 0x44444444u /* nibble 0x4: elements (0,1) kept; valid for 2:4 and 1:2 */

/* Group size G along K and nonzeros S allowed in it (4 and 2, or 2 and 1 for tf32). */
void tc_sparse_ratio(const tc_instr *ins, int *group, int *keep);

/* Metadata nibbles per row (k / G) and lanes per group of four that carry them. */
int tc_sparse_nibbles_per_row(const tc_instr *ins);
int tc_sparse_meta_lanes(const tc_instr *ins);

/* 0, or -1 with "NAME: A of tile T row R group G (columns a..b) has N nonzeros (2:4 allows 2)". */
int tc_sparse_check(const tc_instr *ins, size_t ntiles, const uint64_t *A, char *err, size_t errlen);

/* The kept positions of one group of G elements `g` (S of them, increasing)
 * into idx; -1 if the group has more than S nonzeros. */
int tc_sparse_kept(const tc_instr *ins, const uint64_t *g, int *idx);

/* What a sparse instruction sums, as dense rows: row r of tile t becomes a
 * 1 x k/2 tile Ar[(t*m + r)] of its kept A values and a k/2 x n tile
 * Br[(t*m + r)] of the rows of B at those positions, so that any dense MMA
 * code (oracle, model) on ntiles*m such tiles with C and D as given gives the
 * instruction's sum. -1 if a group has too many nonzeros (tc_sparse_check). */
int tc_sparse_rows(const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B, uint64_t *Ar,
                   uint64_t *Br);

/* The metadata nibble of kept positions idx (S of them, increasing). */
unsigned tc_sparse_nibble(const tc_instr *ins, const int *idx);

/* One logical tile (m x k) into the compressed tile Ac (m x k/2) and the
 * nibbles nib (m x k/G, row-major). 0, or -1 with err naming the tile
 * number `tile` (for messages), row and group. */
int tc_sparse_compress(const tc_instr *ins, const uint64_t *A, size_t tile, uint64_t *Ac, uint8_t *nib, char *err,
                       size_t errlen);

/* Metadata registers per tile: 32 (mma.sp, a warp), 128 (wgmma.sp, a
 * warpgroup), 0 for instructions without a metadata layout here. */
int tc_sparse_meta_threads(const tc_instr *ins);

/* The tc_sparse_meta_threads(ins) metadata registers of one tile from its
 * nibbles (regs holds that many). false for instructions without a layout. */
bool tc_sparse_meta_regs(const tc_instr *ins, const uint8_t *nib, uint32_t *regs);

/* The same through a map made once per instruction (the executor's pack
 * loop): map[t*8 + s] is the nibble (row * k/G + group) that slot s of
 * thread t carries, or -1. tc_sparse_meta_map fills TC_SPARSE_MAP_MAX
 * entries at most and returns the thread count, 0 without a layout. */
#define TC_SPARSE_MAP_MAX (128 * 8)
int tc_sparse_meta_map(const tc_instr *ins, int *map);
void tc_sparse_meta_regs_mapped(const int *map, int threads, const uint8_t *nib, uint32_t *regs);

/* Diagnosis only (tools/sparse_check --wg8-meta-alt): when set, wgmma.sp
 * m64nNk64 8-bit builds its metadata with the T = 1, 2 pattern continued to
 * four lanes (lane j: nibbles 4j..4j+3 of row g in bits 0..15, of row g+8 in
 * bits 16..31) instead of the ISA's one-row-per-lane figures. Off by default;
 * mma.sp is never affected. */
void tc_sparse_set_wg8_alt(bool on);

/* Where metadata nibble slot s = 0..7 of thread t (a lane of mma.sp, a
 * thread 0..127 of wgmma.sp) comes from: row and group of the logical tile;
 * false when that thread carries none. */
bool tc_sparse_meta_coord(const tc_instr *ins, int t, int slot, int *row, int *group);

#ifdef __cplusplus
}
#endif

#endif
