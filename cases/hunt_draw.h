/* The hunt families' drawing (cases/hunt.h), host and device: one source
 * that cases/hunt.c compiles for the CPU and cases/cuda/hunt_gpu.cu for the
 * GPU (static inline, TC_HD: formats/format_hd.h), so a tile drawn on either
 * is the same bits (tests/test_hunt_gpu.c compares them). Plain C over the
 * tc_format descriptors only: no libc, no function pointers. Values are built
 * from (sign, exponent field, fraction) so a family says exactly which
 * binades it visits. */
#ifndef TC_HUNT_DRAW_H
#define TC_HUNT_DRAW_H

#include <stdbool.h>
#include <stdint.h>

#include "cases/hunt_families.h"
#include "cases/rnd_hd.h"
#include "formats/format_hd.h"


/* Uniform in [lo, hi] (hi >= lo). */
static inline TC_HD int hd_pick(uint64_t *st, int lo, int hi)
{
    return hi <= lo ? lo : lo + (int)(hd_rnd(st) % (uint64_t)(hi - lo + 1));
}

static inline TC_HD bool hd_chance(uint64_t *st, unsigned one_in)
{
    return hd_rnd(st) % one_in == 0;
}

/* ---- the streams' starting states ---- */

/* "family": each family one stream over all its tiles (hunt_family_seed). */
static inline TC_HD uint64_t hunt_family_seed_hd(uint64_t seed, int family)
{
    return (seed ? seed : 0x4B1D5EEDull) ^ ((uint64_t)(family + 1) * 0x9E3779B97F4A7C15ull);
}

/* "tile": tile q of family f starts from a state of its own, so any tile
 * is drawn without the ones before it (one GPU thread per tile): the
 * splitmix64 output function applied to the family stream's start plus
 * (q + 1) times an odd constant other than splitmix's increment (so a
 * tile's start is no state of the family stream's own sequence). */
