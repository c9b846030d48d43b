/* audit: fit, prove, ask the feature questions; the result as data (reports/record_audit.c writes it). */
#include "cases/audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model.h"

#include "cases/casefile.h"
#include "cases/features.h"
#include "cases/infer_internal.h"
#include "probes/sparse.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "probes/clock.h"

/* A sparse instruction computes a dot of K/2 terms: the audit's tiles are
 * those compressed dots (A m x K/2, B K/2 x n), spread here into the
 * logical 2:4 tiles the backend takes, zeros at the positions not kept. */
static int run_sparse(audit_backend_ctx *c, size_t ntiles, const uint64_t *A, const uint64_t *B,
                      const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    const tc_instr *ins = c->ins;
    int m = ins->m, n = ins->n, k = ins->k, kc = k / 2, group, keep;
    /* Compressed position q sits at the first `keep` of every group (2 of 4,
     * 1 of 2 for tf32): always the lowest positions, so the backend's choice
     * of kept positions (the nonzeros, then the lowest free ones) gives
     * exactly these whatever the values, zeros included. */
    tc_sparse_ratio(ins, &group, &keep);
    uint64_t *LA = calloc(ntiles * (size_t)m * k, sizeof *LA), *LB = calloc(ntiles * (size_t)k * n, sizeof *LB);
    if (!LA || !LB) {
        free(LA);
        free(LB);
        snprintf(err, errlen, "audit: out of memory");
        return -1;
    }
    for (size_t t = 0; t < ntiles; t++)
        for (int q = 0; q < kc; q++) {
            int p = q / keep * group + q % keep;
            for (int i = 0; i < m; i++)
                LA[(t * m + i) * k + p] = A[(t * m + i) * kc + q];
            for (int j = 0; j < n; j++)
                LB[(t * k + p) * n + j] = B[(t * kc + q) * n + j];
        }
    int rc = tc_backend_mma(c->be, ins, ntiles, LA, LB, C, D, err, errlen);
    free(LA);
    free(LB);
    return rc;
}

static int audit_run_tiles(void *ctx, size_t ntiles, const uint64_t *A, const uint64_t *B,
                           const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    audit_backend_ctx *c = ctx;
    if (c->ins->sparse)
        return run_sparse(c, ntiles, A, B, C, D, err, errlen);
    return tc_backend_mma(c->be, c->ins, ntiles, A, B, C, D, err, errlen);
}

infer_target audit_target(audit_backend_ctx *ctx, uint64_t seed)
{
    infer_target t;
    memset(&t, 0, sizeof t);
    t.m = ctx->ins->m;
    t.n = ctx->ins->n;
    t.k = ctx->ins->sparse ? ctx->ins->k / 2 : ctx->ins->k;   /* the terms a sparse MMA sums */
    t.f.a = ctx->ins->a;
    t.f.b = ctx->ins->b;
    t.f.c = ctx->ins->c;
    t.f.d = ctx->ins->d;
    t.run = audit_run_tiles;
    t.ctx = ctx;
    t.seed = seed;
    return t;
}

uint64_t audit_cases_hash(const infer_case *cs, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t words[2] = {(uint64_t)cs[i].k, cs[i].c};
        for (int w = 0; w < 2 + 2 * cs[i].k; w++) {
            uint64_t x = w < 2 ? words[w] : (w & 1) ? cs[i].b[(w - 2) / 2] : cs[i].a[(w - 2) / 2];
            for (int byte = 0; byte < 8; byte++) {
                h ^= (x >> (8 * byte)) & 0xff;
                h *= 0x100000001b3ull;
            }
        }
    }
    return h;
}

int audit_regen_cases(const tc_instr *ins, uint64_t seed, bool without_hunt, infer_case **cases, size_t *n)
{
    audit_backend_ctx ctx = {NULL, ins};
    infer_target t = audit_target(&ctx, seed);
    t.without_hunt = without_hunt;
    cset s = {0};
    if (infer_build_cases(&t, &s) != 0) {
        cset_free(&s);
        return -1;
    }
    *cases = s.v;
    *n = s.n;
    return 0;
}

