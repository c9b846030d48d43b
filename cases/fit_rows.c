/* The fixed-set fit (see fit_rows.h). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/fit_rows.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"

static oracle_formats formats_of(const tc_instr *ins)
{
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    return f;
}

/* Rows of one parity: the fit half (0) or the verify half (1). */
static size_t half_rows(const tc_dots *d, int parity) { return (d->rows + (parity ? 0 : 1)) / 2; }

/* Mismatching rows of the half (stop after `stop`, 0: count all); the
 * mismatches mark bad[] when given; the first ones are kept in r when given. */
static size_t run_half(const model *m, const tc_dots *d, int parity, size_t stop, bool *bad, fit_result *keep)
{
    size_t miss = 0;
    for (size_t i = 0, r = (size_t)parity; r < d->rows; i++, r += 2) {
        uint64_t got = model_dot(m, d->k, d->A + r * (size_t)d->k, d->B + r * (size_t)d->k, d->C[r]);
        if (got == d->D[r])
            continue;
        miss++;
        if (bad)
            bad[i] = true;
        if (keep && keep->shown < FIT_MAX_SHOWN) {
            keep->row[keep->shown] = r;
            keep->want[keep->shown] = d->D[r];
            keep->got[keep->shown++] = got;
        }
        if (stop && miss >= stop)
            break;
    }
    return miss;
}

/* Fit rows explained before the first mismatch (for the best candidate when none fits). */
static size_t leading(const model *m, const tc_dots *d)
{
    size_t n = 0;
    for (size_t r = 0; r < d->rows; r += 2, n++)
        if (model_dot(m, d->k, d->A + r * (size_t)d->k, d->B + r * (size_t)d->k, d->C[r]) != d->D[r])
            break;
    return n;
}

/* ---- the grid ---------------------------------------------------------- */

typedef struct {
    int block, align, around, acc, cmode, oround, expref, withacc, split, cround;
} grid_pt;

enum { NALIGN = 34 }; /* exact, then 8..40 */

/* The most significant bits any recorded normal output carries (leading
 * one to last one bit): when below D's precision, the rows themselves say
 * the sum was held narrower, and the grid also tries an accumulator of that
 * precision (D's exponent width). 0 when no output is a normal number. */
static int observed_bits(const tc_dots *d)
{
    const tc_format *f = d->ins->d;
    int most = 0;
    for (size_t r = 0; r < d->rows; r++) {
        uint64_t x = d->D[r] >> f->shift, e = (x >> f->mbits) & ((1ull << f->ebits) - 1);
        if (e == 0 || e == (1ull << f->ebits) - 1)
            continue;
        uint64_t m = (x & ((1ull << f->mbits) - 1)) | 1ull << f->mbits;
        int bits = f->mbits + 1 - __builtin_ctzll(m);
        most = bits > most ? bits : most;
    }
    return most;
}

/* acc: 0 exact, 1..2 f32 rne/rz, then (f16 D) f16 rne/rz, then (narrow
 * outputs) the observed precision rne/rz. */
typedef struct {
    const tc_instr *ins;
    int nacc;
    bool narrow;
    tc_format narrow_fmt;
} grid_space;

static grid_space space_of(const tc_dots *d)
{
    grid_space g = {d->ins, 3, false, {0}};
    if (d->ins->d->storage_bits == 16)
        g.nacc = 5;
    int obs = observed_bits(d);
    if (obs > 1 && obs < d->ins->d->mbits + 1) {
        g.narrow = true;
        g.narrow_fmt = *d->ins->d;
        g.narrow_fmt.mbits = obs - 1;
        g.narrow_fmt.shift = 0;
        char name[16];
        snprintf(name, sizeof name, "e%dm%d", d->ins->d->ebits, obs - 1);
        tc_format scratch;
        const tc_format *nf = tc_format_by_name(name, &scratch);
        if (nf)
            g.narrow_fmt = *nf;
        else
            g.narrow = false;
        g.nacc += g.narrow ? 2 : 0;
    }
    return g;
}

