/* audit: fit, prove, ask the feature questions, attach timing, record. */
#include "cases/audit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model.h"

#include "cases/casefile.h"
#include "cases/features.h"
#include "cases/infer_internal.h"
#include "oracle/profile.h"

/* Evidence stays readable: a few rejected candidates per field, one case each. */
enum { AUDIT_MAX_REJECTED = 16 };

/* Bits as the records write them ("0x3c00"); cases/ stays below reports/. */
static json_t *bits_json(uint64_t bits)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)bits);
    return json_string(buf);
}

static int audit_run_tiles(void *ctx, size_t ntiles, const uint64_t *A, const uint64_t *B,
                           const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    audit_backend_ctx *c = ctx;
    return tc_backend_mma(c->be, c->ins, ntiles, A, B, C, D, err, errlen);
}

infer_target audit_target(audit_backend_ctx *ctx, uint64_t seed)
{
    infer_target t;
    memset(&t, 0, sizeof t);
    t.m = ctx->ins->m;
    t.n = ctx->ins->n;
    t.k = ctx->ins->k;
    t.f.a = ctx->ins->a;
    t.f.b = ctx->ins->b;
    t.f.c = ctx->ins->c;
    t.f.d = ctx->ins->d;
    t.run = audit_run_tiles;
    t.ctx = ctx;
    t.seed = seed;
    return t;
}

/* A dot-product case as its nonzero terms, so evidence reads like arithmetic. */
static json_t *case_json(const infer_case *c, const tc_instr *ins)
{
    json_t *terms = json_array();
    for (int i = 0; i < c->k; i++) {
        tc_class ca = tc_classify(ins->a, c->a[i]), cb = tc_classify(ins->b, c->b[i]);
        if (ca == TC_ZERO && cb == TC_ZERO)
            continue;
        json_array_append_new(terms, json_pack("[i, o, o]", i, bits_json(c->a[i]),
                                               bits_json(c->b[i])));
    }
    return json_pack("{s:s, s:o, s:o, s:o}", "family", c->family, "terms", terms, "c",
                     bits_json(c->c), "hw", bits_json(c->d));
}

