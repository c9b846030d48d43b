/* tcscope sweep: chain-length error sweeps against the exact chain.
 *
 * --json prints a whole record (header, one sweep object per format,
 * trailer) so `tcscope sweep --json > r.json` is a file compare/choose read;
 * --out DIR writes DIR/sweep.json and the Markdown/HTML report beside it. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases/app.h"
#include "cases/sweep.h"
#include "cli/cli.h"
#include "cli/record_arg.h"
#include "cli/run_info.h"
#include "reports/render.h"
#include "reports/sweep_record.h"

#define DEFAULT_FORMATS "e4m3,e5m2,f16,bf16,tf32,f32,f64"
#define DEFAULT_BENCH "reports/baselines/h100-bench.json.gz"

/* The ranges of the options are cases/sweep.h's SWEEP_MAX_*; the memory
 * of a run is bounded apart from them: sweep_run refuses more than
 * SWEEP_MAX_ELEMS elements (trials x chain x (K*K + 5*M*K)). */
#define MAX_THREADS 1024
#define MAX_TARGETS 32

/* "N" or "1..N" (chains always start at step 1). */
static bool parse_chain(const char *s, int *n)
{
    if (!strncmp(s, "1..", 3))
        s += 3;
    return cli_count_int("sweep", "chain length", s, 1, SWEEP_MAX_CHAIN, n);
}

/* "normal", "uniform", "ints", "loguniform" or "loguniform:R". */
static int parse_dist(const char *s, sweep_dist *d, int *range)
{
    const char *colon = strchr(s, ':');
    char name[32];
    snprintf(name, sizeof name, "%.*s", colon ? (int)(colon - s) : (int)strlen(s), s);
    if (!strcmp(name, "lognormal"))
        return cli_fail("sweep", "bad --dist '%s': lognormal is choose's (application mode); a sweep draws "
                        "normal, uniform, loguniform[:R] or ints", s);
    if (!sweep_dist_parse(name, d) || (colon && *d != SWEEP_LOGUNIFORM))
        return cli_fail("sweep", "bad --dist '%s' (normal, uniform, loguniform[:R], ints)", s);
    if (colon && !cli_count_int("sweep", "loguniform range", colon + 1, 1, SWEEP_MAX_LOG_RANGE, range))
        return TC_EXIT_USAGE;
    return TC_EXIT_OK;
}

static void print_json(const json_t *o)
{
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    puts(s);
    free(s);
    fflush(stdout);
}

/* A number for the table; a dash where the record has null. */
static void print_num(const json_t *v, int width)
{
    double x = tc_json_number(v);
    if (isnan(x))
        printf(" %*s", width, "-");
    else
        printf(" %*.4g", width, x);
}

static void print_table(const json_t *o)
{
    printf("%s via %s (K = %lld, %s, from %s, %s, scale %s), %lld trials\n",
           cli_str(o, "format"), cli_str(o, "instr"),
           (long long)json_integer_value(json_object_get(o, "k")), cli_str(o, "dist"),
           cli_str(o, "from"), cli_str(o, "round"),
           cli_str(o, "scale"), (long long)json_integer_value(json_object_get(o, "trials")));
    printf("  %6s %12s %12s %12s %9s %9s %12s\n", "step", "median", "p90", "max", "overflow", "NaN", "time/step s");
    json_t *steps = json_object_get(o, "steps");
    size_t n = json_array_size(steps);
    for (size_t i = 0; i < n; i++) {
        size_t s = i + 1;
        bool shown = s == n;
        for (size_t p = 1; p <= s && !shown; p *= 10)
            shown = s == p || s == 2 * p || s == 5 * p;
        if (!shown)
            continue;
        json_t *st = json_array_get(steps, i);
        printf("  %6zu", s);
        print_num(json_object_get(st, "median"), 12);
        print_num(json_object_get(st, "p90"), 12);
        print_num(json_object_get(st, "max"), 12);
        printf(" %9.4f %9.4f", tc_json_number(json_object_get(st, "overflow")), tc_json_number(json_object_get(st, "nan")));
        print_num(json_object_get(st, "time_s"), 12);
        putchar('\n');
    }
}

static void progress_cb(void *ctx, size_t done, size_t total)
{
    tc_progress_update(ctx, done);
}

