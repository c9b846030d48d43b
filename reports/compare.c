/* Record comparison, object by object. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/compare_internal.h"
#include "reports/record_audit.h"
#include "reports/text.h"

tc_compare_opts tc_compare_defaults(void)
{
    tc_compare_opts o = {TC_COMPARE_DEFAULT_THRESHOLD, TC_COMPARE_MIN_THRESHOLD,
                         TC_COMPARE_NOISE_FACTOR, 10, false};
    return o;
}

/* Every key of either object compared with json_equal. */
static void compare_fields(cmp_diffs *dl, const char *kind, const char *key, const char *prefix,
                           const json_t *a, const json_t *b)
{
    json_t *keys = json_object();
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)a, k, v) json_object_set_new(keys, k, json_true());
    json_object_foreach((json_t *)b, k, v) json_object_set_new(keys, k, json_true());
    json_object_foreach(keys, k, v) cmp_exact(dl, kind, key, prefix, k, a, b);
    json_decref(keys);
}

/* The fingerprint and evidence are compared in one form (record_audit.h):
 * an old record's "block":"8" is the same value as a new one's 8. */
static void compare_audit(cmp_diffs *dl, const char *key, const json_t *a_rec, const json_t *b_rec,
                          const tc_compare_opts *o)
{
    json_t *a = tc_audit_normalized(a_rec), *b = tc_audit_normalized(b_rec);
    compare_fields(dl, "audit", key, "fingerprint", json_object_get(a, "fingerprint"),
                   json_object_get(b, "fingerprint"));
    compare_fields(dl, "audit", key, "evidence", json_object_get(a, "evidence"),
                   json_object_get(b, "evidence"));
    json_t *va = json_object_get(a, "verification"), *vb = json_object_get(b, "verification");
    cmp_exact(dl, "audit", key, "verification", "verified", va, vb);
    cmp_exact(dl, "audit", key, "verification", "mismatches", va, vb);
    json_t *ta = json_object_get(a, "timing"), *tb = json_object_get(b, "timing");
    if (json_is_object(ta) && json_is_object(tb))
        cmp_timing(dl, "audit", key, ta, tb, o);
    json_decref(a);
    json_decref(b);
}

static void compare_corpus(cmp_diffs *dl, const char *key, const json_t *a, const json_t *b,
                           const tc_compare_opts *o)
{
    json_t *ca = json_object_get(a, "count"), *cb = json_object_get(b, "count");
    if (!json_equal(ca, cb))
        cmp_add(dl, "corpus", key, "count", json_deep_copy(ca), json_deep_copy(cb),
                "corpus %s: count %lld -> %lld", key, (long long)json_integer_value(ca),
                (long long)json_integer_value(cb));
    json_t *ha = json_object_get(a, "hash"), *hb = json_object_get(b, "hash");
    uint64_t hx = 0, hy = 0;
    tc_json_get_bits(ha, &hx);
    tc_json_get_bits(hb, &hy);
    if (hx == hy)
        return;
    cmp_add(dl, "corpus", key, "hash", json_deep_copy(ha), json_deep_copy(hb),
            "corpus %s: output hash %s -> %s", key, json_string_value(ha), json_string_value(hb));
    json_t *oa = json_object_get(a, "outputs"), *ob = json_object_get(b, "outputs");
    json_t *ia = json_object_get(a, "inputs"), *ib = json_object_get(b, "inputs");
    size_t n = json_array_size(oa) < json_array_size(ob) ? json_array_size(oa) : json_array_size(ob);
    size_t listed = 0, differing = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t x = 0, y = 0;
        tc_json_get_bits(json_array_get(oa, i), &x);
        tc_json_get_bits(json_array_get(ob, i), &y);
        if (x == y)
            continue;
        differing++;
        if (listed >= o->max_cases)
            continue;
        listed++;
        char field[48];
        snprintf(field, sizeof field, "outputs[%zu]", i);
        json_t *inputs = json_array_get(ia ? ia : ib, i);
        char in[200] = "";
        if (inputs && (!ia || !ib || json_equal(json_array_get(ia, i), json_array_get(ib, i))))
            cmp_show(inputs, in, sizeof in);
        cmp_add(dl, "corpus", key, field, json_deep_copy(json_array_get(oa, i)),
                json_deep_copy(json_array_get(ob, i)), "corpus %s: case %zu output %s -> %s (x%llx)%s%s",
                key, i, json_string_value(json_array_get(oa, i)), json_string_value(json_array_get(ob, i)),
                (unsigned long long)(x ^ y), in[0] ? " inputs " : "", in);
    }
    if (differing > listed)
        cmp_add(dl, "corpus", key, "outputs", json_integer((json_int_t)differing), NULL,
                "corpus %s: %zu more of the first %zu recorded outputs differ", key,
                differing - listed, n);
    if (differing == 0)
        cmp_add(dl, "corpus", key, "outputs", NULL, NULL,
                "corpus %s: the first %zu recorded outputs agree; the differences lie beyond them", key, n);
}

static const char *const sweep_stats[] = {"median", "p90", "max", "overflow", "nan", NULL};

