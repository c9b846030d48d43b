/* tcscope audit's output folder (cli/audit.h): begun before any work,
 * written at the end (record, profile, reports, run marker), and the
 * --merge of shard folders into one. */
#include <stdlib.h>
#include <string.h>

#include "cli/audit.h"
#include "cli/cli.h"
#include "oracle/profile.h"
#include "reports/record_audit.h"
#include "reports/render.h"
#include "reports/reports.h"

static int emit_profile(FILE *f, const void *prof)
{
    return profile_write(f, prof);
}

/* Opens --out and begins the run there: refuses (exit 2) when an earlier
 * record, profile or report is in the way and --force is not given, before
 * any work is done. */
int audit_begin_outputs(const audit_args *a, tc_outdir *d, int argc, char **argv)
{
    char err[600], names[8][TC_OUT_NAME_MAX + 1];
    if (tc_outdir_open(d, a->out, a->force, err, sizeof err) != 0)
        return cli_fail("audit", "%s", err);
    snprintf(names[0], sizeof names[0], "audit.jsonl");
    snprintf(names[1], sizeof names[1], "%s.profile", a->profile_name ? a->profile_name : "audit");
    size_t n = 2 + tc_report_names("audit", names + 2, 6);
    const char *list[8];
    for (size_t i = 0; i < n; i++)
        list[i] = names[i];
    if (tc_run_begin(d, "audit", argc, argv, list, n, err, sizeof err) != 0) {
        tc_outdir_close(d);
        return cli_fail("audit", "%s", err);
    }
    return TC_EXIT_OK;
}

/* The record, the profile and (for a finished run) the reports; then the run
 * marker says how the run ended. partial: why the run stopped early. */
int audit_write_outputs(const audit_args *a, tc_outdir *d, tc_record *rec, model_profile *prof,
                        const char *partial)
{
    char err[600], name[TC_OUT_NAME_MAX + 16];
    profile_add_note(prof, "run_id", d->run_id);
    if (partial)
        profile_add_note(prof, "partial", partial);
    if (tc_record_write(d, "audit.jsonl", rec, partial, err, sizeof err) != 0)
        return cli_fail("audit", "%s", err);
    snprintf(name, sizeof name, "%s.profile", a->profile_name ? a->profile_name : "audit");
    if (tc_out_write(d, name, emit_profile, prof, err, sizeof err) != 0)
        return cli_fail("audit", "%s", err);
    if (!partial && !a->part && tc_report_write(rec, d, "audit", err, sizeof err) != 0)
        cli_warn("audit", "report not written: %s", err);
    if (tc_run_end(d, partial, err, sizeof err) != 0)
        return cli_fail("audit", "%s", err);
    return TC_EXIT_OK;
}

/* Two audits of one instruction with one result: the same fingerprint (in
 * one form, reports/record_audit.h) and the same verification verdict.
 * false with what differs in what. */
static bool same_result(const json_t *a, const json_t *b, char *what, size_t len)
{
    json_t *na = tc_audit_normalized(a), *nb = tc_audit_normalized(b);
    const json_t *fa = json_object_get(na, "fingerprint"), *fb = json_object_get(nb, "fingerprint");
    const char *k;
    json_t *v;
    snprintf(what, len, "the verification");
    bool same = json_equal(json_object_get(json_object_get(na, "verification"), "verified"),
                           json_object_get(json_object_get(nb, "verification"), "verified"));
    json_object_foreach((json_t *)fa, k, v) if (same && !json_equal(v, json_object_get(fb, k)))
    {
        snprintf(what, len, "fingerprint.%s", k);
        same = false;
    }
    json_object_foreach((json_t *)fb, k, v) if (same && !json_object_get(fa, k))
    {
        snprintf(what, len, "fingerprint.%s", k);
        same = false;
    }
    json_decref(na);
    json_decref(nb);
    return same;
}

