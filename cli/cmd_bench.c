/* tcscope bench: latency and throughput of catalogue instructions on the GPU
 * (probes/timing.h) and the cuBLAS reference, as a bench record
 * (reports/record_bench.h) on stdout (--json) and/or in a file (--out). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/fleet.h"
#include "cli/run_info.h"
#include "probes/probes.h"
#include "probes/timing.h"
#include "reports/record_bench.h"
#include "reports/render.h"
#include "reports/reports.h"

typedef struct {
    const char *instr;
    const char *out;
    const char *sass;
    const char *backend;  /* gpu:all or gpu:I,J,..: every GPU, one worker each (cli/fleet.h) */
    bool json, if_gpu, no_cublas, force, no_whole_gpu;
    int device, cublas_size;
} bench_args;

typedef enum { O_INSTR, O_BACKEND, O_DEVICE, O_OUT, O_FORCE, O_SASS, O_NO_CUBLAS, O_CUBLAS_SIZE, O_IF_GPU, O_JSON,
               O_NO_WHOLE_GPU } bench_opt;
static const cli_option opts[] = {
    [O_INSTR] = {"--instr", "NAME[,NAME..]|all", "the instructions to time (default all)"},
    [O_BACKEND] = {"--backend", "B", "gpu or gpu:N, the GPU timed (default gpu:0); gpu:all or gpu:I,J,..: every GPU "
                                     "named, one worker each: DIR/gpuN/bench.json, DIR/fleet.json (needs --out)"},
    [O_DEVICE] = {CLI_ALIAS_HINT("--device", "--backend", "--backend gpu:N")},
    [O_OUT] = {"--out", "DIR", "write DIR/bench.json, the bench record (tcscope-record/1); an earlier one is kept unless --force"},
    [O_FORCE] = {"--force", NULL, "replace an earlier DIR/bench.json"},
    [O_SASS] = {"--sass", "FILE", "check the opcodes against this disassembly (default: the build's .sass file or cuobjdump)"},
    [O_NO_CUBLAS] = {"--no-cublas", NULL, "skip the cuBLAS reference GEMM"},
    [O_CUBLAS_SIZE] = {"--cublas-size", "N", "the cuBLAS GEMM's M = N = K, a multiple of 256", 256, 16384},
    [O_IF_GPU] = {"--if-gpu", NULL, "with no GPU: one line saying it was skipped, exit 0 (make bench)"},
    [O_JSON] = {"--json", NULL, "the bench record (tcscope-record/1) on stdout, an object per instruction as it is timed"},
    [O_NO_WHOLE_GPU] = {"--no-whole-gpu", NULL, "skip the whole-GPU TFLOP/s runs (latency and the per-SM table only; regress)"},
};
const cli_command cmd_bench_cli = {"bench", "latency and throughput of each instruction on the GPU, and cuBLAS",
                                   NULL, NULL, opts, CLI_NOPTS(opts), false};

/* "gpu" (device 0), "gpu:N", or the bare N of the old --device N. */
static bool one_gpu(const char *v, int *device)
{
    if (!strcmp(v, "gpu")) {
        *device = 0;
        return true;
    }
    const char *n = !strncmp(v, "gpu:", 4) ? v + 4 : v;
    if (!*n || strlen(n) > 2 || strspn(n, "0123456789") != strlen(n) || atoi(n) > 64)
        return false;
    *device = atoi(n);
    return true;
}

/* --out FILE.json: the old form (a file, not a folder). */
static bool old_out_form(const char *out)
{
    size_t n = strlen(out);
    return (n >= 5 && !strcmp(out + n - 5, ".json")) || (n >= 6 && !strcmp(out + n - 6, ".jsonl"));
}

