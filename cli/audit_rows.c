/* tcscope audit --backend corpus:PATH: the audit of a fixed set of
 * recorded rows (cases/fit_rows.h), which cannot ask new questions. Writes
 * OUT/audit-rows.json (schema tcscope.fit-rows/1: per instruction the
 * split, every field decided or not, the verification) and OUT/NAME.profile
 * with the chosen arithmetic of every instruction that some candidate fits;
 * [about] says the evidence is third-party recorded rows and lists every
 * undecided field with the values that also explain the rows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cases/fit_rows.h"
#include "cli/audit.h"
#include "cli/audit_rows.h"
#include "cli/cli.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "reports/record_audit.h"

static json_t *hexbits(uint64_t x, const tc_format *f)
{
    char b[32];
    snprintf(b, sizeof b, "0x%0*llx", (f->storage_bits + 3) / 4, (unsigned long long)x);
    return json_string(b);
}

/* Every field as the audit record writes it (typed by the field table:
 * reports/record_audit.h). */
static json_t *params_json(const model_params *p)
{
    json_t *o = json_object();
    for (int i = 0; i < model_field_count(); i++) {
        char t[64];
        model_field_text(p, i, t, sizeof t);
        json_object_set_new(o, model_fields[i].key, tc_fingerprint_value(i, t));
    }
    return o;
}

/* decided: one value explains the fit rows and some row refutes another;
 * one value but no other could be tried (none applies to this instruction
 * or the profile refuses it): said so, not called decided. */
static const char *fit_status(const fit_field *f)
{
    if (f->nvalues > 1)
        return "not decidable";
    return f->deciding_rows ? "decided" : "no other value tried";
}

static json_t *result_json(const tc_dots *d, const fit_result *r)
{
    json_t *o = json_pack("{s:s, s:s, s:s, s:I, s:s, s:I, s:I, s:I, s:I, s:b}", "instr", d->ins->name, "gpu", d->gpu,
                          "files", d->files, "rows", (json_int_t)d->rows, "split",
                          "fit: even row indices (0, 2, ..); verify: odd", "fit_rows", (json_int_t)r->fit_rows,
                          "verify_rows", (json_int_t)r->verify_rows, "grid_candidates", (json_int_t)r->candidates,
                          "grid_survivors", (json_int_t)r->survivors, "fits", r->fits);
    json_object_set_new(o, "observed_output_bits", json_integer(r->observed_bits));
    json_t *rows = json_array();
    for (size_t i = 0; i < r->shown; i++)
        json_array_append_new(rows, json_pack("{s:I, s:o, s:o}", "row", (json_int_t)r->row[i], "recorded",
                                              hexbits(r->want[i], d->ins->d), "model", hexbits(r->got[i], d->ins->d)));
    if (!r->fits) {
        json_object_set_new(o, "verdict", json_sprintf("no candidate of the grid explains every fit row; the best "
                                                       "explains the first %zu of %zu (not a result)",
                                                       r->best_rows, r->fit_rows));
        json_object_set_new(o, "best_candidate", params_json(&r->best));
        json_object_set_new(o, "best_candidate_mismatches", rows);
        return o;
    }
    json_object_set_new(o, "chosen", params_json(&r->chosen));
    json_object_set_new(o, "verify_mismatches", json_integer((json_int_t)r->verify_mismatch));
    if (r->verify_mismatch) {
        json_t *v;
        size_t i;
        json_array_foreach(rows, i, v)
            json_object_set_new(v, "fit_survivors_giving_recorded", json_integer((json_int_t)r->row_explained[i]));
        json_object_set_new(o, "fit_survivors_missing_no_verify_row", json_integer((json_int_t)r->survivors_verified));
        json_object_set_new(o, "verify_explanation",
                            json_sprintf("the fit half left %zu arithmetics it cannot tell apart; the chosen one (first "
                                         "in grid order) misses %zu verify rows, %zu of the %zu miss none: the fields "
                                         "they differ in are the undecided ones",
                                         r->survivors, r->verify_mismatch, r->survivors_verified, r->survivors));
    }
    json_object_set_new(o, "verify_mismatch_rows", rows);
    json_t *fields = json_object();
    for (int i = 0; i < r->nfields; i++) {
        const fit_field *f = &r->fields[i];
        json_t *vals = json_array();
        for (int v = 0; v < f->nvalues; v++)
            json_array_append_new(vals, tc_fingerprint_value(model_field_find(f->key), f->values[v]));
        json_t *fo = json_pack("{s:s, s:o, s:i, s:I}", "status", fit_status(f),
                               "values", vals, "other_values_tried", f->tried, "deciding_rows",
                               (json_int_t)f->deciding_rows);
        if (f->more)
            json_object_set_new(fo, "more_values", json_true());
        json_object_set_new(fields, f->key, fo);
    }
    json_object_set_new(o, "fields", fields);
    return o;
}