static model_params grid_params(const grid_space *sp, const grid_pt *g)
{
    const tc_instr *ins = sp->ins;
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    model_params p = model_params_exact(formats_of(ins), rne);
    p.block = g->block;
    p.align_bits = g->align == 0 ? MODEL_EXACT : 7 + g->align;
    static const model_align_round ar[3] = {MODEL_ALIGN_TRUNC, MODEL_ALIGN_FLOOR, MODEL_ALIGN_RNE};
    p.align_round = ar[g->around];
    p.acc_exact = g->acc == 0;
    if (g->acc) {
        p.acc_fmt = g->acc <= 2 ? tc_f32 : g->acc <= 4 && sp->nacc - 2 * sp->narrow == 5 ? tc_f16 : sp->narrow_fmt;
        p.acc_round = g->acc % 2 ? TC_RNE : TC_RZ;
    }
    p.c_mode = g->cmode ? MODEL_C_LAST : MODEL_C_FIRST;
    p.c_round = g->cround ? TC_RZ : TC_RNE;
    p.split_runs = g->split ? 1 << g->split : 0;
    p.out_round = g->oround ? TC_RZ : TC_RNE;
    p.exp_ref = g->expref ? MODEL_EXP_NORMALIZED : MODEL_EXP_NOMINAL;
    p.align_with_acc = g->withacc == 0;
    return p;
}

/* Calls f on every grid point in grid order: block 1, 2, 4, .. K; align
 * bits exact, 8..40; trunc, floor, rne; acc exact, f32:rne, f32:rz (f16:rne,
 * f16:rz for an f16 output); C first, last (C added with rne, rz); out rne,
 * rz; nominal, normalized; align_ref all, products; steps contiguous, then
 * interleaved in runs of 2, 4, 8 where the run divides the block and is
 * smaller. Stops when f returns nonzero. */
static size_t for_grid(const grid_space *sp, int (*f)(void *, const grid_pt *), void *ctx)
{
    const tc_instr *ins = sp->ins;
    size_t n = 0;
    grid_pt g;
    for (g.block = 1; g.block <= ins->k; g.block *= 2)
        for (g.align = 0; g.align < NALIGN; g.align++)
            for (g.around = 0; g.around < 3; g.around++)
                for (g.acc = 0; g.acc < sp->nacc; g.acc++)
                    for (g.cmode = 0; g.cmode < 2; g.cmode++)
                        for (g.oround = 0; g.oround < 2; g.oround++)
                            for (g.expref = 0; g.expref < 2; g.expref++)
                                for (g.withacc = 0; g.withacc < 2; g.withacc++)
                                    for (g.split = 0; g.split < 4; g.split++)
                                        for (g.cround = 0; g.cround < 1 + g.cmode; g.cround++) {
                                            if (g.split && (1 << g.split) >= g.block)
                                                continue;
                                            n++;
                                            if (f && f(ctx, &g))
                                                return n;
                                        }
    return n;
}

typedef struct {
    const tc_dots *d;
    const grid_space *sp;
    model_params *surv;    /* the survivors, kept to explain a verify mismatch */
    size_t nsurv, cap;
    fit_result *r;
    int rc;
    char *err;
    size_t errlen;
} grid_ctx;

/* Adds field i's text of p to the field's values (when new). */
static void add_value(fit_field *f, const model_params *p, int i)
{
    char t[64];
    model_field_text(p, i, t, sizeof t);
    for (int v = 0; v < f->nvalues; v++)
        if (!strcmp(f->values[v], t))
            return;
    if (f->nvalues == FIT_MAX_VALUES) {
        f->more = true;
        return;
    }
    snprintf(f->values[f->nvalues++], sizeof f->values[0], "%s", t);
}

static int grid_visit(void *p, const grid_pt *g)
{
    grid_ctx *c = p;
    model_params mp = grid_params(c->sp, g);
    model *m = model_new(&mp, formats_of(c->d->ins), c->err, c->errlen);
    if (!m) { /* a combination the model refuses (e.g. a block it cannot take): not a candidate */
        return 0;
    }
    fit_result *r = c->r;
    if (run_half(m, c->d, 0, 1, NULL, NULL) == 0) {
        if (!r->fits) {
            r->fits = true;
            r->chosen = mp;
        }
        r->survivors++;
        if (c->nsurv == c->cap) {
            size_t cap = c->cap ? 2 * c->cap : 256;
            model_params *g2 = realloc(c->surv, cap * sizeof *g2);
            if (g2)
                c->surv = g2, c->cap = cap;
        }
        if (c->nsurv < c->cap)
            c->surv[c->nsurv++] = mp;
        for (int i = 0; i < r->nfields; i++)
            add_value(&r->fields[i], &mp, i);
    } else if (!r->fits) {
        size_t lead = leading(m, c->d);
        if (lead > r->best_rows || r->candidates == 0) {
            r->best_rows = lead;
            r->best = mp;
        }
    }
    r->candidates++;
    model_free(m);
    return 0;
}

