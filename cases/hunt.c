/* The hunt families (cases/hunt.h): whole tiles whose every element lies in
 * one hard region. Values are built from (sign, exponent field, fraction)
 * so a family says exactly which binades it visits. */
#include <string.h>

#include "cases/hunt.h"
#include "formats/formats.h"

static const char *const names[HUNT_NFAMILIES] = {
    "zero_products", "zero_terms", "cancel",   "tiny",        "subnormal",  "align_edge",
    "block_edge",    "overflow",   "signed_zero", "specials", "nan_payload"};

const char *hunt_family_name(int family)
{
    return family >= 0 && family < HUNT_NFAMILIES ? names[family] : "?";
}

int hunt_family_by_name(const char *name)
{
    for (int i = 0; i < HUNT_NFAMILIES; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

bool hunt_applies(const infer_target *t)
{
    return !tc_format_is_int(t->f.a) && !tc_format_is_int(t->f.b) && !tc_format_is_int(t->f.c) &&
           !tc_format_is_int(t->f.d);
}

/* splitmix64: the same stream on every machine. */
static uint64_t rnd(uint64_t *st)
{
    uint64_t z = (*st += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (hi >= lo). */
static int pick(uint64_t *st, int lo, int hi)
{
    return hi <= lo ? lo : lo + (int)(rnd(st) % (uint64_t)(hi - lo + 1));
}

static bool chance(uint64_t *st, unsigned one_in)
{
    return rnd(st) % one_in == 0;
}

uint64_t hunt_family_seed(uint64_t seed, int family)
{
    return (seed ? seed : 0x4B1D5EEDull) ^ ((uint64_t)(family + 1) * 0x9E3779B97F4A7C15ull);
}

/* ---- values of a format, by parts ---- */

static int top_field(const tc_format *f)
{
    return (1 << f->ebits) - 1;
}

/* The container's fraction width: a TF32 operand is the f32 it is held in. */
static int cont_mbits(const tc_format *f)
{
    return f->mbits + f->shift;
}

static uint64_t pack(const tc_format *f, int sign, int efield, uint64_t cfrac)
{
    int cm = cont_mbits(f);
    return ((uint64_t)(sign & 1) << (cm + f->ebits)) | ((uint64_t)efield << cm) | cfrac;
}

/* A finite value with unbiased exponent e (clamped into the normal range),
 * a random fraction in the format's own bits and a random sign. */
static uint64_t normal_at(const tc_format *f, uint64_t *st, int e)
{
    int lo = tc_format_emin(f), hi = tc_format_emax(f);
    e = e < lo ? lo : e > hi ? hi : e;
    uint64_t frac = f->mbits ? rnd(st) & ((1ull << f->mbits) - 1) : 0;
    int ef = e + f->bias;
    if (f->specials == TC_SPECIALS_FN && ef == top_field(f) && frac == (1ull << f->mbits) - 1)
        frac ^= 1;   /* E4M3's top code with fraction 111 is its NaN */
    return pack(f, (int)(rnd(st) & 1), ef, frac << f->shift);
}

static uint64_t signed_zero(const tc_format *f, uint64_t *st)
{
    return pack(f, (int)(rnd(st) & 1), 0, 0);
}

static uint64_t subnormal(const tc_format *f, uint64_t *st)
{
    uint64_t frac = f->mbits ? rnd(st) & ((1ull << f->mbits) - 1) : 0;
    if (!frac)
        frac = 1;
    return pack(f, (int)(rnd(st) & 1), 0, frac << f->shift);
}

static uint64_t inf_or_nan(const tc_format *f, uint64_t *st, bool nan, bool low_only)
{
    int cm = cont_mbits(f);
    uint64_t all = (1ull << cm) - 1;
    if (f->specials != TC_SPECIALS_IEEE)   /* E4M3: one NaN per sign, no Inf */
        return pack(f, (int)(rnd(st) & 1), top_field(f), all);
    if (!nan)
        return pack(f, (int)(rnd(st) & 1), top_field(f), 0);
    uint64_t frac;
    if (low_only && f->shift > 0)          /* a payload only in the bits a TF32 read drops */
        frac = rnd(st) & ((1ull << f->shift) - 1);
    else if (low_only)                     /* only the lowest bits: quiet bit clear */
        frac = rnd(st) & (cm > 3 ? 7 : 1);
    else
        frac = rnd(st) & all;
    if (!frac)
        frac = 1;
    return pack(f, (int)(rnd(st) & 1), top_field(f), frac);
}

/* A finite value spread over the whole range, subnormals and zeros included. */
static uint64_t any_finite(const tc_format *f, uint64_t *st)
{
    switch (rnd(st) % 16) {
    case 0: return signed_zero(f, st);
    case 1: return subnormal(f, st);
    default: return normal_at(f, st, pick(st, tc_format_emin(f), tc_format_emax(f)));
    }
}

/* A moderate value: exponent within +-3 of e. */
static uint64_t near(const tc_format *f, uint64_t *st, int e)
{
    return normal_at(f, st, e + pick(st, -3, 3));
}

static uint64_t negate(const tc_format *f, uint64_t bits)
{
    return bits ^ (1ull << (cont_mbits(f) + f->ebits));
}

/* ---- tiles ---- */

typedef struct {
    const infer_target *t;
    const tc_format *fa, *fb, *fc, *fd;
    uint64_t *A, *B, *C, *st;
} tile;

#define A_(row, pos) T->A[(size_t)(row) * (size_t)T->t->k + (size_t)(pos)]
#define B_(pos, col) T->B[(size_t)(pos) * (size_t)T->t->n + (size_t)(col)]
#define C_(row, col) T->C[(size_t)(row) * (size_t)T->t->n + (size_t)(col)]

/* C: +-0 half the time, else subnormal, tiny or moderate. */
static uint64_t c_small(tile *T)
{
    switch (rnd(T->st) % 8) {
    case 0: case 1: case 2: case 3: return signed_zero(T->fc, T->st);
    case 4: return subnormal(T->fc, T->st);
    case 5: return normal_at(T->fc, T->st, tc_format_emin(T->fc) + pick(T->st, 0, 3));
    default: return near(T->fc, T->st, 0);
    }
}

static void fill_c(tile *T, uint64_t (*f)(tile *))
{
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = f(T);
}

static void zero_products(tile *T)
{
    int k = T->t->k;
    bool a_zero = rnd(T->st) & 1;   /* which operand holds the zeros */
    /* half the tiles: every product -0 (zeros -0, partners positive), so a
     * -0 C gives an all-negative-zero sum at any K */
    bool all_neg = rnd(T->st) & 1;
    for (int i = 0; i < T->t->m; i++)
        for (int q = 0; q < k; q++) {
            uint64_t z = all_neg ? negate(T->fa, 0) : signed_zero(T->fa, T->st), v = any_finite(T->fa, T->st);
            A_(i, q) = a_zero ? z : all_neg && (v >> (cont_mbits(T->fa) + T->fa->ebits)) ? negate(T->fa, v) : v;
        }
    for (int q = 0; q < k; q++)
        for (int j = 0; j < T->t->n; j++) {
            uint64_t z = all_neg ? negate(T->fb, 0) : signed_zero(T->fb, T->st), v = any_finite(T->fb, T->st);
            B_(q, j) = !a_zero ? z : all_neg && (v >> (cont_mbits(T->fb) + T->fb->ebits)) ? negate(T->fb, v) : v;
        }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = all_neg && chance(T->st, 2) ? negate(T->fc, 0) : c_small(T);
}

static void zero_terms(tile *T)
{
    int k = T->t->k;
    uint64_t zmask[4] = {0};
    if (k > 256)
        k = 256;   /* the zero positions, the same for every row and column */
    for (int q = 0; q < k; q++)
        if (rnd(T->st) & 1)
            zmask[q / 64] |= 1ull << (q % 64);
    bool a_zero = rnd(T->st) & 1;
    int hi_a = tc_format_emax(T->fa) - pick(T->st, 0, 4), hi_b = tc_format_emax(T->fb) - pick(T->st, 0, 4);
    int e0 = pick(T->st, -4, 4);
    for (int q = 0; q < k; q++) {
        bool z = (zmask[q / 64] >> (q % 64)) & 1;
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = z ? (a_zero ? signed_zero(T->fa, T->st) : normal_at(T->fa, T->st, hi_a))
                         : near(T->fa, T->st, e0);
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = z ? (a_zero ? normal_at(T->fb, T->st, hi_b) : signed_zero(T->fb, T->st))
                         : near(T->fb, T->st, 0);
    }
    fill_c(T, c_small);
}

/* Partner of position q in a pairing scheme (pairs must be disjoint). */
static int partner(int q, int k, int scheme)
{
    switch (scheme) {
    case 0: return q ^ 1;                              /* adjacent */
    case 1: return q < k / 2 ? q + k / 2 : q - k / 2;  /* half K apart */
    default: return (q / 4) % 2 ? q - 4 : q + 4;       /* 4 apart (a split run, a step edge) */
    }
}

static void cancel(tile *T)
{
    int k = T->t->k, scheme = pick(T->st, 0, k % 8 ? 1 : 2);
    if (k < 2) {
        zero_products(T);
        return;
    }
    int e0 = pick(T->st, -6, 6);
    for (int q = 0; q < k; q++) {
        int p = partner(q, k, scheme);
        if (p < q)
            continue;
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = A_(i, p) = near(T->fa, T->st, e0);
        for (int j = 0; j < T->t->n; j++) {
            B_(q, j) = near(T->fb, T->st, 0);
            B_(p, j) = negate(T->fb, B_(q, j));
        }
    }
    fill_c(T, c_small);
}

static void tiny(tile *T)
{
    int k = T->t->k;
    /* the target exponent of the products: around the bottom of D's range,
     * or of what the operands can reach if that is higher */
    int ea_lo = tc_format_emin(T->fa) - T->fa->mbits, eb_lo = tc_format_emin(T->fb) - T->fb->mbits;
    int reach = ea_lo + eb_lo;
    int bottom = tc_format_emin(T->fd) - T->fd->mbits;
    int target = (reach > bottom ? reach + 2 : bottom) + pick(T->st, -3, T->fd->mbits + 4);
    int ea = target / 2;
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = chance(T->st, 4) ? subnormal(T->fa, T->st) : near(T->fa, T->st, ea);
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = chance(T->st, 4) ? subnormal(T->fb, T->st) : near(T->fb, T->st, target - ea);
    }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 2) ? subnormal(T->fc, T->st)
                     : chance(T->st, 2) ? signed_zero(T->fc, T->st)
                                        : normal_at(T->fc, T->st, tc_format_emin(T->fc) + pick(T->st, 0, 2));
}

/* A subnormal operand whose product leads: its partner large, the other
 * terms 20..28 binades below, so how the subnormal is read (its exponent
 * field, or widened to a format where it is normal) moves the alignment. */
static void subnormal_leads(tile *T)
{
    int k = T->t->k, lead = pick(T->st, 0, k - 1);
    bool in_a = rnd(T->st) & 1;
    const tc_format *fs = in_a ? T->fa : T->fb, *fp = in_a ? T->fb : T->fa;
    int es = tc_format_emin(fs) - 1 - fs->mbits / 2, ep = -es;   /* the product near 2^0 */
    for (int q = 0; q < k; q++) {
        int d = pick(T->st, 20, 28);
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = q == lead ? (in_a ? subnormal(fs, T->st) : normal_at(fp, T->st, ep))
                                 : normal_at(T->fa, T->st, -d / 2);
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = q == lead ? (in_a ? normal_at(fp, T->st, ep) : subnormal(fs, T->st))
                                 : normal_at(T->fb, T->st, -(d - d / 2));
    }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 2) ? signed_zero(T->fc, T->st) : normal_at(T->fc, T->st, -pick(T->st, 20, 28));
}

static void subnormals(tile *T)
{
    int k = T->t->k;
    if (rnd(T->st) & 1) {
        subnormal_leads(T);
        return;
    }
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = chance(T->st, 3) ? near(T->fa, T->st, tc_format_emin(T->fa) + 2) : subnormal(T->fa, T->st);
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = chance(T->st, 3) ? near(T->fb, T->st, 0) : subnormal(T->fb, T->st);
    }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 2) ? subnormal(T->fc, T->st) : c_small(T);
}