static int parse(int argc, char **argv, bench_args *a)
{
    memset(a, 0, sizeof *a);
    a->instr = "all";
    a->cublas_size = 8192;
    cli_scan sc = cli_scan_start(&cmd_bench_cli, argc, argv);
    while (cli_next(&sc))
        switch ((bench_opt)sc.opt) {
        case O_INSTR: a->instr = sc.val; break;
        case O_BACKEND:
            if (!cli_fleet_spec(sc.val) && !one_gpu(sc.val, &a->device))
                return cli_fail("bench", "--backend %s: bench times the GPU: gpu, gpu:N, gpu:all or gpu:I,J,..", sc.val);
            a->backend = cli_fleet_spec(sc.val) ? sc.val : NULL;
            break;
        case O_DEVICE: break;   /* the old spelling: cli_next answers as --backend */
        case O_OUT: a->out = sc.val; break;
        case O_FORCE: a->force = true; break;
        case O_SASS: a->sass = sc.val; break;
        case O_NO_CUBLAS: a->no_cublas = true; break;
        case O_CUBLAS_SIZE:
            a->cublas_size = (int)sc.count;
            if (a->cublas_size % 256)
                return cli_fail("bench", "bad --cublas-size '%s' (a multiple of 256, 256..16384)", sc.val);
            break;
        case O_IF_GPU: a->if_gpu = true; break;
        case O_JSON: a->json = true; break;
        case O_NO_WHOLE_GPU: a->no_whole_gpu = true; break;
        }
    if (sc.status)
        return sc.status;
    if (cli_list_check("bench", "--instr", a->instr, true) != TC_EXIT_OK)
        return TC_EXIT_USAGE;
    if (a->out && old_out_form(a->out)) {
        if (a->backend)
            return cli_fail("bench", "--backend %s: --out is a folder (DIR/fleet.json, DIR/gpuN/bench.json), not %s",
                            a->backend, a->out);
        cli_warn("bench", "--out %s: a file is the old form of --out; --out DIR writes DIR/bench.json", a->out);
    }
    return -1;
}

/* --out DIR: DIR/bench.json; the old --out FILE: its folder and the name inside it (a plain name). */
static int open_out(const bench_args *a, tc_outdir *d, const char **name)
{
    char err[600], dir[4096];
    if (!old_out_form(a->out)) {
        *name = "bench.json";
        if (tc_outdir_open(d, a->out, a->force, err, sizeof err) || tc_out_check_free(d, name, 1, err, sizeof err)) {
            tc_outdir_close(d);
            return cli_fail("bench", "%s", err);
        }
        return TC_EXIT_OK;
    }
    const char *slash = strrchr(a->out, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - a->out) + (slash == a->out) : 1, slash ? a->out : ".");
    *name = slash ? slash + 1 : a->out;
    if (!tc_out_name_ok(*name, err, sizeof err))
        return cli_fail("bench", "--out %s: %s", a->out, err);
    if (tc_outdir_open_for_file(d, dir, a->force, err, sizeof err) || tc_out_check_free(d, name, 1, err, sizeof err)) {
        tc_outdir_close(d);
        return cli_fail("bench", "%s", err);
    }
    return TC_EXIT_OK;
}

/* One figure of --if-gpu without a GPU (SCHEMA.md "Command output": a "figure" object). */
static void print_line(tc_json_out *out, const char *bench, const char *instr, json_t *value, const char *unit,
                       const char *machine, json_t *extra)
{
    json_t *o = json_object();
    json_object_set_new(o, "bench", json_string(bench));
    json_object_set_new(o, "instr", instr ? json_string(instr) : json_null());
    json_object_set_new(o, "value", value);
    json_object_set_new(o, "unit", json_string(unit));
    json_object_set_new(o, "machine", json_string(machine));
    if (extra)
        json_object_update(o, extra);
    tc_json_out_put(out, "figure", o);
}

/* The text line of one instruction. */
static void print_instr(const tc_bench_result *r)
{
    static const char *const what[] = {"", "not timed", "REFUSED", "ERROR"};
    if (r->status != TC_BENCH_TIMED) {
        printf("%-40s %s: %s\n", r->instr, what[r->status], r->why);
        return;
    }
    printf("%-40s %-8s%s lat %7.2f (+-%.2f) cyc  best %7.1f FMA/clk/SM (ilp %d, %2d warps) = %5.1f%% of peak",
           r->instr, r->sass_verdict, r->emulated ? " EMULATED" : "", r->latency, r->latency_spread, r->best_fma,
           r->best_ilp, r->best_warps, r->peak > 0 ? 100 * r->best_fma / r->peak : NAN);
    if (r->has_whole)
        printf("  %7.1f / %7.1f TFLOP/s rand/zero at %4.0f MHz %4.0f W", r->whole[0].tflops, r->whole[1].tflops,
               r->whole[0].nvml.sm_clock_mean, r->whole[0].nvml.power_mean);
    printf("\n");
    fflush(stdout);
}

/* An object of the record: printed with --json, kept for --out. false when
 * the schema refuses it (a bug; said on stderr). */
static bool put(tc_json_out *out, tc_record *rec, bool keep, const char *kind, json_t *o)
{
    char err[300];
    tc_json_out_put(out, kind, json_deep_copy(o));
    if (!keep) {
        json_decref(o);
        return true;
    }
    if (tc_record_add(rec, o, err, sizeof err) == 0)
        return true;
    cli_warn("bench", "%s", err);
    return false;
}

