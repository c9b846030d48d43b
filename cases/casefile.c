/* Case files: text -> tc_case, with a "file:line: message" for every error.
 *
 * Parsing is two steps: the syntax of each line, then, per finished block,
 * the meaning (selector names instructions, every value fits every operand
 * format it will be bound to). Both steps stop at the first error, so the
 * message names the line a person has to fix.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/casefile.h"
#include "oracle/textfile.h"
#include "oracle/value.h"

typedef struct {
    const char *path;
    int line;
    char *err;
    size_t errlen;
} parser;

static bool fail_at(parser *p, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail_at(parser *p, int line, const char *fmt, ...)
{
    int n = snprintf(p->err, p->errlen, "%s:%d: ", p->path, line);
    if (n < 0 || (size_t)n >= p->errlen)
        return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        abort();
    return d;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        abort();
    return q;
}

/* Trims blanks in place; returns the start. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Cuts a "# comment": a '#' at the start or after a blank, outside quotes
 * (so "0x1p0#" stays a bad value rather than a silent truncation). */
static void cut_comment(char *s)
{
    bool quoted = false;
    for (char *q = s; *q; q++) {
        if (*q == '"')
            quoted = !quoted;
        else if (*q == '#' && !quoted && (q == s || isspace((unsigned char)q[-1]))) {
            *q = '\0';
            return;
        }
    }
}

/* A quoted "text" loses its quotes; unquoted text is taken as it is. A
 * quote anywhere else is refused: tc_case_write could not write it back. */
static bool unquote(parser *p, char *s, char **out)
{
    size_t n = strlen(s);
    if (n && s[0] == '"') {
        if (n < 2 || s[n - 1] != '"')
            return fail_at(p, p->line, "unterminated quoted text %s", s);
        s[n - 1] = '\0';
        s++;
        if (strchr(s, '"'))
            return fail_at(p, p->line, "a quote inside quoted text");
    } else if (strchr(s, '"'))
        return fail_at(p, p->line, "a quote inside text (quote the whole text: \"...\")");
    if (!*s)
        return fail_at(p, p->line, "empty text");
    *out = s;
    return true;
}

static bool parse_int(parser *p, const char *key, const char *s, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < lo || v > hi)
        return fail_at(p, p->line, "bad %s '%s': expected an integer in %d..%d", key, s, lo, hi);
    *out = (int)v;
    return true;
}

/* "V, V x 3, V" -> a list of value texts. */
static bool parse_list(parser *p, const char *key, char *s, char ***out, int *n)
{
    char **vals = NULL;
    int nv = 0;
    if (!*s)
        return fail_at(p, p->line, "%s has no values", key);
    /* strsep, not strtok: "1,,2", ",1" and "1," have an empty value to report */
    for (char *item; (item = strsep(&s, ",")) != NULL;) {
        char *v = trim(item);
        int rep = 1;
        /* "V x N": the last blank-separated word 'x' followed by a count. */
        char *x = strrchr(v, 'x');
        if (x && x > v && isspace((unsigned char)x[-1])) {
            char *cnt = trim(x + 1);
            if (!parse_int(p, "repeat count", cnt, 1, TC_CASE_MAX_K, &rep))
                goto bad;
            *x = '\0';
            v = trim(v);
        }
        if (!*v) {
            fail_at(p, p->line, "%s: empty value in the list", key);
            goto bad;
        }
        if (nv + rep > TC_CASE_MAX_K) {
            fail_at(p, p->line, "%s: more than %d values", key, TC_CASE_MAX_K);
            goto bad;
        }
        vals = xrealloc(vals, sizeof *vals * (size_t)(nv + rep));
        for (int r = 0; r < rep; r++)
            vals[nv++] = xstrdup(v);
    }
    if (nv == 0)
        return fail_at(p, p->line, "%s has no values", key);
    *out = vals;
    *n = nv;
    return true;
bad:
    for (int i = 0; i < nv; i++)
        free(vals[i]);
    free(vals);
    return false;
}

