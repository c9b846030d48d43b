/* The audit part of a report: what a reader needs first (a summary table
 * and the findings, both generated from the record), a contents list, then
 * one section per instruction in catalogue order with its evidence
 * collapsed. The evidence is trimmed to stay readable and small for the
 * whole catalogue: per field the value, how many alternatives were rejected
 * and the one deciding case of the closest of them (the kept rejected
 * alternative contradicted by the fewest cases); never raw JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/probes.h"
#include "reports/reports.h"
#include "reports/render_doc.h"

/* Catalogue position of an instruction; unknown names after every known one. */
static size_t catalogue_rank(const char *name)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    for (size_t i = 0; name && i < n; i++)
        if (!strcmp(cat[i].name, name))
            return i;
    return n;
}

typedef struct {
    size_t rank, pos;
    json_t *obj;
} ranked;

static int by_rank(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* The audit objects in catalogue order (record order among equals). */
static json_t *in_catalogue_order(const json_t *audits)
{
    size_t n = json_array_size(audits);
    ranked *r = calloc(n ? n : 1, sizeof *r);
    json_t *out = json_array();
    if (!r)
        return out;
    for (size_t i = 0; i < n; i++) {
        r[i].obj = json_array_get(audits, i);
        r[i].pos = i;
        r[i].rank = catalogue_rank(json_string_value(json_object_get(r[i].obj, "instr")));
    }
    qsort(r, n, sizeof *r, by_rank);
    for (size_t i = 0; i < n; i++)
        json_array_append(out, r[i].obj);
    free(r);
    return out;
}

/* field -> {value text -> instruction count}, fields in first-seen order
 * (jansson keeps insertion order), and field -> first instruction per value. */
static json_t *value_counts(const json_t *audits, json_t **first)
{
    json_t *fields = json_object();
    *first = json_object();
    size_t i;
    json_t *a;
    json_array_foreach(audits, i, a)
    {
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(a, "fingerprint"), k, v)
        {
            json_t *c = rdoc_cell(v);
            const char *t = json_string_value(c);
            json_t *per = json_object_get(fields, k), *fst = json_object_get(*first, k);
            if (!per) {
                json_object_set_new(fields, k, per = json_object());
                json_object_set_new(*first, k, fst = json_object());
            }
            json_object_set_new(per, t, json_integer(json_integer_value(json_object_get(per, t)) + 1));
            if (!json_object_get(fst, t))
                json_object_set(fst, t, json_object_get(a, "instr"));
            json_decref(c);
        }
    }
    return fields;
}

static void verdict(const json_t *a, char *out, size_t len)
{
    json_t *ver = json_object_get(a, "verification");
    if (!json_is_object(ver))
        snprintf(out, len, "NOT VERIFIED");
    else
        snprintf(out, len, "%s", json_is_true(json_object_get(ver, "verified")) ? "VERIFIED" : "MISMATCH");
}

static json_t *number_cell(const json_t *t, const char *key)
{
    double x = tc_json_number(json_object_get(t, key));
    char buf[32] = "—";
    if (isfinite(x))
        snprintf(buf, sizeof buf, "%.4g", x);
    return json_string(buf);
}

