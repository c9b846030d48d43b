/* model_gpu_check: the GPU model (probes/model_gpu.h) against the CPU model
 * and against the hardware, on hunt tiles (cases/hunt.h) of every
 * instruction of a profile and every hunt family, for
 * tools/device.sh model-gpu on a GPU machine.
 *
 * Batches go round robin over the (instruction, family) pairs, so that all
 * are covered before any is covered twice (a pair's first batch is at most
 * 2^18 outputs, the later ones --batch). Every batch: inputs drawn on all
 * cores (chunk c of a pair is the hunt stream of seed + c, so chunk 0 is what
 * `tcscope hunt --seed S` draws), the GPU model's answers, and
 *   - for the first --cpu-seconds: the CPU model's (model_mma, all cores),
 *     compared bit for bit: GPU model = CPU model, 0 differences expected;
 *   - until --seconds: the hardware's (--hw gpu:N), compared the same way:
 *     GPU model = tensor cores where the profile is exact for the device.
 * Each comparison is counted apart (elements, differences, per instruction
 * and family). The record (--out DIR/model-gpu-check.json) holds the counts,
 * the seed, the first differing inputs, and a replay sample: the first
 * SAMPLE answers of chunk 0 of every pair with a hash of that tile's inputs,
 * and for one family per instruction (turning with the instruction) its
 * first element's inputs and answer as bits (element0), which
 * tests/test_model_gpu.c regenerates and replays through the CPU model.
 *
 *   model_gpu_check --out DIR [--profile h100] [--seconds 300] [--cpu-seconds 240]
 *                   [--hw gpu:0|none] [--dev N|cpu] [--seed S] [--batch ELEMS] [--instr NAME,..]
 * --dev cpu is a dry run without a GPU: the CPU computes the "GPU model" side
 * too (tc_model_gpu_mma without a GPU), and the record says gpu_model "cpu". 
 * Exit 0 when nothing differs, 1 on a difference, 2 on bad input or a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "oracle/oracle.h"
#include "oracle/profile.h"
#include "probes/model_gpu.h"
#include "probes/probes.h"
#include "reports/reports.h"
#include "probes/clock.h"

#define SAMPLE 8
#define FIRST_BATCH ((size_t)1 << 18)
#define MAX_PAIRS 4096
#define MAX_DIFFS 8

typedef struct {
    const tc_instr *ins;
    int fam;
    infer_target t;
    model *m;
    bool hw;                       /* the hardware runs this instruction */
    json_t *element0;              /* one pair per instruction: chunk 0's first element, inputs and answer */
    size_t chunks;                 /* chunks drawn so far */
    size_t n_cpu, d_cpu, n_hw, d_hw, cpu_fallback;
    char sample[SAMPLE * 16 + 1];  /* hex of chunk 0's first answers */
    uint64_t sample_fnv;           /* FNV-1a of chunk 0's first tile (A, B, C bits) */
} pair;

/* ---- drawing a batch on all cores ---- */

typedef struct {
    const pair *p;
    uint64_t seed;
    size_t chunk0, tiles_per_chunk;
    uint64_t *A, *B, *C;
} draw_job;

/* Chunks [lo, hi) of the batch: chunk c is the hunt stream of seed + chunk0 + c. */
static void draw(void *arg, size_t lo, size_t hi)
{
    draw_job *j = arg;
    const infer_target *t = &j->p->t;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tc = (size_t)t->m * t->n;
    for (size_t c = lo; c < hi; c++) {
        uint64_t st = hunt_family_seed(j->seed + j->chunk0 + c, j->p->fam);
        for (size_t q = 0; q < j->tiles_per_chunk; q++) {
            size_t tile = c * j->tiles_per_chunk + q;
            hunt_fill_tile(t, j->p->fam, &st, j->A + tile * ta, j->B + tile * tb, j->C + tile * tc);
        }
    }
}

static void draw_all(const pair *p, uint64_t seed, size_t nchunks, size_t tpc, uint64_t *A, uint64_t *B, uint64_t *C)
{
    draw_job j = {p, seed, p->chunks, tpc, A, B, C};
    oracle_parallel(nchunks, nchunks * tpc * (size_t)p->t.m * p->t.n * (size_t)p->t.k, draw, &j);
}

