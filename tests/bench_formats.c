/* make bench: float32 -> format conversions per second on one core (single
 * thread), per format and rounding mode, through the array path
 * (tc_encode_f32_array) and the scalar tc_encode_f32; and the seconds one
 * full 2^32 sweep takes at that rate. One JSON line per figure.
 *
 * Each figure is the median of REPS samples, each sample timed as before
 * (the same inputs, at least 0.2 s of whole passes): on a shared VM one
 * sample alone varies by +-25% from run to run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/formats.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown cpu");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            char *p = strchr(line, ':');
            if (p) {
                p += 2;
                p[strcspn(p, "\n")] = '\0';
                snprintf(buf, len, "%s", p);
            }
            break;
        }
    fclose(f);
}

#define N 4096
#define REPS 5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return v[n / 2];
}

int main(void)
{
    char machine[256];
    cpu_model(machine, sizeof machine);
    /* Inputs: random signs and significands, exponents in [-16, 16]: the
     * range tensor data lives in; a few zeros, subnormal and huge values. */
    static float in[N];
    static uint64_t out[N];
    static uint32_t rb[N];
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        float m = (float)(s & 0xFFFFFF) / 16777216.0f + 0.5f;
        int e = (int)((s >> 24) % 33) - 16;
        in[i] = ((s >> 40) & 1 ? -1.0f : 1.0f) * ldexpf(m, e);
        if (i % 512 == 0)
            in[i] = ldexpf(1.0f, -140 + (i % 7));
        if (i % 1024 == 1)
            in[i] = 1e30f;
        rb[i] = (uint32_t)(s >> 32);
    }
    const tc_format *fmts[] = {&tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32, &tc_e2m1};
    const tc_round modes[] = {TC_RNE, TC_RNA, TC_RZ, TC_RU, TC_RD, TC_RO, TC_RS};
    uint64_t sink = 0;
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++)
        for (size_t mi = 0; mi < 7; mi++) {
            const tc_format *f = fmts[fi];
            tc_rounding r = {.mode = modes[mi],
                             .ovf = f->specials == TC_SPECIALS_IEEE ? TC_OVF_INF : TC_OVF_SAT};
            /* Warm up, then REPS samples of at least 0.2 s each. */
            tc_encode_f32_array(f, in, out, N, r, rb);
            double rates[REPS];
            for (int sample = 0; sample < REPS; sample++) {
                long reps = 0;
                double t0 = now(), t1;
                do {
                    for (int k = 0; k < 64; k++) {
                        tc_encode_f32_array(f, in, out, N, r, rb);
                        sink += out[k];
                    }
                    reps += 64;
                    t1 = now();
                } while (t1 - t0 < 0.2);
                rates[sample] = (double)reps * N / (t1 - t0);
            }
            double rate = median(rates, REPS);
            printf("{\"bench\": \"encode_f32_array.%s.%s.%s\", \"value\": %.4g, \"unit\": "
                   "\"conversions/s/core\", \"machine\": \"%s\"}\n",
                   f->name, tc_round_name(r.mode), tc_overflow_name(r.ovf), rate, machine);
            printf("{\"bench\": \"sweep_2^32.%s.%s.%s\", \"value\": %.3g, \"unit\": "
                   "\"s/core\", \"machine\": \"%s\"}\n",
                   f->name, tc_round_name(r.mode), tc_overflow_name(r.ovf),
                   4294967296.0 / rate, machine);
        }
    /* The scalar entry point, one call per value. */
    for (size_t fi = 0; fi < sizeof fmts / sizeof fmts[0]; fi++) {
        const tc_format *f = fmts[fi];
        tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_SAT};
        double rates[REPS];
        for (int sample = 0; sample < REPS; sample++) {
            long reps = 0;
            double t0 = now(), t1;
            do {
                for (int k = 0; k < 64; k++)
                    for (int i = 0; i < N; i++)
                        sink += tc_encode_f32(f, in[i], r);
                reps += 64;
                t1 = now();
            } while (t1 - t0 < 0.2);
            rates[sample] = (double)reps * N / (t1 - t0);
        }
        printf("{\"bench\": \"encode_f32_scalar.%s.rne.sat\", \"value\": %.4g, \"unit\": "
               "\"conversions/s/core\", \"machine\": \"%s\"}\n",
               f->name, median(rates, REPS), machine);
    }
    if (sink == 42)
        fprintf(stderr, "(sink)\n");
    return 0;
}
