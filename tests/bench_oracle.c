/* bench_oracle: exact-oracle throughput, JSON lines for `make bench`.
 *
 * Output elements per second per core (one thread, CPU seconds) of oracle_mma_exact on
 * m16n8 tiles for K = 8, 16, 32, 256 and each input format (C and D f32;
 * f64 all through), then one all-cores figure. Inputs: random finite
 * values, sign random, exponent field within +-8 of the bias (the FP8
 * formats: every finite code), C likewise in its format; RNE. One more
 * f64 figure draws exponents over the whole range (sums ~4000 bits wide).
 * Last, the chain oracle: seconds for the per-step and whole-chain errors of
 * one chain of 100 steps on 16x16 tiles (f16 in, f32 out, B entries ~1/16).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "formats/formats.h"
#include "oracle/chain.h"
#include "oracle/oracle.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;

static uint64_t rnd64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* When set, gen draws finite values over the whole exponent range (wide
 * sums: the limb path instead of the __int128 one). */
static bool gen_wide;

static uint64_t gen(const tc_format *f)
{
    if (f->storage_bits == 8) {   /* FP8: every finite code */
        uint64_t b;
        do
            b = rnd64() & 0xFF;
        while (tc_classify(f, b) == TC_NAN || tc_classify(f, b) == TC_INF);
        return b;
    }
    int e = f->ebits, m = f->mbits;
    uint64_t ex = gen_wide ? rnd64() % ((1ull << e) - 1) : (uint64_t)(f->bias - 8) + rnd64() % 17;
    uint64_t fr = rnd64() & ((1ull << m) - 1);
    return (((rnd64() & 1) << (e + m)) | (ex << m) | fr) << f->shift;
}

/* Per-core figures count the process's CPU seconds (one worker thread), so
 * a busy shared machine does not distort them; the all-cores figure counts
 * wall-clock seconds. */
static clockid_t bench_clock = CLOCK_PROCESS_CPUTIME_ID;

static double now(void)
{
    struct timespec t;
    clock_gettime(bench_clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void machine_name(char *buf, size_t len)
{
    struct utsname u;
    char cpu[160] = "unknown cpu";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *p = strchr(line, ':');
                if (p) {
                    p += 1 + (p[1] == ' ');
                    p[strcspn(p, "\n")] = '\0';
                    snprintf(cpu, sizeof cpu, "%s", p);
                }
                break;
            }
        }
        fclose(f);
    }
    snprintf(buf, len, "%s / %s", uname(&u) == 0 ? u.nodename : "?", cpu);
}

/* Elements per second of oracle_mma_exact with the configured threads. */
static double run(oracle_formats f, int k, double seconds)
{
    const int m = 16, n = 8;
    size_t ntiles = (size_t)(1 << 16) / (size_t)k + 1;
    uint64_t *A = malloc(ntiles * m * k * 8), *B = malloc(ntiles * k * n * 8);
    uint64_t *C = malloc(ntiles * m * n * 8), *D = malloc(ntiles * m * n * 8);
    if (!A || !B || !C || !D) {
        fprintf(stderr, "bench_oracle: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < ntiles * m * k; i++)
        A[i] = gen(f.a);
    for (size_t i = 0; i < ntiles * k * n; i++)
        B[i] = gen(f.b);
    for (size_t i = 0; i < ntiles * m * n; i++)
        C[i] = gen(f.c);
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    size_t elems = 0;
    double t0 = now(), t;
    do {
        oracle_mma_exact(f, m, n, k, ntiles, A, B, C, D, r);
        elems += ntiles * m * n;
        t = now();
    } while (t - t0 < seconds);
    free(A);
    free(B);
    free(C);
    free(D);
    return (double)elems / (t - t0);
}

/* Seconds for oracle_chain_errors on one f16 chain of len steps, 16 x 16. */
static double chain_seconds(int len)
{
    const int m = 16, k = 16;
    size_t mk = (size_t)m * k, kk = (size_t)k * k;
    oracle_formats f = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};
    uint64_t *A0 = malloc(mk * 8), *B = malloc(len * kk * 8), *C = malloc(len * mk * 8);
    uint64_t *X = malloc(len * mk * 8), *D = malloc(len * mk * 8);
    oracle_err *es = malloc(len * mk * sizeof *es), *ec = malloc(len * mk * sizeof *ec);
    if (!A0 || !B || !C || !X || !D || !es || !ec) {
        fprintf(stderr, "bench_oracle: out of memory\n");
        exit(2);
    }
    for (size_t i = 0; i < mk; i++)
        A0[i] = gen(&tc_f16);
    for (size_t i = 0; i < len * kk; i++)   /* exponent field bias-4 +-8: entries ~1/16 */
        B[i] = ((rnd64() & 1) << 15) | ((uint64_t)(15 - 4 - 8 + (int)(rnd64() % 17)) << 10) |
               (rnd64() & 0x3FF);
    for (size_t i = 0; i < len * mk; i++)
        C[i] = gen(&tc_f32);
    tc_rounding r = {TC_RNE, TC_OVF_INF, false, 0, false};
    oracle_chain_rounded(f, m, k, 1, len, A0, B, C, r, r, X, D);
    double t0 = now();
    oracle_chain_errors(f, m, k, 1, len, A0, B, C, X, D, es, ec);
    double t = now() - t0;
    free(A0);
    free(B);
    free(C);
    free(X);
    free(D);
    free(es);
    free(ec);
    return t;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.3;
    char machine[256];
    machine_name(machine, sizeof machine);
    const tc_format *ins[] = {&tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32, &tc_f64};
    const int ks[] = {8, 16, 32, 256};
    oracle_set_threads(1);
    for (size_t i = 0; i < sizeof ins / sizeof ins[0]; i++) {
        const tc_format *acc = ins[i] == &tc_f64 ? &tc_f64 : &tc_f32;
        oracle_formats f = {ins[i], ins[i], acc, acc};
        for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
            double v = run(f, ks[j], secs);
            printf("{\"bench\": \"oracle.exact.%s.%s.k%d\", \"value\": %.4g, "
                   "\"unit\": \"elements/s/core\", \"machine\": \"%s\"}\n",
                   ins[i]->name, acc->name, ks[j], v, machine);
            fflush(stdout);
        }
    }
    gen_wide = true;   /* f64 over its whole range: the widest exact sums */
    oracle_formats wide = {&tc_f64, &tc_f64, &tc_f64, &tc_f64};
    printf("{\"bench\": \"oracle.exact.f64.f64.k16.full_range\", \"value\": %.4g, "
           "\"unit\": \"elements/s/core\", \"machine\": \"%s\"}\n",
           run(wide, 16, secs), machine);
    gen_wide = false;
    oracle_set_threads(0);
    bench_clock = CLOCK_MONOTONIC;
    oracle_formats f = {&tc_f16, &tc_f16, &tc_f32, &tc_f32};
    double v = run(f, 16, secs);
    printf("{\"bench\": \"oracle.exact.f16.f32.k16.all_cores\", \"value\": %.4g, "
           "\"unit\": \"elements/s\", \"threads\": %d, \"machine\": \"%s\"}\n",
           v, oracle_threads(), machine);
    oracle_set_threads(1);
    bench_clock = CLOCK_PROCESS_CPUTIME_ID;
    printf("{\"bench\": \"oracle.chain.f16.f32.k16.len100\", \"value\": %.4g, "
           "\"unit\": \"s/chain\", \"machine\": \"%s\"}\n",
           chain_seconds(100), machine);
    return 0;
}
