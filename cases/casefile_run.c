/* Running cases: every case that applies to an instruction becomes one or
 * more tiles of a single backend batch; each result is judged against the
 * case's expectations (derived from arithmetic, via the exact oracle) and
 * matched against its listed alternatives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "cases/casefile.h"
#include "oracle/oracle.h"
#include "oracle/value.h"

const char *tc_verdict_name(tc_verdict v)
{
    return v == TC_VERDICT_PASS ? "pass" : v == TC_VERDICT_FAIL ? "fail" : "info";
}

/* The inputs of one variant of a case: the dot product at (row, col). */
typedef struct {
    uint64_t a[TC_CASE_MAX_K], b[TC_CASE_MAX_K], c;
} dot_inputs;

typedef struct {
    size_t ncase;      /* index into cases[] */
    int variant;
    dot_inputs in;
} tile_spec;

/* A reproducible permutation of 0..k-1: variant 1 reverses, later ones shuffle. */
static void permutation(int variant, int k, int *perm)
{
    for (int i = 0; i < k; i++)
        perm[i] = variant == 1 ? k - 1 - i : i;
    if (variant <= 1)
        return;
    uint64_t s = 0x9E3779B97F4A7C15ull * (uint64_t)variant + 1;
    for (int i = k - 1; i > 0; i--) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((s >> 33) % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

static int variants_in_batch(const tc_case *c)
{
    switch (c->vary.kind) {
    case TC_VARY_PERMUTE:
    case TC_VARY_TILES:
        return c->vary.count;
    case TC_VARY_INPUT:
        return 2;
    default:
        return 1;
    }
}

static void make_variant(const tc_case *c, const tc_case_bound *bd, int v, dot_inputs *in)
{
    int k = bd->k;
    memcpy(in->a, bd->a, sizeof(uint64_t) * (size_t)k);
    memcpy(in->b, bd->b, sizeof(uint64_t) * (size_t)k);
    in->c = bd->c;
    if (c->vary.kind == TC_VARY_PERMUTE && v > 0) {
        int perm[TC_CASE_MAX_K];
        permutation(v, k, perm);
        for (int i = 0; i < k; i++) {
            in->a[i] = bd->a[perm[i]];
            in->b[i] = bd->b[perm[i]];
        }
    } else if (c->vary.kind == TC_VARY_INPUT && v == 1) {
        if (c->vary.which == 'a')
            in->a[c->vary.index] = bd->vary_bits;
        else if (c->vary.which == 'b')
            in->b[c->vary.index] = bd->vary_bits;
        else
            in->c = bd->vary_bits;
    }
}

/* Runs the tiles on the backend; D[t] receives each tile's D[row][col].
 * Calls take at most TC_CASE_MAX_CALL_BYTES of operands (hundreds of tiles
 * even for the largest wgmma, so a batch still spreads over every SM). */
static int run_tiles(tc_backend *be, const tc_instr *ins, const tc_case *const *cases,
                     const tile_spec *tiles, size_t nt, uint64_t *dout, char *err, size_t errlen)
{
    size_t m = (size_t)ins->m, n = (size_t)ins->n, k = (size_t)ins->k;
    size_t per_tile = (m * k + k * n + 2 * m * n) * sizeof(uint64_t);
    size_t chunk = TC_CASE_MAX_CALL_BYTES / per_tile ? TC_CASE_MAX_CALL_BYTES / per_tile : 1;
    if (chunk > nt)
        chunk = nt;
    uint64_t *A = malloc(chunk * m * k * sizeof *A), *B = malloc(chunk * k * n * sizeof *B);
    uint64_t *C = malloc(chunk * m * n * sizeof *C), *D = malloc(chunk * m * n * sizeof *D);
    int rc = 0;
    if (!A || !B || !C || !D) {
        snprintf(err, errlen, "out of memory for %zu tiles of %s", chunk, ins->name);
        rc = -1;
    }
    for (size_t done = 0; rc == 0 && done < nt; done += chunk) {
        size_t cn = nt - done < chunk ? nt - done : chunk;
        const tile_spec *ts = tiles + done;
        memset(A, 0, cn * m * k * sizeof *A);
        memset(B, 0, cn * k * n * sizeof *B);
        memset(C, 0, cn * m * n * sizeof *C);
        for (size_t t = 0; t < cn; t++) {
            const tc_case *c = cases[ts[t].ncase];
            size_t row = (size_t)c->row, col = (size_t)c->col;
            for (size_t kk = 0; kk < k; kk++) {
                A[t * m * k + row * k + kk] = ts[t].in.a[kk];
                B[t * k * n + kk * n + col] = ts[t].in.b[kk];
            }
            C[t * m * n + row * n + col] = ts[t].in.c;
        }
        /* Poisoned so a backend that skips an element cannot pass for zero. */
        memset(D, 0xA5, cn * m * n * sizeof *D);
        rc = tc_backend_mma(be, ins, cn, A, B, C, D, err, errlen);
        if (rc == 0)
            for (size_t t = 0; t < cn; t++) {
                const tc_case *c = cases[ts[t].ncase];
                dout[done + t] = D[t * m * n + (size_t)c->row * n + (size_t)c->col];
            }
    }
    free(A), free(B), free(C), free(D);
    return rc;
}

static bool is_nan(const tc_format *f, uint64_t bits)
{
    return tc_classify(f, bits) == TC_NAN;
}

static uint64_t exact_bits(const tc_instr *ins, const dot_inputs *in, tc_round mode)
{
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    tc_rounding r = {.mode = mode, .ovf = TC_OVF_INF};
    return oracle_dot_exact(f, ins->k, in->a, in->b, in->c, r);
}

static bool outcome_holds(const tc_outcome *o, const tc_instr *ins, const dot_inputs *in,
                          uint64_t d)
{
    switch (o->kind) {
    case TC_OUT_EXACT: {
        uint64_t e = exact_bits(ins, in, o->mode);
        return e == d || (is_nan(ins->d, e) && is_nan(ins->d, d));
    }
    case TC_OUT_NAN:
        return is_nan(ins->d, d);
    case TC_OUT_VALUE: {
        tc_parsed_value pv;
        char msg[160];
        if (!tc_value_parse(o->value, ins->d, &pv, msg, sizeof msg))
            return false; /* checked when the file was parsed */
        if (pv.is_bits)
            return pv.bits == d;
        if (pv.v.cls == TC_NAN)
            return is_nan(ins->d, d);
        tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
        return tc_encode(ins->d, pv.v, pv.sticky, r) == d;
    }
    default:
        return true; /* INVARIANT and MONOTONE look at all variants: judged apart */
    }
}

static void describe(const tc_outcome *o, char *buf, size_t len)
{
    switch (o->kind) {
    case TC_OUT_EXACT:
        snprintf(buf, len, "exact %s", tc_round_name(o->mode));
        break;
    case TC_OUT_VALUE:
        snprintf(buf, len, "%s", o->value);
        break;
    case TC_OUT_NAN:
        snprintf(buf, len, "nan");
        break;
    case TC_OUT_INVARIANT:
        snprintf(buf, len, "invariant");
        break;
    case TC_OUT_MONOTONE:
        snprintf(buf, len, "monotone");
        break;
    }
}

/* Did D move with the exact sum? (variant 0 -> variant 1) */
static bool monotone_holds(const tc_instr *ins, const dot_inputs *in0, const dot_inputs *in1,
                           uint64_t d0, uint64_t d1)
{
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    mpfr_t s0, s1;
    mpfr_init2(s0, 64);
    mpfr_init2(s1, 64);
    oracle_dot_value(f, ins->k, in0->a, in0->b, in0->c, s0);
    oracle_dot_value(f, ins->k, in1->a, in1->b, in1->c, s1);
    int dir = mpfr_nan_p(s0) || mpfr_nan_p(s1) ? 2 : mpfr_cmp(s1, s0);
    mpfr_clear(s0);
    mpfr_clear(s1);
    if (dir == 2)
        return true; /* no order among NaN sums */
    int got = tc_value_cmp(tc_decode(ins->d, d1, false), tc_decode(ins->d, d0, false));
    if (got == 2)
        return false;
    return dir > 0 ? got >= 0 : dir < 0 ? got <= 0 : true;
}

static void judge(const tc_case *c, const tc_instr *ins, const tile_spec *tiles,
                  const uint64_t *d, size_t nv, tc_case_result *r)
{
    r->c = c;
    r->ins = ins;
    r->d = d[0];
    r->d_last = d[nv - 1];
    r->nvariants = nv;
    r->exact = exact_bits(ins, &tiles[0].in, TC_RNE);
    r->ndistinct = 0;
    for (size_t v = 0; v < nv; v++) {
        bool seen = false;
        for (size_t w = 0; w < v && !seen; w++)
            seen = d[w] == d[v];
        r->ndistinct += !seen;
    }
    r->verdict = c->nexpect ? TC_VERDICT_PASS : TC_VERDICT_INFO;
    r->failed[0] = '\0';
    r->expect_failed = false;
    for (size_t i = 0; i < c->nexpect && r->verdict == TC_VERDICT_PASS; i++) {
        const tc_outcome *o = &c->expect[i];
        char what[128];
        describe(o, what, sizeof what);
        bool ok = true;
        if (o->kind == TC_OUT_INVARIANT)
            ok = r->ndistinct == 1;
        else if (o->kind == TC_OUT_MONOTONE)
            ok = monotone_holds(ins, &tiles[0].in, &tiles[nv - 1].in, d[0], d[nv - 1]);
        else {
            /* Values hold for every variant, except that a replaced input
             * (vary a[I]/b[I]/c) changes the sum: then only the first. */
            size_t upto = c->vary.kind == TC_VARY_INPUT && o->kind != TC_OUT_EXACT ? 1 : nv;
            for (size_t v = 0; v < upto && ok; v++)
                if (!outcome_holds(o, ins, &tiles[v].in, d[v])) {
                    ok = false;
                    if (nv > 1)
                        snprintf(what + strlen(what), sizeof what - strlen(what), " (variant %zu)", v);
                }
        }
        if (!ok) {
            r->verdict = TC_VERDICT_FAIL;
            r->expect_failed = !o->reference;
            snprintf(r->failed, sizeof r->failed, "%s = %s", o->reference ? "reference" : "expect", what);
        }
    }
    r->nmatched = 0;
    for (size_t i = 0; i < c->nalt; i++)
        if (outcome_holds(&c->alt[i], ins, &tiles[0].in, d[0]) && r->nmatched < TC_CASE_MAX_MATCH) {
            bool dup = false;
            for (int j = 0; j < r->nmatched; j++)
                dup |= !strcmp(r->matched[j], c->alt[i].label);
            if (!dup)
                r->matched[r->nmatched++] = c->alt[i].label;
        }
    r->unrecognised = c->nalt > 0 && r->nmatched == 0;
    if (r->unrecognised && r->verdict != TC_VERDICT_FAIL) {
        r->verdict = TC_VERDICT_FAIL;
        snprintf(r->failed, sizeof r->failed, "none of the %zu listed outcomes", c->nalt);
    }
}

static int run_group(tc_backend *be, const tc_instr *ins, const tc_case *const *cases, size_t n,
                     tc_case_result *res, char *err, size_t errlen)
{
    char why[256];
    if (!tc_backend_supports(be, ins, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", ins->name, why);
        return -1;
    }
    size_t nt = 0;
    for (size_t i = 0; i < n; i++)
        nt += (size_t)variants_in_batch(cases[i]);
    tile_spec *tiles = malloc(nt * sizeof *tiles);
    uint64_t *d = malloc(nt * sizeof *d);
    size_t *first = malloc(n * sizeof *first);
    tc_case_bound *bd = malloc(sizeof *bd);
    int rc = -1;
    if (!tiles || !d || !first || !bd) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    size_t t = 0;
    for (size_t i = 0; i < n; i++) {
        if (!tc_case_bind(cases[i], ins, bd, err, errlen))
            goto out;
        first[i] = t;
        for (int v = 0; v < variants_in_batch(cases[i]); v++, t++) {
            tiles[t].ncase = i;
            tiles[t].variant = v;
            make_variant(cases[i], bd, v, &tiles[t].in);
        }
    }
    if (run_tiles(be, ins, cases, tiles, nt, d, err, errlen) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const tc_case *c = cases[i];
        if (c->vary.kind != TC_VARY_RUNS) {
            judge(c, ins, &tiles[first[i]], &d[first[i]], (size_t)variants_in_batch(c), &res[i]);
            continue;
        }
        /* The same tile again in fresh batches: run-to-run determinism. */
        size_t nv = (size_t)c->vary.count;
        tile_spec *rt = malloc(nv * sizeof *rt);
        uint64_t *rd = malloc(nv * sizeof *rd);
        if (!rt || !rd) {
            free(rt), free(rd);
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        rd[0] = d[first[i]];
        for (size_t v = 0; v < nv; v++) {
            rt[v] = tiles[first[i]];
            rt[v].ncase = 0; /* run_tiles indexes &cases[i] */
        }
        bool ok = true;
        for (size_t v = 1; v < nv && ok; v++)
            ok = run_tiles(be, ins, &cases[i], &rt[v], 1, &rd[v], err, errlen) == 0;
        if (ok)
            judge(c, ins, rt, rd, nv, &res[i]);
        free(rt);
        free(rd);
        if (!ok)
            goto out;
    }
    rc = 0;
out:
    free(tiles);
    free(d);
    free(first);
    free(bd);
    return rc;
}

/* Groups of cases of at most TC_CASE_MAX_BATCH tiles: the tile list holds
 * every variant's inputs (4 KB each), so many files together stay bounded
 * too. A case never straddles two groups (its variants are judged together;
 * one case has at most TC_CASE_MAX_VARY of them). */
int tc_cases_run(tc_backend *be, const tc_instr *ins, const tc_case *const *cases, size_t n,
                 tc_case_result *res, char *err, size_t errlen)
{
    for (size_t i = 0; i < n;) {
        size_t j = i, nt = 0;
        while (j < n && (j == i || nt + (size_t)variants_in_batch(cases[j]) <= TC_CASE_MAX_BATCH))
            nt += (size_t)variants_in_batch(cases[j++]);
        if (run_group(be, ins, cases + i, j - i, res + i, err, errlen) != 0)
            return -1;
        i = j;
    }
    return 0;
}
