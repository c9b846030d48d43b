/* tcscope audit --jobs: the instructions dealt out (round robin, in
 * catalogue order) to as many children `tcscope audit --part --slice` as
 * there are CPUs (cli/pool.h), each opening the GPU once for its slice
 * (cli/audit_slice.c says why) and writing each instruction's record and
 * profile to OUT/parts/NAME/ as it ends; the parent merges them in
 * catalogue order into OUT as one run. A killed run keeps the parts it
 * finished, and --resume starts only the others (a part counts when its run
 * marker says done with the very command a child of that one instruction,
 * `--part --instr NAME`, would have). On a GPU the timing is measured first,
 * alone (`tcscope bench` into OUT/parts/bench.json), and given to every
 * child. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/audit.h"
#include "cli/audit_stages.h"
#include "cli/cli.h"
#include "cli/model_on.h"
#include "cli/run_info.h"
#include "cli/pool.h"
#include "probes/clock.h"

#define NARGS 32

typedef struct {
    const audit_args *a;
    const tc_instr *const *list;
    size_t n;
    char **args;         /* NARGS per item */
    char (*dir)[4200];   /* OUT/parts/NAME */
    audit_stages stages; /* the children's lines summed (the summary's "# stages:") */
    bool *done;          /* the part is there and current */
    int status;          /* worst child status so far (0, 1; 2 stops) */
    char stopped[700];
    char bench_path[4200];
    char *bench_instrs;  /* the instructions not yet done, comma separated: what the bench child times */
    tc_record_stream js; /* --json: the record printed, one header and trailer for all the children */
    size_t nslices;
    size_t *idx;         /* the instructions not yet done, slice by slice: */
    size_t *start;       /* slice s is idx[start[s] .. start[s + 1]) */
    char **sargs;        /* NARGS + 1 per slice */
    char **snames;       /* the slice's --instr list */
    char sdir[4200];     /* OUT/parts */
} jobs;

static char **item_args(jobs *j, size_t i)
{
    return j->args + i * NARGS;
}

/* The child's arguments: the parent's settings, one instruction, its part. */
static void build_args(jobs *j, size_t i, const char *backend, const char *timing_opt, const char *timing_val,
                       char *nbuf, char *hbuf, char *sbuf)
{
    const audit_args *a = j->a;
    char **v = item_args(j, i);
    int k = 0;
    v[k++] = "audit";
    v[k++] = "--part";
    v[k++] = "--backend";
    v[k++] = (char *)backend;
    v[k++] = "--instr";
    v[k++] = (char *)j->list[i]->name;
    v[k++] = "--out";
    v[k++] = j->dir[i];
    v[k++] = "--force";
    v[k++] = "--count";
    v[k++] = nbuf;
    v[k++] = "--hunt-count";
    v[k++] = hbuf;
    v[k++] = "--seed";
    v[k++] = sbuf;
    if (timing_opt)
        v[k++] = (char *)timing_opt;
    if (timing_val)
        v[k++] = (char *)timing_val;
    if (!a->keep_cases)
        v[k++] = "--no-cases";
    if (a->given_file) {
        v[k++] = "--counterexamples";
        v[k++] = (char *)a->given_file;
    }
    if (a->model_on) {
        v[k++] = "--model-on";
        v[k++] = (char *)a->model_on;
    }
    if (a->json)
        v[k++] = "--json";
    v[k] = NULL;
}

/* A part from an earlier run that this one can keep: finished, with the
 * same command line. */
static bool part_current(const char *dir, char **args)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/audit.run", dir);
    json_t *m = json_load_file(path, 0, NULL);
    if (!m)
        return false;
    int na = 0;
    while (args[na])
        na++;
    char *want = tc_run_command_line(na, args);
    const char *cmd = json_string_value(json_object_get(m, "command"));
    const char *state = json_string_value(json_object_get(m, "state"));
    bool ok = want && cmd && state && !strcmp(state, "done") && !strcmp(cmd, want);
    free(want);
    json_decref(m);
    return ok;
}

/* A folder where an earlier run of this very command stopped after finishing
 * some instructions: named, with the two ways on (--resume keeps them,
 * --force starts over), instead of silently starting over. */