static void align_edge(tile *T)
{
    int k = T->t->k, lead = pick(T->st, 0, k - 1);
    int e0 = pick(T->st, -2, 2);
    /* B near 1, so a term's exponent is its A's: the structure is in the rows */
    for (int q = 0; q < k; q++)
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = normal_at(T->fb, T->st, pick(T->st, 0, 1) - 1);
    for (int i = 0; i < T->t->m; i++)
        for (int q = 0; q < k; q++)
            A_(i, q) = q == lead ? normal_at(T->fa, T->st, e0)
                                 : normal_at(T->fa, T->st, e0 - pick(T->st, 8, 30));
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 3) ? normal_at(T->fc, T->st, e0 + pick(T->st, -1, 2))
                                       : normal_at(T->fc, T->st, e0 - pick(T->st, 8, 30));
}

static void block_edge(tile *T)
{
    int k = T->t->k;
    int p = pick(T->st, 0, k - 1), q = pick(T->st, 0, k - 1);
    if (q == p)
        q = (p + k / 2) % k;
    int e0 = pick(T->st, -2, 2), d = pick(T->st, 10, 30);
    for (int r = 0; r < k; r++)
        for (int j = 0; j < T->t->n; j++)
            B_(r, j) = normal_at(T->fb, T->st, -1 + pick(T->st, 0, 1));
    for (int j = 0; j < T->t->n; j++)   /* rows p and q equal: the two products cancel exactly */
        B_(q, j) = B_(p, j) = normal_at(T->fb, T->st, 0);
    for (int i = 0; i < T->t->m; i++)
        for (int r = 0; r < k; r++)
            A_(i, r) = r == p ? normal_at(T->fa, T->st, e0)
                              : normal_at(T->fa, T->st, e0 - d + pick(T->st, -2, 2));
    for (int i = 0; i < T->t->m; i++) {
        A_(i, q) = negate(T->fa, A_(i, p));
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 2) ? signed_zero(T->fc, T->st) : normal_at(T->fc, T->st, e0 - d);
    }
}

