/* tcscope gemm: library GEMMs (cuBLASLt, and tcscope's own wgmma kernel
 * whose structure is known by construction) on the GPU judged against the
 * exact products of the original and of the rounded inputs, timed in the
 * same run, and (--infer) their accumulation structure inferred from
 * masking inputs and checked by predicting the sampled outputs.
 * --json: a tcscope-record/1 of kind "gemm" on stdout, one object a case,
 * printed as each case ends (reports/SCHEMA.md "gemm"); progress on
 * stderr. Without a GPU: exit 2, except --backend model:NAME, the
 * self-test of the inference on a simulated library. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases/gemm.h"
#include "cli/cli.h"
#include "cli/model_on.h"
#include "oracle/oracle.h"
#include "probes/probes.h"
#include "reports/gemm_report.h"
#include "reports/render.h"

#define CMD "gemm"
#define MAX_KS 16
#define MAX_SQUARES 4

typedef struct {
    const char *paths, *backend, *profile, *sim, *report, *from;
    int m, n, ks[MAX_KS], nk, squares[MAX_SQUARES], nsq, device, warmup, reps, threads;
    bool infer, json, force;
    double time_limit;
    sweep_dist dist;
    uint64_t seed;
    size_t samples;
} gemm_args;

typedef enum {
    O_PATH, O_M, O_N, O_K, O_TIMING_SIZE, O_DIST, O_SEED, O_SAMPLES, O_WARMUP, O_REPS, O_INFER, O_PROFILE,
    O_BACKEND, O_SIM, O_JSON, O_REPORT, O_FROM, O_FORCE, O_THREADS, O_TIME_LIMIT
} gemm_opt;
static const cli_option opts[] = {
    [O_PATH] = {"--path", "LIST|all", "paths: cuBLASLt f16, bf16, tf32, e4m3, e4m3-fast, e5m2, e5m2-fast, f32, f32-bf16x9; tcscope's own wgmma kernel tcscope-wgmma-f16, tcscope-wgmma-e4m3 (default all)"},
    [O_M] = {"--m", "M", "rows of D, a multiple of 16 (default 256)", 16, 16384},
    [O_N] = {"--n", "N", "columns of D, a multiple of 16 (default 256)", 16, 16384},
    [O_K] = {"--k", "LIST", "dot lengths, multiples of 16 up to 65536 (default 16,64,256,1024,4096,16384,65536)"},
    [O_TIMING_SIZE] = {"--timing-size", "LIST", "square S^3 cases after the K sweep, multiples of 16 (default 4096 with the default K list, none with --k; 0: none)"},
    [O_DIST] = {"--dist", "D", "original FP32 inputs: normal, uniform, loguniform, ints (default normal)"},
    [O_SEED] = {"--seed", "S", "seed of the inputs and of the sampled outputs (default 1)"},
    [O_SAMPLES] = {"--samples", "N", "outputs compared with the exact products per case (default 10000)", 1, 16777216},
    [O_WARMUP] = {"--warmup", "N", "untimed launches before timing (default 3)", 0, 1000},
    [O_REPS] = {"--reps", "N", "timed launches, median reported (default 10; 0: no timing)", 0, 10000},
    [O_INFER] = {"--infer", NULL, "infer the accumulation structure and predict the sampled outputs with it"},
    [O_PROFILE] = {"--profile", "P", "instruction models for --infer (default h100)"},
    [O_BACKEND] = {"--backend", "B", "gpu[:N] (default), or model:PROFILE: the inference self-test on a simulated library"},
    [O_SIM] = {"--sim", "PROMOTE,SPLITK[,seq|pairwise|reverse][,unit=U][,CONV]", "model backend: the simulated library's structure (default 0,1: one accumulator; slices met in K order, pairwise or last to first; cut in whole K tiles of U) and tf32 input conversion (tf32-rz, tf32-rna, tf32-rne, full-f32)"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1 on stdout, one object per case as it ends (progress on stderr)"},
    [O_REPORT] = {"--report", "DIR", "no GPU run: write DIR/gemm.html from the records of --from"},
    [O_FROM] = {"--from", "FILE", "with --report: a gemm --json record, or older tcscope-gemm lines (.jsonl or .jsonl.gz)"},
    [O_FORCE] = {"--force", NULL, "with --report: replace an existing DIR/gemm.html"},
    [O_TIME_LIMIT] = {"--time-limit", "S", "start no case that would end after S seconds (estimated from the last case; the first always runs); the record ends normally"},
    [O_THREADS] = {"--threads", "N", "CPU threads for the exact errors and the predictions, 0: one per core (default 0)", 0, 1024},
};
const cli_command cmd_gemm_cli = {
    "gemm", "cuBLASLt (and tcscope's own wgmma) GEMM numerics vs exact products, throughput, inferred accumulation structure", NULL,
    "Needs a GPU. The K sweep runs at M = N = 256; errors are against the exact product of the original FP32 "
    "inputs and of the inputs as uploaded (rounded RNE, FP8 saturating).",
    opts, CLI_NOPTS(opts), false};

/* A comma list of multiples of 16 in [lo, hi] (0 alone allowed when lo is 0: none). */
static int parse_list(const char *opt, const char *v, int lo, int hi, int max, int *out, int *n)
{
    *n = 0;
    const char *s = v;
    while (*s) {
        char item[32];
        size_t len = strcspn(s, ",");
        snprintf(item, sizeof item, "%.*s", (int)(len < 31 ? len : 31), s);
        if (*n == max || !cli_count_int(CMD, opt, item, lo, hi, &out[*n]))
            return *n == max ? cli_fail(CMD, "%s: at most %d values", opt, max) : TC_EXIT_USAGE;
        if (out[*n] % 16)
            return cli_fail(CMD, "bad %s '%s' (a multiple of 16: FP8 GEMMs need it)", opt, item);
        *n += out[*n] != 0;
        s += len;
        if (*s == ',' && !*++s)
            return cli_fail(CMD, "bad %s '%s' (an empty item)", opt, v);
    }
    return *n || lo == 0 ? TC_EXIT_OK : cli_fail(CMD, "bad %s '' (a list)", opt);
}

