/* make bench: the boundary-directed search's rate (tcscope hunt), in hunted
 * elements per second, one JSON line per figure: every hunt family of a few
 * representative instructions (f16, bf16, tf32, emulated FP8 mma; FP8 wgmma)
 * against model:h100. The backend is the GPU when there is one, else the
 * model itself ("model_vs_model": the cost of the model side alone, twice);
 * both run the model on all cores, as `tcscope hunt` does. Best of 3.
 * Where the GPU model opens (probes/model_gpu.h) the same hunt runs again
 * with it computing the model's answers, and a third line gives the ratio
 * of the two rates, measured in the same run; likewise the proof's rate
 * (verify: random tiles and the crafted cases, no hunt families), each model
 * in turn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases/audit.h"
#include "cases/verify.h"
#include "oracle/profile.h"
#include "probes/model_gpu.h"
#include "probes/probes.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const instrs[] = {"mma.m16n8k16.f32.f16.f16.f32", "mma.m16n8k16.f32.bf16.bf16.f32",
                                     "mma.m16n8k8.f32.tf32.tf32.f32", "mma.m16n8k32.f32.e4m3.e5m2.f32",
                                     "wgmma.m64n128k32.f32.e4m3.e4m3"};

static tc_model_gpu_count counted;

static int gpu_model(void *ctx, const model *m, int mrows, int ncols, int k, size_t ntiles, const uint64_t *A,
                     const uint64_t *B, const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    return tc_model_gpu_mma(ctx, m, mrows, ncols, k, ntiles, A, B, C, D, &counted, err, errlen);
}

/* Best of 3 hunts of t against m: elements/s, with the count and mismatches. */
static double best_rate(const infer_target *t, const model *m, size_t *n, size_t *bad, int *rc)
{
    char err[512];
    double best = 0;
    for (int r = 0; r < 3 && *rc == 0; r++) {
        verify_result v;
        memset(&v, 0, sizeof v);
        double t0 = now();
        if (verify_hunt(t, m, 20000, 1, &v, err, sizeof err)) {
            fprintf(stderr, "bench_hunt: %s\n", err);
            *rc = 2;
        }
        double rate = (double)v.n / (now() - t0);
        best = rate > best ? rate : best;
        *n = v.n;
        *bad = v.mismatches;
        verify_result_free(&v);
    }
    return best;
}

/* Best of 3 proofs of t against p (verify_run, random tiles only): elements/s. */
static double best_verify_rate(const infer_target *t, const model_params *p, size_t *n, int *rc)
{
    char err[512];
    double best = 0;
    for (int r = 0; r < 3 && *rc == 0; r++) {
        verify_result v;
        double t0 = now();
        if (verify_run(t, p, 200000, 0, 1, &v, err, sizeof err)) {
            fprintf(stderr, "bench_hunt: %s\n", err);
            *rc = 2;
            break;
        }
        double rate = (double)v.n / (now() - t0);
        best = rate > best ? rate : best;
        *n = v.n;
        verify_result_free(&v);
    }
    return best;
}

/* The proof's rate with each model, and their ratio, for one instruction. */
static void verify_figures(infer_target *t, const model_params *p, tc_model_gpu *g, const char *kind,
                           const char *name, const char *machine, int *rc)
{
    size_t n = 0;
    t->model_run = NULL;
    t->model_ctx = NULL;
    double cpu = best_verify_rate(t, p, &n, rc);
    if (*rc)
        return;
    printf("{\"bench\": \"verify %s %s\", \"value\": %.4g, \"unit\": \"elements/s\", \"elements\": %zu, "
           "\"machine\": \"%s\"}\n", kind, name, cpu, n, machine);
    if (!g)
        return;
    t->model_run = gpu_model;
    t->model_ctx = g;
    double on_gpu = best_verify_rate(t, p, &n, rc);
    if (*rc == 0)
        printf("{\"bench\": \"verify %s %s, model on %s\", \"value\": %.4g, \"unit\": \"elements/s\", "
               "\"elements\": %zu, \"machine\": \"%s\"}\n"
               "{\"bench\": \"verify %s %s, GPU model over CPU model\", \"value\": %.4g, \"unit\": \"ratio\", "
               "\"machine\": \"%s\"}\n",
               kind, name, tc_model_gpu_name(g), on_gpu, n, machine, kind, name, cpu > 0 ? on_gpu / cpu : 0.0,
               machine);
}

