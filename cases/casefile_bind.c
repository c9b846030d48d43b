/* Cases and instructions: which instructions a selector names, and a case's
 * value texts bound to the bit patterns of one instruction's formats.
 *
 * A value must be exactly representable in its operand format: a case says
 * what arithmetic it probes, and a silently rounded input would probe
 * something else.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/casefile.h"
#include "oracle/value.h"
#include "probes/sparse.h"

static bool format_is(const tc_format *f, const char *name)
{
    tc_format scratch;
    const tc_format *g = tc_format_by_name(name, &scratch);
    return g && f && !strcmp(f->name, g->name);
}

/* One selector term against one instruction; *bad set for a malformed term. */
static bool term_match(const char *t, const tc_instr *ins, char *err, size_t errlen, bool *bad)
{
    if (!strcmp(t, "all") || !strcmp(t, "sparse"))
        return true;
    const char *eq = strchr(t, '=');
    if (!eq)
        return strpbrk(t, "*?[") ? fnmatch(t, ins->name, 0) == 0 : !strcmp(t, ins->name);
    size_t kl = (size_t)(eq - t);
    const char *v = eq + 1;
    char key[16];
    if (kl == 0 || kl >= sizeof key || !*v) {
        snprintf(err, errlen, "bad selector term '%s'", t);
        *bad = true;
        return false;
    }
    memcpy(key, t, kl);
    key[kl] = '\0';
    if (!strcmp(key, "api"))
        return !strcmp(ins->api, v);
    if (!strcmp(key, "kmin") || !strcmp(key, "k")) {
        char *end;
        long k = strtol(v, &end, 10);
        if (*end || k < 1) {
            snprintf(err, errlen, "bad selector term '%s': %s needs a positive integer", t, key);
            *bad = true;
            return false;
        }
        return key[1] ? ins->k >= k : ins->k == k;
    }
    tc_format scratch;
    if (!tc_format_by_name(v, &scratch)) {
        snprintf(err, errlen, "bad selector term '%s': unknown format '%s'", t, v);
        *bad = true;
        return false;
    }
    if (!strcmp(key, "a"))
        return format_is(ins->a, v);
    if (!strcmp(key, "b"))
        return format_is(ins->b, v);
    if (!strcmp(key, "c"))
        return format_is(ins->c, v);
    if (!strcmp(key, "d"))
        return format_is(ins->d, v);
    if (!strcmp(key, "in"))
        return format_is(ins->a, v) && format_is(ins->b, v);
    if (!strcmp(key, "acc"))
        return format_is(ins->c, v) && format_is(ins->d, v);
    snprintf(err, errlen, "bad selector term '%s': unknown filter '%s' (a b c d in acc api k kmin)", t, key);
    *bad = true;
    return false;
}

bool tc_selector_match(const char *sel, const tc_instr *ins, char *err, size_t errlen)
{
    char scratch[8];
    if (!err) {
        err = scratch;
        errlen = sizeof scratch;
    }
    char *copy = strdup(sel), *save = NULL;
    if (!copy)
        abort();
    bool match = true, bad = false, named = false, sparse_ok = false, any = false;
    for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        any = true;
        if (!strcmp(t, "sparse"))
            sparse_ok = true;
        if (!strchr(t, '=') && !strpbrk(t, "*?[") && strcmp(t, "all") && strcmp(t, "sparse"))
            named = true;
        if (!term_match(t, ins, err, errlen, &bad))
            match = false;
        if (bad)
            break;
    }
    free(copy);
    if (!any && !bad) {
        snprintf(err, errlen, "empty instruction selector");
        bad = true;
    }
    if (bad)
        return false;
    /* Sparse instructions need 2:4 A: a class takes them only when asked. */
    if (match && ins->sparse && !named && !sparse_ok)
        return false;
    return match;
}

bool tc_case_applies(const tc_case *c, const tc_instr *ins)
{
    return c->na <= ins->k && c->na <= TC_CASE_MAX_K && c->row < ins->m && c->col < ins->n &&
           tc_selector_match(c->instr, ins, NULL, 0);
}

static bool bind_one(const tc_case *c, int line, const char *what, const char *text,
                     const tc_format *f, const tc_instr *ins, uint64_t *bits, char *err,
                     size_t errlen)
{
    char msg[200];
    if (tc_value_parse_exact(text, f, bits, msg, sizeof msg))
        return true;
    snprintf(err, errlen, "%s:%d: %s: %s, for %s", c->file, line, what, msg, ins->name);
    return false;
}

