/* timing: the bench of probes/timing.h. For each instruction: the SASS check
 * of its kernels, latency (5 runs), the ILP x warps table, the best point as
 * a fraction of the peak, and whole-GPU TFLOP/s with NVML readings. */
#include "probes/timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "probes/nvml.h"
#include "probes/sass.h"
#include "probes/sass_reader.h"
#include "probes/clock.h"

double tc_timing_peak_fma_per_clk(const tc_instr *ins)
{
    /* H100 SXM tensor-core rates per SM per clock (dense), the NVIDIA H100
     * datasheet's TFLOP/s divided by 2 x 132 SMs x 1.83 GHz: f16/bf16 989.4
     * TFLOP/s -> 2048, tf32 494.7 -> 1024, fp8 and int8 1979 -> 4096. FP64
     * tensor: 128 (twice the A100's 64; 67 TFLOP/s at the 1.98 GHz boost). */
    static const struct {
        const char *type;
        double fma;
    } peak[] = {
        {"f16", 2048}, {"bf16", 2048}, {"tf32", 1024}, {"e4m3", 4096}, {"e5m2", 4096},
        {"s8", 4096}, {"u8", 4096}, {"f64", 128},
    };
    for (size_t i = 0; i < sizeof peak / sizeof peak[0]; i++)
        if (!strcmp(ins->a->name, peak[i].type))
            return peak[i].fma * (ins->sparse ? 2 : 1);
    return 0;
}

#if TC_HAVE_CUDA

/* The SASS of the timing kernels is read on a thread of its own
 * (probes/sass_reader.h) while NVML is opened and the caller loads its
 * records; the first use waits for it (sass_of), and close does not. */
struct tc_bench {
    tct_device dev;
    tc_nvml *nvml;
    char nvml_why[200];
    tc_sass_reader *sass;
    double open_s;          /* the GPU and NVML opened */
    bool quick;
    bool no_whole_gpu;
};

static const tc_sass *sass_of(tc_bench *b)
{
    return tc_sass_reader_wait(b->sass);
}

tc_bench *tc_bench_open(const tc_bench_opts *o, char *err, size_t errlen)
{
    tc_bench *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    b->quick = o->quick;
    b->no_whole_gpu = o->no_whole_gpu;
    double t0 = tc_now_s();
    if (tct_open(o->device, &b->dev, err, errlen) != 0) {   /* quick: the context comes with the first launch */
        tc_say_no_driver(err, errlen);   /* "driver version is insufficient" where there is no driver */
        free(b);
        return NULL;
    }
    /* The timing kernels (tct_*) are sm_90a SASS only (tct_open refuses
     * another GPU): their cubins' disassembly alone, not that of the
     * executors of every architecture in this fat binary. */
    b->sass = tc_sass_reader_start(o->sass_path, "sm_90a", "tct_");
    b->nvml = tc_nvml_open(b->dev.pci, b->nvml_why, sizeof b->nvml_why);
    b->open_s = tc_now_s() - t0;
    return b;
}

void tc_bench_close(tc_bench *b)
{
    if (!b)
        return;
    tc_sass_reader_close(b->sass);
    tc_nvml_close(b->nvml);
    free(b);
}

void tc_bench_open_seconds(tc_bench *b, double *gpu_s, double *sass_s)
{
    *gpu_s = b->open_s;
    *sass_s = tc_sass_reader_seconds(b->sass);
}

const char *tc_bench_sass_source(tc_bench *b)
{
    return tc_sass_reader_source(b->sass);
}

const char *tc_bench_gpu_name(const tc_bench *b)
{
    return b->dev.name;
}

bool tc_bench_has_kernel(const char *name)
{
    return tct_find(name) != NULL;
}