static void overflow(tile *T)
{
    int k = T->t->k;
    int top = tc_format_emax(T->fd) < tc_format_emax(T->fa) + tc_format_emax(T->fb)
                  ? tc_format_emax(T->fd)
                  : tc_format_emax(T->fa) + tc_format_emax(T->fb);
    int target = top - pick(T->st, -1, 3);
    int ea = target / 2 < tc_format_emax(T->fa) ? target / 2 : tc_format_emax(T->fa);
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = normal_at(T->fa, T->st, ea - pick(T->st, 0, 2));
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = normal_at(T->fb, T->st, target - ea - pick(T->st, 0, 2));
    }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 2) ? normal_at(T->fc, T->st, tc_format_emax(T->fc) - pick(T->st, 0, 2))
                                        : c_small(T);
}

static void signed_zeros(tile *T)
{
    int k = T->t->k;
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = chance(T->st, 2) ? signed_zero(T->fa, T->st) : near(T->fa, T->st, 0);
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = chance(T->st, 2) ? signed_zero(T->fb, T->st) : near(T->fb, T->st, 0);
    }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 4) ? near(T->fc, T->st, 0) : signed_zero(T->fc, T->st);
}

/* One special per element on average: rate 1/(2k) per A and B element
 * (a row and a column each bring k), 1/8 for C. */