typedef struct {
    const char *backend, *formats, *out, *bench_path, *render, *instrs;
    sweep_params p;
    bool json, bench_given, formats_given, force;
    char like_instrs[MAX_TARGETS * 96];
} sweep_opts;

/* --like REC: every setting of the sweeps in a record (for regressions);
 * options given as well override it. */
static int apply_like(const char *path, sweep_opts *o)
{
    tc_record rec;
    char err[512];
    if (tc_record_load(path, &rec, err, sizeof err))
        return cli_fail("sweep", "--like: %s", err);
    json_t *sw = tc_record_objects_of(&rec, "sweep");
    int rc = TC_EXIT_OK;
    size_t i;
    json_t *s;
    if (json_array_size(sw) == 0)
        rc = cli_fail("sweep", "--like %s: no sweep object in the record", path);
    json_array_foreach(sw, i, s)
    {
        if (rc)
            break;
        const char *instr = json_string_value(json_object_get(s, "instr"));
        size_t used = strlen(o->like_instrs);
        if (i >= MAX_TARGETS || strlen(instr) + 2 > sizeof o->like_instrs - used) {
            rc = cli_fail("sweep", "--like %s: more than %d sweeps", path, MAX_TARGETS);
            break;
        }
        snprintf(o->like_instrs + used, sizeof o->like_instrs - used, "%s%s", used ? "," : "", instr);
        if (i > 0)
            continue;
        /* the settings, checked as the options that set them are */
        const char *dist = json_string_value(json_object_get(s, "dist"));
        const char *from = json_string_value(json_object_get(s, "from"));
        const json_t *lr = json_object_get(s, "log_range");
        json_int_t trials = json_integer_value(json_object_get(s, "trials"));
        json_int_t chain = json_integer_value(json_object_get(s, "chain"));
        const char *bad = NULL;
        if (!sweep_dist_parse(dist, &o->p.dist))
            bad = "dist";
        else if (!tc_round_parse(json_string_value(json_object_get(s, "round")), &o->p.round) || o->p.round == TC_RS)
            bad = "round";
        else if (!tc_json_get_bits(json_object_get(s, "seed"), &o->p.seed))
            bad = "seed";
        else if (strcmp(from, "f32") && strcmp(from, "direct"))
            bad = "from (f32 or direct)";
        else if (trials < 1 || trials > SWEEP_MAX_TRIALS)
            bad = "trials (1..1000000)";
        else if (chain < 1 || chain > SWEEP_MAX_CHAIN)
            bad = "chain (1..100000)";
        else if (lr && (!json_is_integer(lr) || json_integer_value(lr) < 1 ||
                        json_integer_value(lr) > SWEEP_MAX_LOG_RANGE))
            bad = "log_range (1..60)";
        if (bad) {
            rc = cli_fail("sweep", "--like %s: the first sweep's setting %s is unreadable or out of range", path, bad);
            break;
        }
        if (lr)
            o->p.log_range = (int)json_integer_value(lr);
        o->p.from_f32 = !strcmp(from, "f32");
        /* "none" in a record of FP8 means unscaled was asked; for other formats it says nothing. */
        if (!strcmp(json_string_value(json_object_get(s, "scale")), "pertensor"))
            o->p.pertensor = true;
        else if (strstr("e4m3 e5m2", json_string_value(json_object_get(s, "format"))))
            o->p.pertensor = false;
        o->p.trials = (int)trials;
        o->p.chain = (int)chain;
    }
    if (rc == TC_EXIT_OK) {
        o->instrs = o->like_instrs;
        o->formats_given = true;
    }
    json_decref(sw);
    tc_record_free(&rec);
    return rc;
}

