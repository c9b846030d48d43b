/* timing: the bench of probes/timing.h. For each instruction: the SASS check
 * of its kernels, latency (5 runs), the ILP x warps table, the best point as
 * a fraction of the peak, and whole-GPU TFLOP/s with NVML readings. */
#include "probes/timing.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/nvml.h"
#include "probes/sass.h"

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

struct tc_bench {
    tct_device dev;
    tc_nvml *nvml;
    char nvml_why[200];
    tc_sass *sass;
    char sass_err[400];
    bool quick;
    bool no_whole_gpu;
};

/* Reads the disassembly: a given file, or cuobjdump run on this program. */
static char *read_sass_text(const char *path, char *err, size_t errlen)
{
    FILE *f;
    bool is_pipe = false;
    char cmd[1400];
    if (path) {
        f = fopen(path, "r");
        if (!f) {
            snprintf(err, errlen, "cannot read the SASS file %s", path);
            return NULL;
        }
    } else {
        char self[1024];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) {
            snprintf(err, errlen, "cannot find this program's path to disassemble it");
            return NULL;
        }
        self[n] = '\0';
        const char *tool = getenv("TCSCOPE_CUOBJDUMP");
        if (!tool)
            tool = access("/usr/local/cuda/bin/cuobjdump", X_OK) == 0 ? "/usr/local/cuda/bin/cuobjdump" : "cuobjdump";
        snprintf(cmd, sizeof cmd, "'%s' -sass '%s' 2>/dev/null", tool, self);
        f = popen(cmd, "r");
        is_pipe = true;
        if (!f) {
            snprintf(err, errlen, "cannot run %s", tool);
            return NULL;
        }
    }
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    if (!buf)
        abort();
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
            if (!buf)
                abort();
        }
    }
    buf[len] = '\0';
    int st = is_pipe ? pclose(f) : fclose(f);
    if (len == 0 || (is_pipe && st != 0)) {
        snprintf(err, errlen, "no SASS: '%.200s' failed (install the CUDA toolkit's cuobjdump, set TCSCOPE_CUOBJDUMP, or give --sass FILE)",
                 is_pipe ? cmd : path);
        free(buf);
        return NULL;
    }
    return buf;
}

tc_bench *tc_bench_open(const tc_bench_opts *o, char *err, size_t errlen)
{
    tc_bench *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    b->quick = o->quick;
    b->no_whole_gpu = o->no_whole_gpu;
    if (tct_open(o->device, &b->dev, err, errlen) != 0) {
        free(b);
        return NULL;
    }
    b->nvml = tc_nvml_open(b->dev.pci, b->nvml_why, sizeof b->nvml_why);
    char *text = read_sass_text(o->sass_path, b->sass_err, sizeof b->sass_err);
    if (text) {
        b->sass = tc_sass_parse(text, b->sass_err, sizeof b->sass_err);
        free(text);
    }
    return b;
}

void tc_bench_close(tc_bench *b)
{
    if (!b)
        return;
    tc_nvml_close(b->nvml);
    tc_sass_free(b->sass);
    free(b);
}

const char *tc_bench_gpu_name(const tc_bench *b)
{
    return b->dev.name;
}

bool tc_bench_has_kernel(const char *name)
{
    return tct_find(name) != NULL;
}

static json_t *num_or_null(double v)
{
    return v < 0 ? json_null() : json_real(v);
}