json_t *audit_evidence_json(const infer_result *fit, const tc_instr *ins)
{
    json_t *ev = json_object();
    for (size_t i = 0; i < fit->nev; i++) {
        const infer_evidence *e = &fit->ev[i];
        json_t *rej = json_array();
        for (int r = 0; r < e->nrejected && r < AUDIT_MAX_REJECTED; r++) {
            const infer_rejected *x = &e->rejected[r];
            json_t *o = json_pack("{s:s, s:I}", "value", x->value, "contradicted",
                                  (json_int_t)x->ncontradicted);
            if (x->nrefs > 0 && x->ref_case[0] < fit->ncases) {
                json_t *cj = case_json(&fit->cases[x->ref_case[0]], ins);
                json_object_set_new(cj, "predicted", bits_json(x->ref_pred[0]));
                json_object_set_new(o, "case", cj);
            }
            json_array_append_new(rej, o);
        }
        json_t *f = json_pack("{s:s, s:b, s:o, s:i}", "value", e->value, "identifiable",
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
    for (int i = 0; i < profile_field_count(); i++) {
        profile_field_text(&fit->params, i, buf, sizeof buf);
        json_object_set_new(fp, profile_field_key(i), json_string(buf));
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
                            json_pack("{s:I, s:I}", "elements", (json_int_t)v->dist_n[i],
                                      "mismatches", (json_int_t)v->dist_mismatches[i]));
    json_t *fails = json_array();
    for (size_t i = 0; i < v->nfails; i++) {
        json_t *cj = case_json(&v->fails[i].c, ins);
        json_object_set_new(cj, "model", bits_json(v->fails[i].model_d));
        json_object_set_new(cj, "dist", json_string(v->fails[i].dist));
        json_array_append_new(fails, cj);
    }
    return json_pack("{s:I, s:I, s:b, s:o, s:o}", "elements", (json_int_t)v->n, "mismatches",
                     (json_int_t)v->mismatches, "verified", v->mismatches == 0 && v->n > 0,
                     "distributions", dist, "smallest_failures", fails);
}

uint64_t audit_cases_hash(const infer_case *cs, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        uint64_t words[2] = {(uint64_t)cs[i].k, cs[i].c};
        for (int w = 0; w < 2 + 2 * cs[i].k; w++) {
            uint64_t x = w < 2 ? words[w] : (w & 1) ? cs[i].b[(w - 2) / 2] : cs[i].a[(w - 2) / 2];
            for (int byte = 0; byte < 8; byte++) {
                h ^= (x >> (8 * byte)) & 0xff;
                h *= 0x100000001b3ull;
            }
        }
    }
    return h;
}

int audit_regen_cases(const tc_instr *ins, uint64_t seed, infer_case **cases, size_t *n)
{
    audit_backend_ctx ctx = {NULL, ins};
    infer_target t = audit_target(&ctx, seed);
    cset s = {0};
    if (infer_build_cases(&t, &s) != 0) {
        cset_free(&s);
        return -1;
    }
    *cases = s.v;
    *n = s.n;
    return 0;
}

void audit_cases_free(infer_case *cases, size_t n)
{
    cset s = {cases, n, n};
    cset_free(&s);
}

/* Every inference case's answer, as fixed-width hex in case order. The inputs
 * are not repeated: they are regenerated from the seed by the same generator,
 * and inputs_hash proves the regenerated inputs are the ones that ran. */
static json_t *answers_json(const infer_result *fit, const tc_instr *ins, uint64_t seed)
{
    int digits = (ins->d->storage_bits + 3) / 4;
    char *hex = malloc(fit->ncases * (size_t)digits + 1);
    for (size_t i = 0; i < fit->ncases; i++)
        snprintf(hex + i * (size_t)digits, (size_t)digits + 1, "%0*llx", digits,
                 (unsigned long long)fit->cases[i].d);
    hex[fit->ncases * (size_t)digits] = '\0';
    char seedbuf[24], hbuf[24];
    snprintf(seedbuf, sizeof seedbuf, "0x%llx", (unsigned long long)seed);
    snprintf(hbuf, sizeof hbuf, "0x%016llx",
             (unsigned long long)audit_cases_hash(fit->cases, fit->ncases));
    json_t *o = json_pack("{s:s, s:I, s:i, s:s, s:s}", "seed", seedbuf, "count",
                          (json_int_t)fit->ncases, "digits", digits, "inputs_hash", hbuf, "bits", hex);
    free(hex);
    return o;
}

/* The published feature questions, summarised per feature. */
static json_t *features_json(tc_backend *be, const tc_instr *ins, char *err, size_t errlen)
{
    tc_casefile cf;
    memset(&cf, 0, sizeof cf);
    tc_features_fasi2021(&cf);
    const tc_case **sel = malloc((cf.n + 1) * sizeof *sel);
    size_t n = 0;
    for (size_t i = 0; i < cf.n; i++)
        if (tc_case_applies(&cf.cases[i], ins))
            sel[n++] = &cf.cases[i];
    json_t *out = json_array();
    tc_case_result *res = calloc(n + 1, sizeof *res);
    if (n > 0 && tc_cases_run(be, ins, sel, n, res, err, errlen) != 0) {
        json_decref(out);
        out = NULL;
    } else {
        tc_feature_summary sum[64];
        size_t ns = tc_features_summarize(res, n, sum, 64);
        for (size_t i = 0; i < ns; i++) {
            json_t *common = json_array();
            for (int j = 0; j < sum[i].ncommon; j++)
                json_array_append_new(common, json_string(sum[i].common[j]));
            json_t *o = json_pack("{s:s, s:i, s:i, s:o}", "feature", sum[i].feature, "pass",
                                  sum[i].npass, "fail", sum[i].nfail, "behaviours", common);
            if (sum[i].levelled)
                json_object_set_new(o, "level", json_pack("{s:i, s:i}", "passed", sum[i].level,
                                                          "tested", sum[i].max_level));
            json_array_append_new(out, o);
        }
    }
    free(res);
    free(sel);
    tc_casefile_free(&cf);
    return out;
}

static json_t *timing_for(const json_t *timing, const char *instr)
{
    size_t i;
    json_t *o;
    if (!timing)
        return json_null();
    json_array_foreach(timing, i, o) {
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

static uint64_t splitmix(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Random operands for the control: every integer pattern; f64 values with a
 * spread of exponents (uniform f64 bits are mostly astronomically far apart). */
static uint64_t control_operand(const tc_format *f, uint64_t *st)
{
    uint64_t r = splitmix(st);
    if (f->specials == TC_SPECIALS_INT)
        return r & tc_format_mask(f);
    uint64_t exp = (uint64_t)(f->bias - 30 + (int)(r % 61)) << f->mbits;
    uint64_t frac = (r >> 8) & ((1ull << f->mbits) - 1);
    return (r >> 63) << (f->ebits + f->mbits) | exp | frac;
}

/* Instructions outside the model (integer, f64) are checked against the
 * exact oracle instead: agreement is a property to report, not assume. */
static int audit_control(tc_backend *be, const tc_instr *ins, const audit_opts *o,
                         audit_result *out, char *err, size_t errlen)
{
    size_t per = (size_t)ins->m * ins->n, ntiles = (o->verify_n + per - 1) / per;
    size_t na = ntiles * ins->m * ins->k, nb = ntiles * ins->k * ins->n, nc = ntiles * per;
    uint64_t *A = malloc(na * 8), *B = malloc(nb * 8), *C = malloc(nc * 8), *D = malloc(nc * 8),
             *E = malloc(nc * 8), st = o->seed;
    for (size_t i = 0; i < na; i++)
        A[i] = control_operand(ins->a, &st);
    for (size_t i = 0; i < nb; i++)
        B[i] = control_operand(ins->b, &st);
    for (size_t i = 0; i < nc; i++)
        C[i] = control_operand(ins->c, &st);
    int rc = tc_backend_mma(be, ins, ntiles, A, B, C, D, err, errlen);
    size_t mism = 0, first = SIZE_MAX;
    if (rc == 0) {
        tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        oracle_mma_exact(f, ins->m, ins->n, ins->k, ntiles, A, B, C, E, rne);
        for (size_t i = 0; i < nc; i++)
            if (D[i] != E[i] && mism++ == 0)
                first = i;
        json_t *ctl = json_pack("{s:s, s:I, s:I, s:b}", "against", "exact oracle, rne", "elements",
                                (json_int_t)nc, "mismatches", (json_int_t)mism, "equals_exact",
                                mism == 0);
        if (first != SIZE_MAX) {
            size_t t = first / per, i = first % per / ins->n, j = first % ins->n;
            json_t *a = json_array(), *b = json_array();
            for (int kk = 0; kk < ins->k; kk++) {
                json_array_append_new(a, bits_json(A[(t * ins->m + i) * ins->k + kk]));
                json_array_append_new(b, bits_json(B[(t * ins->k + kk) * ins->n + j]));
            }
            json_object_set_new(ctl, "first_difference",
                                json_pack("{s:o, s:o, s:o, s:o, s:o}", "a", a, "b", b, "c",
                                          bits_json(C[first]), "hw", bits_json(D[first]), "exact",
                                          bits_json(E[first])));
        }
        out->object = json_pack("{s:s, s:s, s:{s:s, s:b}, s:{}, s:{s:I, s:I, s:b}, s:o, s:o}",
                                "kind", "audit", "instr", ins->name, "fingerprint", "model",
                                "outside the model: checked against the exact oracle",
                                "equals_exact_rne", mism == 0, "evidence", "verification",
                                "elements", (json_int_t)nc, "mismatches", (json_int_t)mism,
                                "verified", mism == 0, "control", ctl, "timing",
                                timing_for(o->timing, ins->name));
        out->proof.n = nc;
        out->proof.mismatches = mism;
        out->control = true;
    }
    free(A), free(B), free(C), free(D), free(E);
    return rc;
}

int audit_instr(tc_backend *be, const tc_instr *ins, const audit_opts *o, audit_result *out,
                char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    oracle_formats fm = {ins->a, ins->b, ins->c, ins->d};
    tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    model_params exact = model_params_exact(fm, rne);
    model *probe = model_new(&exact, fm, err, errlen);
    if (!probe) {
        out->ins = ins;
        return audit_control(be, ins, o, out, err, errlen);
    }
    model_free(probe);
    out->ins = ins;
    audit_backend_ctx ctx = {be, ins};
    infer_target t = audit_target(&ctx, o->seed);
    if (infer_fingerprint(&t, &out->fit, err, errlen) != 0)
        return -1;
    if (verify_run(&t, &out->fit.params, o->verify_n, o->seed, &out->proof, err, errlen) != 0) {
        infer_result_free(&out->fit);
        return -1;
    }
    char ferr[256] = "";
    json_t *features = features_json(be, ins, ferr, sizeof ferr);
    json_t *obj = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "kind", "audit", "instr", ins->name,
                            "fingerprint", fingerprint_json(&out->fit), "evidence",
                            audit_evidence_json(&out->fit, ins), "verification",
                            verification_json(&out->proof, ins), "timing",
                            timing_for(o->timing, ins->name));
    json_object_set_new(obj, "fit_mismatches", json_integer((json_int_t)out->fit.mismatches));
    json_object_set_new(obj, "features", features ? features : json_string(ferr));
    if (o->keep_cases)
        json_object_set_new(obj, "answers", answers_json(&out->fit, ins, o->seed));
    out->object = obj;
    return 0;
}

void audit_result_free(audit_result *r)
{
    if (!r->control) {
        infer_result_free(&r->fit);
        verify_result_free(&r->proof);
    }
    json_decref(r->object);
    memset(r, 0, sizeof *r);
}
