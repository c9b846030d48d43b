/* cli/fleet.h: the workers (one per GPU, at once, cli/pool.h), then the
 * fleet record: per-GPU fields, the cross-GPU comparison of the output bits
 * (reports/fleet.h) and the spread of the timing across GPUs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/fleet.h"
#include "cli/pool.h"
#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "reports/fleet.h"
#include "reports/reports.h"

typedef struct {
    const cli_fleet_job *j;
    cli_fleet_gpu *g;
    size_t n;
    char ***argv, ***env;   /* per GPU, of the phase running */
    char (*path)[4200];     /* per GPU: its --out (folder or file), "" none */
    char **instrs;          /* audit: per GPU, its share ("" none) */
    int *status;            /* per GPU: the command's exit status, -1 not run */
    double *secs;
    char **out;             /* per GPU: what the phase's worker printed */
    size_t *idx;            /* the pool's items -> GPUs */
} fleet;

/* Options a worker gets from the fleet instead of from the command line. */
static bool dropped(const cli_fleet_job *j, const char *arg, bool *has_value)
{
    static const char *const with_value[] = {"--backend", "--out", "--device", "--instr"};
    static const char *const flags[] = {"--cross-gpu", "--json"};
    for (int k = 0; k < 4; k++) {
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

static int mkdir_p(const char *path)
{
    char p[4200];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* audit: the selected instructions dealt out round-robin, one share per GPU. */
static int share_out(fleet *f)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    size_t got = 0;
    for (size_t i = 0; i < n; i++) {
        if (!cli_instr_selected(f->j->instr, cat[i].name))
            continue;
        char **s = &f->instrs[got++ % f->n];
        size_t have = *s ? strlen(*s) : 0;
        char *t = realloc(*s, have + strlen(cat[i].name) + 2);
        if (!t)
            return cli_fail(f->j->cmd, "out of memory");
        snprintf(t + have, strlen(cat[i].name) + 2, "%s%s", have ? "," : "", cat[i].name);
        *s = t;
    }
    return got ? TC_EXIT_OK : cli_fail(f->j->cmd, "no instruction selected by --instr %s", f->j->instr);
}

/* The worker's command line for GPU i (phase 0: the command itself). */
static int build_phase0(fleet *f, size_t i)
{
    const cli_fleet_job *j = f->j;
    const char *be = f->g[i].fake ? CLI_RECORDED_MODEL : "gpu:0";
    char *extra[12] = {"--backend", (char *)be};
    int k = 2;
    if (!strcmp(j->cmd, "bench")) {
        extra[0] = "--device", extra[1] = "0"; /* bench times the one GPU the worker sees */
        snprintf(f->path[i], sizeof f->path[i], "%s.gpu%d.json", j->out, f->g[i].index);
        extra[k++] = "--out", extra[k++] = f->path[i], extra[k++] = "--force";
    } else if (j->out) {
        snprintf(f->path[i], sizeof f->path[i], "%s/gpu%d", j->out, f->g[i].index);
        extra[k++] = "--out", extra[k++] = f->path[i];
    }
    if (j->split)
        extra[k++] = "--instr", extra[k++] = f->instrs[i];
    if (!strcmp(j->cmd, "regress"))
        extra[k++] = "--json";
    extra[k] = NULL;
    f->argv[i] = worker_argv(j, extra);
    return f->argv[i] ? TC_EXIT_OK : cli_fail(j->cmd, "out of memory");
}

/* regress --cross-gpu: `run --random` with the same seed on every GPU. */
static int build_cross(fleet *f, size_t i, char *nbuf, char *sbuf)
{
    free(f->argv[i]);
    char **v = calloc(12, sizeof *v);
    if (!v)
        return cli_fail(f->j->cmd, "out of memory");
    char *w[] = {"run", "--backend", f->g[i].fake ? CLI_RECORDED_MODEL : "gpu:0", "--instr", (char *)f->j->instr,
                 "--random", nbuf, "--seed", sbuf, NULL};
    memcpy(v, w, sizeof w);
    f->argv[i] = v;
    return TC_EXIT_OK;
}

/* The cross-GPU comparison of what the workers printed (corpus lines). */
static json_t *compare_bits(fleet *f, const bool *ran)
{
    tc_fleet_cmp *c = tc_fleet_cmp_new();
    if (!c)
        return json_null();
    for (size_t i = 0; i < f->n; i++) {
        char err[600];
        if (ran[i] && f->status[i] == TC_EXIT_OK && f->out[i] &&
            tc_fleet_cmp_add(c, f->g[i].index, f->out[i], err, sizeof err) != 0) {
            cli_warn(f->j->cmd, "GPU %d: its outputs are left out of the comparison: %s", f->g[i].index, err);
            f->status[i] = TC_EXIT_USAGE;
        }
    }
    json_t *r = tc_fleet_cmp_result(c);
    tc_fleet_cmp_free(c);
    return r;
}

/* The spread of latency and throughput across the GPUs' bench records. */
static json_t *timing_spread(fleet *f, bool regress)
{
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    static const char *const keys[] = {"latency_cycles", "throughput_fma_clk_sm"};
    double *v[2] = {calloc(ncat * f->n + 1, sizeof(double)), calloc(ncat * f->n + 1, sizeof(double))};
    size_t *cnt = calloc(ncat + 1, sizeof *cnt);
    json_t *out = json_array();
    for (size_t i = 0; v[0] && v[1] && cnt && i < f->n; i++) {
        char path[4300], err[600];
        tc_record rec;
        snprintf(path, sizeof path, regress ? "%s/bench.json" : "%s", f->path[i]);
        if (f->status[i] != TC_EXIT_OK && f->status[i] != TC_EXIT_DIFF)
            continue;
        if (tc_record_load_any(path, &rec, err, sizeof err) != 0)
            continue; /* not timed (no GPU: the model has no timing) */
        size_t q;
        json_t *o;
        json_array_foreach(rec.objects, q, o) {
            const tc_instr *ins = tc_instr_by_name(cli_str(o, "instr"));
            size_t k = ins ? (size_t)(ins - cat) : 0;
            if (!ins || cnt[k] >= f->n)
                continue;
            for (int x = 0; x < 2; x++)
                v[x][k * f->n + cnt[k]] = tc_json_number(json_object_get(o, keys[x]));
            cnt[k]++;
        }
        tc_record_free(&rec);
    }
    for (size_t k = 0; cnt && k < ncat; k++)
        if (cnt[k])
            json_array_append_new(out, json_pack("{s:s, s:o, s:o}", "instr", cat[k].name, keys[0],
                                                 tc_fleet_spread(v[0] + k * f->n, cnt[k]), keys[1],
                                                 tc_fleet_spread(v[1] + k * f->n, cnt[k])));
    free(v[0]), free(v[1]), free(cnt);
    return out;
}

/* The per-GPU fields of the fleet record. */
static json_t *gpu_fields(const fleet *f, size_t i, int st, const char *merged_phase)
{
    const cli_fleet_gpu *g = &f->g[i];
    json_t *o = json_pack("{s:i, s:s, s:o, s:o, s:o, s:b}", "gpu", g->index, "name", g->name, "uuid",
                          g->uuid[0] ? json_string(g->uuid) : json_null(), "cuda_visible_devices",
                          g->fake ? json_null() : json_string(g->visible), "exit",
                          st < 0 ? json_null() : json_integer(st), "ok", st == TC_EXIT_OK || st == TC_EXIT_DIFF);
    if (st != TC_EXIT_OK && st != TC_EXIT_DIFF) {
        char why[160];
        if (st < 0)
            snprintf(why, sizeof why, "not run: %s", f->instrs && !f->instrs[i] ? "no instruction left for it" : "stopped");
        else
            snprintf(why, sizeof why, "%s (%s) exited with %d", merged_phase, f->j->cmd, st);
        json_object_set_new(o, "failed", json_string(why));
    }
    json_object_set_new(o, "wall_s", st < 0 ? json_null() : json_real(f->secs[i]));
    json_object_set_new(o, "out", f->path[i][0] ? json_string(f->path[i]) : json_null());
    if (f->instrs)
        json_object_set_new(o, "instructions", json_string(f->instrs[i] ? f->instrs[i] : ""));
    return o;
}

/* regress: each GPU's verdicts (the JSON lines its worker printed). */
static json_t *regress_results(const char *out)
{
    json_t *a = json_array();
    for (const char *l = out ? out : ""; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        json_t *o = len && l[0] == '{' ? json_loadb(l, len, 0, NULL) : NULL;
        if (o)
            json_array_append_new(a, o);
        l += len + (e != NULL);
    }
    return a;
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
    size_t len = 1;
    for (size_t i = 0; i < f->n; i++)
        len += strlen(f->path[i]) + 1;
    char *list = calloc(len, 1);
    if (!list)
        return cli_fail(f->j->cmd, "out of memory");
    for (size_t i = 0; i < f->n; i++)
        if (f->status[i] == TC_EXIT_OK || f->status[i] == TC_EXIT_DIFF)
            strcat(strcat(list, list[0] ? "," : ""), f->path[i]);
    int rc = TC_EXIT_OK;
    json_object_set_new(rec, "merged_record", json_null());
    if (list[0]) {
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

static bool failed(int st)
{
    return st >= 0 && st != TC_EXIT_OK && st != TC_EXIT_DIFF;
}

/* What the fleet record says, in lines (stdout; stderr for run, whose stdout is the record). */
static void summary(FILE *o, const fleet *f, const int *st0, const int *st1, json_t *cross, json_t *spread)
{
    for (size_t i = 0; i < f->n; i++) {
        const cli_fleet_gpu *g = &f->g[i];
        int s = failed(st0[i]) || !st1 || st0[i] < 0 ? st0[i] : st1[i];
        if (st0[i] < 0)
            fprintf(o, "# GPU %d (%s): not run (no instruction left for it)\n", g->index, g->name);
        else if (failed(s))
            fprintf(o, "# GPU %d (%s): FAILED, its %s exited with %d; the other GPUs are merged\n", g->index,
                    g->name, failed(st0[i]) ? f->j->cmd : "run --random", s);
        else
            fprintf(o, "# GPU %d (%s%s%s): exit %d, %.1f s\n", g->index, g->name, g->uuid[0] ? ", " : "", g->uuid,
                    st0[i], f->secs[i]);
    }
    size_t k;
    json_t *c;
    json_array_foreach(cross, k, c) {
        json_t *same = json_object_get(c, "same"), *d0 = json_array_get(json_object_get(c, "differences"), 0);
        if (json_is_true(same))
            fprintf(o, "%-44s same bits on %lld GPUs (%lld elements; D hash %s)\n", cli_str(c, "instr"),
                    (long long)json_integer_value(json_object_get(c, "compared")),
                    (long long)json_integer_value(json_object_get(c, "elements")),
                    cli_str(json_array_get(json_object_get(c, "gpus"), 0), "hash"));
        else if (json_is_null(same))
            fprintf(o, "%-44s ran on one GPU only: nothing to compare\n", cli_str(c, "instr"));
        else if (!json_is_true(json_object_get(c, "inputs_same")))
            fprintf(o, "%-44s DIFFERS: the GPUs did not get the same inputs\n", cli_str(c, "instr"));
        else {
            size_t q;
            json_t *g;
            fprintf(o, "%-44s DIFFERS:", cli_str(c, "instr"));
            json_array_foreach(json_object_get(c, "gpus"), q, g)
                fprintf(o, " GPU %lld: %lld differing;", (long long)json_integer_value(json_object_get(g, "gpu")),
                        (long long)json_integer_value(json_object_get(g, "differing")));
            fprintf(o, "; e.g. element %lld (tile %lld, row %lld, col %lld): GPU %lld %s, GPU %lld %s\n",
                    (long long)json_integer_value(json_object_get(d0, "element")),
                    (long long)json_integer_value(json_object_get(d0, "tile")),
                    (long long)json_integer_value(json_object_get(d0, "row")),
                    (long long)json_integer_value(json_object_get(d0, "col")),
                    (long long)json_integer_value(json_object_get(d0, "gpu")), cli_str(d0, "bits"),
                    (long long)json_integer_value(json_object_get(d0, "reference_gpu")), cli_str(d0, "reference"));
        }
    }
    json_array_foreach(spread, k, c) {
        json_t *l = json_object_get(c, "latency_cycles"), *t = json_object_get(c, "throughput_fma_clk_sm");
        fprintf(o, "%-44s latency %g/%g/%g cycles, throughput %g/%g/%g FMA/clk/SM (min/median/max of %lld GPUs)\n",
                cli_str(c, "instr"), tc_json_number(json_object_get(l, "min")),
                tc_json_number(json_object_get(l, "median")), tc_json_number(json_object_get(l, "max")),
                tc_json_number(json_object_get(t, "min")), tc_json_number(json_object_get(t, "median")),
                tc_json_number(json_object_get(t, "max")), (long long)json_integer_value(json_object_get(l, "gpus")));
    }
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

int cli_fleet_run(const cli_fleet_job *j)
{
    fleet f = {.j = j};
    f.n = cli_fleet_gpus(j->cmd, j->spec, &f.g);
    if (!f.n)
        return TC_EXIT_USAGE;
    if (!strcmp(j->cmd, "bench") && !j->out) {
        free(f.g);
        return cli_fail(j->cmd, "--backend %s needs --out FILE: the fleet record, each GPU's record beside it "
                                "(FILE.gpuN.json)", j->spec);
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
    if (j->out && strcmp(j->cmd, "bench") && mkdir_p(j->out) != 0) {
        rc = cli_fail(j->cmd, "--out %s: %s", j->out, strerror(errno));
        goto done;
    }
    if (j->split && (rc = share_out(&f)) != TC_EXIT_OK)
        goto done;
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
    double *secs0 = malloc(n * sizeof *secs0 + 1);
    if (!secs0) {
        rc = cli_fail(j->cmd, "out of memory");
        goto done;
    }
    memcpy(secs0, f.secs, n * sizeof *secs0);
    for (size_t i = 0; !strcmp(j->cmd, "regress") && i < n; i++)
        json_array_append_new(results, regress_results(f.out[i]));
    if (is_run)
        cross = compare_bits(&f, ok), memcpy(st0, f.status, n * sizeof *st0);
    if (j->cross) {
        char nbuf[32], sbuf[32];
        snprintf(nbuf, sizeof nbuf, "%zu", j->cross_n);
        snprintf(sbuf, sizeof sbuf, "0x%llx", (unsigned long long)j->cross_seed);
        for (size_t i = 0; i < n; i++) {
            f.status[i] = -1;
            if ((rc = build_cross(&f, i, nbuf, sbuf)) != TC_EXIT_OK)
                goto done;
            ok[i] = true;
        }
        run_phase(&f, "cross-gpu", ok);
        cross = compare_bits(&f, ok);
        memcpy(st1, f.status, n * sizeof *st1);
        for (size_t i = 0; i < n; i++) /* the command's wall time per GPU, then the cross-GPU run's */
            f.secs[i] += secs0[i];
    }
    free(secs0);
    bool timed = !strcmp(j->cmd, "bench") || !strcmp(j->cmd, "regress");
    if (timed) {
        memcpy(f.status, st0, n * sizeof *st0);
        spread = timing_spread(&f, !strcmp(j->cmd, "regress"));
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
        json_t *o = gpu_fields(&f, i, st0[i], "the worker");
        if (st1) {
            json_object_set_new(o, "cross_gpu_exit", st1[i] < 0 ? json_null() : json_integer(st1[i]));
            if (failed(st1[i]) && !json_object_get(o, "failed"))
                json_object_set_new(o, "failed", json_string("its run --random for the cross-GPU comparison failed"));
            if (failed(st1[i]))
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
                                                               (json_int_t)j->cross_n, "command", "run --random"));
    json_object_set_new(rec, "timing_spread", spread ? json_incref(spread) : json_null());
    if (j->split)
        merge_audits(&f, rec);
    summary(say, &f, st0, st1, cross, spread);
    /* the record: beside the GPUs' outputs; run's on stdout */
    char path[4300];
    if (is_run)
        path[0] = '\0';
    else
        snprintf(path, sizeof path, strcmp(j->cmd, "bench") ? "%s/fleet.json" : "%s", j->out);
    if (path[0] ? json_dump_file(rec, path, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0
                : json_dumpf(rec, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) != 0) {
        rc = cli_fail(j->cmd, "%s: cannot write the fleet record", path[0] ? path : "stdout");
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
    json_decref(rec), json_decref(results), json_decref(cross), json_decref(spread);
    free(st0), free(st1), free(ok);
    fleet_free(&f);
    return rc;
}
