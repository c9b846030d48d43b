/* layout: where each element of an MMA operand lives.
 *
 * Register fragments (PTX ISA, "Matrix fragments for mma.m16n8k*" and the
 * wgmma register fragments): element e of thread t holds (row, col) of A
 * (m x k), B (k x n) or C/D (m x n). Elements are packed into 32-bit registers
 * in order, element e at bits (e % per_reg) * elem_bits (64-bit elements use a
 * register pair each). The host tables built here are what the GPU executor
 * gathers with, so a table proven on the GPU is the table the executor uses.
 *
 * wgmma shared-memory operands: K-major, no swizzle, core matrices of 8 rows
 * x 16 bytes (the ISA's "canonical layout"). Core matrix (row block rb, k
 * block kb) sits at (rb * kblocks + kb) * 128 bytes, kblocks = K bytes / 16,
 * so the leading byte offset (between core matrices along K) is 128 and the
 * stride byte offset (between row blocks) is kblocks * 128. B is stored as
 * its transpose (N rows of K), which every wgmma input type accepts.
 * These helpers are inline so the CUDA code uses the same formulas.
 */
#ifndef TC_LAYOUT_H
#define TC_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/probes.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __CUDACC__
#define TC_HD __host__ __device__
#else
#define TC_HD
#endif

typedef enum { TC_OPND_A = 0, TC_OPND_B = 1, TC_OPND_C = 2 } tc_operand; /* C is also D */

typedef struct {
    int threads;    /* 32 (a warp) or 128 (a warpgroup) */
    int elems;      /* elements each thread holds */
    int elem_bits;  /* width of one element in the registers: 8, 16, 32 or 64 */
    int rows, cols; /* the operand matrix: A m x k, B k x n, C/D m x n */
} tc_frag_shape;

/* false when the operand has no register fragment here: wmma (the ISA leaves
 * it unspecified; wmma.load/store place it), wgmma[.sp] B and SS-A (shared
 * memory; wgmma.sp's C/D is wgmma's). For mma.sp, A is the COMPRESSED m x k/2
 * matrix of probes/sparse.h (rows = m, cols = k/2) and B has the full K; the
 * metadata register layout is tc_sparse_meta_coord (probes/sparse.h). */
bool tc_frag_shape_of(const tc_instr *ins, tc_operand op, tc_frag_shape *s);

/* (row, col) of element e of thread t; false when out of range. */
bool tc_frag_coord(const tc_instr *ins, tc_operand op, int t, int e, int *row, int *col);

/* The whole fragment as threads*elems entries row*cols + col, thread-major.
 * Returns the number of entries, 0 when there is no fragment or cap is short. */
size_t tc_frag_table(const tc_instr *ins, tc_operand op, uint16_t *out, size_t cap);

/* Operand name for messages: "A", "B", "C". */
const char *tc_operand_name(tc_operand op);

/* Proves on backend b that every element of A, B and C reaches D where the
 * layout says: each operand is filled with tags that encode its (row, col)
 * (one pass per coordinate and 5-bit digit, values exact in every format),
 * the other operands select it (identity-like 0/1 tiles, zero C), and D is
 * compared element by element. 0, or -1 with the first difference in msg.
 * Sparse instructions: A holds tags in its kept positions and zeros in the
 * others, the kept pattern of (row, group) cycling through every pattern
 * (the 6 two-of-four, or both one-of-two for tf32) over the rotations, so
 * every logical element is seen kept and dropped: this proves the compressed
 * fragment and the metadata layout together. */
int tc_layout_probe(tc_backend *b, const tc_instr *ins, char *msg, size_t len);

#ifdef __cplusplus
}
#endif

#define TC_WG_CORE_BYTES 128u

/* Byte offset of element (row, col) (col along K) in a K-major operand of
 * kbytes bytes per row, elem_bytes each. */
static inline TC_HD unsigned tc_wg_smem_offset(int row, int col, int elem_bytes, int kbytes)
{
    unsigned kb = (unsigned)(col * elem_bytes) / 16u, within = (unsigned)(col * elem_bytes) % 16u;
    unsigned kblocks = (unsigned)kbytes / 16u;
    return ((unsigned)row / 8u * kblocks + kb) * TC_WG_CORE_BYTES + (unsigned)row % 8u * 16u + within;
}

static inline TC_HD unsigned tc_wg_lbo(int kbytes) { (void)kbytes; return TC_WG_CORE_BYTES; }
static inline TC_HD unsigned tc_wg_sbo(int kbytes) { return (unsigned)kbytes / 16u * TC_WG_CORE_BYTES; }

/* The 64-bit wgmma matrix descriptor: start address, LBO and SBO in 16-byte
 * units (bits 0-13, 16-29, 32-45), base offset 0, swizzle mode 0 (none). */
static inline TC_HD uint64_t tc_wg_desc(uint32_t smem_addr, unsigned lbo, unsigned sbo)
{
    return (uint64_t)((smem_addr & 0x3FFFFu) >> 4) | (uint64_t)((lbo >> 4) & 0x3FFFu) << 16 |
           (uint64_t)((sbo >> 4) & 0x3FFFu) << 32;
}

#endif