static int unfinished_run(jobs *j)
{
    size_t kept = 0, shown = 0;
    char names[600] = "";
    for (size_t i = 0; i < j->n; i++) {
        if (!part_current(j->dir[i], item_args(j, i)))
            continue;
        kept++;
        size_t len = strlen(names);
        if (shown < 3 && len < sizeof names - 100)
            snprintf(names + len, sizeof names - len, "%s%s", shown++ ? ", " : "", j->list[i]->name);
    }
    if (!kept)
        return TC_EXIT_OK;
    if (j->a->force) {
        cli_warn("audit", "%s/parts: %zu finished instructions of an earlier run are run again (--force)", j->a->out,
                 kept);
        return TC_EXIT_OK;
    }
    return cli_fail("audit", "%s holds an unfinished run of this command: %zu of %zu instructions finished (%s%s); "
                    "--resume keeps them and runs the others, --force starts over", j->a->out, kept, j->n, names,
                    kept > shown ? ", ..." : "");
}

/* --json: one object of the printed record (the answers stay in the files). */
static void print_object(jobs *j, const json_t *o, const char *name)
{
    char err[512];
    json_t *line = json_copy((json_t *)o);
    json_object_del(line, "answers");
    if (tc_record_stream_object(&j->js, line, err, sizeof err) != 0)
        cli_warn("audit", "%s: --json: %s", name, err);
    json_decref(line);
}

/* What a child printed, minus its "#" lines (the parent says those once);
 * with --json the child prints record objects only (--part), one a line. */
static void relay(jobs *j, const char *out, const char *name)
{
    for (const char *l = out; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (len && l[0] != '#' && !j->a->json) {
            printf("%.*s\n", (int)len, l);
            audit_stages_parse(l, len, &j->stages);
        }
        else if (len && l[0] != '#') {
            json_t *o = json_loadb(l, len, 0, NULL);
            if (o)
                print_object(j, o, name);
            else
                cli_warn("audit", "%s: not a JSON line: %.*s", name, (int)(len < 200 ? len : 200), l);
            json_decref(o);
        }
        l += len + (e != NULL);
    }
    fflush(stdout);
}

/* --resume --json: the objects of a part kept from the earlier run. */
static void print_kept(jobs *j, size_t i)
{
    char path[4300], err[512];
    tc_record rec;
    snprintf(path, sizeof path, "%s/audit.jsonl", j->dir[i]);
    if (tc_record_load(path, &rec, err, sizeof err) != 0) {
        cli_warn("audit", "--json: %s", err);
        return;
    }
    size_t k;
    json_t *o;
    json_array_foreach(rec.objects, k, o) print_object(j, o, j->list[i]->name);
    tc_record_free(&rec);
}

/* The pool's items are the slices (deal_slices). */
static char **slice_argv(void *ctx, size_t s)
{
    jobs *j = ctx;
    return j->sargs + s * (NARGS + 1);
}

static bool slice_done(void *ctx, size_t s, int status, const char *out, double secs)
{
    jobs *j = ctx;
    (void)secs;
    const char *first = j->list[j->idx[j->start[s]]]->name;
    relay(j, out, first);
    for (size_t q = j->start[s]; q < j->start[s + 1]; q++)   /* what the slice finished, by its parts */
        j->done[j->idx[q]] = part_current(j->dir[j->idx[q]], item_args(j, j->idx[q]));
    if (status == TC_EXIT_OK || status == TC_EXIT_DIFF) {
        if (status == TC_EXIT_DIFF)
            j->status = TC_EXIT_DIFF;
        return true;
    }
    /* a device fault, a bad argument or a killed child: stop starting more */
    if (!j->stopped[0])
        snprintf(j->stopped, sizeof j->stopped, "the child auditing %s%s exited with %d", first,
                 j->start[s + 1] - j->start[s] > 1 ? " and others" : "", status);
    return false;
}

/* The todo instructions (catalogue order) dealt into j->nslices slices
 * (j->start zeroed; -1 out of memory):
 * an integer control, whose proof the host's cores compute (minutes at
 * 10^8 elements: one slice of a 10^8 audit, a control then seven others,
 * was still running at 200 s when 28 of 32 had ended at 83 s), gets a slice
 * of its own and goes first when there are fewer controls than slices; the
 * others go round robin, so the catalogue's neighbours, alike in cost,
 * spread. */
