/* profile: model_params per instruction as text (format in profile.h).
 * The field table (oracle/model_fields.h) drives parsing, completeness
 * checks and writing, so the reader and the writer cannot drift apart. */
#include "oracle/profile.h"
#include "oracle/model_fields.h"
#include "oracle/textfile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    int set_line[MODEL_FIELDS_MAX];   /* for duplicate-key messages */
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
    uint32_t have = sec->set | def->set;
    for (int i = 0; i < model_field_count(); i++)
        if (!model_fields[i].optional && !(have & (1u << i)))
            return fail(e, sec->line, "[instr %s]: missing field '%s' (%s)", sec->instr,
                        model_fields[i].key, model_fields[i].expect);
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
    int fi = model_field_find(key);
    if (fi < 0)
        return fail(e, ln, "unknown key '%s'", key);
    if (sec->set & (1u << fi))
        return fail(e, ln, "duplicate key '%s' (first on line %d)", key, sec->set_line[fi]);
    model_field_parsed got = model_fields[fi].parse(val, &sec->p);
    if (got == MODEL_FIELD_BAD)
        return fail(e, ln, "bad value '%s' for '%s' (expected %s)", val, key, model_fields[fi].expect);
    if (fi == model_field_find("nan"))   /* canonical: resolved per instruction in finish_section */
        sec->nan_canonical = got == MODEL_FIELD_CANONICAL;
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

void profile_write_params(FILE *f, const model_params *p)
{
    char buf[256];
    for (int i = 0; i < model_field_count(); i++) {
        model_field_text(p, i, buf, sizeof buf);
        fprintf(f, "%s = %s\n", model_fields[i].key, buf);
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
