/* cli/fleet.h: the workers (one per GPU, at once, cli/pool.h), then the
 * fleet record: per-GPU fields, the cross-GPU comparison of the output bits
 * (reports/fleet.h) and the spread of the timing across GPUs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/fleet.h"
#include "cli/fleet_run.h"
#include "cli/pool.h"
#include "cli/regress.h"
#include "oracle/textfile.h"
#include "probes/probes.h"
#include "reports/reports.h"

/* Options a worker gets from the fleet instead of from the command line. */
static bool dropped(const cli_fleet_job *j, const char *arg, bool *has_value)
{
    /* --device: bench's old --backend gpu:N; --cross-count: regress --cross-gpu's, run by the fleet */
    static const char *const with_value[] = {"--backend", "--out", "--device", "--instr", "--cross-count"};
    static const char *const flags[] = {"--cross-gpu", "--json"};
    for (int k = 0; k < 5; k++) {
        size_t len = strlen(with_value[k]);
        if (k == 3 && !j->split)
            continue;
        if (!strncmp(arg, with_value[k], len) && (!arg[len] || arg[len] == '=')) {
            *has_value = !arg[len];
            return true;
        }
    }
    for (int k = 0; k < 2; k++)
        if (!strcmp(arg, flags[k]) && (k == 0 || !strcmp(j->cmd, "regress"))) {
            *has_value = false;
            return true;
        }
    return false;
}

/* The command's arguments minus the dropped ones, plus extra (NULL-ended). */
static char **worker_argv(const cli_fleet_job *j, char *const *extra)
{
    size_t ne = 0;
    while (extra[ne])
        ne++;
    char **v = calloc((size_t)j->argc + ne + 1, sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    for (int i = 0; i < j->argc; i++) {
        bool val;
        if (i > 0 && dropped(j, j->argv[i], &val)) {
            i += val;
            continue;
        }
        v[k++] = j->argv[i];
    }
    memcpy(v + k, extra, ne * sizeof *v);
    return v;
}

static char **pool_argv(void *ctx, size_t q)
{
    fleet *f = ctx;
    return f->argv[f->idx[q]];
}

static char **pool_env(void *ctx, size_t q)
{
    fleet *f = ctx;
    return f->env[f->idx[q]];
}

static bool pool_done(void *ctx, size_t q, int status, const char *out, double secs)
{
    fleet *f = ctx;
    size_t i = f->idx[q];
    f->status[i] = status;
    f->secs[i] = secs;
    free(f->out[i]);
    f->out[i] = strdup(out);
    if (status != TC_EXIT_OK && status != TC_EXIT_DIFF)
        fprintf(stderr, "tcscope %s: GPU %d failed: its worker exited with %d; the other GPUs go on\n", f->j->cmd,
                f->g[i].index, status);
    return true; /* one GPU's failure stops no other */
}

/* One worker per GPU that has work (ok[i]), all at once. */
static void run_phase(fleet *f, const char *label, const bool *ok)
{
    size_t m = 0;
    for (size_t i = 0; i < f->n; i++)
        if (ok[i])
            f->idx[m++] = i;
    tc_pool p = {m, label, pool_argv, pool_done, f, pool_env};
    if (m && tc_pool_run(&p, (unsigned)m) != 0)
        for (size_t q = 0; q < m; q++)
            if (f->status[f->idx[q]] < 0)
                f->status[f->idx[q]] = 127; /* never started (the pool said why) */
}

static int emit_fleet_record(FILE *out, const void *rec)
{
    return json_dumpf(rec, out, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) ? -1 : 0;
}

/* The fleet record: OUT/fleet.json in the fleet's folder, or bench's FILE;
 * written as every output is (reports/outdir.c), never through a link. */
static int write_fleet_record(const cli_fleet_job *j, tc_outdir *od, const json_t *rec, char *path, size_t len)
{
    char err[700];
    snprintf(path, len, "%s/fleet.json", j->out);   /* bench too: --out is a folder everywhere */
    return tc_out_write(od, "fleet.json", emit_fleet_record, rec, err, sizeof err)
               ? cli_fail(j->cmd, "%s: cannot write the fleet record: %s", path, err)
               : TC_EXIT_OK;
}

/* audit, regress: the selected instructions dealt out round-robin, one share per GPU. */
static int share_out(fleet *f)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    size_t got = 0;
    for (size_t i = 0; i < n; i++) {
        if (!cli_instr_selected(f->j->instr, cat[i].name))
            continue;
        if (cli_list_add(&f->instrs[got++ % f->n], cat[i].name) != 0)
            return cli_fail(f->j->cmd, "out of memory");
    }
    return got ? TC_EXIT_OK : cli_fail(f->j->cmd, "no instruction selected by --instr %s", f->j->instr);
}

