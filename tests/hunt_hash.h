/* A hunt test target shared by tests/test_verify.c and tests/test_hunt_tile.c.
 * Header-only (static inline) so each test stays one program. */
#ifndef TC_TEST_HUNT_HASH_H
#define TC_TEST_HUNT_HASH_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cases/hunt.h"
#include "oracle/model.h"

/* A target that answers 0 everywhere and folds every tile it is given into
 * one hash per hunt family (a call is one round of the hunt: every family's
 * next tiles, as many each, in family order). */
typedef struct {
    int m, n, k;
    size_t calls;
    uint64_t hash[HUNT_NFAMILIES];
} hash_target;

static inline uint64_t fold(uint64_t h, const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ v[i]) * 0x100000001b3ull;
    return h;
}

static inline int hash_run(void *ctx, size_t ntiles, const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D,
                    char *err, size_t errlen)
{
    hash_target *h = ctx;
    h->calls++;
    size_t mk = (size_t)h->m * h->k, kn = (size_t)h->k * h->n, mn = (size_t)h->m * h->n;
    if (ntiles % HUNT_NFAMILIES) {
        snprintf(err, errlen, "%zu tiles: not a round of every family", ntiles);
        return -1;
    }
    for (size_t q = 0; q < ntiles; q++) {
        uint64_t *s = &h->hash[q / (ntiles / HUNT_NFAMILIES)];
        *s = fold(*s, A + q * mk, mk);
        *s = fold(*s, B + q * kn, kn);
        *s = fold(*s, C + q * mn, mn);
    }
    memset(D, 0, ntiles * mn * sizeof *D);
    return 0;
}

static inline int zero_model(void *ctx, const model *m, int mrows, int ncols, int k, size_t ntiles, const uint64_t *A,
                      const uint64_t *B, const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    memset(D, 0, ntiles * (size_t)mrows * (size_t)ncols * sizeof *D);
    return 0;
}

#endif
