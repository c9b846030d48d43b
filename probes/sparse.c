/* Structured-sparse A: check, compress, metadata (see sparse.h). */
#include <stdio.h>
#include <string.h>

#include "probes/sparse.h"

void tc_sparse_ratio(const tc_instr *ins, int *group, int *keep)
{
    bool tf32 = ins->a == &tc_tf32;
    *group = tf32 ? 2 : 4;
    *keep = tf32 ? 1 : 2;
}

int tc_sparse_nibbles_per_row(const tc_instr *ins)
{
    int g, s;
    tc_sparse_ratio(ins, &g, &s);
    return ins->k / g;
}

int tc_sparse_meta_lanes(const tc_instr *ins) { return tc_sparse_nibbles_per_row(ins) / 4; }

static bool nonzero(const tc_instr *ins, uint64_t v) { return tc_classify(ins->a, v) != TC_ZERO; }

int tc_sparse_kept(const tc_instr *ins, const uint64_t *g, int *idx)
{
    int G, S, n = 0;
    tc_sparse_ratio(ins, &G, &S);
    bool used[4] = {false, false, false, false};
    for (int j = 0; j < G; j++)
        if (nonzero(ins, g[j])) {
            if (n == S)
                return -1;
            used[j] = true;
            n++;
        }
    for (int j = 0; j < G && n < S; j++)
        if (!used[j]) {
            used[j] = true;
            n++;
        }
    n = 0;
    for (int j = 0; j < G; j++)
        if (used[j])
            idx[n++] = j;
    return 0;
}

int tc_sparse_rows(const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B, uint64_t *Ar,
                   uint64_t *Br)
{
    int G, S, idx[4];
    tc_sparse_ratio(ins, &G, &S);
    size_t K = (size_t)ins->k, N = (size_t)ins->n, kc = K / 2;
    for (size_t t = 0; t < ntiles; t++)
        for (size_t r = 0; r < (size_t)ins->m; r++) {
            size_t row = t * (size_t)ins->m + r, q = 0;
            const uint64_t *a = A + row * K;
            for (size_t g = 0; g < K; g += (size_t)G) {
                if (tc_sparse_kept(ins, a + g, idx))
                    return -1;
                for (int s = 0; s < S; s++, q++) {
                    size_t pos = g + (size_t)idx[s];
                    Ar[row * kc + q] = a[pos];
                    memcpy(Br + (row * kc + q) * N, B + (t * K + pos) * N, N * sizeof *Br);
                }
            }
        }
    return 0;
}

unsigned tc_sparse_nibble(const tc_instr *ins, const int *idx)
{
    int G, S;
    tc_sparse_ratio(ins, &G, &S);
    if (G == 2)
        return idx[0] == 0 ? 0x4u : 0xEu;
    return (unsigned)idx[0] | (unsigned)idx[1] << 2;
}

static int count_nonzero(const tc_instr *ins, const uint64_t *g, int G)
{
    int nz = 0;
    for (int j = 0; j < G; j++)
        nz += nonzero(ins, g[j]);
    return nz;
}

static void refuse(const tc_instr *ins, size_t tile, int row, int grp, int nz, char *err, size_t errlen)
{
    int G, S;
    tc_sparse_ratio(ins, &G, &S);
    snprintf(err, errlen, "%s: A of tile %zu row %d group %d (columns %d..%d) has %d nonzeros (%d:%d allows %d)",
             ins->name, tile, row, grp, grp * G, grp * G + G - 1, nz, S, G, S);
}

int tc_sparse_check(const tc_instr *ins, size_t ntiles, const uint64_t *A, char *err, size_t errlen)
{
    int G, S;
    tc_sparse_ratio(ins, &G, &S);
    size_t mk = (size_t)ins->m * (size_t)ins->k;
    for (size_t t = 0; t < ntiles; t++)
        for (int i = 0; i < ins->m; i++)
            for (int grp = 0; grp < ins->k / G; grp++) {
                int nz = count_nonzero(ins, A + t * mk + (size_t)i * (size_t)ins->k + (size_t)(grp * G), G);
                if (nz > S) {
                    refuse(ins, t, i, grp, nz, err, errlen);
                    return -1;
                }
            }
    return 0;
}

