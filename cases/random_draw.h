/* The random elements of a proof and of the fit's "random" family, host and
 * device: one source that cases/verify.c and cases/families/random.c
 * compile for the CPU and cases/cuda/hunt_gpu.cu for the GPU (static
 * inline, TC_HD), so a proof's random tile drawn on either is the same bits
 * (tests/test_hunt_gpu.c compares them). Four distributions: 0 values near
 * 1, 1 the whole exponent range, 2 cancelling pairs, 3 uniform bit patterns
 * (NaN and Inf included).
 *
 * A proof's tiles come from one stream: tile q is of distribution q % 4, and
 * each of its elements is a whole case (a row of A, a column of B, a C)
 * whose a and b only the first row or column keeps. rd_skip_tile moves the
 * stream over a tile without drawing it (one call a case at most), so every
 * tile's start is known cheaply and the tiles can be drawn side by side:
 * on every core (cases/verify.c) or a GPU thread each (cases/hunt_gpu.h). */
#ifndef TC_RANDOM_DRAW_H
#define TC_RANDOM_DRAW_H

#include <stdint.h>

#include "cases/rnd_hd.h"
#include "formats/format_hd.h"

/* verify's random stream when its seed is 0. */
#define RD_SEED_DEFAULT 0xC0FFEE1234ull

/* What the draw reads of an instruction: its formats, its tile, and C's
 * zero (tc_encode_f64(c, 0.0), given by the host: no encoder on the GPU). */
typedef struct {
    const tc_format *a, *b, *c;
    int m, n, k;
    uint64_t czero;
} rd_shape;

/* The bits a value of f may have (tc_format_mask). */
static inline TC_HD uint64_t rd_mask(const tc_format *f)
{
    int used = f->storage_bits - f->shift;
    uint64_t m = used >= 64 ? ~0ull : (1ull << used) - 1;
    return m << f->shift;
}

/* A finite value of f with biased exponent in [lo, hi] (clamped). */
static inline TC_HD uint64_t rd_value(const tc_format *f, uint64_t *st, int lo, int hi)
{
    int top = (1 << f->ebits) - 1;
    int maxe = f->specials == TC_SPECIALS_IEEE ? top - 1 : top;
    lo = lo < 0 ? 0 : lo;
    hi = hi > maxe ? maxe : hi;
    if (hi < lo)
        hi = lo;
    uint64_t e = (uint64_t)(lo + (int)(hd_rnd(st) % (uint64_t)(hi - lo + 1)));
    uint64_t frac = f->mbits ? hd_rnd(st) & ((1ull << f->mbits) - 1) : 0;
    uint64_t bits = ((hd_rnd(st) & 1) << (f->ebits + f->mbits)) | (e << f->mbits) | frac;
    if (f->specials == TC_SPECIALS_FN && e == (uint64_t)top && frac == (1ull << f->mbits) - 1)
        bits ^= 1;
    return bits << f->shift;
}

/* The C of a case, drawn after its a and b and independent of them. */
static inline TC_HD uint64_t rd_c(const rd_shape *s, uint64_t *st, int dist)
{
    const tc_format *c = s->c;
    if (dist == 3)
        return hd_rnd(st) & rd_mask(c);
    if (dist == 1)
        return rd_value(c, st, 0, 1 << c->ebits);
    return hd_rnd(st) % 4 ? rd_value(c, st, c->bias - 8, c->bias + 8) : s->czero;
}

/* A case of distribution dist: a[i * as] and b[i * bs] for i < k, and *c.
 * A stride of 0 keeps only the last term (a case whose a or b nobody
 * keeps); the cancelling pairs read the term before, which is still there. */
static inline TC_HD void rd_case(const rd_shape *s, uint64_t *st, int dist, uint64_t *a, int as, uint64_t *b, int bs,
                                 uint64_t *c)
{
    const tc_format *fa = s->a, *fb = s->b;
    for (int i = 0; i < s->k; i++) {
        uint64_t *ai = a + i * as, *bi = b + i * bs;
        switch (dist) {
        case 0:
            *ai = rd_value(fa, st, fa->bias - 4, fa->bias + 4);
            *bi = rd_value(fb, st, fb->bias - 4, fb->bias + 4);
            break;
        case 1:
            *ai = rd_value(fa, st, 0, 1 << fa->ebits);
            *bi = rd_value(fb, st, 0, 1 << fb->ebits);
            break;
        case 2:
            if (i % 2) {
                uint64_t pa = a[(i - 1) * as], pb = b[(i - 1) * bs];
                *ai = pa ^ (1ull << (fa->ebits + fa->mbits + fa->shift));
                *bi = pb ^ ((hd_rnd(st) & 1) << fb->shift);
            } else {
                *ai = rd_value(fa, st, fa->bias - 6, fa->bias + 6);
                *bi = rd_value(fb, st, fb->bias - 6, fb->bias + 6);
            }
            break;
        default:
            *ai = hd_rnd(st) & rd_mask(fa) & ~((1ull << fa->shift) - 1);
            *bi = hd_rnd(st) & rd_mask(fb) & ~((1ull << fb->shift) - 1);
            break;
        }
    }
    *c = rd_c(s, st, dist);
}

