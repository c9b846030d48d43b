/* make bench: the structure fit's pruned scoring against the exhaustive
 * one (cases/gemm_fit.c) on a probe-sized case, one thread: 2048 fit
 * outputs of an e4m3 256 x 256 x 8192 product with a run every 128 (64
 * runs, the cut subsets up to 3 slices), the outputs of CUTLASS-style
 * split-K 3 (explained) and the same with every third output disturbed
 * (unexplained: pruning weak). Both scorings keep the same answers
 * (tests/test_gemm_fit.c); the figures are their CPU seconds, the ratio
 * and the structures pruned. The run sums (the model's products) are in
 * both times. One JSON line per figure. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "oracle/oracle.h"
#include "tests/gemm_fit_fixture.h"

#define PROFILE "oracle/profiles/h100.profile"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void emit(const char *name, double value, const char *unit)
{
    json_t *o = json_pack("{s:s, s:f, s:s}", "bench", name, "value", value, "unit", unit);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    puts(s);
    free(s);
    json_decref(o);
}

int main(void)
{
    enum { K = 8192, NOUT = 2048 };
    oracle_set_threads(1);
    const tc_gemm_struct truth = {32, 128, 3, GEMM_COMBINE_SEQ, TC_GEMM_CUTS, {0, 2816, 5632, K}, {0}};
    for (int disturb = 0; disturb < 2; disturb++) {
        fixture x;
        char err[256] = "", name[80];
        if (fixture_make(&x, "e4m3", 64, 64, K, NOUT, &truth, GEMM_IN_AS_UPLOADED, false, &tc_f32,
                         disturb ? 3 : 0, PROFILE, err, sizeof err)) {
            fprintf(stderr, "bench_probe_fit: %s\n", err);
            return 1;
        }
        double t[2];
        gemm_fit_out o[2];
        for (int ex = 0; ex < 2; ex++) {
            double t0 = cpu_s();
            if (fixture_fit(&x, PROFILE, 32, false, &tc_f32, ex == 1, &o[ex], NULL, err, sizeof err)) {
                fprintf(stderr, "bench_probe_fit: %s\n", err);
                return 1;
            }
            t[ex] = cpu_s() - t0;
        }
        if (o[0].best_n != o[1].best_n || !tc_gemm_struct_same(&o[0].s, &o[1].s)) {
            fprintf(stderr, "bench_probe_fit: pruned and exhaustive fits differ\n");
            return 1;
        }
        const char *what = disturb ? "unexplained" : "explained";
        snprintf(name, sizeof name, "probe_fit_%s_pruned_s", what), emit(name, t[0], "s");
        snprintf(name, sizeof name, "probe_fit_%s_exhaustive_s", what), emit(name, t[1], "s");
        snprintf(name, sizeof name, "probe_fit_%s_speedup", what), emit(name, t[1] / t[0], "x");
        snprintf(name, sizeof name, "probe_fit_%s_pruned_share", what);
        emit(name, (double)o[0].pruned / (double)(o[0].pruned + o[0].scored), "fraction");
        fixture_free(&x);
    }
    return 0;
}
