/* profile: model_params per instruction as text (format in profile.h).
 * One table of fields drives parsing, completeness checks and writing, so
 * the reader and the writer cannot drift apart. */
#include "oracle/profile.h"
#include "oracle/textfile.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- values ---- */

static bool parse_bool(const char *v, bool *out)
{
    if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) {
        *out = true;
        return true;
    }
    if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) {
        *out = false;
        return true;
    }
    return false;
}

static bool parse_int(const char *v, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end || errno || x < lo || x > hi)
        return false;
    *out = (int)x;
    return true;
}

static bool parse_round(const char *v, tc_round *out)
{
    return tc_round_parse(v, out) && *out != TC_RS;
}

static bool parse_format(const char *name, tc_format *out)
{
    tc_format scratch;
    const tc_format *f = tc_format_by_name(name, &scratch);
    if (!f || f->specials == TC_SPECIALS_INT || f->specials == TC_SPECIALS_E8M0)
        return false;
    *out = *f;
    if (f == &scratch) {
        out->name = NULL;   /* points into the caller's text; model_format_name rebuilds it */
        /* the name it will be written as must read back as this very format:
         * "e04m03" is written "e4m3", which names FP8 E4M3 (no Inf), and
         * "e8m00" is written "e8m0", the MX scale (tests/fuzz/fuzz_profile.c) */
        char canon[40];
        tc_format again;
        const tc_format *g = tc_format_by_name(model_format_name(out, canon, sizeof canon), &again);
        if (g != &again)
            return false;
    }
    return true;
}

/* "FMT:ROUND" */
static bool parse_fmt_round(const char *v, tc_format *fmt, tc_round *r)
{
    const char *colon = strchr(v, ':');
    if (!colon || colon == v || (size_t)(colon - v) >= 32)
        return false;
    char name[32];
    memcpy(name, v, (size_t)(colon - v));
    name[colon - v] = '\0';
    return parse_format(name, fmt) && parse_round(colon + 1, r);
}

/* ---- the field table ---- */

typedef struct {
    const char *key;
    const char *expect;   /* for error messages */
    bool (*parse)(const char *v, model_params *p);
    void (*write)(FILE *f, const model_params *p);
} field;

static void put_fmt_round(FILE *f, const tc_format *fmt, tc_round r)
{
    char buf[40];
    fprintf(f, "%s:%s", model_format_name(fmt, buf, sizeof buf), tc_round_name(r));
}

static bool p_cvt(const char *v, model_cvt *c)
{
    if (!strcmp(v, "none")) {
        memset(c, 0, sizeof *c);
        return true;
    }
    c->convert = true;
    return parse_fmt_round(v, &c->fmt, &c->round) && c->fmt.mbits <= 30;
}

static void w_cvt(FILE *f, const model_cvt *c)
{
    if (!c->convert)
        fputs("none", f);
    else
        put_fmt_round(f, &c->fmt, c->round);
}

#define BOOL_FIELD(fn, member)                                       \
    static bool p_##fn(const char *v, model_params *p)              \
    {                                                                \
        return parse_bool(v, &p->member);                            \
    }                                                                \
    static void w_##fn(FILE *f, const model_params *p)              \
    {                                                                \
        fputs(p->member ? "yes" : "no", f);                          \
    }
BOOL_FIELD(a_ftz, ftz_a)
BOOL_FIELD(b_ftz, ftz_b)
BOOL_FIELD(c_ftz, ftz_c)
BOOL_FIELD(acc_ftz, ftz_acc)
BOOL_FIELD(out_ftz, ftz_out)

static bool p_acc_ovf(const char *v, model_params *p)
{
    if (!strcmp(v, "ieee") || !strcmp(v, "inf")) {
        p->acc_ovf_inf = !strcmp(v, "inf");
        return true;
    }
    return false;
}
static void w_acc_ovf(FILE *f, const model_params *p) { fputs(p->acc_ovf_inf ? "inf" : "ieee", f); }