static void summary_table(json_t *doc, const json_t *audits, const json_t *varying)
{
    size_t nver = 0, i;
    json_t *a;
    json_array_foreach(audits, i, a) nver += json_is_true(json_object_get(json_object_get(a, "verification"), "verified"));
    rdoc_heading(doc, 2, "Summary", "summary");
    rdoc_para(doc,
              "%zu instructions in catalogue order; %zu verified bit for bit (every element of the "
              "verification equal to the fitted model's prediction), %zu not. Columns after the counts: the "
              "fingerprint fields whose value differs between instructions (see Findings); latency and "
              "throughput where the audit measured them.",
              json_array_size(audits), nver, json_array_size(audits) - nver);
    json_t *head = json_pack("[s, s, s, s]", "instruction", "verdict", "elements", "mismatches");
    size_t j;
    json_t *f;
    json_array_foreach(varying, j, f) json_array_append(head, f);
    json_array_append_new(head, json_string("latency (cycles)"));
    json_array_append_new(head, json_string("TFLOP/s"));
    json_t *rows = rdoc_table_j(doc, head);
    json_array_foreach(audits, i, a)
    {
        const char *name = json_string_value(json_object_get(a, "instr"));
        char id[300], href[310], v[32];
        rdoc_anchor(name, id, sizeof id);
        snprintf(href, sizeof href, "#%s", id);
        verdict(a, v, sizeof v);
        json_t *ver = json_object_get(a, "verification"), *fp = json_object_get(a, "fingerprint");
        json_t *row = json_pack("[o, s, o, o]", rdoc_link(name, href), v, rdoc_cell(json_object_get(ver, "elements")),
                                rdoc_cell(json_object_get(ver, "mismatches")));
        json_array_foreach(varying, j, f) json_array_append_new(row, rdoc_cell(json_object_get(fp, json_string_value(f))));
        json_t *t = json_object_get(a, "timing");
        json_array_append_new(row, number_cell(t, "latency_cycles"));
        json_array_append_new(row, number_cell(t, "tflops"));
        json_array_append_new(rows, row);
    }
}

/* The recorded rejected alternative with the fewest contradicting cases. */
static json_t *closest_rejected(const json_t *e)
{
    json_t *best = NULL, *r;
    size_t i;
    json_array_foreach(json_object_get(e, "rejected"), i, r)
    {
        if (!best || json_integer_value(json_object_get(r, "contradicted")) <
                         json_integer_value(json_object_get(best, "contradicted")))
            best = r;
    }
    return best;
}

/* The evidence of the fields with one value in the whole record, once:
 * in how many instructions an alternative was rejected, the fewest
 * contradicting cases of any rejected alternative and where; in how many
 * the value is not identifiable (an equivalent value predicts the same). */
static void constant_evidence(json_t *doc, const json_t *audits, const json_t *counts)
{
    static const char *const head[] = {"field", "value", "instructions", "an alternative rejected in",
                                       "fewest contradicting cases (alternative, instruction)", "not identifiable in",
                                       NULL};
    json_t *rows = rdoc_table(doc, head);
    const char *k;
    json_t *per;
    json_object_foreach((json_t *)counts, k, per)
    {
        if (json_object_size(per) != 1)
            continue;
        long long n = 0, nrej = 0, nid = 0, fewest = -1;
        const char *where = NULL;
        char alt[64] = "?";
        size_t i;
        json_t *a;
        json_array_foreach(audits, i, a)
        {
            if (!json_object_get(json_object_get(a, "fingerprint"), k))
                continue;
            n++;
            json_t *e = json_object_get(json_object_get(a, "evidence"), k), *best = closest_rejected(e);
            nid += json_is_false(json_object_get(e, "identifiable"));
            if (!best)
                continue;
            nrej++;
            long long c = json_integer_value(json_object_get(best, "contradicted"));
            if (fewest < 0 || c < fewest) {
                fewest = c;
                json_t *cell = rdoc_cell(json_object_get(best, "value")); /* a number or text */
                snprintf(alt, sizeof alt, "%s", json_string_value(cell));
                json_decref(cell);
                where = json_string_value(json_object_get(a, "instr"));
            }
        }
        char fw[300] = "—", cnt[3][32];
        if (fewest >= 0)
            snprintf(fw, sizeof fw, "%lld (%s, %s)", fewest, alt, where ? where : "?");
        snprintf(cnt[0], sizeof cnt[0], "%lld", n);
        snprintf(cnt[1], sizeof cnt[1], "%lld", nrej);
        snprintf(cnt[2], sizeof cnt[2], "%lld", nid);
        rdoc_row(rows, json_string(k), json_string(json_object_iter_key(json_object_iter(per))), json_string(cnt[0]),
                 json_string(cnt[1]), json_string(fw), json_string(cnt[2]), NULL);
    }
}