static bool bits_of(const json_t *j, uint64_t *v)
{
    const char *s = json_string_value(j);
    char *end;
    if (!s || strncmp(s, "0x", 2) != 0)
        return false;
    *v = strtoull(s + 2, &end, 16);
    return end != s + 2 && *end == '\0';
}

/* The appended counterexamples of an answers object, after the n crafted cases. */
static int append_extra(const json_t *ex, cset *s)
{
    size_t i;
    const json_t *e;
    json_array_foreach(ex, i, e) {
        const json_t *ja = json_object_get(e, "a"), *jb = json_object_get(e, "b");
        size_t k = json_array_size(ja);
        uint64_t a[INFER_KMAX], b[INFER_KMAX], c;
        if (k == 0 || k > INFER_KMAX || json_array_size(jb) != k || !bits_of(json_object_get(e, "c"), &c))
            return -1;
        for (size_t q = 0; q < k; q++)
            if (!bits_of(json_array_get(ja, q), &a[q]) || !bits_of(json_array_get(jb, q), &b[q]))
                return -1;
        if (cset_add_bits(s, "counterexample", (int)k, a, b, c))
            return -1;
    }
    return 0;
}

int audit_given_cases(const json_t *objects, const tc_instr *ins, infer_case **cases, size_t *n, char *err,
                      size_t errlen)
{
    cset s = {0};
    size_t i;
    const json_t *o;
    json_array_foreach(objects, i, o) {
        const char *name = json_string_value(json_object_get(o, "instr"));
        const json_t *f = json_object_get(o, "failures"), *dec = json_object_get(o, "deciding");
        if (!name || strcmp(name, ins->name) || !f)
            continue;
        size_t from = s.n;
        bool ok = json_is_array(f) && append_extra(f, &s) == 0 &&
                  (!dec || (json_is_array(dec) && append_extra(dec, &s) == 0));
        for (size_t q = from; ok && q < s.n; q++)
            for (int kk = 0; kk < s.v[q].k; kk++)
                ok &= !(s.v[q].a[kk] & ~tc_operand_mask(ins->a)) && !(s.v[q].b[kk] & ~tc_operand_mask(ins->b)) &&
                      !(s.v[q].c & ~tc_operand_mask(ins->c));
        if (!ok) {
            cset_free(&s);
            snprintf(err, errlen, "%s: malformed failures (want a, b: arrays of hex bits within the operands, c)",
                     ins->name);
            return -1;
        }
    }
    *cases = s.v;
    *n = s.n;
    return 0;
}

int audit_answer_cases(const tc_instr *ins, const json_t *answers, infer_case **cases, size_t *n,
                       char *err, size_t errlen)
{
    uint64_t seed, hash;
    const char *bits = json_string_value(json_object_get(answers, "bits"));
    size_t count = (size_t)json_integer_value(json_object_get(answers, "count"));
    int digits = (int)json_integer_value(json_object_get(answers, "digits"));
    if (!bits_of(json_object_get(answers, "seed"), &seed) ||
        !bits_of(json_object_get(answers, "inputs_hash"), &hash) || !bits || digits < 1 || digits > 16 ||
        strlen(bits) != count * (size_t)digits) {
        snprintf(err, errlen, "%s: malformed answers object", ins->name);
        return -1;
    }
    infer_case *cs;
    size_t nreg;
    /* records from before the hunt families joined the fit say nothing of them */
    bool without_hunt = !json_is_true(json_object_get(answers, "hunt_families"));
    if (audit_regen_cases(ins, seed, without_hunt, &cs, &nreg) != 0) {
        snprintf(err, errlen, "%s: out of memory", ins->name);
        return -1;
    }
    if (audit_cases_hash(cs, nreg) != hash) {
        audit_cases_free(cs, nreg);
        snprintf(err, errlen, "%s: the case generator no longer gives the recorded inputs", ins->name);
        return -1;
    }
    cset s = {.v = cs, .n = nreg, .cap = nreg};
    const json_t *ex = json_object_get(answers, "extra");
    if ((ex && append_extra(ex, &s) != 0) || s.n != count) {
        size_t got = s.n;
        cset_free(&s);
        snprintf(err, errlen, "%s: %zu answers recorded for %zu cases", ins->name, count, got);
        return -1;
    }
    for (size_t i = 0; i < s.n; i++) {
        char word[17];
        memcpy(word, bits + i * (size_t)digits, (size_t)digits);
        word[digits] = '\0';
        s.v[i].d = strtoull(word, NULL, 16);
    }
    *cases = s.v;
    *n = s.n;
    return 0;
}

