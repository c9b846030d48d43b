/* A fit's scores (cases/infer_internal.h infer_count): how many of the
 * crafted answers each candidate model_params gets wrong, the candidates of
 * one step counted at once on the cores.
 *
 * Two things make it fast without changing any decision of the fit:
 *   - a candidate is counted only until it has as many wrong answers as the
 *     best so far (`below`): from there it cannot be taken, whatever the
 *     rest; a count under `below` is exact;
 *   - the few cases that lately told a candidate wrong (`first`, the latest
 *     first) are tried before the others, so that most rejected candidates
 *     stop after a handful of cases.
 * Each case is tried at most once per candidate, so a count under `below`
 * is the same in any order, and the fit, which takes a candidate only when
 * its count is under the best, decides as it would one candidate at a time.
 * `first` only orders the work; it is updated after each batch, in
 * candidate order, so a fit takes the same steps on any number of cores. */
#include <stdlib.h>
#include <string.h>

#include "cases/infer_internal.h"
#include "oracle/oracle.h"

int infer_count_init(infer_count *fc, const infer_target *t, const infer_case *cs, size_t n)
{
    *fc = (infer_count){.t = t, .cs = cs, .n = n, .is_first = calloc(n + 1, 1)};
    return fc->is_first ? 0 : -1;
}

void infer_count_free(infer_count *fc)
{
    free(fc->is_first);
    fc->is_first = NULL;
}

/* Case i to the front of `first` (the last one out when it is full). */
static void to_front(infer_count *fc, size_t i)
{
    int at = 0;
    while (at < fc->nfirst && fc->first[at] != i)
        at++;
    if (at == fc->nfirst) {
        if (fc->nfirst < INFER_COUNT_FIRST)
            fc->nfirst++;
        else
            fc->is_first[fc->first[--at]] = 0;
        fc->is_first[i] = 1;
    }
    memmove(fc->first + 1, fc->first, (size_t)at * sizeof *fc->first);
    fc->first[0] = i;
}

/* p's count (see above; SIZE_MAX if p is no model), the cases it got wrong
 * into found (at most INFER_COUNT_FIRST). Reads fc only. */
static size_t count_one(const infer_count *fc, const model_params *p, size_t below, size_t *found, int *nfound)
{
    char err[160];
    *nfound = 0;
    model *m = model_new(p, fc->t->f, err, sizeof err);
    if (!m)
        return SIZE_MAX;
    const infer_case *cs = fc->cs;
    size_t bad = 0;
    for (int q = 0; q < fc->nfirst && bad < below; q++) {
        const infer_case *c = &cs[fc->first[q]];
        if (model_dot(m, c->k, c->a, c->b, c->c) != c->d && ++bad && *nfound < INFER_COUNT_FIRST)
            found[(*nfound)++] = fc->first[q];
    }
    for (size_t i = 0; i < fc->n && bad < below; i++)
        if (!fc->is_first[i] && model_dot(m, cs[i].k, cs[i].a, cs[i].b, cs[i].c) != cs[i].d && ++bad &&
            *nfound < INFER_COUNT_FIRST)
            found[(*nfound)++] = i;
    model_free(m);
    return bad;
}

typedef struct {
    const infer_count *fc;
    const model_params *v;
    size_t below, *s, *found;   /* found: INFER_COUNT_FIRST a candidate */
    int *nfound;
} batch;

static void count_range(void *ctx, size_t lo, size_t hi)
{
    const batch *b = ctx;
    for (size_t i = lo; i < hi; i++)
        b->s[i] = count_one(b->fc, &b->v[i], b->below, b->found + i * INFER_COUNT_FIRST, &b->nfound[i]);
}

int infer_count_all(infer_count *fc, const model_params *v, size_t nv, size_t below, size_t *s)
{
    if (nv == 0)
        return 0;
    batch b = {fc, v, below, s, malloc(nv * INFER_COUNT_FIRST * sizeof *b.found), malloc(nv * sizeof *b.nfound)};
    if (!b.found || !b.nfound) {
        free(b.found), free(b.nfound);
        return -1;
    }
    size_t k = fc->n ? (size_t)fc->cs[0].k : 1;
    oracle_parallel(nv, nv * fc->n * k, count_range, &b);
    for (size_t i = 0; i < nv; i++)   /* as one candidate after another would leave it */
        for (int q = b.nfound[i] - 1; q >= 0; q--)
            to_front(fc, b.found[i * INFER_COUNT_FIRST + (size_t)q]);
    free(b.found), free(b.nfound);
    return 0;
}
