/* The decide object (see record_decide.h). */
#define _POSIX_C_SOURCE 200809L
#include "reports/record_decide.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/audit.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "reports/record_audit.h"
#include "reports/reports.h"

static int digits_of(const tc_instr *ins) { return ins->d->storage_bits / 4; }

static json_t *bits_array(const uint64_t *v, int k)
{
    json_t *a = json_array();
    for (int i = 0; i < k; i++)
        json_array_append_new(a, tc_json_bits(v[i]));
    return a;
}

json_t *tc_decide_object(const decide_set *s, const uint64_t *hw)
{
    const tc_instr *ins = s->ins;
    json_t *fp = json_object(), *pool = json_array(), *extra = json_array(), *open = json_object(),
           *equivalent = json_object();
    for (int i = 0; i < model_field_count(); i++) {
        char t[64];
        model_field_text(&s->v, i, t, sizeof t);
        json_object_set_new(fp, model_fields[i].key, tc_fingerprint_value(i, t));
    }
    for (size_t i = 0; i < s->npool; i++)
        json_array_append_new(pool, json_integer((json_int_t)s->from_pool[i]));
    for (size_t i = s->npool; i < s->ninputs; i++) {
        const infer_case *c = &s->inputs[i];
        json_array_append_new(extra, json_pack("{s:o, s:o, s:o}", "a", bits_array(c->a, c->k), "b",
                                               bits_array(c->b, c->k), "c", tc_json_bits(c->c)));
    }
    for (size_t i = 0; i < s->nopen; i++) {
        const char *key = model_fields[s->open[i].field].key;
        json_t *to = s->open[i].equivalent ? equivalent : open, *l = json_object_get(to, key);
        if (!l)
            json_object_set_new(to, key, l = json_array());
        json_array_append_new(l, json_string(s->open[i].value));
    }
    char hash[19];
    snprintf(hash, sizeof hash, "0x%016" PRIx64, s->pool_hash);
    json_t *o = json_pack("{s:s, s:s, s:i, s:o, s:I, s:I, s:I, s:s, s:o, s:o, s:I, s:o, s:o}", "kind", "decide",
                          "instr", ins->name, "k", s->k, "seed", tc_json_bits(s->opts.seed), "per_family",
                          (json_int_t)s->opts.per_family, "mutations", (json_int_t)s->opts.mutations, "pool",
                          (json_int_t)s->pool, "pool_hash", hash, "fingerprint", fp, "inputs", pool, "pairs",
                          (json_int_t)s->pairs, "explicit", extra, "open", open);
    json_object_set_new(o, "equivalent", equivalent);
    if (hw) {
        int dg = digits_of(ins);
        char *hex = malloc(s->ninputs * (size_t)dg + 1);
        if (hex) {
            hex[0] = '\0';
            for (size_t i = 0; i < s->ninputs; i++)
                snprintf(hex + i * (size_t)dg, (size_t)dg + 1, "%0*" PRIx64, dg, hw[i]);
            json_object_set_new(o, "hw", json_string(hex));
            free(hex);
        }
    }
    return o;
}

/* The fingerprint object as params, through the profile's own parser. */
static bool params_of(const tc_instr *ins, const json_t *fp, model_params *out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return false;
    fprintf(f, "[instr %s]\n", ins->name);
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)fp, key, v) {
        if (model_field_find(key) < 0)
            continue;
        if (json_is_integer(v))
            fprintf(f, "%s = %" JSON_INTEGER_FORMAT "\n", key, json_integer_value(v));
        else if (json_is_string(v) && !strpbrk(json_string_value(v), "\n\r["))
            fprintf(f, "%s = %s\n", key, json_string_value(v));
    }
    fclose(f);
    model_profile prof;
    char err[256];
    bool ok = profile_parse(buf, "decide record", &prof, err, sizeof err) == 0;
    free(buf);
    const model_params *q = ok ? profile_lookup(&prof, ins->name) : NULL;
    if (q)
        *out = *q;
    if (ok)
        profile_free(&prof);
    return q != NULL;
}

static bool bits_list(const json_t *a, const tc_format *f, int k, uint64_t *out)
{
    if (!json_is_array(a) || json_array_size(a) != (size_t)k)
        return false;
    for (int i = 0; i < k; i++)
        if (!tc_json_get_bits(json_array_get(a, (size_t)i), &out[i]) || (out[i] & ~tc_operand_mask(f)))
            return false;
    return true;
}

static int fail(char *err, size_t errlen, const char *instr, const char *what)
{
    snprintf(err, errlen, "decide %s: %s", instr, what);
    return -1;
}

/* The mutated inputs into s->inputs[s->npool..]. */
static int read_mutated(const json_t *ex, decide_set *s, char *err, size_t errlen)
{
    size_t i;
    const json_t *e;
    json_array_foreach(ex, i, e) {
        infer_case *c = &s->inputs[s->npool + i];
        c->family = "mutation";
        c->k = s->k;
        c->a = malloc((size_t)s->k * 8);
        c->b = malloc((size_t)s->k * 8);
        if (!c->a || !c->b)
            return fail(err, errlen, s->ins->name, "out of memory");
        if (!bits_list(json_object_get(e, "a"), s->ins->a, s->k, c->a) ||
            !bits_list(json_object_get(e, "b"), s->ins->b, s->k, c->b) ||
            !tc_json_get_bits(json_object_get(e, "c"), &c->c) || (c->c & ~tc_operand_mask(s->ins->c)))
            return fail(err, errlen, s->ins->name, "a mutated input is malformed (want a, b: K bits each, c)");
    }
    return 0;
}

/* "open" (the search's budget spent) and "equivalent" (proven; absent in
 * records before the proofs), both {field: [value, ..]}, into s->open. */