static int parse(int argc, char **argv, gemm_args *a)
{
    memset(a, 0, sizeof *a);
    a->paths = "all";
    a->backend = "gpu";
    a->profile = "h100";
    a->sim = "0,1";
    a->m = a->n = 256;
    a->squares[0] = 4096, a->nsq = 1;
    a->seed = 1;
    a->samples = 10000;
    a->warmup = 3;
    a->reps = 10;
    static const int sweep[] = {16, 64, 256, 1024, 4096, 16384, 65536};
    for (int i = 0; i < 7; i++)
        a->ks[a->nk++] = sweep[i];
    bool ks_given = false, sq_given = false;
    cli_scan sc = cli_scan_start(&cmd_gemm_cli, argc, argv);
    while (cli_next(&sc)) {
        int rc = TC_EXIT_OK;
        switch ((gemm_opt)sc.opt) {
        case O_PATH: a->paths = sc.val; break;
        case O_M: a->m = (int)sc.count; break;
        case O_N: a->n = (int)sc.count; break;
        case O_K: rc = parse_list("--k", sc.val, 16, 65536, MAX_KS, a->ks, &a->nk), ks_given = true; break;
        case O_TIMING_SIZE: rc = parse_list("--timing-size", sc.val, 0, 16384, MAX_SQUARES, a->squares, &a->nsq),
                            sq_given = true; break;
        case O_DIST:
            if (!sweep_dist_parse(sc.val, &a->dist))
                rc = cli_fail(CMD, "bad --dist '%s' (normal, uniform, loguniform, ints)", sc.val);
            break;
        case O_SEED: rc = cli_seed(CMD, "--seed", sc.val, &a->seed) ? TC_EXIT_OK : TC_EXIT_USAGE; break;
        case O_SAMPLES: a->samples = (size_t)sc.count; break;
        case O_WARMUP: a->warmup = (int)sc.count; break;
        case O_REPS: a->reps = (int)sc.count; break;
        case O_INFER: a->infer = true; break;
        case O_PROFILE: a->profile = sc.val; break;
        case O_BACKEND: a->backend = sc.val; break;
        case O_SIM: a->sim = sc.val; break;
        case O_JSON: a->json = true; break;
        case O_REPORT: a->report = sc.val; break;
        case O_FROM: a->from = sc.val; break;
        case O_FORCE: a->force = true; break;
        case O_THREADS: a->threads = (int)sc.count; break;
        case O_TIME_LIMIT:
            if (!cli_pos_double(sc.val, &a->time_limit) || a->time_limit > 1e7)
                rc = cli_fail(CMD, "bad --time-limit '%s' (seconds, > 0)", sc.val);
            break;
        }
        if (rc)
            return rc;
    }
    if (sc.status)
        return sc.status;
    if (ks_given && !sq_given)
        a->nsq = 0;
    if (a->m % 16 || a->n % 16)
        return cli_fail(CMD, "bad --m/--n %dx%d (multiples of 16: FP8 GEMMs need it)", a->m, a->n);
    /* The host holds A and B a few times over (originals, uploads, 4 bytes an element). */
    for (int x = 0; x < a->nk; x++)
        if ((size_t)a->m * a->ks[x] > ((size_t)1 << 28) || (size_t)a->n * a->ks[x] > ((size_t)1 << 28))
            return cli_fail(CMD, "--m/--n %dx%d with --k %d: more than 2^28 elements in A or B", a->m, a->n,
                            a->ks[x]);
    for (int x = 0; x < a->nsq; x++)
        if ((size_t)a->squares[x] * a->squares[x] > ((size_t)1 << 28))
            return cli_fail(CMD, "--timing-size %d: more than 2^28 elements in A or B", a->squares[x]);
    if (strcmp(a->paths, "all")) {
        if (cli_list_check(CMD, "--path", a->paths, false))
            return TC_EXIT_USAGE;
        char buf[256];
        snprintf(buf, sizeof buf, "%s", a->paths);
        for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
            if (!tc_gemm_path_by_name(t))
                return cli_fail(CMD, "unknown --path '%s' (f16, bf16, tf32, e4m3, e4m3-fast, e5m2, e5m2-fast, "
                                     "f32, f32-bf16x9, tcscope-wgmma-f16, tcscope-wgmma-e4m3)", t);
    }
    return -1;
}

