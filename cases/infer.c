/* infer: fitting model_params to a target's answers (see infer.h).
 *
 * Each field has a short list of candidate values (all the values the
 * parameter could take that change anything for these formats and K: the
 * field table's candidates, oracle/model_fields.h). A
 * candidate's score is the number of crafted answers it gets wrong (one
 * step's candidates counted at once: cases/infer_count.c); the fit
 * is coordinate descent over the fields from a neutral start, repeated until
 * no field changes, followed by a joint search over the pairs of fields that
 * interact most (alignment width x shifted-bit rounding x accumulator). */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/infer.h"
#include "cases/infer_internal.h"
#include "oracle/model_fields.h"

#define MAXV MODEL_FIELD_MAX_CANDIDATES

/* Candidate values of field fi for target t, each as cur with that field changed. */
static int variants(int fi, const model_params *cur, const infer_target *t, const uint64_t *nans,
                    int nnans, model_params *out)
{
    model_field_scope s = {t->f, t->k, nans, nnans};
    return model_field_candidates(fi, cur, &s, out);
}

/* The first `want` cases m gets wrong, in order, into first_bad (their
 * count, fewer only when m gets fewer wrong). */
static int first_refs(const model *m, const infer_case *cs, size_t n, int want, size_t *first_bad)
{
    int got = 0;
    for (size_t i = 0; i < n && got < want; i++)
        if (model_dot(m, cs[i].k, cs[i].a, cs[i].b, cs[i].c) != cs[i].d)
            first_bad[got++] = i;
    return got;
}

static bool same_params(const model_params *x, const model_params *y)
{
    return model_params_diff(x, y, NULL) == 0;
}

/* The start: the correctly rounded setting with a common accumulator, so the
 * first sweeps move one field at a time from a sensible place. */
static model_params start_params(const infer_target *t, uint64_t nan)
{
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params p = model_params_exact(t->f, r);
    p.block = t->k;
    p.align_bits = t->f.d->mbits + 2;
    p.acc_exact = false;
    p.acc_fmt = *t->f.d;
    p.acc_round = TC_RNE;
    p.c_round = TC_RNE;
    p.nan_bits = nan;
    return p;
}

/* The fields in the order the descent visits them (the table's descent
 * ranks: most decisive first); returns how many. */
static int descent_order(int *order)
{
    int nf = model_field_count();
    for (int i = 0; i < nf; i++)
        order[i] = i;
    for (int i = 1; i < nf; i++)   /* insertion sort by rank */
        for (int j = i; j > 0 && model_fields[order[j]].descent < model_fields[order[j - 1]].descent; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    return nf;
}

/* Coordinate descent: each field's candidates counted at once, then taken
 * in order when better than the best so far, as one at a time would. */
static size_t descend(model_params *cur, infer_count *fc, const uint64_t *nans, int nnans)
{
    const infer_target *t = fc->t;
    model_params *v = malloc(MAXV * sizeof *v);
    size_t *sc = malloc(MAXV * sizeof *sc), best = SIZE_MAX;
    if (!v || !sc || infer_count_all(fc, cur, 1, SIZE_MAX, &best)) {
        free(v), free(sc);
        return SIZE_MAX;
    }
    int order[MODEL_FIELDS_MAX];
    int norder = descent_order(order);
    for (int sweep = 0; sweep < 8 && best > 0; sweep++) {
        bool changed = false;
        for (int oi = 0; oi < norder; oi++) {
            int nv = variants(order[oi], cur, t, nans, nnans, v), nw = 0;
            for (int i = 0; i < nv; i++)   /* cur itself: no move */
                if (!same_params(&v[i], cur))
                    v[nw++] = v[i];
            if (infer_count_all(fc, v, (size_t)nw, best, sc)) {
                best = SIZE_MAX;
                goto out;
            }
            for (int i = 0; i < nw; i++)
                if (sc[i] < best) {
                    best = sc[i];
                    *cur = v[i];
                    changed = true;
                }
        }
        if (!changed)
            break;
    }
out:
    free(v), free(sc);
    return best;
}

/* Joint search of two fields when single moves are stuck: every pair of
 * candidates counted at once, then taken in order as one at a time would. */
static size_t joint(model_params *cur, size_t best, int f1, int f2, infer_count *fc, const uint64_t *nans,
                    int nnans)
{
    const infer_target *t = fc->t;
    model_params *v1 = malloc(MAXV * sizeof *v1), *w = malloc((size_t)MAXV * MAXV * sizeof *w);
    size_t *sc = malloc((size_t)MAXV * MAXV * sizeof *sc), nw = 0;
    if (v1 && w && sc) {
        int n1 = variants(f1, cur, t, nans, nnans, v1);
        for (int i = 0; i < n1; i++)
            nw += (size_t)variants(f2, &v1[i], t, nans, nnans, w + nw);
        if (infer_count_all(fc, w, nw, best, sc) == 0)
            for (size_t q = 0; q < nw && best > 0; q++)
                if (sc[q] < best) {
                    best = sc[q];
                    *cur = w[q];
                }
    }
    free(v1), free(w), free(sc);
    return best;
}

/* Descends from p over the cases, then pairs of fields when single moves are
 * stuck; returns p's mismatches. */
static size_t fit_from(model_params *p, infer_count *fc, const uint64_t *nans, int nnans)
{
    static const char *const pairs[][2] = {
        {"align_bits", "align_round"}, {"align_bits", "acc"},       {"block", "align_bits"},
        {"block", "c_mode"},           {"acc", "out_round"},        {"align_bits", "align_exp"},
        {"align_bits", "align_ref"},   {"block", "acc"},            {"c_mode", "c_round"},
        {"acc", "acc_overflow"},       {"align_ref", "acc"},        {"block", "step_split"}};
    size_t b = descend(p, fc, nans, nnans);
    for (int round = 0; round < 2 && b > 0 && b != SIZE_MAX; round++) {
        for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0] && b > 0; pi++) {
            int f1 = model_field_find(pairs[pi][0]), f2 = model_field_find(pairs[pi][1]);
            assert(f1 >= 0 && f2 >= 0);   /* the keys above are rows of the table */
            b = joint(p, b, f1, f2, fc, nans, nnans);
        }
        b = descend(p, fc, nans, nnans);
    }
    return b;
}

