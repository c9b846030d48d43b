/* infer: fitting model_params to a target's answers (see infer.h).
 *
 * Each field has a short list of candidate values (all the values the
 * parameter could take that change anything for these formats and K). A
 * candidate's score is the number of crafted answers it gets wrong; the fit
 * is coordinate descent over the fields from a neutral start, repeated until
 * no field changes, followed by a joint search over the pairs of fields that
 * interact most (alignment width x shifted-bit rounding x accumulator). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/infer.h"
#include "cases/infer_internal.h"
#include "oracle/profile.h"

enum {
    F_A_CONVERT, F_B_CONVERT, F_A_FTZ, F_B_FTZ, F_C_FTZ, F_PRODUCTS, F_FLUSH, F_BLOCK, F_C_MODE,
    F_C_ROUND, F_ALIGN_REF, F_ALIGN_EXP, F_ALIGN_BITS, F_ALIGN_ROUND, F_CARRY, F_ACC, F_ACC_FTZ,
    F_OUT_ROUND, F_OUT_OVF, F_OUT_FTZ, F_NAN, F_ACC_OVF, F_SPLIT, F_NAN_PROP, F_ZERO_SIGN, F_DROPPED_NAN,
    F_ALIGN_FLOOR, F_COUNT
};

#define MAXV 96

static const tc_round dirs[] = {TC_RNE, TC_RZ, TC_RD, TC_RU};

static void add_cvt(model_params *out, int *n, const model_params *cur, int w, bool convert,
                    const tc_format *f, tc_round r)
{
    model_params p = *cur;
    model_cvt *c = w ? &p.cvt_b : &p.cvt_a;
    c->convert = convert;
    if (convert) {
        c->fmt = *f;
        c->round = r;
    } else {
        memset(&c->fmt, 0, sizeof c->fmt);
        c->round = TC_RNE;
    }
    out[(*n)++] = p;
}

/* Candidate values of field fi, each as cur with that field changed. */
static int variants(int fi, const model_params *cur, const infer_target *t, const uint64_t *nans,
                    int nnans, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    const oracle_formats *f = &t->f;
    int pa = f->a->mbits + 1, pb = f->b->mbits + 1;
    switch (fi) {
    case F_A_CONVERT:
    case F_B_CONVERT: {
        int w = fi == F_B_CONVERT;
        const tc_format *x = w ? f->b : f->a;
        add_cvt(out, &n, cur, w, false, NULL, TC_RNE);
        if (x->shift > 0) {
            add_cvt(out, &n, cur, w, true, x, TC_RZ);
            add_cvt(out, &n, cur, w, true, x, TC_RNE);
            add_cvt(out, &n, cur, w, true, x, TC_RNA);
        } else if (x->mbits <= 3) {
            add_cvt(out, &n, cur, w, true, &tc_f16, TC_RNE);
        }
        break;
    }
    case F_A_FTZ: p.ftz_a = false; out[n++] = p; p.ftz_a = true; out[n++] = p; break;
    case F_B_FTZ: p.ftz_b = false; out[n++] = p; p.ftz_b = true; out[n++] = p; break;
    case F_C_FTZ: p.ftz_c = false; out[n++] = p; p.ftz_c = true; out[n++] = p; break;
    case F_ACC_OVF: p.acc_ovf_inf = false; out[n++] = p; p.acc_ovf_inf = true; out[n++] = p; break;
    case F_ACC_FTZ: p.ftz_acc = false; out[n++] = p; p.ftz_acc = true; out[n++] = p; break;
    case F_OUT_FTZ: p.ftz_out = false; out[n++] = p; p.ftz_out = true; out[n++] = p; break;
    case F_PRODUCTS: {
        p.prod_bits = MODEL_EXACT;
        p.prod_round = TC_RNE;
        out[n++] = p;
        int bits[4] = {pa + pb - 2, pa + pb - 3, f->d->mbits + 1, f->d->mbits + 2};
        for (int i = 0; i < 4; i++) {
            if (bits[i] < 2 || bits[i] >= pa + pb)
                continue;
            bool dup = false;
            for (int j = 0; j < i; j++)
                dup |= bits[j] == bits[i];
            if (dup)
                continue;
            p.prod_bits = bits[i];
            p.prod_round = TC_RZ;
            out[n++] = p;
            p.prod_round = TC_RNE;
            out[n++] = p;
        }
        break;
    }
    case F_FLUSH: {
        int th[5] = {MODEL_NO_FLUSH, tc_format_emin(f->d), tc_format_emin(&tc_f32), tc_format_emin(f->c),
                     tc_format_emin(f->a) + tc_format_emin(f->b)};
        for (int i = 0; i < 5; i++) {
            bool dup = false;
            for (int j = 0; j < i; j++)
                dup |= th[j] == th[i];
            if (dup)
                continue;
            p.prod_flush_exp = th[i];
            out[n++] = p;
        }
        break;
    }
    case F_BLOCK:   /* powers of two and the divisors of K (up to 64 candidates) */
        for (int b = 1; b <= t->k && n < 64; b++) {
            if ((b & (b - 1)) && t->k % b)
                continue;
            p.block = b;
            out[n++] = p;
        }
        if (p.block != t->k) {
            p.block = t->k;
            out[n++] = p;
        }
        break;
    case F_ZERO_SIGN: p.zero_positive = false; out[n++] = p; p.zero_positive = true; out[n++] = p; break;
    case F_DROPPED_NAN: p.dropped_nan_inf = false; out[n++] = p; p.dropped_nan_inf = true; out[n++] = p; break;
    case F_ALIGN_FLOOR:   /* none, or a floor from D's smallest normal exponent down 40 binades */
        p.floored = false;
        p.align_floor = 0;
        out[n++] = p;
        p.floored = true;
        for (int j = 0; j <= 40; j++) {
            p.align_floor = tc_format_emin(f->d) - j;
            out[n++] = p;
        }
        break;
    case F_NAN_PROP:   /* only wide operands can carry payloads: the rest are unusable */
        for (int i = MODEL_NAN_CANONICAL; i < MODEL_NAN_ORDERS; i++) {
            p.nan_prop = (model_nan_prop)i;
            out[n++] = p;
        }
        break;
    case F_SPLIT:   /* contiguous, or runs of a power of two dealt over the steps */
        p.split_runs = 0;
        out[n++] = p;
        if (t->k / p.block >= 2)
            for (int g = 1; g < p.block; g *= 2) {
                if (p.block % g)
                    continue;
                p.split_runs = g;
                out[n++] = p;
            }
        break;
    case F_C_MODE: p.c_mode = MODEL_C_FIRST; out[n++] = p; p.c_mode = MODEL_C_LAST; out[n++] = p; break;
    case F_C_ROUND:
        for (int i = 0; i < 4; i++) {
            p.c_round = dirs[i];
            out[n++] = p;
        }
        break;
    case F_ALIGN_REF: p.align_with_acc = true; out[n++] = p; p.align_with_acc = false; out[n++] = p; break;
    case F_ALIGN_EXP: p.exp_ref = MODEL_EXP_NORMALIZED; out[n++] = p; p.exp_ref = MODEL_EXP_NOMINAL; out[n++] = p; break;
    case F_ALIGN_BITS:
        for (int b = 0; b <= 64; b++) {
            p.align_bits = b;
            out[n++] = p;
        }
        for (int b = 72; b <= 160; b += 8) {
            p.align_bits = b;
            out[n++] = p;
        }
        p.align_bits = MODEL_EXACT;
        out[n++] = p;
        break;
    case F_ALIGN_ROUND:
        for (int i = 0; i < 3; i++) {
            p.align_round = (model_align_round)i;
            out[n++] = p;
        }
        break;
    case F_CARRY:
        p.carry_bits = MODEL_UNLIMITED;
        out[n++] = p;
        for (int c = 1; c <= 5; c++) {
            p.carry_bits = c;
            out[n++] = p;
        }
        break;
    case F_ACC: {
        p.acc_exact = true;
        out[n++] = p;
        const tc_format *fs[2] = {f->d, &tc_f32};
        for (int i = 0; i < 2; i++) {
            if (i == 1 && f->d->ebits == 8 && f->d->mbits == 23)
                break;
            for (int r = 0; r < 4; r++) {
                p.acc_exact = false;
                p.acc_fmt = *fs[i];
                p.acc_round = dirs[r];
                out[n++] = p;
            }
        }
        /* An f32 result may be held narrower inside the unit (fewer fraction
         * bits, same exponent range): truncated or rounded. */
        static const char *const narrow[] = {"e8m10", "e8m11", "e8m12", "e8m13", "e8m14", "e8m15",
                                             "e8m16", "e8m17", "e8m18", "e8m19", "e8m20", "e8m21",
                                             "e8m22"};
        if (f->d->ebits == 8 && f->d->mbits == 23)
            for (size_t i = 0; i < sizeof narrow / sizeof narrow[0]; i++)
                for (int r = 0; r < 2; r++) {
                    tc_format scratch;
                    p.acc_exact = false;
                    p.acc_fmt = *tc_format_by_name(narrow[i], &scratch);
                    p.acc_round = r ? TC_RNE : TC_RZ;
                    out[n++] = p;
                }
        break;
    }
    case F_OUT_ROUND:
        for (int i = 0; i < 4; i++) {
            p.out_round = dirs[i];
            out[n++] = p;
        }
        break;
    case F_OUT_OVF: p.out_ovf = TC_OVF_INF; out[n++] = p; p.out_ovf = TC_OVF_SAT; out[n++] = p; break;
    case F_NAN:
        p.nan_bits = f->d->nan_bits;
        out[n++] = p;
        for (int i = 0; i < nnans && n < MAXV; i++) {
            if (nans[i] == f->d->nan_bits)
                continue;
            p.nan_bits = nans[i];
            out[n++] = p;
        }
        break;
    }
    return n;
}