void audit_cases_free(infer_case *cases, size_t n)
{
    cset s = {.v = cases, .n = n, .cap = n};
    cset_free(&s);
}

/* The published feature questions, summarised per feature, into out (the
 * summaries point into out->features_cf, kept until audit_result_free). */
static void run_features(tc_backend *be, const tc_instr *ins, audit_result *out)
{
    tc_casefile *cf = &out->features_cf;
    memset(cf, 0, sizeof *cf);
    tc_features_fasi2021(cf);
    const tc_case **sel = malloc((cf->n + 1) * sizeof *sel);
    size_t n = 0;
    for (size_t i = 0; sel && i < cf->n; i++)
        if (tc_case_applies(&cf->cases[i], ins))
            sel[n++] = &cf->cases[i];
    tc_case_result *res = calloc(n + 1, sizeof *res);
    out->features = calloc(TC_FEATURE_MAX_LABELS, sizeof *out->features);
    if (!sel || !res || !out->features)
        snprintf(out->features_err, sizeof out->features_err, "out of memory");
    else if (n == 0 || tc_cases_run(be, ins, sel, n, res, out->features_err, sizeof out->features_err) == 0) {
        out->nfeatures = tc_features_summarize(res, n, out->features, TC_FEATURE_MAX_LABELS);
        out->features_ok = true;
    }
    free(res);
    free(sel);
}

