/* make bench: model throughput in output elements per second per core, for
 * K = 8, 16, 32, 256 and each input format, one JSON line per figure.
 * Per core = one thread (model_set_threads(1)) running model_mma on 16 x 8
 * tiles of random inputs (normal values of the input format within +-8
 * binades, f32 C), as the model:PROFILE backend does, with a
 * tensor-core-like setting (blocks of 16, 24 fraction bits truncated, f32
 * accumulator RZ: "model_tc_*") and the exact setting ("model_exact_*").
 * Each figure is the median of SAMPLES timings of at least 0.1 s (a shared
 * machine makes a single timing noisy). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "oracle/model.h"

static uint64_t rng_state = 7;

static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A normal value with exponent within +-8 of 1 (cancellation and alignment both happen). */
static uint64_t rnd_normal(const tc_format *f)
{
    int m = f->mbits;
    uint64_t e = (uint64_t)(f->bias - 8 + (int)(rnd64() % 17));
    uint64_t bits = ((rnd64() & 1) << (f->ebits + m)) | (e << m) | (rnd64() & ((1ull << m) - 1));
    if (f->specials == TC_SPECIALS_FN && (bits & 0x7F) == 0x7F)
        bits ^= 1;
    return bits << f->shift;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { SAMPLES = 5 };

static int cmp_double(const void *x, const void *y)
{
    double u = *(const double *)x, v = *(const double *)y;
    return (u > v) - (u < v);
}

static void machine_name(char *buf, size_t len)
{
    snprintf(buf, len, "unknown cpu");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c += 2;
                c[strcspn(c, "\n")] = '\0';
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    fclose(f);
}

static void emit(const char *name, double value, const char *unit, const char *machine)
{
    json_t *o = json_pack("{s:s, s:f, s:s, s:s}", "bench", name, "value", value, "unit", unit,
                          "machine", machine);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    puts(s);
    free(s);
    json_decref(o);
}

int main(void)
{
    char machine[200];
    machine_name(machine, sizeof machine);
    const tc_format *ins[] = {&tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32};
    const int ks[] = {8, 16, 32, 256};
    enum { M = 16, N = 8, TILES = 256, KMAX = 256 };
    uint64_t *a = malloc((size_t)TILES * M * KMAX * sizeof *a), *b = malloc((size_t)TILES * KMAX * N * sizeof *b);
    uint64_t *c = malloc((size_t)TILES * M * N * sizeof *c), *d = malloc((size_t)TILES * M * N * sizeof *d);
    if (!a || !b || !c || !d)
        return 2;
    model_set_threads(1);
    for (size_t fi = 0; fi < sizeof ins / sizeof ins[0]; fi++) {
        oracle_formats f = {ins[fi], ins[fi], &tc_f32, &tc_f32};
        for (size_t i = 0; i < (size_t)TILES * M * KMAX; i++)
            a[i] = rnd_normal(ins[fi]);
        for (size_t i = 0; i < (size_t)TILES * KMAX * N; i++)
            b[i] = rnd_normal(ins[fi]);
        for (size_t i = 0; i < (size_t)TILES * M * N; i++)
            c[i] = rnd_normal(&tc_f32);
        tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
        for (int setting = 0; setting < 2; setting++) {
            model_params p = model_params_exact(f, r);
            if (setting == 0) {
                p.block = 16;
                p.align_bits = 24;
                p.acc_exact = false;
                p.acc_fmt = tc_f32;
                p.acc_round = TC_RZ;
            }
            char err[200];
            model *m = model_new(&p, f, err, sizeof err);
            if (!m) {
                fprintf(stderr, "bench_model: %s\n", err);
                return 2;
            }
            for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
                int k = ks[ki];
                size_t nt = k <= 32 ? TILES : TILES / 8;
                double rate[SAMPLES];
                for (int si = 0; si < SAMPLES; si++) {
                    long n = 0;
                    double t0 = now(), t;
                    do {
                        model_mma(m, M, N, k, nt, a, b, c, d);
                        n += (long)(nt * M * N);
                        t = now();
                    } while (t - t0 < 0.1);
                    rate[si] = n / (t - t0);
                }
                qsort(rate, SAMPLES, sizeof rate[0], cmp_double);
                char name[96];
                snprintf(name, sizeof name, "model_%s_%s_k%d", setting ? "exact" : "tc", ins[fi]->name, k);
                emit(name, rate[SAMPLES / 2], "elements/s/core", machine);
            }
            model_free(m);
        }
    }
    free(c);
    free(d);
    free(a);
    free(b);
    return 0;
}