/* ---- the record's first differences ---- */

static json_t *diffs;

static json_t *hexs(const uint64_t *v, size_t n, size_t stride)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) {
        char b[24];
        snprintf(b, sizeof b, "0x%llx", (unsigned long long)v[i * stride]);
        json_array_append_new(a, json_string(b));
    }
    return a;
}

static size_t compare(const pair *p, const char *what, size_t ntiles, const uint64_t *A, const uint64_t *B,
                      const uint64_t *C, const uint64_t *X, const uint64_t *Y)
{
    const infer_target *t = &p->t;
    size_t mn = (size_t)t->m * t->n, bad = 0;
    for (size_t o = 0; o < ntiles * mn; o++) {
        if (X[o] == Y[o])
            continue;
        if (bad++ == 0 && json_array_size(diffs) < MAX_DIFFS) {
            size_t tile = o / mn, i = (o % mn) / (size_t)t->n, j = o % (size_t)t->n;
            char g[24], h[24], c[24];
            snprintf(c, sizeof c, "0x%llx", (unsigned long long)C[o]);
            snprintf(g, sizeof g, "0x%llx", (unsigned long long)X[o]);
            snprintf(h, sizeof h, "0x%llx", (unsigned long long)Y[o]);
            json_array_append_new(
                diffs, json_pack("{s:s, s:s, s:s, s:o, s:o, s:s, s:s, s:s}", "instr", p->ins->name, "family",
                                 hunt_family_name(p->fam), "against", what, "a",
                                 hexs(A + tile * t->m * t->k + i * t->k, (size_t)t->k, 1), "b",
                                 hexs(B + tile * t->k * t->n + j, (size_t)t->k, (size_t)t->n), "c", c,
                                 "gpu_model", g, "other", h));
        }
    }
    return bad;
}

/* ---- the run ---- */

typedef struct {
    const char *out, *profile, *hw, *instr;
    double seconds, cpu_seconds;
    int dev;                       /* -1: --dev cpu, the dry run */
    uint64_t seed;
    size_t batch;
} args;

static int usage(const char *msg)
{
    fprintf(stderr, "model_gpu_check: %s\n"
                    "usage: model_gpu_check --out DIR [--profile P] [--seconds S] [--cpu-seconds S] [--hw gpu:N|none]"
                    " [--dev N|cpu] [--seed S] [--batch ELEMS] [--instr NAME,..]\n", msg);
    return 2;
}

static int parse(int argc, char **argv, args *a)
{
    *a = (args){NULL, "h100", "gpu:0", "all", 300, 240, 0, 0x4B1D5EED, (size_t)1 << 22};
    for (int i = 1; i < argc; i += 2) {   /* option, value */
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage("an option lacks its value");
        char *end = NULL;
        if (!strcmp(o, "--out"))
            a->out = v;
        else if (!strcmp(o, "--profile"))
            a->profile = v;
        else if (!strcmp(o, "--hw"))
            a->hw = v;
        else if (!strcmp(o, "--instr"))
            a->instr = v;
        else if (!strcmp(o, "--seconds"))
            a->seconds = strtod(v, &end);
        else if (!strcmp(o, "--cpu-seconds"))
            a->cpu_seconds = strtod(v, &end);
        else if (!strcmp(o, "--dev") && !strcmp(v, "cpu"))
            a->dev = -1;
        else if (!strcmp(o, "--dev"))
            a->dev = (int)strtol(v, &end, 10);
        else if (!strcmp(o, "--seed"))
            a->seed = strtoull(v, &end, 0);
        else if (!strcmp(o, "--batch"))
            a->batch = (size_t)strtoull(v, &end, 10);
        else
            return usage("unknown option");
        if (end && (*end || end == v))
            return usage("a number is malformed");
    }
    if (!a->out || a->seconds <= 0 || a->cpu_seconds < 0 || a->batch < 1 || a->batch > ((size_t)1 << 26))
        return usage("needs --out DIR; --seconds > 0, --cpu-seconds >= 0, --batch 1..2^26");
    return 0;
}