/* OUTCOME: exact [MODE] | nan | invariant | monotone | VALUE. */
static bool parse_outcome(parser *p, char *s, tc_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->line = p->line;
    if (!*s)
        return fail_at(p, p->line, "empty expectation");
    if (!strncmp(s, "exact", 5) && (s[5] == '\0' || isspace((unsigned char)s[5]))) {
        char *m = trim(s + 5);
        o->kind = TC_OUT_EXACT;
        o->mode = TC_RNE;
        if (*m && (!tc_round_parse(m, &o->mode) || o->mode == TC_RS))
            return fail_at(p, p->line,
                           "bad rounding mode '%s' after exact (rne, rna, rz, ru, rd, ro)", m);
        return true;
    }
    if (!strcmp(s, "nan") || !strcmp(s, "-nan") || !strcmp(s, "+nan")) {
        o->kind = TC_OUT_NAN;
        return true;
    }
    if (!strcmp(s, "invariant")) {
        o->kind = TC_OUT_INVARIANT;
        return true;
    }
    if (!strcmp(s, "monotone")) {
        o->kind = TC_OUT_MONOTONE;
        return true;
    }
    /* A value: its syntax is checked now (format-free), its fit when bound. */
    tc_parsed_value pv;
    char msg[160];
    if (strncmp(s, "bits:", 5) && !tc_value_parse(s, NULL, &pv, msg, sizeof msg))
        return fail_at(p, p->line, "bad expected value: %s", msg);
    if (!strncmp(s, "bits:", 5) && !tc_value_parse(s, &tc_f64, &pv, msg, sizeof msg))
        return fail_at(p, p->line, "bad expected value: %s", msg);
    o->kind = TC_OUT_VALUE;
    o->value = xstrdup(s);
    return true;
}

/* vary = permutations N | tiles N | runs N | a[I] V | b[I] V | c V */
static bool parse_vary(parser *p, char *s, tc_vary *v)
{
    memset(v, 0, sizeof *v);
    v->line = p->line;
    char *sp = s;
    while (*sp && !isspace((unsigned char)*sp))
        sp++;
    char *rest = trim(sp);
    if (*sp)
        *sp = '\0';
    static const struct {
        const char *name;
        tc_vary_kind kind;
    } counted[] = {{"permutations", TC_VARY_PERMUTE}, {"tiles", TC_VARY_TILES}, {"runs", TC_VARY_RUNS}};
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++)
        if (!strcmp(s, counted[i].name)) {
            v->kind = counted[i].kind;
            return parse_int(p, s, rest, 2, TC_CASE_MAX_VARY, &v->count);
        }
    if (!strcmp(s, "c") || (s[0] == 'a' || s[0] == 'b')) {
        v->which = s[0];
        if (s[0] != 'c') {
            char *end = s + 1;
            long idx = -1;
            if (s[1] == '[' && isdigit((unsigned char)s[2])) /* "a" alone: nothing after it to read */
                idx = strtol(s + 2, &end, 10);
            if (idx < 0 || strcmp(end, "]") || idx >= TC_CASE_MAX_K)
                return fail_at(p, p->line, "bad vary target '%s' (a[I], b[I] or c)", s);
            v->index = (int)idx;
        } else if (s[1])
            return fail_at(p, p->line, "bad vary target '%s' (a[I], b[I] or c)", s);
        if (!*rest)
            return fail_at(p, p->line, "vary %s needs a replacement value", s);
        v->kind = TC_VARY_INPUT;
        v->value = xstrdup(rest);
        return true;
    }
    return fail_at(p, p->line,
                   "bad vary '%s' (permutations N, tiles N, runs N, a[I] V, b[I] V or c V)", s);
}

static bool valid_name(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && !strchr("._-/+", *s))
            return false;
    return true;
}

/* Keys seen in the current block, for "duplicate key". */
typedef struct {
    bool instr, probes, a, b, c, row, col, vary, feature, level;
} seen_keys;