/* Findings: per varying field, the count of instructions per value; the
 * fields with one value everywhere are listed in a sentence. Returns the
 * varying fields (new array). */
static json_t *findings(json_t *doc, const json_t *audits)
{
    json_t *first, *counts = value_counts(audits, &first), *varying = json_array();
    char same[4096] = "";
    size_t o = 0;
    const char *k;
    json_t *per;
    json_object_foreach(counts, k, per)
    {
        if (json_object_size(per) > 1) {
            json_array_append_new(varying, json_string(k));
        } else if (o < sizeof same) {
            void *it = json_object_iter(per);
            o += (size_t)snprintf(same + o, sizeof same - o, "%s%s = %s", o ? ", " : "", k, json_object_iter_key(it));
        }
    }
    rdoc_heading(doc, 2, "Findings", "findings");
    rdoc_para(doc,
              "Generated from the fingerprints: each field whose value differs between instructions, with the "
              "number of instructions that have each value (an instruction whose fingerprint has no such field, "
              "as the integer ones, is not counted). The same for every instruction that has the field: %s.",
              *same ? same : "none");
    static const char *const head[] = {"field", "value", "instructions", "first in the catalogue", NULL};
    json_t *rows = rdoc_table(doc, head);
    size_t i;
    json_t *f;
    json_array_foreach(varying, i, f)
    {
        json_t *vals = json_object_get(counts, json_string_value(f));
        json_t *fst = json_object_get(first, json_string_value(f)), *n;
        const char *val;
        json_object_foreach(vals, val, n)
        {
            const char *who = json_string_value(json_object_get(fst, val));
            char id[300], href[310];
            rdoc_anchor(who, id, sizeof id);
            snprintf(href, sizeof href, "#%s", id);
            rdoc_row(rows, json_string(json_string_value(f)), json_string(val), rdoc_cell(n), rdoc_link(who, href),
                     NULL);
        }
    }
    rdoc_para(doc, "Evidence of the fields with one value in the whole record (per instruction below: the "
                   "fields whose value differs).");
    constant_evidence(doc, audits, counts);
    json_decref(counts);
    json_decref(first);
    return varying;
}

/* The deciding case of a rejected alternative: "family: HW / PREDICTED"
 * (its case, or the alternative itself for the integer fields). */
static void deciding_case(const json_t *rej, char *out, size_t len)
{
    const json_t *c = json_object_get(rej, "case");
    if (!c)
        c = rej;
    const char *fam = json_string_value(json_object_get(c, "family"));
    snprintf(out, len, "%s%s%s / %s", fam ? fam : "", fam ? ": " : "", json_string_value(json_object_get(c, "hw")),
             json_string_value(json_object_get(c, "predicted")));
}

/* A row per contested field (an alternative rejected, or equivalents
 * named) among those whose value differs between instructions; the others
 * by name in one sentence. The fields with one value in the whole record
 * have their evidence summed up once, under Findings (constant_evidence). */