typedef enum { O_BACKEND, O_FORMATS, O_INSTR, O_CHAIN, O_TRIALS, O_DIST, O_FROM, O_ROUND, O_SCALE, O_SEED,
               O_THREADS, O_LIKE, O_BENCH, O_OUT, O_FORCE, O_RENDER, O_JSON, O_OLD_SCALE } sweep_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "gpu, gpu:N, gpu:jit, model:PROFILE or exact (default: the GPU, else the recorded model " CLI_RECORDED_MODEL ", said so)"},
    [O_FORMATS] = {"--formats", "FMT,..", "the formats swept (default " DEFAULT_FORMATS ")"},
    [O_INSTR] = {"--instr", "NAME,..", "sweep these instructions instead of one per format"},
    [O_CHAIN] = {"--chain", "1..N", "chain length (default 100; N 1..1e5)"},
    [O_TRIALS] = {"--trials", "T", "chains per format (default 100)", 1, SWEEP_MAX_TRIALS},
    [O_DIST] = {"--dist", "D", "normal (default), uniform, loguniform[:R] (R 1..60, default 16) or ints"},
    [O_FROM] = {"--from", "f32|direct", "draw in f32 then convert with --round (default), or round directly"},
    [O_ROUND] = {"--round", "MODE", "the conversion's rounding: rne (default), rna, rz, ru, rd, ro"},
    [O_SCALE] = {"--scaling", "per-tensor|none", "FP8: a power-of-two scale per tensor (default per-tensor)"},
    [O_SEED] = {"--seed", "S", "random seed (default 1)"},
    [O_THREADS] = {"--threads", "N", "worker threads, 0: one per core (default 0)", 0, MAX_THREADS},
    [O_LIKE] = {"--like", "REC", "every setting of the sweeps in record REC; options given as well override it"},
    [O_BENCH] = {"--bench", "FILE", "the bench record for the throughput column (default the H100 baseline)"},
    [O_OUT] = {"--out", "DIR", "write DIR/sweep.json and its Markdown/HTML report"},
    [O_FORCE] = {"--force", NULL, "replace an earlier sweep in --out DIR"},
    [O_RENDER] = {"--render", "REC", "with --out: the report of a recorded sweep, nothing run"},
    [O_JSON] = {"--json", NULL, "print the whole record (header, one sweep per format, trailer)"},
    [O_OLD_SCALE] = {CLI_ALIAS("--scale", "--scaling")},
};
const cli_command cmd_sweep_cli = {
    "sweep", "chain-length error sweeps against the exact chain, per format", NULL,
    "32 formats at most; T x N x (K*K + 5*M*K) within 2^27 elements (1 GiB).", opts, CLI_NOPTS(opts), false};

static int parse_args(int argc, char **argv, sweep_opts *o)
{
    /* --like first, wherever it is: the options given beside it override it. */
    cli_scan sc = cli_scan_start(&cmd_sweep_cli, argc, argv);
    while (cli_next(&sc))
        if (sc.opt == O_LIKE && apply_like(sc.val, o))
            return TC_EXIT_USAGE;
    if (sc.status)
        return sc.status;
    sc = cli_scan_start(&cmd_sweep_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        switch ((sweep_opt)sc.opt) {
        case O_LIKE: break;
        case O_JSON: o->json = true; break;
        case O_FORCE: o->force = true; break;
        case O_BACKEND: o->backend = v; break;
        case O_FORMATS:
            o->formats = v;
            o->formats_given = true;
            break;
        case O_CHAIN:
            if (!parse_chain(v, &o->p.chain))
                return TC_EXIT_USAGE;
            break;
        case O_TRIALS: o->p.trials = (int)sc.count; break;
        case O_DIST:
            if (parse_dist(v, &o->p.dist, &o->p.log_range))
                return TC_EXIT_USAGE;
            break;
        case O_FROM:
            if (strcmp(v, "f32") && strcmp(v, "direct"))
                return cli_fail("sweep", "bad --from '%s' (f32 or direct)", v);
            o->p.from_f32 = !strcmp(v, "f32");
            break;
        case O_ROUND:
            if (!tc_round_parse(v, &o->p.round) || o->p.round == TC_RS)
                return cli_fail("sweep", "bad rounding mode '%s' (rne, rna, rz, ru, rd, ro)", v);
            break;
        case O_SCALE: {
            /* the value names of choose --scaling (cases/app.h); a sweep scales per tensor or not at all */
            app_scaling s = APP_SCALE_TENSOR;
            if (!strcmp(v, "pertensor"))
                cli_warn("sweep", "--scaling pertensor is an old spelling of per-tensor (write per-tensor)");
            else if (!app_scaling_parse(v, &s) || (s != APP_SCALE_NONE && s != APP_SCALE_TENSOR))
                return cli_fail("sweep", "bad --scaling '%s' (per-tensor or none; per-row and block32 are choose's)", v);
            o->p.pertensor = s == APP_SCALE_TENSOR;
            break;
        }
        case O_OLD_SCALE: break;   /* the old spelling: cli_next answers as --scaling */
        case O_SEED:
            if (!cli_seed("sweep", "--seed", v, &o->p.seed))
                return TC_EXIT_USAGE;
            break;
        case O_THREADS: o->p.threads = (int)sc.count; break;
        case O_OUT: o->out = v; break;
        case O_RENDER: o->render = v; break;
        case O_INSTR: o->instrs = v; break;
        case O_BENCH:
            o->bench_path = v;
            o->bench_given = true;
            break;
        }
    }
    return sc.status;
}

