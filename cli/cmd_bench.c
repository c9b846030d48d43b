/* tcscope bench: latency and throughput of catalogue instructions on the GPU
 * (probes/timing.h), a JSON record, and the cuBLAS reference. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/fleet.h"
#include "probes/probes.h"
#include "probes/timing.h"
#include "reports/reports.h"
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
    [O_INSTR] = {"--instr", "NAME|all", "the instructions to time (default all)"},
    [O_BACKEND] = {"--backend", "gpu:all|gpu:I,J,..", "every GPU named times the instructions, one worker each: "
                                                      "FILE.gpuN.json each, FILE the fleet record (needs --out)"},
    [O_DEVICE] = {"--device", "N", "the CUDA device", 0, 64},
    [O_OUT] = {"--out", "FILE", "write the record to FILE (must not exist, unless --force)"},
    [O_FORCE] = {"--force", NULL, "replace --out FILE"},
    [O_SASS] = {"--sass", "FILE", "check the opcodes against this disassembly (default: cuobjdump of this binary)"},
    [O_NO_CUBLAS] = {"--no-cublas", NULL, "skip the cuBLAS reference GEMM"},
    [O_CUBLAS_SIZE] = {"--cublas-size", "N", "the cuBLAS GEMM's M = N = K, a multiple of 256", 256, 16384},
    [O_IF_GPU] = {"--if-gpu", NULL, "with no GPU: one line saying it was skipped, exit 0 (make bench)"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one figure object per figure"},
    [O_NO_WHOLE_GPU] = {"--no-whole-gpu", NULL, "skip the whole-GPU TFLOP/s runs (latency and the per-SM table only; regress)"},
};
const cli_command cmd_bench_cli = {"bench", "latency and throughput of each instruction on the GPU, and cuBLAS",
                                   NULL, NULL, opts, CLI_NOPTS(opts), false};

static int parse(int argc, char **argv, bench_args *a)
{
    memset(a, 0, sizeof *a);
    a->instr = "all";
    a->cublas_size = 8192;
    cli_scan sc = cli_scan_start(&cmd_bench_cli, argc, argv);
    while (cli_next(&sc))
        switch ((bench_opt)sc.opt) {
        case O_INSTR: a->instr = sc.val; break;
        case O_BACKEND: a->backend = sc.val; break;
        case O_DEVICE: a->device = (int)sc.count; break;
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
    if (strcmp(a->instr, "all") && !tc_instr_by_name(a->instr))
        return cli_unknown_instr("bench", "--instr", a->instr);
    if (a->backend && !cli_fleet_spec(a->backend))
        return cli_fail("bench", "--backend %s: bench takes gpu:all or gpu:I,J,.. (one GPU: --device N)", a->backend);
    return -1;
}

/* --out FILE: the folder and the name inside it (a plain name). */
static int open_out(const bench_args *a, tc_outdir *d, const char **name)
{
    char err[600], dir[4096];
    const char *slash = strrchr(a->out, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - a->out) + (slash == a->out) : 1, slash ? a->out : ".");
    *name = slash ? slash + 1 : a->out;
    if (!tc_out_name_ok(*name, err, sizeof err))
        return cli_fail("bench", "--out %s: %s", a->out, err);
    if (tc_outdir_open(d, dir, a->force, err, sizeof err) || tc_out_check_free(d, name, 1, err, sizeof err)) {
        tc_outdir_close(d);
        return cli_fail("bench", "%s", err);
    }
    return TC_EXIT_OK;
}