/* Answers p gets wrong (stops counting past `limit`); SIZE_MAX if p is unusable. */
static size_t mismatches(const model_params *p, const infer_target *t, const infer_case *cs, size_t n,
                         size_t limit, size_t *first_bad, uint64_t *pred_out)
{
    char err[160];
    model *m = model_new(p, t->f, err, sizeof err);
    if (!m)
        return SIZE_MAX;
    size_t bad = 0;
    for (size_t i = 0; i < n && bad <= limit; i++) {
        uint64_t d = model_dot(m, cs[i].k, cs[i].a, cs[i].b, cs[i].c);
        if (pred_out)
            pred_out[i] = d;
        if (d != cs[i].d) {
            if (first_bad && bad < INFER_MAX_REFS)
                first_bad[bad] = i;
            bad++;
        }
    }
    model_free(m);
    return bad;
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

/* The fields the descent visits, most decisive first. */
static const int order[] = {F_NAN, F_NAN_PROP, F_DROPPED_NAN, F_A_CONVERT, F_B_CONVERT, F_BLOCK, F_SPLIT, F_ALIGN_BITS, F_ACC, F_ALIGN_ROUND,
                            F_C_MODE, F_C_ROUND, F_ALIGN_REF, F_ALIGN_EXP, F_PRODUCTS, F_A_FTZ, F_B_FTZ,
                            F_C_FTZ, F_FLUSH, F_ACC_FTZ, F_OUT_ROUND, F_OUT_FTZ, F_OUT_OVF, F_ACC_OVF, F_CARRY,
                            F_ZERO_SIGN, F_ALIGN_FLOOR};

static size_t descend(model_params *cur, const infer_target *t, const infer_case *cs, size_t n,
                      const uint64_t *nans, int nnans)
{
    model_params *v = malloc(MAXV * sizeof *v);
    if (!v)
        return SIZE_MAX;
    size_t best = mismatches(cur, t, cs, n, SIZE_MAX, NULL, NULL);
    for (int sweep = 0; sweep < 8 && best > 0; sweep++) {
        bool changed = false;
        for (size_t oi = 0; oi < sizeof order / sizeof order[0]; oi++) {
            int nv = variants(order[oi], cur, t, nans, nnans, v);
            for (int i = 0; i < nv; i++) {
                if (same_params(&v[i], cur))
                    continue;
                size_t s = mismatches(&v[i], t, cs, n, best, NULL, NULL);
                if (s < best) {
                    best = s;
                    *cur = v[i];
                    changed = true;
                }
            }
        }
        if (!changed)
            break;
    }
    free(v);
    return best;
}

/* Joint search of two fields when single moves are stuck. */
static size_t joint(model_params *cur, size_t best, int f1, int f2, const infer_target *t,
                    const infer_case *cs, size_t n, const uint64_t *nans, int nnans)
{
    model_params *v1 = malloc(MAXV * sizeof *v1), *v2 = malloc(MAXV * sizeof *v2);
    if (!v1 || !v2) {
        free(v1);
        free(v2);
        return best;
    }
    int n1 = variants(f1, cur, t, nans, nnans, v1);
    for (int i = 0; i < n1 && best > 0; i++) {
        int n2 = variants(f2, &v1[i], t, nans, nnans, v2);
        for (int j = 0; j < n2 && best > 0; j++) {
            size_t s = mismatches(&v2[j], t, cs, n, best, NULL, NULL);
            if (s < best) {
                best = s;
                *cur = v2[j];
            }
        }
    }
    free(v1);
    free(v2);
    return best;
}

/* Descends from p over the cases, then pairs of fields when single moves are
 * stuck; returns p's mismatches. */
static size_t fit_from(model_params *p, const infer_target *t, const infer_case *cs, size_t n,
                       const uint64_t *nans, int nnans)
{
    static const int pairs[][2] = {{F_ALIGN_BITS, F_ALIGN_ROUND}, {F_ALIGN_BITS, F_ACC}, {F_BLOCK, F_ALIGN_BITS},
                                   {F_BLOCK, F_C_MODE}, {F_ACC, F_OUT_ROUND}, {F_ALIGN_BITS, F_ALIGN_EXP},
                                   {F_ALIGN_BITS, F_ALIGN_REF}, {F_BLOCK, F_ACC}, {F_C_MODE, F_C_ROUND},
                                   {F_ACC, F_ACC_OVF}, {F_ALIGN_REF, F_ACC},
                                   {F_BLOCK, F_SPLIT}};
    size_t b = descend(p, t, cs, n, nans, nnans);
    for (int round = 0; round < 2 && b > 0 && b != SIZE_MAX; round++) {
        for (size_t pi = 0; pi < sizeof pairs / sizeof pairs[0] && b > 0; pi++)
            b = joint(p, b, pairs[pi][0], pairs[pi][1], t, cs, n, nans, nnans);
        b = descend(p, t, cs, n, nans, nnans);
    }
    return b;
}

static void fill_evidence(infer_result *r, const infer_target *t, const uint64_t *nans, int nnans)
{
    int nf = profile_field_count();
    r->ev = calloc((size_t)nf, sizeof *r->ev);
    if (!r->ev)
        return;
    r->nev = (size_t)nf;
    model_params *v = malloc(MAXV * sizeof *v);
    if (!v)
        return;
    for (int fi = 0; fi < nf && fi < F_COUNT; fi++) {
        infer_evidence *e = &r->ev[fi];
        e->field = profile_field_key(fi);
        profile_field_text(&r->params, fi, e->value, sizeof e->value);
        e->identifiable = true;
        int nv = variants(fi, &r->params, t, nans, nnans, v);
        for (int i = 0; i < nv && e->nrejected < INFER_MAX_ALTS; i++) {
            char val[64];
            profile_field_text(&v[i], fi, val, sizeof val);
            if (!strcmp(val, e->value) || same_params(&v[i], &r->params))
                continue;
            infer_rejected *rj = &e->rejected[e->nrejected];
            size_t first[INFER_MAX_REFS];
            size_t bad = mismatches(&v[i], t, r->cases, r->ncases, SIZE_MAX, first, NULL);
            if (bad == SIZE_MAX)
                continue;   /* not a model at all with the other fields as they are */
            if (bad == 0) {
                if (e->identifiable)
                    e->equivalent[0] = '\0';
                e->identifiable = false;
                size_t L = strlen(e->equivalent);
                snprintf(e->equivalent + L, sizeof e->equivalent - L, "%s%s", L ? ", " : "", val);
                continue;
            }
            snprintf(rj->value, sizeof rj->value, "%s", val);
            rj->ncontradicted = bad;
            rj->nrefs = bad < INFER_MAX_REFS ? (int)bad : INFER_MAX_REFS;
            /* the predictions at the contradicting cases */
            char err[160];
            model *m = model_new(&v[i], t->f, err, sizeof err);
            for (int q = 0; q < rj->nrefs; q++) {
                rj->ref_case[q] = first[q];
                const infer_case *c = &r->cases[first[q]];
                rj->ref_pred[q] = m ? model_dot(m, c->k, c->a, c->b, c->c) : 0;
            }
            model_free(m);
            e->nrejected++;
        }
    }
    free(v);
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
    model_params cur = start_params(t, nan0);
    size_t best = SIZE_MAX;
    for (int st = t->start ? -1 : 0; st < 4 && best != 0; st++) {
        model_params p = st < 0 ? *t->start : start_params(t, nan0);
        if (st >= 0 && (st & 1)) {
            p.acc_fmt = tc_f32;
            p.acc_round = TC_RZ;
            p.align_bits = 24;
        }
        if (st >= 0 && (st & 2))
            p.block = t->k >= 4 ? 4 : t->k;
        if (base)
            fit_from(&p, t, base, nbase, nans, nnans);
        size_t b = fit_from(&p, t, s.v, s.n, nans, nnans);
        if (b < best) {
            best = b;
            cur = p;
        }
    }
    free(base);
    out->params = cur;
    out->mismatches = best;
    fill_evidence(out, t, nans, nnans);
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