static void evidence(json_t *blocks, const json_t *a, const json_t *varies)
{
    static const char *const head[] = {"field", "value", "rejected", "closest rejected",
                                       "its deciding case (family: hardware / its prediction)", NULL};
    json_t *rows = rdoc_table(blocks, head), *ev = json_object_get(a, "evidence");
    char quiet[2048] = "";
    size_t oq = 0;
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(a, "fingerprint"), k, v)
    {
        if (!json_object_get(varies, k))
            continue;
        json_t *e = json_object_get(ev, k), *rej = json_object_get(e, "rejected"), *best = closest_rejected(e);
        const char *eq = json_is_false(json_object_get(e, "identifiable")) ? json_string_value(json_object_get(e, "equivalent")) : NULL;
        if (!best && !eq) {
            if (oq < sizeof quiet)
                oq += (size_t)snprintf(quiet + oq, sizeof quiet - oq, "%s%s", oq ? ", " : "", k);
            continue;
        }
        json_t *val = rdoc_cell(v);
        char value[160], nrej[32], why[200] = "—";
        snprintf(value, sizeof value, "%s%s%.30s%s", json_string_value(val), eq ? " ≡ " : "", eq ? eq : "",
                 eq && strlen(eq) > 30 ? "…" : "");
        json_decref(val);
        json_t *total = json_object_get(e, "rejected_total");
        snprintf(nrej, sizeof nrej, "%lld",
                 (long long)(json_is_integer(total) ? json_integer_value(total) : (json_int_t)json_array_size(rej)));
        if (best)
            deciding_case(best, why, sizeof why);
        rdoc_row(rows, json_string(k), json_string(value), json_string(nrej),
                 best ? rdoc_cell(json_object_get(best, "value")) : json_string("—"), json_string(why), NULL);
    }
    if (*quiet)
        rdoc_para(blocks, "No alternative rejected (value in the summary): %s.", quiet);
    rdoc_para(blocks, "Fields with one value in the whole record: under Findings.");
}

static void instruction(json_t *doc, const json_t *a, const json_t *varies)
{
    const char *name = json_string_value(json_object_get(a, "instr"));
    char id[300], v[32], summary[300];
    rdoc_anchor(name, id, sizeof id);
    rdoc_heading(doc, 3, name ? name : "?", id);
    json_t *ver = json_object_get(a, "verification"), *t = json_object_get(a, "timing");
    verdict(a, v, sizeof v);
    size_t o = (size_t)snprintf(summary, sizeof summary, "%s: %lld of %lld elements differ", v,
                                (long long)json_integer_value(json_object_get(ver, "mismatches")),
                                (long long)json_integer_value(json_object_get(ver, "elements")));
    if (json_is_object(t))
        snprintf(summary + o, sizeof summary - o, "; %.4g cycles, %.4g FMA/clk/SM (%.1f%% of peak), %.4g TFLOP/s",
                 tc_json_number(json_object_get(t, "latency_cycles")),
                 tc_json_number(json_object_get(t, "throughput_fma_clk_sm")),
                 100 * tc_json_number(json_object_get(t, "fraction_of_peak")), tc_json_number(json_object_get(t, "tflops")));
    evidence(rdoc_details(doc, summary), a, varies);
}

void rdoc_audit_section(json_t *doc, const json_t *audits_in)
{
    if (!json_array_size(audits_in))
        return;
    json_t *audits = in_catalogue_order(audits_in);
    json_t *sum = json_array(); /* the summary goes first, but needs the varying fields */
    json_t *found = json_array();
    json_t *varying = findings(found, audits);
    summary_table(sum, audits, varying);
    json_array_extend(doc, sum);
    json_array_extend(doc, found);
    json_t *toc = json_array();
    size_t i;
    json_t *a;
    json_array_foreach(audits, i, a)
    {
        const char *name = json_string_value(json_object_get(a, "instr"));
        char id[300];
        rdoc_anchor(name, id, sizeof id);
        json_array_append_new(toc, json_pack("[s, s]", id, name ? name : "?"));
    }
    rdoc_heading(doc, 2, "Contents", "contents");
    json_array_append_new(doc, json_pack("{s:o}", "toc", toc));
    rdoc_heading(doc, 2, "Instructions", "instructions");
    json_t *varies = json_object();
    json_array_foreach(varying, i, a) json_object_set_new(varies, json_string_value(a), json_true());
    json_array_foreach(audits, i, a) instruction(doc, a, varies);
    json_decref(varies);
    json_decref(sum);
    json_decref(found);
    json_decref(varying);
    json_decref(audits);
}
