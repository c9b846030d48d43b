/* tcscope audit in this process (cli/audit.h audit_run_here): each selected
 * instruction audited in turn, its object printed (text or --json) and
 * added to the record; a device fault stops the run, keeping what finished. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/audit.h"
#include "cli/audit.h"
#include "cli/audit_stages.h"
#include "cli/cli.h"
#include "cli/hunt_on.h"
#include "cli/model_on.h"
#include "cli/run_info.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "reports/record_audit.h"
#include "reports/reports.h"
#include "probes/clock.h"

/* Field `key` of r's fingerprint as the profile writes it. */
static const char *field_text(const audit_result *r, const char *key, char *buf, size_t len)
{
    model_field_text(&r->fit.params, model_field_find(key), buf, len);
    return buf;
}

static void print_human(const audit_result *r, const json_t *obj, audit_stages *st)
{
    if (r->control) {
        printf("%-44s %s %8zu/%-8zu exact integer sum, overflow %s\n", r->ins->name,
               r->proof.mismatches == 0 ? "VERIFIED" : "MISMATCH", r->proof.mismatches, r->proof.n,
               r->ctl.wrap ? "wrap" : "saturate");
        return;
    }
    const json_t *t = json_object_get(obj, "timing");
    char b[5][64];
    printf("%-44s %s %8zu/%-8zu block=%-4s align_bits=%-5s align=%-5s acc=%-10s out=%-4s",
           r->ins->name, r->proof.mismatches == 0 ? "VERIFIED" : "MISMATCH", r->proof.mismatches,
           r->proof.n, field_text(r, "block", b[0], sizeof b[0]), field_text(r, "align_bits", b[1], sizeof b[1]),
           field_text(r, "align_round", b[2], sizeof b[2]), field_text(r, "acc", b[3], sizeof b[3]),
           field_text(r, "out_round", b[4], sizeof b[4]));
    double lat = tc_json_number(json_object_get(t, "latency_cycles"));
    double thr = tc_json_number(json_object_get(t, "throughput_fma_clk_sm"));
    if (lat == lat)
        printf(" lat=%.0fclk", lat);
    if (thr == thr)
        printf(" %.0fFMA/clk/SM", thr);
    char budget[256];
    audit_stages_line(r, st, budget, sizeof budget);
    printf("%s\n", budget);
}

