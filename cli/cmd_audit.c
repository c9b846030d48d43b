/* tcscope audit: fingerprint + proof + features + timing for each instruction,
 * written as a record, a profile, and Markdown/HTML reports. */
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases/audit.h"
#include "cli/audit.h"
#include "cli/audit_rows.h"
#include "probes/dots.h"
#include "cli/cli.h"
#include "cli/run_info.h"
#include "cli/fleet.h"
#include "cli/pool.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "probes/timing.h"
#include "reports/record_audit.h"
#include "reports/record_bench.h"
#include "reports/render.h"
#include "reports/reports.h"

#define RECORDED_BENCH "reports/baselines/h100-bench.json"


typedef enum { O_BACKEND, O_INSTR, O_OUT, O_PROFILE_NAME, O_TIMING, O_MERGE, O_RENDER, O_COUNTEREXAMPLES, O_SHARD, O_N,
               O_HUNT_N, O_SEED, O_JSON, O_NO_TIMING, O_NO_CASES, O_FORCE, O_JOBS, O_RESUME, O_PART } audit_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "gpu, gpu:N, model:PROFILE, exact or corpus:PATH (recorded rows: fitted, cli/audit_rows.c) (default: the GPU, else " CLI_RECORDED_MODEL "); gpu:all or gpu:I,J,..: one worker per GPU, the instructions shared out, merged (OUT/fleet.json)"},
    [O_INSTR] = {"--instr", "NAME[,NAME..]|all", "the instructions audited (default all)"},
    [O_OUT] = {"--out", "DIR", "the output folder (default out/audit)"},
    [O_PROFILE_NAME] = {"--profile-name", "NAME", "the name of the profile written (a plain file name)"},
    [O_TIMING] = {"--timing", "BENCH.json", "attach this bench record's timing instead of measuring"},
    [O_MERGE] = {"--merge", "DIR,DIR..", "merge these audit output folders (--shard runs) into --out: nothing is run"},
    [O_RENDER] = {"--render", "REC", "the Markdown/HTML report of a recorded audit (REC.jsonl[.gz]) into --out: nothing is run"},
    [O_COUNTEREXAMPLES] = {"--counterexamples", "HUNT.jsonl", "a hunt record whose failures join the fits "
                                                             "(re-asked on the backend)"},
    [O_SHARD] = {"--shard", "I/N", "audit every N-th instruction from the I-th (0 <= I < N)"},
    [O_N] = {"--n", "COUNT", "random elements in the proof (default 1e6 on a GPU, 1e5 on the recorded model)", 1,
             AUDIT_MAX_N},
    [O_HUNT_N] = {"--hunt-n", "PER_FAMILY", "elements per hunt family in the proof (default COUNT / 16)", 1,
                  100000000ull},
    [O_SEED] = {"--seed", "S", "random seed (default 0x7c5c09e)"},
    [O_JSON] = {"--json", NULL, "print the record instead of the text: header, one object per instruction (its answers only in OUT/audit.jsonl), trailer"},
    [O_NO_TIMING] = {"--no-timing", NULL, "no timing (neither measured nor the recorded bench)"},
    [O_NO_CASES] = {"--no-cases", NULL, "leave every inference case's answer out of the record"},
    [O_FORCE] = {"--force", NULL, "replace an earlier audit in --out DIR"},
    [O_JOBS] = {"--jobs", "J", "instructions audited at once, one child process each (default: one per CPU; "
                               "1: all in this process)", 1, 1024},
    [O_RESUME] = {"--resume", NULL, "keep the parts (DIR/parts/NAME) an earlier run of the same command finished; "
                                    "run the others"},
    [O_PART] = {"--part", NULL, "internal: one child of --jobs (its record and profile, no reports)"},
};
const cli_command cmd_audit_cli = {"audit", "fingerprint, proof, features and timing of each instruction: "
                                            "a record, a profile, Markdown and HTML reports",
                                   NULL, NULL, opts, CLI_NOPTS(opts), false};