int cmd_bench(int argc, char **argv)
{
    bench_args a;
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.backend) {
        cli_fleet_job j = {"bench", argc, argv, a.backend, a.out, a.instr, false, false, 0};
        return cli_fleet_run(&j);
    }
    tc_outdir d = {.fd = -1};
    const char *out_name = NULL;
    if (a.out && (rc = open_out(&a, &d, &out_name)) != TC_EXIT_OK)
        return rc;
    tc_bench_opts o = {.device = a.device, .sass_path = a.sass, .no_whole_gpu = a.no_whole_gpu};
    char err[600];
    tc_bench *b = tc_bench_open(&o, err, sizeof err);
    if (!b) {
        if (a.if_gpu) {
            struct utsname u;
            json_t *x = json_object();
            json_object_set_new(x, "skipped", json_string(err));
            tc_json_out out;
            tc_json_out_begin(&out, a.json, tc_record_header("bench", NULL, NULL, 0));
            if (!a.json)
                printf("bench: skipped, no GPU: %s\n", err);
            print_line(&out, "gpu", NULL, json_null(), "", uname(&u) == 0 ? u.nodename : "unknown", x);
            json_decref(x);
            tc_json_out_end(&out, NULL);
            tc_outdir_close(&d);
            return TC_EXIT_OK;
        }
        tc_outdir_close(&d);
        return cli_no_gpu_instead("bench", err, "the H100's recorded timing is reports/baselines/h100-bench.json.gz "
                                                "(audit --timing and choose --bench read it)");
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const char *gpu = tc_bench_gpu_name(b);
    tc_bench_machine m;
    tc_bench_machine_read(b, &m);
    tc_run_info run = cli_run_info(&m.run);
    tc_record rec = tc_record_new(tc_bench_header(&m, &run));
    tc_json_out out;
    tc_json_out_begin(&out, a.json, json_deep_copy(rec.header));
    bool keep = a.out != NULL, ok = true;
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    tc_bench_result *r = malloc(sizeof *r);
    if (!r)
        abort();
    size_t steps = a.no_cublas ? 0 : 4, done = 0;   /* the instructions timed, then the cuBLAS GEMMs */
    for (size_t i = 0; i < n; i++)
        steps += cli_instr_selected(a.instr, cat[i].name);
    tc_progress prog;   /* a bar on a terminal, plain lines in a log (reports/progress.c) */
    tc_progress_start(&prog, "bench", steps);
    for (size_t i = 0; i < n; i++) {
        if (!cli_instr_selected(a.instr, cat[i].name))
            continue;
        tc_bench_instr(b, &cat[i], r);
        tc_progress_clear(&prog);   /* the line starts clean, the bar below it */
        if (!a.json)
            print_instr(r);
        fflush(stdout);
        ok &= put(&out, &rec, keep, "bench", tc_bench_object(r));
        tc_progress_update(&prog, ++done);
    }
    free(r);
    if (!a.no_cublas) {
        static const char *const types[] = {"f16", "bf16", "tf32", "fp8"};
        for (int i = 0; i < 4; i++) {
            tc_bench_gemm c;
            tc_bench_cublas(b, types[i], a.cublas_size, &c);
            tc_progress_clear(&prog);
            if (!a.json && !c.ok)
                printf("cuBLAS %-5s %d^3: %s\n", types[i], a.cublas_size, c.error);
            else if (!a.json)
                printf("cuBLAS %-5s %d^3: %7.1f TFLOP/s (best %.1f)\n", types[i], a.cublas_size, c.tflops, c.tflops_best);
            fflush(stdout);
            ok &= put(&out, &rec, keep, "figure", tc_bench_cublas_figure(&c, gpu));
            tc_progress_update(&prog, ++done);
        }
    }
    tc_progress_end(&prog);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    ok &= put(&out, &rec, keep, "figure", tc_bench_elapsed_figure(secs, gpu));
    tc_json_out_end(&out, NULL);
    rc = TC_EXIT_OK;
    if (!ok)
        rc = cli_fail("bench", "the record was not written: an object the schema refuses (see above)");
    else if (a.out && tc_record_write(&d, out_name, &rec, NULL, err, sizeof err) != 0)
        rc = cli_fail("bench", "%s", err);
    tc_outdir_close(&d);
    tc_record_free(&rec);
    tc_bench_close(b);
    return rc;
}
