/* tcscope regress: is this GPU, driver and toolkit still the baseline's?
 * On a GPU, first and alone on it, each instruction's SASS opcode, latency
 * and throughput at the baseline's best point are timed and compared with
 * the baseline audit record (cli/regress_bench.c; a figure that moved is
 * measured again with the whole table, which decides). Then every
 * instruction of the baseline profile is verified here with N random
 * elements and the hunt families (`tcscope verify` children, a slice of the
 * instructions each, started with the timing and held until it ends:
 * cli/regress_verify.c); only what fails is refitted
 * (`tcscope audit --part`), and the fields that moved are listed with the
 * case that decides them. The summary line says where the time went.
 * Exit 0 same, 1 a difference, 2 no GPU (unless --model: the recorded model
 * replayed, which proves the pipeline, not any hardware) or bad input.
 * This file reads the options and runs the stages; what they said is
 * compared with the baseline in cli/regress_compare.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/record_arg.h"
#include "cli/run_info.h"
#include "cli/fleet.h"
#include "cli/model_on.h"
#include "cli/pool.h"
#include "cli/regress.h"
#include "oracle/profile.h"
#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "reports/reports.h"
#include "probes/clock.h"

#define DEFAULT_RECORD "reports/baselines/h100-audit.jsonl.gz"
/* --cross-gpu's elements per instruction: every GPU runs every instruction's
 * inputs, written as text and compared bit for bit (about 28 bytes an
 * element): 10^5 of all 252 took 37 s of a 2-GPU run's 52 s on two H200s. */
#define REGRESS_CROSS_N 4096

