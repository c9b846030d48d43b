/* tcscope regress: what the checks said, compared with the baseline
 * (cli/regress.h): the verify children's records, the refits' fields with
 * the case that decides each, SASS and timing against the baseline audit
 * record; and each instruction's verdict printed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/regress.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "reports/record_audit.h"
#include "reports/reports.h"

static const char *sval(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

void regress_add_diff(regress_item *it, const char *what, const char *field, json_t *old, json_t *new, json_t *kase)
{
    json_t *d = json_pack("{s:s, s:o, s:o}", "what", what, "old", old, "new", new);
    if (field)
        json_object_set_new(d, "field", json_string(field));
    if (kase)
        json_object_set(d, "case", kase);
    json_array_append_new(it->diffs, d);
}

/* SASS and timing of every item against the baseline record's. */
void regress_compare_timing(regress_ctx *c, const tc_record *base, const tc_record *fresh)
{
    for (size_t i = 0; i < c->n; i++) {
        regress_item *it = &c->it[i];
        const json_t *old = NULL, *new = NULL, *o;
        size_t q;
        json_array_foreach(base->objects, q, o)
            if (!strcmp(sval(o, "instr"), it->ins->name))
                old = json_object_get(o, "timing");
        json_array_foreach(fresh->objects, q, o)
            if (!strcmp(sval(o, "instr"), it->ins->name))
                new = o;
        if (!json_is_object(old) || !json_is_object(new))
            continue; /* not timed there or here: nothing to compare */
        const char *so = json_string_value(json_object_get(old, "sass")), *sn = json_string_value(json_object_get(new, "sass"));
        if (so && sn && strcmp(so, sn))
            regress_add_diff(it, "sass", NULL, json_string(so), json_string(sn), NULL);
        static const char *const keys[] = {"latency_cycles", "throughput_fma_clk_sm"};
        for (int k = 0; k < 2; k++) {
            double x = tc_json_number(json_object_get(old, keys[k])), y = tc_json_number(json_object_get(new, keys[k]));
            if (x == x && y == y && x > 0 && fabs(y - x) > c->a->tol * x)
                regress_add_diff(it, "timing", keys[k], json_real(x), json_real(y), NULL);
        }
    }
}

bool regress_verify_done(void *vc, size_t i, int status, const char *out, double secs)
{
    regress_ctx *c = vc;
    regress_item *it = &c->it[i];
    (void)secs;
    it->verify = status < 0 ? 0 : status;   /* one of a slice: its record's verdict below */
    /* verify --json prints a record: the verify object, then one
     * verify_failure per failure, smallest first */
    tc_record rec;
    char err[512];
    it->n = 0;
    it->mismatches = -1;
    if (tc_record_parse(out, it->ins->name, &rec, err, sizeof err) != 0) {
        if (status == 0 || status == 1)
            cli_warn(REGRESS_CMD, "%s: the check's output: %s", it->ins->name, err);
        return status == 0 || status == 1;
    }
    json_t *v = json_array_get(rec.objects, 0), *f = json_array_get(rec.objects, 1);
    it->n = json_integer_value(json_object_get(v, "n"));
    const char *on = json_string_value(json_object_get(rec.header, "model_on"));
    snprintf(it->model_on, sizeof it->model_on, "%s", on ? on : "cpu");
    it->mismatches = json_is_integer(json_object_get(v, "mismatches")) ? json_integer_value(json_object_get(v, "mismatches")) : -1;
    if (status < 0)
        it->verify = json_is_true(json_object_get(v, "verified")) ? 0 : 1;
    if (f) {
        static const char *const keep[][2] = {{"dist", "dist"}, {"a", "a"}, {"b", "b"}, {"c", "c"},
                                              {"d_backend", "here"}, {"d_model", "baseline"}};
        it->failure = json_object();
        for (int k = 0; k < 6; k++)
            json_object_set(it->failure, keep[k][1], json_object_get(f, keep[k][0]));
    }
    tc_record_free(&rec);
    return status == 0 || status == 1; /* a device fault or a bad argument: stop */
}