int tc_sparse_compress(const tc_instr *ins, const uint64_t *A, size_t tile, uint64_t *Ac, uint8_t *nib, char *err,
                       size_t errlen)
{
    int G, S;
    tc_sparse_ratio(ins, &G, &S);
    int K = ins->k, ng = K / G, kc = K / 2;
    for (int i = 0; i < ins->m; i++)
        for (int grp = 0; grp < ng; grp++) {
            const uint64_t *g = A + (size_t)i * (size_t)K + (size_t)(grp * G);
            int idx[2];
            if (tc_sparse_kept(ins, g, idx)) {
                refuse(ins, tile, i, grp, count_nonzero(ins, g, G), err, errlen);
                return -1;
            }
            for (int s = 0; s < S; s++)
                Ac[(size_t)i * (size_t)kc + (size_t)(grp * S + s)] = g[idx[s]];
            nib[(size_t)i * (size_t)ng + (size_t)grp] = (uint8_t)tc_sparse_nibble(ins, idx);
        }
    return 0;
}

int tc_sparse_meta_threads(const tc_instr *ins)
{
    if (!ins->sparse)
        return 0;
    if (!strcmp(ins->api, "mma.sp") && ins->m == 16)
        return 32;
    if (!strcmp(ins->api, "wgmma.sp") && ins->m == 64)
        return 128;
    return 0;
}

static bool wg8_alt;

void tc_sparse_set_wg8_alt(bool on) { wg8_alt = on; }

bool tc_sparse_meta_coord(const tc_instr *ins, int t, int slot, int *row, int *group)
{
    int threads = tc_sparse_meta_threads(ins);
    if (!threads || t < 0 || t >= threads || slot < 0 || slot >= 8)
        return false;
    /* wgmma.sp: warp w carries rows 16w..16w+15 with the mma.sp layout of its lanes */
    int lane = t % 32, base = 16 * (t / 32);
    int T = tc_sparse_meta_lanes(ins), j = lane % 4 - TC_SPARSE_SELECTOR * T;
    if (T < 1 || T > 4 || tc_sparse_nibbles_per_row(ins) != 4 * T || j < 0 || j >= T)
        return false;
    if (T == 4 && !(wg8_alt && threads == 128)) { /* 8-bit k64: T0/T1 rows g/g+8 of groups 0..7, T2/T3 of groups 8..15 */
        *row = base + lane / 4 + 8 * (j & 1);
        *group = 8 * (j >> 1) + slot;
        return true;
    }
    *row = base + lane / 4 + 8 * (slot / 4);
    *group = 4 * j + slot % 4;
    return true;
}

int tc_sparse_meta_map(const tc_instr *ins, int *map)
{
    int ng = tc_sparse_nibbles_per_row(ins), threads = tc_sparse_meta_threads(ins), r, g;
    if (!threads || !tc_sparse_meta_coord(ins, 0, 0, &r, &g))
        return 0;
    for (int t = 0; t < threads; t++)
        for (int s = 0; s < 8; s++)
            map[t * 8 + s] = tc_sparse_meta_coord(ins, t, s, &r, &g) ? r * ng + g : -1;
    return threads;
}

void tc_sparse_meta_regs_mapped(const int *map, int threads, const uint8_t *nib, uint32_t *regs)
{
    for (int t = 0; t < threads; t++) {
        uint32_t v = 0;
        bool carries = false;
        for (int s = 0; s < 8; s++)
            if (map[t * 8 + s] >= 0) {
                v |= (uint32_t)(nib[map[t * 8 + s]] & 0xF) << (4 * s);
                carries = true;
            }
        regs[t] = carries ? v : TC_SPARSE_DECOY;
    }
}

bool tc_sparse_meta_regs(const tc_instr *ins, const uint8_t *nib, uint32_t *regs)
{
    int map[TC_SPARSE_MAP_MAX];
    int threads = tc_sparse_meta_map(ins, map);
    if (threads)
        tc_sparse_meta_regs_mapped(map, threads, nib, regs);
    return threads > 0;
}