static bool path_selected(const char *list, const char *name)
{
    if (!strcmp(list, "all"))
        return true;
    size_t n = strlen(name);
    for (const char *s = list; (s = strstr(s, name)); s += n)
        if ((s == list || s[-1] == ',') && (s[n] == ',' || !s[n]))
            return true;
    return false;
}

/* One line a case: progress (with --json, on stderr) or the text output. */
static void print_case(FILE *f, json_t *r, int done, int total, double secs)
{
    const char *e = json_string_value(json_object_get(r, "error"));
    const char *sk = json_string_value(json_object_get(r, "skipped"));
    fprintf(f, "[%d/%d] %-10s %5lldx%5lldx%5lld %6.1f s", done, total, cli_str(r, "path"),
            json_integer_value(json_object_get(r, "m")), json_integer_value(json_object_get(r, "n")),
            json_integer_value(json_object_get(r, "k")), secs);
    if (e || sk) {
        fprintf(f, "  %s: %s\n", e ? "ERROR" : "skipped", e ? cli_str(r, "error") : cli_str(r, "skipped"));
        fflush(f);
        return;
    }
    json_t *t = json_object_get(r, "timing");
    if (t)
        fprintf(f, "  %7.1f TFLOP/s", json_number_value(json_object_get(t, "tflops")));
    fprintf(f, "  median err %.3g ulp vs original, %.3g vs rounded inputs",
            json_number_value(json_object_get(json_object_get(r, "error_vs_original"), "median_ulps")),
            json_number_value(json_object_get(json_object_get(r, "error_vs_rounded"), "median_ulps")));
    json_t *st = json_object_get(r, "structure"), *in = json_object_get(st, "inferred");
    json_t *pr = json_object_get(st, "prediction");
    if (in)
        fprintf(f, "  chunk %lld promote %lld splitK %lld%s", json_integer_value(json_object_get(in, "chunk")),
                json_integer_value(json_object_get(in, "promote")), json_integer_value(json_object_get(in, "splitk")),
                json_is_true(json_object_get(st, "fitted")) ? " (fitted to the outputs)" : "");
    if (pr)
        fprintf(f, "  predicted %lld/%lld bit-exact", json_integer_value(json_object_get(pr, "bit_exact")),
                json_integer_value(json_object_get(pr, "n")));
    const char *status = json_string_value(json_object_get(st, "status"));
    if (status && !strcmp(status, "unexplained")) {
        /* never a bare verdict: why, the best candidates, the outputs none predicts */
        fprintf(f, "  unexplained");
        if (!json_is_true(json_object_get(st, "consistent")))
            fprintf(f, " (masking: %s)", cli_str(st, "why"));
        json_t *c = json_object_get(st, "best_candidates"), *x;
        size_t i;
        json_array_foreach(c, i, x) fprintf(f, "%s%s %lld/%lld", i ? "; " : "; best candidates: ",
                                            cli_str(x, "structure"), json_integer_value(json_object_get(x, "bit_exact")),
                                            json_integer_value(json_object_get(x, "n")));
        size_t nu = json_array_size(json_object_get(st, "unexplained_outputs"));
        if (nu)
            fprintf(f, "; %zu%s outputs no candidate predicts (structure.unexplained_outputs)", nu,
                    nu == TC_GEMM_KEEP ? "+" : "");
    }
    fprintf(f, "\n");
    fflush(f);
}