/* Two-word fields: the second word is the non-IEEE behaviour. */
static bool p_word(const char *v, const char *off, const char *on, bool *out)
{
    if (strcmp(v, off) && strcmp(v, on))
        return false;
    *out = !strcmp(v, on);
    return true;
}
static bool p_zero_sign(const char *v, model_params *p) { return p_word(v, "ieee", "positive", &p->zero_positive); }
static void w_zero_sign(FILE *f, const model_params *p) { fputs(p->zero_positive ? "positive" : "ieee", f); }
static bool p_dropped_nan(const char *v, model_params *p) { return p_word(v, "nan", "inf", &p->dropped_nan_inf); }
static void w_dropped_nan(FILE *f, const model_params *p) { fputs(p->dropped_nan_inf ? "inf" : "nan", f); }

static bool p_align_floor(const char *v, model_params *p)
{
    if (!strcmp(v, "none")) {
        p->floored = false;
        p->align_floor = 0;
        return true;
    }
    p->floored = true;
    return parse_int(v, -100000, 100000, &p->align_floor);
}
static void w_align_floor(FILE *f, const model_params *p)
{
    if (p->floored)
        fprintf(f, "%d", p->align_floor);
    else
        fputs("none", f);
}

#define ROUND_FIELD(fn, member)                                      \
    static bool p_##fn(const char *v, model_params *p)              \
    {                                                                \
        return parse_round(v, &p->member);                           \
    }                                                                \
    static void w_##fn(FILE *f, const model_params *p)              \
    {                                                                \
        fputs(tc_round_name(p->member), f);                          \
    }
ROUND_FIELD(c_round, c_round)
ROUND_FIELD(out_round, out_round)

static bool p_a_convert(const char *v, model_params *p) { return p_cvt(v, &p->cvt_a); }
static void w_a_convert(FILE *f, const model_params *p) { w_cvt(f, &p->cvt_a); }
static bool p_b_convert(const char *v, model_params *p) { return p_cvt(v, &p->cvt_b); }
static void w_b_convert(FILE *f, const model_params *p) { w_cvt(f, &p->cvt_b); }

static bool p_products(const char *v, model_params *p)
{
    if (!strcmp(v, "exact")) {
        p->prod_bits = MODEL_EXACT;
        p->prod_round = TC_RNE;
        return true;
    }
    const char *colon = strchr(v, ':');
    if (!colon || (size_t)(colon - v) >= 8)
        return false;
    char num[8];
    memcpy(num, v, (size_t)(colon - v));
    num[colon - v] = '\0';
    return parse_int(num, 1, 64, &p->prod_bits) && parse_round(colon + 1, &p->prod_round);
}

static void w_products(FILE *f, const model_params *p)
{
    if (p->prod_bits == MODEL_EXACT)
        fputs("exact", f);
    else
        fprintf(f, "%d:%s", p->prod_bits, tc_round_name(p->prod_round));
}

static bool p_flush(const char *v, model_params *p)
{
    if (!strcmp(v, "none")) {
        p->prod_flush_exp = MODEL_NO_FLUSH;
        return true;
    }
    return parse_int(v, -10000, 10000, &p->prod_flush_exp);
}

static void w_flush(FILE *f, const model_params *p)
{
    if (p->prod_flush_exp == MODEL_NO_FLUSH)
        fputs("none", f);
    else
        fprintf(f, "%d", p->prod_flush_exp);
}

static bool p_block(const char *v, model_params *p) { return parse_int(v, 1, 1 << 20, &p->block); }
static void w_block(FILE *f, const model_params *p) { fprintf(f, "%d", p->block); }

static bool p_split(const char *v, model_params *p)
{
    if (!strcmp(v, "contiguous")) {
        p->split_runs = 0;
        return true;
    }
    return !strncmp(v, "interleaved:", 12) && parse_int(v + 12, 1, 1 << 20, &p->split_runs);
}
static void w_split(FILE *f, const model_params *p)
{
    if (p->split_runs)
        fprintf(f, "interleaved:%d", p->split_runs);
    else
        fputs("contiguous", f);
}

static const char *const nan_prop_names[MODEL_NAN_ORDERS] = {"no",      "acc,a,b", "acc,b,a", "a,b,acc",
                                                             "b,a,acc", "a,acc,b", "b,acc,a"};
static bool p_nan_prop(const char *v, model_params *p)
{
    for (int i = 0; i < MODEL_NAN_ORDERS; i++)
        if (!strcmp(v, nan_prop_names[i])) {
            p->nan_prop = (model_nan_prop)i;
            return true;
        }
    return false;
}
static void w_nan_prop(FILE *f, const model_params *p) { fputs(nan_prop_names[p->nan_prop], f); }

