/* exhaustive_f32: every float32 input (all 2^32) x every narrow format x
 * rounding mode x overflow mode (and ftz, and daz), our encoder
 * (tc_encode_f32_array) against the reference built with MPFR
 * (tests/test_formats_grid.h, shared with the CI sweep
 * tests/test_cvt_sweep.c). A spot check also runs MPFR per input
 * (tests/test_formats_ref.h) on random inputs of every combination.
 *
 *   exhaustive_f32 [--threads N] [--log2n K] [--only FMT] [--self-test]
 *
 * --log2n K checks 2^K inputs spread evenly (default: all 2^32).
 * --self-test flips the reference's tie-breaking bit: the run must then
 * report mismatches (for rne and ro), which shows the comparison can fail.
 *
 * One JSON line per (format, mode, overflow, ftz, daz): inputs, mismatches,
 * a hash of all outputs, the first mismatches, and what was tested: the
 * commit the binary was built from (git describe --dirty, as every record)
 * and the encoder. Exit 1 on any mismatch.
 */
#include <float.h>
#include <unistd.h>

#include "reports/render.h"
#include "reports/reports.h"
#include "tests/test_formats_grid.h"

static const tc_format *const formats[] = {
    &tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32, &tc_e2m1, &tc_e3m2, &tc_e2m3, &tc_e8m0,
};
#define NFMT (sizeof formats / sizeof formats[0])

/* What the records name as the code under test. */
#define ENCODER "tc_encode_f32_array (formats/encode_fast.c)"

/* MPFR per input on random inputs of every combination. */
static uint64_t spot_check(const tc_format *f, int c, int n, uint64_t seed)
{
    uint64_t bad = 0;
    mpfr_t x;
    mpfr_init2(x, 64);
    tc_rounding r = combo(c);
    for (int i = 0; i < n; i++) {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        uint32_t u = (uint32_t)((seed * 0x2545F4914F6CDD1Dull) >> 32);
        float fx;
        memcpy(&fx, &u, 4);
        if (isnan(fx))
            continue;
        r.rbits = rbits_of(u);
        mpfr_set_flt(x, fx, MPFR_RNDN);
        if (r.daz && fx != 0 && fabsf(fx) < FLT_MIN) /* daz: a subnormal input reads as zero */
            mpfr_set_zero(x, signbit(fx) ? -1 : 1);
        if (!ref_matches(f, x, r, tc_encode_f32(f, fx, r)))
            bad++;
    }
    mpfr_clear(x);
    return bad;
}

/* The progress of the whole run (reports/render.h: a bar on a terminal,
 * plain lines in a log): inputs done over every format swept. */
typedef struct {
    tc_progress bar;
    uint64_t before;   /* inputs of the formats already swept */
} sweep_progress;

static void tick(void *ctx, uint64_t inputs)
{
    sweep_progress *p = ctx;
    tc_progress_update(&p->bar, (size_t)(p->before + inputs));
}

int main(int argc, char **argv)
{
    int threads = (int)sysconf(_SC_NPROCESSORS_ONLN), log2n = 32;
    const char *only = NULL;
    bool self_test = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--log2n") && i + 1 < argc)
            log2n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--self-test"))
            self_test = true;
        else {
            fprintf(stderr, "exhaustive_f32: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (threads < 1 || threads > 256 || log2n < 16 || log2n > 32) {
        fprintf(stderr, "exhaustive_f32: --threads 1..256, --log2n 16..32\n");
        return 2;
    }
    int rc = 0;
    size_t nswept = 0;
    for (size_t fi = 0; fi < NFMT; fi++)
        nswept += !only || !strcmp(only, formats[fi]->name);
    sweep_progress prog = {.before = 0};
    tc_progress_start(&prog.bar, "exhaustive", (size_t)(nswept << log2n));
    for (size_t fi = 0; fi < NFMT; fi++) {
        const tc_format *f = formats[fi];
        if (only && strcmp(only, f->name))
            continue;
        grid_result res[NCOMBO];
        grid_sweep_progress(f, log2n, threads, self_test, res, tick, &prog);
        prog.before += 1ull << log2n;
        tc_progress_clear(&prog.bar);   /* the lines below start clean */
        for (int c = 0; c < NCOMBO; c++) {
            tc_rounding r = combo(c);
            const grid_result *o = &res[c];
            uint64_t spot = spot_check(f, c, 20000, 0x1234567ull + (uint64_t)c * 7919 + fi);
            printf("{\"format\": \"%s\", \"round\": \"%s\", \"overflow\": \"%s\", \"ftz\": %s, \"daz\": %s, "
                   "\"inputs\": %llu, \"mismatches\": %llu, \"mpfr_spot_inputs\": 20000, "
                   "\"mpfr_spot_mismatches\": %llu, \"hash\": \"0x%016llx\", \"commit\": \"%s\", "
                   "\"encoder\": \"%s\", \"first_mismatches\": [",
                   f->name, tc_round_name(r.mode), tc_overflow_name(r.ovf), r.ftz ? "true" : "false",
                   r.daz ? "true" : "false", (unsigned long long)o->inputs, (unsigned long long)o->mismatches,
                   (unsigned long long)spot, (unsigned long long)o->hash, tc_version(), ENCODER);
            for (int i = 0; i < o->nfirst; i++)
                printf("%s{\"input\": \"0x%08x\", \"got\": \"0x%llx\", \"want\": \"0x%llx\"}", i ? ", " : "",
                       o->first[i].in, (unsigned long long)o->first[i].got, (unsigned long long)o->first[i].want);
            printf("]}\n");
            fflush(stdout);
            if (o->mismatches || spot)
                rc = 1;
        }
    }
    tc_progress_end(&prog.bar);
    return rc;
}