static int emit_bench(FILE *f, const void *rec)
{
    return json_dumpf(rec, f, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
}

/* One figure of --json (SCHEMA.md "Command output": a "figure" object). */
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

static json_t *num(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return v ? json_incref(v) : json_null();
}

static void print_instr(json_t *r, tc_json_out *out, const char *gpu)
{
    const char *name = json_string_value(json_object_get(r, "instr"));
    const char *why = json_string_value(json_object_get(r, "not_timed"));
    const char *refused = json_string_value(json_object_get(r, "refused"));
    const char *error = json_string_value(json_object_get(r, "error"));
    if (out->on) {
        json_t *extra = json_object();
        json_object_set(extra, "emulated", json_object_get(r, "emulated") ? json_object_get(r, "emulated") : json_false());
        json_object_set_new(extra, "sass", num(r, "sass"));
        if (why || refused || error) {
            json_object_set_new(extra, why ? "not_timed" : refused ? "refused" : "error",
                                json_string(why ? why : refused ? refused : error));
            print_line(out, "latency", name, json_null(), "cycles", gpu, extra);
        } else {
            json_object_set_new(extra, "spread", num(r, "latency_spread_cycles"));
            print_line(out, "latency", name, num(r, "latency_cycles"), "cycles", gpu, extra);
            json_object_del(extra, "spread");
            json_object_set_new(extra, "ilp", num(r, "best_ilp"));
            json_object_set_new(extra, "warps_per_sm", num(r, "best_warps_per_sm"));
            print_line(out, "best_fma_per_clk_per_sm", name, num(r, "best_fma_per_clk_per_sm"), "FMA/clk/SM", gpu, extra);
            print_line(out, "fraction_of_peak", name, num(r, "fraction_of_peak"), "fraction", gpu, extra);
            json_t *w = json_object_get(r, "whole_gpu");
            json_object_del(extra, "ilp");
            json_object_del(extra, "warps_per_sm");
            for (int z = 0; z < 2 && json_is_object(w); z++) {
                json_t *x = json_object_get(w, z ? "zero" : "random");
                json_object_set_new(extra, "sm_clock_mhz", num(x, "sm_clock_mhz_mean"));
                json_object_set_new(extra, "power_w", num(x, "power_w_mean"));
                print_line(out, z ? "tflops_zero" : "tflops_random", name, num(x, "tflops"), "TFLOP/s", gpu, extra);
            }
        }
        json_decref(extra);
        return;
    }
    if (why || refused || error) {
        printf("%-40s %s: %s\n", name, why ? "not timed" : refused ? "REFUSED" : "ERROR",
               why ? why : refused ? refused : error);
        return;
    }
    json_t *w = json_object_get(r, "whole_gpu");
    json_t *rnd = json_object_get(w, "random"), *zer = json_object_get(w, "zero");
    printf("%-40s %-8s%s lat %7.2f (+-%.2f) cyc  best %7.1f FMA/clk/SM (ilp %lld, %2lld warps) = %5.1f%% of peak",
           name, json_string_value(json_object_get(r, "sass")),
           json_is_true(json_object_get(r, "emulated")) ? " EMULATED" : "",
           json_real_value(json_object_get(r, "latency_cycles")),
           json_real_value(json_object_get(r, "latency_spread_cycles")),
           json_real_value(json_object_get(r, "best_fma_per_clk_per_sm")),
           json_integer_value(json_object_get(r, "best_ilp")),
           json_integer_value(json_object_get(r, "best_warps_per_sm")),
           100 * json_number_value(json_object_get(r, "fraction_of_peak")));
    if (json_is_object(w))
        printf("  %7.1f / %7.1f TFLOP/s rand/zero at %4.0f MHz %4.0f W", json_real_value(json_object_get(rnd, "tflops")),
               json_real_value(json_object_get(zer, "tflops")), json_number_value(json_object_get(rnd, "sm_clock_mhz_mean")),
               json_number_value(json_object_get(rnd, "power_w_mean")));
    printf("\n");
    fflush(stdout);
}

/* Best fraction of peak per dense wgmma type (d.a.b, .rs apart) over its N:
 * the figure the >= 97% promise is about. */
static json_t *type_best(json_t *list)
{
    json_t *best = json_object();
    size_t i;
    json_t *r;
    json_array_foreach(list, i, r) {
        const char *name = json_string_value(json_object_get(r, "instr"));
        json_t *f = json_object_get(r, "fraction_of_peak");
        if (strncmp(name, "wgmma.m", 7) || !json_is_number(f))
            continue;
        /* "wgmma.m64n256k16.f32.f16.f16[.rs]" -> "wgmma.f32.f16.f16[.rs]" */
        const char *types = strchr(name + 6, '.');
        char key[96];
        snprintf(key, sizeof key, "wgmma%s", types ? types : "");
        json_t *cur = json_object_get(best, key);
        if (cur && json_number_value(json_object_get(cur, "fraction_of_peak")) >= json_number_value(f))
            continue;
        json_t *e = json_object();
        json_object_set_new(e, "instr", json_string(name));
        json_object_set(e, "fraction_of_peak", f);
        json_object_set(e, "best_fma_per_clk_per_sm", json_object_get(r, "best_fma_per_clk_per_sm"));
        json_object_set_new(best, key, e);
    }
    return best;
}

int cmd_bench(int argc, char **argv)
{
    bench_args a;
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    if (a.backend) {
        cli_fleet_job j = {"bench", argc, argv, a.backend, a.out, a.instr, false, false, 0, 0};
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
            tc_json_out_begin(&out, a.json, tc_record_header_new("bench", NULL, NULL, 0));
            if (!a.json)
                printf("bench: skipped, no GPU: %s\n", err);
            print_line(&out, "gpu", NULL, json_null(), "", uname(&u) == 0 ? u.nodename : "unknown", x);
            json_decref(x);
            tc_json_out_end(&out, NULL);
            tc_outdir_close(&d);
            return TC_EXIT_OK;
        }
        tc_outdir_close(&d);
        return cli_fail("bench", "%s", err);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    const char *gpu = tc_bench_gpu_name(b);
    tc_json_out out;
    json_t *hdr = tc_record_header_new("bench", NULL, NULL, 0);
    json_object_set_new(hdr, "backend", json_string("gpu"));
    json_object_set_new(hdr, "gpu", json_string(gpu));
    tc_json_out_begin(&out, a.json, hdr);
    json_t *rec = json_object();
    json_object_set_new(rec, "record", json_string("tcscope-bench"));
    json_object_set_new(rec, "version", json_integer(1));
    json_object_set_new(rec, "machine", tc_bench_machine(b));
    json_t *list = json_array();
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(a.instr, "all") && strcmp(a.instr, cat[i].name))
            continue;
        json_t *r = tc_bench_instr(b, &cat[i]);
        print_instr(r, &out, gpu);
        json_array_append_new(list, r);
    }
    json_object_set_new(rec, "instructions", list);
    json_object_set_new(rec, "wgmma_type_best", type_best(list));
    if (!a.no_cublas) {
        json_t *cl = json_array();
        static const char *const types[] = {"f16", "bf16", "tf32", "fp8"};
        for (int i = 0; i < 4; i++) {
            json_t *c = tc_bench_cublas(b, types[i], a.cublas_size);
            char label[64];
            snprintf(label, sizeof label, "cublas_gemm_%d_%s", a.cublas_size, types[i]);
            if (a.json) {
                json_t *x = json_object();
                if (json_object_get(c, "error"))
                    json_object_set(x, "error", json_object_get(c, "error"));
                print_line(&out, label, types[i], num(c, "tflops"), "TFLOP/s", gpu, x);
                json_decref(x);
            } else if (json_object_get(c, "error")) {
                printf("cuBLAS %-5s %d^3: %s\n", types[i], a.cublas_size, json_string_value(json_object_get(c, "error")));
            } else {
                printf("cuBLAS %-5s %d^3: %7.1f TFLOP/s (best %.1f)\n", types[i], a.cublas_size,
                       json_real_value(json_object_get(c, "tflops")), json_real_value(json_object_get(c, "tflops_best")));
            }
            json_array_append_new(cl, c);
        }
        json_object_set_new(rec, "cublas", cl);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    json_object_set_new(rec, "elapsed_s", json_real((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9));
    tc_json_out_end(&out, NULL);
    rc = TC_EXIT_OK;
    if (a.out && tc_out_write(&d, out_name, emit_bench, rec, err, sizeof err) != 0)
        rc = cli_fail("bench", "%s", err);
    tc_outdir_close(&d);
    json_decref(rec);
    tc_bench_close(b);
    return rc;
}