void tc_bench_machine_read(tc_bench *b, tc_bench_machine *m)
{
    memset(m, 0, sizeof *m);
    snprintf(m->run.backend, sizeof m->run.backend, "gpu");
    snprintf(m->run.device, sizeof m->run.device, "%.127s", b->dev.name);
    snprintf(m->pci_bus_id, sizeof m->pci_bus_id, "%s", b->dev.pci);
    m->run.sm = b->dev.sm;
    m->run.sm_count = b->dev.sm_count;
    m->rated_sm_clock_mhz = b->dev.clock_khz / 1000.0;
    snprintf(m->cuda_driver_api, sizeof m->cuda_driver_api, "%d.%d", b->dev.driver_version / 1000,
             b->dev.driver_version % 1000 / 10);
    snprintf(m->run.cuda, sizeof m->run.cuda, "%d.%d", b->dev.runtime_version / 1000,
             b->dev.runtime_version % 1000 / 10);
    tc_nvml_reading r;
    tc_nvml_read(b->nvml, &r);
    m->nvml = b->nvml != NULL;
    if (b->nvml)
        snprintf(m->run.driver, sizeof m->run.driver, "%s", tc_nvml_driver(b->nvml));
    else
        snprintf(m->nvml_why, sizeof m->nvml_why, "%s", b->nvml_why);
    m->run.clock_mhz = r.max_sm_clock_mhz > 0 ? r.max_sm_clock_mhz : 0;
    /* the timing kernels come from the same build as the executor's */
    tc_kernel_compiler(m->run.driver, m->run.compiler, sizeof m->run.compiler);
    m->idle_sm_clock_mhz = r.sm_clock_mhz;
    m->power_limit_w = r.power_limit_w;
    m->temperature_c = r.temperature_c;
    m->sass_read = sass_of(b) != NULL;
    if (m->sass_read) {
        const char *from = tc_sass_reader_source(b->sass);
        snprintf(m->sass_source, sizeof m->sass_source, "%s",
                 strcmp(from, "cuobjdump") ? from : "cuobjdump -sass of this program");
    } else
        snprintf(m->sass_error, sizeof m->sass_error, "%s", tc_sass_reader_error(b->sass));
}

/* Random inputs: random bits with each floating-point element's exponent
 * kept in the upper half of its range minus the top (no Inf/NaN, values in
 * [2^-(bias/2), 2)), so long accumulations stay finite; integers as drawn. */
static void make_inputs(const tc_instr *ins, bool zero, uint32_t *w, size_t n)
{
    if (zero) {
        memset(w, 0, n * sizeof *w);
        return;
    }
    uint64_t s = 0x9E3779B97F4A7C15ull ^ (uint64_t)strlen(ins->name) * 1315423911u;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        w[i] = (uint32_t)(s >> 16);
    }
    const tc_format *f = ins->a;
    if (f->ebits == 0)
        return;
    int bits = f->storage_bits, top = f->shift + f->mbits + f->ebits - 1;
    if (bits == 64) {
        for (size_t i = 1; i < n; i += 2)
            w[i] = (w[i] & ~(1u << (top - 32))) | (1u << (top - 33));
        return;
    }
    uint32_t clear = 0, set = 0;
    for (int p = 0; p < 32; p += bits) {
        clear |= 1u << (p + top);
        set |= 1u << (p + top - 1);
    }
    for (size_t i = 0; i < n; i++)
        w[i] = (w[i] & ~clear) | set;
}

typedef struct {
    bool usable, emulated;
    tc_sass_check check;
} kernel_check;