bool tc_case_bind(const tc_case *c, const tc_instr *ins, tc_case_bound *out, char *err,
                  size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->ins = ins;
    out->k = ins->k;
    if (c->na > ins->k || ins->k > TC_CASE_MAX_K) {
        snprintf(err, errlen, "%s:%d: %d values do not fit %s (K = %d)", c->file, c->a_line, c->na,
                 ins->name, ins->k);
        return false;
    }
    char what[32];
    for (int k = 0; k < c->na; k++) {
        snprintf(what, sizeof what, "a[%d]", k);
        if (!bind_one(c, c->a_line, what, c->a[k], ins->a, ins, &out->a[k], err, errlen))
            return false;
        snprintf(what, sizeof what, "b[%d]", k);
        if (!bind_one(c, c->b_line, what, c->b[k], ins->b, ins, &out->b[k], err, errlen))
            return false;
    }
    if (c->c && !bind_one(c, c->c_line, "c", c->c, ins->c, ins, &out->c, err, errlen))
        return false;
    if (c->vary.kind == TC_VARY_INPUT) {
        const tc_format *f = c->vary.which == 'a' ? ins->a : c->vary.which == 'b' ? ins->b : ins->c;
        if (!bind_one(c, c->vary.line, "vary", c->vary.value, f, ins, &out->vary_bits, err, errlen))
            return false;
    }
    /* Expected values must be values of D: an unreachable one is a typo. */
    for (size_t pass = 0; pass < 2; pass++) {
        const tc_outcome *o = pass ? c->alt : c->expect;
        size_t n = pass ? c->nalt : c->nexpect;
        for (size_t i = 0; i < n; i++) {
            uint64_t ignored;
            if (o[i].kind == TC_OUT_VALUE &&
                !bind_one(c, o[i].line, "expected value", o[i].value, ins->d, ins, &ignored, err,
                          errlen))
                return false;
        }
    }
    if (ins->sparse && c->vary.kind == TC_VARY_PERMUTE) {
        snprintf(err, errlen, "%s:%d: vary = permutations would break %s's 2:4 sparsity", c->file,
                 c->vary.line, ins->name);
        return false;
    }
    if (ins->sparse) {   /* 2:4, or 1:2 for tf32 (probes/sparse.h) */
        int group, keep;
        tc_sparse_ratio(ins, &group, &keep);
        for (int g = 0; g < ins->k; g += group) {
            int nz = 0;
            for (int k = g; k < g + group && k < c->na; k++)
                nz += tc_classify(ins->a, out->a[k]) != TC_ZERO;
            if (nz > keep) {
                snprintf(err, errlen,
                         "%s:%d: a: %s is sparse: at most %d nonzeros in a[%d..%d] (found %d)",
                         c->file, c->a_line, ins->name, keep, g, g + group - 1, nz);
                return false;
            }
        }
    }
    return true;
}

/* ---- Writing cases back as text ------------------------------------------- */

static void write_outcome(const tc_outcome *o, FILE *f)
{
    switch (o->kind) {
    case TC_OUT_EXACT:
        fprintf(f, "exact %s", tc_round_name(o->mode));
        break;
    case TC_OUT_VALUE:
        fputs(o->value, f);
        break;
    case TC_OUT_NAN:
        fputs("nan", f);
        break;
    case TC_OUT_INVARIANT:
        fputs("invariant", f);
        break;
    case TC_OUT_MONOTONE:
        fputs("monotone", f);
        break;
    }
}

/* Runs of equal values print as "V x N" so long rows stay readable. */
static void write_list(const char *key, char **v, int n, FILE *f)
{
    fprintf(f, "%-7s= ", key);
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && !strcmp(v[j], v[i]))
            j++;
        fprintf(f, "%s%s", i ? ", " : "", v[i]);
        if (j - i > 1)
            fprintf(f, " x %d", j - i);
        i = j;
    }
    fputc('\n', f);
}

void tc_case_write(const tc_case *c, FILE *f)
{
    fprintf(f, "[%s]\n", c->name);
    fprintf(f, "instr  = %s\n", c->instr);
    /* quoted where the reader would cut a comment or trim blanks */
    size_t pl = strlen(c->probes);
    bool quote = strchr(c->probes, '#') || (pl && (isspace((unsigned char)c->probes[0]) ||
                                                    isspace((unsigned char)c->probes[pl - 1])));
    fprintf(f, quote ? "probes = \"%s\"\n" : "probes = %s\n", c->probes);
    if (c->feature)
        fprintf(f, "feature = %s\n", c->feature);
    if (c->level >= 0)
        fprintf(f, "level  = %d\n", c->level);
    write_list("a", c->a, c->na, f);
    write_list("b", c->b, c->nb, f);
    if (c->c)
        fprintf(f, "c      = %s\n", c->c);
    if (c->row)
        fprintf(f, "row    = %d\n", c->row);
    if (c->col)
        fprintf(f, "col    = %d\n", c->col);
    switch (c->vary.kind) {
    case TC_VARY_NONE:
        break;
    case TC_VARY_PERMUTE:
        fprintf(f, "vary   = permutations %d\n", c->vary.count);
        break;
    case TC_VARY_TILES:
        fprintf(f, "vary   = tiles %d\n", c->vary.count);
        break;
    case TC_VARY_RUNS:
        fprintf(f, "vary   = runs %d\n", c->vary.count);
        break;
    case TC_VARY_INPUT:
        if (c->vary.which == 'c')
            fprintf(f, "vary   = c %s\n", c->vary.value);
        else
            fprintf(f, "vary   = %c[%d] %s\n", c->vary.which, c->vary.index, c->vary.value);
        break;
    }
    for (size_t i = 0; i < c->nexpect; i++) {
        fputs(c->expect[i].reference ? "reference = " : "expect = ", f);
        write_outcome(&c->expect[i], f);
        fputc('\n', f);
    }
    for (size_t i = 0; i < c->nalt; i++) {
        fputs("if ", f);
        write_outcome(&c->alt[i], f);
        fprintf(f, " -> \"%s\"\n", c->alt[i].label);
    }
    fputc('\n', f);
}