static int deal_slices(jobs *j, const size_t *todo_idx, size_t todo)
{
    size_t nc = 0, ns = j->nslices;
    size_t *slice = malloc(todo * sizeof *slice), *at = calloc(ns + 1, sizeof *at);
    if (!slice || !at) {
        free(slice), free(at);
        return -1;
    }
    for (size_t q = 0; q < todo; q++)   /* 1 marks a control until the dealing below */
        nc += slice[q] = audit_is_control(j->list[todo_idx[q]]);
    size_t solo = nc < ns ? nc : 0, k = ns - solo;
    for (size_t q = 0, c = 0, r = 0; q < todo; q++) {   /* each item's slice, and the slices' sizes */
        bool ctl = solo && slice[q];
        slice[q] = ctl ? c++ : solo + r++ % k;
        j->start[slice[q] + 1]++;
    }
    for (size_t s = 1; s <= ns; s++)
        j->start[s] += j->start[s - 1];
    for (size_t q = 0; q < todo; q++)   /* catalogue order within a slice */
        j->idx[j->start[slice[q]] + at[slice[q]]++] = todo_idx[q];
    free(slice), free(at);
    return 0;
}

/* Slice s's arguments: its first instruction's, with --instr the slice's
 * list, --out OUT/parts, and --slice. */
static int build_slice(jobs *j, size_t s)
{
    size_t lo = j->start[s], hi = j->start[s + 1];
    char *names = NULL, **v = slice_argv(j, s), **one = item_args(j, j->idx[lo]);
    for (size_t q = lo; q < hi; q++)
        if (cli_list_add(&names, j->list[j->idx[q]]->name) != 0) {
            free(names);
            return -1;
        }
    j->snames[s] = names;
    int k = 0;
    for (; one[k]; k++)
        v[k] = one[k];
    v[5] = names;      /* build_args: "--instr" NAME at 4, 5; "--out" DIR at 6, 7 */
    v[7] = j->sdir;
    v[k++] = "--slice";
    v[k] = NULL;
    return 0;
}

/* The bench child: the GPU's timing, alone on it, before any audit starts. */
static bool bench_done(void *ctx, size_t q, int status, const char *out, double secs)
{
    jobs *j = ctx;
    (void)q, (void)out, (void)secs;
    if (status != 0)
        snprintf(j->stopped, sizeof j->stopped, "timing (tcscope bench) exited with %d", status);
    return true;
}

static char **bench_argv(void *ctx, size_t i)
{
    static char *v[8], dir[4200];
    jobs *j = ctx;
    (void)i;
    snprintf(dir, sizeof dir, "%s/parts", j->a->out);   /* bench writes j->bench_path, dir/bench.json */
    v[0] = "bench";
    v[1] = "--instr";
    v[2] = j->bench_instrs; /* this run's share only (a node's worker, a shard, a resume): not the catalogue */
    v[3] = "--out";
    v[4] = dir;
    v[5] = "--force";
    v[6] = "--no-cublas";
    v[7] = NULL;
    return v;
}

static int merge_parts(jobs *j, const tc_backend_info *info, bool fallback, tc_outdir *d)
{
    const char **dirs = calloc(j->n, sizeof *dirs);
    if (!dirs)
        return cli_fail("audit", "out of memory");
    size_t nd = 0;
    for (size_t i = 0; i < j->n; i++)
        if (j->done[i])
            dirs[nd++] = j->dir[i];
    tc_record rec = {NULL, NULL};
    model_profile prof;
    memset(&prof, 0, sizeof prof);
    int rc = nd ? audit_merge_into(dirs, nd, NULL, &rec, &prof) : TC_EXIT_OK;
    free(dirs);
    if (rc == TC_EXIT_OK && !rec.header) { /* nothing finished: an empty record of this run */
        uint64_t seeds[1] = {j->a->seed};
        rec = tc_record_new(cli_record_header("audit", info, seeds, 1));
    }
    if (rc == TC_EXIT_OK) {
        json_object_set_new(rec.header, "recorded_model", json_boolean(fallback));
        if (j->bench_path[0])
            json_object_set_new(rec.header, "timing_source", json_string("measured in this run (tcscope bench)"));
        if (nd < j->n && !j->stopped[0])
            snprintf(j->stopped, sizeof j->stopped, "%zu of %zu instructions not audited", j->n - nd, j->n);
        rc = audit_write_outputs(j->a, d, &rec, &prof, j->stopped[0] ? j->stopped : NULL);
    }
    if (rec.header)
        tc_record_free(&rec);
    profile_free(&prof);
    return rc;
}

