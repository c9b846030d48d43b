/* tcscope choose: precision advice; its options are the table below
 * (tcscope choose --help). Two modes:
 *  - for an application (--m/--n and the options only it has): --m --n --k, a distribution or
 *    samples, a scaling, a metric and bound; every candidate is evaluated
 *    on the backend (the one backend rule: the GPU, else model:h100) at
 *    that K against exact references (reports/choose_app.h); with library
 *    GEMM records (reports/baselines/h100-gemm.jsonl.gz beside the binary,
 *    or --gemm-records FILE; --no-library: none) the ranked candidates are
 *    the recorded library paths, computed by the h100 model + each path's
 *    recorded structure, ranked by their measured GEMM TFLOP/s;
 *  - from recorded sweeps (otherwise, as before): reports/baselines/h100-sweep.json (+
 *    h100-sweep-wgmma.json) by default (reports/choose.h).
 * Throughput in both: reports/baselines/h100-bench.json beside the binary
 * unless --bench says otherwise. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cases/app.h"
#include "cases/sweep.h"
#include "cli/cli.h"
#include "cli/run_info.h"
#include "reports/choose.h"
#include "reports/choose_app.h"
#include "reports/record_gemm.h"
#include "reports/reports.h"

#define DEFAULT_SWEEP "reports/baselines/h100-sweep.json"
#define DEFAULT_SWEEP_WGMMA "reports/baselines/h100-sweep-wgmma.json"
#define DEFAULT_BENCH "reports/baselines/h100-bench.json"
#define DEFAULT_GEMM "reports/baselines/h100-gemm.jsonl.gz"   /* library GEMM cases (application mode) */
#define LIB_PROFILE "h100"   /* the gemm records are H100 runs: library paths use its model */
#define MAX_FILES 16
#define MAX_K 1000000000  /* a dot length: compared, never allocated (record mode) */
#define APP_MAX_K (1 << 20)      /* application mode: sampled rows of this length are allocated */
#define APP_MAX_MN (1 << 20)
#define MAX_SWEEP_K 16           /* --sweep-k values */
#define APP_ROWS 100             /* sampled outputs: 100 x 100 = 10^4 dot products by default */

static bool parse_pos_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v > 0) || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_range(const char *s, double *lo, double *hi)
{
    const char *colon = strchr(s, ':');
    if (!colon)
        return false;
    char a[64];
    snprintf(a, sizeof a, "%.*s", (int)(colon - s), s);
    return parse_pos_double(a, lo) && parse_pos_double(colon + 1, hi) && *lo < *hi;
}

/* "K1,K2,..": dot lengths 1..APP_MAX_K, at most MAX_SWEEP_K. false after a message. */
static bool parse_sweep_k(const char *v, int *ks, int *n)
{
    *n = 0;
    for (const char *p = v;;) {
        char item[32];
        size_t len = strcspn(p, ",");
        snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), p);
        if (*n == MAX_SWEEP_K) {
            cli_fail("choose", "--sweep-k: at most %d values", MAX_SWEEP_K);
            return false;
        }
        if (!cli_count_int("choose", "--sweep-k", item, 1, APP_MAX_K, &ks[(*n)++]))
            return false;
        p += len;
        if (!*p)
            return true;
        p++;
    }
}

/* Loads each file and appends its objects of `kind` to `into`. */
static int load_all(const char *const *paths, size_t n, const char *kind, json_t *into, tc_record *merged)
{
    char err[512];
    for (size_t i = 0; i < n; i++) {
        tc_record r;
        if (tc_record_load_any(paths[i], &r, err, sizeof err))
            return cli_fail("choose", "%s", err);
        json_t *objs = tc_record_objects_of(&r, kind);
        if (json_array_size(objs) == 0) { /* a file given for nothing would be a silent no-op */
            json_decref(objs);
            tc_record_free(&r);
            return cli_fail("choose", "%s holds no %s object", paths[i], kind);
        }
        json_array_extend(into, objs);
        if (merged)
            json_array_extend(merged->objects, r.objects);
        json_decref(objs);
        tc_record_free(&r);
    }
    return TC_EXIT_OK;
}