/* The worker's command line for GPU i (phase 0: the command itself). */
static int build_phase0(fleet *f, size_t i)
{
    const cli_fleet_job *j = f->j;
    const char *be = f->g[i].fake ? CLI_RECORDED_MODEL : "gpu:0";
    char *extra[16] = {"--backend", (char *)be};
    int k = 2;
    if (!strcmp(j->cmd, "bench")) {
        extra[1] = "gpu:0"; /* bench times the one GPU the worker sees */
        snprintf(f->path[i], sizeof f->path[i], "%s/gpu%d", j->out, f->g[i].index);
        extra[k++] = "--out", extra[k++] = f->path[i], extra[k++] = "--force";
    } else if (j->out) {
        snprintf(f->path[i], sizeof f->path[i], "%s/gpu%d", j->out, f->g[i].index);
        extra[k++] = "--out", extra[k++] = f->path[i];
    }
    if (j->split)
        extra[k++] = "--instr", extra[k++] = f->instrs[i];
    if (f->jobs[0])
        extra[k++] = "--jobs", extra[k++] = f->jobs;
    if (!strcmp(j->cmd, "regress"))
        extra[k++] = "--json";
    if (j->cross) /* every instruction's cross-GPU inputs, in the worker after its timing */
        extra[k++] = "--cross-run", extra[k++] = (char *)j->instr, extra[k++] = "--cross-count",
        extra[k++] = f->cross_n;
    extra[k] = NULL;
    f->argv[i] = worker_argv(j, extra);
    return f->argv[i] ? TC_EXIT_OK : cli_fail(j->cmd, "out of memory");
}

/* At most this many bytes of cross-GPU text per element an instruction (its
 * inputs and outputs in hex, about 21 on average; the widest, k/n inputs of
 * A per output element, under 100): a bound on what a worker's file may
 * make the parent read, from what was asked. */
#define CROSS_BYTES_PER_ELEMENT 256

/* regress --cross-gpu: what GPU i's worker ran with the same seed as every
 * other (its --cross-run, after its timing), read from OUT/gpuN/cross.txt
 * into f->out[i]; its status: 0 read, else the worker's own failure or 2. */
static int read_cross(fleet *f, size_t i, int worker_status)
{
    free(f->out[i]);
    f->out[i] = NULL;
    if (fleet_failed(worker_status))
        return worker_status < 0 ? -1 : worker_status;
    char path[4300], err[4500];
    size_t ncat;
    tc_catalogue(&ncat);
    snprintf(path, sizeof path, "%s/cross.txt", f->path[i]);
    f->out[i] = tc_read_text_max(path, ((size_t)1 << 20) + f->j->cross_n * ncat * CROSS_BYTES_PER_ELEMENT, NULL,
                                 err, sizeof err);
    if (!f->out[i]) {
        cli_warn(f->j->cmd, "GPU %d: no cross-GPU outputs: %s", f->g[i].index, err);
        return TC_EXIT_USAGE;
    }
    return TC_EXIT_OK;
}

/* audit: the finished GPUs' output folders merged into --out (audit --merge). */
typedef struct {
    char **argv;
    int status;
    char *out;
} merge_child;

static char **merge_argv(void *ctx, size_t q)
{
    (void)q;
    return ((merge_child *)ctx)->argv;
}

static bool merge_done(void *ctx, size_t q, int status, const char *out, double secs)
{
    merge_child *m = ctx;
    (void)q, (void)secs;
    m->status = status;
    m->out = strdup(out);
    return true;
}