static void compare_sweep(cmp_diffs *dl, const char *key, const json_t *a, const json_t *b,
                          json_t *context)
{
    if (!json_equal(json_object_get(a, "seed"), json_object_get(b, "seed")) ||
        !json_equal(json_object_get(a, "trials"), json_object_get(b, "trials"))) {
        json_array_append_new(context, json_pack("{s:s, s:s}", "field", "sweep", "message",
                                                 "sweeps with different seeds or trial counts: "
                                                 "statistics not compared"));
        return;
    }
    json_t *sa = json_object_get(a, "steps"), *sb = json_object_get(b, "steps");
    size_t n = json_array_size(sa) < json_array_size(sb) ? json_array_size(sa) : json_array_size(sb);
    if (json_array_size(sa) != json_array_size(sb))
        cmp_add(dl, "sweep", key, "chain", json_integer((json_int_t)json_array_size(sa)),
                json_integer((json_int_t)json_array_size(sb)), "sweep %s: chain length %zu -> %zu", key,
                json_array_size(sa), json_array_size(sb));
    /* Same seed and trials means the same inputs: any change is a change of the arithmetic. */
    for (size_t i = 0; i < n; i++)
        for (const char *const *f = sweep_stats; *f; f++) {
            json_t *x = json_object_get(json_array_get(sa, i), *f), *y = json_object_get(json_array_get(sb, i), *f);
            if (json_equal(x, y))
                continue;
            char field[48], sx[40], sy[40];
            snprintf(field, sizeof field, "steps[%zu].%s", i + 1, *f);
            cmp_show(x, sx, sizeof sx);
            cmp_show(y, sy, sizeof sy);
            cmp_add(dl, "sweep", key, field, cmp_copy(x), cmp_copy(y), "sweep %s: step %zu %s %s -> %s",
                    key, i + 1, *f, sx, sy);
            return;   /* the first differing statistic names the change; later steps follow from it */
        }
}

/* --- matching ------------------------------------------------------------- */

/* The key that identifies an object across records, whole (a key cut at a
 * buffer's size would match two different objects); free it. */
static char *object_key(const json_t *o)
{
    const char *kind = json_string_value(json_object_get(o, "kind"));
    const char *instr = json_string_value(json_object_get(o, "instr"));
    char *k = NULL;
    int n;
    if (!strcmp(kind, "sweep"))
        n = asprintf(&k, "%s %s k=%lld %s from=%s round=%s scale=%s",
                     json_string_value(json_object_get(o, "format")), instr,
                     (long long)json_integer_value(json_object_get(o, "k")),
                     json_string_value(json_object_get(o, "dist")), json_string_value(json_object_get(o, "from")),
                     json_string_value(json_object_get(o, "round")), json_string_value(json_object_get(o, "scale")));
    else if (!strcmp(kind, "figure")) /* one measured figure: its name, which every figure has (SCHEMA.md) */
        n = asprintf(&k, "%s", json_string_value(json_object_get(o, "bench")));
    else if (!strcmp(kind, "gemm")) /* one case: the library path, shape, inputs and their seed */
        n = asprintf(&k, "%s %lldx%lldx%lld %s%s%.0lld seed=%lld", json_string_value(json_object_get(o, "path")),
                     (long long)json_integer_value(json_object_get(o, "m")),
                     (long long)json_integer_value(json_object_get(o, "n")),
                     (long long)json_integer_value(json_object_get(o, "k")),
                     json_string_value(json_object_get(o, "dist")), json_object_get(o, "dist_log_range") ? ":" : "",
                     (long long)json_integer_value(json_object_get(o, "dist_log_range")),
                     (long long)json_integer_value(json_object_get(o, "seed")));
    else
        n = asprintf(&k, "%s", instr ? instr : "?");
    if (n < 0)
        abort(); /* no memory for a name: nothing sensible to report */
    return k;
}

static const json_t *find_match(const tc_record *r, const char *kind, const char *key)
{
    size_t i;
    json_t *o;
    json_array_foreach(r->objects, i, o)
    {
        if (strcmp(json_string_value(json_object_get(o, "kind")), kind))
            continue;
        char *k = object_key(o);
        bool same = !strcmp(k, key);
        free(k);
        if (same)
            return o;
    }
    return NULL;
}

/* The kinds compared object by object; anything else is refused, never
 * matched and passed over as "same". */
static const char *const comparable[] = {"audit", "corpus", "bench", "sweep", "hunt", "gemm", "figure", NULL};

bool tc_compare_check(const tc_record *r, const char *name, char *err, size_t len)
{
    json_t *seen = json_object();
    size_t i;
    json_t *o;
    bool ok = true;
    json_array_foreach(r->objects, i, o)
    {
        const char *kind = json_string_value(json_object_get(o, "kind"));
        const char *const *c = comparable;
        while (*c && strcmp(*c, kind))
            c++;
        if (!*c) {
            snprintf(err, len, "%s: object %zu is a '%s', which compare cannot compare (it compares audit, "
                     "corpus, bench, sweep, hunt, gemm and figure objects)", name, i + 1, kind);
            ok = false;
            break;
        }
        char *key = object_key(o), *id = NULL;
        if (asprintf(&id, "%s %s", kind, key) < 0)
            abort();
        json_t *first = json_object_get(seen, id);
        if (first) {
            snprintf(err, len, "%s: %s appears twice (objects %lld and %zu): which one to compare is not clear",
                     name, id, (long long)json_integer_value(first), i + 1);
            tc_utf8_repair(err);
            ok = false;
        } else
            json_object_set_new(seen, id, json_integer((json_int_t)i + 1));
        free(key);
        free(id);
        if (!ok)
            break;
    }
    json_decref(seen);
    return ok;
}

