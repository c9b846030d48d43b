/* record_audit: one instruction's audit (cases/audit.h) as the record's
 * `audit` object, and fingerprint values in either recorded form. */
#include "reports/record_audit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model_fields.h"
#include "reports/reports.h"

/* Evidence stays readable: a few rejected candidates per field, one case each. */
enum { AUDIT_MAX_REJECTED = 16 };

/* ---- fingerprint values ---- */

/* text is a whole decimal integer (what an INT field's number prints as). */
static bool int_text(const char *text, long long *v)
{
    char *end;
    if (!text[0] || isspace((unsigned char)text[0]))
        return false;
    *v = strtoll(text, &end, 10);
    return *end == '\0';
}

json_t *tc_fingerprint_value(int field, const char *text)
{
    long long v;
    model_field_type t = field >= 0 && field < model_field_count() ? model_fields[field].type : MODEL_FIELD_WORD;
    if (t == MODEL_FIELD_INT && int_text(text, &v))
        return json_integer((json_int_t)v);
    if (t == MODEL_FIELD_BITS && !strncmp(text, "0x", 2)) {
        char low[128];
        snprintf(low, sizeof low, "%s", text);
        for (char *c = low + 2; *c; c++)
            *c = (char)tolower((unsigned char)*c);
        return json_string(low);
    }
    return json_string(text);
}

bool tc_fingerprint_text(const char *key, const json_t *v, char *buf, size_t len)
{
    int i = model_field_find(key);
    if (json_is_integer(v))
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    else if (json_is_string(v))
        snprintf(buf, len, "%s", json_string_value(v));
    else
        return false;
    if (i >= 0 && model_fields[i].type == MODEL_FIELD_BITS && !strncmp(buf, "0x", 2))
        for (char *c = buf + 2; *c; c++)
            *c = (char)toupper((unsigned char)*c);   /* as the profile writes it */
    return true;
}

json_t *tc_fingerprint_normal(const char *key, const json_t *v)
{
    char text[128];
    int i = model_field_find(key);
    if (i < 0 || !tc_fingerprint_text(key, v, text, sizeof text))
        return json_deep_copy(v);
    return tc_fingerprint_value(i, text);
}

json_t *tc_audit_normalized(const json_t *a)
{
    /* a shallow copy with the two normalized (answers can be megabytes) */
    json_t *c = json_copy((json_t *)a), *fp = json_deep_copy(json_object_get(a, "fingerprint")),
           *ev = json_deep_copy(json_object_get(a, "evidence"));
    if (fp)
        json_object_set_new(c, "fingerprint", fp);
    if (ev)
        json_object_set_new(c, "evidence", ev);
    const char *k;
    json_t *v;
    json_object_foreach(fp, k, v) json_object_set_new(fp, k, tc_fingerprint_normal(k, v));
    /* An optional field a record written before it existed lacks has the
     * value its absence means in a profile (zeroed params), so records of
     * either age compare field by field. */
    model_params zero;
    memset(&zero, 0, sizeof zero);
    for (int i = 0; json_is_object(fp) && i < model_field_count(); i++)
        if (model_fields[i].optional && !json_object_get(fp, model_fields[i].key)) {
            char text[128];
            model_field_text(&zero, i, text, sizeof text);
            json_object_set_new(fp, model_fields[i].key, tc_fingerprint_value(i, text));
        }
    json_object_foreach(ev, k, v)
    {
        json_t *val = json_object_get(v, "value"), *r;
        size_t j;
        if (val)
            json_object_set_new(v, "value", tc_fingerprint_normal(k, val));
        json_array_foreach(json_object_get(v, "rejected"), j, r) if ((val = json_object_get(r, "value")))
            json_object_set_new(r, "value", tc_fingerprint_normal(k, val));
    }
    return c;
}

/* One value of table field i in the current form: an INT field's integer
 * as a JSON integer (a string only for a word), bits "0x" and lower-case
 * hex (or "canonical"), any other field a string; and a value of the field. */
static bool check_value(int i, const char *where, const json_t *v, char *err, size_t len)
{
    const model_field *f = &model_fields[i];
    char text[128];
    long long x;
    model_params scratch;
    memset(&scratch, 0, sizeof scratch);
    if (f->type == MODEL_FIELD_INT && json_is_string(v) && int_text(json_string_value(v), &x)) {
        snprintf(err, len, "audit %s: '%s' must be a JSON number, not the string \"%s\"", where, f->key,
                 json_string_value(v));
        return false;
    }
    if (!(json_is_string(v) || (f->type == MODEL_FIELD_INT && json_is_integer(v))) ||
        !tc_fingerprint_text(f->key, v, text, sizeof text) || f->parse(text, &scratch) == MODEL_FIELD_BAD) {
        char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
        snprintf(err, len, "audit %s: '%s' must be %s%s, not %s", where, f->key, f->expect,
                 f->type == MODEL_FIELD_INT ? " (the integer a JSON number)" : "", s ? s : "?");
        free(s);
        return false;
    }
    const char *s = json_string_value(v);
    if (f->type == MODEL_FIELD_BITS && s && strncmp(s, "0x", 2) == 0 && s[2 + strspn(s + 2, "0123456789abcdef")]) {
        snprintf(err, len, "audit %s: '%s' must be \"0x\" and lower-case hex, not '%s'", where, f->key, s);
        return false;
    }
    return true;
}