/* The [about] lines of one instruction's fit. */
static void about_notes(model_profile *prof, const tc_dots *d, const fit_result *r)
{
    char key[128], val[256];
    snprintf(key, sizeof key, "evidence %s", d->ins->name);
    snprintf(val, sizeof val, "%zu third-party recorded rows of %s (%s); fitted on %zu even rows, verified on %zu odd "
             "rows: %zu mismatches%s", d->rows, d->gpu, d->ins->name, r->fit_rows, r->verify_rows, r->verify_mismatch,
             r->verify_mismatch ? " (explained in the audit record: the fit half left arithmetics this choice "
                                  "is one of)" : "");
    profile_add_note(prof, key, val);
    /* the names of every undecided field (a note holds 255 characters), then
     * the values of the table's fields; every value of every field: the record */
    char und[256] = "", vals[256] = "";
    size_t at = 0, vat = 0;
    static const char *const shown[] = {"block", "align_bits", "align_round", "acc", "c_mode"};
    for (int i = 0; i < r->nfields; i++) {
        const fit_field *f = &r->fields[i];
        if (f->nvalues == 1)
            continue;
        if (at < sizeof und)
            at += (size_t)snprintf(und + at, sizeof und - at, "%s%s", at ? ", " : "", f->key);
        for (size_t k = 0; k < sizeof shown / sizeof *shown; k++)
            if (!strcmp(shown[k], f->key) && vat < sizeof vals) {
                vat += (size_t)snprintf(vals + vat, sizeof vals - vat, "%s%s %s", vat ? "; " : "", f->key,
                                        f->values[0]);
                for (int v = 1; v < f->nvalues && vat < sizeof vals; v++)
                    vat += (size_t)snprintf(vals + vat, sizeof vals - vat, "|%s", f->values[v]);
                if (f->more && vat < sizeof vals)
                    vat += (size_t)snprintf(vals + vat, sizeof vals - vat, "|..");
            }
    }
    snprintf(key, sizeof key, "undecided %s", d->ins->name);
    profile_add_note(prof, key, at ? und : "none");
    if (vat) {
        snprintf(key, sizeof key, "undecided_values %s", d->ins->name);
        profile_add_note(prof, key, vals);
    }
}

static int emit_doc(FILE *f, const void *doc)
{
    return json_dumpf(doc, f, JSON_INDENT(1) | JSON_PRESERVE_ORDER) || fputc('\n', f) < 0 ? -1 : 0;
}

static int emit_profile(FILE *f, const void *prof)
{
    return profile_write(f, prof);
}

int audit_rows(const audit_args *a, tc_backend *be)
{
    size_t nsets;
    const tc_dots *sets = tc_dots_of_backend(be, &nsets);
    if (!sets)
        return cli_fail("audit", "%s is not a corpus backend", a->backend);
    const char *out = a->out ? a->out : "out/audit";
    char oerr[700];
    tc_outdir dir;
    if (tc_outdir_open(&dir, out, a->force, oerr, sizeof oerr))
        return cli_fail("audit", "%s", oerr);
    char name[64];
    if (a->profile_name)
        snprintf(name, sizeof name, "%s", a->profile_name);
    else {
        size_t i = 0;
        for (; sets[0].gpu[i] && i + 1 < sizeof name; i++)
            name[i] = (char)(sets[0].gpu[i] >= 'A' && sets[0].gpu[i] <= 'Z' ? sets[0].gpu[i] - 'A' + 'a' : sets[0].gpu[i]);
        name[i] = '\0';
    }
    model_profile prof = {0};
    profile_add_note(&prof, "device", sets[0].gpu);
    profile_add_note(&prof, "written_by", "tcscope audit --backend corpus: inferred from third-party recorded rows "
                                          "(not measured by tcscope)");
    profile_add_note(&prof, "source", sets[0].source);
    profile_add_note(&prof, "split", "fit on the rows of even index, verified on the rows of odd index");
    profile_add_note(&prof, "undecided_means", "a field the rows cannot decide holds the first value in the fit's grid "
                                               "order, usable only as that choice; 'undecided' names such fields, "
                                               "'undecided_values' gives the chosen value first, the audit record "
                                               "every value");
    json_t *doc = json_pack("{s:s, s:s, s:s, s:s, s:[]}", "schema", "tcscope.fit-rows/1", "backend", a->backend,
                            "device", sets[0].gpu, "source", sets[0].source, "instructions");
    int rc = TC_EXIT_OK;
    for (size_t s = 0; s < nsets; s++) {
        const tc_dots *d = &sets[s];
        if (a->instr && strcmp(a->instr, "all") && strcmp(a->instr, d->ins->name))
            continue;
        if (strcmp(d->gpu, sets[0].gpu)) {
            rc = cli_fail("audit", "%s: rows of two GPUs (%s, %s) in one corpus", a->backend, sets[0].gpu, d->gpu);
            break;
        }
        fit_result r;
        char err[256];
        if (tc_fit_rows(d, &r, err, sizeof err)) {
            rc = cli_fail("audit", "%s: %s", d->ins->name, err);
            break;
        }
        json_array_append_new(json_object_get(doc, "instructions"), result_json(d, &r));
        int undecided = 0;
        for (int i = 0; r.fits && i < r.nfields; i++)
            undecided += r.fields[i].nvalues > 1;
        if (r.fits) {
            profile_set(&prof, d->ins->name, &r.chosen);
            about_notes(&prof, d, &r);
            printf("%s %s: fits (%zu of %zu grid candidates); verify %zu/%zu rows mismatch; %d fields not decidable\n",
                   d->gpu, d->ins->name, r.survivors, r.candidates, r.verify_mismatch, r.verify_rows, undecided);
        } else
            printf("%s %s: NO grid candidate explains all %zu fit rows (best: first %zu); no profile entry\n", d->gpu,
                   d->ins->name, r.fit_rows, r.best_rows);
        tc_fit_result_free(&r);
    }
    char pname[TC_OUT_NAME_MAX + 16];
    snprintf(pname, sizeof pname, "%.63s.profile", name);
    if (rc == TC_EXIT_OK && tc_out_write(&dir, "audit-rows.json", emit_doc, doc, oerr, sizeof oerr))
        rc = cli_fail("audit", "%s", oerr);
    if (rc == TC_EXIT_OK && prof.count && tc_out_write(&dir, pname, emit_profile, &prof, oerr, sizeof oerr))
        rc = cli_fail("audit", "%s", oerr);
    tc_outdir_close(&dir);
    json_decref(doc);
    profile_free(&prof);
    return rc;
}