#define LAT_ITERS 2048   /* iterations of a latency run */
/* The throughput table's columns (warps per SM) and iterations a launch. */
static const int mma_warps[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
static const int wg_warps[] = {4, 8, 12, 16, 20, 24, 28, 32};
#define TABLE_ITERS(wgmma) ((wgmma) ? 64 : 128)
/* Launches of tc_bench_instr_at's point after a warm-up, the best kept: as
 * the table's best point is the best of its points, not one launch's. */
#define POINT_RUNS 3

static void check_kernel(tc_bench *b, const tct_kernel_set *ks, const tc_instr *ins, int ilp, kernel_check *kc)
{
    char fn[200];
    if (ilp == 0)
        snprintf(fn, sizeof fn, "%s_lat", ks->symbol);
    else
        snprintf(fn, sizeof fn, "%s_i%d", ks->symbol, ilp);
    int expected = (ilp == 0 ? 1 : ilp * ks->unroll) * (ks->sass_per_mma > 1 ? ks->sass_per_mma : 1);
    memset(kc, 0, sizeof *kc);
    if (!sass_of(b)) {
        snprintf(kc->check.message, sizeof kc->check.message, "%.60s: SASS not checked: %.200s", fn,
                 tc_sass_reader_error(b->sass));
        return;
    }
    tc_sass_check_loop(sass_of(b), fn, ins->sass, expected, &kc->check);
    kc->usable = kc->check.usable;
    kc->emulated = kc->check.emulated;
}

static void check_result(const kernel_check *kc, tc_bench_check *c)
{
    snprintf(c->verdict, sizeof c->verdict, "%s",
             kc->check.message[0] && !kc->check.stem[0] ? "unchecked" : tc_sass_verdict_name(kc->check.verdict));
    c->usable = kc->usable;
    c->emulated = kc->emulated;
    snprintf(c->opcode, sizeof c->opcode, "%s", kc->check.opcode);
    c->expected = kc->check.expected;
    c->in_loop = kc->check.in_loop;
    c->per_mma = kc->check.per_mma;
    c->conversions_in_loop = kc->check.conversions_in_loop;
    snprintf(c->message, sizeof c->message, "%s", kc->check.message);
}

/* FMAs of one launch. */
static double launch_fma(const tct_kernel_set *ks, int ilp, int warps, int iters, int blocks)
{
    double issuers = warps * 32.0 / ks->group;
    return (double)ks->fma_per_mma * ilp * ks->unroll * (double)iters * issuers * blocks;
}

static void set_reading(tc_bench_nvml *o, const tc_nvml_summary *s)
{
    o->samples = s->samples;
    o->sm_clock_mean = s->sm_clock_mean;
    o->sm_clock_min = s->sm_clock_min;
    o->sm_clock_max = s->sm_clock_max;
    o->power_mean = s->power_mean;
    o->power_max = s->power_max;
    o->throttle_known = s->throttle_known;
    o->throttle = s->throttle_or;
    if (s->throttle_known)
        tc_nvml_throttle_names(s->throttle_or, o->throttle_names, sizeof o->throttle_names);
}

/* The measurement stops here: status and why. */
static void fail(tc_bench_result *o, tc_bench_status st, const char *msg)
{
    o->status = st;
    snprintf(o->why, sizeof o->why, "%s", msg);
}

/* The start of every measurement of one instruction: its kernels' SASS
 * checked (a kernel whose loop does not hold the MMAs it was built with
 * gives no number), the random inputs loaded, and the latency (1 warp or 1
 * warpgroup, a dependent chain; warm-up, then 5 runs). NULL when the
 * measurement stops here (o's status and why say why). */
static const tct_kernel_set *begin_instr(tc_bench *b, const tc_instr *ins, tc_bench_result *o, kernel_check kc[9])
{
    memset(o, 0, sizeof *o);
    o->instr = ins->name;
    o->api = ins->api;
    o->sass_expected = ins->sass;
    o->issue_interval = -1;
    o->whole_skipped = b->no_whole_gpu;
    char err[400];
    o->peak = tc_timing_peak_fma_per_clk(ins);
    const tct_kernel_set *ks = tct_find(ins->name);
    if (!ks)
        { fail(o, TC_BENCH_NOT_TIMED, "no timing kernel for this instruction (not implemented)"); return NULL; }
    bool wg = ks->group == 128;
    o->wgmma = wg;

    bool any = false, emulated = false;
    for (int i = wg ? 0 : 1; i <= 8; i++) {
        check_kernel(b, ks, ins, i, &kc[i]);
        any |= kc[i].usable;
        emulated |= kc[i].emulated;
        check_result(&kc[i], &o->kernel[i]);
    }
    o->checked = true;
    snprintf(o->sass_verdict, sizeof o->sass_verdict, "%s", tc_sass_verdict_name(kc[1].check.verdict));
    snprintf(o->sass_opcode, sizeof o->sass_opcode, "%s", kc[1].check.opcode);
    o->emulated = emulated;
    if (emulated)
        snprintf(o->emulation, sizeof o->emulation, "%d %s per PTX instruction, %d conversions in the ILP-1 loop",
                 kc[1].check.per_mma, kc[1].check.opcode, kc[1].check.conversions_in_loop);
    if (!any || !kc[1].usable)
        { fail(o, TC_BENCH_REFUSED, kc[1].check.message); return NULL; }

    static uint32_t words[TCT_INPUT_WORDS];
    make_inputs(ins, false, words, TCT_INPUT_WORDS);
    if (tct_set_inputs(words, TCT_INPUT_WORDS, err, sizeof err) != 0)
        { fail(o, TC_BENCH_ERROR, err); return NULL; }

    tct_launch_result r;
    /* Long enough that a one-off stall of a few hundred cycles moves the
     * per-MMA figure by well under a cycle (seen with 256: +1.4 cycles in
     * about 1 run of 15 on the H100). */
    const int lat_iters = LAT_ITERS;
    int lat_ilp = wg ? 0 : 1;
    if (wg && !kc[0].usable)
        { fail(o, TC_BENCH_REFUSED, kc[0].check.message); return NULL; }
    double runs[TC_BENCH_LAT_RUNS];
    double lo = 1e300, hi = 0, sum = 0;
    for (int run = -1; run < TC_BENCH_LAT_RUNS; run++) {
        if (tct_launch(ks, lat_ilp, 1, wg ? 4 : 1, lat_iters, 0, &r, err, sizeof err) != 0)
            { fail(o, TC_BENCH_ERROR, err); return NULL; }
        if (run < 0)
            continue;
        double c = r.span_mean / ((double)lat_iters * (wg ? 1 : ks->unroll));
        runs[run] = c;
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
        sum += c;
    }
    memcpy(o->lat_runs, runs, sizeof runs);
    o->nlat = TC_BENCH_LAT_RUNS;
    o->latency = sum / 5;
    o->latency_spread = hi - lo;
    return ks;
}

void tc_bench_instr(tc_bench *b, const tc_instr *ins, tc_bench_result *o)
{
    kernel_check kc[9];
    const tct_kernel_set *ks = begin_instr(b, ins, o, kc);
    if (!ks)
        return;
    bool wg = o->wgmma;
    char err[400];
    static uint32_t words[TCT_INPUT_WORDS];
    tct_launch_result r;
    const int lat_iters = LAT_ITERS;

    /* Throughput table; wgmma in both staging layouts, the better kept. */
    const int *wl = wg ? wg_warps : mma_warps;
    int nw = wg ? 8 : 10;
    int tab_iters = TABLE_ITERS(wg);
    int blocks = b->dev.sm_count;
    o->nwarps = nw;
    memcpy(o->warps, wl, nw * sizeof *wl);
    o->table_iters = tab_iters;
    double best = 0;
    int best_ilp = 0, best_w = 0, best_mode = 0;
    double best_span = 0;
    for (int mode = 0; mode < (wg ? 2 : 1); mode++) {
        for (int ilp = 1; ilp <= 8; ilp++)
            for (int wi = 0; wi < nw; wi++)
                o->fma[mode][ilp - 1][wi] = -1;
        o->nmodes = mode + 1;
        for (int ilp = 1; ilp <= 8; ilp++) {
            for (int wi = 0; wi < nw; wi++) {
                if (!kc[ilp].usable)
                    continue;
                int rc = tct_launch(ks, ilp, blocks, wl[wi], tab_iters, (uint32_t)mode, &r, err, sizeof err);
                if (rc < 0)
                    { fail(o, TC_BENCH_ERROR, err); return; }
                if (rc > 0 || !r.distinct_sms)
                    continue;
                double f = launch_fma(ks, ilp, wl[wi], tab_iters, 1) / r.span_mean;
                o->fma[mode][ilp - 1][wi] = f;
                if (f > best) {
                    best = f;
                    best_ilp = ilp;
                    best_w = wl[wi];
                    best_mode = mode;
                    best_span = r.span_mean;
                }
            }
        }
    }
    if (best <= 0)
        { fail(o, TC_BENCH_ERROR, "no point of the throughput table ran"); return; }
    o->best_fma = best;
    o->best_ilp = best_ilp;
    o->best_warps = best_w;
    o->best_mode = best_mode;

    if (wg && kc[8].usable) {
        /* Back-to-back issue: one warpgroup, 8 wgmmas per group, one group in flight. */
        if (tct_launch(ks, 8, 1, 4, lat_iters, (uint32_t)best_mode, &r, err, sizeof err) != 0)
            { fail(o, TC_BENCH_ERROR, err); return; }
        o->issue_interval = r.span_mean / (lat_iters * 8.0);
    }

    if (b->no_whole_gpu)
        return;
    /* Whole GPU at the best point, about 0.15 s a run, random then zero inputs. */
    double cyc_per_iter = best_span / tab_iters;
    double clk = b->dev.clock_khz > 0 ? b->dev.clock_khz * 1e3 : 1.5e9;
    long long big = (long long)(0.15 * clk / cyc_per_iter);
    if (big < tab_iters)
        big = tab_iters;
    if (big > 1 << 30)
        big = 1 << 30;
    tc_bench_whole whole[2];
    for (int z = 0; z < 2; z++) {
        make_inputs(ins, z == 1, words, TCT_INPUT_WORDS);
        if (tct_set_inputs(words, TCT_INPUT_WORDS, err, sizeof err) != 0)
            { fail(o, TC_BENCH_ERROR, err); return; }
        /* A short warm-up launch, then the timed one under NVML sampling. */
        if (tct_launch(ks, best_ilp, blocks, best_w, tab_iters, (uint32_t)best_mode, &r, err, sizeof err) != 0)
            { fail(o, TC_BENCH_ERROR, err); return; }
        tc_nvml_sampler *s = tc_nvml_sample_start(b->nvml, 5);
        int rc = tct_launch(ks, best_ilp, blocks, best_w, (int)big, (uint32_t)best_mode, &r, err, sizeof err);
        tc_nvml_summary sum_r;
        tc_nvml_sample_stop(s, &sum_r);
        if (rc != 0)
            { fail(o, TC_BENCH_ERROR, rc > 0 ? "the best point no longer fits" : err); return; }
        double fma = launch_fma(ks, best_ilp, best_w, (int)big, blocks);
        tc_bench_whole *w = &whole[z];
        w->tflops = 2 * fma / (r.ms * 1e-3) / 1e12;
        w->ms = r.ms;
        w->blocks = blocks;
        w->iterations = big;
        w->fma_from_cycles = launch_fma(ks, best_ilp, best_w, (int)big, 1) / r.span_mean;
        w->fma_at_nvml_clock = sum_r.sm_clock_mean > 0 ? fma / (r.ms * 1e-3 * sum_r.sm_clock_mean * 1e6 * blocks) : -1;
        set_reading(&w->nvml, &sum_r);
    }
    memcpy(o->whole, whole, sizeof whole);
    o->has_whole = true;
}

bool tc_bench_point_valid(const tc_instr *ins, const tc_bench_point *p)
{
    const tct_kernel_set *ks = tct_find(ins->name);
    if (!ks || p->ilp < 1 || p->ilp > TC_BENCH_ILP || p->mode < 0 || p->mode > (ks->group == 128))
        return false;
    const int *wl = ks->group == 128 ? wg_warps : mma_warps;
    int nw = ks->group == 128 ? 8 : 10;
    for (int i = 0; i < nw; i++)
        if (wl[i] == p->warps)
            return true;
    return false;
}

void tc_bench_instr_at(tc_bench *b, const tc_instr *ins, const tc_bench_point *p, tc_bench_result *o)
{
    kernel_check kc[9];
    const tct_kernel_set *ks = begin_instr(b, ins, o, kc);
    if (!ks)
        return;
    o->at_point = true;
    char err[400];
    if (!tc_bench_point_valid(ins, p)) {
        snprintf(err, sizeof err, "the point (ILP %d, %d warps, staging %d) is not one of the table's", p->ilp,
                 p->warps, p->mode);
        fail(o, TC_BENCH_ERROR, err);
        return;
    }
    if (!kc[p->ilp].usable)
        { fail(o, TC_BENCH_REFUSED, kc[p->ilp].check.message); return; }
    int iters = TABLE_ITERS(o->wgmma);
    o->table_iters = iters;
    double best = 0;
    tct_launch_result r;
    for (int run = -1; run < POINT_RUNS; run++) {
        int rc = tct_launch(ks, p->ilp, b->dev.sm_count, p->warps, iters, (uint32_t)p->mode, &r, err, sizeof err);
        if (rc < 0)
            { fail(o, TC_BENCH_ERROR, err); return; }
        if (rc > 0)
            { fail(o, TC_BENCH_ERROR, "the point does not fit on an SM here (registers)"); return; }
        if (run < 0 || !r.distinct_sms)
            continue;
        double f = launch_fma(ks, p->ilp, p->warps, iters, 1) / r.span_mean;
        best = f > best ? f : best;
    }
    if (best <= 0)
        { fail(o, TC_BENCH_ERROR, "the point never ran with one block on each SM"); return; }
    o->best_fma = best;
    o->best_ilp = p->ilp;
    o->best_warps = p->warps;
    o->best_mode = p->mode;
}

void tc_bench_cublas(tc_bench *b, const char *type, int size, tc_bench_gemm *o)
{
    memset(o, 0, sizeof *o);
    o->type = type;
    o->size = size;
    o->library = "cuBLASLt (dlopen libcublasLt), TN, random inputs in [-1,1), f32 accumulate";
    double mean, mn;
    tc_nvml_sampler *s = tc_nvml_sample_start(b->nvml, 5);
    int rc = tct_cublas_gemm(type, size, 10, &mean, &mn, o->error, sizeof o->error);
    tc_nvml_summary sum;
    tc_nvml_sample_stop(s, &sum);
    if (rc != 0)
        return;
    o->ok = true;
    double flop = 2.0 * size * (double)size * size;
    o->tflops = flop / (mean * 1e-3) / 1e12;
    o->tflops_best = flop / (mn * 1e-3) / 1e12;
    o->ms_mean = mean;
    set_reading(&o->nvml, &sum);
}

#else /* no CUDA in this build */

struct tc_bench {
    int unused;
};

tc_bench *tc_bench_open(const tc_bench_opts *o, char *err, size_t errlen)
{
    snprintf(err, errlen, TC_NO_GPU_BUILD);
    return NULL;
}
void tc_bench_close(tc_bench *b) {}
void tc_bench_open_seconds(tc_bench *b, double *gpu_s, double *sass_s) { *gpu_s = *sass_s = 0; }
const char *tc_bench_sass_source(tc_bench *b) { return ""; }
void tc_bench_machine_read(tc_bench *b, tc_bench_machine *m) { memset(m, 0, sizeof *m); }
const char *tc_bench_gpu_name(const tc_bench *b) { return ""; }
bool tc_bench_has_kernel(const char *name) { return false; }
void tc_bench_instr(tc_bench *b, const tc_instr *ins, tc_bench_result *o) { memset(o, 0, sizeof *o); }
bool tc_bench_point_valid(const tc_instr *ins, const tc_bench_point *p) { return false; }
void tc_bench_instr_at(tc_bench *b, const tc_instr *ins, const tc_bench_point *p, tc_bench_result *o)
{
    memset(o, 0, sizeof *o);
}
void tc_bench_cublas(tc_bench *b, const char *type, int size, tc_bench_gemm *o) { memset(o, 0, sizeof *o); }

#endif