/* Audits recorded before 2026-11-24: every field the profile's text, the
 * NaN pattern "0x" and upper-case hex as profiles write it. */
static bool check_old_form(const json_t *fp, char *err, size_t len)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)fp, k, v)
    {
        int i = model_field_find(k);
        if (i >= 0 && !json_is_string(v)) {
            snprintf(err, len, "audit fingerprint: '%s' is not a string, but 'block' is (the form before "
                               "2026-11-24, every value the profile's text)", k);
            return false;
        }
    }
    const char *nan = json_string_value(json_object_get(fp, "nan"));
    if (nan && (strncmp(nan, "0x", 2) || !nan[2] || nan[2 + strspn(nan + 2, "0123456789ABCDEF")])) {
        snprintf(err, len, "audit fingerprint: 'nan' must be \"0x\" and upper-case hex in the form before "
                           "2026-11-24 ('block' a string), not '%s'", nan);
        return false;
    }
    return true;
}

bool tc_fingerprint_check(const json_t *fp, const json_t *evidence, char *err, size_t len)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)fp, k, v) if (json_is_array(v))
    {
        snprintf(err, len, "audit fingerprint: field '%s' must be a scalar or an object", k);
        return false;
    }
    if (json_is_string(json_object_get(fp, "block")))
        return check_old_form(fp, err, len);
    json_object_foreach((json_t *)fp, k, v)
    {
        int i = model_field_find(k);
        if (i >= 0 && !check_value(i, "fingerprint", v, err, len))
            return false;
    }
    json_object_foreach((json_t *)evidence, k, v)
    {
        int i = model_field_find(k);
        const json_t *val = json_object_get(v, "value"), *r;
        size_t j;
        if (i < 0)
            continue;
        if (val && !check_value(i, "evidence value", val, err, len))
            return false;
        json_array_foreach(json_object_get(v, "rejected"), j, r) if ((val = json_object_get(r, "value")) &&
                                                                      !check_value(i, "evidence rejected value",
                                                                                   val, err, len)) return false;
    }
    return true;
}

/* ---- the object ---- */

/* A dot-product case as its nonzero terms, so evidence reads like arithmetic. */
static json_t *case_json(const infer_case *c, const tc_instr *ins)
{
    json_t *terms = json_array();
    for (int i = 0; i < c->k; i++) {
        tc_class ca = tc_classify(ins->a, c->a[i]), cb = tc_classify(ins->b, c->b[i]);
        if (ca == TC_ZERO && cb == TC_ZERO)
            continue;
        json_array_append_new(terms, json_pack("[i, o, o]", i, tc_json_bits(c->a[i]), tc_json_bits(c->b[i])));
    }
    return json_pack("{s:s, s:o, s:o, s:o}", "family", c->family, "terms", terms, "c", tc_json_bits(c->c), "hw",
                     tc_json_bits(c->d));
}

/* The value text of field `key` (an infer_evidence's) as records write it. */
static json_t *field_value(const char *key, const char *text)
{
    return tc_fingerprint_value(model_field_find(key), text);
}

/* Per field: the value, whether the cases decide it, and for each rejected
 * candidate the cases that reject it with their inputs, the hardware's
 * bits and the candidate's prediction. */
static json_t *evidence_json(const infer_result *fit, const tc_instr *ins)
{
    json_t *ev = json_object();
    for (size_t i = 0; i < fit->nev; i++) {
        const infer_evidence *e = &fit->ev[i];
        json_t *rej = json_array();
        for (int r = 0; r < e->nrejected && r < AUDIT_MAX_REJECTED; r++) {
            const infer_rejected *x = &e->rejected[r];
            json_t *o = json_pack("{s:o, s:I}", "value", field_value(e->field, x->value), "contradicted",
                                  (json_int_t)x->ncontradicted);
            if (x->nrefs > 0 && x->ref_case[0] < fit->ncases) {
                json_t *cj = case_json(&fit->cases[x->ref_case[0]], ins);
                json_object_set_new(cj, "predicted", tc_json_bits(x->ref_pred[0]));
                json_object_set_new(o, "case", cj);
            }
            json_array_append_new(rej, o);
        }
        json_t *f = json_pack("{s:o, s:b, s:o, s:i}", "value", field_value(e->field, e->value), "identifiable",
                              e->identifiable, "rejected", rej, "rejected_total", e->nrejected);
        if (!e->identifiable)
            json_object_set_new(f, "equivalent", json_string(e->equivalent));
        json_object_set_new(ev, e->field, f);
    }
    return ev;
}