static inline TC_HD uint64_t hunt_tile_seed_hd(uint64_t seed, int family, uint64_t q)
{
    uint64_t z = hunt_family_seed_hd(seed, family) + (q + 1) * 0xD1B54A32D192ED03ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- values of a format, by parts ---- */

static inline TC_HD int hd_top_field(const tc_format *f)
{
    return (1 << f->ebits) - 1;
}

/* The container's fraction width: a TF32 operand is the f32 it is held in. */
static inline TC_HD int hd_cont_mbits(const tc_format *f)
{
    return f->mbits + f->shift;
}

static inline TC_HD uint64_t hd_pack(const tc_format *f, int sign, int efield, uint64_t cfrac)
{
    int cm = hd_cont_mbits(f);
    return ((uint64_t)(sign & 1) << (cm + f->ebits)) | ((uint64_t)efield << cm) | cfrac;
}

/* A finite value with unbiased exponent e (clamped into the normal range),
 * a random fraction in the format's own bits and a random sign. */
static inline TC_HD uint64_t hd_normal_at(const tc_format *f, uint64_t *st, int e)
{
    int lo = tc_format_emin_hd(f), hi = tc_format_emax_hd(f);
    e = e < lo ? lo : e > hi ? hi : e;
    uint64_t frac = f->mbits ? hd_rnd(st) & ((1ull << f->mbits) - 1) : 0;
    int ef = e + f->bias;
    if (f->specials == TC_SPECIALS_FN && ef == hd_top_field(f) && frac == (1ull << f->mbits) - 1)
        frac ^= 1;   /* E4M3's top code with fraction 111 is its NaN */
    return hd_pack(f, (int)(hd_rnd(st) & 1), ef, frac << f->shift);
}

static inline TC_HD uint64_t hd_signed_zero(const tc_format *f, uint64_t *st)
{
    return hd_pack(f, (int)(hd_rnd(st) & 1), 0, 0);
}

static inline TC_HD uint64_t hd_subnormal(const tc_format *f, uint64_t *st)
{
    uint64_t frac = f->mbits ? hd_rnd(st) & ((1ull << f->mbits) - 1) : 0;
    if (!frac)
        frac = 1;
    return hd_pack(f, (int)(hd_rnd(st) & 1), 0, frac << f->shift);
}

static inline TC_HD uint64_t hd_inf_or_nan(const tc_format *f, uint64_t *st, bool nan, bool low_only)
{
    int cm = hd_cont_mbits(f);
    uint64_t all = (1ull << cm) - 1;
    if (f->specials != TC_SPECIALS_IEEE)   /* E4M3: one NaN per sign, no Inf */
        return hd_pack(f, (int)(hd_rnd(st) & 1), hd_top_field(f), all);
    if (!nan)
        return hd_pack(f, (int)(hd_rnd(st) & 1), hd_top_field(f), 0);
    uint64_t frac;
    if (low_only && f->shift > 0)          /* a payload only in the bits a TF32 read drops */
        frac = hd_rnd(st) & ((1ull << f->shift) - 1);
    else if (low_only)                     /* only the lowest bits: quiet bit clear */
        frac = hd_rnd(st) & (cm > 3 ? 7 : 1);
    else
        frac = hd_rnd(st) & all;
    if (!frac)
        frac = 1;
    return hd_pack(f, (int)(hd_rnd(st) & 1), hd_top_field(f), frac);
}

/* An Inf or a NaN, each kind and payload region by a coin: the payload coin
 * (low) drawn first, then the NaN coin. The families once wrote this as
 * inf_or_nan(f, st, chance(st, 2), chance(st, 2)), whose two draws C leaves
 * in no order; gcc drew the right one first, and so did every committed
 * record: here that order is written out, so clang and nvcc (which go left
 * to right) draw the same tiles. */
static inline TC_HD uint64_t hd_any_special(const tc_format *f, uint64_t *st)
{
    bool low = hd_chance(st, 2);
    bool nan = hd_chance(st, 2);
    return hd_inf_or_nan(f, st, nan, low);
}

/* A finite value spread over the whole range, subnormals and zeros included. */
static inline TC_HD uint64_t hd_any_finite(const tc_format *f, uint64_t *st)
{
    switch (hd_rnd(st) % 16) {
    case 0: return hd_signed_zero(f, st);
    case 1: return hd_subnormal(f, st);
    default: return hd_normal_at(f, st, hd_pick(st, tc_format_emin_hd(f), tc_format_emax_hd(f)));
    }
}

/* A moderate value: exponent within +-3 of e. */
static inline TC_HD uint64_t hd_near(const tc_format *f, uint64_t *st, int e)
{
    return hd_normal_at(f, st, e + hd_pick(st, -3, 3));
}

static inline TC_HD uint64_t hd_negate(const tc_format *f, uint64_t bits)
{
    return bits ^ (1ull << (hd_cont_mbits(f) + f->ebits));
}

/* ---- tiles ---- */

typedef struct {
    int m, n, k;                       /* the tile's shape (a sparse instruction's: K halved) */
    const tc_format *fa, *fb, *fc, *fd;
    uint64_t *A, *B, *C, *st;          /* row-major A (m x k), B (k x n), C (m x n); the generator */
} hunt_tile;

#define A_(row, pos) T->A[(size_t)(row) * (size_t)T->k + (size_t)(pos)]
#define B_(pos, col) T->B[(size_t)(pos) * (size_t)T->n + (size_t)(col)]
#define C_(row, col) T->C[(size_t)(row) * (size_t)T->n + (size_t)(col)]

/* C: +-0 half the time, else subnormal, tiny or moderate. */
static inline TC_HD uint64_t hd_c_small(hunt_tile *T)
{
    switch (hd_rnd(T->st) % 8) {
    case 0: case 1: case 2: case 3: return hd_signed_zero(T->fc, T->st);
    case 4: return hd_subnormal(T->fc, T->st);
    case 5: return hd_normal_at(T->fc, T->st, tc_format_emin_hd(T->fc) + hd_pick(T->st, 0, 3));
    default: return hd_near(T->fc, T->st, 0);
    }
}

/* C all from hd_c_small (no function pointer: the device compiles it too). */
static inline TC_HD void hd_fill_c_small(hunt_tile *T)
{
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_c_small(T);
}

static inline TC_HD void hd_zero_products(hunt_tile *T)
{
    int k = T->k;
    bool a_zero = hd_rnd(T->st) & 1;   /* which operand holds the zeros */
    /* half the tiles: every product -0 (zeros -0, partners positive), so a
     * -0 C gives an all-negative-zero sum at any K */
    bool all_neg = hd_rnd(T->st) & 1;
    for (int i = 0; i < T->m; i++)
        for (int q = 0; q < k; q++) {
            uint64_t z = all_neg ? hd_negate(T->fa, 0) : hd_signed_zero(T->fa, T->st), v = hd_any_finite(T->fa, T->st);
            A_(i, q) = a_zero ? z : all_neg && (v >> (hd_cont_mbits(T->fa) + T->fa->ebits)) ? hd_negate(T->fa, v) : v;
        }
    for (int q = 0; q < k; q++)
        for (int j = 0; j < T->n; j++) {
            uint64_t z = all_neg ? hd_negate(T->fb, 0) : hd_signed_zero(T->fb, T->st), v = hd_any_finite(T->fb, T->st);
            B_(q, j) = !a_zero ? z : all_neg && (v >> (hd_cont_mbits(T->fb) + T->fb->ebits)) ? hd_negate(T->fb, v) : v;
        }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = all_neg && hd_chance(T->st, 2) ? hd_negate(T->fc, 0) : hd_c_small(T);
}

static inline TC_HD void hd_zero_terms(hunt_tile *T)
{
    int k = T->k;
    uint64_t zmask[4] = {0};
    if (k > 256)
        k = 256;   /* the zero positions, the same for every row and column */
    for (int q = 0; q < k; q++)
        if (hd_rnd(T->st) & 1)
            zmask[q / 64] |= 1ull << (q % 64);
    bool a_zero = hd_rnd(T->st) & 1;
    int hi_a = tc_format_emax_hd(T->fa) - hd_pick(T->st, 0, 4), hi_b = tc_format_emax_hd(T->fb) - hd_pick(T->st, 0, 4);
    int e0 = hd_pick(T->st, -4, 4);
    for (int q = 0; q < k; q++) {
        bool z = (zmask[q / 64] >> (q % 64)) & 1;
        for (int i = 0; i < T->m; i++)
            A_(i, q) = z ? (a_zero ? hd_signed_zero(T->fa, T->st) : hd_normal_at(T->fa, T->st, hi_a))
                         : hd_near(T->fa, T->st, e0);
        for (int j = 0; j < T->n; j++)
            B_(q, j) = z ? (a_zero ? hd_normal_at(T->fb, T->st, hi_b) : hd_signed_zero(T->fb, T->st))
                         : hd_near(T->fb, T->st, 0);
    }
    hd_fill_c_small(T);
}

/* Partner of position q in a pairing scheme (pairs must be disjoint). */
static inline TC_HD int hd_partner(int q, int k, int scheme)
{
    switch (scheme) {
    case 0: return q ^ 1;                              /* adjacent */
    case 1: return q < k / 2 ? q + k / 2 : q - k / 2;  /* half K apart */
    default: return (q / 4) % 2 ? q - 4 : q + 4;       /* 4 apart (a split run, a step edge) */
    }
}

static inline TC_HD void hd_cancel(hunt_tile *T)
{
    int k = T->k, scheme = hd_pick(T->st, 0, k % 8 ? 1 : 2);
    if (k < 2) {
        hd_zero_products(T);
        return;
    }
    int e0 = hd_pick(T->st, -6, 6);
    for (int q = 0; q < k; q++) {
        int p = hd_partner(q, k, scheme);
        if (p < q)
            continue;
        for (int i = 0; i < T->m; i++)
            A_(i, q) = A_(i, p) = hd_near(T->fa, T->st, e0);
        for (int j = 0; j < T->n; j++) {
            B_(q, j) = hd_near(T->fb, T->st, 0);
            B_(p, j) = hd_negate(T->fb, B_(q, j));
        }
    }
    hd_fill_c_small(T);
}

static inline TC_HD void hd_tiny(hunt_tile *T)
{
    int k = T->k;
    /* the target exponent of the products: around the bottom of D's range,
     * or of what the operands can reach if that is higher */
    int ea_lo = tc_format_emin_hd(T->fa) - T->fa->mbits, eb_lo = tc_format_emin_hd(T->fb) - T->fb->mbits;
    int reach = ea_lo + eb_lo;
    int bottom = tc_format_emin_hd(T->fd) - T->fd->mbits;
    int target = (reach > bottom ? reach + 2 : bottom) + hd_pick(T->st, -3, T->fd->mbits + 4);
    int ea = target / 2;
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->m; i++)
            A_(i, q) = hd_chance(T->st, 4) ? hd_subnormal(T->fa, T->st) : hd_near(T->fa, T->st, ea);
        for (int j = 0; j < T->n; j++)
            B_(q, j) = hd_chance(T->st, 4) ? hd_subnormal(T->fb, T->st) : hd_near(T->fb, T->st, target - ea);
    }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 2) ? hd_subnormal(T->fc, T->st)
                     : hd_chance(T->st, 2) ? hd_signed_zero(T->fc, T->st)
                                        : hd_normal_at(T->fc, T->st, tc_format_emin_hd(T->fc) + hd_pick(T->st, 0, 2));
}

