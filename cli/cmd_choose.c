/* tcscope choose: precision advice; its options are the table below
 * (tcscope choose --help). Two modes:
 *  - for an application (--m/--n and the options only it has): --m --n --k, a distribution or
 *    samples, a scaling, a metric and bound; every candidate is evaluated
 *    on the backend (the one backend rule: the GPU, else model:h100) at
 *    that K against exact references (reports/choose_app.h); with library
 *    GEMM records (reports/baselines/h100-gemm.packed.xz beside the binary,
 *    or --gemm-records FILE; --no-library: none) the ranked candidates are
 *    the recorded library paths, computed by the model of the GPU each
 *    structure was recorded on + that structure, ranked by their measured
 *    GEMM TFLOP/s on the GPU and by the caller asked for;
 *  - from recorded sweeps (otherwise, as before): reports/baselines/h100-sweep.json (+
 *    h100-sweep-wgmma.json) by default (reports/choose.h).
 * Throughput in both: reports/baselines/h100-bench.json.gz beside the binary
 * unless --bench says otherwise.
 * This file reads the options; the modes are cli/choose_app_run.c and
 * cli/choose_recorded.c (cli/choose.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/app.h"
#include "cases/sweep.h"
#include "cli/choose.h"
#include "cli/cli.h"
#include "reports/choose.h"

#define MAX_K 1000000000  /* a dot length: compared, never allocated (record mode) */
#define APP_MAX_MN (1 << 20)
#define APP_ROWS 100             /* sampled outputs: 100 x 100 = 10^4 dot products by default */

typedef enum { O_M, O_N, O_K, O_SAMPLES, O_SCALING, O_METRIC, O_MAX_REL_ERR, O_OUTPUTS, O_SEED, O_BACKEND,
               O_CHAIN, O_RANGE, O_NEED_INF_NAN, O_STAT, O_DIST, O_SWEEP, O_BENCH, O_JSON, O_REPORT, O_SWEEP_K,
               O_FORCE, O_GEMM_RECORDS, O_NO_LIBRARY, O_GPU, O_CALLER, O_ALLOW_TRANSFER, O_OLD_SAMPLES } choose_opt;