static int merge_audits(fleet *f, json_t *rec)
{
    char *list = NULL;
    for (size_t i = 0; i < f->n; i++)
        if ((f->status[i] == TC_EXIT_OK || f->status[i] == TC_EXIT_DIFF) && cli_list_add(&list, f->path[i]) != 0) {
            free(list);
            return cli_fail(f->j->cmd, "out of memory");
        }
    int rc = TC_EXIT_OK;
    json_object_set_new(rec, "merged_record", json_null());
    if (list) {
        char *v[] = {"audit", "--merge", list, "--out", (char *)f->j->out, "--force", NULL};
        merge_child m = {v, -1, NULL};
        tc_pool p = {1, "merge", merge_argv, merge_done, &m, NULL};
        tc_pool_run(&p, 1);
        if (m.out)
            fputs(m.out, stdout);
        free(m.out);
        rc = m.status == TC_EXIT_OK || m.status == TC_EXIT_DIFF ? TC_EXIT_OK : TC_EXIT_USAGE;
        char path[4300];
        snprintf(path, sizeof path, "%s/audit.jsonl", f->j->out);
        if (rc == TC_EXIT_OK)
            json_object_set_new(rec, "merged_record", json_string(path));
        else
            cli_warn(f->j->cmd, "audit --merge of the GPUs' folders exited with %d", m.status);
    }
    free(list);
    return rc;
}

static void fleet_free(fleet *f)
{
    for (size_t i = 0; i < f->n; i++) {
        if (f->argv)
            free(f->argv[i]);
        if (f->env)
            cli_fleet_env_free(f->env[i]);
        if (f->out)
            free(f->out[i]);
        if (f->instrs)
            free(f->instrs[i]);
    }
    free(f->argv), free(f->env), free(f->path), free(f->instrs), free(f->status), free(f->secs), free(f->out);
    free(f->idx), free(f->g);
}

/* The finished instructions (parts whose run marker says done) of a
 * worker's folder. */
static size_t finished_parts(const char *gpudir)
{
    char path[4800];
    if (snprintf(path, sizeof path, "%s/parts", gpudir) >= (int)sizeof path)
        return 0;
    DIR *d = opendir(path);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        bool fits = snprintf(path, sizeof path, "%s/parts/%s/audit.run", gpudir, e->d_name) < (int)sizeof path;
        json_t *m = e->d_name[0] == '.' || !fits ? NULL : json_load_file(path, 0, NULL);
        const char *state = json_string_value(json_object_get(m, "state"));
        n += state && !strcmp(state, "done");
        json_decref(m);
    }
    if (d)
        closedir(d);
    return n;
}

int cli_fleet_unfinished(const char *cmd, const char *out)
{
    DIR *d = opendir(out);
    char said[600] = "", path[4300];
    size_t len = 0, found = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        int gpu, end = 0;
        if (sscanf(e->d_name, "gpu%d%n", &gpu, &end) != 1 || e->d_name[end])
            continue;
        snprintf(path, sizeof path, "%s/%s/audit.jsonl", out, e->d_name);
        bool done = access(path, F_OK) == 0;
        snprintf(path, sizeof path, "%s/%s", out, e->d_name);
        size_t parts = done ? 0 : finished_parts(path);
        if (!done && !parts)
            continue;
        found++;
        if (len < sizeof said - 80) {
            if (done)
                len += (size_t)snprintf(said + len, sizeof said - len, "%s%s finished", len ? ", " : "", e->d_name);
            else
                len += (size_t)snprintf(said + len, sizeof said - len, "%s%s %zu instruction%s finished",
                                        len ? ", " : "", e->d_name, parts, parts == 1 ? "" : "s");
        }
    }
    if (d)
        closedir(d);
    if (!found)
        return TC_EXIT_OK;
    return cli_fail(cmd, "%s holds an unfinished run on several GPUs (%s); --resume keeps what finished and "
                    "runs the rest, --force starts over", out, said);
}