/* The calls rd_value makes for f: exponent, fraction (when f has
 * fraction bits), sign. */
static inline TC_HD uint64_t rd_value_calls(const tc_format *f)
{
    return f->mbits ? 3 : 2;
}

/* The calls of rd_case's a and b. */
static inline TC_HD uint64_t rd_ab_calls(const rd_shape *s, int dist)
{
    uint64_t va = rd_value_calls(s->a), vb = rd_value_calls(s->b), k = (uint64_t)s->k;
    switch (dist) {
    case 0: case 1: return k * (va + vb);
    case 2: return (k + 1) / 2 * (va + vb) + k / 2;
    default: return 2 * k;
    }
}

/* What rd_case does to *st, nothing drawn: the same calls counted (kept
 * beside rd_case, whose layout it mirrors; the C of dist 0 and 2 is the one
 * data-dependent count: one call decides whether a value follows). */
static inline TC_HD void rd_case_skip(const rd_shape *s, uint64_t *st, int dist)
{
    *st += rd_ab_calls(s, dist) * HD_RND_STEP;
    if (dist == 3)
        *st += HD_RND_STEP;
    else if (dist == 1)
        *st += rd_value_calls(s->c) * HD_RND_STEP;
    else if (hd_rnd(st) % 4)
        *st += rd_value_calls(s->c) * HD_RND_STEP;
}

/* The c of rd_case, *st moved as it moves it, its a and b not drawn (c does
 * not depend on them): an element's C costs one value instead of 2k. */
static inline TC_HD uint64_t rd_case_c(const rd_shape *s, uint64_t *st, int dist)
{
    *st += rd_ab_calls(s, dist) * HD_RND_STEP;
    return rd_c(s, st, dist);
}

/* Tile q of the stream from *st (its start): A (m x k, row-major), B (k x n,
 * row-major), C (m x n). Row i of A and column i of B are case i's a and b;
 * element (i, j)'s C a case of its own; the columns past m their own cases.
 * Returns its distribution. */
static inline TC_HD int rd_fill_tile(const rd_shape *s, uint64_t q, uint64_t *st, uint64_t *A, uint64_t *B,
                                     uint64_t *C)
{
    int dd = (int)(q % 4), m = s->m, n = s->n, k = s->k;
    uint64_t sink_a = 0, sink_b = 0, c0;
    for (int i = 0; i < m; i++) {
        uint64_t *b = i < n ? B + i : &sink_b;
        rd_case(s, st, dd, A + (uint64_t)i * (uint64_t)k, 1, b, i < n ? n : 0, &c0);
        for (int j = 0; j < n; j++)   /* an element's case: its c alone is used */
            C[(uint64_t)i * (uint64_t)n + (uint64_t)j] = rd_case_c(s, st, dd);
    }
    for (int j = m; j < n; j++)
        rd_case(s, st, dd, &sink_a, 0, B + j, n, &c0);
    return dd;
}

/* *st moved over tile q as rd_fill_tile moves it (its cases, in order):
 * distributions 1 and 3 make the same calls for every case, so at once. */
static inline TC_HD void rd_skip_tile(const rd_shape *s, uint64_t q, uint64_t *st)
{
    int dist = (int)(q % 4);
    uint64_t cases = (uint64_t)s->m * (uint64_t)(s->n + 1) + (uint64_t)(s->n > s->m ? s->n - s->m : 0);
    if (dist == 1 || dist == 3) {
        *st += cases * (rd_ab_calls(s, dist) + (dist == 3 ? 1 : rd_value_calls(s->c))) * HD_RND_STEP;
        return;
    }
    for (uint64_t c = 0; c < cases; c++)
        rd_case_skip(s, st, dist);
}

#endif