/* Every field's evidence: each other candidate value (the rest of the fit
 * as it is) counted over all of fc's cases (one batch a field, exact: the
 * GPU's where fc counts there), and for one that gets some wrong, the first
 * of those cases and its predictions there. -1 when a count failed
 * (fc->err). */
static int fill_evidence(infer_result *r, infer_count *fc, const uint64_t *nans, int nnans)
{
    const infer_target *t = fc->t;
    int nf = model_field_count();
    r->ev = calloc((size_t)nf, sizeof *r->ev);
    if (!r->ev)
        return 0;
    r->nev = (size_t)nf;
    model_params *v = malloc(MAXV * sizeof *v);
    size_t *bad = malloc(MAXV * sizeof *bad);
    int rc = 0;
    for (int fi = 0; v && bad && fi < nf && rc == 0; fi++) {
        infer_evidence *e = &r->ev[fi];
        e->field = model_fields[fi].key;
        model_field_text(&r->params, fi, e->value, sizeof e->value);
        e->identifiable = true;
        int nv = variants(fi, &r->params, t, nans, nnans, v);
        if ((rc = infer_count_all(fc, v, (size_t)nv, SIZE_MAX, bad)) != 0)
            break;
        for (int i = 0; i < nv && e->nrejected < INFER_MAX_ALTS; i++) {
            char val[64];
            model_field_text(&v[i], fi, val, sizeof val);
            if (!strcmp(val, e->value) || same_params(&v[i], &r->params))
                continue;
            infer_rejected *rj = &e->rejected[e->nrejected];
            if (bad[i] == SIZE_MAX)
                continue;   /* not a model at all with the other fields as they are */
            if (bad[i] == 0) {
                if (e->identifiable)
                    e->equivalent[0] = '\0';
                e->identifiable = false;
                size_t L = strlen(e->equivalent);
                snprintf(e->equivalent + L, sizeof e->equivalent - L, "%s%s", L ? ", " : "", val);
                continue;
            }
            snprintf(rj->value, sizeof rj->value, "%s", val);
            rj->ncontradicted = bad[i];
            /* the contradicting cases and the predictions there */
            char err[160];
            model *m = model_new(&v[i], t->f, err, sizeof err);
            size_t first[INFER_MAX_REFS];
            rj->nrefs = m ? first_refs(m, r->cases, r->ncases, INFER_MAX_REFS, first) : 0;
            for (int q = 0; q < rj->nrefs; q++) {
                rj->ref_case[q] = first[q];
                const infer_case *c = &r->cases[first[q]];
                rj->ref_pred[q] = model_dot(m, c->k, c->a, c->b, c->c);
            }
            model_free(m);
            e->nrejected++;
        }
    }
    free(v), free(bad);
    return rc;
}