/* The refit's fields against the baseline's, each with the case that
 * rejects the baseline's value in the refit's evidence. */
bool regress_refit_done(void *vc, size_t q, int status, const char *out, double secs)
{
    regress_ctx *c = vc;
    size_t i = c->idx[q];
    regress_item *it = &c->it[i];
    (void)out, (void)secs;
    char path[4300], err[512];
    snprintf(path, sizeof path, "%s/audit.profile", c->dir[i]);
    model_profile p;
    if ((status != 0 && status != 1) || profile_load(path, &p, err, sizeof err) != 0) {
        regress_add_diff(it, "refit", NULL, json_string("verified"), json_string("no fingerprint verified here"), NULL);
        return status == 0 || status == 1;
    }
    const model_params *np = profile_lookup(&p, it->ins->name);
    tc_record rec = {NULL, NULL};
    snprintf(path, sizeof path, "%s/audit.jsonl", c->dir[i]);
    json_t *ev = NULL;
    if (tc_record_load(path, &rec, err, sizeof err) == 0)
        ev = json_object_get(json_array_get(rec.objects, 0), "evidence");
    for (int f = 0; np && f < model_field_count(); f++) {
        char ov[64], nv[64];
        model_field_text(it->base, f, ov, sizeof ov);
        model_field_text(np, f, nv, sizeof nv);
        if (!strcmp(ov, nv))
            continue;
        json_t *kase = NULL, *r;
        size_t k;
        char rv[64];   /* a rejected value as profile text, whichever form the record has */
        json_array_foreach(json_object_get(json_object_get(ev, model_fields[f].key), "rejected"), k, r)
            if (tc_fingerprint_text(model_fields[f].key, json_object_get(r, "value"), rv, sizeof rv) &&
                !strcmp(rv, ov))
                kase = json_object_get(r, "case");
        regress_add_diff(it, "arithmetic", model_fields[f].key, json_string(ov), json_string(nv), kase ? kase : it->failure);
    }
    if (!np)
        regress_add_diff(it, "refit", NULL, json_string("verified"), json_string("no fingerprint verified here"), NULL);
    if (rec.header)
        tc_record_free(&rec);
    profile_free(&p);
    return true;
}

void regress_print_item(const regress_item *it, tc_json_out *out)
{
    if (out->on) {
        tc_json_out_put(out, "regress",
                        json_pack("{s:s, s:b, s:I, s:I, s:s, s:O}", "instr", it->ins->name, "same",
                                  json_array_size(it->diffs) == 0, "elements", (json_int_t)it->n, "mismatches",
                                  (json_int_t)it->mismatches, "model_on", it->model_on, "differences", it->diffs));
        return;
    }
    if (!json_array_size(it->diffs)) {
        printf("%-44s same  (0 of %lld elements differ)\n", it->ins->name, it->n);
        return;
    }
    size_t k;
    json_t *d;
    json_array_foreach(it->diffs, k, d) {
        char *old = json_dumps(json_object_get(d, "old"), JSON_ENCODE_ANY), *new = json_dumps(json_object_get(d, "new"), JSON_ENCODE_ANY);
        char *kase = json_object_get(d, "case") ? json_dumps(json_object_get(d, "case"), JSON_COMPACT) : NULL;
        printf("%-44s DIFFERS %-10s %-22s %s -> %s", k ? "" : it->ins->name, cli_str(d, "what"),
               json_object_get(d, "field") ? cli_str(d, "field") : "", old, new);
        if (!strcmp(cli_str(d, "what"), "arithmetic") && k == 0)
            printf("  (%lld of %lld elements differed)", it->mismatches, it->n);
        if (kase)
            printf("\n%-44s         %s %s", "", json_object_get(json_object_get(d, "case"), "baseline") ? "e.g." : "decided by",
                   kase);
        printf("\n");
        free(old), free(new), free(kase);
    }
}