/* A subnormal operand whose product leads: its partner large, the other
 * terms 20..28 binades below, so how the subnormal is read (its exponent
 * field, or widened to a format where it is normal) moves the alignment. */
static inline TC_HD void hd_subnormal_leads(hunt_tile *T)
{
    int k = T->k, lead = hd_pick(T->st, 0, k - 1);
    bool in_a = hd_rnd(T->st) & 1;
    const tc_format *fs = in_a ? T->fa : T->fb, *fp = in_a ? T->fb : T->fa;
    int es = tc_format_emin_hd(fs) - 1 - fs->mbits / 2, ep = -es;   /* the product near 2^0 */
    for (int q = 0; q < k; q++) {
        int d = hd_pick(T->st, 20, 28);
        for (int i = 0; i < T->m; i++)
            A_(i, q) = q == lead ? (in_a ? hd_subnormal(fs, T->st) : hd_normal_at(fp, T->st, ep))
                                 : hd_normal_at(T->fa, T->st, -d / 2);
        for (int j = 0; j < T->n; j++)
            B_(q, j) = q == lead ? (in_a ? hd_normal_at(fp, T->st, ep) : hd_subnormal(fs, T->st))
                                 : hd_normal_at(T->fb, T->st, -(d - d / 2));
    }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 2) ? hd_signed_zero(T->fc, T->st)
                                           : hd_normal_at(T->fc, T->st, -hd_pick(T->st, 20, 28));
}