static double val_of(const tc_format *f, uint64_t bits)
{
    return tc_decode_to_f64(f, bits);
}

/* Determinism, order dependence and monotonicity: answers beyond the fit. */
static int behaviours(infer_result *r, const infer_target *t, char *err, size_t errlen)
{
    /* repeat every case */
    infer_case *rep = malloc(r->ncases * sizeof *rep);
    if (!rep)
        return -1;
    memcpy(rep, r->cases, r->ncases * sizeof *rep);
    if (infer_run_cases(t, rep, r->ncases, err, errlen)) {
        free(rep);
        return -1;
    }
    for (size_t i = 0; i < r->ncases; i++)
        r->nondeterministic += rep[i].d != r->cases[i].d;
    r->deterministic = r->nondeterministic == 0;
    free(rep);
    /* reversed and rotated terms of the random cases; raised first product */
    cset s = {0};
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    size_t nrand = 0;
    for (size_t i = 0; i < r->ncases && nrand < 512; i++) {
        const infer_case *c = &r->cases[i];
        if (strcmp(c->family, "random") != 0)
            continue;
        nrand++;
        for (int q = 0; q < c->k; q++) {
            a[q] = c->a[c->k - 1 - q];
            b[q] = c->b[c->k - 1 - q];
        }
        if (cset_add_bits(&s, "order", c->k, a, b, c->c))
            goto oom;
        for (int q = 0; q < c->k; q++) {
            a[q] = c->a[(q + 1) % c->k];
            b[q] = c->b[(q + 1) % c->k];
        }
        if (cset_add_bits(&s, "order", c->k, a, b, c->c))
            goto oom;
    }
    size_t norder = s.n;
    /* monotonicity: a positive first product raised by one ulp of A */
    size_t *mono_of = malloc((r->ncases + 1) * sizeof *mono_of);
    if (!mono_of)
        goto oom;
    size_t nmono = 0;
    for (size_t i = 0; i < r->ncases && nmono < 512; i++) {
        const infer_case *c = &r->cases[i];
        if (strcmp(c->family, "random") != 0 || tc_classify(t->f.d, c->d) != TC_FINITE)
            continue;
        double av = val_of(t->f.a, c->a[0]), bv = val_of(t->f.b, c->b[0]);
        if (!(av > 0 && bv > 0) || !isfinite(av) || !isfinite(bv))
            continue;
        memcpy(a, c->a, (size_t)c->k * sizeof *a);
        a[0] = c->a[0] + (1ull << t->f.a->shift);
        if (tc_classify(t->f.a, a[0]) != TC_FINITE)
            continue;
        if (cset_add_bits(&s, "monotone", c->k, a, c->b, c->c))
            goto oom2;
        mono_of[nmono++] = i;
    }
    if (infer_run_cases(t, s.v, s.n, err, errlen)) {
        free(mono_of);
        cset_free(&s);
        return -1;
    }
    size_t oi = 0;
    for (size_t i = 0; i < r->ncases && oi < norder; i++) {
        const infer_case *c = &r->cases[i];
        if (strcmp(c->family, "random") != 0)
            continue;
        for (int q = 0; q < 2 && oi < norder; q++, oi++) {
            r->order_cases++;
            r->order_changed += s.v[oi].d != c->d;
        }
    }
    r->order_independent = r->order_changed == 0;
    for (size_t q = 0; q < nmono; q++) {
        double before = val_of(t->f.d, r->cases[mono_of[q]].d), after = val_of(t->f.d, s.v[norder + q].d);
        r->monotone_cases++;
        r->monotone_violations += after < before;
    }
    r->monotone = r->monotone_violations == 0;
    free(mono_of);
    cset_free(&s);
    return 0;
oom2:
    free(mono_of);
oom:
    cset_free(&s);
    snprintf(err, errlen, "infer: out of memory");
    return -1;
}

