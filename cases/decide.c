/* decide: deciding inputs by directed search over the model, and what the
 * answers to them decide (see decide.h). */
#include "cases/decide.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "cases/infer_internal.h"
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

/* ---- the ladder: terms at every exponent pair where a field acts ----
 *
 * A first product 2^e1 and small ones s*2^(e1-d): in the second K position
 * only, or in every other one; or a tie (half an ulp of D's, or of the
 * accumulator's, precision at 2^e1, or an ulp and a half of D's) in the
 * second and the small ones after it; C +0. e1 runs over the bottom of D's and of the accumulator's range
 * (down past their smallest subnormals), around 1 and the top of D's
 * range; d = 1..32, then every 4th to 60; s = +-1. The first product's
 * factors are normal, or one is its format's smallest subnormal (A's, or
 * B's) and the other makes up the exponent; the small products' factors
 * are normal, or subnormal in the same operand as the first's.
 * One cut bit, or a sum of them, or a tie broken by them shows the
 * alignment floor, width and rounding, the rounding of the result, over-
 * and underflow, and what a widening does to a subnormal operand's
 * exponent. First, zero results: every product -0 (A -0 times B 1, or A +0
 * times B -1) and C -0. Built only when a pair outlives the pool. */

/* sig * 2^e as a*b: sub 0, both factors normal where they can be; 1, a is
 * A's smallest subnormal; 2, b is B's (the other factor makes up the rest). */
static bool power_product(const oracle_formats *f, int e, double sig, int sub, uint64_t *a, uint64_t *b)
{
    const tc_format *fs = sub == 2 ? f->b : f->a;
    int lo = tc_format_emin(fs), hi = tc_format_emax(fs);
    int es = sub ? lo - fs->mbits : e / 2 < lo ? lo : e / 2 > hi ? hi : e / 2;
    if (sub && fs->mbits == 0)
        return false;
    uint64_t *ps = sub == 2 ? b : a, *po = sub == 2 ? a : b;
    return infer_enc(fs, ldexp(sub ? 1.0 : sig, es), ps) &&
           infer_enc(sub == 2 ? f->a : f->b, ldexp(sub ? sig : 1.0, e - es), po);
}

enum { LADDER_ONE, LADDER_SPREAD, LADDER_TIE_D, LADDER_TIE_ACC, LADDER_TIE_ODD, LADDER_LAYOUTS };

/* The ladder's K terms for one (e1, first factor, layout, d, sign); false when a value does not exist. */
static bool ladder_terms(const oracle_formats *f, int k, int prec_d, int prec_acc, int e1, int sub, int layout,
                         int d, double sg, const uint64_t *zero, uint64_t *a, uint64_t *b)
{
    uint64_t sa, sb, ta = zero[0], tb = zero[1];
    /* sub 0..2: the first product's kind (normal, A's or B's subnormal); 3, 4: the small ones' too */
    if (!power_product(f, e1, 1.0, sub > 2 ? sub - 2 : sub, &a[0], &b[0]) ||
        !power_product(f, e1 - d, sg, sub > 2 ? sub - 2 : 0, &sa, &sb))
        return false;
    int from = 1;
    if (layout >= LADDER_TIE_D) {
        /* half an ulp above 2^e1, or an ulp and a half (a tie after an odd last bit) */
        int at = layout == LADDER_TIE_ACC ? prec_acc : prec_d;
        if (k < 3 || !power_product(f, e1 - at + (layout == LADDER_TIE_ODD), layout == LADDER_TIE_ODD ? 1.5 : 1.0,
                                    0, &ta, &tb))
            return false;
        from = 2;
    }
    for (int x = 1; x < k; x++) {
        bool small = x >= from && (layout != LADDER_ONE || x == 1);
        a[x] = x < from ? ta : small ? sa : zero[0];
        b[x] = x < from ? tb : small ? sb : zero[1];
    }
    return true;
}