static int parse_args(int argc, char **argv, audit_args *a)
{
    *a = (audit_args){.instr = "all", .out = "out/audit", .seed = 0x7c5c09e, .nshards = 1, .timing = true,
                      .keep_cases = true};
    cli_scan sc = cli_scan_start(&cmd_audit_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        switch ((audit_opt)sc.opt) {
        case O_BACKEND: a->backend = v; break;
        case O_INSTR: a->instr = v; break;
        case O_OUT: a->out = v; break;
        case O_PROFILE_NAME: {
            char why[160];
            if (!tc_out_name_ok(v, why, sizeof why))
                return cli_fail("audit", "bad --profile-name: %s", why);
            a->profile_name = v;
            break;
        }
        case O_TIMING: a->timing_file = v; break;
        case O_MERGE: a->merge = v; break;
        case O_RENDER: a->render = v; break;
        case O_COUNTEREXAMPLES: a->given_file = v; break;
        case O_SHARD: {
            char tail;
            if (sscanf(v, "%u/%u%c", &a->shard, &a->nshards, &tail) != 2 || a->nshards == 0 ||
                a->shard >= a->nshards)
                return cli_fail("audit", "bad --shard '%s' (want I/N with 0 <= I < N)", v);
            break;
        }
        case O_N: a->n = (size_t)sc.count; break;
        case O_HUNT_N: a->hunt_n = (size_t)sc.count; break;
        case O_SEED:
            if (!cli_seed("audit", "--seed", v, &a->seed))
                return TC_EXIT_USAGE;
            break;
        case O_JSON: a->json = true; break;
        case O_NO_TIMING: a->timing = false; break;
        case O_NO_CASES: a->keep_cases = false; break;
        case O_FORCE: a->force = true; break;
        case O_JOBS: a->jobs = (unsigned)sc.count; break;
        case O_RESUME: a->resume = a->force = true; break; /* the top-level outputs are rebuilt from the parts */
        case O_PART: a->part = true, a->jobs = 1; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (cli_list_check("audit", "--instr", a->instr, true) || (a->merge && cli_list_check("audit", "--merge", a->merge, false)))
        return TC_EXIT_USAGE;
    return TC_EXIT_OK;
}

/* The GPU when there is one; else the recorded model, said loudly (cli/backend_rule.c). */
static tc_backend *open_backend(const audit_args *a, bool *is_model_fallback)
{
    return cli_backend_open("audit", a->backend, is_model_fallback);
}

/* The timing of a record file's bench objects (tc_bench_timing: the
 * figures, not the detail), or NULL with err set. */
static json_t *load_bench_objects(const char *path, char *err, size_t len)
{
    tc_record rec;
    if (tc_record_load_any(path, &rec, err, len) != 0)
        return NULL;
    json_t *objs = tc_record_objects_of(&rec, "bench");
    json_t *timing = json_array();
    size_t i;
    json_t *o;
    json_array_foreach(objs, i, o)
        json_array_append_new(timing, tc_bench_timing(o));
    json_decref(objs);
    tc_record_free(&rec);
    return timing;
}

static json_t *measure_timing(const tc_instr *const *list, size_t n)
{
    char err[512];
    json_t *arr = json_array();
    tc_bench_opts o = {.device = 0};
    tc_bench *b = tc_bench_open(&o, err, sizeof err);
    if (!b) {
        cli_warn("audit", "timing skipped: %s", err);
        return arr;
    }
    tc_progress p;
    tc_progress_start(&p, "timing", n);
    tc_bench_result *r = malloc(sizeof *r);
    if (!r)
        abort();
    for (size_t i = 0; i < n; i++) {
        tc_bench_instr(b, list[i], r);
        json_t *full = tc_bench_object(r);
        json_array_append_new(arr, tc_bench_timing(full));
        json_decref(full);
        tc_progress_update(&p, i + 1);
    }
    free(r);
    tc_progress_end(&p);
    tc_bench_close(b);
    return arr;
}

/* Timing objects by instruction: from --timing, measured now on a GPU, or the
 * recorded bench of the H100 beside its recorded model. NULL: a bad --timing. */
static json_t *collect_timing(const audit_args *a, const tc_backend_info *info,
                              const tc_instr *const *list, size_t n, const char **source)
{
    char err[512];
    *source = "none";
    if (!a->timing)
        return json_array();
    if (a->timing_file) {
        json_t *t = load_bench_objects(a->timing_file, err, sizeof err);
        if (!t)
            cli_fail("audit", "--timing: %s", err);
        else if (json_array_size(t) == 0) { /* e.g. a sweep record: no timing would be attached */
            cli_fail("audit", "--timing %s: the record holds no bench object", a->timing_file);
            json_decref(t);
            return NULL;
        }
        *source = a->timing_file;
        return t;
    }
    if (info->sm > 0) {
        *source = "measured in this run";
        return measure_timing(list, n);
    }
    if (strcmp(info->backend, CLI_RECORDED_MODEL) != 0)
        return json_array();
    char path[4096];   /* the data beside the binary, not the working folder (probes/datadir.c) */
    err[0] = '\0';
    if (!tc_data_path(RECORDED_BENCH, path, sizeof path))
        snprintf(err, sizeof err, "%s is not beside the binary (%.400s)", RECORDED_BENCH, path);
    json_t *t = *err ? NULL : load_bench_objects(path, err, sizeof err);
    if (!t) {
        cli_warn("audit", "no recorded timing: %s", err);
        return json_array();
    }
    *source = "recorded: " RECORDED_BENCH;
    return t;
}

static size_t select_instrs(tc_backend *be, const audit_args *a, const tc_instr ***out)
{
    const char *name = a->instr;
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    const tc_instr **list = calloc(count + 1, sizeof *list);
    size_t n = 0, nunsupported = 0;
    bool refused = false;
    char why[256];
    for (size_t i = 0; list && i < count; i++) {
        if (!cli_instr_selected(name, cat[i].name))
            continue;
        if (i % a->nshards != a->shard)
            continue;
        if (tc_backend_supports(be, &cat[i], why, sizeof why))
            list[n++] = &cat[i];
        else if (strcmp(name, "all")) /* named: a partial audit would pass for the whole */
            refused = true, cli_fail("audit", "%s", why);
        else
            nunsupported++;
    }
    if (nunsupported)
        fprintf(stderr, "tcscope audit: %zu instructions not available on %s (e.g. no verified "
                        "profile entry, or no kernel built)\n",
                nunsupported, tc_backend_get_info(be)->backend);
    *out = list;
    return refused ? 0 : n;
}

/* Field `key` of r's fingerprint as the profile writes it. */
static const char *field_text(const audit_result *r, const char *key, char *buf, size_t len)
{
    model_field_text(&r->fit.params, model_field_find(key), buf, len);
    return buf;
}

static void print_human(const audit_result *r, const json_t *obj)
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
    printf("\n");
}

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

int audit_merge_into(const char *const *dirs, size_t ndirs, tc_record *out, model_profile *prof)
{
    char err[512], path[4200];
    for (size_t di = 0; di < ndirs; di++) {
        tc_record rec;
        snprintf(path, sizeof path, "%s/audit.jsonl", dirs[di]);
        if (tc_record_load(path, &rec, err, sizeof err) != 0)
            return cli_fail("audit", "--merge: %s", err);
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
            json_array_foreach(out->objects, j, old)
                if (instr && !strcmp(instr, json_string_value(json_object_get(old, "instr")))) {
                    json_array_remove(out->objects, j);
                    profile_remove(prof, instr);
                    break;
                }
            tc_record_add(out, json_deep_copy(o), err, sizeof err);
        }
        tc_record_free(&rec);
        if (nprofiled == 0)
            continue; /* a shard with no verified fingerprint wrote an empty profile */
        model_profile part;
        snprintf(path, sizeof path, "%s/audit.profile", dirs[di]);
        if (profile_load(path, &part, err, sizeof err) != 0)
            return cli_fail("audit", "--merge: %s", err);
        for (size_t j = 0; j < part.count; j++)
            profile_set(prof, part.entries[j].instr, &part.entries[j].params);
        if (prof->nnotes == 0)
            for (size_t j = 0; j < part.nnotes; j++)
                if (strcmp(part.notes[j].key, "run_id")) /* the shard's run; the merge writes its own */
                    profile_add_note(prof, part.notes[j].key, part.notes[j].value);
        profile_free(&part);
    }
    return TC_EXIT_OK;
}