typedef enum { O_BACKEND, O_MODEL, O_PROFILE, O_RECORD, O_BENCH_RECORD, O_INSTR, O_OUT, O_N, O_HUNT_N, O_SEED, O_JOBS, O_TOL,
               O_NO_TIMING, O_JSON, O_CROSS_GPU, O_CROSS_N, O_CROSS_RUN, O_MODEL_ON, O_OLD_N, O_OLD_HUNT_N } regress_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "the backend checked (default gpu; a software backend only with --backend); "
                                     "gpu:all or gpu:I,J,..: the instructions dealt out across the GPUs, one worker "
                                     "each (OUT/fleet.json; --cross-gpu runs every instruction on every GPU)"},
    [O_MODEL] = {"--model", NULL, "no GPU: replay the recorded model (model:h100), labelled; proves the pipeline only"},
    [O_PROFILE] = {"--profile", "P", "the baseline fingerprints (default h100: oracle/profiles/h100.profile)"},
    [O_RECORD] = {"--record", "AUDIT.jsonl[.gz]", "the baseline audit record, for SASS and timing "
                                                  "(default reports/baselines/h100-audit.jsonl.gz)"},
    [O_BENCH_RECORD] = {"--bench-record", "BENCH", "the baseline's bench record, for the best point of each "
                                                   "table timed again (default: NAME-bench.json.gz beside "
                                                   "NAME-audit.jsonl.gz, when it is of the same run)"},
    [O_INSTR] = {"--instr", "NAME[,NAME..]|all", "the instructions checked (default all of the profile)"},
    [O_OUT] = {"--out", "DIR", "scratch folder: the bench record and the refits (default out/regress)"},
    [O_N] = {"--count", "COUNT", "random elements per instruction (default 1e5)", 1, 1000000000ull},
    [O_HUNT_N] = {"--hunt-count", "PER_FAMILY", "elements per hunt family (default COUNT / 16)", 1, 100000000ull},
    [O_SEED] = {"--seed", "S", "random seed (default 0x4e6e55)"},
    [O_JOBS] = {"--jobs", "J", "checks at once, one child process each (default: one per CPU, at most 8)", 1, 1024},
    [O_TOL] = {"--timing-tol", "X", "latency or throughput differing by more than X is a difference: 0.05 or 5% "
                                    "(default 5%; 0..100%)"},
    [O_NO_TIMING] = {"--no-timing", NULL, "compare neither SASS nor timing"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one regress object per instruction"},
    [O_CROSS_GPU] = {"--cross-gpu", NULL, "with gpu:all or gpu:I,J,..: also the same random inputs of every "
                                          "instruction on every GPU, the output bits compared"},
    [O_CROSS_N] = {"--cross-count", "COUNT", "--cross-gpu's random elements per instruction (default 4096)", 1,
                   TC_CORPUS_MAX_ELEMS},
    [O_CROSS_RUN] = {"--cross-run", "NAME[,NAME..]|all", "a --cross-gpu worker's (one GPU): these instructions' "
                                                         "--cross-count random inputs run after the timing, "
                                                         "their output bits in OUT/cross.txt"},
    [O_MODEL_ON] = {"--model-on", "gpu[:N]|cpu", "what computes the expected answers of each check: the GPU model "
                                                "(the default where a GPU is present; on the checked GPU) or the CPU's"},
    [O_OLD_N] = {CLI_ALIAS("--n", "--count")},
    [O_OLD_HUNT_N] = {CLI_ALIAS("--hunt-n", "--hunt-count")},
};
const cli_command cmd_regress_cli = {REGRESS_CMD, "this GPU, driver and toolkit against a baseline audit: exit 0 same, "
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
        case O_BENCH_RECORD: a->bench_record = v; break;
        case O_INSTR: a->instr = v; break;
        case O_OUT: a->out = v; break;
        case O_N: a->n = (size_t)sc.count; break;
        case O_HUNT_N: a->hunt_n = (size_t)sc.count; break;
        case O_SEED:
            if (!cli_seed(REGRESS_CMD, "--seed", v, &a->seed))
                return TC_EXIT_USAGE;
            break;
        case O_JOBS: a->jobs = (unsigned)sc.count; break;
        case O_TOL:
            if (!cli_tolerance(REGRESS_CMD, "--timing-tol", v, &a->tol))
                return TC_EXIT_USAGE;
            break;
        case O_NO_TIMING: a->timing = false; break;
        case O_JSON: a->json = true; break;
        case O_CROSS_GPU: a->cross_gpu = true; break;
        case O_CROSS_N: a->cross_n = (size_t)sc.count; break;
        case O_CROSS_RUN: a->cross_run = v; break;
        case O_MODEL_ON: a->model_on = v; break;
        case O_OLD_N: case O_OLD_HUNT_N: break;   /* old spellings: cli_next answers as the new ones */
        }
    }
    if (sc.status)
        return sc.status;
    if (a->backend && a->model)
        return cli_fail(REGRESS_CMD, "--model and --backend exclude each other (--model is --backend model:h100, said so)");
    if (cli_model_on_check(REGRESS_CMD, a->model_on) != TC_EXIT_OK)
        return TC_EXIT_USAGE;
    if (a->cross_gpu && !cli_fleet_spec(a->backend))
        return cli_fail(REGRESS_CMD, "--cross-gpu needs --backend gpu:all or gpu:I,J,.. (several GPUs to compare)");
    if (a->cross_n && !a->cross_gpu && !a->cross_run)
        return cli_fail(REGRESS_CMD, "--cross-count is --cross-gpu's count: give --cross-gpu too");
    if (a->cross_run && (a->cross_gpu || cli_fleet_spec(a->backend)))
        return cli_fail(REGRESS_CMD, "--cross-run is one GPU's share of --cross-gpu (its workers'): not with "
                                     "--cross-gpu or several GPUs");
    if (a->cross_run && cli_list_check(REGRESS_CMD, "--cross-run", a->cross_run, true) != TC_EXIT_OK)
        return TC_EXIT_USAGE;
    if (a->cross_run && !a->cross_n)
        a->cross_n = REGRESS_CROSS_N;
    return cli_list_check(REGRESS_CMD, "--instr", a->instr, true);
}


static char **refit_argv(void *vc, size_t q)
{
    regress_ctx *c = vc;
    return c->argv + c->idx[q] * REGRESS_NARGS;
}

static void set_args(regress_ctx *c, size_t i, const char *const *v)
{
    char **dst = c->argv + i * REGRESS_NARGS;
    for (int k = 0; v[k] && k < REGRESS_NARGS - 1; k++)
        dst[k] = (char *)v[k];
}