int audit_merge_into(const char *const *dirs, size_t ndirs, const char *prefer, tc_record *out, model_profile *prof)
{
    char err[512], path[4200];
    json_t *from = json_object(); /* instruction -> the folder its object came from */
    for (size_t di = 0; di < ndirs; di++) {
        tc_record rec;
        snprintf(path, sizeof path, "%s/audit.jsonl", dirs[di]);
        if (tc_record_load(path, &rec, err, sizeof err) != 0) {
            json_decref(from);
            return cli_fail("audit", "--merge: %s", err);
        }
        if (!out->header)
            *out = tc_record_new(json_deep_copy(rec.header));
        size_t i, nprofiled = 0;
        json_t *o;
        json_array_foreach(rec.objects, i, o) {
            if (!json_object_get(o, "control") &&
                json_is_true(json_object_get(json_object_get(o, "verification"), "verified")))
                nprofiled++;
            const char *instr = json_string_value(json_object_get(o, "instr"));
            size_t j;
            json_t *old;
            bool keep_old = false;
            json_array_foreach(out->objects, j, old)
                if (instr && !strcmp(instr, json_string_value(json_object_get(old, "instr")))) {
                    /* one instruction twice: one result, or the folder --prefer names */
                    char what[160];
                    size_t dj = (size_t)json_integer_value(json_object_get(from, instr));
                    if (!same_result(old, o, what, sizeof what) && !prefer) {
                        cli_fail("audit", "--merge: %s and %s hold different results for %s (%s): give --prefer DIR "
                                 "to take one", dirs[dj], dirs[di], cli_str(o, "instr"), what);
                        tc_record_free(&rec);
                        json_decref(from);
                        return TC_EXIT_USAGE;
                    }
                    keep_old = !prefer || strcmp(prefer, dirs[di]);
                    if (!keep_old) {
                        json_array_remove(out->objects, j);
                        profile_remove(prof, instr);
                    }
                    break;
                }
            if (keep_old)
                continue;
            if (instr)
                json_object_set_new(from, instr, json_integer((json_int_t)di));
            tc_record_add(out, json_deep_copy(o), err, sizeof err);
        }
        tc_record_free(&rec);
        if (nprofiled == 0)
            continue; /* a shard with no verified fingerprint wrote an empty profile */
        model_profile part;
        snprintf(path, sizeof path, "%s/audit.profile", dirs[di]);
        if (profile_load(path, &part, err, sizeof err) != 0)
            return cli_fail("audit", "--merge: %s", err);
        for (size_t j = 0; j < part.count; j++) /* the profile follows the record: the objects kept */
            if ((size_t)json_integer_value(json_object_get(from, part.entries[j].instr)) == di &&
                json_object_get(from, part.entries[j].instr))
                profile_set(prof, part.entries[j].instr, &part.entries[j].params);
        if (prof->nnotes == 0)
            for (size_t j = 0; j < part.nnotes; j++)
                if (strcmp(part.notes[j].key, "run_id")) /* the shard's run; the merge writes its own */
                    profile_add_note(prof, part.notes[j].key, part.notes[j].value);
        profile_free(&part);
    }
    json_decref(from);
    return TC_EXIT_OK;
}

/* Shards of one audit (--shard) run as separate processes; this joins their
 * records and profiles in the order of the folders given. */
int audit_merge(const audit_args *a, int argc, char **argv)
{
    char *list = strdup(a->merge), *save = NULL;
    const char **dirs = calloc(strlen(a->merge) / 2 + 2, sizeof *dirs);
    if (!list || !dirs) {
        free(list), free(dirs);
        return cli_fail("audit", "out of memory");
    }
    size_t nd = 0;
    for (char *dir = strtok_r(list, ",", &save); dir; dir = strtok_r(NULL, ",", &save))
        dirs[nd++] = dir;
    tc_record out = {NULL, NULL};
    model_profile prof;
    memset(&prof, 0, sizeof prof);
    bool named = !a->prefer;
    for (size_t i = 0; i < nd; i++)
        named = named || !strcmp(a->prefer, dirs[i]);
    int status = named ? audit_merge_into(dirs, nd, a->prefer, &out, &prof)
                       : cli_fail("audit", "--prefer %s: not one of the --merge folders", a->prefer);
    free(dirs);
    free(list);
    size_t i;
    json_t *o;
    if (out.header)
        json_array_foreach(out.objects, i, o)
            if (!json_is_true(json_object_get(json_object_get(o, "verification"), "verified")))
                status = status == TC_EXIT_USAGE ? status : TC_EXIT_DIFF;
    tc_outdir d;
    if (status != TC_EXIT_USAGE && out.header) {
        int w = audit_begin_outputs(a, &d, argc, argv);
        if (w == TC_EXIT_OK) {
            w = audit_write_outputs(a, &d, &out, &prof, NULL);
            tc_outdir_close(&d);
        }
        if (w != TC_EXIT_OK)
            status = w;
    }
    if (out.header)
        tc_record_free(&out);
    profile_free(&prof);
    return status;
}