static void specials(tile *T)
{
    int k = T->t->k;
    unsigned r = (unsigned)(2 * k);
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = chance(T->st, r) ? inf_or_nan(T->fa, T->st, chance(T->st, 2), chance(T->st, 2))
                       : chance(T->st, 8) ? signed_zero(T->fa, T->st) : near(T->fa, T->st, 0);
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = chance(T->st, r) ? inf_or_nan(T->fb, T->st, chance(T->st, 2), chance(T->st, 2))
                       : chance(T->st, 8) ? signed_zero(T->fb, T->st) : near(T->fb, T->st, 0);
    }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 8) ? inf_or_nan(T->fc, T->st, chance(T->st, 2), chance(T->st, 2))
                                        : c_small(T);
}

/* NaNs at one K position (per row of A, per column of B), so an element has
 * zero, one or two NaN operands there and finite values elsewhere. */
static void nan_payload(tile *T)
{
    int k = T->t->k;
    int qa = pick(T->st, 0, k - 1), qb = chance(T->st, 2) ? qa : pick(T->st, 0, k - 1);
    for (int q = 0; q < k; q++) {
        for (int i = 0; i < T->t->m; i++)
            A_(i, q) = q == qa && chance(T->st, 2) ? inf_or_nan(T->fa, T->st, true, chance(T->st, 2))
                                                   : near(T->fa, T->st, 0);
        for (int j = 0; j < T->t->n; j++)
            B_(q, j) = q == qb && chance(T->st, 2) ? inf_or_nan(T->fb, T->st, true, chance(T->st, 2))
                                                   : near(T->fb, T->st, 0);
    }
    for (int i = 0; i < T->t->m; i++)
        for (int j = 0; j < T->t->n; j++)
            C_(i, j) = chance(T->st, 3) ? inf_or_nan(T->fc, T->st, true, chance(T->st, 2)) : near(T->fc, T->st, 0);
}