/* --json: the printed record's header, as merge_parts makes the file's. */
static json_t *json_header(const audit_args *a, const tc_backend_info *info, bool fallback, const char *bench_path,
                           const tc_outdir *d)
{
    uint64_t seeds[1] = {a->seed};
    json_t *h = cli_record_header("audit", info, seeds, 1);
    json_object_set_new(h, "recorded_model", json_boolean(fallback));
    /* the model the children compute with: what --model-on opens here */
    cli_model_on mo;
    if (cli_model_on_open("audit", a->model_on, info->backend, &mo) == TC_EXIT_OK) {
        json_object_set_new(h, "model_on", json_string(mo.name));
        cli_model_on_close(&mo);
    }
    if (bench_path[0])
        json_object_set_new(h, "timing_source", json_string("measured in this run (tcscope bench)"));
    if (d->run_id[0])
        json_object_set_new(h, "run_id", json_string(d->run_id));
    return h;
}

/* OUT/parts and OUT/parts/NAME made (or found) here, as real folders: a
 * symbolic link planted there is refused before any child writes through
 * it (a child opens its folder by path, and follows what is already there). */
static int make_part_dirs(const tc_outdir *d, const tc_instr *const *list, size_t n)
{
    char err[700];
    tc_outdir parts, one;
    if (tc_outdir_sub(d, "parts", &parts, err, sizeof err))
        return cli_fail("audit", "%s", err);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        rc = tc_outdir_sub(&parts, list[i]->name, &one, err, sizeof err);
        if (rc)
            cli_fail("audit", "%s", err);
        tc_outdir_close(&one);
    }
    tc_outdir_close(&parts);
    return rc;
}