static inline TC_HD void hd_subnormals(hunt_tile *T)
{
    int k = T->k;
    if (hd_rnd(T->st) & 1) {
        hd_subnormal_leads(T);
        return;
    }
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->m; i++)
            A_(i, q) = hd_chance(T->st, 3) ? hd_near(T->fa, T->st, tc_format_emin_hd(T->fa) + 2)
                                           : hd_subnormal(T->fa, T->st);
        for (int j = 0; j < T->n; j++)
            B_(q, j) = hd_chance(T->st, 3) ? hd_near(T->fb, T->st, 0) : hd_subnormal(T->fb, T->st);
    }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 2) ? hd_subnormal(T->fc, T->st) : hd_c_small(T);
}

static inline TC_HD void hd_align_edge(hunt_tile *T)
{
    int k = T->k, lead = hd_pick(T->st, 0, k - 1);
    int e0 = hd_pick(T->st, -2, 2);
    /* B near 1, so a term's exponent is its A's: the structure is in the rows */
    for (int q = 0; q < k; q++)
        for (int j = 0; j < T->n; j++)
            B_(q, j) = hd_normal_at(T->fb, T->st, hd_pick(T->st, 0, 1) - 1);
    for (int i = 0; i < T->m; i++)
        for (int q = 0; q < k; q++)
            A_(i, q) = q == lead ? hd_normal_at(T->fa, T->st, e0)
                                 : hd_normal_at(T->fa, T->st, e0 - hd_pick(T->st, 8, 30));
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 3) ? hd_normal_at(T->fc, T->st, e0 + hd_pick(T->st, -1, 2))
                                       : hd_normal_at(T->fc, T->st, e0 - hd_pick(T->st, 8, 30));
}

static inline TC_HD void hd_block_edge(hunt_tile *T)
{
    int k = T->k;
    int p = hd_pick(T->st, 0, k - 1), q = hd_pick(T->st, 0, k - 1);
    if (q == p)
        q = (p + k / 2) % k;
    int e0 = hd_pick(T->st, -2, 2), d = hd_pick(T->st, 10, 30);
    for (int r = 0; r < k; r++)
        for (int j = 0; j < T->n; j++)
            B_(r, j) = hd_normal_at(T->fb, T->st, -1 + hd_pick(T->st, 0, 1));
    for (int j = 0; j < T->n; j++)   /* rows p and q equal: the two products cancel exactly */
        B_(q, j) = B_(p, j) = hd_normal_at(T->fb, T->st, 0);
    for (int i = 0; i < T->m; i++)
        for (int r = 0; r < k; r++)
            A_(i, r) = r == p ? hd_normal_at(T->fa, T->st, e0)
                              : hd_normal_at(T->fa, T->st, e0 - d + hd_pick(T->st, -2, 2));
    for (int i = 0; i < T->m; i++) {
        A_(i, q) = hd_negate(T->fa, A_(i, p));
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 2) ? hd_signed_zero(T->fc, T->st) : hd_normal_at(T->fc, T->st, e0 - d);
    }
}

