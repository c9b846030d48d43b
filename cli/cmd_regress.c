/* tcscope regress: is this GPU, driver and toolkit still the baseline's?
 * Every instruction of the baseline profile is verified here with N random
 * elements and the hunt families (`tcscope verify`, one child per
 * instruction, cli/pool.h); on a GPU its SASS opcode and timing (one
 * `tcscope bench`, alone on the GPU first) are compared with the baseline
 * audit record; only what fails is refitted (`tcscope audit --part`), and the
 * fields that moved are listed with the case that decides them.
 * Exit 0 same, 1 a difference, 2 no GPU (unless --model: the recorded model
 * replayed, which proves the pipeline, not any hardware) or bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/run_info.h"
#include "cli/fleet.h"
#include "cli/pool.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "reports/record_audit.h"
#include "reports/reports.h"

#define CMD "regress"
#define NARGS 24
#define DEFAULT_RECORD "reports/baselines/h100-audit.jsonl.gz"

typedef struct {
    const char *backend, *profile, *record, *instr, *out;
    size_t n, hunt_n;
    uint64_t seed;
    unsigned jobs;
    double tol;               /* timing: relative difference allowed */
    bool model, json, timing;
    bool cross_gpu;           /* gpu:all: also the same inputs on every GPU, bits compared */
} regress_args;

typedef struct {
    const tc_instr *ins;
    const model_params *base;
    int verify;               /* child status: 0 same, 1 mismatch, else failed */
    long long n, mismatches;
    json_t *failure;          /* the check's smallest failing input: this backend vs the baseline */
    json_t *diffs;            /* [{what, field?, old, new, case?}] */
} item;

typedef struct {
    const regress_args *a;
    item *it;
    size_t n;
    const char *backend;
    char args[NARGS][64];
    char **argv;              /* NARGS per item */
    char (*dir)[4200];
    size_t *idx;              /* the refit pool's items */
    int bench_status;
} ctx;

typedef enum { O_BACKEND, O_MODEL, O_PROFILE, O_RECORD, O_INSTR, O_OUT, O_N, O_HUNT_N, O_SEED, O_JOBS, O_TOL,
               O_NO_TIMING, O_JSON, O_CROSS_GPU } regress_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "the backend checked (default gpu; a software backend only with --backend); "
                                     "gpu:all or gpu:I,J,..: every GPU checked, one worker each (OUT/fleet.json)"},
    [O_MODEL] = {"--model", NULL, "no GPU: replay the recorded model (model:h100), labelled; proves the pipeline only"},
    [O_PROFILE] = {"--profile", "P", "the baseline fingerprints (default h100: oracle/profiles/h100.profile)"},
    [O_RECORD] = {"--record", "AUDIT.jsonl[.gz]", "the baseline audit record, for SASS and timing "
                                                  "(default reports/baselines/h100-audit.jsonl.gz)"},
    [O_INSTR] = {"--instr", "NAME[,NAME..]|all", "the instructions checked (default all of the profile)"},
    [O_OUT] = {"--out", "DIR", "scratch folder: the bench record and the refits (default out/regress)"},
    [O_N] = {"--n", "COUNT", "random elements per instruction (default 1e5)", 1, 1000000000ull},
    [O_HUNT_N] = {"--hunt-n", "PER_FAMILY", "elements per hunt family (default COUNT / 16)", 1, 100000000ull},
    [O_SEED] = {"--seed", "S", "random seed (default 0x4e6e55)"},
    [O_JOBS] = {"--jobs", "J", "checks at once, one child process each (default: one per CPU)", 1, 1024},
    [O_TOL] = {"--timing-tol", "PCT", "latency or throughput differing by more than PCT percent is a difference "
                                      "(default 5)", 0, 100},
    [O_NO_TIMING] = {"--no-timing", NULL, "compare neither SASS nor timing"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one regress object per instruction"},
    [O_CROSS_GPU] = {"--cross-gpu", NULL, "with gpu:all or gpu:I,J,..: also the same random inputs (COUNT "
                                          "elements, at most 10^6) on every GPU, the output bits compared"},
};
const cli_command cmd_regress_cli = {CMD, "this GPU, driver and toolkit against a baseline audit: exit 0 same, "
                                          "1 a difference (listed), 2 no GPU unless --model",
                                     NULL, NULL, opts, CLI_NOPTS(opts), false};