static bool p_c_mode(const char *v, model_params *p) { return model_c_mode_parse(v, &p->c_mode); }
static void w_c_mode(FILE *f, const model_params *p) { fputs(model_c_mode_name(p->c_mode), f); }

static bool p_align_ref(const char *v, model_params *p)
{
    if (!strcmp(v, "all"))
        p->align_with_acc = true;
    else if (!strcmp(v, "products"))
        p->align_with_acc = false;
    else
        return false;
    return true;
}

static void w_align_ref(FILE *f, const model_params *p)
{
    fputs(p->align_with_acc ? "all" : "products", f);
}

static bool p_align_exp(const char *v, model_params *p) { return model_exp_ref_parse(v, &p->exp_ref); }
static void w_align_exp(FILE *f, const model_params *p) { fputs(model_exp_ref_name(p->exp_ref), f); }

static bool p_align_bits(const char *v, model_params *p)
{
    if (!strcmp(v, "exact")) {
        p->align_bits = MODEL_EXACT;
        return true;
    }
    return parse_int(v, 0, 1000, &p->align_bits);
}

static void w_align_bits(FILE *f, const model_params *p)
{
    if (p->align_bits == MODEL_EXACT)
        fputs("exact", f);
    else
        fprintf(f, "%d", p->align_bits);
}

static bool p_align_round(const char *v, model_params *p)
{
    return model_align_round_parse(v, &p->align_round);
}

static void w_align_round(FILE *f, const model_params *p)
{
    fputs(model_align_round_name(p->align_round), f);
}

static bool p_carry(const char *v, model_params *p)
{
    if (!strcmp(v, "unlimited")) {
        p->carry_bits = MODEL_UNLIMITED;
        return true;
    }
    return parse_int(v, 1, 64, &p->carry_bits);
}

static void w_carry(FILE *f, const model_params *p)
{
    if (p->carry_bits == MODEL_UNLIMITED)
        fputs("unlimited", f);
    else
        fprintf(f, "%d", p->carry_bits);
}

static bool p_acc(const char *v, model_params *p)
{
    if (!strcmp(v, "exact")) {
        p->acc_exact = true;
        return true;
    }
    p->acc_exact = false;
    return parse_fmt_round(v, &p->acc_fmt, &p->acc_round);
}

static void w_acc(FILE *f, const model_params *p)
{
    if (p->acc_exact)
        fputs("exact", f);
    else
        put_fmt_round(f, &p->acc_fmt, p->acc_round);
}

static bool p_ovf(const char *v, model_params *p) { return tc_overflow_parse(v, &p->out_ovf); }
static void w_ovf(FILE *f, const model_params *p) { fputs(tc_overflow_name(p->out_ovf), f); }

/* nan: parsed separately ("canonical" needs the instruction name). */
static void w_nan(FILE *f, const model_params *p) { fprintf(f, "0x%" PRIX64, p->nan_bits); }