static void print_text(const json_t *res, const tc_choose_opts *o)
{
    size_t i;
    json_t *c;
    int shown = 0;
    printf("constraints: %s relative error", o->stat);
    if (isnan(o->max_rel_err))
        printf(" (any)");
    else
        printf(" <= %g", o->max_rel_err);
    printf(" at chain depth %d", o->depth);
    if (o->k)
        printf(", dot length >= %d", o->k);
    if (o->range_hi > 0)
        printf(", range %g:%g", o->range_lo, o->range_hi);
    if (o->need_inf_nan)
        printf(", Inf/NaN must survive");
    printf("\n\n%-4s %-6s %-36s %10s %12s\n", "rank", "format", "instruction", "TFLOP/s", "error");
    json_array_foreach(res, i, c)
    {
        if (!json_is_integer(json_object_get(c, "rank")))
            continue;
        printf("%-4lld %-6s %-36s %10.1f %12.3g\n", (long long)json_integer_value(json_object_get(c, "rank")),
               cli_str(c, "format"), cli_str(c, "instr"),
               tc_json_number(json_object_get(c, "tflops")), tc_json_number(json_object_get(c, "error")));
        shown++;
    }
    if (!shown)
        printf("(no format with a throughput record meets the constraints)\n");
    bool head = false;
    json_array_foreach(res, i, c)
    {
        if (json_is_integer(json_object_get(c, "rank")) || json_object_get(c, "excluded"))
            continue;
        if (!head)
            printf("\nmeet the constraints, no throughput record (not ranked):\n");
        head = true;
        printf("  %-6s %-36s error %.3g\n", cli_str(c, "format"),
               cli_str(c, "instr"), tc_json_number(json_object_get(c, "error")));
    }
    head = false;
    json_array_foreach(res, i, c)
    {
        if (!json_object_get(c, "excluded"))
            continue;
        if (!head)
            printf("\nexcluded:\n");
        head = true;
        printf("  %-6s %-36s %s\n", cli_str(c, "format"),
               cli_str(c, "instr"), cli_str(c, "reason"));
    }
}

typedef enum { O_M, O_N, O_K, O_SAMPLES, O_SCALING, O_METRIC, O_MAX_REL_ERR, O_OUTPUTS, O_SEED, O_BACKEND,
               O_CHAIN, O_RANGE, O_NEED_INF_NAN, O_STAT, O_DIST, O_SWEEP, O_BENCH, O_JSON, O_REPORT, O_SWEEP_K,
               O_FORCE, O_GEMM_RECORDS, O_NO_LIBRARY } choose_opt;