static bool set_key(parser *p, tc_case *c, seen_keys *seen, const char *key, char *val)
{
#define ONCE(field)                                                                    \
    do {                                                                               \
        if (seen->field)                                                               \
            return fail_at(p, p->line, "duplicate key '%s' in case '%s'", key, c->name); \
        seen->field = true;                                                            \
    } while (0)
    if (!strcmp(key, "instr")) {
        ONCE(instr);
        if (!*val)
            return fail_at(p, p->line, "instr is empty");
        c->instr = xstrdup(val);
        c->instr_line = p->line;
    } else if (!strcmp(key, "probes")) {
        ONCE(probes);
        char *t;
        if (!unquote(p, val, &t))
            return false;
        c->probes = xstrdup(t);
    } else if (!strcmp(key, "a")) {
        ONCE(a);
        c->a_line = p->line;
        return parse_list(p, "a", val, &c->a, &c->na);
    } else if (!strcmp(key, "b")) {
        ONCE(b);
        c->b_line = p->line;
        return parse_list(p, "b", val, &c->b, &c->nb);
    } else if (!strcmp(key, "c")) {
        ONCE(c);
        if (!*val || strchr(val, ','))
            return fail_at(p, p->line, "c takes one value");
        c->c = xstrdup(val);
        c->c_line = p->line;
    } else if (!strcmp(key, "row")) {
        ONCE(row);
        c->row_line = p->line;
        return parse_int(p, "row", val, 0, 255, &c->row);
    } else if (!strcmp(key, "col")) {
        ONCE(col);
        c->col_line = p->line;
        return parse_int(p, "col", val, 0, 255, &c->col);
    } else if (!strcmp(key, "expect") || !strcmp(key, "reference")) {
        tc_outcome o;
        if (!parse_outcome(p, val, &o))
            return false;
        o.reference = key[0] == 'r';
        c->expect = xrealloc(c->expect, sizeof *c->expect * (c->nexpect + 1));
        c->expect[c->nexpect++] = o;
    } else if (!strcmp(key, "vary")) {
        ONCE(vary);
        return parse_vary(p, val, &c->vary);
    } else if (!strcmp(key, "feature")) {
        ONCE(feature);
        if (!valid_name(val))
            return fail_at(p, p->line, "bad feature name '%s' (letters, digits, . _ - / +)", val);
        c->feature = xstrdup(val);
    } else if (!strcmp(key, "level")) {
        ONCE(level);
        return parse_int(p, "level", val, 0, 100000, &c->level);
    } else
        return fail_at(p, p->line,
                       "unknown key '%s' (instr, probes, a, b, c, row, col, expect, reference, vary, feature, level)",
                       key);
    return true;
#undef ONCE
}

/* if OUTCOME -> "label" */
static bool parse_if(parser *p, tc_case *c, char *s)
{
    char *arrow = strstr(s, "->");
    if (!arrow)
        return fail_at(p, p->line, "'if' needs 'OUTCOME -> \"behaviour\"'");
    *arrow = '\0';
    char *lhs = trim(s), *rhs = trim(arrow + 2), *label;
    if (!unquote(p, rhs, &label))
        return false;
    tc_outcome o;
    if (!parse_outcome(p, lhs, &o))
        return false;
    if (o.kind == TC_OUT_INVARIANT || o.kind == TC_OUT_MONOTONE)
        return fail_at(p, p->line, "'%s' is an expectation, not an alternative outcome", lhs);
    if (c->nalt >= 64) {
        free(o.value);
        return fail_at(p, p->line, "more than 64 alternatives");
    }
    o.label = xstrdup(label);
    c->alt = xrealloc(c->alt, sizeof *c->alt * (c->nalt + 1));
    c->alt[c->nalt++] = o;
    return true;
}

void tc_case_clear(tc_case *c)
{
    free(c->name);
    free(c->instr);
    free(c->probes);
    free(c->feature);
    for (int i = 0; i < c->na; i++)
        free(c->a[i]);
    for (int i = 0; i < c->nb; i++)
        free(c->b[i]);
    free(c->a);
    free(c->b);
    free(c->c);
    free(c->vary.value);
    for (size_t i = 0; i < c->nexpect; i++)
        free(c->expect[i].value);
    for (size_t i = 0; i < c->nalt; i++) {
        free(c->alt[i].value);
        free(c->alt[i].label);
    }
    free(c->expect);
    free(c->alt);
    memset(c, 0, sizeof *c);
}