int audit_run_jobs(const audit_args *a, const tc_backend_info *info, bool fallback, const tc_instr *const *list,
                   size_t n, tc_outdir *d)
{
    jobs j = {.a = a, .list = list, .n = n};
    j.args = calloc(n * NARGS, sizeof *j.args);
    j.dir = calloc(n, sizeof *j.dir);
    j.done = calloc(n, sizeof *j.done);
    if (!j.args || !j.dir || !j.done) {
        free(j.args), free(j.dir), free(j.done), free(j.bench_instrs);
        tc_outdir_close(d);
        return cli_fail("audit", "out of memory");
    }
    char nbuf[32], hbuf[32], sbuf[32];
    int rc0;
    snprintf(nbuf, sizeof nbuf, "%zu", a->n);
    snprintf(hbuf, sizeof hbuf, "%zu", a->hunt_n ? a->hunt_n : a->n / 16 ? a->n / 16 : 1);
    snprintf(sbuf, sizeof sbuf, "0x%llx", (unsigned long long)a->seed);
    const char *backend = a->backend ? a->backend : info->backend, *topt = "--no-timing", *tval = NULL;
    unsigned jobs_n = a->jobs ? a->jobs : tc_pool_cpus();
    if (a->timing && a->timing_file)
        topt = "--timing", tval = a->timing_file;
    else if (a->timing && info->sm > 0) {
        snprintf(j.bench_path, sizeof j.bench_path, "%s/parts/bench.json", a->out);
        topt = "--timing", tval = j.bench_path;
    } else if (a->timing)
        topt = NULL; /* the child decides as this run would: the recorded bench beside model:h100, or none */
    for (size_t i = 0; i < n; i++) {
        snprintf(j.dir[i], sizeof j.dir[i], "%s/parts/%s", a->out, list[i]->name);
        build_args(&j, i, backend, topt, tval, nbuf, hbuf, sbuf);
    }
    if (!a->resume && (rc0 = unfinished_run(&j)) != TC_EXIT_OK) {
        free(j.args), free(j.dir), free(j.done), free(j.bench_instrs);
        tc_outdir_close(d);
        return rc0;
    }
    if (make_part_dirs(d, list, n)) {
        free(j.args), free(j.dir), free(j.done), free(j.bench_instrs);
        tc_outdir_close(d);
        return TC_EXIT_USAGE;
    }
    if (!a->json)
        printf("# tcscope audit on %s (%s)%s: %zu instructions, %u at a time\n", info->backend, info->device,
               fallback ? "  [RECORDED MODEL, NOT HARDWARE]" : "", n, jobs_n);
    fflush(stdout);
    size_t todo = n;
    for (size_t i = 0; a->resume && i < n; i++)
        if (part_current(j.dir[i], item_args(&j, i)))
            j.done[i] = true, todo--;
    if (a->resume && !a->json)
        printf("# --resume: %zu of %zu instructions kept from the earlier run\n", n - todo, n);
    json_t *jhdr = a->json ? json_header(a, info, fallback, j.bench_path, d) : NULL;
    char jerr[512];
    if (jhdr && tc_record_stream_begin(&j.js, stdout, jhdr, jerr, sizeof jerr) != 0)
        cli_warn("audit", "--json: %s", jerr);
    for (size_t i = 0; jhdr && i < n; i++)
        if (j.done[i])
            print_kept(&j, i);
    double t0 = tc_now_s(), timing_s = 0;
    if (j.bench_path[0] && todo) {
        for (size_t i = 0; i < n && !j.stopped[0]; i++)
            if (!j.done[i] && cli_list_add(&j.bench_instrs, list[i]->name) != 0) {
                free(j.bench_instrs), j.bench_instrs = NULL;
                snprintf(j.stopped, sizeof j.stopped, "out of memory");
            }
        tc_pool bp = {1, "timing", bench_argv, bench_done, &j, NULL};
        if (j.bench_instrs)
            tc_pool_run(&bp, 1);
        timing_s = tc_now_s() - t0;
    }
    if (!j.stopped[0] && todo) {
        /* the pool runs the slices of the items not yet done */
        size_t *todo_idx = calloc(todo, sizeof *todo_idx), m = 0;
        j.nslices = todo < jobs_n ? todo : jobs_n;
        j.idx = calloc(todo, sizeof *j.idx);
        j.start = calloc(j.nslices + 1, sizeof *j.start);
        j.sargs = calloc(j.nslices * (NARGS + 1), sizeof *j.sargs);
        j.snames = calloc(j.nslices, sizeof *j.snames);
        bool ok = todo_idx && j.idx && j.start && j.sargs && j.snames;
        for (size_t i = 0; ok && i < n; i++)
            if (!j.done[i])
                todo_idx[m++] = i;
        ok = ok && deal_slices(&j, todo_idx, todo) == 0;
        snprintf(j.sdir, sizeof j.sdir, "%s/parts", a->out);
        for (size_t s = 0; ok && s < j.nslices; s++)
            ok = build_slice(&j, s) == 0;
        if (ok) {
            tc_pool p = {j.nslices, "audit", slice_argv, slice_done, &j, NULL};
            tc_pool_run(&p, jobs_n);
        }
        for (size_t s = 0; j.snames && s < j.nslices; s++)
            free(j.snames[s]);
        free(todo_idx), free(j.idx), free(j.start), free(j.sargs), free(j.snames);
        if (!ok) {
            free(j.args), free(j.dir), free(j.done), free(j.bench_instrs);
            tc_outdir_close(d);
            return cli_fail("audit", "out of memory");
        }
    }
    int rc = merge_parts(&j, info, fallback, d);
    if (!a->json)
        audit_stages_print(&j.stages, timing_s, tc_now_s() - t0);
    if (jhdr)
        tc_record_stream_end(&j.js, j.stopped[0] ? j.stopped : NULL);
    json_decref(jhdr);
    tc_outdir_close(d);
    int status = j.stopped[0] ? TC_EXIT_USAGE : rc != TC_EXIT_OK ? rc : j.status;
    if (j.stopped[0])
        fprintf(stderr, "tcscope audit: stopped (%s); %s/audit.jsonl keeps the instructions finished, marked partial, "
                        "and %s/parts/ every finished part: --resume continues\n", j.stopped, a->out, a->out);
    free(j.args), free(j.dir), free(j.done), free(j.bench_instrs);
    return status;
}
