/* The corpus backend "corpus:PATH" (probes.h): recorded answers only.
 * Each output element of a tile asked is looked up by its inputs (A row i,
 * B column j, C[i][j]) among the recorded rows of the instruction; the
 * tile is answered only when every element is found. Nothing is computed,
 * nothing is guessed. */
#include <stdlib.h>
#include <string.h>

#include "probes/dots.h"

typedef struct {
    tc_dots *sets;
    size_t nsets;
    size_t **tables, *nslot;   /* per set: hash slots (row index + 1, 0 empty), nslot[s] of them */
    char path[256];
} dots_ctx;

static uint64_t row_hash(const uint64_t *a, const uint64_t *b, int k, size_t bstride, uint64_t c)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < k; i++) {
        h = (h ^ a[i]) * 1099511628211ull;
        h = (h ^ b[(size_t)i * bstride]) * 1099511628211ull;
    }
    return (h ^ c) * 1099511628211ull;
}

static void ctx_free(void *p)
{
    dots_ctx *x = p;
    if (!x)
        return;
    for (size_t s = 0; s < x->nsets; s++)
        free(x->tables[s]);
    free(x->tables);
    free(x->nslot);
    tc_dots_free_all(x->sets, x->nsets);
    free(x);
}

static const tc_dots *set_of(const dots_ctx *x, const tc_instr *ins, size_t *idx)
{
    for (size_t s = 0; s < x->nsets; s++)
        if (x->sets[s].ins == ins) {
            *idx = s;
            return &x->sets[s];
        }
    return NULL;
}

static bool dots_supports(void *p, const tc_instr *ins, char *why, size_t len)
{
    size_t i;
    if (set_of(p, ins, &i))
        return true;
    snprintf(why, len, "%s: %s holds no recorded rows of it", ins->name, ((dots_ctx *)p)->path);
    return false;
}

/* Row index + 1 of (a, b column with stride, c) in set s, or 0. */
static size_t find_row(const dots_ctx *x, size_t s, const uint64_t *a, const uint64_t *b, size_t bstride, uint64_t c)
{
    const tc_dots *d = &x->sets[s];
    size_t n = x->nslot[s], h = (size_t)(row_hash(a, b, d->k, bstride, c) % n);
    for (size_t probe = 0; probe < n; probe++, h = (h + 1) % n) {
        size_t r = x->tables[s][h];
        if (!r)
            return 0;
        r--;
        if (d->C[r] != c)
            continue;
        bool same = true;
        for (int i = 0; same && i < d->k; i++)
            same = d->A[r * (size_t)d->k + (size_t)i] == a[i] && d->B[r * (size_t)d->k + (size_t)i] == b[(size_t)i * bstride];
        if (same)
            return r + 1;
    }
    return 0;
}

static int dots_mma(void *p, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                    const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    dots_ctx *x = p;
    size_t s;
    if (!set_of(x, ins, &s)) {
        dots_supports(p, ins, err, errlen);
        return -1;
    }
    size_t M = (size_t)ins->m, N = (size_t)ins->n, K = (size_t)ins->k;
    for (size_t t = 0; t < ntiles; t++)
        for (size_t i = 0; i < M; i++)
            for (size_t j = 0; j < N; j++) {
                size_t r = find_row(x, s, A + (t * M + i) * K, B + t * K * N + j, N, C[(t * M + i) * N + j]);
                if (!r) {
                    snprintf(err, errlen, "%s: tile %zu element (%zu,%zu) is not a recorded row of %s (a recorded "
                             "set answers only its own inputs)", ins->name, t, i, j, x->path);
                    return -1;
                }
                D[(t * M + i) * N + j] = x->sets[s].D[r - 1];
            }
    return 0;
}

tc_backend *tc_backend_open_dots(const char *path, char *err, size_t errlen)
{
    dots_ctx *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(x->path, sizeof x->path, "%s", path);
    if (!*path || tc_dots_load(path, &x->sets, &x->nsets, err, errlen)) {
        if (!*path)
            snprintf(err, errlen, "corpus: no file named (corpus:PATH of a dots file, probes/dots.h)");
        free(x);
        return NULL;
    }
    x->tables = calloc(x->nsets, sizeof *x->tables);
    x->nslot = calloc(x->nsets, sizeof *x->nslot);
    for (size_t s = 0; x->tables && x->nslot && s < x->nsets; s++) {
        const tc_dots *d = &x->sets[s];
        for (size_t o = 0; o < s; o++)
            if (x->sets[o].ins == d->ins) {
                snprintf(err, errlen, "%s: two lines of %s (one set per instruction)", path, d->ins->name);
                ctx_free(x);
                return NULL;
            }
        x->nslot[s] = 2 * d->rows + 1;
        if (!(x->tables[s] = calloc(x->nslot[s], sizeof(size_t))))
            break;
        for (size_t r = 0; r < d->rows; r++) {
            const uint64_t *a = d->A + r * (size_t)d->k, *b = d->B + r * (size_t)d->k;
            if (find_row(x, s, a, b, 1, d->C[r]))
                continue; /* a repeated row: the first answer stands (the others are checked by the audit) */
            size_t h = (size_t)(row_hash(a, b, d->k, 1, d->C[r]) % x->nslot[s]);
            while (x->tables[s][h])
                h = (h + 1) % x->nslot[s];
            x->tables[s][h] = r + 1;
        }
    }
    if (!x->tables || !x->nslot || (x->nsets && !x->tables[x->nsets - 1])) {
        snprintf(err, errlen, "out of memory");
        ctx_free(x);
        return NULL;
    }
    char name[64], device[128];
    snprintf(name, sizeof name, "corpus:%.56s", path);
    snprintf(device, sizeof device, "%.40s (recorded rows, third party; no GPU here)", x->sets[0].gpu);
    tc_backend *b = tc_backend_open_fn_owned(name, device, dots_mma, dots_supports, ctx_free, x);
    if (!b) {
        ctx_free(x);
        snprintf(err, errlen, "out of memory");
    }
    return b;
}

const tc_dots *tc_dots_of_backend(const tc_backend *b, size_t *nsets)
{
    const dots_ctx *x = tc_backend_fn_ctx(b, dots_mma);
    *nsets = x ? x->nsets : 0;
    return x ? x->sets : NULL;
}