static uint64_t splitmix(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Random operands for the control: every integer pattern; f64 values with a
 * spread of exponents (uniform f64 bits are mostly astronomically far apart). */
static uint64_t control_operand(const tc_format *f, uint64_t *st)
{
    uint64_t r = splitmix(st);
    if (f->specials == TC_SPECIALS_INT)
        return r & tc_format_mask(f);
    uint64_t exp = (uint64_t)(f->bias - 30 + (int)(r % 61)) << f->mbits;
    uint64_t frac = (r >> 8) & ((1ull << f->mbits) - 1);
    return (r >> 63) << (f->ebits + f->mbits) | exp | frac;
}

/* Notes where one overflow candidate (saturate or wrap) differs from the
 * hardware in this chunk: counts all, keeps the first (audit_miss). */
static void ctl_note(audit_miss *m, const tc_instr *ins, size_t base, size_t nc, const uint64_t *A,
                     const uint64_t *B, const uint64_t *C, const uint64_t *D, const uint64_t *P)
{
    size_t per = (size_t)ins->m * ins->n;
    for (size_t o = 0; o < nc; o++) {
        if (D[o] == P[o] || m->count++ > 0)
            continue;
        size_t t = o / per, i = o % per / ins->n, j = o % ins->n;
        m->first = base + o;
        for (int kk = 0; kk < ins->k; kk++) {
            m->a[kk] = A[(t * ins->m + i) * ins->k + kk];
            m->b[kk] = B[(t * ins->k + kk) * ins->n + j];
        }
        m->c = C[o], m->hw = D[o], m->pred = P[o];
    }
}

/* splitmix64 state before draw number `draw`: the state moves by a constant,
 * so a chunk of operands is the same whatever the chunk size. */
static uint64_t ctl_state(uint64_t seed, size_t draw)
{
    return seed + (uint64_t)draw * 0x9e3779b97f4a7c15ull;
}

/* Tiles per chunk of the control: about 2^16 outputs, so that its memory
 * (about 8 * (M*K + K*N + 5*M*N) bytes a tile) stays under 64 MB whatever
 * the count asked for. */
#define CTL_CHUNK_ELEMENTS 65536

/* Integer instructions are outside the floating-point model: the exact
 * integer sum is checked against the hardware, with the two overflow
 * behaviours an s32 accumulator can have (saturate, as the exact oracle
 * rounds, or wrap modulo 2^32) as candidates; the one the answers agree
 * with is the fingerprint, and the other is rejected with its first case.
 * Operands: A's draws, then B's, then C's, from one splitmix stream. No
 * hunt family applies to integers, so the hunt's budget is spent here too:
 * N + 11 * H elements, the budget of every floating-point instruction. */
static int run_control(tc_backend *be, const tc_instr *ins, const audit_opts *o,
                         audit_result *out, char *err, size_t errlen)
{
    size_t want = o->verify_n + (size_t)HUNT_NFAMILIES * o->hunt_n;
    size_t per = (size_t)ins->m * ins->n, ntiles = (want + per - 1) / per;
    size_t ta = (size_t)ins->m * ins->k, tb = (size_t)ins->k * ins->n;
    size_t chunk = CTL_CHUNK_ELEMENTS / per ? CTL_CHUNK_ELEMENTS / per : 1;
    if (chunk > ntiles)
        chunk = ntiles;
    if (o->verify_n > AUDIT_MAX_N || ntiles == 0) {
        snprintf(err, errlen, "audit: %zu elements asked; the proof takes 1..%llu", o->verify_n,
                 AUDIT_MAX_N);
        return -1;
    }
    uint64_t *A = malloc(chunk * ta * 8), *B = malloc(chunk * tb * 8), *C = malloc(chunk * per * 8),
             *D = malloc(chunk * per * 8), *E = malloc(chunk * per * 8), *W = malloc(chunk * per * 8);
    audit_miss sat = {0, SIZE_MAX, calloc((size_t)ins->k, 8), calloc((size_t)ins->k, 8), 0, 0, 0};
    audit_miss wrp = {0, SIZE_MAX, calloc((size_t)ins->k, 8), calloc((size_t)ins->k, 8), 0, 0, 0};
    int rc = 0;
    if (!A || !B || !C || !D || !E || !W || !sat.a || !sat.b || !wrp.a || !wrp.b) {
        snprintf(err, errlen, "audit: out of memory");
        rc = -1;
    }
    size_t na = ntiles * ta, nb = ntiles * tb, nc = ntiles * per;
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    bool ints = false;
    for (size_t done = 0; rc == 0 && done < ntiles; done += chunk) {
        size_t nt = ntiles - done < chunk ? ntiles - done : chunk;
        uint64_t sa = ctl_state(o->seed, done * ta), sb = ctl_state(o->seed, na + done * tb),
                 sc = ctl_state(o->seed, na + nb + done * per);
        for (size_t i = 0; i < nt * ta; i++)
            A[i] = control_operand(ins->a, &sa);
        for (size_t i = 0; i < nt * tb; i++)
            B[i] = control_operand(ins->b, &sb);
        for (size_t i = 0; i < nt * per; i++) {
            size_t g = done * per + i; /* the element's index in the whole proof */
            C[i] = control_operand(ins->c, &sc);
            /* every 16th accumulator next to the s32 limits, so that sums cross them */
            if (ins->c->specials == TC_SPECIALS_INT && g % 16 == 0)
                C[i] = (g % 32 ? 0x7FFFFF00u : 0x80000000u) + (C[i] & 0xFF);
        }
        rc = tc_backend_mma(be, ins, nt, A, B, C, D, err, errlen);
        if (rc != 0)
            break;
        /* both overflow candidates from one exact int64 sum; the general
         * oracle (saturating only) where the formats are not small integers */
        ints = oracle_mma_int(f, ins->m, ins->n, ins->k, nt, A, B, C, E, W) == 0;
        if (!ints)
            oracle_mma_exact(f, ins->m, ins->n, ins->k, nt, A, B, C, E, rne);
        ctl_note(&sat, ins, done * per, nt * per, A, B, C, D, E);
        if (ints)
            ctl_note(&wrp, ins, done * per, nt * per, A, B, C, D, W);
    }
    if (rc == 0) {
        if (!ints) /* wrapping is a candidate for integers only */
            wrp.count = SIZE_MAX, wrp.first = SIZE_MAX;
        bool wrap = wrp.count < sat.count;
        out->ctl = (audit_control){wrap, nc, sat, wrp};
        sat.a = sat.b = wrp.a = wrp.b = NULL;   /* owned by out->ctl now */
        out->proof.n = nc;
        out->proof.mismatches = wrap ? wrp.count : sat.count;
        out->control = true;
    }
    free(A), free(B), free(C), free(D), free(E), free(W);
    free(sat.a), free(sat.b), free(wrp.a), free(wrp.b);
    return rc;
}

#define REFIT_ROUNDS 3

static void free_cases(infer_case *cs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(cs[i].a);
        free(cs[i].b);
    }
}

