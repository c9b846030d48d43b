/* make bench: choose on every output of an S x S x K GEMM (issue 29: up to
 * 8192^3), seconds per candidate, with the GPU model (the walk and the
 * exact references on the GPU, cases/app.h app_eval_lib as choose runs it),
 * against the CPU model (the CPU predictor and the exact references on all
 * cores) on every output of 128 x 128 x K, measured in the same run: its
 * seconds per candidate, both rates in products per second (outputs x K of
 * every candidate) and their ratio. The candidates are three library
 * structures of choose's default H100 records (f16 chunk 16; tf32 chunk 8
 * converted RNE; e4m3 chunk 32 promoted every 128), on one data set as
 * choose evaluates them: the references computed once and shared. Each
 * figure gives where its time went (app_stages, summed over the
 * candidates). The GPU's statistics on the CPU's shape must equal the CPU's
 * ("same_statistics"). `bench_choose_gpu S K`: S a multiple of 128 up to
 * 8192, K of 64 up to 8192 (default 4096 4096). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cases/app_internal.h"
#include "cases/gemm_internal.h"
#include "oracle/profile.h"

#define CPU_S 128

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct {
    const char *path;
    tc_gemm_struct s;
    tc_gemm_incvt incvt;
} bench_cand;

static const bench_cand cands[] = {
    {"f16", {16, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, GEMM_IN_AS_UPLOADED},
    {"tf32", {8, 0, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, GEMM_IN_TF32_RNE},
    {"e4m3", {32, 128, 1, GEMM_COMBINE_SEQ, 0, {0}, {0}}, GEMM_IN_AS_UPLOADED},
};
#define NCAND (sizeof cands / sizeof cands[0])

typedef struct {
    double seconds;          /* wall time of all candidates */
    app_stages st;           /* summed */
    app_stats stats[NCAND][2];
    size_t gpu, cpu;         /* outputs each model computed */
} bench_run;

/* Every candidate on every output of S x S x K (g NULL: the CPU model and
 * the CPU's references). 0, or -1 after a message. */
static int run(tc_model_gpu *g, const char *profile, int s, int k, bench_run *out)
{
    char err[512];
    app_dist dist;
    app_data d;
    memset(out, 0, sizeof *out);
    if (!app_dist_parse("normal", &dist, err, sizeof err) ||
        !app_data_make(&d, &dist, s, s, k, s, s, 29, false, err, sizeof err)) {
        fprintf(stderr, "bench_choose_gpu: %s\n", err);
        return -1;
    }
    tc_model_gpu_count walked = {0}, refs = {0};
    app_reference_use(g, &refs);
    double t0 = now();
    int rc = 0;
    for (size_t i = 0; i < NCAND && !rc; i++) {
        app_lib_candidate c = {.p = tc_gemm_path_by_name(cands[i].path), .s = cands[i].s, .incvt = cands[i].incvt,
                               .profile = profile, .scaling = APP_SCALE_NONE, .rows = s, .cols = s,
                               .walk = g != NULL, .gpu = g, .count = &walked};
        app_result r;
        rc = app_eval_lib(&d, &c, &r, err, sizeof err);
        if (rc)
            break;
        app_stages *a = &out->st, *b = &r.stages;
        a->inputs_s += b->inputs_s, a->model_s += b->model_s, a->model_kernel_s += b->model_kernel_s;
        a->model_copy_s += b->model_copy_s, a->model_cpu_s += b->model_cpu_s, a->references_s += b->references_s;
        a->metrics_s += b->metrics_s, a->references_computed += b->references_computed;
        a->references_shared += b->references_shared;
        out->stats[i][0] = r.vs_orig, out->stats[i][1] = r.vs_rounded;
    }
    out->seconds = now() - t0;
    out->gpu = walked.gpu, out->cpu = walked.cpu;
    app_reference_cache_clear();
    app_reference_use(NULL, NULL);
    app_data_free(&d);
    app_dist_free(&dist);
    if (rc)
        fprintf(stderr, "bench_choose_gpu: %s\n", err);
    return rc;
}

static void print(const char *what, int s, int k, const bench_run *r, const char *machine)
{
    double products = (double)s * s * k * NCAND;
    const app_stages *t = &r->st;
    printf("{\"bench\": \"choose every output %dx%dx%d, %s, seconds per candidate\", \"value\": %.4g, "
           "\"unit\": \"s/candidate\", \"candidates\": %zu, \"products_per_s\": %.4g, \"outputs\": {\"gpu\": %zu, "
           "\"cpu\": %zu}, \"stages\": {\"inputs_s\": %.3f, \"model_s\": %.3f, \"model\": {\"gpu_kernel_s\": %.3f, "
           "\"gpu_copy_s\": %.3f, \"cpu_s\": %.3f}, \"references_s\": %.3f, \"references_computed\": %d, "
           "\"references_shared\": %d, \"metrics_s\": %.3f}, \"machine\": \"%s\"}\n",
           s, s, k, what, r->seconds / NCAND, NCAND, products / r->seconds, r->gpu, r->cpu, t->inputs_s, t->model_s,
           t->model_kernel_s, t->model_copy_s, t->model_cpu_s, t->references_s, t->references_computed,
           t->references_shared, t->metrics_s, machine);
}

int main(int argc, char **argv)
{
    char profile[1100], machine[200], err[512];
    int s = 4096, k = 4096;
    if (argc == 3) {
        s = atoi(argv[1]), k = atoi(argv[2]);
        if (s < 128 || s > 8192 || s % 128 || k < 64 || k > 8192 || k % 64) {
            fprintf(stderr, "bench_choose_gpu: S K: S a multiple of 128 in 128..8192, K of 64 in 64..8192\n");
            return 2;
        }
    } else if (argc != 1) {
        fprintf(stderr, "usage: bench_choose_gpu [S K]\n");
        return 2;
    }
    if (!tc_profile_path("h100", profile, sizeof profile)) {
        fprintf(stderr, "bench_choose_gpu: no h100 profile\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);   /* each figure out as it is measured (a task may time the run out) */
    tc_model_gpu *g = tc_model_gpu_open(0, err, sizeof err);
    snprintf(machine, sizeof machine, "%ld CPU threads%s%s", sysconf(_SC_NPROCESSORS_ONLN),
             g ? ", GPU model on " : "", g ? tc_model_gpu_name(g) : "");
    bench_run cpu, small, big;
    if (run(NULL, profile, CPU_S, k, &cpu))
        return 2;
    print("CPU model", CPU_S, k, &cpu, machine);
    int rc = 0;
    if (g) {
        if (run(g, profile, CPU_S, k, &small) || run(g, profile, s, k, &big)) {
            tc_model_gpu_close(g);
            return 2;
        }
        bool same = !memcmp(small.stats, cpu.stats, sizeof cpu.stats);
        print("GPU model", s, k, &big, machine);
        double gpu_rate = (double)s * s * k * NCAND / big.seconds, cpu_rate = (double)CPU_S * CPU_S * k * NCAND /
                                                                                cpu.seconds;
        printf("{\"bench\": \"choose every output, GPU model (%dx%dx%d) over CPU model (%dx%dx%d), products/s\", "
               "\"value\": %.4g, \"unit\": \"ratio\", \"same_shape_ratio\": %.4g, \"same_statistics\": %s, "
               "\"machine\": \"%s\"}\n", s, s, k, CPU_S, CPU_S, k, gpu_rate / cpu_rate, cpu.seconds / small.seconds,
               same ? "true" : "false", machine);
        rc = same ? 0 : 1;
        tc_model_gpu_close(g);
    }
    return rc;
}