json_t *tc_bench_machine(tc_bench *b)
{
    json_t *m = json_object();
    json_object_set_new(m, "gpu", json_string(b->dev.name));
    json_object_set_new(m, "pci_bus_id", json_string(b->dev.pci));
    json_object_set_new(m, "sm", json_integer(b->dev.sm));
    json_object_set_new(m, "sm_count", json_integer(b->dev.sm_count));
    json_object_set_new(m, "rated_sm_clock_mhz", json_real(b->dev.clock_khz / 1000.0));
    char v[32];
    snprintf(v, sizeof v, "%d.%d", b->dev.driver_version / 1000, b->dev.driver_version % 1000 / 10);
    json_object_set_new(m, "cuda_driver_api", json_string(v));
    snprintf(v, sizeof v, "%d.%d", b->dev.runtime_version / 1000, b->dev.runtime_version % 1000 / 10);
    json_object_set_new(m, "cuda_runtime", json_string(v));
    tc_nvml_reading r;
    tc_nvml_read(b->nvml, &r);
    json_object_set_new(m, "driver", b->nvml ? json_string(tc_nvml_driver(b->nvml)) : json_null());
    json_object_set_new(m, "nvml", b->nvml ? json_true() : json_string(b->nvml_why));
    json_object_set_new(m, "max_sm_clock_mhz", r.max_sm_clock_mhz < 0 ? json_null() : json_integer(r.max_sm_clock_mhz));
    json_object_set_new(m, "idle_sm_clock_mhz", r.sm_clock_mhz < 0 ? json_null() : json_integer(r.sm_clock_mhz));
    json_object_set_new(m, "power_limit_w", num_or_null(r.power_limit_w));
    json_object_set_new(m, "temperature_c", r.temperature_c < 0 ? json_null() : json_integer(r.temperature_c));
    json_object_set_new(m, "sass_source", b->sass ? json_string("cuobjdump -sass of this program") : json_null());
    if (!b->sass)
        json_object_set_new(m, "sass_error", json_string(b->sass_err));
    return m;
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

static void check_kernel(tc_bench *b, const tct_kernel_set *ks, const tc_instr *ins, int ilp, kernel_check *kc)
{
    char fn[200];
    if (ilp == 0)
        snprintf(fn, sizeof fn, "%s_lat", ks->symbol);
    else
        snprintf(fn, sizeof fn, "%s_i%d", ks->symbol, ilp);
    int expected = (ilp == 0 ? 1 : ilp * ks->unroll) * (ks->sass_per_mma > 1 ? ks->sass_per_mma : 1);
    memset(kc, 0, sizeof *kc);
    if (!b->sass) {
        snprintf(kc->check.message, sizeof kc->check.message, "%.60s: SASS not checked: %.200s", fn, b->sass_err);
        return;
    }
    tc_sass_check_loop(b->sass, fn, ins->sass, expected, &kc->check);
    kc->usable = kc->check.usable;
    kc->emulated = kc->check.emulated;
}

static json_t *check_json(const kernel_check *kc)
{
    json_t *o = json_object();
    json_object_set_new(o, "verdict", json_string(kc->check.message[0] && !kc->check.stem[0] ? "unchecked" : tc_sass_verdict_name(kc->check.verdict)));
    json_object_set_new(o, "usable", json_boolean(kc->usable));
    json_object_set_new(o, "emulated", json_boolean(kc->emulated));
    json_object_set_new(o, "opcode", json_string(kc->check.opcode));
    json_object_set_new(o, "expected", json_integer(kc->check.expected));
    json_object_set_new(o, "in_loop", json_integer(kc->check.in_loop));
    json_object_set_new(o, "per_mma", json_integer(kc->check.per_mma));
    json_object_set_new(o, "conversions_in_loop", json_integer(kc->check.conversions_in_loop));
    json_object_set_new(o, "message", json_string(kc->check.message));
    return o;
}

/* FMAs of one launch. */
static double launch_fma(const tct_kernel_set *ks, int ilp, int warps, int iters, int blocks)
{
    double issuers = warps * 32.0 / ks->group;
    return (double)ks->fma_per_mma * ilp * ks->unroll * (double)iters * issuers * blocks;
}

static void set_reading(json_t *o, const tc_nvml_summary *s)
{
    json_object_set_new(o, "nvml_samples", json_integer(s->samples));
    json_object_set_new(o, "sm_clock_mhz_mean", num_or_null(s->sm_clock_mean));
    json_object_set_new(o, "sm_clock_mhz_min", num_or_null(s->sm_clock_min));
    json_object_set_new(o, "sm_clock_mhz_max", num_or_null(s->sm_clock_max));
    json_object_set_new(o, "power_w_mean", num_or_null(s->power_mean));
    json_object_set_new(o, "power_w_max", num_or_null(s->power_max));
    if (s->throttle_known) {
        char names[300];
        tc_nvml_throttle_names(s->throttle_or, names, sizeof names);
        char hex[24];
        snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)s->throttle_or);
        json_object_set_new(o, "throttle_reasons", json_string(hex));
        json_object_set_new(o, "throttle_names", json_string(names));
    } else {
        json_object_set_new(o, "throttle_reasons", json_null());
    }
}

