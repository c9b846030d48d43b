/* hunt: whole tiles aimed at the regions random draws almost never reach.
 *
 * A random batch proves the bulk of the input space and nothing about its
 * edges: exact zeros, zero terms beside large ones, the bottom and the top
 * of the exponent range, subnormal operands, NaN payloads, the alignment
 * cut. Each family below fills whole tiles so that EVERY output element of
 * the tile lies in its region (the structure is put into rows of A and
 * columns of B, so any pair of them qualifies): a GPU computes a whole tile
 * at the cost of one element, and the count of checked elements is honest.
 *
 * The families (hunt_family_name):
 *   zero_products  every product is +-0 (A all signed zeros), B any finite
 *                  width, C +-0, tiny or normal: the sign of a zero result,
 *                  whether zero terms and a zero C take part in alignment
 *   zero_terms     half the K positions are a signed zero times a large B
 *                  (or a large A times zero), the rest moderate: does a
 *                  zero product's exponent set the alignment reference?
 *   cancel         products cancel exactly (pairs x*y and x*-y, the pairs
 *                  adjacent, half K apart or a block apart), C +-0 or tiny:
 *                  cancellation to exactly zero, across step edges
 *   tiny           products and C near the bottom of D's (or the operands')
 *                  exponent range: subnormal C and D, underflow
 *   subnormal      operands subnormal in their format (FP8 subnormals on the
 *                  emulated path), C subnormal
 *   align_edge     one dominant term, the others 8..30 binades below it
 *                  (the alignment cut +-1 bit for every accumulator width)
 *   block_edge     +x and -x a block (or a split run) apart with small terms
 *                  everywhere: which terms share a step
 *   overflow       products and C near the top of the range, mixed signs
 *   signed_zero    every operand +-0 with probability 1/2, C +-0 mostly
 *   specials       Inf and NaN (any payload, any sign) among finite values,
 *                  about one per element
 *   nan_payload    exactly one or two NaN operands per element, payloads in
 *                  every bit, including only the bits a conversion drops
 *
 * Deterministic: the same (shape, formats, family, seed) give the same bits
 * on every machine (own generator, no libc rand). Integer formats have no
 * floating-point regions: hunt_applies says so.
 */
#ifndef TC_HUNT_H
#define TC_HUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/infer.h"

#include "cases/hunt_families.h"

const char *hunt_family_name(int family);
/* -1 when unknown. */
int hunt_family_by_name(const char *name);

/* true when the families apply to t's formats (floating point). */
bool hunt_applies(const infer_target *t);

/* The generator state that starts family `family`'s stream for a run seed:
 * each family its own stream, so one family's count never shifts another's. */
uint64_t hunt_family_seed(uint64_t seed, int family);

/* One tile of family `family`: A (m x k), B (k x n), C (m x n), row-major.
 * *st is the generator state (advanced). */
void hunt_fill_tile(const infer_target *t, int family, uint64_t *st, uint64_t *A, uint64_t *B, uint64_t *C);

/* Two definitions of a family's stream of tiles (a record's header says
 * which drew it: "draw", absent meaning "family"):
 *   HUNT_DRAW_FAMILY  one generator state per family from hunt_family_seed,
 *                     going on from tile to tile (each tile's start depends
 *                     on every earlier tile's draw);
 *   HUNT_DRAW_TILE    tile q starts from hunt_tile_seed(seed, family, q)
 *                     (cases/hunt_draw.h says how it is mixed), so tiles are
 *                     drawn in any order, one GPU thread each
 *                     (cases/hunt_gpu.h); the same hunt_fill_tile after it. */
typedef enum { HUNT_DRAW_FAMILY, HUNT_DRAW_TILE } hunt_draw;
uint64_t hunt_tile_seed(uint64_t seed, int family, uint64_t q);
/* "family", "tile"; hunt_draw_by_name: -1 when neither. */
const char *hunt_draw_name(hunt_draw d);
int hunt_draw_by_name(const char *name);
/* Tiles q0 .. q0+ntiles-1 of family's stream d into A, B, C (ntiles tiles
 * each, row-major): what a replay regenerates. */
void hunt_fill_tiles(const infer_target *t, hunt_draw d, uint64_t seed, int family, size_t q0, size_t ntiles,
                     uint64_t *A, uint64_t *B, uint64_t *C);

/* FNV-1a of one tile's inputs (A, B, C bits, 8 bytes each, in that order):
 * a record that keeps seeds instead of inputs names what the seeds must
 * regenerate, so a changed generator is told apart from a changed answer. */
uint64_t hunt_tile_hash(const infer_target *t, const uint64_t *A, const uint64_t *B, const uint64_t *C);

#endif