/* ---- substitution of single fields ------------------------------------- */

/* The candidate values of a field, tried in place of the chosen one. */
static int field_candidates(const char *key, const tc_instr *ins, const char **out, int max)
{
    static const char *const yesno[] = {"no", "yes"};
    static const char *const cvt[] = {"none", "f16:rne", "bf16:rne", "tf32:rne", "tf32:rz"};
    static const char *const products[] = {"exact", "24:rne", "24:rz", "23:rz", "22:rz"};
    static const char *const flush[] = {"none", "-126", "-133", "-149"};
    static const char *const blocks[] = {"1", "2", "4", "8", "16", "32"};
    static const char *const cmode[] = {"first", "last"};
    static const char *const rounds[] = {"rne", "rz", "ru", "rd", "rna"};
    static const char *const aref[] = {"all", "products"};
    static const char *const aexp[] = {"nominal", "normalized"};
    static const char *const around[] = {"trunc", "floor", "rne"};
    static const char *const carry[] = {"unlimited", "1", "2", "3", "4", "8"};
    static const char *const acc16[] = {"exact", "f32:rne", "f32:rz", "f16:rne", "f16:rz"};
    static const char *const ovf[] = {"inf", "sat", "nan"};
    static const char *const nan32[] = {"canonical", "0x7FFFFFFF", "0x7FC00000"};
    static const char *const nan16[] = {"canonical", "0x7FFF", "0x7E00"};
    static const char *const accovf[] = {"ieee", "inf"};
    static const char *const split[] = {"contiguous", "interleaved:1", "interleaved:2", "interleaved:4"};
    static const char *const nanp[] = {"no", "a,b,acc", "acc,a,b"};
    static const char *const zsign[] = {"ieee", "positive"};
    static const char *const dnan[] = {"nan", "inf"};
    static const char *const afloor[] = {"none", "-126", "-149"};
    static char abits[42][16];
    static const char *abits_p[42];
    abits_p[0] = "exact";
    for (int i = 0; i <= 40; i++) {
        snprintf(abits[i], sizeof abits[i], "%d", i);
        abits_p[i + 1] = abits[i];
    }
    static const struct {
        const char *key;
        const char *const *v;
        int n;
    } t[] = {
        {"a_convert", cvt, 5}, {"b_convert", cvt, 5}, {"a_ftz", yesno, 2}, {"b_ftz", yesno, 2}, {"c_ftz", yesno, 2},
        {"products", products, 5}, {"product_flush_below", flush, 4}, {"block", blocks, 6}, {"c_mode", cmode, 2},
        {"c_round", rounds, 5}, {"align_ref", aref, 2}, {"align_exp", aexp, 2}, {"align_bits", abits_p, 42},
        {"align_round", around, 3}, {"carry_bits", carry, 6}, {"acc", acc16, 5}, {"acc_ftz", yesno, 2},
        {"out_round", rounds, 5}, {"out_overflow", ovf, 3}, {"out_ftz", yesno, 2}, {"nan", nan32, 3},
        {"acc_overflow", accovf, 2}, {"step_split", split, 4}, {"nan_propagate", nanp, 3}, {"zero_sign", zsign, 2},
        {"dropped_nan", dnan, 2}, {"align_floor", afloor, 3},
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (!strcmp(t[i].key, key)) {
            const char *const *v = !strcmp(key, "nan") && ins->d->storage_bits == 16 ? nan16 : t[i].v;
            int n = t[i].n < max ? t[i].n : max;
            for (int j = 0; j < n; j++)
                out[j] = v[j];
            return n;
        }
    return 0;
}

/* p with field key set to value, through the profile text (the profile's
 * own parser, so a value means what it means in a profile file). */
static bool params_with(const tc_instr *ins, const model_params *p, int field, const char *value, model_params *out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return false;
    fprintf(f, "[instr %s]\n", ins->name);
    for (int i = 0; i < model_field_count(); i++) {
        char t[64];
        model_field_text(p, i, t, sizeof t);
        fprintf(f, "%s = %s\n", model_fields[i].key, i == field ? value : t);
    }
    fclose(f);
    model_profile prof;
    char err[256];
    bool ok = profile_parse(buf, "fit", &prof, err, sizeof err) == 0;
    free(buf);
    if (!ok)
        return false;
    const model_params *q = profile_lookup(&prof, ins->name);
    if (q)
        *out = *q;
    profile_free(&prof);
    return q != NULL;
}

static int substitute(const tc_dots *d, const grid_space *sp, fit_result *r, int i, bool *bad)
{
    fit_field *f = &r->fields[i];
    const char *cand[64];
    int n = field_candidates(f->key, d->ins, cand, 62);
    char narrow[2][40];
    if (!strcmp(f->key, "acc") && sp->narrow) /* the observed precision, as in the grid */
        for (int j = 0; j < 2; j++) {
            char nm[24];
            snprintf(narrow[j], sizeof narrow[j], "%s:%s", model_format_name(&sp->narrow_fmt, nm, sizeof nm),
                     j ? "rz" : "rne");
            cand[n++] = narrow[j];
        }
    size_t nfit = half_rows(d, 0);
    memset(bad, 0, nfit);
    for (int j = 0; j < n; j++) {
        if (!strcmp(cand[j], f->values[0]))
            continue;
        model_params q;
        char err[256];
        if (!params_with(d->ins, &r->chosen, i, cand[j], &q))
            continue; /* not a value this instruction's profile can hold */
        model *m = model_new(&q, formats_of(d->ins), err, sizeof err);
        if (!m)
            continue;
        f->tried++;
        if (run_half(m, d, 0, 0, bad, NULL) == 0)
            add_value(f, &q, i);
        model_free(m);
    }
    f->deciding_rows = 0;
    for (size_t k = 0; k < nfit; k++)
        f->deciding_rows += bad[k];
    return 0;
}

int tc_fit_rows(const tc_dots *d, fit_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->ins = d->ins;
    r->fit_rows = half_rows(d, 0);
    r->verify_rows = half_rows(d, 1);
    r->nfields = model_field_count();
    r->fields = calloc((size_t)r->nfields, sizeof *r->fields);
    bool *bad = malloc(r->fit_rows + 1);
    if (!r->fields || !bad) {
        free(bad);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < r->nfields; i++)
        r->fields[i].key = model_fields[i].key;
    char merr[256];
    grid_space sp = space_of(d);
    r->observed_bits = observed_bits(d);
    grid_ctx c = {d, &sp, NULL, 0, 0, r, 0, merr, sizeof merr};
    for_grid(&sp, grid_visit, &c);
    if (!r->fits) {
        free(c.surv);
        model *m = model_new(&r->best, formats_of(d->ins), err, errlen);
        if (m) {
            run_half(m, d, 0, 0, NULL, r);
            model_free(m);
        }
        free(bad);
        return 0;
    }
    /* values[0] must be the chosen one: the first survivor put it there */
    for (int i = 0; i < r->nfields; i++)
        substitute(d, &sp, r, i, bad);
    free(bad);
    model *m = model_new(&r->chosen, formats_of(d->ins), err, errlen);
    if (!m)
        return -1;
    r->verify_mismatch = run_half(m, d, 1, 0, NULL, r);
    model_free(m);
    if (r->verify_mismatch) /* which other fit-half survivors give these rows, and the whole verify half */
        for (size_t i = 0; i < c.nsurv; i++) {
            model *q = model_new(&c.surv[i], formats_of(d->ins), err, errlen);
            if (!q)
                continue;
            for (size_t j = 0; j < r->shown; j++) {
                size_t row = r->row[j];
                r->row_explained[j] += model_dot(q, d->k, d->A + row * (size_t)d->k, d->B + row * (size_t)d->k,
                                                 d->C[row]) == r->want[j];
            }
            r->survivors_verified += run_half(q, d, 1, 1, NULL, NULL) == 0;
            model_free(q);
        }
    free(c.surv);
    return 0;
}

void tc_fit_result_free(fit_result *r)
{
    free(r->fields);
    r->fields = NULL;
}