/* A deep copy of c's inputs and answer into x; -1 when out of memory. */
static int copy_case(infer_case *x, const infer_case *c)
{
    *x = *c;
    x->a = malloc((size_t)c->k * sizeof *x->a);
    x->b = malloc((size_t)c->k * sizeof *x->b);
    if (!x->a || !x->b) {
        free(x->a);
        free(x->b);
        x->a = x->b = NULL;
        return -1;
    }
    memcpy(x->a, c->a, (size_t)c->k * sizeof *x->a);
    memcpy(x->b, c->b, (size_t)c->k * sizeof *x->b);
    return 0;
}

/* A proof that fails names its smallest failing inputs with the hardware's
 * answers: they join the fit as counterexamples and the fit and the proof
 * run again, up to REFIT_ROUNDS times (the crafted cases cannot foresee
 * every way two near-equivalent fingerprints part). Returns the rounds run,
 * or -1 with err. */
static int refit_on_counterexamples(infer_target *t, const audit_opts *o, audit_result *out,
                                    infer_case *extra, size_t nextra, char *err, size_t errlen)
{
    int round = 0;
    for (; round < REFIT_ROUNDS && out->proof.mismatches > 0 && out->proof.nfails > 0; round++) {
        for (size_t i = 0; i < out->proof.nfails; i++)
            if (copy_case(&extra[nextra++], &out->proof.fails[i].c)) {
                snprintf(err, errlen, "audit: out of memory");
                return -1;
            }
        t->extra = extra;
        t->nextra = nextra;
        model_params last = out->fit.params;
        t->start = &last;
        infer_result fit;
        verify_result proof;
        double t0 = tc_now_s();
        if (infer_fingerprint(t, &fit, err, errlen) != 0)
            return -1;
        double fit_s = out->fit_s + tc_now_s() - t0;
        /* a fresh seed per round: the proof of a refit must not reuse the
         * draws whose failures it was fitted to */
        uint64_t seed = (o->seed ? o->seed : 1) + 0x5EED0000ull * (uint64_t)(round + 1);
        if (verify_run(t, &fit.params, o->verify_n, o->hunt_n, seed, &proof, err, errlen) != 0) {
            infer_result_free(&fit);
            return -1;
        }
        fit.evals_gpu += out->fit.evals_gpu;   /* every fit's evaluations, as fit_s its seconds */
        fit.evals_cpu += out->fit.evals_cpu;
        infer_result_free(&out->fit);
        verify_result_free(&out->proof);
        out->fit = fit;
        out->proof = proof;
        out->fit_s = fit_s;
    }
    t->start = NULL;
    return round;
}