int infer_fingerprint(const infer_target *t, infer_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (t->k < 1 || t->k > INFER_KMAX) {
        snprintf(err, errlen, "infer: K=%d outside 1..%d", t->k, INFER_KMAX);
        return -1;
    }
    tc_rounding r0 = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params probe = model_params_exact(t->f, r0);
    model *mp = model_new(&probe, t->f, err, errlen);
    if (!mp)
        return -1;
    model_free(mp);
    cset s = {0};
    if (infer_build_cases(t, &s)) {
        cset_free(&s);
        snprintf(err, errlen, "infer: out of memory");
        return -1;
    }
    if (infer_run_cases(t, s.v, s.n, err, errlen)) {
        cset_free(&s);
        return -1;
    }
    for (size_t i = 0; i < t->nextra; i++) {
        const infer_case *x = &t->extra[i];
        if (cset_add_bits(&s, "counterexample", x->k, x->a, x->b, x->c)) {
            cset_free(&s);
            snprintf(err, errlen, "infer: out of memory");
            return -1;
        }
        s.v[s.n - 1].d = x->d;
    }
    out->cases = s.v;
    out->ncases = s.n;
    out->nextra = t->nextra;
    /* NaN patterns seen in the answers */
    uint64_t nans[8];
    int nnans = 0;
    for (size_t i = 0; i < s.n && nnans < 8; i++) {
        if (tc_classify(t->f.d, s.v[i].d) != TC_NAN)
            continue;
        bool seen = false;
        for (int j = 0; j < nnans; j++)
            seen |= nans[j] == s.v[i].d;
        if (!seen)
            nans[nnans++] = s.v[i].d;
    }
    /* Several starts (the target's own start when given, then the
     * accumulator in the output format or in f32, one step or short steps);
     * the first that explains every answer wins. */
    uint64_t nan0 = nnans ? nans[0] : t->f.d->nan_bits;
    /* Each start is fitted first without the hunt families' cases, then with
     * them: their regions (zeros, the range's edges, payloads) turn few
     * fields, and counted from the start they pull a greedy descent into
     * places it cannot leave (one FP8 mma stuck at 2,400 of 8,600 cases). */
    size_t nhunt = s.hunt_to - s.hunt_from, nbase = s.n - nhunt;
    infer_case *base = nhunt ? malloc(nbase * sizeof *base) : NULL;
    if (nhunt && !base) {
        cset_free(&s);
        snprintf(err, errlen, "infer: out of memory");
        return -1;
    }
    if (base) {
        memcpy(base, s.v, s.hunt_from * sizeof *base);
        memcpy(base + s.hunt_from, s.v + s.hunt_to, (s.n - s.hunt_to) * sizeof *base);
    }
    infer_count fb = {.is_first = NULL}, fa;   /* the cases without the hunt's, and all */
    if ((base && infer_count_init(&fb, t, base, nbase, err, errlen)) || infer_count_init(&fa, t, s.v, s.n, err, errlen)) {
        infer_count_free(&fb);
        free(base);
        cset_free(&s);
        return -1;
    }
    model_params cur = start_params(t, nan0);
    size_t best = SIZE_MAX;
    for (int st = t->start ? -1 : 0; st < 4 && best != 0 && !fa.err[0] && !fb.err[0]; st++) {
        model_params p = st < 0 ? *t->start : start_params(t, nan0);
        if (st >= 0 && (st & 1)) {
            p.acc_fmt = tc_f32;
            p.acc_round = TC_RZ;
            p.align_bits = 24;
        }
        if (st >= 0 && (st & 2))
            p.block = t->k >= 4 ? 4 : t->k;
        if (base)
            fit_from(&p, &fb, nans, nnans);
        size_t b = fit_from(&p, &fa, nans, nnans);
        if (b < best) {
            best = b;
            cur = p;
        }
    }
    out->params = cur;
    out->mismatches = best;
    if (!fa.err[0] && !fb.err[0])
        fill_evidence(out, &fa, nans, nnans);
    out->evals_gpu = fa.evals_gpu + fb.evals_gpu;
    out->evals_cpu = fa.evals_cpu + fb.evals_cpu;
    char failed[sizeof fa.err];
    snprintf(failed, sizeof failed, "%s", fa.err[0] ? fa.err : fb.err);
    infer_count_free(&fb);
    infer_count_free(&fa);
    free(base);
    if (failed[0]) {   /* a count failed (the GPU, or memory): no fit to offer */
        snprintf(err, errlen, "%s", failed);
        infer_result_free(out);
        return -1;
    }
    if (behaviours(out, t, err, errlen)) {
        infer_result_free(out);
        return -1;
    }
    return 0;
}

void infer_result_free(infer_result *r)
{
    cset s = {.v = r->cases, .n = r->ncases, .cap = r->ncases};
    cset_free(&s);
    free(r->ev);
    memset(r, 0, sizeof *r);
}