static int parse_args(int argc, char **argv, regress_args *a)
{
    *a = (regress_args){.profile = "h100", .record = DEFAULT_RECORD, .instr = "all",
                        .out = "out/regress", .n = 100000, .seed = 0x4e6e55, .tol = 0.05, .timing = true};
    cli_scan sc = cli_scan_start(&cmd_regress_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        switch ((regress_opt)sc.opt) {
        case O_BACKEND: a->backend = v; break;
        case O_MODEL: a->model = true; break;
        case O_PROFILE: a->profile = v; break;
        case O_RECORD: a->record = v; break;
        case O_INSTR: a->instr = v; break;
        case O_OUT: a->out = v; break;
        case O_N: a->n = (size_t)sc.count; break;
        case O_HUNT_N: a->hunt_n = (size_t)sc.count; break;
        case O_SEED:
            if (!cli_seed(CMD, "--seed", v, &a->seed))
                return TC_EXIT_USAGE;
            break;
        case O_JOBS: a->jobs = (unsigned)sc.count; break;
        case O_TOL: a->tol = (double)sc.count / 100.0; break;
        case O_NO_TIMING: a->timing = false; break;
        case O_JSON: a->json = true; break;
        case O_CROSS_GPU: a->cross_gpu = true; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (a->backend && a->model)
        return cli_fail(CMD, "--model and --backend exclude each other (--model is --backend model:h100, said so)");
    if (a->cross_gpu && !cli_fleet_spec(a->backend))
        return cli_fail(CMD, "--cross-gpu needs --backend gpu:all or gpu:I,J,.. (several GPUs to compare)");
    return cli_list_check(CMD, "--instr", a->instr, true);
}


static const char *sval(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static void add_diff(item *it, const char *what, const char *field, json_t *old, json_t *new, json_t *kase)
{
    json_t *d = json_pack("{s:s, s:o, s:o}", "what", what, "old", old, "new", new);
    if (field)
        json_object_set_new(d, "field", json_string(field));
    if (kase)
        json_object_set(d, "case", kase);
    json_array_append_new(it->diffs, d);
}

/* SASS and timing of every item against the baseline record's. */
static void compare_timing(ctx *c, const tc_record *base, const tc_record *fresh)
{
    for (size_t i = 0; i < c->n; i++) {
        item *it = &c->it[i];
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
            add_diff(it, "sass", NULL, json_string(so), json_string(sn), NULL);
        static const char *const keys[] = {"latency_cycles", "throughput_fma_clk_sm"};
        for (int k = 0; k < 2; k++) {
            double x = tc_json_number(json_object_get(old, keys[k])), y = tc_json_number(json_object_get(new, keys[k]));
            if (x == x && y == y && x > 0 && fabs(y - x) > c->a->tol * x)
                add_diff(it, "timing", keys[k], json_real(x), json_real(y), NULL);
        }
    }
}

static char **item_argv(void *vc, size_t i)
{
    ctx *c = vc;
    return c->argv + i * NARGS;
}

static bool verify_done(void *vc, size_t i, int status, const char *out, double secs)
{
    ctx *c = vc;
    item *it = &c->it[i];
    (void)secs;
    it->verify = status;
    /* verify --json prints a record: the verify object, then one
     * verify_failure per failure, smallest first */
    tc_record rec;
    char err[512];
    it->n = 0;
    it->mismatches = -1;
    if (tc_record_parse(out, it->ins->name, &rec, err, sizeof err) != 0) {
        if (status == 0 || status == 1)
            cli_warn(CMD, "%s: the check's output: %s", it->ins->name, err);
        return status == 0 || status == 1;
    }
    json_t *v = json_array_get(rec.objects, 0), *f = json_array_get(rec.objects, 1);
    it->n = json_integer_value(json_object_get(v, "n"));
    it->mismatches = json_is_integer(json_object_get(v, "mismatches")) ? json_integer_value(json_object_get(v, "mismatches")) : -1;
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

static bool bench_done(void *vc, size_t i, int status, const char *out, double secs)
{
    ctx *c = vc;
    (void)i, (void)out, (void)secs;
    c->bench_status = status;
    return true;
}

static char **refit_argv(void *vc, size_t q)
{
    ctx *c = vc;
    return c->argv + c->idx[q] * NARGS;
}

/* The refit's fields against the baseline's, each with the case that
 * rejects the baseline's value in the refit's evidence. */
static bool refit_done(void *vc, size_t q, int status, const char *out, double secs)
{
    ctx *c = vc;
    size_t i = c->idx[q];
    item *it = &c->it[i];
    (void)out, (void)secs;
    char path[4300], err[512];
    snprintf(path, sizeof path, "%s/audit.profile", c->dir[i]);
    model_profile p;
    if ((status != 0 && status != 1) || profile_load(path, &p, err, sizeof err) != 0) {
        add_diff(it, "refit", NULL, json_string("verified"), json_string("no fingerprint verified here"), NULL);
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
        add_diff(it, "arithmetic", model_fields[f].key, json_string(ov), json_string(nv), kase ? kase : it->failure);
    }
    if (!np)
        add_diff(it, "refit", NULL, json_string("verified"), json_string("no fingerprint verified here"), NULL);
    if (rec.header)
        tc_record_free(&rec);
    profile_free(&p);
    return true;
}

static void set_args(ctx *c, size_t i, const char *const *v)
{
    char **dst = c->argv + i * NARGS;
    for (int k = 0; v[k] && k < NARGS - 1; k++)
        dst[k] = (char *)v[k];
}

static void print_item(const item *it, tc_json_out *out)
{
    if (out->on) {
        tc_json_out_put(out, "regress",
                        json_pack("{s:s, s:b, s:I, s:I, s:O}", "instr", it->ins->name, "same",
                                  json_array_size(it->diffs) == 0, "elements", (json_int_t)it->n, "mismatches",
                                  (json_int_t)it->mismatches, "differences", it->diffs));
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

int cmd_regress(int argc, char **argv)
{
    regress_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != TC_EXIT_OK)
        return rc;
    if (cli_fleet_spec(a.backend)) { /* every GPU of the node (cli/fleet.h) */
        cli_fleet_job j = {CMD, argc, argv, a.backend, a.out, a.instr, false, a.cross_gpu,
                           a.n < TC_CORPUS_MAX_ELEMS ? a.n : TC_CORPUS_MAX_ELEMS, a.seed};
        return cli_fleet_run(&j);
    }
    char err[600], ppath[4200], rpath[4200];
    if (!strcmp(a.record, DEFAULT_RECORD)) /* the default is data beside the binary, not the working folder */
        tc_data_path(DEFAULT_RECORD, rpath, sizeof rpath), a.record = rpath;
    const char *spec = a.backend ? a.backend : a.model ? "model:h100" : "gpu";
    tc_backend *be = tc_backend_open(spec, err, sizeof err);
    if (!be) {
        if (!a.backend && !a.model)
            return cli_fail(CMD, "no GPU here (%s): regress checks hardware against a baseline; --model replays the "
                                 "recorded model instead (it proves the pipeline, not any hardware)", err);
        return cli_fail(CMD, "%s", err);
    }
    const tc_backend_info *info = tc_backend_get_info(be);
    model_profile prof;
    if (!tc_profile_path(a.profile, ppath, sizeof ppath) || profile_load(ppath, &prof, err, sizeof err) != 0) {
        tc_backend_close(be);
        return cli_fail(CMD, "--profile %s: %s", a.profile, tc_profile_path(a.profile, ppath, sizeof ppath) ? err : "not found");
    }
    tc_outdir d;
    if (tc_outdir_open(&d, a.out, true, err, sizeof err) != 0) {
        profile_free(&prof);
        tc_backend_close(be);
        return cli_fail(CMD, "%s", err);
    }
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    ctx c = {.a = &a, .backend = info->backend};
    c.it = calloc(count, sizeof *c.it);
    c.argv = calloc(count * NARGS, sizeof *c.argv);
    c.dir = calloc(count, sizeof *c.dir);
    c.idx = calloc(count, sizeof *c.idx);
    int status = TC_EXIT_OK;
    tc_json_out out = {.on = false}; /* begun once there is something to check */
    if (!c.it || !c.argv || !c.dir || !c.idx) {
        status = cli_fail(CMD, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        const model_params *p = profile_lookup(&prof, cat[i].name);
        if (!p || !cli_instr_selected(a.instr, cat[i].name) || !tc_backend_supports(be, &cat[i], err, sizeof err))
            continue;
        c.it[c.n++] = (item){.ins = &cat[i], .base = p, .diffs = json_array()};
    }
    if (c.n == 0) {
        status = cli_fail(CMD, "no instruction of --profile %s to check ('%s' on %s)", a.profile, a.instr, info->backend);
        goto done;
    }
    bool gpu = info->sm > 0;
    unsigned jobs = a.jobs ? a.jobs : tc_pool_cpus();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!a.json)
        printf("# tcscope regress on %s (%s)%s against %s: %zu instructions, %zu random elements each and %zu per "
               "hunt family, %u at a time\n", info->backend, info->device,
               gpu ? "" : "  [RECORDED MODEL REPLAYED, NOT HARDWARE]", ppath, c.n, a.n,
               a.hunt_n ? a.hunt_n : a.n / 16 ? a.n / 16 : 1, jobs);
    uint64_t seeds[1] = {a.seed};
    json_t *hdr = cli_record_header(CMD, info, seeds, 1);
    json_object_set_new(hdr, "profile", json_string(ppath));
    json_object_set_new(hdr, "baseline_record", json_string(a.record));
    tc_json_out_begin(&out, a.json, hdr);
    fflush(stdout);
    /* the timing first, alone on the GPU */
    if (gpu && a.timing) {
        tc_record base = {NULL, NULL}, fresh = {NULL, NULL};
        char bench[4300];
        snprintf(bench, sizeof bench, "%s/bench.json", a.out);
        const char *bv[] = {"bench", "--instr", "all", "--out", bench, "--force", "--no-cublas", "--no-whole-gpu", NULL};
        set_args(&c, 0, bv);
        tc_pool bp = {1, "timing", item_argv, bench_done, &c, NULL};
        tc_pool_run(&bp, 1);
        if (c.bench_status != 0 || tc_record_load(a.record, &base, err, sizeof err) != 0 ||
            tc_record_load_any(bench, &fresh, err, sizeof err) != 0)
            cli_warn(CMD, "SASS and timing not compared: %s", c.bench_status ? "tcscope bench failed" : err);
        else
            compare_timing(&c, &base, &fresh);
        if (base.header)
            tc_record_free(&base);
        if (fresh.header)
            tc_record_free(&fresh);
        memset(c.argv, 0, NARGS * sizeof *c.argv);
    }
    /* verify every fingerprint */
    snprintf(c.args[0], sizeof c.args[0], "%zu", a.n);
    snprintf(c.args[1], sizeof c.args[1], "%zu", a.hunt_n ? a.hunt_n : a.n / 16 ? a.n / 16 : 1);
    snprintf(c.args[2], sizeof c.args[2], "0x%llx", (unsigned long long)a.seed);
    for (size_t i = 0; i < c.n; i++) {
        const char *v[] = {"verify", "--backend", c.backend, "--profile", ppath, "--instr", c.it[i].ins->name,
                           "--n", c.args[0], "--hunt-n", c.args[1], "--seed", c.args[2], "--json", NULL};
        set_args(&c, i, v);
    }
    tc_pool vp = {c.n, "verify", item_argv, verify_done, &c, NULL};
    if (tc_pool_run(&vp, jobs) != 0) {
        status = cli_fail(CMD, "stopped: a check could not run (a device error or a bad setting); see above");
        goto done;
    }
    /* refit what failed */
    size_t nfail = 0;
    for (size_t i = 0; i < c.n; i++) {
        if (c.it[i].verify == 0)
            continue;
        if (c.it[i].verify != 1) {
            status = cli_fail(CMD, "%s: the check exited with %d", c.it[i].ins->name, c.it[i].verify);
            goto done;
        }
        snprintf(c.dir[i], sizeof c.dir[i], "%s/refit/%s", a.out, c.it[i].ins->name);
        const char *v[] = {"audit", "--part", "--backend", c.backend, "--instr", c.it[i].ins->name, "--n", c.args[0],
                           "--hunt-n", c.args[1], "--seed", c.args[2], "--no-timing", "--out", c.dir[i], "--force", NULL};
        memset(c.argv + i * NARGS, 0, NARGS * sizeof *c.argv);
        set_args(&c, i, v);
        c.idx[nfail++] = i;
    }
    if (nfail) {
        tc_pool rp = {nfail, "refit", refit_argv, refit_done, &c, NULL};
        tc_pool_run(&rp, jobs);
    }
    size_t ndiff = 0;
    for (size_t i = 0; i < c.n; i++) {
        if (c.it[i].verify == 1 && json_array_size(c.it[i].diffs) == 0)
            add_diff(&c.it[i], "arithmetic", NULL, json_string("verified"),
                     json_string("mismatches, but the refit reproduces the baseline's fields"), NULL);
        ndiff += json_array_size(c.it[i].diffs) > 0;
        print_item(&c.it[i], &out);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!a.json)
        printf("# %zu instructions: %zu same, %zu differ (%zu refitted); %s; %.0f s\n", c.n, c.n - ndiff, ndiff, nfail,
               gpu && a.timing ? "SASS and timing compared (tolerance given by --timing-tol)"
                               : "SASS and timing not compared (no GPU, or --no-timing)",
               (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    status = ndiff ? TC_EXIT_DIFF : TC_EXIT_OK;
done:
    tc_json_out_end(&out, status == TC_EXIT_USAGE ? "stopped on an error (see stderr)" : NULL);
    for (size_t i = 0; c.it && i < c.n; i++)
        json_decref(c.it[i].diffs), json_decref(c.it[i].failure);
    free(c.it), free(c.argv), free(c.dir), free(c.idx);
    tc_outdir_close(&d);
    profile_free(&prof);
    tc_backend_close(be);
    return status;
}