/* The host CPU (the model side runs there), from /proc/cpuinfo. */
static void cpu_name(char *buf, size_t len)
{
    snprintf(buf, len, "unknown cpu");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
            char *c = strchr(line, ':') + 2;
            c[strcspn(c, "\n")] = '\0';
            snprintf(buf, len, "%s", c);
            break;
        }
    if (f)
        fclose(f);
}

int main(void)
{
    char cpu[128];
    cpu_name(cpu, sizeof cpu);
    char err[512], path[1100];
    model_profile prof;
    if (!tc_profile_path("h100", path, sizeof path) || profile_load(path, &prof, err, sizeof err)) {
        fprintf(stderr, "bench_hunt: no h100 profile\n");
        return 2;
    }
    tc_backend *be = tc_backend_open("gpu", err, sizeof err);
    const char *kind = "gpu_vs_model";
    if (!be) {
        be = tc_backend_open("model:h100", err, sizeof err);
        kind = "model_vs_model";
    }
    if (!be) {
        fprintf(stderr, "bench_hunt: %s\n", err);
        return 2;
    }
    const tc_backend_info *info = tc_backend_get_info(be);
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    int rc = 0;
    for (size_t i = 0; i < sizeof instrs / sizeof instrs[0] && rc == 0; i++) {
        const tc_instr *ins = tc_instr_by_name(instrs[i]);
        const model_params *p = ins ? profile_lookup(&prof, ins->name) : NULL;
        if (!p || !tc_backend_supports(be, ins, err, sizeof err))
            continue;
        audit_backend_ctx ctx = {be, ins};
        infer_target t = audit_target(&ctx, 1);
        model *m = model_new(p, t.f, err, sizeof err);
        if (!m) {
            fprintf(stderr, "bench_hunt: %s\n", err);
            rc = 2;
            break;
        }
        size_t n = 0, bad = 0;
        double best = best_rate(&t, m, &n, &bad, &rc);
        if (rc == 0)
            printf("{\"bench\": \"hunt %s %s\", \"value\": %.4g, \"unit\": \"elements/s\", \"elements\": %zu, "
                   "\"mismatches\": %zu, \"machine\": \"%s; host %s\"}\n",
                   kind, ins->name, best, n, bad, info->device, cpu);
        if (g && rc == 0) {
            t.model_run = gpu_model;
            t.model_ctx = g;
            counted.gpu = counted.cpu = 0;
            double on_gpu = best_rate(&t, m, &n, &bad, &rc);
            if (rc == 0)
                printf("{\"bench\": \"hunt %s %s, model on %s\", \"value\": %.4g, \"unit\": \"elements/s\", "
                       "\"elements\": %zu, \"mismatches\": %zu, \"model_elements\": {\"gpu\": %zu, \"cpu\": %zu}, "
                       "\"machine\": \"%s; host %s\"}\n"
                       "{\"bench\": \"hunt %s %s, GPU model over CPU model\", \"value\": %.4g, \"unit\": \"ratio\", "
                       "\"machine\": \"%s; host %s\"}\n",
                       kind, ins->name, tc_model_gpu_name(g), on_gpu, n, bad, counted.gpu, counted.cpu,
                       info->device, cpu, kind, ins->name, best > 0 ? on_gpu / best : 0.0, info->device, cpu);
        }
        char machine[300];
        snprintf(machine, sizeof machine, "%s; host %s", info->device, cpu);
        if (rc == 0)
            verify_figures(&t, p, g, kind, ins->name, machine, &rc);
        model_free(m);
    }
    tc_model_gpu_close(g);
    tc_backend_close(be);
    profile_free(&prof);
    return rc;
}