/* Opens --out and begins the run: sweep.json and its reports must be free
 * (or --force), the run marker sweep.run is written. */
static int begin_outputs(const sweep_opts *o, tc_outdir *d, int argc, char **argv, char *err, size_t len)
{
    char names[8][TC_OUT_NAME_MAX + 1];
    snprintf(names[0], sizeof names[0], "sweep.json");
    size_t n = 1 + tc_report_names("sweep", names + 1, 7);
    const char *list[8];
    for (size_t i = 0; i < n; i++)
        list[i] = names[i];
    if (tc_outdir_open(d, o->out, o->force, err, len))
        return -1;
    return tc_run_begin(d, "sweep", argc, argv, list, n, err, len);
}

/* --formats or --instr (or --like's instructions): a comma list, every
 * name known, none empty (strsep: "f16,,bf16" and ",f16" are reported,
 * and the list is copied whole, never cut at a buffer's size). */
static int parse_targets(const sweep_opts *o, const tc_format **fmts, const tc_instr **inss, tc_format *scratch,
                         size_t *count)
{
    const char *opt = o->instrs ? "--instr" : "--formats";
    char *list = strdup(o->instrs ? o->instrs : o->formats), *rest = list, *t;
    if (!list)
        return cli_fail("sweep", "out of memory");
    int rc = TC_EXIT_OK;
    size_t nf = 0;
    while (rc == TC_EXIT_OK && (t = strsep(&rest, ",")) != NULL) {
        if (!*t)
            rc = cli_fail("sweep", "%s: empty name in '%s'", opt, o->instrs ? o->instrs : o->formats);
        else if (nf == MAX_TARGETS)
            rc = cli_fail("sweep", "%s: more than %d formats or instructions", opt, MAX_TARGETS);
        else if (o->instrs && !strcmp(t, "host.fma.f32")) /* the FP32 baseline, as records name it */
            fmts[nf++] = &tc_f32;
        else if (o->instrs) {
            const char *unfit = NULL;
            inss[nf] = tc_instr_by_name(t);
            if (!inss[nf])
                rc = cli_unknown_instr("sweep", "--instr", t);
            else if ((unfit = sweep_instr_unfit(inss[nf])))
                rc = cli_fail("sweep", "%s cannot run a chain: %s", t, unfit);
            else
                fmts[nf] = inss[nf]->a, nf++;
        } else {
            fmts[nf] = cli_format_named("sweep", "--formats", t, &scratch[nf]);
            if (!fmts[nf])
                rc = TC_EXIT_USAGE;
            else if (strcmp(fmts[nf]->name, "f32") && !sweep_instr_for(fmts[nf]))
                rc = cli_fail("sweep", "no tensor-core instruction takes %s inputs for a chain", t);
            else
                nf++;
        }
    }
    free(list);
    if (rc == TC_EXIT_OK && nf == 0)
        rc = cli_fail("sweep", "no format given");
    *count = nf;
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_opts o = {.formats = DEFAULT_FORMATS, .bench_path = DEFAULT_BENCH,
                    .p = {.chain = 100, .trials = 100, .dist = SWEEP_NORMAL, .log_range = 16, .from_f32 = true,
                          .round = TC_RNE, .pertensor = true, .seed = 1}};
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc;
    if (o.render)
        return cli_render_record("sweep", o.render, o.out, o.force);

    /* Validate every format (or instruction) before any work. */
    const tc_format *fmts[MAX_TARGETS];
    const tc_instr *inss[MAX_TARGETS] = {NULL};
    tc_format scratch[MAX_TARGETS];
    size_t nf = 0;
    if ((rc = parse_targets(&o, fmts, inss, scratch, &nf)))
        return rc;
    tc_record bench = {NULL, NULL};
    char err[512];
    char bench_path[4096];   /* the default: the data beside the binary (probes/datadir.c) */
    if (!o.bench_given && tc_data_path(DEFAULT_BENCH, bench_path, sizeof bench_path))
        o.bench_path = bench_path;
    /* the default may be absent (an install without data): no throughput column */
    if ((o.bench_given || access(o.bench_path, R_OK) == 0) &&
        cli_record_of("sweep", "--bench", o.bench_path, "bench", &bench))
        return TC_EXIT_USAGE;

    tc_backend *b = cli_backend_open("sweep", o.backend, NULL);
    if (!b) {
        tc_record_free(&bench);
        return TC_EXIT_USAGE;
    }
    /* --out: claimed before the work (an earlier sweep there is kept without --force) */
    tc_outdir d = {.fd = -1};
    if (o.out && begin_outputs(&o, &d, argc, argv, err, sizeof err)) {
        tc_outdir_close(&d);
        tc_record_free(&bench);
        tc_backend_close(b);
        return cli_fail("sweep", "%s", err);
    }
    uint64_t seed = o.p.seed;
    tc_record rec = tc_record_new(cli_record_header("sweep", tc_backend_get_info(b), &seed, 1));
    if (bench.header)
        json_object_set_new(rec.header, "bench_record", json_string(o.bench_path));
    if (o.json)
        print_json(rec.header);
    rc = TC_EXIT_OK;
    for (size_t f = 0; f < nf && rc == TC_EXIT_OK; f++) {
        sweep_params p = o.p;
        p.fmt = fmts[f];
        p.ins = inss[f];
        char label[64];
        snprintf(label, sizeof label, "sweep %s", p.fmt->name);
        tc_progress prog;
        tc_progress_start(&prog, label, (size_t)p.trials);
        p.progress = progress_cb;
        p.progress_ctx = &prog;
        sweep_result r;
        if (sweep_run(b, &p, &r, err, sizeof err)) {
            tc_progress_end(&prog);
            if (!o.formats_given && !o.instrs && strstr(err, "cannot run")) {
                /* The default list asks for every format; say which one this backend lacks. */
                cli_warn("sweep", "%s skipped: %s", p.fmt->name, err);
                continue;
            }
            rc = cli_fail("sweep", "%s: %s", p.fmt->name, err);
            break;
        }
        tc_progress_end(&prog);
        const json_t *bo = r.ins ? tc_bench_find(&bench, r.instr_name) : NULL;
        json_t *obj = tc_record_sweep_new(&p, &r, bo);
        if (r.cvt_mismatches)
            fprintf(stderr, "tcscope sweep: %s: %zu conversions of the backend differ from formats/\n",
                    p.fmt->name, r.cvt_mismatches);
        sweep_result_free(&r);
        if (o.json)
            print_json(obj);
        else
            print_table(obj);
        if (tc_record_add(&rec, obj, err, sizeof err))
            rc = cli_fail("sweep", "internal: %s", err);
    }
    if (o.json && rc == TC_EXIT_OK) {
        json_t *end = json_pack("{s:s, s:I}", "kind", "end", "objects", (json_int_t)json_array_size(rec.objects));
        print_json(end);
        json_decref(end);
    }
    if (o.out) {
        /* the record first, then its reports; the marker says done only after both */
        if (rc == TC_EXIT_OK && tc_record_write(&d, "sweep.json", &rec, NULL, err, sizeof err))
            rc = cli_fail("sweep", "%s", err);
        if (rc == TC_EXIT_OK && tc_report_write(&rec, &d, "sweep", err, sizeof err))
            rc = cli_fail("sweep", "report: %s", err);
        char why[sizeof err];
        snprintf(why, sizeof why, "%s", err); /* the last message: why the sweep failed */
        if (tc_run_end(&d, rc == TC_EXIT_OK ? NULL : why, err, sizeof err) && rc == TC_EXIT_OK)
            rc = cli_fail("sweep", "%s", err);
        if (rc == TC_EXIT_OK && !o.json)
            printf("wrote %s/sweep.json, %s/sweep.md, %s/sweep.html\n", o.out, o.out, o.out);
        tc_outdir_close(&d);
    }
    tc_record_free(&rec);
    tc_record_free(&bench);
    tc_backend_close(b);
    return rc;
}
