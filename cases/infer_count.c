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
 * candidate order, so a fit takes the same steps on any number of cores.
 *
 * A target with fit ops (infer_target.fit: the GPU) counts every candidate
 * exactly, over all its cases, there: the same decisions again, since a
 * candidate is taken only when its count is under `below`, where both
 * counts are exact. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/infer_internal.h"
#include "oracle/oracle.h"

/* The cases to t->fit, in rows of K k; 0 taken, 1 not (the cores count), -1. */
static int open_fit(infer_count *fc, char *err, size_t errlen)
{
    const infer_target *t = fc->t;
    for (size_t i = 0; i < fc->n; i++)
        if (fc->cs[i].k != t->k)
            return 1;
    return t->fit->open(t->fit_ctx, fc->cs, fc->n, t->k, &fc->set, err, errlen);
}

int infer_count_init(infer_count *fc, const infer_target *t, const infer_case *cs, size_t n, char *err,
                     size_t errlen)
{
    *fc = (infer_count){.t = t, .cs = cs, .n = n, .is_first = calloc(n + 1, 1)};
    if (!fc->is_first) {
        snprintf(err, errlen, "infer: out of memory");
        return -1;
    }
    if (t->fit && n && open_fit(fc, err, errlen) < 0) {
        infer_count_free(fc);
        return -1;
    }
    return 0;
}

void infer_count_free(infer_count *fc)
{
    if (fc->set)
        fc->t->fit->close(fc->set);
    fc->set = NULL;
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
static size_t count_one(const infer_count *fc, const model_params *p, size_t below, size_t *found, int *nfound,
                        size_t *evals)
{
    char err[160];
    *nfound = 0;
    *evals = 0;
    model *m = model_new(p, fc->t->f, err, sizeof err);
    if (!m)
        return SIZE_MAX;
    const infer_case *cs = fc->cs;
    size_t bad = 0;
    size_t tried = 0;
    for (int q = 0; q < fc->nfirst && bad < below; q++, tried++) {
        const infer_case *c = &cs[fc->first[q]];
        if (model_dot(m, c->k, c->a, c->b, c->c) != c->d && ++bad && *nfound < INFER_COUNT_FIRST)
            found[(*nfound)++] = fc->first[q];
    }
    for (size_t i = 0; i < fc->n && bad < below; i++)
        if (!fc->is_first[i] && ++tried && model_dot(m, cs[i].k, cs[i].a, cs[i].b, cs[i].c) != cs[i].d && ++bad &&
            *nfound < INFER_COUNT_FIRST)
            found[(*nfound)++] = i;
    model_free(m);
    *evals = tried;
    return bad;
}

typedef struct {
    const infer_count *fc;
    const model_params *v;
    size_t below, *s, *found;   /* found: INFER_COUNT_FIRST a candidate */
    int *nfound;
    size_t *evals;
} batch;

static void count_range(void *ctx, size_t lo, size_t hi)
{
    const batch *b = ctx;
    for (size_t i = lo; i < hi; i++)
        b->s[i] = count_one(b->fc, &b->v[i], b->below, b->found + i * INFER_COUNT_FIRST, &b->nfound[i],
                            &b->evals[i]);
}

/* Every candidate by t->fit: the models made here (SIZE_MAX where none is). */
static int count_fit(infer_count *fc, const model_params *v, size_t nv, size_t *s)
{
    model **ms = calloc(nv, sizeof *ms);
    const model **run = malloc(nv * sizeof *run);
    size_t *at = malloc(nv * sizeof *at), *sc = malloc(nv * sizeof *sc), nrun = 0, host = 0;
    int rc = -1;
    if (!ms || !run || !at || !sc) {
        snprintf(fc->err, sizeof fc->err, "infer: out of memory");
        goto out;
    }
    for (size_t i = 0; i < nv; i++) {
        char why[160];
        ms[i] = model_new(&v[i], fc->t->f, why, sizeof why);
        s[i] = SIZE_MAX;
        if (ms[i]) {
            run[nrun] = ms[i];
            at[nrun++] = i;
        }
    }
    if (nrun && fc->t->fit->count(fc->set, run, nrun, sc, &host, fc->err, sizeof fc->err))
        goto out;
    for (size_t q = 0; q < nrun; q++)
        s[at[q]] = sc[q];
    fc->evals_cpu += host;
    fc->evals_gpu += nrun * fc->n - host;
    rc = 0;
out:
    for (size_t i = 0; ms && i < nv; i++)
        model_free(ms[i]);
    free(ms), free(run), free(at), free(sc);
    return rc;
}

int infer_count_all(infer_count *fc, const model_params *v, size_t nv, size_t below, size_t *s)
{
    if (nv == 0)
        return 0;
    if (fc->set)
        return count_fit(fc, v, nv, s);
    batch b = {fc,
               v,
               below,
               s,
               malloc(nv * INFER_COUNT_FIRST * sizeof *b.found),
               malloc(nv * sizeof *b.nfound),
               malloc(nv * sizeof *b.evals)};
    if (!b.found || !b.nfound || !b.evals) {
        free(b.found), free(b.nfound), free(b.evals);
        snprintf(fc->err, sizeof fc->err, "infer: out of memory");
        return -1;
    }
    size_t k = fc->n ? (size_t)fc->cs[0].k : 1;
    oracle_parallel(nv, nv * fc->n * k, count_range, &b);
    for (size_t i = 0; i < nv; i++) {   /* as one candidate after another would leave it */
        fc->evals_cpu += b.evals[i];
        for (int q = b.nfound[i] - 1; q >= 0; q--)
            to_front(fc, b.found[i * INFER_COUNT_FIRST + (size_t)q]);
    }
    free(b.found), free(b.nfound), free(b.evals);
    return 0;
}