int audit_run_here(const audit_args *a, tc_backend *be, bool fallback, const tc_instr *const *list, size_t n,
                   const tc_record *given_rec, int argc, char **argv)
{
    const tc_backend_info *info = tc_backend_get_info(be);
    const char *timing_source;
    double t0 = tc_now_s();
    json_t *timing = audit_collect_timing(a, info, list, n, &timing_source);
    double timing_s = tc_now_s() - t0;
    audit_stages stages = {0};
    if (!timing)
        return TC_EXIT_USAGE;
    cli_model_on mo;
    int rc = cli_model_on_open("audit", a->model_on, info->backend, &mo);
    if (rc != TC_EXIT_OK) {
        json_decref(timing);
        return rc;
    }
    tc_outdir d;
    rc = audit_begin_outputs(a, &d, argc, argv);
    if (rc != TC_EXIT_OK) {
        cli_model_on_close(&mo);
        json_decref(timing);
        return rc;
    }
    uint64_t seeds[1] = {a->seed};
    json_t *hdr = cli_record_header("audit", info, seeds, 1);
    json_object_set_new(hdr, "timing_source", json_string(timing_source));
    json_object_set_new(hdr, "recorded_model", json_boolean(fallback));
    json_object_set_new(hdr, "model_on", json_string(mo.name));
    if (d.run_id[0]) /* the record printed by --json names this run too */
        json_object_set_new(hdr, "run_id", json_string(d.run_id));
    tc_record rec = tc_record_new(hdr);
    /* --json prints the record (header, objects, trailer); a child of --jobs
     * prints its objects only: the parent prints one header and trailer */
    tc_record_stream js = {stdout, "audit", 0};
    char jerr[512];
    if (a->json && !a->part && tc_record_stream_begin(&js, stdout, hdr, jerr, sizeof jerr) != 0)
        cli_warn("audit", "--json: %s", jerr);
    model_profile prof;
    memset(&prof, 0, sizeof prof);
    profile_add_note(&prof, "device", info->device);
    profile_add_note(&prof, "driver", info->driver);
    profile_add_note(&prof, "cuda", info->cuda);
    profile_add_note(&prof, "backend", info->backend);
    profile_add_note(&prof, "written_by", "tcscope audit (inferred from the backend's answers)");
    if (!a->json)
        printf("# tcscope audit on %s (%s)%s\n", info->backend, info->device,
               fallback ? "  [RECORDED MODEL, NOT HARDWARE]" : "");
    /* every hunt family gets a sixteenth of the random count (cases/hunt.h) */
    cli_hunt_on ho;
    cli_hunt_on_open(&ho, be, &mo);
    audit_opts o = {.verify_n = a->n, .hunt_n = a->hunt_n ? a->hunt_n : a->n / 16, .seed = a->seed,
                    .keep_cases = a->keep_cases, .model_run = cli_model_on_run, .model_ctx = &mo,
                    .fit = cli_model_on_fit_ops(&mo), .fit_ctx = &mo,
                    .hunt_run = cli_hunt_on_run, .hunt_ctx = &ho, .random_run = cli_random_on_run,
                    .random_ctx = &ho};
    int status = TC_EXIT_OK;
    char stopped[700] = "";
    size_t stopped_at = n;
    for (size_t i = 0; i < n; i++) {
        audit_result r;
        char err[512];
        infer_case *given = NULL;
        int arc = given_rec->objects ? audit_given_cases(given_rec->objects, list[i], &given, &o.ngiven, err, sizeof err) : 0;
        o.given = given;
        ho.ins = list[i];
        double count_s = mo.fit.copy_s + mo.fit.kernel_s + mo.fit.cpu_s;
        if (arc == 0)
            arc = audit_instr(be, list[i], &o, &r, err, sizeof err);
        if (arc == 0)
            r.fit_count_s = mo.fit.copy_s + mo.fit.kernel_s + mo.fit.cpu_s - count_s;
        audit_cases_free(given, o.ngiven);
        o.given = NULL;
        o.ngiven = 0;
        if (tc_backend_fault(be)) {
            /* A device error: this instruction's answers (and all after it)
             * cannot be trusted; what finished before is kept. */
            if (arc == 0)
                audit_result_free(&r);
            snprintf(stopped, sizeof stopped, "%s: %s", list[i]->name, tc_backend_fault(be));
            fprintf(stderr, "tcscope audit: %s\n", stopped);
            stopped_at = i;
            break;
        }
        if (arc != 0) {
            cli_warn("audit", "%s: %s", list[i]->name, err);
            status = TC_EXIT_DIFF;
            continue;
        }
        if (r.proof.mismatches != 0 || r.proof.n == 0)
            status = TC_EXIT_DIFF;
        if (r.proof.mismatches == 0 && r.proof.n > 0 && !r.control)
            profile_set(&prof, list[i]->name, &r.fit.params);
        json_t *obj = tc_audit_object(&r, timing);
        json_object_set_new(obj, "model_elements", cli_model_on_take(&mo));
        bool added = tc_record_add(&rec, json_incref(obj), err, sizeof err) == 0;
        if (!added)
            cli_warn("audit", "%s: record: %s", list[i]->name, err);
        if (a->json && added) { /* the record's object; its answers are in the file only */
            json_t *line = json_deep_copy(obj);
            json_object_del(line, "answers");
            if (tc_record_stream_object(&js, line, err, sizeof err) != 0)
                cli_warn("audit", "%s: --json: %s", list[i]->name, err);
            json_decref(line);
        } else if (!a->json)
            print_human(&r, obj, &stages);
        fflush(stdout);
        json_decref(obj);
        audit_result_free(&r);
    }
    if (a->json && !a->part)
        tc_record_stream_end(&js, stopped[0] ? stopped : NULL);
    const char *pname = a->profile_name ? a->profile_name : "audit";
    int wrc = audit_write_outputs(a, &d, &rec, &prof, stopped[0] ? stopped : NULL);
    tc_outdir_close(&d);
    if (stopped[0]) {
        if (wrc == TC_EXIT_OK)
            fprintf(stderr,
                "tcscope audit: stopped at instruction %zu of %zu; %s/audit.jsonl keeps the %zu audited before "
                "it, marked partial (compare refuses it as incomplete), and %s/%s.profile their parameters\n",
                stopped_at + 1, n, a->out, json_array_size(rec.objects), a->out, pname);
        wrc = TC_EXIT_USAGE;
    }
    if (!a->json && !a->part)
        audit_stages_print(&stages, timing_s, tc_now_s() - t0);
    if (!stopped[0] && !a->json && wrc == TC_EXIT_OK)
        printf("# written: %s/audit.jsonl, %s/%s.profile, %s/audit.md, %s/audit.html\n", a->out, a->out, pname,
               a->out, a->out);
    if (fallback)
        cli_warn("audit", "reminder: this was the recorded model, not a GPU.");
    profile_free(&prof);
    tc_record_free(&rec);
    json_decref(timing);
    cli_hunt_on_close(&ho);
    cli_model_on_close(&mo);
    return wrc != TC_EXIT_OK ? wrc : status;
}