/* The given inputs with this backend's answers (what another run recorded
 * is only a pointer to where to look). 0, or -1 with err. */
static int ask_given(const infer_target *t, const audit_opts *o, infer_case *extra, char *err, size_t errlen)
{
    for (size_t i = 0; i < o->ngiven; i++) {
        if (o->given[i].k != t->k) {
            snprintf(err, errlen, "audit: a given counterexample has %d terms, the instruction sums %d", o->given[i].k,
                     t->k);
            return -1;
        }
        if (copy_case(&extra[i], &o->given[i])) {
            snprintf(err, errlen, "audit: out of memory");
            return -1;
        }
        extra[i].family = "counterexample";
    }
    return o->ngiven ? infer_run_cases(t, extra, o->ngiven, err, errlen) : 0;
}

bool audit_is_control(const tc_instr *ins)
{
    oracle_formats fm = {ins->a, ins->b, ins->c, ins->d};
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params exact = model_params_exact(fm, rne);
    char err[160];
    model *probe = model_new(&exact, fm, err, sizeof err);
    bool control = probe == NULL;
    model_free(probe);
    return control;
}

int audit_instr(tc_backend *be, const tc_instr *ins, const audit_opts *o, audit_result *out,
                char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->ins = ins;
    if (audit_is_control(ins))
        return run_control(be, ins, o, out, err, errlen);
    audit_backend_ctx ctx = {be, ins};
    infer_target t = audit_target(&ctx, o->seed);
    t.model_run = o->model_run;
    t.model_ctx = o->model_ctx;
    t.fit = o->fit;
    t.fit_ctx = o->fit_ctx;
    t.hunt_run = o->hunt_run;
    t.hunt_ctx = o->hunt_ctx;
    t.random_run = o->random_run;
    t.random_ctx = o->random_ctx;
    /* the counterexamples: the given ones, then each refit round's */
    size_t cap = o->ngiven + REFIT_ROUNDS * VERIFY_MAX_FAILS;
    infer_case *extra = calloc(cap, sizeof *extra);
    if (!extra) {
        snprintf(err, errlen, "audit: out of memory");
        return -1;
    }
    int rounds = ask_given(&t, o, extra, err, errlen);
    t.extra = extra;
    t.nextra = o->ngiven;
    double t0 = tc_now_s();
    if (rounds == 0 && infer_fingerprint(&t, &out->fit, err, errlen) != 0)
        rounds = -2;
    out->fit_s = tc_now_s() - t0;
    if (rounds == 0 &&
        verify_run(&t, &out->fit.params, o->verify_n, o->hunt_n, o->seed, &out->proof, err, errlen) != 0) {
        infer_result_free(&out->fit);
        rounds = -2;
    }
    if (rounds == 0)
        rounds = refit_on_counterexamples(&t, o, out, extra, o->ngiven, err, errlen);
    if (rounds == -1) {
        infer_result_free(&out->fit);
        verify_result_free(&out->proof);
    }
    free_cases(extra, cap);
    free(extra);
    if (rounds < 0)
        return -1;
    out->counterexample_rounds = rounds;
    out->keep_cases = o->keep_cases;
    out->seed = o->seed;
    run_features(be, ins, out);
    return 0;
}

void audit_result_free(audit_result *r)
{
    if (!r->control) {
        infer_result_free(&r->fit);
        verify_result_free(&r->proof);
        tc_casefile_free(&r->features_cf);
    }
    free(r->features);
    free(r->ctl.sat.a), free(r->ctl.sat.b), free(r->ctl.wrp.a), free(r->ctl.wrp.b);
    memset(r, 0, sizeof *r);
}
