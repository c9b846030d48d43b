/* decide: deciding inputs by directed search over the model (see decide.h):
 * the pool, the search, the set. The ladder: decide_ladder.c; what answers
 * decide: decide_classify.c. */
#include "cases/decide.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "cases/decide_internal.h"
#include "cases/infer_internal.h"
#include "oracle/model_equiv.h"
#include "oracle/model_fields.h"
#include "oracle/model_ranges.h"

/* ---- the pool: the inference's crafted cases, then a slice of every hunt family ---- */

static int pool_make(const tc_instr *ins, uint64_t seed, size_t per_family, cset *s)
{
    infer_case *cs;
    size_t nc;
    memset(s, 0, sizeof *s);
    if (audit_regen_cases(ins, seed, false, &cs, &nc) != 0)
        return -1;
    s->v = cs;
    s->n = s->cap = nc;
    audit_backend_ctx ctx = {NULL, ins};
    infer_target t = audit_target(&ctx, seed);
    if (!hunt_applies(&t))
        return 0;
    size_t mn = (size_t)t.m * t.n, ntiles = (per_family + mn - 1) / mn;
    uint64_t *A = malloc((size_t)t.m * t.k * 8), *B = malloc((size_t)t.k * t.n * 8), *C = malloc(mn * 8);
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    int rc = A && B && C && t.k <= INFER_KMAX ? 0 : -1;
    for (int fam = 0; rc == 0 && fam < HUNT_NFAMILIES; fam++) {
        uint64_t st = hunt_family_seed(seed, fam);
        size_t taken = 0;
        for (size_t q = 0; rc == 0 && q < ntiles; q++) {
            hunt_fill_tile(&t, fam, &st, A, B, C);
            for (size_t e = 0; rc == 0 && e < mn && taken < per_family; e++, taken++) {
                size_t i = e / (size_t)t.n, j = e % (size_t)t.n;
                for (int x = 0; x < t.k; x++) {
                    a[x] = A[i * (size_t)t.k + (size_t)x];
                    b[x] = B[(size_t)x * t.n + j];
                }
                rc = cset_add_bits(s, hunt_family_name(fam), t.k, a, b, C[e]);
            }
        }
    }
    free(A), free(B), free(C);
    if (rc)
        cset_free(s);
    return rc;
}

int decide_pool_pick(const tc_instr *ins, uint64_t seed, size_t per_family, const size_t *idx, size_t n,
                     infer_case *out, size_t *pool, uint64_t *hash, char *err, size_t errlen)
{
    cset s;
    if (pool_make(ins, seed, per_family, &s) != 0) {
        snprintf(err, errlen, "%s: out of memory", ins->name);
        return -1;
    }
    *pool = s.n;
    *hash = audit_cases_hash(s.v, s.n);
    for (size_t i = 0; i < n; i++) {
        if (idx[i] >= s.n) {
            cset_free(&s);
            snprintf(err, errlen, "%s: input %zu of the pool asked for, which holds %zu", ins->name, idx[i], *pool);
            return -1;
        }
        out[i] = s.v[idx[i]];
        s.v[idx[i]].a = s.v[idx[i]].b = NULL;   /* moved to out */
    }
    cset_free(&s);
    return 0;
}

/* ---- the search ---- */