void hunt_fill_tile(const infer_target *t, int family, uint64_t *st, uint64_t *A, uint64_t *B, uint64_t *C)
{
    tile T = {t, t->f.a, t->f.b, t->f.c, t->f.d, A, B, C, st};
    switch (family) {
    case HUNT_ZERO_PRODUCTS: zero_products(&T); break;
    case HUNT_ZERO_TERMS: zero_terms(&T); break;
    case HUNT_CANCEL: cancel(&T); break;
    case HUNT_TINY: tiny(&T); break;
    case HUNT_SUBNORMAL: subnormals(&T); break;
    case HUNT_ALIGN_EDGE: align_edge(&T); break;
    case HUNT_BLOCK_EDGE: block_edge(&T); break;
    case HUNT_OVERFLOW: overflow(&T); break;
    case HUNT_SIGNED_ZERO: signed_zeros(&T); break;
    case HUNT_SPECIALS: specials(&T); break;
    default: nan_payload(&T); break;
    }
}

uint64_t hunt_tile_hash(const infer_target *t, const uint64_t *A, const uint64_t *B, const uint64_t *C)
{
    uint64_t h = 0xcbf29ce484222325ull;
    size_t n[3] = {(size_t)t->m * t->k, (size_t)t->k * t->n, (size_t)t->m * t->n};
    const uint64_t *v[3] = {A, B, C};
    for (int w = 0; w < 3; w++)
        for (size_t i = 0; i < n[w]; i++)
            for (int byte = 0; byte < 8; byte++) {
                h ^= (v[w][i] >> (8 * byte)) & 0xff;
                h *= 0x100000001b3ull;
            }
    return h;
}