static int ladder_make(const tc_instr *ins, int k, const model_params *v, cset *s)
{
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    const tc_format *d = ins->d, *acc = v->acc_exact ? &tc_f32 : &v->acc_fmt;
    int from[4] = {tc_format_emin(d) - d->mbits - 24, tc_format_emin(acc) - acc->mbits - 24, -4,
                   tc_format_emax(d) - 4};
    int to[4] = {tc_format_emin(d) + 4, tc_format_emin(acc) + 4, 4, tc_format_emax(d) + 1};
    uint64_t a[INFER_KMAX], b[INFER_KMAX], zero[2], zero_c;
    memset(s, 0, sizeof *s);
    if (k < 2 || k > INFER_KMAX || !infer_split(&f, 0.0, &zero[0], &zero[1]) || !infer_enc(ins->c, 0.0, &zero_c))
        return 0;
    /* zero results of every sign: all products -0 (A -0 times B 1, or A +0 times B -1), C -0 */
    for (int q = 0; q < 2; q++) {
        uint64_t za, ob, c;
        if (!infer_enc(ins->a, q ? 0.0 : -0.0, &za) || !infer_enc(ins->b, q ? -1.0 : 1.0, &ob) ||
            !infer_enc(ins->c, -0.0, &c))
            continue;
        for (int x = 0; x < k; x++)
            a[x] = za, b[x] = ob;
        if (cset_add_bits(s, "ladder", k, a, b, c))
            return -1;
    }
    for (int r = 0; r < 4; r++)
        for (int e1 = from[r]; e1 <= to[r]; e1++) {
            bool walked = false;
            for (int p = 0; p < r; p++)
                walked |= e1 >= from[p] && e1 <= to[p];
            for (int q = 0; !walked && q < 5; q++)
                for (int lay = 0; lay < LADDER_LAYOUTS; lay++)
                    for (int dd = 1; dd <= 60; dd += dd < 32 ? 1 : 4)
                        for (int sg = 0; sg < 2; sg++)
                            if (ladder_terms(&f, k, d->mbits + 1, acc->mbits + 1, e1, q, lay, dd, sg ? -1.0 : 1.0,
                                             zero, a, b) &&
                                cset_add_bits(s, "ladder", k, a, b, zero_c))
                                return -1;
        }
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
        if (ladder_make(s->ins, s->pool.n ? s->pool.v[0].k : 0, v, &s->ladder) ||
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

static model_field_scope scope_of(const tc_instr *ins, int k)
{
    model_field_scope sc = {{ins->a, ins->b, ins->c, ins->d}, k, NULL, 0};
    return sc;
}

static int add_open(decide_set *out, int field, const model_params *w)
{
    decide_open *g = realloc(out->open, (out->nopen + 1) * sizeof *g);
    if (!g)
        return -1;
    out->open = g;
    g[out->nopen].field = field;
    model_field_text(w, field, g[out->nopen].value, sizeof g[out->nopen].value);
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
    model_field_scope sc = scope_of(ins, out->k);
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
            int found = separated_by_chosen(&s, mw) || separated_by_pool(&s, mw);
            if (!found)
                found = separated_by_ladder(&s, v, mv, mw);
            if (!found)
                found = separated_by_mutation(&s, mv, mw, o->mutations);
            model_free(mw);
            if (found < 0 || (!found && add_open(out, i, &range[j])))
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

/* ---- what the answers decide ---- */

const char *decide_status_name(decide_status s)
{
    static const char *const names[DECIDE_NSTATUS] = {"construction", "sampled", "undecided"};
    return s < DECIDE_NSTATUS ? names[s] : "?";
}

static bool listed_open(const decide_set *s, int field, const char *value)
{
    for (size_t i = 0; i < s->nopen; i++)
        if (s->open[i].field == field && !strcmp(s->open[i].value, value))
            return true;
    return false;
}

/* The first input on which w's answer is not the hardware's (SIZE_MAX: none). */
static size_t excluding_input(const decide_set *s, const model *mw, const uint64_t *hw, uint64_t *w_answer)
{
    for (size_t i = 0; hw && i < s->ninputs; i++) {
        const infer_case *c = &s->inputs[i];
        if ((*w_answer = model_dot(mw, c->k, c->a, c->b, c->c)) != hw[i])
            return i;
    }
    return SIZE_MAX;
}

int decide_classify_pairs(const decide_set *s, const model_params *p, const uint64_t *hw, decide_field *out,
                          size_t *contradicted, decide_pair_fn each, void *ctx, char *err, size_t errlen)
{
    const tc_instr *ins = s->ins;
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    model *mp = model_new(p, f, err, errlen);
    model_params *range = malloc(MODEL_RANGE_MAX * sizeof *range);
    if (!mp || !range) {
        if (mp)
            snprintf(err, errlen, "out of memory");
        model_free(mp);
        free(range);
        return -1;
    }
    *contradicted = 0;
    for (size_t i = 0; hw && i < s->ninputs; i++) {
        const infer_case *c = &s->inputs[i];
        *contradicted += model_dot(mp, c->k, c->a, c->b, c->c) != hw[i];
    }
    bool built_from_p = model_params_diff(&s->v, p, NULL) == 0;
    model_field_scope sc = scope_of(ins, s->k);
    for (int i = 0; i < model_field_count(); i++) {
        decide_field *d = &out[i];
        memset(d, 0, sizeof *d);
        int nr = model_field_range(i, p, &sc, range);
        for (int j = 0; j < nr; j++) {
            if (model_fields[i].same(p, &range[j]))
                continue;
            char merr[128];
            decide_pair pr = {i, "", SIZE_MAX, 0, 0, 0, DECIDE_PAIR_OPEN};
            model *mw = model_new(&range[j], f, merr, sizeof merr);
            if (!mw)
                continue;
            d->alternatives++;
            model_field_text(&range[j], i, pr.value, sizeof pr.value);
            pr.input = excluding_input(s, mw, hw, &pr.w_answer);
            if (pr.input != SIZE_MAX) {
                const infer_case *c = &s->inputs[pr.input];
                pr.v_answer = model_dot(mp, c->k, c->a, c->b, c->c);
                pr.hw_answer = hw[pr.input];
                pr.kind = DECIDE_PAIR_EXCLUDED;
                d->excluded++;
            } else if (built_from_p && listed_open(s, i, pr.value)) {
                pr.kind = DECIDE_PAIR_INSEPARABLE;
                d->inseparable++;
            } else if (!d->open++)
                snprintf(d->first_open, sizeof d->first_open, "%s", pr.value);
            model_free(mw);
            if (each)
                each(ctx, &pr);
        }
        /* answers p misses leave every field open: which one is wrong is the refit's to say */
        d->status = !hw ? DECIDE_SAMPLED : d->open || *contradicted ? DECIDE_UNDECIDED : DECIDE_CONSTRUCTION;
    }
    model_free(mp);
    free(range);
    return 0;
}

int decide_classify(const decide_set *s, const model_params *p, const uint64_t *hw, decide_field *out,
                    size_t *contradicted, char *err, size_t errlen)
{
    return decide_classify_pairs(s, p, hw, out, contradicted, NULL, NULL, err, errlen);
}
