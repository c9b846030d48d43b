/* The hunt families (cases/hunt.h): names, streams, and the host's entry to
 * the drawing code of cases/hunt_draw.h (shared with the GPU). */
#include <string.h>

#include "cases/hunt.h"
#include "cases/hunt_draw.h"
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

uint64_t hunt_family_seed(uint64_t seed, int family)
{
    return hunt_family_seed_hd(seed, family);
}

uint64_t hunt_tile_seed(uint64_t seed, int family, uint64_t q)
{
    return hunt_tile_seed_hd(seed, family, q);
}

static const char *const draw_names[] = {"family", "tile"};

const char *hunt_draw_name(hunt_draw d)
{
    return d == HUNT_DRAW_TILE ? draw_names[1] : draw_names[0];
}

int hunt_draw_by_name(const char *name)
{
    for (int i = 0; i < 2; i++)
        if (name && !strcmp(name, draw_names[i]))
            return i;
    return -1;
}

void hunt_fill_tiles(const infer_target *t, hunt_draw d, uint64_t seed, int family, size_t q0, size_t ntiles,
                     uint64_t *A, uint64_t *B, uint64_t *C)
{
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tc = (size_t)t->m * t->n;
    uint64_t st = hunt_family_seed(seed, family);
    if (d == HUNT_DRAW_FAMILY)   /* the tiles before q0, drawn and dropped: one stream */
        for (size_t q = 0; q < q0; q++)
            hunt_fill_tile(t, family, &st, A, B, C);
    for (size_t q = 0; q < ntiles; q++) {
        if (d == HUNT_DRAW_TILE)
            st = hunt_tile_seed(seed, family, q0 + q);
        hunt_fill_tile(t, family, &st, A + q * ta, B + q * tb, C + q * tc);
    }
}

void hunt_fill_tile(const infer_target *t, int family, uint64_t *st, uint64_t *A, uint64_t *B, uint64_t *C)
{
    hunt_tile T = {t->m, t->n, t->k, t->f.a, t->f.b, t->f.c, t->f.d, A, B, C, st};
    hunt_fill_tile_hd(&T, family);
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