/* Shards of one audit (--shard) run as separate processes; this joins their
 * records and profiles in the order of the folders given. */
static int merge_audits(const audit_args *a, int argc, char **argv)
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
    int status = audit_merge_into(dirs, nd, &out, &prof);
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

/* --counterexamples: a record (a hunt's) whose failures are checked for
 * every selected instruction before anything runs. */
static int load_given(const char *path, const tc_instr **list, size_t n, tc_record *rec)
{
    char err[512];
    if (tc_record_load(path, rec, err, sizeof err) != 0)
        return cli_fail("audit", "--counterexamples: %s", err);
    for (size_t i = 0; i < n; i++) {
        infer_case *g;
        size_t ng;
        if (audit_given_cases(rec->objects, list[i], &g, &ng, err, sizeof err) != 0) {
            tc_record_free(rec);
            return cli_fail("audit", "--counterexamples %s: %s", path, err);
        }
        audit_cases_free(g, ng);
    }
    return TC_EXIT_OK;
}

int cmd_audit(int argc, char **argv)
{
    audit_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != TC_EXIT_OK)
        return rc;
    if (a.render)
        return cli_render_record("audit", a.render, a.out, a.force);
    if (cli_fleet_spec(a.backend)) { /* every GPU of the node, the catalogue shared out (cli/fleet.h) */
        char path[4300];
        snprintf(path, sizeof path, "%s/audit.jsonl", a.out);
        if (a.merge || a.part || a.resume || a.nshards > 1)
            return cli_fail("audit", "--backend %s does not go with --merge, --part, --resume or --shard", a.backend);
        if (!a.force && access(path, F_OK) == 0)
            return cli_fail("audit", "%s exists: --force replaces it", path);
        cli_fleet_job j = {"audit", argc, argv, a.backend, a.out, a.instr, true, false, 0, 0};
        return cli_fleet_run(&j);
    }
    if (a.merge)
        return merge_audits(&a, argc, argv);
    if (a.part) /* a child of --jobs ends with its parent (a killed run keeps the finished parts only) */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
    bool fallback;
    tc_backend *be = open_backend(&a, &fallback);
    if (!be)
        return TC_EXIT_USAGE;
    if (tc_dots_of_backend(be, &(size_t){0})) { /* recorded rows: a fixed set, fitted (cli/audit_rows.h) */
        rc = audit_rows(&a, be);
        tc_backend_close(be);
        return rc;
    }
    const tc_backend_info *info = tc_backend_get_info(be);
    /* The proof needs 10^6 elements on hardware; replaying the recorded model
     * on a laptop proves nothing new, so it runs a tenth of that by default. */
    if (a.n == 0)
        a.n = fallback ? 100000 : 1000000;
    const tc_instr **list;
    size_t n = select_instrs(be, &a, &list);
    if (n == 0) {
        cli_fail("audit", "no instruction to audit ('%s' on %s)", a.instr, info->backend);
        free(list);
        tc_backend_close(be);
        return TC_EXIT_USAGE;
    }
    tc_record given_rec = {NULL, NULL};
    if (a.given_file && load_given(a.given_file, list, n, &given_rec) != TC_EXIT_OK) {
        free(list);
        tc_backend_close(be);
        return TC_EXIT_USAGE;
    }
    if (n > 1 && !a.part && (a.jobs ? a.jobs : tc_pool_cpus()) > 1) {
        tc_outdir d;
        rc = audit_begin_outputs(&a, &d, argc, argv);
        if (rc == TC_EXIT_OK)
            rc = audit_run_jobs(&a, info, fallback, list, n, &d);
        if (given_rec.header)
            tc_record_free(&given_rec);
        if (fallback)
            cli_warn("audit", "reminder: this was the recorded model, not a GPU.");
        free(list);
        tc_backend_close(be);
        return rc;
    }
    const char *timing_source;
    json_t *timing = collect_timing(&a, info, list, n, &timing_source);
    if (!timing) {
        if (given_rec.header)
            tc_record_free(&given_rec);
        free(list);
        tc_backend_close(be);
        return TC_EXIT_USAGE;
    }
    tc_outdir d;
    rc = audit_begin_outputs(&a, &d, argc, argv);
    if (rc != TC_EXIT_OK) {
        if (given_rec.header)
            tc_record_free(&given_rec);
        json_decref(timing);
        free(list);
        tc_backend_close(be);
        return rc;
    }
    uint64_t seeds[1] = {a.seed};
    json_t *hdr = cli_record_header("audit", info, seeds, 1);
    json_object_set_new(hdr, "timing_source", json_string(timing_source));
    json_object_set_new(hdr, "recorded_model", json_boolean(fallback));
    if (d.run_id[0]) /* the record printed by --json names this run too */
        json_object_set_new(hdr, "run_id", json_string(d.run_id));
    tc_record rec = tc_record_new(hdr);
    /* --json prints the record (header, objects, trailer); a child of --jobs
     * prints its objects only: the parent prints one header and trailer */
    tc_record_stream js = {stdout, "audit", 0};
    char jerr[512];
    if (a.json && !a.part && tc_record_stream_begin(&js, stdout, hdr, jerr, sizeof jerr) != 0)
        cli_warn("audit", "--json: %s", jerr);
    model_profile prof;
    memset(&prof, 0, sizeof prof);
    profile_add_note(&prof, "device", info->device);
    profile_add_note(&prof, "driver", info->driver);
    profile_add_note(&prof, "cuda", info->cuda);
    profile_add_note(&prof, "backend", info->backend);
    profile_add_note(&prof, "written_by", "tcscope audit (inferred from the backend's answers)");
    if (!a.json)
        printf("# tcscope audit on %s (%s)%s\n", info->backend, info->device,
               fallback ? "  [RECORDED MODEL, NOT HARDWARE]" : "");
    /* every hunt family gets a sixteenth of the random count (cases/hunt.h) */
    audit_opts o = {.verify_n = a.n, .hunt_n = a.hunt_n ? a.hunt_n : a.n / 16, .seed = a.seed,
                    .keep_cases = a.keep_cases};
    int status = TC_EXIT_OK;
    char stopped[700] = "";
    size_t stopped_at = n;
    for (size_t i = 0; i < n; i++) {
        audit_result r;
        char err[512];
        infer_case *given = NULL;
        int arc = given_rec.objects ? audit_given_cases(given_rec.objects, list[i], &given, &o.ngiven, err, sizeof err) : 0;
        o.given = given;
        if (arc == 0)
            arc = audit_instr(be, list[i], &o, &r, err, sizeof err);
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
        bool added = tc_record_add(&rec, json_incref(obj), err, sizeof err) == 0;
        if (!added)
            cli_warn("audit", "%s: record: %s", list[i]->name, err);
        if (a.json && added) { /* the record's object; its answers are in the file only */
            json_t *line = json_deep_copy(obj);
            json_object_del(line, "answers");
            if (tc_record_stream_object(&js, line, err, sizeof err) != 0)
                cli_warn("audit", "%s: --json: %s", list[i]->name, err);
            json_decref(line);
        } else if (!a.json)
            print_human(&r, obj);
        fflush(stdout);
        json_decref(obj);
        audit_result_free(&r);
    }
    if (a.json && !a.part)
        tc_record_stream_end(&js, stopped[0] ? stopped : NULL);
    const char *pname = a.profile_name ? a.profile_name : "audit";
    int wrc = audit_write_outputs(&a, &d, &rec, &prof, stopped[0] ? stopped : NULL);
    tc_outdir_close(&d);
    if (stopped[0]) {
        if (wrc == TC_EXIT_OK)
            fprintf(stderr,
                "tcscope audit: stopped at instruction %zu of %zu; %s/audit.jsonl keeps the %zu audited before "
                "it, marked partial (compare refuses it as incomplete), and %s/%s.profile their parameters\n",
                stopped_at + 1, n, a.out, json_array_size(rec.objects), a.out, pname);
        wrc = TC_EXIT_USAGE;
    } else if (!a.json && wrc == TC_EXIT_OK)
        printf("# written: %s/audit.jsonl, %s/%s.profile, %s/audit.md, %s/audit.html\n", a.out, a.out, pname,
               a.out, a.out);
    if (fallback)
        cli_warn("audit", "reminder: this was the recorded model, not a GPU.");
    profile_free(&prof);
    tc_record_free(&rec);
    if (given_rec.header)
        tc_record_free(&given_rec);
    json_decref(timing);
    free(list);
    tc_backend_close(be);
    return wrc != TC_EXIT_OK ? wrc : status;
}