#define NAN_FIELD 20
static const field fields[] = {
    {"a_convert", "none or FORMAT:ROUND (e.g. tf32:rz)", p_a_convert, w_a_convert},
    {"b_convert", "none or FORMAT:ROUND (e.g. tf32:rz)", p_b_convert, w_b_convert},
    {"a_ftz", "yes or no", p_a_ftz, w_a_ftz},
    {"b_ftz", "yes or no", p_b_ftz, w_b_ftz},
    {"c_ftz", "yes or no", p_c_ftz, w_c_ftz},
    {"products", "exact or BITS:ROUND with BITS in 1..64", p_products, w_products},
    {"product_flush_below", "none or an exponent in -10000..10000", p_flush, w_flush},
    {"block", "an integer in 1..1048576", p_block, w_block},
    {"c_mode", "first or last", p_c_mode, w_c_mode},
    {"c_round", "rne, rna, rz, ru, rd or ro", p_c_round, w_c_round},
    {"align_ref", "products or all", p_align_ref, w_align_ref},
    {"align_exp", "nominal or normalized", p_align_exp, w_align_exp},
    {"align_bits", "exact or an integer in 0..1000", p_align_bits, w_align_bits},
    {"align_round", "trunc, floor or rne", p_align_round, w_align_round},
    {"carry_bits", "unlimited or an integer in 1..64", p_carry, w_carry},
    {"acc", "exact or FORMAT:ROUND (e.g. f32:rz)", p_acc, w_acc},
    {"acc_ftz", "yes or no", p_acc_ftz, w_acc_ftz},
    {"out_round", "rne, rna, rz, ru, rd or ro", p_out_round, w_out_round},
    {"out_overflow", "inf, sat or nan", p_ovf, w_ovf},
    {"out_ftz", "yes or no", p_out_ftz, w_out_ftz},
    {"nan", "canonical or 0xBITS", NULL, w_nan},
    {"acc_overflow", "ieee or inf", p_acc_ovf, w_acc_ovf},
    {"step_split", "contiguous or interleaved:RUN (RUN divides block)", p_split, w_split},
    {"nan_propagate", "no, or an order of a, b and acc (e.g. b,acc,a)", p_nan_prop, w_nan_prop},
    {"zero_sign", "ieee or positive (every zero result +0)", p_zero_sign, w_zero_sign},
    {"dropped_nan", "nan or inf (what a NaN whose payload is only in cut bits reads as)", p_dropped_nan,
     w_dropped_nan},
    {"align_floor", "none or the exponent of the finest grid bit, in -100000..100000", p_align_floor,
     w_align_floor},
};
/* Fields added after the first recorded profiles: absent means their default
 * (ieee zero signs, a NaN stays NaN, no floor: IEEE behaviour). */
#define OPTIONAL_FIELDS ((1u << 21) | (1u << 22) | (1u << 23) | (1u << 24) | (1u << 25) | (1u << 26))
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))
_Static_assert(NFIELDS <= 32, "field masks are 32 bits");

/* ---- parsing ---- */

typedef struct {
    const char *source;
    char *err;
    size_t errlen;
} perr;