/* model:PROFILE: the simulated library, structure and input conversion
 * from --sim; the chunk is the instruction's K (one wgmma per step). */
static int open_sim(const gemm_args *a, tc_gemm_struct *s, tc_gemm_incvt *cv)
{
    char buf[128], *save = NULL;
    int field = 0;
    if (cli_list_check(CMD, "--sim", a->sim, false))   /* strtok_r would pass over an empty item */
        return TC_EXIT_USAGE;
    bool ok = strlen(a->sim) < sizeof buf;
    snprintf(buf, sizeof buf, "%s", a->sim);
    s->combine = GEMM_COMBINE_SEQ;
    *cv = GEMM_IN_AS_UPLOADED;
    for (char *t = strtok_r(buf, ",", &save); t && ok; t = strtok_r(NULL, ",", &save), field++) {
        char *end;
        long v = strtol(t, &end, 10);
        if (field < 2)
            ok = *end == 0 && end != t && (field == 0 ? v >= 0 && v <= 65536 && v % 16 == 0 : v >= 1 && v <= 64);
        else if (tc_gemm_combine_parse(t, &s->combine))
            ;
        else if (!strncmp(t, "unit=", 5)) {   /* slices cut in whole K tiles of this many positions */
            v = strtol(t + 5, &end, 10);
            ok = *end == 0 && end != t + 5 && v >= 1 && v <= 65536;
            s->slice_unit = (int)v;
        } else
            ok = tc_gemm_incvt_parse(t, cv);
        if (field == 0)
            s->promote = (int)v;
        else if (field == 1)
            s->splitk = (int)v;
    }
    if (!ok || field < 2)
        return cli_fail(CMD, "bad --sim '%s' (PROMOTE,SPLITK[,seq|pairwise|reverse][,unit=U][,CONVERSION]: PROMOTE 0 "
                             "or a multiple of 16, SPLITK 1..64, U 1..65536, CONVERSION tf32-rz, tf32-rna, tf32-rne or full-f32)", a->sim);
    return TC_EXIT_OK;
}

/* --report DIR --from FILE: the page of recorded cases, no GPU (reports/gemm_report.h). */
static int report(const gemm_args *a)
{
    if (!a->report || !a->from)
        return cli_fail(CMD, "--report DIR and --from FILE go together (--force with them)");
    char err[600];
    json_t *recs = tc_gemm_records_load(a->from, NULL, err, sizeof err);
    if (!recs)
        return cli_fail(CMD, "%s", err);
    tc_outdir out = {.fd = -1};
    static const char *const page[] = {"gemm.html"};
    int rc = tc_outdir_open(&out, a->report, a->force, err, sizeof err) || tc_out_check_free(&out, page, 1, err, sizeof err) ||
             tc_gemm_report_write(recs, &out, err, sizeof err);
    size_t n = json_array_size(recs);
    tc_outdir_close(&out);
    json_decref(recs);
    if (rc)
        return cli_fail(CMD, "%s", err);
    printf("report: %s/gemm.html (%zu cases from %s)\n", a->report, n, a->from);
    return TC_EXIT_OK;
}