static const cli_option opts[] = {
    [O_M] = {"--m", "M", "rows of A (application mode, required there)", 1, APP_MAX_MN},
    [O_N] = {"--n", "N", "columns of B (application mode, required there)", 1, APP_MAX_MN},
    [O_K] = {"--k", "K", "the dot length (application mode: required, up to 2^20; record mode: "
             "the dot length each product needs, default any)", 1, MAX_K},
    [O_SAMPLES] = {"--samples", "FILE", "draw A and B from these values: .npy (float32/float64) or raw float32"},
    [O_SCALING] = {"--scaling", "S", "none (default), per-tensor, per-row, block32: E8M0 scales of FP8 inputs"},
    [O_METRIC] = {"--metric", "X", "median, p90 (default), p99, max (relative, per output) or normwise"},
    [O_MAX_REL_ERR] = {"--max-rel-err", "E", "the largest error allowed (a positive number)"},
    [O_OUTPUTS] = {"--outputs", "R", "application mode: sampled outputs R x R (default 100: 10^4)", 8, 1000},
    [O_SEED] = {"--seed", "S", "application mode: random seed (default 1)"},
    [O_BACKEND] = {"--backend", "B", "application mode: gpu, model:PROFILE or exact (default: the GPU, else "
                   CLI_RECORDED_MODEL ")"},
    [O_CHAIN] = {"--chain", "D", "the chain depth whose error counts (default 1)", 1, SWEEP_MAX_CHAIN},
    [O_RANGE] = {"--range", "LO:HI", "the magnitudes the data spans (0 < LO < HI)"},
    [O_NEED_INF_NAN] = {"--need-inf-nan", NULL, "only formats with infinities and NaNs"},
    [O_STAT] = {"--stat", "median|p90|max", "the error statistic compared (default p90)"},
    [O_DIST] = {"--dist", "D", "application: normal[:MU,SIGMA] (default), uniform[:LO,HI], lognormal[:MU,SIGMA]; "
                "record mode: only sweeps of normal, uniform, loguniform, ints"},
    [O_SWEEP] = {"--sweep", "FILE", "a sweep record (repeatable, 16 at most; default the H100 baselines)"},
    [O_BENCH] = {"--bench", "FILE", "a bench record (repeatable, 16 at most; default the H100 baseline)"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: choice objects (application mode) or recorded_choice objects (recorded sweeps)"},
    [O_REPORT] = {"--report", "DIR", "application mode: also write DIR/choose.html (ranking, error vs K, error vs throughput)"},
    [O_SWEEP_K] = {"--sweep-k", "K1,K2,..", "with --report: the dot lengths of the error-vs-K plot (default 16, 64, ... below --k)"},
    [O_FORCE] = {"--force", NULL, "with --report: replace an existing DIR/choose.html"},
    [O_GEMM_RECORDS] = {"--gemm-records", "FILE", "application mode: library GEMM records (tcscope gemm; default the "
                        "H100 record): their paths are the ranked candidates"},
    [O_NO_LIBRARY] = {"--no-library", NULL, "application mode: rank instruction chains only (no library GEMM records)"},
};
const cli_command cmd_choose_cli = {
    "choose", "precision advice for a GEMM of your shape and data (model or GPU), or from recorded sweeps", NULL,
    "Application mode with --m/--n (and --samples --scaling --metric --outputs --seed --backend);\n"
    "otherwise advice from recorded sweeps (--sweep --chain --stat --range --need-inf-nan).\n"
    "Errors are against the exact product of the ORIGINAL inputs (input rounding counted); a candidate\n"
    "whose error exceeds 1 is never ranked; without --max-rel-err candidates are listed by error.\n"
    "With library GEMM records (the H100 ones by default; --gemm-records, --no-library) the ranked\n"
    "candidates are the library paths (the model + each path's structure recorded at the nearest K,\n"
    "the TFLOP/s measured at the recorded shape nearest in log M*N + log K); instruction chains are listed beside.",
    opts, CLI_NOPTS(opts), false};

/* ---- application mode ------------------------------------------------------ */

typedef struct {
    int m, n, k, rows;
    const char *samples, *dist, *metric, *backend, *report, *gemm_records;
    bool no_library;
    int sweep_k[MAX_SWEEP_K], nsweep_k;
    bool force;
    app_scaling scaling;
    double bound;
    uint64_t seed;
} app_settings;

static void progress(void *ctx, size_t done, size_t total, const char *what)
{
    (void)ctx;
    if (isatty(2))
        fprintf(stderr, "\rchoose: %zu/%zu %-40s%s", done, total, what, done == total ? "\n" : "");
}

static int print_record(const json_t *choices, tc_backend *b, uint64_t seed)
{
    char err[512];
    const tc_backend_info *info = tc_backend_get_info(b);
    json_t *h = cli_record_header("choice", info, &seed, 1);
    tc_record_stream st;
    if (tc_record_stream_begin(&st, stdout, h, err, sizeof err)) {
        json_decref(h);
        return cli_fail("choose", "%s", err);
    }
    size_t i;
    json_t *c;
    json_array_foreach(choices, i, c) if (tc_record_stream_object(&st, c, err, sizeof err))
    {
        json_decref(h);
        return cli_fail("choose", "%s", err);
    }
    tc_record_stream_end(&st, NULL);
    json_decref(h);
    return TC_EXIT_OK;
}

/* The K list of the report's error-vs-K plot: the user's, else 16, 64, ...
 * below K; K itself always; increasing, without repeats. */
static int report_ks(const app_settings *s, int *ks)
{
    int n = 0, cand[MAX_SWEEP_K + 12];
    if (s->nsweep_k)
        for (int i = 0; i < s->nsweep_k; i++)
            cand[n++] = s->sweep_k[i];
    else
        for (int k = 16; k < s->k && n < 10; k *= 4)
            cand[n++] = k;
    cand[n++] = s->k;
    int out = 0;
    for (int i = 0; i < n; i++) {   /* insertion into the sorted, distinct list */
        int j = out;
        bool dup = false;
        for (int q = 0; q < out; q++)
            dup |= ks[q] == cand[i];
        if (dup)
            continue;
        while (j > 0 && ks[j - 1] > cand[i]) {
            ks[j] = ks[j - 1];
            j--;
        }
        ks[j] = cand[i];
        out++;
    }
    return out;
}

/* The choices at every K of the report (per_k, see tc_choose_app_report);
 * main: those at the user's K, already evaluated. NULL + err. */
static json_t *evaluate_per_k(const app_settings *s, const app_dist *dist, tc_backend *b, const tc_record *bench,
                              const tc_choose_app_opts *o, const json_t *main, char *err, size_t len)
{
    int ks[MAX_SWEEP_K + 12];
    int nk = report_ks(s, ks);
    json_t *per_k = json_array();
    for (int i = 0; i < nk; i++) {
        if (ks[i] == s->k) {
            json_array_append_new(per_k, json_pack("{s:i, s:O}", "k", ks[i], "choices", main));
            continue;
        }
        app_data d;
        app_reference_cache_clear();   /* the references belong to one K's data */
        if (!app_data_make(&d, dist, s->m, s->n, ks[i], o->rows, o->cols, s->seed,
                           s->scaling == APP_SCALE_TENSOR, err, len)) {
            json_decref(per_k);
            return NULL;
        }
        json_t *res = tc_choose_app(b, &d, bench, o, err, len);
        app_data_free(&d);
        if (!res) {
            json_decref(per_k);
            return NULL;
        }
        json_array_append_new(per_k, json_pack("{s:i, s:o}", "k", ks[i], "choices", res));
    }
    app_reference_cache_clear();
    return per_k;
}

static int choose_app(const app_settings *s, const char *const *benches, size_t nb, bool json)
{
    char err[512];
    if (!s->m || !s->n || !s->k)
        return cli_fail("choose", "application mode needs --m, --n and --k (the GEMM's shape); "
                        "give --sweep FILE for advice from recorded sweeps");
    if (s->k > APP_MAX_K)
        return cli_fail("choose", "--k %d: application mode evaluates up to K = %d", s->k, APP_MAX_K);
    if (s->samples && s->dist)
        return cli_fail("choose", "--samples and --dist exclude each other");
    if ((s->nsweep_k || s->force) && !s->report)
        return cli_fail("choose", "--sweep-k and --force go with --report DIR");
    if (s->gemm_records && s->no_library)
        return cli_fail("choose", "--gemm-records and --no-library exclude each other");
    app_dist dist;
    if (s->samples ? !app_dist_load(s->samples, &dist, err, sizeof err)
                   : !app_dist_parse(s->dist ? s->dist : "normal", &dist, err, sizeof err))
        return cli_fail("choose", "%s", err);
    /* The report's folder is checked before any work: an existing page is kept unless --force. */
    tc_outdir out = {.fd = -1};
    static const char *const page[] = {"choose.html"};
    if (s->report && (tc_outdir_open(&out, s->report, s->force, err, sizeof err) ||
                      tc_out_check_free(&out, page, 1, err, sizeof err))) {
        tc_outdir_close(&out);
        app_dist_free(&dist);
        return cli_fail("choose", "%s", err);
    }
    static char def_bench[4096];
    const char *bench_from = nb ? benches[0] : "";
    tc_record bench = tc_record_new(json_object());
    json_t *objs = json_array();
    int rc = TC_EXIT_OK;
    if (!nb && tc_data_path(DEFAULT_BENCH, def_bench, sizeof def_bench)) {
        const char *one[] = {def_bench};
        bench_from = def_bench;
        rc = load_all(one, 1, "bench", objs, &bench);
    } else if (nb)
        rc = load_all(benches, nb, "bench", objs, &bench);
    json_decref(objs);
    /* The library paths: the gemm records (given, else the H100 ones beside the binary when there). */
    static char def_gemm[4096], lib_profile[4096];
    const char *gemm_from = s->no_library ? NULL : s->gemm_records;
    if (!s->no_library && !gemm_from && tc_data_path(DEFAULT_GEMM, def_gemm, sizeof def_gemm))
        gemm_from = def_gemm;
    json_t *gemm_recs = NULL;
    if (!rc && gemm_from && !tc_profile_path(LIB_PROFILE, lib_profile, sizeof lib_profile))
        rc = cli_fail("choose", "no %s profile beside the binary for the library paths' model (or --no-library)",
                      LIB_PROFILE);
    if (!rc && gemm_from && !(gemm_recs = tc_gemm_records_load(gemm_from, NULL, err, sizeof err)))
        rc = cli_fail("choose", "%s", err);
    tc_backend *b = rc ? NULL : cli_backend_open("choose", s->backend, NULL);
    if (!rc && !b)
        rc = TC_EXIT_USAGE;
    app_data d;
    /* A GEMM smaller than the sample has only M x N outputs: all of them. */
    int rows = s->rows < s->m ? s->rows : s->m, cols = s->rows < s->n ? s->rows : s->n;
    if (!rc && !app_data_make(&d, &dist, s->m, s->n, s->k, rows, cols, s->seed,
                                s->scaling == APP_SCALE_TENSOR, err, sizeof err))
        rc = cli_fail("choose", "%s", err);
    if (!rc) {
        tc_choose_app_opts o = {.dist = &dist, .scaling = s->scaling, .metric = s->metric, .bound = s->bound,
                                .rows = rows, .cols = cols, .backend = tc_backend_get_info(b)->backend,
                                .bench_from = bench_from, .gemm_recs = gemm_recs, .gemm_from = gemm_from,
                                .profile = lib_profile, .progress = progress};
        json_t *res = tc_choose_app(b, &d, &bench, &o, err, sizeof err);
        if (!res)
            rc = cli_fail("choose", "%s", err);
        else if (json)
            rc = print_record(res, b, s->seed);
        else
            tc_choose_app_print(stdout, res, &o, &d);
        if (res && !rc && s->report) {
            json_t *per_k = evaluate_per_k(s, &dist, b, &bench, &o, res, err, sizeof err);
            if (!per_k || tc_choose_app_report(&out, res, per_k, &o, &d, tc_backend_get_info(b)->device, err,
                                               sizeof err))
                rc = cli_fail("choose", "%s", err);
            else if (!json)
                printf("\nreport: %s/choose.html\n", s->report);
            json_decref(per_k);
        }
        json_decref(res);
        app_data_free(&d);
        app_reference_cache_clear();
    }
    if (b)
        tc_backend_close(b);
    tc_outdir_close(&out);
    tc_record_free(&bench);
    json_decref(gemm_recs);
    app_dist_free(&dist);
    return rc;
}

int cmd_choose(int argc, char **argv)
{
    tc_choose_opts o = tc_choose_defaults();
    const char *sweeps[MAX_FILES], *benches[MAX_FILES];
    size_t ns = 0, nb = 0;
    bool json = false, record_mode = false, app_mode = false;
    sweep_dist d;
    app_settings app = {.scaling = APP_SCALE_NONE, .metric = "p90", .rows = APP_ROWS, .seed = 1};
    const char *dist_arg = NULL;
    cli_scan sc = cli_scan_start(&cmd_choose_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        switch ((choose_opt)sc.opt) {
        case O_MAX_REL_ERR:
            if (!parse_pos_double(v, &o.max_rel_err))
                return cli_fail("choose", "bad --max-rel-err '%s' (a positive number)", v);
            break;
        case O_M: app.m = (int)sc.count; app_mode = true; break;
        case O_N: app.n = (int)sc.count; app_mode = true; break;
        case O_K: o.k = (int)sc.count; break;
        case O_SAMPLES: app.samples = v; app_mode = true; break;
        case O_SCALING:
            app_mode = true;
            if (!app_scaling_parse(v, &app.scaling))
                return cli_fail("choose", "bad --scaling '%s' (none, per-tensor, per-row, block32)", v);
            break;
        case O_METRIC:
            app_mode = true;
            if (!app_metric_ok(v))
                return cli_fail("choose", "bad --metric '%s' (median, p90, p99, max, normwise)", v);
            app.metric = v;
            break;
        case O_OUTPUTS: app.rows = (int)sc.count; app_mode = true; break;
        case O_SEED:
            app_mode = true;
            if (!cli_seed("choose", "--seed", v, &app.seed))
                return TC_EXIT_USAGE;
            break;
        case O_BACKEND: app.backend = v; app_mode = true; break;
        case O_CHAIN: o.depth = (int)sc.count, record_mode = true; break;
        case O_RANGE:
            record_mode = true;
            if (!parse_range(v, &o.range_lo, &o.range_hi))
                return cli_fail("choose", "bad --range '%s' (LO:HI, 0 < LO < HI)", v);
            break;
        case O_NEED_INF_NAN: o.need_inf_nan = true, record_mode = true; break;
        case O_STAT:
            record_mode = true;
            if (strcmp(v, "median") && strcmp(v, "p90") && strcmp(v, "max"))
                return cli_fail("choose", "bad --stat '%s' (median, p90 or max)", v);
            o.stat = v;
            break;
        case O_DIST: dist_arg = v; break;
        case O_SWEEP:
            record_mode = true;
            if (ns == MAX_FILES)
                return cli_fail("choose", "too many --sweep files");
            sweeps[ns++] = v;
            break;
        case O_BENCH:
            if (nb == MAX_FILES)
                return cli_fail("choose", "too many --bench files");
            benches[nb++] = v;
            break;
        case O_JSON: json = true; break;
        case O_REPORT: app.report = v; app_mode = true; break;
        case O_SWEEP_K:
            app_mode = true;
            if (!parse_sweep_k(v, app.sweep_k, &app.nsweep_k))
                return TC_EXIT_USAGE;
            break;
        case O_FORCE: app.force = true; app_mode = true; break;
        case O_GEMM_RECORDS: app.gemm_records = v; app_mode = true; break;
        case O_NO_LIBRARY: app.no_library = true; app_mode = true; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (app_mode && record_mode)
        return cli_fail("choose", "application options (--m --n --samples --scaling --metric --outputs --seed "
                        "--backend --report --sweep-k --force --gemm-records --no-library) and record options (--sweep --chain --stat --range --need-inf-nan) exclude each other");
    if (app_mode) {
        app.k = o.k;
        app.bound = o.max_rel_err;
        app.dist = dist_arg;
        return choose_app(&app, benches, nb, json);
    }
    if (dist_arg) {
        if (!sweep_dist_parse(dist_arg, &d))
            return cli_fail("choose", "bad --dist '%s' (normal, uniform, loguniform, ints)", dist_arg);
        o.dist = dist_arg;
    }
    /* The defaults: the H100 baselines in the data beside the binary (probes/datadir.c). */
    static char def_sweep[4096], def_wgmma[4096], def_bench[4096];
    if (ns == 0) {
        if (!tc_data_path(DEFAULT_SWEEP, def_sweep, sizeof def_sweep))
            return cli_fail("choose", "no sweep record: %s is not beside the binary (run tcscope sweep --out DIR, "
                            "or give --sweep FILE)", def_sweep);
        sweeps[ns++] = def_sweep;
        if (tc_data_path(DEFAULT_SWEEP_WGMMA, def_wgmma, sizeof def_wgmma))
            sweeps[ns++] = def_wgmma;
    }
    if (nb == 0 && tc_data_path(DEFAULT_BENCH, def_bench, sizeof def_bench))
        benches[nb++] = def_bench;

    json_t *sw = json_array();
    tc_record bench = tc_record_new(json_object());
    int rc = load_all(sweeps, ns, "sweep", sw, NULL);
    json_t *bench_objs = json_array();
    if (rc == TC_EXIT_OK)
        rc = load_all(benches, nb, "bench", bench_objs, &bench);
    json_decref(bench_objs);
    if (rc == TC_EXIT_OK && json_array_size(sw) == 0)
        rc = cli_fail("choose", "the sweep records hold no sweep object");
    if (rc == TC_EXIT_OK) {
        json_t *res = tc_choose(sw, &bench, &o);
        if (json) { /* a record (SCHEMA.md "Command output"): one recorded_choice per candidate */
            json_t *hdr = tc_record_header("choose", NULL, NULL, 0), *from = json_array();
            for (size_t i = 0; i < ns; i++)
                json_array_append_new(from, json_string(sweeps[i]));
            for (size_t i = 0; i < nb; i++)
                json_array_append_new(from, json_string(benches[i]));
            json_object_set_new(hdr, "from", from);
            tc_json_out out;
            tc_json_out_begin(&out, true, hdr);
            size_t i;
            json_t *c;
            json_array_foreach(res, i, c) tc_json_out_put(&out, "recorded_choice", json_incref(c));
            tc_json_out_end(&out, NULL);
        } else {
            print_text(res, &o);
            printf("\nfrom: ");
            for (size_t i = 0; i < ns; i++)
                printf("%s%s", i ? ", " : "", sweeps[i]);
            for (size_t i = 0; i < nb; i++)
                printf(", %s", benches[i]);
            printf("%s\n", nb ? "" : " (no bench record: nothing can be ranked by speed)");
            if (o.k)
                printf("(recorded sweeps have their own dot lengths; for an evaluation at K = %d on your shape "
                       "and data give --m and --n)\n", o.k);
        }
        json_decref(res);
    }
    json_decref(sw);
    tc_record_free(&bench);
    return rc;
}