static inline TC_HD void hd_overflow(hunt_tile *T)
{
    int k = T->k;
    int top = tc_format_emax_hd(T->fd) < tc_format_emax_hd(T->fa) + tc_format_emax_hd(T->fb)
                  ? tc_format_emax_hd(T->fd)
                  : tc_format_emax_hd(T->fa) + tc_format_emax_hd(T->fb);
    int target = top - hd_pick(T->st, -1, 3);
    int ea = target / 2 < tc_format_emax_hd(T->fa) ? target / 2 : tc_format_emax_hd(T->fa);
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->m; i++)
            A_(i, q) = hd_normal_at(T->fa, T->st, ea - hd_pick(T->st, 0, 2));
        for (int j = 0; j < T->n; j++)
            B_(q, j) = hd_normal_at(T->fb, T->st, target - ea - hd_pick(T->st, 0, 2));
    }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 2) ? hd_normal_at(T->fc, T->st, tc_format_emax_hd(T->fc) - hd_pick(T->st, 0, 2))
                                        : hd_c_small(T);
}

static inline TC_HD void hd_signed_zeros(hunt_tile *T)
{
    int k = T->k;
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->m; i++)
            A_(i, q) = hd_chance(T->st, 2) ? hd_signed_zero(T->fa, T->st) : hd_near(T->fa, T->st, 0);
        for (int j = 0; j < T->n; j++)
            B_(q, j) = hd_chance(T->st, 2) ? hd_signed_zero(T->fb, T->st) : hd_near(T->fb, T->st, 0);
    }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 4) ? hd_near(T->fc, T->st, 0) : hd_signed_zero(T->fc, T->st);
}

/* One special per element on average: rate 1/(2k) per A and B element
 * (a row and a column each bring k), 1/8 for C. */
static inline TC_HD void hd_specials(hunt_tile *T)
{
    int k = T->k;
    unsigned r = (unsigned)(2 * k);
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->m; i++)
            A_(i, q) = hd_chance(T->st, r) ? hd_any_special(T->fa, T->st)
                       : hd_chance(T->st, 8) ? hd_signed_zero(T->fa, T->st) : hd_near(T->fa, T->st, 0);
        for (int j = 0; j < T->n; j++)
            B_(q, j) = hd_chance(T->st, r) ? hd_any_special(T->fb, T->st)
                       : hd_chance(T->st, 8) ? hd_signed_zero(T->fb, T->st) : hd_near(T->fb, T->st, 0);
    }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 8) ? hd_any_special(T->fc, T->st)
                                        : hd_c_small(T);
}

/* NaNs at one K position (per row of A, per column of B), so an element has
 * zero, one or two NaN operands there and finite values elsewhere. */
static inline TC_HD void hd_nan_payload(hunt_tile *T)
{
    int k = T->k;
    int qa = hd_pick(T->st, 0, k - 1), qb = hd_chance(T->st, 2) ? qa : hd_pick(T->st, 0, k - 1);
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->m; i++)
            A_(i, q) = q == qa && hd_chance(T->st, 2) ? hd_inf_or_nan(T->fa, T->st, true, hd_chance(T->st, 2))
                                                   : hd_near(T->fa, T->st, 0);
        for (int j = 0; j < T->n; j++)
            B_(q, j) = q == qb && hd_chance(T->st, 2) ? hd_inf_or_nan(T->fb, T->st, true, hd_chance(T->st, 2))
                                                   : hd_near(T->fb, T->st, 0);
    }
    for (int i = 0; i < T->m; i++)
        for (int j = 0; j < T->n; j++)
            C_(i, j) = hd_chance(T->st, 3) ? hd_inf_or_nan(T->fc, T->st, true, hd_chance(T->st, 2))
                                           : hd_near(T->fc, T->st, 0);
}

/* One tile of family `family` into T (its generator advanced). */
static inline TC_HD void hunt_fill_tile_hd(hunt_tile *T, int family)
{
    switch (family) {
    case HUNT_ZERO_PRODUCTS: hd_zero_products(T); break;
    case HUNT_ZERO_TERMS: hd_zero_terms(T); break;
    case HUNT_CANCEL: hd_cancel(T); break;
    case HUNT_TINY: hd_tiny(T); break;
    case HUNT_SUBNORMAL: hd_subnormals(T); break;
    case HUNT_ALIGN_EDGE: hd_align_edge(T); break;
    case HUNT_BLOCK_EDGE: hd_block_edge(T); break;
    case HUNT_OVERFLOW: hd_overflow(T); break;
    case HUNT_SIGNED_ZERO: hd_signed_zeros(T); break;
    case HUNT_SPECIALS: hd_specials(T); break;
    default: hd_nan_payload(T); break;
    }
}

#undef A_
#undef B_
#undef C_

#endif