int cmd_gemm(int argc, char **argv)
{
    gemm_args a;
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.report || a.from || a.force)
        return report(&a);
    oracle_set_threads(a.threads);   /* the sampled outputs are spread over these (cases/gemm.c) */
    model_set_threads(a.threads);
    char err[600], ppath[4096];
    bool sim = !strncmp(a.backend, "model:", 6);
    const char *prof = sim ? a.backend + 6 : a.profile;
    if ((a.infer || sim) && !tc_profile_path(prof, ppath, sizeof ppath))
        return cli_fail(CMD, "profile '%s' not found", prof);
    tc_gemm_struct ss = {0};
    tc_gemm_incvt scv = GEMM_IN_AS_UPLOADED;
    tc_gemm_lib lib;
    if (sim) {
        if ((rc = open_sim(&a, &ss, &scv)) != TC_EXIT_OK)
            return rc;
        a.infer = true;
        a.reps = 0;
        a.nsq = 0;
    } else {
        int dev = 0;
        if (strcmp(a.backend, "gpu") && (strncmp(a.backend, "gpu:", 4) ||
                                         !cli_count_int(CMD, "--backend", a.backend + 4, 0, 64, &dev)))
            return cli_fail(CMD, "bad --backend '%s' (gpu, gpu:N, or model:PROFILE for the inference self-test)",
                            a.backend);
        if (tc_gemm_lib_gpu(&lib, dev, err, sizeof err) != 0)
            return cli_no_gpu_instead(CMD, err, "--backend " CLI_RECORDED_MODEL " runs the structure-inference "
                                                "self-test on a simulated library, and choose reads the recorded GEMMs");
    }
    /* The predictions: the GPU model of the backend's GPU when one opens, else the CPU's. */
    cli_model_on mo;
    cli_model_on_open(CMD, sim || !a.infer ? "cpu" : NULL, sim ? NULL : a.backend, &mo);
    size_t np;
    const tc_gemm_path *paths = tc_gemm_paths(&np);
    int total = 0, done = 0, failed = 0;
    for (size_t i = 0; i < np; i++)
        total += path_selected(a.paths, paths[i].name) * (a.nk + a.nsq);
    char backend[80], device[4200];
    snprintf(backend, sizeof backend, "%s", sim ? a.backend : strcmp(a.backend, "gpu") ? a.backend : "gpu:0");
    snprintf(device, sizeof device, "%s", sim ? "model (no GPU)" : lib.device);
    tc_gemm_run_facts facts = {backend, sim ? "sim" : lib.name, device, sim ? 0 : lib.version, a.seed, total,
                               a.time_limit};
    tc_json_out out;
    tc_json_out_begin(&out, a.json, tc_gemm_record_header(&facts));
    double spent = 0, last = 0, last_work = 0;
    tc_progress prog;   /* on a terminal, between the case lines: cases done, the time left */
    tc_progress_start(&prog, "gemm", (size_t)total);
    /* Shape-major, cheapest first: the K sweep, then the squares, so that a
     * run cut short (--time-limit) loses the costliest shapes of a few
     * paths, not whole paths. */
    for (int y = 0; y < a.nk + a.nsq && done < total; y++) {
        bool sq = y >= a.nk;
        int S = sq ? a.squares[y - a.nk] : 0;
        for (size_t i = 0; i < np && done < total; i++) {
            if (!path_selected(a.paths, paths[i].name))
                continue;
            tc_gemm_case c = {.m = sq ? S : a.m, .n = sq ? S : a.n, .k = sq ? S : a.ks[y], .dist = a.dist,
                              .seed = a.seed, .samples = a.samples, .warmup = a.warmup, .reps = a.reps,
                              .infer = a.infer, .profile = ppath, .model_gpu = mo.gpu};
            /* The CPU side (errors, predictions) costs about samples x K. */
            double work = (double)c.k * (double)(a.samples < (size_t)c.m * c.n ? a.samples : (size_t)c.m * c.n);
            double guess = last_work > 0 ? last * work / last_work : 0;
            if (a.time_limit > 0 && done > 0 && spent + guess > a.time_limit) {
                tc_progress_clear(&prog);
                fprintf(stderr, "tcscope gemm: --time-limit %g s: stopped after %d of %d cases (%.1f s spent, the "
                                "next, %s at K = %d, estimated at %.1f s)\n", a.time_limit, done, total, spent,
                        paths[i].name, c.k, guess);
                total = done;
                break;
            }
            if (sim) {
                const tc_instr *ins = paths[i].instr ? tc_instr_by_name(paths[i].instr) : NULL;
                ss.chunk = ins ? ins->k : 16;
                if (tc_gemm_lib_sim(&lib, ppath, &ss, scv, err, sizeof err) != 0) {
                    tc_progress_clear(&prog);
                    tc_json_out_end(&out, err);
                    cli_model_on_close(&mo);
                    return cli_fail(CMD, "%s", err);
                }
            }
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            tc_gemm_case_result res;
            tc_gemm_run_case(&lib, &paths[i], &c, &res);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            json_t *r = tc_gemm_case_json(&res);
            tc_gemm_case_result_free(&res);
            if (sim)
                tc_gemm_lib_sim_free(&lib);
            last = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, last_work = work, spent += last;
            tc_progress_clear(&prog);   /* the case line starts on a clean line */
            print_case(a.json ? stderr : stdout, r, ++done, total, last);
            tc_progress_update(&prog, (size_t)done);
            failed += json_object_get(r, "error") != NULL;
            tc_json_out_put(&out, "gemm", r);
        }
    }
    tc_progress_clear(&prog);
    tc_json_out_end(&out, NULL);
    cli_model_on_close(&mo);
    return failed ? cli_fail(CMD, "%d case(s) failed (see their records)", failed) : TC_EXIT_OK;
}