static json_t *fail(json_t *o, const char *key, const char *msg)
{
    json_object_set_new(o, key, json_string(msg));
    return o;
}

json_t *tc_bench_instr(tc_bench *b, const tc_instr *ins)
{
    json_t *o = json_object();
    char err[400];
    json_object_set_new(o, "instr", json_string(ins->name));
    json_object_set_new(o, "api", json_string(ins->api));
    json_object_set_new(o, "sass_expected", json_string(ins->sass));
    double peak = tc_timing_peak_fma_per_clk(ins);
    json_object_set_new(o, "peak_fma_per_clk_per_sm", peak > 0 ? json_real(peak) : json_null());
    const tct_kernel_set *ks = tct_find(ins->name);
    if (!ks)
        return fail(o, "not_timed", "no timing kernel for this instruction (not implemented)");
    bool wg = ks->group == 128;

    /* SASS of every kernel used: a kernel whose loop does not hold the MMAs
     * it was built with gives no number. */
    kernel_check kc[9];
    bool any = false, emulated = false;
    json_t *kj = json_object();
    for (int i = wg ? 0 : 1; i <= 8; i++) {
        check_kernel(b, ks, ins, i, &kc[i]);
        any |= kc[i].usable;
        emulated |= kc[i].emulated;
        char key[16];
        snprintf(key, sizeof key, i ? "ilp%d" : "latency", i);
        json_object_set_new(kj, key, check_json(&kc[i]));
    }
    json_object_set_new(o, "sass_kernels", kj);
    json_object_set_new(o, "sass", json_string(tc_sass_verdict_name(kc[1].check.verdict)));
    json_object_set_new(o, "sass_opcode", json_string(kc[1].check.opcode));
    json_object_set_new(o, "emulated", json_boolean(emulated));
    if (emulated) {
        char what[200];
        snprintf(what, sizeof what, "%d %s per PTX instruction, %d conversions in the ILP-1 loop",
                 kc[1].check.per_mma, kc[1].check.opcode, kc[1].check.conversions_in_loop);
        json_object_set_new(o, "emulation", json_string(what));
    }
    if (!any || !kc[1].usable)
        return fail(o, "refused", kc[1].check.message);

    static uint32_t words[TCT_INPUT_WORDS];
    make_inputs(ins, false, words, TCT_INPUT_WORDS);
    if (tct_set_inputs(words, TCT_INPUT_WORDS, err, sizeof err) != 0)
        return fail(o, "error", err);

    tct_launch_result r;
    /* Long enough that a one-off stall of a few hundred cycles moves the
     * per-MMA figure by well under a cycle (seen with 256: +1.4 cycles in
     * about 1 run of 15 on the H100). */
    const int lat_iters = 2048;
    /* Latency: 1 warp (1 warpgroup), a dependent chain; warm-up, then 5 runs. */
    int lat_ilp = wg ? 0 : 1;
    if (wg && !kc[0].usable)
        return fail(o, "refused", kc[0].check.message);
    json_t *runs = json_array();
    double lo = 1e300, hi = 0, sum = 0;
    for (int run = -1; run < 5; run++) {
        if (tct_launch(ks, lat_ilp, 1, wg ? 4 : 1, lat_iters, 0, &r, err, sizeof err) != 0)
            return fail(o, "error", err);
        if (run < 0)
            continue;
        double c = r.span_mean / ((double)lat_iters * (wg ? 1 : ks->unroll));
        json_array_append_new(runs, json_real(c));
        lo = c < lo ? c : lo;
        hi = c > hi ? c : hi;
        sum += c;
    }
    json_object_set_new(o, "latency_cycles_runs", runs);
    json_object_set_new(o, "latency_cycles", json_real(sum / 5));
    json_object_set_new(o, "latency_spread_cycles", json_real(hi - lo));

    /* Throughput table; wgmma in both staging layouts, the better kept. */
    static const int mma_warps[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
    static const int wg_warps[] = {4, 8, 12, 16, 20, 24, 28, 32};
    const int *wl = wg ? wg_warps : mma_warps;
    int nw = wg ? 8 : 10;
    int tab_iters = wg ? 64 : 128;
    int blocks = b->dev.sm_count;
    double best = 0;
    int best_ilp = 0, best_w = 0, best_mode = 0;
    double best_span = 0;
    json_t *modes = json_array();
    for (int mode = 0; mode < (wg ? 2 : 1); mode++) {
        json_t *tab = json_array();
        for (int ilp = 1; ilp <= 8; ilp++) {
            json_t *row = json_array();
            for (int wi = 0; wi < nw; wi++) {
                if (!kc[ilp].usable) {
                    json_array_append_new(row, json_null());
                    continue;
                }
                int rc = tct_launch(ks, ilp, blocks, wl[wi], tab_iters, (uint32_t)mode, &r, err, sizeof err);
                if (rc < 0)
                    return fail(o, "error", err);
                if (rc > 0 || !r.distinct_sms) {
                    json_array_append_new(row, json_null());
                    continue;
                }
                double f = launch_fma(ks, ilp, wl[wi], tab_iters, 1) / r.span_mean;
                json_array_append_new(row, json_real(f));
                if (f > best) {
                    best = f;
                    best_ilp = ilp;
                    best_w = wl[wi];
                    best_mode = mode;
                    best_span = r.span_mean;
                }
            }
            json_array_append_new(tab, row);
        }
        json_array_append_new(modes, tab);
    }
    json_t *warps = json_array();
    for (int wi = 0; wi < nw; wi++)
        json_array_append_new(warps, json_integer(wl[wi]));
    json_t *table = json_object();
    json_object_set_new(table, "ilp", json_pack("[iiiiiiii]", 1, 2, 3, 4, 5, 6, 7, 8));
    json_object_set_new(table, "warps_per_sm", warps);
    json_object_set_new(table, "iterations", json_integer(tab_iters));
    json_object_set_new(table, "unit", json_string("FMA/clk/SM"));
    json_object_set_new(table, "fma_per_clk_per_sm", json_incref(json_array_get(modes, best_mode)));
    if (wg) {
        json_object_set_new(table, "ilp_means", json_string("wgmmas per commit group on one accumulator, one group in flight"));
        json_object_set_new(table, "staging", json_string(best_mode ? "128-byte swizzle" : "no swizzle"));
        json_object_set_new(table, "other_staging_fma_per_clk_per_sm", json_incref(json_array_get(modes, 1 - best_mode)));
    }
    json_decref(modes);
    json_object_set_new(o, "table", table);
    if (best <= 0)
        return fail(o, "error", "no point of the throughput table ran");
    json_object_set_new(o, "best_fma_per_clk_per_sm", json_real(best));
    json_object_set_new(o, "best_ilp", json_integer(best_ilp));
    json_object_set_new(o, "best_warps_per_sm", json_integer(best_w));
    json_object_set_new(o, "fraction_of_peak", peak > 0 ? json_real(best / peak) : json_null());

    if (wg && kc[8].usable) {
        /* Back-to-back issue: one warpgroup, 8 wgmmas per group, one group in flight. */
        if (tct_launch(ks, 8, 1, 4, lat_iters, (uint32_t)best_mode, &r, err, sizeof err) != 0)
            return fail(o, "error", err);
        json_object_set_new(o, "issue_interval_cycles", json_real(r.span_mean / (lat_iters * 8.0)));
    }

    if (b->no_whole_gpu) {
        json_object_set_new(o, "whole_gpu", json_null());
        return o;
    }
    /* Whole GPU at the best point, about 0.15 s a run, random then zero inputs. */
    double cyc_per_iter = best_span / tab_iters;
    double clk = b->dev.clock_khz > 0 ? b->dev.clock_khz * 1e3 : 1.5e9;
    long long big = (long long)(0.15 * clk / cyc_per_iter);
    if (big < tab_iters)
        big = tab_iters;
    if (big > 1 << 30)
        big = 1 << 30;
    json_t *whole = json_object();
    for (int z = 0; z < 2; z++) {
        make_inputs(ins, z == 1, words, TCT_INPUT_WORDS);
        if (tct_set_inputs(words, TCT_INPUT_WORDS, err, sizeof err) != 0)
            return fail(o, "error", err);
        /* A short warm-up launch, then the timed one under NVML sampling. */
        if (tct_launch(ks, best_ilp, blocks, best_w, tab_iters, (uint32_t)best_mode, &r, err, sizeof err) != 0)
            return fail(o, "error", err);
        tc_nvml_sampler *s = tc_nvml_sample_start(b->nvml, 5);
        int rc = tct_launch(ks, best_ilp, blocks, best_w, (int)big, (uint32_t)best_mode, &r, err, sizeof err);
        tc_nvml_summary sum_r;
        tc_nvml_sample_stop(s, &sum_r);
        if (rc != 0)
            return fail(o, "error", rc > 0 ? "the best point no longer fits" : err);
        double fma = launch_fma(ks, best_ilp, best_w, (int)big, blocks);
        json_t *w = json_object();
        json_object_set_new(w, "tflops", json_real(2 * fma / (r.ms * 1e-3) / 1e12));
        json_object_set_new(w, "ms", json_real(r.ms));
        json_object_set_new(w, "blocks", json_integer(blocks));
        json_object_set_new(w, "iterations", json_integer(big));
        json_object_set_new(w, "fma_per_clk_per_sm_from_cycles", json_real(launch_fma(ks, best_ilp, best_w, (int)big, 1) / r.span_mean));
        if (sum_r.sm_clock_mean > 0)
            json_object_set_new(w, "fma_per_clk_per_sm_at_nvml_clock",
                                json_real(fma / (r.ms * 1e-3 * sum_r.sm_clock_mean * 1e6 * blocks)));
        set_reading(w, &sum_r);
        json_object_set_new(whole, z ? "zero" : "random", w);
    }
    json_object_set_new(o, "whole_gpu", whole);
    return o;
}

json_t *tc_bench_cublas(tc_bench *b, const char *type, int size)
{
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(type));
    json_object_set_new(o, "m", json_integer(size));
    json_object_set_new(o, "n", json_integer(size));
    json_object_set_new(o, "k", json_integer(size));
    json_object_set_new(o, "library", json_string("cuBLASLt (dlopen libcublasLt), TN, random inputs in [-1,1), f32 accumulate"));
    double mean, mn;
    char err[300];
    tc_nvml_sampler *s = tc_nvml_sample_start(b->nvml, 5);
    int rc = tct_cublas_gemm(type, size, 10, &mean, &mn, err, sizeof err);
    tc_nvml_summary sum;
    tc_nvml_sample_stop(s, &sum);
    if (rc != 0)
        return fail(o, "error", err);
    double flop = 2.0 * size * (double)size * size;
    json_object_set_new(o, "tflops", json_real(flop / (mean * 1e-3) / 1e12));
    json_object_set_new(o, "tflops_best", json_real(flop / (mn * 1e-3) / 1e12));
    json_object_set_new(o, "ms_mean", json_real(mean));
    set_reading(o, &sum);
    return o;
}

#else /* no CUDA in this build */

struct tc_bench {
    int unused;
};

tc_bench *tc_bench_open(const tc_bench_opts *o, char *err, size_t errlen)
{
    snprintf(err, errlen, "no GPU: tcscope was built without CUDA (no nvcc at build time)");
    return NULL;
}
void tc_bench_close(tc_bench *b) {}
json_t *tc_bench_machine(tc_bench *b) { return json_object(); }
const char *tc_bench_gpu_name(const tc_bench *b) { return ""; }
bool tc_bench_has_kernel(const char *name) { return false; }
json_t *tc_bench_instr(tc_bench *b, const tc_instr *ins) { return json_object(); }
json_t *tc_bench_cublas(tc_bench *b, const char *type, int size) { return json_object(); }

#endif