static bool selected(const char *sel, const char *name)
{
    if (!strcmp(sel, "all"))
        return true;
    size_t n = strlen(name);
    for (const char *p = sel; (p = strstr(p, name)); p += n)
        if ((p == sel || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

/* The pairs: every selected instruction of the profile that the hunt
 * applies to, times every family. */
static size_t make_pairs(const model_profile *prof, const args *a, tc_backend *hw, pair *pairs,
                         audit_backend_ctx *ctxs, json_t *skipped)
{
    size_t np = 0, ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    for (size_t i = 0; i < ncat; i++) {
        const tc_instr *ins = &cat[i];
        const model_params *p = profile_lookup(prof, ins->name);
        if (!selected(a->instr, ins->name))
            continue;
        ctxs[i] = (audit_backend_ctx){hw, ins};
        infer_target t = audit_target(&ctxs[i], a->seed);
        if (!p || !hunt_applies(&t)) {
            json_array_append_new(skipped, json_pack("{s:s, s:s}", "instr", ins->name, "why",
                                                     !p ? "no profile entry" : "integer formats: no hunt"));
            continue;
        }
        char err[256], why[256];
        model *m = model_new(p, t.f, err, sizeof err);
        if (!m) {
            json_array_append_new(skipped, json_pack("{s:s, s:s}", "instr", ins->name, "why", err));
            continue;
        }
        const char *gpu_no = tc_model_gpu_unsupported(m, t.k);
        if (gpu_no) {   /* the CPU would compute both sides */
            json_array_append_new(skipped, json_pack("{s:s, s:s}", "instr", ins->name, "why", gpu_no));
            model_free(m);
            continue;
        }
        bool on_hw = hw && tc_backend_supports(hw, ins, why, sizeof why);
        for (int f = 0; f < HUNT_NFAMILIES && np < MAX_PAIRS; f++)
            pairs[np++] = (pair){.ins = ins, .fam = f, .t = t, .m = f == 0 ? m : NULL, .hw = on_hw,
                                 /* the family turns with the instruction */
                                 .element0 = f == (int)(i % HUNT_NFAMILIES) ? json_null() : NULL};
        for (size_t q = np - HUNT_NFAMILIES; q < np; q++)
            pairs[q].m = m;   /* freed once, by the pair of family 0 */
    }
    return np;
}

static json_t *pair_json(const pair *p)
{
    char fnv[24];
    snprintf(fnv, sizeof fnv, "0x%016llx", (unsigned long long)p->sample_fnv);
    json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:s, s:s}", "instr", p->ins->name, "family",
                          hunt_family_name(p->fam), "chunks", (json_int_t)p->chunks, "gpu_vs_cpu",
                          (json_int_t)p->n_cpu, "gpu_vs_cpu_differ", (json_int_t)p->d_cpu, "gpu_vs_hw",
                          (json_int_t)p->n_hw, "gpu_vs_hw_differ", (json_int_t)p->d_hw, "cpu_fallback",
                          (json_int_t)p->cpu_fallback, "sample", p->sample, "sample_fnv", fnv);
    if (json_is_object(p->element0))
        json_object_set(o, "element0", p->element0);
    return o;
}

/* One batch of pair p: draw, the GPU model, then the CPU model and/or the
 * hardware. 0, or -1 with err. */
static int batch(pair *p, const args *a, tc_model_gpu *g, bool with_cpu, size_t *tiles_out, double *t_gpu,
                 double *t_cpu, double *t_hw, char *err, size_t errlen)
{
    const infer_target *t = &p->t;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, mn = (size_t)t->m * t->n;
    /* a pair's first batch small, so that the CPU's time covers every pair */
    size_t want = p->chunks == 0 && a->batch > FIRST_BATCH ? FIRST_BATCH : a->batch;
    size_t tpc = (want / 64 + mn - 1) / mn, nchunks = 64;   /* 64 chunks: every core draws */
    tpc = tpc < 1 ? 1 : tpc;
    size_t nt = tpc * nchunks;
    /* the batch's arrays, kept from batch to batch (no page faults per batch) */
    static uint64_t *buf[5];
    static size_t cap[5];
    size_t need[5] = {nt * ta, nt * tb, nt * mn, nt * mn, nt * mn};
    for (int i = 0; i < 5; i++)
        if (need[i] > cap[i]) {
            free(buf[i]);
            cap[i] = 0;
            if (!(buf[i] = malloc(need[i] * 8))) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
            cap[i] = need[i];
        }
    uint64_t *A = buf[0], *B = buf[1], *C = buf[2], *G = buf[3], *X = buf[4];
    int rc = -1;
    draw_all(p, a->seed, nchunks, tpc, A, B, C);
    double t0 = tc_now_s();
    tc_model_gpu_count cnt = {0};
    if (tc_model_gpu_mma(g, p->m, t->m, t->n, t->k, nt, A, B, C, G, &cnt, err, errlen))
        goto out;
    *t_gpu += tc_now_s() - t0;
    p->cpu_fallback += cnt.cpu;
    if (p->chunks == 0) {
        p->sample_fnv = hunt_tile_hash(t, A, B, C);
        int digits = t->f.d->storage_bits / 4;
        size_t ns = mn < SAMPLE ? mn : SAMPLE;
        for (size_t e = 0; e < ns && digits <= 16; e++)
            snprintf(p->sample + e * (size_t)digits, (size_t)digits + 1, "%0*llx", digits,
                     (unsigned long long)G[e]);
        if (p->element0) {   /* row 0 of A, column 0 of B, C and D of element 0, as bits */
            char c0[24], d0[24];
            snprintf(c0, sizeof c0, "0x%llx", (unsigned long long)C[0]);
            snprintf(d0, sizeof d0, "0x%llx", (unsigned long long)G[0]);
            p->element0 = json_pack("{s:o, s:o, s:s, s:s}", "a", hexs(A, (size_t)t->k, 1), "b",
                                    hexs(B, (size_t)t->k, (size_t)t->n), "c", c0, "d", d0);
        }
    }
    if (with_cpu) {
        t0 = tc_now_s();
        model_mma(p->m, t->m, t->n, t->k, nt, A, B, C, X);
        *t_cpu += tc_now_s() - t0;
        p->n_cpu += nt * mn;
        p->d_cpu += compare(p, "cpu_model", nt, A, B, C, G, X);
    }
    if (p->hw) {
        t0 = tc_now_s();
        if (t->run(t->ctx, nt, A, B, C, X, err, errlen))
            goto out;
        *t_hw += tc_now_s() - t0;
        p->n_hw += nt * mn;
        p->d_hw += compare(p, "hardware", nt, A, B, C, G, X);
    }
    p->chunks += nchunks;
    *tiles_out = nt * mn;
    rc = 0;
out:
    return rc;
}

int main(int argc, char **argv)
{
    args a;
    if (parse(argc, argv, &a))
        return 2;
    char err[512], path[1100];
    model_profile prof;
    if (!tc_profile_path(a.profile, path, sizeof path) || profile_load(path, &prof, err, sizeof err)) {
        fprintf(stderr, "model_gpu_check: profile %s: %s\n", a.profile, err);
        return 2;
    }
    tc_model_gpu *g = a.dev < 0 ? NULL : tc_model_gpu_open(a.dev, err, sizeof err);
    if (!g && a.dev >= 0) {
        fprintf(stderr, "model_gpu_check: %s\n", err);
        return 2;
    }
    tc_backend *hw = NULL;
    if (strcmp(a.hw, "none") && !(hw = tc_backend_open(a.hw, err, sizeof err))) {
        fprintf(stderr, "model_gpu_check: --hw %s: %s\n", a.hw, err);
        return 2;
    }
    size_t ncat;
    tc_catalogue(&ncat);
    pair *pairs = calloc(MAX_PAIRS, sizeof *pairs);
    audit_backend_ctx *ctxs = calloc(ncat, sizeof *ctxs);
    json_t *skipped = json_array();
    diffs = json_array();
    if (!pairs || !ctxs)
        return 2;
    size_t np = make_pairs(&prof, &a, hw, pairs, ctxs, skipped);
    if (np == 0)
        return usage("no instruction of the profile to check");
    double t0 = tc_now_s(), t_gpu = 0, t_cpu = 0, t_hw = 0;
    int status = 0;
    size_t rounds = 0;
    for (bool more = true; more; rounds++) {
        bool did = false;
        for (size_t i = 0; i < np; i++) {
            double el = tc_now_s() - t0;
            if (el >= a.seconds) {
                more = false;
                break;
            }
            if (el >= a.cpu_seconds && !pairs[i].hw)
                continue;   /* nothing left to compare it with */
            size_t n = 0;
            if (batch(&pairs[i], &a, g, el < a.cpu_seconds, &n, &t_gpu, &t_cpu, &t_hw, err, sizeof err)) {
                fprintf(stderr, "model_gpu_check: %s %s: %s\n", pairs[i].ins->name,
                        hunt_family_name(pairs[i].fam), err);
                more = false;
                status = 2;
                break;
            }
            did = true;
        }
        more = more && did;
    }
    size_t n_cpu = 0, d_cpu = 0, n_hw = 0, d_hw = 0, fb = 0, covered = 0;
    json_t *per = json_array();
    for (size_t i = 0; i < np; i++) {
        n_cpu += pairs[i].n_cpu, d_cpu += pairs[i].d_cpu, n_hw += pairs[i].n_hw, d_hw += pairs[i].d_hw;
        fb += pairs[i].cpu_fallback;
        covered += pairs[i].n_cpu > 0;
        json_array_append_new(per, pair_json(&pairs[i]));
    }
    if (d_cpu || d_hw)
        status = status ? status : 1;
    double secs = tc_now_s() - t0;
    const tc_backend_info *hi = hw ? tc_backend_get_info(hw) : NULL;
    json_t *rec = json_pack(
        "{s:s, s:s, s:s, s:s, s:s, s:s, s:I, s:I, s:f, s:I,"
        " s:{s:I, s:I, s:I, s:I, s:f, s:f, s:f},"
        " s:{s:I, s:I, s:f, s:f},"
        " s:I, s:o, s:o, s:o}",
        "record", "model-gpu-check", "commit", tc_version(), "profile", a.profile, "gpu_model", g ? tc_model_gpu_name(g) : "cpu", "hw", a.hw, "device",
        hi ? hi->device : "", "seed", (json_int_t)a.seed, "sample_elements", (json_int_t)SAMPLE, "seconds", secs,
        "rounds", (json_int_t)rounds,
        "gpu_vs_cpu", "elements", (json_int_t)n_cpu, "differ", (json_int_t)d_cpu, "pairs_covered", (json_int_t)covered,
        "cpu_fallback", (json_int_t)fb, "gpu_model_s", t_gpu, "cpu_model_s", t_cpu, "cpu_seconds_budget", a.cpu_seconds,
        "gpu_vs_hw", "elements", (json_int_t)n_hw, "differ", (json_int_t)d_hw, "hw_s", t_hw, "seconds_budget",
        a.seconds,
        "pairs", (json_int_t)np, "per_pair", per, "skipped", skipped, "first_differences", diffs);
    char out[1200];
    snprintf(out, sizeof out, "%s/model-gpu-check.json", a.out);
    if (!rec || json_dump_file(rec, out, JSON_COMPACT) != 0) {
        fprintf(stderr, "model_gpu_check: cannot write %s\n", out);
        status = 2;
    }
    printf("GPU model vs CPU model: %zu elements, %zu differ (%zu of %zu instruction x family pairs; %zu by the "
           "CPU fallback); GPU model %.1f s, CPU model %.1f s\n"
           "GPU model vs hardware (%s): %zu elements, %zu differ; hardware %.1f s\n"
           "%zu rounds in %.1f s -> %s\n",
           n_cpu, d_cpu, covered, np, fb, t_gpu, t_cpu, a.hw, n_hw, d_hw, t_hw, rounds, secs, out);
    json_decref(rec);
    for (size_t i = 0; i < np; i++) {
        json_decref(pairs[i].element0);
        if (pairs[i].fam == 0)
            model_free(pairs[i].m);
    }
    free(pairs);
    free(ctxs);
    tc_backend_close(hw);
    tc_model_gpu_close(g);
    profile_free(&prof);
    return status;
}
