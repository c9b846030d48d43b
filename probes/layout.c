/* Register fragment layouts of mma and wgmma, from the PTX ISA's figures.
 *
 * Notation of the ISA: g = groupID = lane >> 2, t = threadID_in_group = lane % 4.
 * A wgmma warpgroup is four warps; warp w owns rows 16w..16w+15 of A (RS) and
 * of D, with the per-warp pattern of the m16 mma fragments.
 */
#include <string.h>

#include "probes/layout.h"

static bool is_wgmma(const tc_instr *ins) { return !strncmp(ins->api, "wgmma", 5); }

bool tc_frag_shape_of(const tc_instr *ins, tc_operand op, tc_frag_shape *s)
{
    if (!strcmp(ins->api, "wmma") ||
        (ins->sparse && strcmp(ins->api, "mma.sp") != 0 && strcmp(ins->api, "wgmma.sp") != 0))
        return false;
    if (ins->sparse && is_wgmma(ins) && op == TC_OPND_A && ins->a_in_regs)
        return false; /* wgmma.sp RS: no register layout of the compressed A here (none in the catalogue) */
    bool wg = is_wgmma(ins);
    if (wg && op == TC_OPND_B)
        return false;
    if (wg && op == TC_OPND_A && !ins->a_in_regs)
        return false;
    const tc_format *f = op == TC_OPND_A ? ins->a : op == TC_OPND_B ? ins->b : ins->d;
    s->threads = wg ? 128 : 32;
    s->elem_bits = f->storage_bits;
    s->rows = op == TC_OPND_B ? ins->k : ins->m;
    s->cols = op == TC_OPND_A ? ins->k : ins->n;
    if (ins->sparse && op == TC_OPND_A)
        s->cols = ins->k / 2; /* the compressed A of probes/sparse.h */
    s->elems = s->rows * s->cols / s->threads;
    return true;
}

/* A of m16 shapes (and of wgmma RS per warp), by element width and K. */
static bool coord_a(int bits, int k, int m, int g, int t, int e, int *r, int *c)
{
    if (m == 8 && bits == 64 && k == 4) { /* f64 m8n8k4 */
        *r = g, *c = t;
        return true;
    }
    switch (bits) {
    case 16:
        if (k == 16) { /* a0..a7: rows g, g, g+8, g+8, g, g, g+8, g+8; cols +8 from a4 */
            *r = g + 8 * ((e >> 1) & 1), *c = 2 * t + (e & 1) + 8 * (e >> 2);
            return true;
        }
        if (k == 8) {
            *r = g + 8 * (e >> 1), *c = 2 * t + (e & 1);
            return true;
        }
        return false;
    case 32: /* tf32 */
    case 64: /* f64 m16n8k{4,8,16}: the same pattern, K in steps of 4 */
        if (k == 4) {
            *r = g + 8 * e, *c = t;
            return true;
        }
        if (k == 8 || (bits == 64 && k == 16)) {
            *r = g + 8 * (e & 1), *c = t + 4 * (e >> 1);
            return true;
        }
        return false;
    case 8:
        if (k == 32) { /* 4 bytes per register: a0..a3 row g, a4..a7 row g+8, a8.. cols +16 */
            *r = g + 8 * ((e >> 2) & 1), *c = 4 * t + (e & 3) + 16 * (e >> 3);
            return true;
        }
        return false;
    }
    return false;
}

static bool coord_b(int bits, int k, int g, int t, int e, int *r, int *c)
{
    *c = g;
    switch (bits) {
    case 16:
        if (k == 16) {
            *r = 2 * t + (e & 1) + 8 * (e >> 1);
            return true;
        }
        if (k == 8) {
            *r = 2 * t + e;
            return true;
        }
        return false;
    case 32:
    case 64:
        if (k == 4 || k == 8 || (bits == 64 && k == 16)) {
            *r = t + 4 * e;
            return true;
        }
        return false;
    case 8:
        if (k == 32) {
            *r = 4 * t + (e & 3) + 16 * (e >> 2);
            return true;
        }
        return false;
    }
    return false;
}

static bool coord_c(int m, int g, int t, int e, int *r, int *c)
{
    if (m == 8) { /* f64 m8n8k4: two doubles per thread on row g */
        *r = g, *c = 2 * t + e;
        return true;
    }
    /* m16n8 and, per 8 columns, wgmma's m64nN: c0,c1 on row g, c2,c3 on row g+8 */
    *r = g + 8 * ((e >> 1) & 1), *c = 8 * (e >> 2) + 2 * t + (e & 1);
    return true;
}

/* B of mma.sp (full logical K): the dense patterns continued along K, as the
 * ISA's sparse B figures show (m16n8k32 f16: b0..b7 rows 2t+(i&1)+8(i>>1);
 * m16n8k16 tf32: rows t+4i; m16n8k64 fp8: b0..b15 rows 4t+(i&3)+16(i>>2)). */
static bool coord_b_sparse(int bits, int g, int t, int e, int *r, int *c)
{
    *c = g;
    switch (bits) {
    case 16:
        *r = 2 * t + (e & 1) + 8 * (e >> 1);
        return true;
    case 32:
        *r = t + 4 * e;
        return true;
    case 8:
        *r = 4 * t + (e & 3) + 16 * (e >> 2);
        return true;
    }
    return false;
}

bool tc_frag_coord(const tc_instr *ins, tc_operand op, int t, int e, int *row, int *col)
{
    tc_frag_shape s;
    if (!tc_frag_shape_of(ins, op, &s) || t < 0 || t >= s.threads || e < 0 || e >= s.elems)
        return false;
    int lane = t % 32, warp = t / 32, g = lane >> 2, tg = lane & 3;
    bool ok;
    if (op == TC_OPND_A) /* sparse: the compressed A is the dense fragment of K/2 (PTX ISA sparse figures) */
        ok = coord_a(s.elem_bits, s.cols, ins->m, g, tg, e, row, col);
    else if (op == TC_OPND_B && ins->sparse)
        ok = coord_b_sparse(s.elem_bits, g, tg, e, row, col);
    else if (op == TC_OPND_B)
        ok = coord_b(s.elem_bits, ins->k, g, tg, e, row, col);
    else
        ok = coord_c(ins->m, g, tg, e, row, col);
    if (ok && op != TC_OPND_B)
        *row += 16 * warp;
    return ok && *row < s.rows && *col < s.cols;
}

size_t tc_frag_table(const tc_instr *ins, tc_operand op, uint16_t *out, size_t cap)
{
    tc_frag_shape s;
    if (!tc_frag_shape_of(ins, op, &s))
        return 0;
    size_t n = (size_t)s.threads * (size_t)s.elems;
    if (n > cap)
        return 0;
    for (int t = 0; t < s.threads; t++)
        for (int e = 0; e < s.elems; e++) {
            int r, c;
            if (!tc_frag_coord(ins, op, t, e, &r, &c))
                return 0;
            out[(size_t)t * (size_t)s.elems + (size_t)e] = (uint16_t)(r * s.cols + c);
        }
    return n;
}

const char *tc_operand_name(tc_operand op)
{
    return op == TC_OPND_A ? "A" : op == TC_OPND_B ? "B" : "C";
}