int cmd_regress(int argc, char **argv)
{
    regress_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != TC_EXIT_OK)
        return rc;
    if (cli_fleet_spec(a.backend)) { /* every GPU of the node (cli/fleet.h): a share of the instructions each */
        cli_fleet_job j = {REGRESS_CMD, argc, argv, a.backend, a.out, a.instr, true, a.cross_gpu,
                           a.cross_n ? a.cross_n : REGRESS_CROSS_N};
        return cli_fleet_run(&j);
    }
    char err[600], ppath[4200], rpath[4200];
    bool given = strcmp(a.record, DEFAULT_RECORD) != 0;
    if (!given) /* the default is data beside the binary, not the working folder */
        tc_data_path(DEFAULT_RECORD, rpath, sizeof rpath), a.record = rpath;
    /* read on a thread while the backend makes its context (cli/regress_base.c): one given is
     * checked before any check starts (a missing file or another kind of record would be found
     * after the run); the default only for the timing */
    const char *spec = a.backend ? a.backend : a.model ? "model:h100" : "gpu";
    regress_base base = {.started = false};
    if (given || (a.timing && !strncmp(spec, "gpu", 3)))
        regress_base_start(&base, a.record);
    tc_backend *be = tc_backend_open(spec, err, sizeof err);
    if (!be) {
        regress_base_free(&base);
        if (!a.backend && !a.model)
            return cli_no_gpu_instead(REGRESS_CMD, err, "--model replays the recorded model " CLI_RECORDED_MODEL
                                      " (it proves the pipeline, not any hardware)");
        return cli_fail(REGRESS_CMD, "%s", err);
    }
    const tc_backend_info *info = tc_backend_get_info(be);
    model_profile prof;
    if (!tc_profile_path(a.profile, ppath, sizeof ppath) || profile_load(ppath, &prof, err, sizeof err) != 0) {
        tc_backend_close(be);
        regress_base_free(&base);
        return cli_fail(REGRESS_CMD, "--profile %s: %s", a.profile, tc_profile_path(a.profile, ppath, sizeof ppath) ? err : "not found");
    }
    const tc_record *rec = given ? regress_base_wait(&base) : NULL;
    int bad = !given ? TC_EXIT_OK
              : !rec ? cli_fail(REGRESS_CMD, "--record: %s", base.err)
                     : cli_record_holds(REGRESS_CMD, "--record", a.record, "audit", rec);
    tc_outdir d;
    if (bad != TC_EXIT_OK || tc_outdir_open(&d, a.out, true, err, sizeof err) != 0) {
        profile_free(&prof);
        tc_backend_close(be);
        regress_base_free(&base);
        return bad != TC_EXIT_OK ? bad : cli_fail(REGRESS_CMD, "%s", err);
    }
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    regress_ctx c = {.a = &a, .record = &base, .backend = info->backend};
    c.it = calloc(count, sizeof *c.it);
    c.argv = calloc(count * REGRESS_NARGS, sizeof *c.argv);
    c.dir = calloc(count, sizeof *c.dir);
    c.idx = calloc(count, sizeof *c.idx);
    int status = TC_EXIT_OK;
    tc_json_out out = {.on = false}; /* begun once there is something to check */
    if (!c.it || !c.argv || !c.dir || !c.idx) {
        status = cli_fail(REGRESS_CMD, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < count; i++) {
        const model_params *p = profile_lookup(&prof, cat[i].name);
        if (!p || !cli_instr_selected(a.instr, cat[i].name) || !tc_backend_supports(be, &cat[i], err, sizeof err))
            continue;
        c.it[c.n++] = (regress_item){.ins = &cat[i], .base = p, .diffs = json_array()};
    }
    if (c.n == 0) {
        status = cli_fail(REGRESS_CMD, "no instruction of --profile %s to check ('%s' on %s)", a.profile, a.instr, info->backend);
        goto done;
    }
    bool gpu = info->sm > 0;
    unsigned cpus = tc_pool_cpus(), jobs = a.jobs ? a.jobs : cpus < REGRESS_MAX_JOBS ? cpus : REGRESS_MAX_JOBS;
    double t0 = tc_now_s();
    if (!a.json)
        printf("# tcscope regress on %s (%s)%s against %s: %zu instructions, %zu random elements each and %zu per "
               "hunt family, %u at a time\n", info->backend, info->device,
               gpu ? "" : "  [RECORDED MODEL REPLAYED, NOT HARDWARE]", ppath, c.n, a.n,
               a.hunt_n ? a.hunt_n : a.n / 16 ? a.n / 16 : 1, jobs);
    uint64_t seeds[1] = {a.seed};
    json_t *hdr = cli_record_header(REGRESS_CMD, info, seeds, 1);
    json_object_set_new(hdr, "profile", json_string(ppath));
    json_object_set_new(hdr, "baseline_record", json_string(a.record));
    tc_json_out_begin(&out, a.json, hdr);
    fflush(stdout);
    /* the checks' arguments: a slice of the instructions a `verify` child (cli/regress_verify.c) */
    snprintf(c.args[0], sizeof c.args[0], "%zu", a.n);
    snprintf(c.args[1], sizeof c.args[1], "%zu", a.hunt_n ? a.hunt_n : a.n / 16 ? a.n / 16 : 1);
    snprintf(c.args[2], sizeof c.args[2], "0x%llx", (unsigned long long)a.seed);
    /* the timing first, alone on the GPU (in this process: cli/regress_bench.c); the checks'
     * children start with it, make their contexts while it reads the SASS, and wait for it */
    double stage_s[3] = {0, 0, 0};   /* timing, verify, refit */
    double ts = tc_now_s();
    bool early = gpu && a.timing && regress_verify_start(&c, ppath, jobs) == 0;
    if (gpu && a.timing)
        regress_time(&c, &d);
    regress_gate_open(&c);
    stage_s[0] = tc_now_s() - ts;
    /* a --cross-gpu worker's share: the cross-GPU inputs' bits, here, beside the checks (cli/regress_cross.c) */
    if (a.cross_run)
        regress_cross(&c, be, &d);
    /* verify every fingerprint */
    ts = tc_now_s();
    if (regress_verify(&c, ppath, jobs) != 0) {
        status = cli_fail(REGRESS_CMD, "stopped: a check could not run (a device error or a bad setting); see above");
        goto done;
    }
    stage_s[1] = tc_now_s() - ts;
    /* refit what failed */
    size_t nfail = 0;
    for (size_t i = 0; i < c.n; i++) {
        if (c.it[i].verify == 0)
            continue;
        if (c.it[i].verify != 1) {
            status = cli_fail(REGRESS_CMD, "%s: the check exited with %d", c.it[i].ins->name, c.it[i].verify);
            goto done;
        }
        snprintf(c.dir[i], sizeof c.dir[i], "%s/refit/%s", a.out, c.it[i].ins->name);
        const char *v[] = {"audit", "--part", "--backend", c.backend, "--instr", c.it[i].ins->name, "--count", c.args[0],
                           "--hunt-count", c.args[1], "--seed", c.args[2], "--no-timing", "--out", c.dir[i], "--force",
                           a.model_on ? "--model-on" : NULL, a.model_on, NULL};
        memset(c.argv + i * REGRESS_NARGS, 0, REGRESS_NARGS * sizeof *c.argv);
        set_args(&c, i, v);
        c.idx[nfail++] = i;
    }
    ts = tc_now_s();
    if (nfail) {
        tc_pool rp = {nfail, "refit", refit_argv, regress_refit_done, &c, NULL};
        tc_pool_run(&rp, jobs);
    }
    stage_s[2] = tc_now_s() - ts;
    size_t ndiff = 0;
    for (size_t i = 0; i < c.n; i++) {
        if (c.it[i].verify == 1 && json_array_size(c.it[i].diffs) == 0)
            regress_add_diff(&c.it[i], "arithmetic", NULL, json_string("verified"),
                     json_string("mismatches, but the refit reproduces the baseline's fields"), NULL);
        ndiff += json_array_size(c.it[i].diffs) > 0;
        regress_print_item(&c.it[i], &out);
    }
    if (!a.json)   /* a slice much slower than the others would say the slicing is uneven */
        printf("# verify: %zu slices, a child each, of %.1f to %.1f s%s\n", c.nslices, c.slice_s[0], c.slice_s[1],
               early ? " (started with the timing, held until it ended)" : "");
    if (!a.json)
        printf("# %zu instructions: %zu same, %zu differ (%zu refitted); %s; %.0f s (timing %.1f s, verify %.1f s "
               "%sin %zu children, refit %.1f s)\n", c.n, c.n - ndiff, ndiff, nfail,
               gpu && a.timing ? "SASS and timing compared (tolerance given by --timing-tol)"
                               : "SASS and timing not compared (no GPU, or --no-timing)",
               tc_now_s() - t0, stage_s[0], stage_s[1], early ? "more " : "", c.nslices + c.nretried, stage_s[2]);
    status = ndiff ? TC_EXIT_DIFF : TC_EXIT_OK;
done:
    regress_verify_join(&c);   /* stopped before the checks: the early children let go and awaited */
    tc_json_out_end(&out, status == TC_EXIT_USAGE ? "stopped on an error (see stderr)" : NULL);
    for (size_t i = 0; c.it && i < c.n; i++)
        json_decref(c.it[i].diffs), json_decref(c.it[i].failure);
    for (size_t s = 0; c.lists && s < c.nslices; s++)
        free(c.lists[s]);
    free(c.it), free(c.argv), free(c.dir), free(c.idx), free(c.lists), free(c.answered);
    tc_outdir_close(&d);
    profile_free(&prof);
    tc_backend_close(be);
    regress_base_free(&base);
    return status;
}