void tc_casefile_free(tc_casefile *cf)
{
    for (size_t i = 0; i < cf->n; i++)
        tc_case_clear(&cf->cases[i]);
    free(cf->cases);
    free(cf->path);
    memset(cf, 0, sizeof *cf);
}

static bool check_block(parser *p, tc_case *c);

bool tc_casefile_parse(const char *path, const char *text, tc_casefile *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->path = xstrdup(path);
    parser p = {out->path, 0, err, errlen};
    tc_case *cur = NULL;
    seen_keys seen;
    const char *s = text;
    bool ok = true;
    while (ok && *s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char *buf = xrealloc(NULL, len + 1);
        memcpy(buf, s, len);
        buf[len] = '\0';
        s += len + (nl ? 1 : 0);
        p.line++;
        if (strchr(buf, '\r') != NULL) {
            char *cr = strchr(buf, '\r');
            if (cr && cr[1] == '\0')
                *cr = '\0'; /* CRLF files read like LF ones */
            else {
                ok = fail_at(&p, p.line, "control character in the line");
                free(buf);
                break;
            }
        }
        cut_comment(buf);
        char *line = trim(buf);
        if (!*line) {
            free(buf);
            continue;
        }
        if (line[0] == '[') {
            size_t n = strlen(line);
            if (line[n - 1] != ']') {
                ok = fail_at(&p, p.line, "case header needs a closing ']'");
            } else {
                line[n - 1] = '\0';
                char *name = trim(line + 1);
                if (!valid_name(name))
                    ok = fail_at(&p, p.line, "bad case name '%s' (letters, digits, . _ - / +)", name);
                for (size_t i = 0; ok && i < out->n; i++)
                    if (!strcmp(out->cases[i].name, name))
                        ok = fail_at(&p, p.line, "case '%s' already defined at line %d", name,
                                     out->cases[i].line);
                if (ok && cur)
                    ok = check_block(&p, cur);
                if (ok) {
                    out->cases = xrealloc(out->cases, sizeof *out->cases * (out->n + 1));
                    cur = &out->cases[out->n++];
                    memset(cur, 0, sizeof *cur);
                    cur->name = xstrdup(name);
                    cur->file = out->path;
                    cur->line = p.line;
                    cur->level = -1;
                    memset(&seen, 0, sizeof seen);
                }
            }
        } else if (!strncmp(line, "if", 2) && isspace((unsigned char)line[2])) {
            if (!cur)
                ok = fail_at(&p, p.line, "'if' outside a case (start one with [name])");
            else {
                /* "if A -> "x"; if B -> "y"": several alternatives on one line. */
                char *item = line + 3;
                bool quoted = false;
                for (char *q = item; ok; q++) {
                    if (*q == '"')
                        quoted = !quoted;
                    if (*q == '\0' || (*q == ';' && !quoted)) {
                        bool last = *q == '\0';
                        *q = '\0';
                        ok = parse_if(&p, cur, item);
                        if (last)
                            break;
                        item = trim(q + 1);
                        if (strncmp(item, "if", 2) || !isspace((unsigned char)item[2])) {
                            ok = fail_at(&p, p.line, "after ';' another 'if OUTCOME -> \"behaviour\"'");
                            break;
                        }
                        item += 3;
                        q = item - 1;
                    }
                }
            }
        } else {
            char *eq = strchr(line, '=');
            if (!eq) {
                ok = fail_at(&p, p.line, "expected 'key = value', '[name]' or 'if OUTCOME -> \"behaviour\"'");
            } else {
                *eq = '\0';
                char *key = trim(line), *val = trim(eq + 1);
                if (!cur)
                    ok = fail_at(&p, p.line, "'%s' outside a case (start one with [name])", key);
                else
                    ok = set_key(&p, cur, &seen, key, val);
            }
        }
        free(buf);
    }
    if (ok && cur)
        ok = check_block(&p, cur);
    if (ok && out->n == 0)
        ok = fail_at(&p, p.line > 0 ? p.line : 1, "no cases in the file");
    if (!ok) {
        tc_casefile_free(out);
        return false;
    }
    return true;
}