static const cli_option opts[] = {
    [O_M] = {"--m", "M", "rows of A (application mode, required there)", 1, APP_MAX_MN},
    [O_N] = {"--n", "N", "columns of B (application mode, required there)", 1, APP_MAX_MN},
    [O_K] = {"--k", "K", "the dot length (application mode: required, up to 2^20; record mode: "
             "the dot length each product needs, default any)", 1, MAX_K},
    [O_SAMPLES] = {"--samples-file", "FILE", "draw A and B from these values: .npy (float32/float64) or raw float32"},
    [O_SCALING] = {"--scaling", "S", "none (default), per-tensor, per-row, block32: E8M0 scales of FP8 inputs"},
    [O_METRIC] = {"--metric", "X", "the error statistic: median, p90 (default), max; application mode also p99 (relative, per output) and normwise"},
    [O_MAX_REL_ERR] = {"--max-rel-err", "E", "the largest error allowed: 0.01 or 1% (positive); without it nothing is ranked by speed"},
    [O_OUTPUTS] = {"--outputs", "R", "application mode: sampled outputs R x R (default 100: 10^4; over 1000, up to every "
                   "output of 8192 x 8192: library paths only, on the GPU model with exact references on the GPU)", 8,
                   8192},
    [O_SEED] = {"--seed", "S", "application mode: random seed (default 1)"},
    [O_BACKEND] = {"--backend", "B", "application mode: gpu, model:PROFILE or exact (default: the GPU, else "
                   CLI_RECORDED_MODEL ")"},
    [O_CHAIN] = {"--chain", "D", "the chain depth whose error counts (default 1)", 1, SWEEP_MAX_CHAIN},
    [O_RANGE] = {"--range", "LO:HI", "the magnitudes the data spans (0 < LO < HI)"},
    [O_NEED_INF_NAN] = {"--need-inf-nan", NULL, "only formats with infinities and NaNs"},
    [O_STAT] = {CLI_ALIAS("--stat", "--metric")},
    [O_DIST] = {"--dist", "D", "application: normal[:MU,SIGMA] (default), uniform[:LO,HI], lognormal[:MU,SIGMA], "
                "loguniform[:R], ints; record mode: only sweeps of normal, uniform, loguniform, ints"},
    [O_SWEEP] = {"--sweep", "FILE", "a sweep record (repeatable, 16 at most; default the H100 baselines)"},
    [O_BENCH] = {"--bench", "FILE", "a bench record (repeatable, 16 at most; default the H100 baseline)"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: choice objects (application mode) or recorded_choice objects (recorded sweeps)"},
    [O_REPORT] = {"--report", "DIR", "application mode: also write DIR/choose.html (ranking, error vs K, error vs throughput)"},
    [O_SWEEP_K] = {"--sweep-k", "K1,K2,..", "with --report: the dot lengths of the error-vs-K plot (default 16, 64, ... below --k)"},
    [O_FORCE] = {"--force", NULL, "with --report: replace an existing DIR/choose.html"},
    [O_GEMM_RECORDS] = {"--gemm-records", "FILE[,FILE..]", "application mode: library GEMM records (tcscope gemm, "
                        "tcscope probe infer --out; default the H100 record): their paths are the ranked candidates"},
    [O_GPU] = {"--gpu", "NAME", "application mode: the GPU whose recorded structures are ranked (default the "
               "backend's: its GPU, or the model's profile name, h100 for model:h100); matched in a record's device"},
    [O_CALLER] = {"--caller", "CALL", "application mode: the caller whose recorded structures are ranked: tcscope "
                  "(default: tcscope gemm's own cuBLASLt and kernel calls) or a probe call id or its start "
                  "(torch, torch-scaled_mm-e4m3-fast)"},
    [O_ALLOW_TRANSFER] = {"--allow-transfer", NULL, "application mode: rank a structure recorded on another GPU or "
                          "by another caller too (labelled transferred)"},
    [O_NO_LIBRARY] = {"--no-library", NULL, "application mode: rank instruction chains only (no library GEMM records)"},
    [O_OLD_SAMPLES] = {CLI_ALIAS("--samples", "--samples-file")},
};
const cli_command cmd_choose_cli = {
    "choose", "precision advice for a GEMM of your shape and data (model or GPU), or from recorded sweeps", NULL,
    "Application mode with --m/--n (and --samples-file --scaling --outputs --seed --backend);\n"
    "otherwise advice from recorded sweeps (--sweep --chain --range --need-inf-nan); --metric in both.\n"
    "Errors are against the exact product of the ORIGINAL inputs (input rounding counted); a candidate\n"
    "whose error exceeds 1 is never ranked; without --max-rel-err nothing is ranked by speed.\n"
    "With library GEMM records (the H100 ones by default; --gemm-records, --no-library) the ranked\n"
    "candidates are the library paths (the model of the structure's GPU + each path's structure recorded\n"
    "at the nearest K, the TFLOP/s of the same GPU and caller measured at the recorded shape nearest in\n"
    "log M*N + log K, else \"not timed\"); instruction chains are listed beside.",
    opts, CLI_NOPTS(opts), false};

int cmd_choose(int argc, char **argv)
{
    tc_choose_opts o = tc_choose_defaults();
    const char *sweeps[CHOOSE_MAX_FILES], *benches[CHOOSE_MAX_FILES];
    size_t ns = 0, nb = 0;
    bool json = false, record_mode = false, app_mode = false;
    app_settings app = {.scaling = APP_SCALE_NONE, .metric = "p90", .rows = APP_ROWS, .seed = 1};
    const char *dist_arg = NULL, *metric = NULL;
    cli_scan sc = cli_scan_start(&cmd_choose_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        switch ((choose_opt)sc.opt) {
        case O_MAX_REL_ERR:
            if (!cli_fraction(v, 0, INFINITY, &o.max_rel_err) || !(o.max_rel_err > 0))
                return cli_fail("choose", "bad --max-rel-err '%s' (a positive number: 0.01 or 1%%)", v);
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
        case O_METRIC: metric = v; break;
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
            if (!cli_range(v, &o.range_lo, &o.range_hi))
                return cli_fail("choose", "bad --range '%s' (LO:HI, 0 < LO < HI)", v);
            break;
        case O_NEED_INF_NAN: o.need_inf_nan = true, record_mode = true; break;
        case O_STAT: case O_OLD_SAMPLES: break;   /* old spellings: cli_next answers as the new ones */
        case O_DIST: dist_arg = v; break;
        case O_SWEEP:
            record_mode = true;
            if (ns == CHOOSE_MAX_FILES)
                return cli_fail("choose", "too many --sweep files");
            sweeps[ns++] = v;
            break;
        case O_BENCH:
            if (nb == CHOOSE_MAX_FILES)
                return cli_fail("choose", "too many --bench files");
            benches[nb++] = v;
            break;
        case O_JSON: json = true; break;
        case O_REPORT: app.report = v; app_mode = true; break;
        case O_SWEEP_K:
            app_mode = true;
            if (!cli_count_list("choose", "--sweep-k", v, 1, CHOOSE_APP_MAX_K, CHOOSE_MAX_SWEEP_K, app.sweep_k, &app.nsweep_k))
                return TC_EXIT_USAGE;
            break;
        case O_FORCE: app.force = true; app_mode = true; break;
        case O_GEMM_RECORDS: app.gemm_records = v; app_mode = true; break;
        case O_NO_LIBRARY: app.no_library = true; app_mode = true; break;
        case O_GPU: app.gpu = v; app_mode = true; break;
        case O_CALLER: app.caller = v; app_mode = true; break;
        case O_ALLOW_TRANSFER: app.allow_transfer = true; app_mode = true; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (app_mode && record_mode)
        return cli_fail("choose", "application options (--m --n --samples-file --scaling --outputs --seed "
                        "--backend --report --sweep-k --force --gemm-records --no-library) and record options (--sweep --chain --range --need-inf-nan) exclude each other");
    /* One statistic option for both modes; recorded sweeps hold median, p90 and max only. */
    if (metric && app_mode && !app_metric_ok(metric))
        return cli_fail("choose", "bad --metric '%s' (median, p90, p99, max, normwise)", metric);
    if (metric && !app_mode && strcmp(metric, "median") && strcmp(metric, "p90") && strcmp(metric, "max"))
        return cli_fail("choose", "bad --metric '%s' (median, p90 or max: what recorded sweeps hold; p99 and "
                        "normwise need application mode, --m --n --k)", metric);
    if (metric && app_mode)
        app.metric = metric;
    else if (metric)
        o.stat = metric;
    if (app_mode) {
        app.k = o.k;
        app.bound = o.max_rel_err;
        app.dist = dist_arg;
        return choose_app(&app, benches, nb, json);
    }
    return choose_recorded(&o, dist_arg, sweeps, ns, benches, nb, json);
}