__attribute__((format(printf, 3, 4))) static int fail(const perr *e, int line, const char *fmt, ...)
{
    if (!e->err || !e->errlen)
        return -1;
    int n = snprintf(e->err, e->errlen, "%s:%d: ", e->source, line);
    if (n < 0 || (size_t)n >= e->errlen)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->err + n, e->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A section being read: [default] or [instr NAME]. */
typedef struct {
    bool active, is_default;
    char instr[96];
    int line;
    model_params p;
    uint32_t set;
    int set_line[32];      /* for duplicate-key messages */
    bool nan_canonical;
} section;

/* The output format named in an instruction: the field after the shape. */
static const tc_format *instr_out_format(const char *instr, tc_format *scratch)
{
    const char *s = strchr(instr, '.');
    if (!s)
        return NULL;
    s = strchr(s + 1, '.');   /* after the shape */
    if (!s)
        return NULL;
    s++;
    char name[16];
    size_t n = strcspn(s, ".");
    if (n == 0 || n >= sizeof name)
        return NULL;
    memcpy(name, s, n);
    name[n] = '\0';
    return tc_format_by_name(name, scratch);
}

static int finish_section(const perr *e, section *sec, const section *def, model_profile *out)
{
    if (!sec->active || sec->is_default)
        return 0;
    uint32_t all = (uint32_t)((1ull << NFIELDS) - 1) & ~OPTIONAL_FIELDS;
    uint32_t have = sec->set | def->set;
    if ((have & all) != all) {
        for (int i = 0; i < NFIELDS; i++)
            if (!(have & (1u << i)))
                return fail(e, sec->line, "[instr %s]: missing field '%s' (%s)", sec->instr,
                            fields[i].key, fields[i].expect);
    }
    if (sec->nan_canonical) {
        tc_format scratch;
        const tc_format *d = instr_out_format(sec->instr, &scratch);
        if (!d)
            return fail(e, sec->line, "[instr %s]: nan = canonical needs an output format in the name",
                        sec->instr);
        sec->p.nan_bits = d->nan_bits;
    }
    tc_format scratch;
    oracle_formats fm = {NULL, NULL, NULL, instr_out_format(sec->instr, &scratch)};
    const char *bad = model_params_check(&sec->p, fm);
    if (bad)
        return fail(e, sec->line, "[instr %s]: %s", sec->instr, bad);
    if (profile_set(out, sec->instr, &sec->p) != 0)
        return fail(e, sec->line, "out of memory");
    out->entries[out->count - 1].line = sec->line;
    return 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

static int parse_line(const perr *e, int ln, char *line, section *sec, section *def,
                      bool *in_about, bool *seen_default, model_profile *out)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *s = trim(line);
    if (!*s)
        return 0;
    if (*s == '[') {
        char *close = strchr(s, ']');
        if (!close || *trim(close + 1))
            return fail(e, ln, "malformed section header '%s'", s);
        *close = '\0';
        char *name = trim(s + 1);
        if (finish_section(e, sec, def, out))
            return -1;
        if (sec->is_default && sec->active)
            *def = *sec;
        memset(sec, 0, sizeof *sec);
        *in_about = false;
        if (!strcmp(name, "about")) {
            *in_about = true;
            return 0;
        }
        if (!strcmp(name, "default")) {
            if (*seen_default)
                return fail(e, ln, "duplicate section [default]");
            if (out->count)
                return fail(e, ln, "[default] must come before every [instr] section");
            *seen_default = true;
            sec->active = sec->is_default = true;
            sec->line = ln;
            return 0;
        }
        if (strncmp(name, "instr", 5) || !isspace((unsigned char)name[5]))
            return fail(e, ln, "unknown section [%s] (expected [about], [default] or [instr NAME])", name);
        char *iname = trim(name + 5);
        if (!*iname || strlen(iname) >= sizeof sec->instr || strpbrk(iname, " \t"))
            return fail(e, ln, "bad instruction name in [instr %s]", iname);
        if (profile_lookup(out, iname))
            return fail(e, ln, "duplicate section [instr %s]", iname);
        *sec = *def;
        sec->set = 0;   /* own keys only; defaults fill the rest */
        sec->active = true;
        sec->is_default = false;
        snprintf(sec->instr, sizeof sec->instr, "%s", iname);
        sec->line = ln;
        return 0;
    }
    char *eq = strchr(s, '=');
    if (!eq)
        return fail(e, ln, "expected 'key = value' or a [section], got '%s'", s);
    *eq = '\0';
    char *key = trim(s), *val = trim(eq + 1);
    if (*in_about) {
        if (!*key || strlen(key) >= sizeof out->notes[0].key || strlen(val) >= sizeof out->notes[0].value)
            return fail(e, ln, "bad [about] entry");
        return profile_add_note(out, key, val) ? fail(e, ln, "out of memory") : 0;
    }
    if (!sec->active)
        return fail(e, ln, "key '%s' outside a section", key);
    int fi = -1;
    for (int i = 0; i < NFIELDS; i++)
        if (!strcmp(fields[i].key, key))
            fi = i;
    if (fi < 0)
        return fail(e, ln, "unknown key '%s'", key);
    if (sec->set & (1u << fi))
        return fail(e, ln, "duplicate key '%s' (first on line %d)", key, sec->set_line[fi]);
    bool ok;
    if (fi == NAN_FIELD) {
        if (!strcmp(val, "canonical")) {
            sec->nan_canonical = true;
            ok = true;
        } else {
            char *end;
            errno = 0;
            unsigned long long x = strtoull(val, &end, 16);
            ok = !strncmp(val, "0x", 2) && end != val + 2 && !*end && !errno;
            sec->p.nan_bits = x;
            sec->nan_canonical = false;
        }
    } else {
        ok = fields[fi].parse(val, &sec->p);
    }
    if (!ok)
        return fail(e, ln, "bad value '%s' for '%s' (expected %s)", val, key, fields[fi].expect);
    sec->set |= 1u << fi;
    sec->set_line[fi] = ln;
    return 0;
}

int profile_parse(const char *text, const char *source, model_profile *out, char *err,
                  size_t errlen)
{
    memset(out, 0, sizeof *out);
    perr e = {source ? source : "<profile>", err, errlen};
    section sec, def;
    memset(&sec, 0, sizeof sec);
    memset(&def, 0, sizeof def);
    bool in_about = false, seen_default = false;
    int ln = 0;
    const char *p = text;
    int rc = 0;
    while (*p && rc == 0) {
        ln++;
        size_t n = strcspn(p, "\n");
        char *line = malloc(n + 1);
        if (!line) {
            rc = fail(&e, ln, "out of memory");
            break;
        }
        memcpy(line, p, n);
        line[n] = '\0';
        if (memchr(p, '\0', n))
            rc = fail(&e, ln, "NUL byte in profile");
        else
            rc = parse_line(&e, ln, line, &sec, &def, &in_about, &seen_default, out);
        free(line);
        p += n;
        if (*p == '\n')
            p++;
    }
    if (rc == 0)
        rc = finish_section(&e, &sec, &def, out);
    if (rc == 0 && out->count == 0)
        rc = fail(&e, ln, "no [instr NAME] section");
    if (rc != 0)
        profile_free(out);
    return rc;
}

int profile_load(const char *path, model_profile *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char *buf = tc_read_text(path, NULL, err, errlen);
    if (!buf)
        return -1;
    int rc = profile_parse(buf, path, out, err, errlen);
    free(buf);
    return rc;
}

void profile_free(model_profile *p)
{
    free(p->entries);
    free(p->notes);
    memset(p, 0, sizeof *p);
}

const model_params *profile_lookup(const model_profile *p, const char *instr)
{
    for (size_t i = 0; i < p->count; i++)
        if (!strcmp(p->entries[i].instr, instr))
            return &p->entries[i].params;
    return NULL;
}

int profile_set(model_profile *p, const char *instr, const model_params *params)
{
    for (size_t i = 0; i < p->count; i++)
        if (!strcmp(p->entries[i].instr, instr)) {
            p->entries[i].params = *params;
            return 0;
        }
    profile_entry *ne = realloc(p->entries, (p->count + 1) * sizeof *ne);
    if (!ne)
        return -1;
    p->entries = ne;
    profile_entry *en = &ne[p->count++];
    memset(en, 0, sizeof *en);
    snprintf(en->instr, sizeof en->instr, "%s", instr);
    en->params = *params;
    return 0;
}

void profile_remove(model_profile *p, const char *instr)
{
    for (size_t i = 0; i < p->count; i++)
        if (!strcmp(p->entries[i].instr, instr)) {
            memmove(&p->entries[i], &p->entries[i + 1], (p->count - i - 1) * sizeof *p->entries);
            p->count--;
            return;
        }
}

int profile_add_note(model_profile *p, const char *key, const char *value)
{
    profile_note *nn = realloc(p->notes, (p->nnotes + 1) * sizeof *nn);
    if (!nn)
        return -1;
    p->notes = nn;
    snprintf(nn[p->nnotes].key, sizeof nn[0].key, "%s", key);
    snprintf(nn[p->nnotes].value, sizeof nn[0].value, "%s", value);
    p->nnotes++;
    return 0;
}

/* ---- writing ---- */

int profile_field_count(void)
{
    return NFIELDS;
}

const char *profile_field_key(int i)
{
    return i >= 0 && i < NFIELDS ? fields[i].key : NULL;
}

void profile_field_text(const model_params *p, int i, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    if (i < 0 || i >= NFIELDS)
        return;
    FILE *f = fmemopen(buf, len, "w");
    if (!f)
        return;
    fields[i].write(f, p);
    fclose(f);
    buf[len - 1] = '\0';
}

void profile_write_params(FILE *f, const model_params *p)
{
    for (int i = 0; i < NFIELDS; i++) {
        fprintf(f, "%s = ", fields[i].key);
        fields[i].write(f, p);
        fputc('\n', f);
    }
}

int profile_write(FILE *f, const model_profile *p)
{
    fprintf(f, "# tcscope model profile: the arithmetic of each instruction (oracle/profile.h).\n");
    if (p->nnotes) {
        fprintf(f, "\n[about]\n");
        for (size_t i = 0; i < p->nnotes; i++)
            fprintf(f, "%s = %s\n", p->notes[i].key, p->notes[i].value);
    }
    for (size_t i = 0; i < p->count; i++) {
        fprintf(f, "\n[instr %s]\n", p->entries[i].instr);
        profile_write_params(f, &p->entries[i].params);
    }
    return ferror(f) ? -1 : 0;
}