bool tc_casefile_load(const char *path, tc_casefile *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *buf = tc_read_text(path, NULL, err, errlen);
    if (!buf)
        return false;
    bool ok = tc_casefile_parse(path, buf, out, err, errlen);
    free(buf);
    return ok;
}

/* ---- The meaning of a finished block ---------------------------------------- */

static bool check_block(parser *p, tc_case *c)
{
    if (!c->instr)
        return fail_at(p, c->line, "case '%s' has no instr", c->name);
    if (!c->probes)
        return fail_at(p, c->line, "case '%s' has no probes (a sentence: what it probes)", c->name);
    if (!c->a)
        return fail_at(p, c->line, "case '%s' has no a (first row of A)", c->name);
    if (!c->b)
        return fail_at(p, c->line, "case '%s' has no b (first column of B)", c->name);
    if (c->na != c->nb)
        return fail_at(p, c->b_line, "b has %d values but a has %d", c->nb, c->na);
    if (c->vary.kind == TC_VARY_INPUT && c->vary.which != 'c' && c->vary.index >= c->na)
        return fail_at(p, c->vary.line, "vary %c[%d]: the case has only %d values", c->vary.which,
                       c->vary.index, c->na);
    for (size_t i = 0; i < c->nexpect; i++) {
        const tc_outcome *o = &c->expect[i];
        if (o->kind == TC_OUT_INVARIANT &&
            (c->vary.kind == TC_VARY_NONE || c->vary.kind == TC_VARY_INPUT))
            return fail_at(p, o->line, "expect = invariant needs vary = permutations/tiles/runs N");
        if (o->kind == TC_OUT_MONOTONE && c->vary.kind != TC_VARY_INPUT)
            return fail_at(p, o->line, "expect = monotone needs vary = a[I] V, b[I] V or c V");
    }

    /* Every term must be a well-formed selector; exact names must exist. */
    char msg[256];
    size_t ncat = 0, nmatch = 0, napply = 0;
    const tc_instr *cat = tc_catalogue(&ncat);
    {
        char *copy = xstrdup(c->instr), *save = NULL;
        bool bad = false;
        for (char *t = strtok_r(copy, " \t", &save); t && !bad; t = strtok_r(NULL, " \t", &save))
            if (!strpbrk(t, "=*?[") && strcmp(t, "all") && strcmp(t, "sparse") &&
                !tc_instr_by_name(t)) {
                fail_at(p, c->instr_line, "unknown instruction '%s'", t);
                bad = true;
            }
        free(copy);
        if (bad)
            return false;
    }
    for (size_t i = 0; i < ncat; i++) {
        msg[0] = '\0';
        bool m = tc_selector_match(c->instr, &cat[i], msg, sizeof msg);
        if (msg[0])
            return fail_at(p, c->instr_line, "%s", msg);
        if (!m)
            continue;
        nmatch++;
        if (c->na > cat[i].k)
            continue;
        napply++;
        if (c->row >= cat[i].m || c->col >= cat[i].n)
            return fail_at(p, c->row >= cat[i].m ? c->row_line : c->col_line,
                           "row %d, col %d lie outside %s's %dx%d D", c->row, c->col,
                           cat[i].name, cat[i].m, cat[i].n);
        /* Binding depends only on the formats (and sparsity): once per kind. */
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = cat[j].a == cat[i].a && cat[j].b == cat[i].b && cat[j].c == cat[i].c &&
                   cat[j].d == cat[i].d && cat[j].sparse == cat[i].sparse &&
                   c->na <= cat[j].k && tc_selector_match(c->instr, &cat[j], NULL, 0);
        if (seen)
            continue;
        tc_case_bound bound;
        if (!tc_case_bind(c, &cat[i], &bound, p->err, p->errlen))
            return false;
    }
    if (nmatch == 0)
        return fail_at(p, c->instr_line, "no instruction matches '%s'", c->instr);
    if (napply == 0)
        return fail_at(p, c->a_line, "no instruction matching '%s' has K >= %d (the case's %d values)",
                       c->instr, c->na, c->na);
    return true;
}
