/* Family "random": random elements in four distributions (near 1, the whole
 * range, cancelling pairs, uniform bits), so the fit meets the arithmetic
 * where no crafted case looks; the proof (cases/verify.c) draws from the
 * same distributions (infer_rnd_case).
 * Inference only: a case file is for cases a person can read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

/* splitmix64: each call adds RND_STEP to the state. */
#define RND_STEP 0x9E3779B97F4A7C15ull

static uint64_t rnd64(uint64_t *st)
{
    uint64_t z = (*st += RND_STEP);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A finite value of f with biased exponent in [lo, hi] (clamped). */
uint64_t infer_rnd_value(const tc_format *f, uint64_t *st, int lo, int hi)
{
    int top = (1 << f->ebits) - 1;
    int maxe = f->specials == TC_SPECIALS_IEEE ? top - 1 : top;
    lo = lo < 0 ? 0 : lo;
    hi = hi > maxe ? maxe : hi;
    if (hi < lo)
        hi = lo;
    uint64_t e = (uint64_t)(lo + (int)(rnd64(st) % (uint64_t)(hi - lo + 1)));
    uint64_t frac = f->mbits ? rnd64(st) & ((1ull << f->mbits) - 1) : 0;
    uint64_t bits = ((rnd64(st) & 1) << (f->ebits + f->mbits)) | (e << f->mbits) | frac;
    if (f->specials == TC_SPECIALS_FN && e == (uint64_t)top && frac == (1ull << f->mbits) - 1)
        bits ^= 1;
    return bits << f->shift;
}

/* The C of a case, drawn after its A and B and independent of them. */
static uint64_t rnd_c(const oracle_formats *f, uint64_t *st, int dist)
{
    if (dist == 3)
        return rnd64(st) & tc_format_mask(f->c);
    if (dist == 1)
        return infer_rnd_value(f->c, st, 0, 1 << f->c->ebits);
    return rnd64(st) % 4 ? infer_rnd_value(f->c, st, f->c->bias - 8, f->c->bias + 8) : tc_encode_f64(f->c, 0.0, rne);
}

/* dist 0: near 1; 1: the whole range; 2: cancelling pairs; 3: uniform bits */
void infer_rnd_case(const infer_target *t, uint64_t *st, int dist, uint64_t *a, uint64_t *b, uint64_t *c)
{
    const oracle_formats *f = &t->f;
    for (int i = 0; i < t->k; i++) {
        switch (dist) {
        case 0:
            a[i] = infer_rnd_value(f->a, st, f->a->bias - 4, f->a->bias + 4);
            b[i] = infer_rnd_value(f->b, st, f->b->bias - 4, f->b->bias + 4);
            break;
        case 1:
            a[i] = infer_rnd_value(f->a, st, 0, 1 << f->a->ebits);
            b[i] = infer_rnd_value(f->b, st, 0, 1 << f->b->ebits);
            break;
        case 2:
            if (i % 2) {
                a[i] = a[i - 1] ^ (1ull << (f->a->ebits + f->a->mbits + f->a->shift));
                b[i] = b[i - 1] ^ ((rnd64(st) & 1) << f->b->shift);
            } else {
                a[i] = infer_rnd_value(f->a, st, f->a->bias - 6, f->a->bias + 6);
                b[i] = infer_rnd_value(f->b, st, f->b->bias - 6, f->b->bias + 6);
            }
            break;
        default:
            a[i] = rnd64(st) & tc_format_mask(f->a) & ~((1ull << f->a->shift) - 1);
            b[i] = rnd64(st) & tc_format_mask(f->b) & ~((1ull << f->b->shift) - 1);
            break;
        }
    }
    *c = rnd_c(f, st, dist);
}

/* The rnd64 calls infer_rnd_value makes for f: exponent, fraction (when f
 * has fraction bits), sign. */
static uint64_t value_calls(const tc_format *f)
{
    return f->mbits ? 3 : 2;
}

/* The rnd64 calls of infer_rnd_case's a and b. */
static uint64_t ab_calls(const infer_target *t, int dist)
{
    const oracle_formats *f = &t->f;
    uint64_t va = value_calls(f->a), vb = value_calls(f->b), k = (uint64_t)t->k;
    switch (dist) {
    case 0: case 1: return k * (va + vb);
    case 2: return (k + 1) / 2 * (va + vb) + k / 2;
    default: return 2 * k;
    }
}

/* What infer_rnd_case does to *st, without drawing the values: the same
 * calls counted (kept beside infer_rnd_case, whose layout it mirrors; the C
 * of dist 0 and 2 is the one data-dependent count: one call decides whether
 * a value follows). A proof's tiles can then start each from its own state
 * and be drawn on every core (cases/verify.c), the same stream. */
void infer_rnd_case_skip(const infer_target *t, uint64_t *st, int dist)
{
    *st += ab_calls(t, dist) * RND_STEP;
    if (dist == 3)
        *st += RND_STEP;
    else if (dist == 1)
        *st += value_calls(t->f.c) * RND_STEP;
    else if (rnd64(st) % 4)
        *st += value_calls(t->f.c) * RND_STEP;
}

uint64_t infer_rnd_case_c(const infer_target *t, uint64_t *st, int dist)
{
    *st += ab_calls(t, dist) * RND_STEP;
    return rnd_c(&t->f, st, dist);
}

static int fam_random(cset *s, const infer_target *t, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    uint64_t a[INFER_KMAX], b[INFER_KMAX], c;
    for (size_t i = 0; i < n; i++) {
        infer_rnd_case(t, &st, (int)(i % 4), a, b, &c);
        if (cset_add_bits(s, "random", t->k, a, b, c))
            return -1;
    }
    return 0;
}

/* t->random_cases elements (0: 4096) from t->seed (0: a fixed default). */
static int bits_random(cset *s, const infer_target *t)
{
    return fam_random(s, t, t->random_cases ? t->random_cases : 4096, t->seed ? t->seed : 0x7C5C0BE5ull);
}

const tc_family tc_family_random = {"random", NULL, bits_random};