bool tc_compare_check_kinds(const tc_record *a, const tc_record *b, char *err, size_t len)
{
    const char *ka = tc_record_header_kind(a->header), *kb = tc_record_header_kind(b->header);
    if (!ka || !kb || !strcmp(ka, kb) || !strcmp(ka, "mixed") || !strcmp(kb, "mixed"))
        return true;
    snprintf(err, len, "OLD is a%s %s record and NEW a%s %s record: compare records of one kind", 
             strchr("aeiou", ka[0]) ? "n" : "", ka, strchr("aeiou", kb[0]) ? "n" : "", kb);
    tc_utf8_repair(err);
    return false;
}

/* A figure's value, as a timing: a change beyond the threshold. */
static void compare_figure(cmp_diffs *dl, const char *key, const json_t *a, const json_t *b,
                           const tc_compare_opts *o)
{
    double x = tc_json_number(json_object_get(a, "value")), y = tc_json_number(json_object_get(b, "value"));
    cmp_exact(dl, "figure", key, "", "unit", a, b);
    if (isnan(x) && isnan(y))
        return;
    double rel = x != 0 ? (y - x) / fabs(x) : (y != 0 ? INFINITY : 0);
    if (isnan(x) != isnan(y) || fabs(rel) > o->default_threshold)
        cmp_add(dl, "figure", key, "value", cmp_copy(json_object_get(a, "value")),
               cmp_copy(json_object_get(b, "value")), "figure %s: value %.6g -> %.6g (threshold %.1f%%)", key, x,
               y, 100 * o->default_threshold);
}

static void compare_context(const json_t *ha, const json_t *hb, json_t *context)
{
    static const char *const facts[] = {"gpu", "driver", "cuda", "clock_mhz", "backend", "tcscope_version", "host", NULL};
    for (const char *const *f = facts; *f; f++) {
        json_t *x = json_object_get(ha, *f), *y = json_object_get(hb, *f);
        if (x && y && json_equal(x, y))
            continue;
        json_t *c = json_pack("{s:s}", "field", *f);
        json_object_set_new(c, "old", cmp_copy(x));
        json_object_set_new(c, "new", cmp_copy(y));
        json_array_append_new(context, c);
    }
}

size_t tc_compare_records(const tc_record *old_rec, const tc_record *new_rec,
                          const tc_compare_opts *o, json_t *diffs, json_t *context)
{
    cmp_diffs dl = {diffs, 0};
    compare_context(old_rec->header, new_rec->header, context);
    size_t i;
    json_t *a;
    char *key = NULL;
    json_array_foreach(old_rec->objects, i, a)
    {
        const char *kind = json_string_value(json_object_get(a, "kind"));
        free(key);
        key = object_key(a);
        if (find_match(old_rec, kind, key) != a)
            continue;   /* a repeated key (tc_compare_check refuses one): compared once */
        const json_t *b = find_match(new_rec, kind, key);
        if (!b && o->new_is_subset) {
            char msg[320];
            snprintf(msg, sizeof msg, "%s %s: in OLD only, not compared (--subset)", kind, key);
            tc_utf8_repair(msg);
            json_array_append_new(context, json_pack("{s:s, s:s}", "field", kind, "message", msg));
            continue;
        }
        if (!b) {
            cmp_add(&dl, kind, key, "(object)", json_string("present"), json_string("absent"),
                    "%s %s: in OLD only", kind, key);
            continue;
        }
        if (!strcmp(kind, "audit"))
            compare_audit(&dl, key, a, b, o);
        else if (!strcmp(kind, "corpus"))
            compare_corpus(&dl, key, a, b, o);
        else if (!strcmp(kind, "bench"))
            cmp_timing(&dl, "bench", key, a, b, o);
        else if (!strcmp(kind, "sweep"))
            compare_sweep(&dl, key, a, b, context);
        else if (!strcmp(kind, "gemm"))
            cmp_gemm(&dl, key, a, b, o);
        else if (!strcmp(kind, "hunt"))
            cmp_hunt(&dl, key, a, b);
        else if (!strcmp(kind, "figure"))
            compare_figure(&dl, key, a, b, o);
    }
    json_array_foreach(new_rec->objects, i, a)
    {
        const char *kind = json_string_value(json_object_get(a, "kind"));
        free(key);
        key = object_key(a);
        if (find_match(new_rec, kind, key) == a && !find_match(old_rec, kind, key))
            cmp_add(&dl, kind, key, "(object)", json_string("absent"), json_string("present"),
                    "%s %s: in NEW only", kind, key);
    }
    free(key);
    return dl.n;
}