static json_t *fingerprint_json(const infer_result *fit)
{
    json_t *fp = json_object();
    char buf[128];
    for (int i = 0; i < model_field_count(); i++) {
        model_field_text(&fit->params, i, buf, sizeof buf);
        json_object_set_new(fp, model_fields[i].key, tc_fingerprint_value(i, buf));
    }
    json_object_set_new(fp, "deterministic", json_boolean(fit->deterministic));
    json_object_set_new(fp, "order_independent", json_boolean(fit->order_independent));
    json_object_set_new(fp, "monotone", json_boolean(fit->monotone));
    return fp;
}

static json_t *verification_json(const verify_result *v, const tc_instr *ins)
{
    json_t *dist = json_object();
    for (int i = 0; i < VERIFY_NDIST; i++)
        json_object_set_new(dist, verify_dist_name(i),
                            json_pack("{s:I, s:I}", "elements", (json_int_t)v->dist_n[i], "mismatches",
                                      (json_int_t)v->dist_mismatches[i]));
    json_t *fails = json_array();
    for (size_t i = 0; i < v->nfails; i++) {
        json_t *cj = case_json(&v->fails[i].c, ins);
        json_object_set_new(cj, "model", tc_json_bits(v->fails[i].model_d));
        json_object_set_new(cj, "dist", json_string(v->fails[i].dist));
        json_array_append_new(fails, cj);
    }
    json_t *o = json_pack("{s:I, s:I, s:b, s:o, s:o}", "elements", (json_int_t)v->n, "mismatches",
                          (json_int_t)v->mismatches, "verified", v->mismatches == 0 && v->n > 0, "distributions",
                          dist, "smallest_failures", fails);
    if (o && verify_hunt_path(v)) {   /* absent: the "family" stream on the host (every record before) */
        json_object_set_new(o, "hunt_draw", json_string("tile"));
        json_object_set_new(o, "hunt_path", json_string(verify_hunt_path(v)));
    }
    if (o && verify_random_path(v))   /* absent: the host's cores (every record before) */
        json_object_set_new(o, "random_path", json_string(verify_random_path(v)));
    return o;
}

/* Every inference case's answer, as fixed-width hex in case order. The inputs
 * of the crafted cases are not repeated: they are regenerated from the seed
 * by the same generator, and inputs_hash proves the regenerated inputs are
 * the ones that ran; counterexamples follow with their inputs ("extra"). */
static json_t *answers_json(const infer_result *fit, const tc_instr *ins, uint64_t seed)
{
    size_t nreg = fit->ncases - fit->nextra;
    int digits = (ins->d->storage_bits + 3) / 4;
    char *hex = malloc(fit->ncases * (size_t)digits + 1);
    if (!hex)
        return json_string("out of memory: answers not recorded");
    for (size_t i = 0; i < fit->ncases; i++)
        snprintf(hex + i * (size_t)digits, (size_t)digits + 1, "%0*llx", digits, (unsigned long long)fit->cases[i].d);
    hex[fit->ncases * (size_t)digits] = '\0';
    char hbuf[24];
    snprintf(hbuf, sizeof hbuf, "0x%016llx", (unsigned long long)audit_cases_hash(fit->cases, nreg));
    json_t *o = json_pack("{s:o, s:I, s:i, s:s, s:s}", "seed", tc_json_bits(seed), "count", (json_int_t)fit->ncases,
                          "digits", digits, "inputs_hash", hbuf, "bits", hex);
    json_object_set_new(o, "hunt_families", json_true()); /* the fit's cases include cases/hunt.h's */
    free(hex);
    /* Counterexamples cannot be regenerated from the seed: their inputs are kept. */
    if (fit->nextra) {
        json_t *ex = json_array();
        for (size_t i = nreg; i < fit->ncases; i++) {
            const infer_case *c = &fit->cases[i];
            json_t *a = json_array(), *b = json_array();
            for (int q = 0; q < c->k; q++) {
                json_array_append_new(a, tc_json_bits(c->a[q]));
                json_array_append_new(b, tc_json_bits(c->b[q]));
            }
            json_array_append_new(ex, json_pack("{s:o, s:o, s:o}", "a", a, "b", b, "c", tc_json_bits(c->c)));
        }
        json_object_set_new(o, "extra", ex);
    }
    return o;
}