static uint64_t next(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Flips one random bit of one random operand (within its format's bits). */
static void mutate(const tc_instr *ins, uint64_t *st, int k, uint64_t *a, uint64_t *b, uint64_t *c)
{
    uint64_t r = next(st);
    int which = (int)(r % (uint64_t)(2 * k + 1));
    const tc_format *f = which < k ? ins->a : which < 2 * k ? ins->b : ins->c;
    uint64_t *x = which < k ? &a[which] : which < 2 * k ? &b[which - k] : c, mask = tc_operand_mask(f);
    int nbits = 64 - __builtin_clzll(mask | 1);
    for (int tries = 0; tries < 64; tries++) {
        uint64_t bit = 1ull << (next(st) % (uint64_t)nbits);
        if (mask & bit) {
            *x ^= bit;
            return;
        }
    }
}

typedef struct {
    const tc_instr *ins;
    cset pool;
    uint64_t *dv;          /* v's answers to the pool */
    bool *used;
    size_t *order;         /* pool entries used, in the order they were first needed */
    size_t norder;
    cset ladder;           /* built when a pair first outlives the pool */
    uint64_t *dv_ladder;   /* v's answers to it */
    bool have_ladder;
    cset extra;            /* ladder and mutated inputs that separated a pair */
    uint64_t *dv_extra;
    uint64_t st;
} search;

static bool separated_by_chosen(const search *s, const model *mw)
{
    for (size_t i = 0; i < s->norder; i++) {
        const infer_case *c = &s->pool.v[s->order[i]];
        if (model_dot(mw, c->k, c->a, c->b, c->c) != s->dv[s->order[i]])
            return true;
    }
    for (size_t i = 0; i < s->extra.n; i++) {
        const infer_case *c = &s->extra.v[i];
        if (model_dot(mw, c->k, c->a, c->b, c->c) != s->dv_extra[i])
            return true;
    }
    return false;
}

static bool separated_by_pool(search *s, const model *mw)
{
    for (size_t i = 0; i < s->pool.n; i++) {
        const infer_case *c = &s->pool.v[i];
        if (s->used[i] || model_dot(mw, c->k, c->a, c->b, c->c) == s->dv[i])
            continue;
        s->used[i] = true;
        s->order[s->norder++] = i;
        return true;
    }
    return false;
}

/* Keeps (a, b, c) with v's answer x as a deciding input. 1, or -1 out of memory. */
static int keep_extra(search *s, const char *family, int k, const uint64_t *a, const uint64_t *b, uint64_t c,
                      uint64_t x)
{
    uint64_t *g = realloc(s->dv_extra, (s->extra.n + 1) * sizeof *g);
    if (!g)
        return -1;
    s->dv_extra = g;
    g[s->extra.n] = x;
    return cset_add_bits(&s->extra, family, k, a, b, c) ? -1 : 1;
}

/* 1 found, 0 not, -1 out of memory. */
static int separated_by_ladder(search *s, const model_params *v, const model *mv, const model *mw)
{
    if (!s->have_ladder) {
        s->have_ladder = true;
        if (decide_ladder_make(s->ins, s->pool.n ? s->pool.v[0].k : 0, v, &s->ladder) ||
            !(s->dv_ladder = malloc((s->ladder.n + 1) * sizeof *s->dv_ladder)))
            return -1;
        for (size_t i = 0; i < s->ladder.n; i++) {
            const infer_case *c = &s->ladder.v[i];
            s->dv_ladder[i] = model_dot(mv, c->k, c->a, c->b, c->c);
        }
    }
    for (size_t i = 0; i < s->ladder.n; i++) {
        const infer_case *c = &s->ladder.v[i];
        if (model_dot(mw, c->k, c->a, c->b, c->c) != s->dv_ladder[i])
            return keep_extra(s, "ladder", c->k, c->a, c->b, c->c, s->dv_ladder[i]);
    }
    return 0;
}

/* 1 found, 0 not within the budget, -1 out of memory. */
static int separated_by_mutation(search *s, const model *mv, const model *mw, size_t budget)
{
    uint64_t a[INFER_KMAX], b[INFER_KMAX], c;
    for (size_t j = 0; j < budget && s->pool.n; j++) {
        const infer_case *p = &s->pool.v[next(&s->st) % s->pool.n];
        memcpy(a, p->a, (size_t)p->k * 8);
        memcpy(b, p->b, (size_t)p->k * 8);
        c = p->c;
        int flips = 1 + (int)(next(&s->st) % 3);
        for (int f = 0; f < flips; f++)
            mutate(s->ins, &s->st, p->k, a, b, &c);
        uint64_t x = model_dot(mv, p->k, a, b, c);
        if (model_dot(mw, p->k, a, b, c) != x)
            return keep_extra(s, "mutation", p->k, a, b, c, x);
    }
    return 0;
}

model_field_scope decide_scope(const tc_instr *ins, int k)
{
    model_field_scope sc = {{ins->a, ins->b, ins->c, ins->d}, k, NULL, 0};
    return sc;
}

static int add_open(decide_set *out, int field, const model_params *w, bool equivalent)
{
    decide_open *g = realloc(out->open, (out->nopen + 1) * sizeof *g);
    if (!g)
        return -1;
    out->open = g;
    g[out->nopen].field = field;
    model_field_text(w, field, g[out->nopen].value, sizeof g[out->nopen].value);
    g[out->nopen].equivalent = equivalent;
    out->nopen++;
    return 0;
}

static int cmp_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return a < b ? -1 : a > b;
}

/* The chosen pool entries (ascending) then the mutated ones, into out. */
static int collect(search *s, decide_set *out)
{
    qsort(s->order, s->norder, sizeof *s->order, cmp_size);
    out->npool = s->norder;
    out->ninputs = s->norder + s->extra.n;
    out->from_pool = malloc((s->norder + 1) * sizeof *out->from_pool);
    out->inputs = calloc(out->ninputs + 1, sizeof *out->inputs);
    if (!out->from_pool || !out->inputs)
        return -1;
    for (size_t i = 0; i < s->norder; i++) {
        out->from_pool[i] = s->order[i];
        out->inputs[i] = s->pool.v[s->order[i]];
        s->pool.v[s->order[i]].a = s->pool.v[s->order[i]].b = NULL;
    }
    for (size_t i = 0; i < s->extra.n; i++) {
        out->inputs[s->norder + i] = s->extra.v[i];
        s->extra.v[i].a = s->extra.v[i].b = NULL;
    }
    return 0;
}

int decide_build(const tc_instr *ins, const model_params *v, const decide_opts *o, decide_set *out, char *err,
                 size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->ins = ins;
    out->v = *v;
    out->opts = *o;
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    search s;
    memset(&s, 0, sizeof s);
    s.ins = ins;
    s.st = o->seed ^ 0xdec1de5eedull;
    model_params *range = malloc(MODEL_RANGE_MAX * sizeof *range);
    model *mv = model_new(v, f, err, errlen);
    int rc = -1;
    if (!mv || !range)
        goto done;
    if (pool_make(ins, o->seed, o->per_family, &s.pool) != 0)
        goto oom;
    out->k = s.pool.n ? s.pool.v[0].k : 0;
    out->pool = s.pool.n;
    out->pool_hash = audit_cases_hash(s.pool.v, s.pool.n);
    s.dv = malloc((s.pool.n + 1) * sizeof *s.dv);
    s.used = calloc(s.pool.n + 1, 1);
    s.order = malloc((s.pool.n + 1) * sizeof *s.order);
    if (!s.dv || !s.used || !s.order)
        goto oom;
    for (size_t i = 0; i < s.pool.n; i++)
        s.dv[i] = model_dot(mv, s.pool.v[i].k, s.pool.v[i].a, s.pool.v[i].b, s.pool.v[i].c);
    model_field_scope sc = decide_scope(ins, out->k);
    for (int i = 0; i < model_field_count(); i++) {
        int nr = model_field_range(i, v, &sc, range);
        for (int j = 0; j < nr; j++) {
            if (model_fields[i].same(v, &range[j]))
                continue;
            char merr[128];
            model *mw = model_new(&range[j], f, merr, sizeof merr);
            if (!mw)
                continue; /* a combination the model cannot be: not a candidate */
            out->pairs++;
            /* a proven pair needs no input; an input would only show the proof holds there */
            bool equivalent = model_field_equivalent(i, v, &range[j], &sc);
            int found = !equivalent && (separated_by_chosen(&s, mw) || separated_by_pool(&s, mw));
            if (!found && !equivalent)
                found = separated_by_ladder(&s, v, mv, mw);
            if (!found && !equivalent)
                found = separated_by_mutation(&s, mv, mw, o->mutations);
            model_free(mw);
            if (found < 0 || (!found && add_open(out, i, &range[j], equivalent)))
                goto oom;
        }
    }
    if (collect(&s, out) != 0)
        goto oom;
    rc = 0;
    goto done;
oom:
    snprintf(err, errlen, "%s: out of memory", ins->name);
done:
    if (rc)
        decide_set_free(out);
    model_free(mv);
    free(range);
    cset_free(&s.pool);
    cset_free(&s.extra);
    cset_free(&s.ladder);
    free(s.dv_ladder);
    free(s.dv), free(s.used), free(s.order), free(s.dv_extra);
    return rc;
}

void decide_set_free(decide_set *s)
{
    audit_cases_free(s->inputs, s->ninputs);
    free(s->from_pool);
    free(s->open);
    s->inputs = NULL, s->from_pool = NULL, s->open = NULL;
    s->ninputs = s->npool = s->nopen = 0;
}