int cli_fleet_run(const cli_fleet_job *j)
{
    fleet f = {.j = j};
    tc_outdir od = {.fd = -1};
    f.n = cli_fleet_gpus(j->cmd, j->spec, &f.g);
    if (!f.n)
        return TC_EXIT_USAGE;
    if (!strcmp(j->cmd, "bench") && !j->out) {
        free(f.g);
        return cli_fail(j->cmd, "--backend %s needs --out DIR: the fleet record DIR/fleet.json, each GPU's "
                                "DIR/gpuN/bench.json", j->spec);
    }
    size_t n = f.n;
    f.argv = calloc(n, sizeof *f.argv), f.env = calloc(n, sizeof *f.env), f.path = calloc(n, sizeof *f.path);
    f.status = calloc(n, sizeof *f.status), f.secs = calloc(n, sizeof *f.secs), f.out = calloc(n, sizeof *f.out);
    f.idx = calloc(n, sizeof *f.idx), f.instrs = j->split ? calloc(n, sizeof *f.instrs) : NULL;
    int *st0 = calloc(n, sizeof *st0), *st1 = j->cross ? calloc(n, sizeof *st1) : NULL;
    bool *ok = calloc(n, sizeof *ok);
    json_t *rec = NULL, *results = json_array(), *cross = NULL, *spread = NULL;
    int rc = TC_EXIT_OK;
    if (!f.argv || !f.env || !f.path || !f.status || !f.secs || !f.out || !f.idx || (j->split && !f.instrs) ||
        !st0 || (j->cross && !st1) || !ok) {
        rc = cli_fail(j->cmd, "out of memory");
        goto done;
    }
    char err[700];
    if (j->out && tc_outdir_open(&od, j->out, true, err, sizeof err) != 0) {
        rc = cli_fail(j->cmd, "%s", err);
        goto done;
    }
    if (j->split && (rc = share_out(&f)) != TC_EXIT_OK)
        goto done;
    /* audit and regress workers share the CPUs (each one's default is every
     * CPU: n times too many children), regress's its machine-wide cap too */
    bool user_jobs = false;
    for (int i = 1; i < j->argc; i++)
        user_jobs |= !strncmp(j->argv[i], "--jobs", 6);
    if ((!strcmp(j->cmd, "audit") || !strcmp(j->cmd, "regress")) && !user_jobs) {
        unsigned cpus = tc_pool_cpus();
        if (!strcmp(j->cmd, "regress") && cpus > REGRESS_MAX_JOBS)
            cpus = REGRESS_MAX_JOBS;
        unsigned per = cpus / (unsigned)n;
        snprintf(f.jobs, sizeof f.jobs, "%u", per ? per : 1);
    }
    snprintf(f.cross_n, sizeof f.cross_n, "%zu", j->cross_n);
    bool fake = f.g[0].fake;
    for (size_t i = 0; i < n; i++) {
        f.status[i] = -1;
        ok[i] = !j->split || f.instrs[i];
        if ((f.env[i] = cli_fleet_env(&f.g[i])) == NULL || (ok[i] && (rc = build_phase0(&f, i)) != TC_EXIT_OK)) {
            rc = cli_fail(j->cmd, "out of memory");
            goto done;
        }
    }
    bool is_run = !strcmp(j->cmd, "run");
    FILE *say = is_run ? stderr : stdout;
    fprintf(say, "# tcscope %s on %zu GPUs, one worker each%s\n", j->cmd, n,
            fake ? "  [TEST HOOK TCSCOPE_FAKE_GPUS: fake GPUs running the recorded model, NOT HARDWARE]" : "");
    fflush(say);
    run_phase(&f, j->cmd, ok);
    memcpy(st0, f.status, n * sizeof *st0);
    for (size_t i = 0; !strcmp(j->cmd, "regress") && i < n; i++)
        json_array_append_new(results, fleet_regress_results(f.out[i]));
    if (is_run)
        cross = fleet_compare_bits(&f, ok), memcpy(st0, f.status, n * sizeof *st0);
    if (j->cross) {
        for (size_t i = 0; i < n; i++)
            f.status[i] = st1[i] = ok[i] ? read_cross(&f, i, st0[i]) : -1;
        cross = fleet_compare_bits(&f, ok);
        for (size_t i = 0; i < n; i++) /* a worker's outputs the comparison could not read */
            if (st1[i] == TC_EXIT_OK && f.status[i] != TC_EXIT_OK)
                st1[i] = f.status[i];
    }
    bool timed = !strcmp(j->cmd, "bench") || !strcmp(j->cmd, "regress");
    if (timed) {
        memcpy(f.status, st0, n * sizeof *st0);
        spread = fleet_timing_spread(&f, !strcmp(j->cmd, "regress"));
        if (!json_array_size(spread)) /* no GPU timed anything (the model has no timing) */
            json_decref(spread), spread = NULL;
    }
    rec = json_pack("{s:s, s:i, s:s, s:b, s:o}", "record", "tcscope-fleet", "version", 1, "tcscope_version",
                    tc_version(), "fake_gpus", fake, "command", json_string(""));
    char *line = tc_run_command_line(j->argc, j->argv);
    json_object_set_new(rec, "command", json_string(line ? line : ""));
    free(line);
    json_t *gpus = json_array(), *bad = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = fleet_gpu_fields(&f, i, st0[i], "the worker");
        if (st1) {
            json_object_set_new(o, "cross_gpu_exit", st1[i] < 0 ? json_null() : json_integer(st1[i]));
            if (fleet_failed(st1[i]) && !json_object_get(o, "failed"))
                json_object_set_new(o, "failed", json_string("its cross-GPU outputs (OUT/gpuN/cross.txt) are missing or unreadable"));
            if (fleet_failed(st1[i]))
                json_object_set_new(o, "ok", json_false());
        }
        if (!strcmp(j->cmd, "regress"))
            json_object_set(o, "results", json_array_get(results, i));
        if (!json_is_true(json_object_get(o, "ok")) && st0[i] >= 0)
            json_array_append_new(bad, json_integer(f.g[i].index));
        json_array_append_new(gpus, o);
    }
    json_object_set_new(rec, "gpus", gpus);
    json_object_set_new(rec, "failed_gpus", bad);
    json_object_set_new(rec, "cross_gpu", cross ? json_incref(cross) : json_null());
    if (j->cross)
        json_object_set_new(rec, "cross_gpu_inputs", json_pack("{s:s, s:I, s:s}", "instr", j->instr, "elements",
                                                               (json_int_t)j->cross_n, "command",
                                                               "regress --cross-run (run --random's inputs, bits only)"));
    json_object_set_new(rec, "timing_spread", spread ? json_incref(spread) : json_null());
    if (j->split && !strcmp(j->cmd, "audit"))
        merge_audits(&f, rec);
    fleet_summary(say, &f, st0, st1, cross, spread);
    /* the record: beside the GPUs' outputs; run's on stdout */
    char path[4300];
    if (!is_run && !j->out) {
        rc = cli_fail(j->cmd, "no --out for the fleet record");
        goto done;
    }
    if (!is_run && (rc = write_fleet_record(j, &od, rec, path, sizeof path)) != TC_EXIT_OK)
        goto done;
    if (is_run && json_dumpf(rec, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0) {
        rc = cli_fail(j->cmd, "stdout: cannot write the fleet record");
        goto done;
    }
    if (is_run)
        putchar('\n');
    else
        printf("# fleet record: %s\n", path);
    /* the exit: a failed GPU, else a difference, else 0 */
    bool any_failed = json_array_size(bad) > 0, diff = false;
    size_t k;
    json_t *c;
    for (size_t i = 0; i < n; i++)
        diff = diff || st0[i] == TC_EXIT_DIFF || (st1 && st1[i] == TC_EXIT_DIFF);
    json_array_foreach(cross, k, c) diff = diff || json_is_false(json_object_get(c, "same"));
    rc = any_failed ? TC_EXIT_USAGE : diff ? TC_EXIT_DIFF : TC_EXIT_OK;
    if (any_failed)
        fprintf(stderr, "tcscope %s: %zu of %zu GPUs failed (failed_gpus in the fleet record); exit 2\n", j->cmd,
                json_array_size(bad), n);
done:
    tc_outdir_close(&od);
    json_decref(rec), json_decref(results), json_decref(cross), json_decref(spread);
    free(st0), free(st1), free(ok);
    fleet_free(&f);
    return rc;
}