/* The published feature questions, per feature; or why they could not run. */
static json_t *features_json(const audit_result *r)
{
    if (!r->features_ok)
        return json_string(r->features_err);
    json_t *out = json_array();
    for (size_t i = 0; i < r->nfeatures; i++) {
        const tc_feature_summary *s = &r->features[i];
        json_t *common = json_array();
        for (int j = 0; j < s->ncommon; j++)
            json_array_append_new(common, json_string(s->common[j]));
        json_t *o = json_pack("{s:s, s:i, s:i, s:o}", "feature", s->feature, "pass", s->npass, "fail", s->nfail,
                              "behaviours", common);
        if (s->levelled)
            json_object_set_new(o, "level", json_pack("{s:i, s:i}", "passed", s->level, "tested", s->max_level));
        json_array_append_new(out, o);
    }
    return out;
}

/* The bench object of instr in timing, without kind and instr; null when none. */
static json_t *timing_for(const json_t *timing, const char *instr)
{
    size_t i;
    json_t *o;
    json_array_foreach(timing, i, o)
    {
        const char *name = json_string_value(json_object_get(o, "instr"));
        if (name && !strcmp(name, instr)) {
            json_t *t = json_deep_copy(o);
            json_object_del(t, "kind");
            json_object_del(t, "instr");
            return t;
        }
    }
    return json_null();
}

/* An integer instruction: the exact integer sum, saturating or wrapped, the
 * candidate the answers agree with as the fingerprint, the other rejected
 * with its first difference. */
static json_t *control_object(const audit_result *r, const json_t *timing)
{
    const tc_instr *ins = r->ins;
    bool wrap = r->ctl.wrap;
    const audit_miss *win = wrap ? &r->ctl.wrp : &r->ctl.sat, *rej = wrap ? &r->ctl.sat : &r->ctl.wrp;
    json_t *ctl = json_pack("{s:s, s:I, s:I, s:b}", "against",
                            wrap ? "exact integer sum wrapped modulo 2^32" : "exact oracle (saturating)", "elements",
                            (json_int_t)r->ctl.elements, "mismatches", (json_int_t)win->count, "equals_exact",
                            r->ctl.sat.count == 0);
    json_t *evidence = json_object();
    if (rej->first != SIZE_MAX)
        json_object_set_new(evidence, "int_overflow",
                            json_pack("{s:s, s:[{s:s, s:I, s:o, s:o}]}", "value", wrap ? "wrap" : "saturate",
                                      "rejected", "value", wrap ? "saturate" : "wrap", "contradicted",
                                      (json_int_t)rej->count, "hw", tc_json_bits(rej->hw), "predicted",
                                      tc_json_bits(rej->pred)));
    if (win->first != SIZE_MAX) {
        json_t *a = json_array(), *b = json_array();
        for (int kk = 0; kk < ins->k; kk++) {
            json_array_append_new(a, tc_json_bits(win->a[kk]));
            json_array_append_new(b, tc_json_bits(win->b[kk]));
        }
        json_object_set_new(ctl, "first_difference",
                            json_pack("{s:o, s:o, s:o, s:o, s:o}", "a", a, "b", b, "c", tc_json_bits(win->c), "hw",
                                      tc_json_bits(win->hw), "exact", tc_json_bits(win->pred)));
    }
    return json_pack("{s:s, s:s, s:{s:s, s:s, s:b}, s:o, s:{s:I, s:I, s:b}, s:o, s:o}", "kind", "audit", "instr",
                     ins->name, "fingerprint", "model", "exact integer sum (outside the floating-point model)",
                     "int_overflow", wrap ? "wrap" : "saturate", "equals_exact_rne", r->ctl.sat.count == 0,
                     "evidence", evidence, "verification", "elements", (json_int_t)r->ctl.elements, "mismatches",
                     (json_int_t)win->count, "verified", win->count == 0, "control", ctl, "timing",
                     timing_for(timing, ins->name));
}

json_t *tc_audit_object(const audit_result *r, const json_t *timing)
{
    if (r->control)
        return control_object(r, timing);
    json_t *obj = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "kind", "audit", "instr", r->ins->name, "fingerprint",
                            fingerprint_json(&r->fit), "evidence", evidence_json(&r->fit, r->ins), "verification",
                            verification_json(&r->proof, r->ins), "timing", timing_for(timing, r->ins->name));
    json_object_set_new(obj, "fit_mismatches", json_integer((json_int_t)r->fit.mismatches));
    json_object_set_new(obj, "fit_evaluations", json_pack("{s:I, s:I}", "gpu", (json_int_t)r->fit.evals_gpu, "cpu",
                                                          (json_int_t)r->fit.evals_cpu));
    json_object_set_new(obj, "counterexample_rounds", json_integer(r->counterexample_rounds));
    json_object_set_new(obj, "features", features_json(r));
    if (r->keep_cases)
        json_object_set_new(obj, "answers", answers_json(&r->fit, r->ins, r->seed));
    return obj;
}