static int read_open(const json_t *o, decide_set *s, char *err, size_t errlen)
{
    const char *keys[2] = {"open", "equivalent"}, *key;
    json_t *l;
    size_t n = 0, i;
    for (int q = 0; q < 2; q++) {
        const json_t *m = json_object_get(o, keys[q]);
        if (q && m && !json_is_object(m))
            return fail(err, errlen, s->ins->name, "equivalent: not an object");
        json_object_foreach((json_t *)m, key, l) n += json_array_size(l);
    }
    s->open = calloc(n + 1, sizeof *s->open);
    if (!s->open)
        return fail(err, errlen, s->ins->name, "out of memory");
    for (int q = 0; q < 2; q++)
        json_object_foreach(json_object_get(o, keys[q]), key, l) {
            int field = model_field_find(key);
            json_t *v;
            if (field < 0 || !json_is_array(l))
                return fail(err, errlen, s->ins->name, "open: not a field's list");
            json_array_foreach(l, i, v) {
                if (!json_is_string(v) || strlen(json_string_value(v)) >= sizeof s->open[0].value)
                    return fail(err, errlen, s->ins->name, "open: a value is not a short string");
                s->open[s->nopen].field = field;
                s->open[s->nopen].equivalent = q == 1;
                snprintf(s->open[s->nopen++].value, sizeof s->open[0].value, "%s", json_string_value(v));
            }
        }
    return 0;
}

static int read_hw(const json_t *o, const decide_set *s, uint64_t **hw, char *err, size_t errlen)
{
    const char *hex = json_string_value(json_object_get(o, "hw"));
    *hw = NULL;
    if (!json_object_get(o, "hw"))
        return 0;
    int dg = digits_of(s->ins);
    if (!hex || strlen(hex) != s->ninputs * (size_t)dg || strspn(hex, "0123456789abcdef") != strlen(hex))
        return fail(err, errlen, s->ins->name, "hw: not one fixed-width lower-case hex answer per input");
    *hw = malloc((s->ninputs + 1) * sizeof **hw);
    if (!*hw)
        return fail(err, errlen, s->ins->name, "out of memory");
    for (size_t i = 0; i < s->ninputs; i++) {
        char w[17];
        memcpy(w, hex + i * (size_t)dg, (size_t)dg);
        w[dg] = '\0';
        (*hw)[i] = strtoull(w, NULL, 16);
    }
    return 0;
}

int tc_decide_read(const json_t *o, decide_set *s, uint64_t **hw, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    *hw = NULL;
    const char *name = json_string_value(json_object_get(o, "instr"));
    const tc_instr *ins = name ? tc_instr_by_name(name) : NULL;
    if (!ins) {
        snprintf(err, errlen, "decide: unknown instruction '%.80s'", name ? name : "?");
        return -1;
    }
    s->ins = ins;
    const json_t *pool = json_object_get(o, "inputs"), *ex = json_object_get(o, "explicit");
    json_int_t k = json_integer_value(json_object_get(o, "k"));
    json_int_t pf = json_integer_value(json_object_get(o, "per_family"));
    if (!json_is_array(pool) || !json_is_array(ex) || k < 1 || k > ins->k || pf < 0 || pf > 65536 ||
        !tc_json_get_bits(json_object_get(o, "seed"), &s->opts.seed) || !json_is_object(json_object_get(o, "open")) ||
        !params_of(ins, json_object_get(o, "fingerprint"), &s->v))
        return fail(err, errlen, name, "malformed (k, per_family, seed, inputs, mutated, open, fingerprint)");
    s->k = (int)k;
    s->opts.per_family = (size_t)pf;
    s->opts.mutations = (size_t)json_integer_value(json_object_get(o, "mutations"));
    s->pairs = (size_t)json_integer_value(json_object_get(o, "pairs"));
    s->npool = json_array_size(pool);
    s->ninputs = s->npool + json_array_size(ex);
    s->from_pool = malloc((s->npool + 1) * sizeof *s->from_pool);
    s->inputs = calloc(s->ninputs + 1, sizeof *s->inputs);
    if (!s->from_pool || !s->inputs) {
        decide_set_free(s);
        return fail(err, errlen, name, "out of memory");
    }
    for (size_t i = 0; i < s->npool; i++) {
        json_int_t x = json_integer_value(json_array_get(pool, i));
        if (!json_is_integer(json_array_get(pool, i)) || x < 0 || (i && (size_t)x <= s->from_pool[i - 1])) {
            decide_set_free(s);
            return fail(err, errlen, name, "inputs: not ascending pool indices");
        }
        s->from_pool[i] = (size_t)x;
    }
    uint64_t hash;
    const char *want = json_string_value(json_object_get(o, "pool_hash"));
    char got[19];
    int rc = decide_pool_pick(ins, s->opts.seed, s->opts.per_family, s->from_pool, s->npool, s->inputs, &s->pool,
                              &hash, err, errlen);
    snprintf(got, sizeof got, "0x%016" PRIx64, hash);
    s->pool_hash = hash;
    if (rc == 0 && (!want || strcmp(want, got)))
        rc = fail(err, errlen, name, "the pool generator no longer gives the recorded inputs (pool_hash differs)");
    if (rc == 0 && s->k != (s->npool ? s->inputs[0].k : s->k))
        rc = fail(err, errlen, name, "k is not the pool's");
    if (rc == 0)
        rc = read_mutated(ex, s, err, errlen);
    if (rc == 0)
        rc = read_open(o, s, err, errlen);
    if (rc == 0)
        rc = read_hw(o, s, hw, err, errlen);
    if (rc)
        decide_set_free(s);
    return rc;
}
