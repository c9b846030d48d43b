/* The hunt on the GPU (cases/hunt_gpu.h): the host's side of a round, over
 * the round kernels of cases/cuda/hunt_gpu.cu, the executor
 * (tc_backend_mma_dev) and the GPU model (tc_model_gpu_mma_dev). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases/hunt.h"
#include "cases/hunt_gpu.h"
#include "cases/hunt_gpu_run.h"
#include "oracle/oracle.h"
#include "probes/sparse.h"

/* Outputs per round (every family's tiles together): about 8 M, so a round
 * of the widest tiles holds under 1 GB of device memory. */
#define HUNT_GPU_ROUND_OUT ((size_t)1 << 23)

int hunt_gpu_sparse_meta(const tc_instr *ins, uint32_t *regs, int *n, char *err, size_t errlen)
{
    static int map[TC_SPARSE_MAP_MAX];   /* written before every read, on this thread */
    int threads = tc_sparse_meta_map(ins, map);
    size_t mk = (size_t)ins->m * (size_t)ins->k;
    if (!ins->sparse || !threads || threads > HUNT_SPARSE_META_MAX || mk > 64 * 64) {
        snprintf(err, errlen, "%s: no metadata layout for this instruction", ins->name);
        return -1;
    }
    /* the logical tile of a drawn one with every kept value zero: its kept
     * positions, the lowest of every group, are every drawn tile's */
    uint64_t zero[64 * 64] = {0}, ac[64 * 32];
    uint8_t nib[64 * 64 / 2];
    if (tc_sparse_compress(ins, zero, 0, ac, nib, err, errlen))
        return -1;
    tc_sparse_meta_regs_mapped(map, threads, nib, regs);
    *n = threads;
    return 0;
}

const char *hunt_gpu_unsupported(const infer_target *t, const tc_instr *ins, const model *m)
{
    const char *why = tc_model_gpu_unsupported(m, t->k);
    if (why)
        return why;
    if (ins->n > 1024)
        return "a tile over 1024 columns";
    if (!hunt_applies(t))
        return "integer formats";
    if (ins->sparse && !tc_sparse_meta_threads(ins))
        return "no metadata layout for this sparse instruction";
    return NULL;
}

#if TC_HAVE_CUDA

/* Seconds on the monotonic clock (the stages). */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void stage_add(verify_result *r, int stage, double *t0)
{
    double t = now_s();
    r->stage_s[stage] += t - *t0;
    *t0 = t;
}


struct hunt_gpu {
    tc_backend *be;
    tc_model_gpu *mg;
    hgpu *g;
};

hunt_gpu *hunt_gpu_open(tc_backend *be, tc_model_gpu *mg, char *err, size_t errlen)
{
    int dev = tc_backend_gpu_device(be);
    if (dev < 0) {
        snprintf(err, errlen, "the backend is not a GPU that takes batches on the device");
        return NULL;
    }
    if (!mg) {
        snprintf(err, errlen, "the model is on the CPU");
        return NULL;
    }
    if (tc_model_gpu_device(mg) != dev) {
        snprintf(err, errlen, "the model is on %s, the backend on gpu:%d", tc_model_gpu_name(mg), dev);
        return NULL;
    }
    hunt_gpu *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return NULL;
    }
    if (hgpu_open(dev, &h->g, err, errlen)) {
        free(h);
        return NULL;
    }
    h->be = be;
    h->mg = mg;
    return h;
}

void hunt_gpu_close(hunt_gpu *h)
{
    if (!h)
        return;
    hgpu_close(h->g);
    free(h);
}

/* The declined elements of a round on the CPU, shared out over every core. */
typedef struct {
    const model *m;
    int k;
    const uint64_t *g;   /* hgpu_list.g: 2k + 3 words per element */
    uint64_t *md;
} decl_job;

static void decl_range(void *ctx, size_t lo, size_t hi)
{
    const decl_job *j = ctx;
    size_t w = 2 * (size_t)j->k + 3;
    for (size_t x = lo; x < hi; x++) {
        const uint64_t *e = j->g + x * w;
        j->md[x] = model_dot(j->m, j->k, e, e + j->k, e[2 * j->k]);
    }
}

/* One listed element (hgpu_list entry x, model answer md) that differs:
 * counted in its family and kept as verify keeps a failure. */
static void keep(verify_result *r, const infer_target *t, const hgpu_list *l, size_t x, uint64_t md, int fam,
                 uint64_t *ka, uint64_t *kb)
{
    size_t w = 2 * (size_t)t->k + 3;
    const uint64_t *e = l->g + x * w;
    memcpy(ka, e, (size_t)t->k * sizeof *ka);
    memcpy(kb, e + t->k, (size_t)t->k * sizeof *kb);
    infer_case c = {hunt_family_name(fam), t->k, ka, kb, e[2 * t->k], e[2 * t->k + 1]};
    verify_keep_failure(r, t, &c, md, VERIFY_DIST_HUNT + fam);
}

/* The round's shape for the kernels; meta holds a sparse instruction's registers. */
static int shape_of(const infer_target *t, const tc_instr *ins, uint64_t seed, uint32_t *meta, hgpu_shape *s,
                    char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->m = t->m;
    s->n = t->n;
    s->k = t->k;
    s->kb = ins->k;
    const tc_format *f[4] = {t->f.a, t->f.b, t->f.c, t->f.d};
    for (int i = 0; i < 4; i++)
        s->f[i] = *f[i];
    for (int i = 0; i < 3; i++)
        s->mask[i] = tc_operand_mask(f[i]);
    s->seed = seed;
    if (ins->sparse) {
        tc_sparse_ratio(ins, &s->group, &s->keep);
        if (hunt_gpu_sparse_meta(ins, meta, &s->nmeta, err, errlen))
            return -1;
        s->meta = meta;
    }
    return 0;
}

int hunt_gpu_run(hunt_gpu *h, const infer_target *t, const tc_instr *ins, const model *m, size_t n_per_family,
                 uint64_t seed, size_t want, uint64_t *sample, bool *sampled, verify_result *r,
                 tc_model_gpu_count *count, char *err, size_t errlen)
{
    *sampled = false;
    const char *why = hunt_gpu_unsupported(t, ins, m);
    if (why) {
        snprintf(err, errlen, "%s: the GPU hunt cannot run it: %s (internal error: the caller checks first)",
                 ins->name, why);
        return -1;
    }
    size_t tcn = (size_t)t->m * t->n, ntiles = (n_per_family + tcn - 1) / tcn;
    size_t most = HUNT_GPU_ROUND_OUT / (tcn * HUNT_NFAMILIES);
    most = most < 1 ? 1 : most > ntiles ? ntiles : most;
    if (!ntiles)
        return 0;
    uint32_t meta[HUNT_SPARSE_META_MAX];
    hgpu_shape s;
    hgpu_bufs b;
    double t0 = now_s();
    if (shape_of(t, ins, seed, meta, &s, err, errlen) || hgpu_prepare(h->g, &s, most, &b, err, errlen))
        return -1;
    uint64_t *ka = malloc((size_t)t->k * sizeof *ka), *kb = malloc((size_t)t->k * sizeof *kb), *md = NULL;
    size_t md_cap = 0;
    int rc = ka && kb ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "GPU hunt: out of memory");
    for (size_t done = 0; rc == 0 && done < ntiles;) {
        size_t nt = ntiles - done < most ? ntiles - done : most, all = nt * HUNT_NFAMILIES;
        t0 = now_s();
        if ((rc = hgpu_draw(h->g, &s, done, nt, err, errlen)) != 0) {
            char why2[512];
            snprintf(why2, sizeof why2, "%s", err);
            snprintf(err, errlen, "%.100s: %.380s", ins->name, why2);
            break;
        }
        stage_add(r, VERIFY_STAGE_DRAW, &t0);
        if ((rc = tc_backend_mma_dev(h->be, ins, all, b.pa, ins->sparse ? b.pe : NULL, b.pb, b.pc, b.pd, 0xFF, err,
                                     errlen)) != 0)
            break;
        stage_add(r, VERIFY_STAGE_EXECUTE, &t0);
        size_t declined = 0;
        if ((rc = tc_model_gpu_mma_dev(h->mg, m, t->m, t->n, t->k, all, b.A, b.B, b.C, b.M, &declined, count, err,
                                       errlen)) != 0)
            break;
        stage_add(r, VERIFY_STAGE_MODEL, &t0);
        hgpu_result res;
        if ((rc = hgpu_compare(h->g, &s, nt, &res, err, errlen)) != 0)
            break;
        if (res.poisoned) {   /* some element holds the poison: the second run decides */
            double te = now_s();
            rc = tc_backend_mma_dev(h->be, ins, all, b.pa, ins->sparse ? b.pe : NULL, b.pb, b.pc, b.pd2, 0xA5, err,
                                    errlen) ||
                 hgpu_poison_check(h->g, &s, nt, ins->name, err, errlen);
            r->stage_s[VERIFY_STAGE_EXECUTE] += now_s() - te;
            if (rc)
                break;
        }
        if (res.declined != declined || res.decl.n != declined) {
            snprintf(err, errlen, "%s: the GPU model declined %zu elements, the compare found %llu (internal error)",
                     ins->name, declined, res.declined);
            rc = -1;
            break;
        }
        if (want && done == 0 && want <= nt * tcn) {
            if ((rc = hgpu_sample(h->g, &s, nt, want, sample, err, errlen)) != 0)
                break;
            *sampled = true;
        }
        stage_add(r, VERIFY_STAGE_COMPARE, &t0);
        /* the declined elements: the CPU model, on every core */
        if (res.decl.n > md_cap) {
            uint64_t *p = realloc(md, res.decl.n * sizeof *md);
            if (!p) {
                snprintf(err, errlen, "GPU hunt: out of memory");
                rc = -1;
                break;
            }
            md = p;
            md_cap = res.decl.n;
        }
        decl_job j = {m, t->k, res.decl.g, md};
        if (res.decl.n)
            oracle_parallel(res.decl.n, res.decl.n * (size_t)t->k * 64, decl_range, &j);
        double tm = now_s();
        count->cpu += res.decl.n;
        count->cpu_s += tm - t0;
        stage_add(r, VERIFY_STAGE_MODEL, &t0);
        size_t w = 2 * (size_t)t->k + 3, fam_elems = nt * tcn;
        for (size_t x = 0; x < res.decl.n; x++)
            if (res.decl.g[x * w + 2 * (size_t)t->k + 1] != md[x]) {
                int fam = (int)(res.decl.at[x] / fam_elems);
                res.mismatches[fam]++;
                keep(r, t, &res.decl, x, md[x], fam, ka, kb);
            }
        for (size_t x = 0; x < res.mism.n; x++)
            keep(r, t, &res.mism, x, res.mism.g[x * w + 2 * (size_t)t->k + 2], (int)(res.mism.at[x] / fam_elems), ka,
                 kb);
        for (int f = 0; f < HUNT_NFAMILIES; f++) {
            r->dist_n[VERIFY_DIST_HUNT + f] += fam_elems;
            r->dist_mismatches[VERIFY_DIST_HUNT + f] += (size_t)res.mismatches[f];
            r->mismatches += (size_t)res.mismatches[f];
        }
        r->n += all * tcn;
        stage_add(r, VERIFY_STAGE_COMPARE, &t0);
        if (t->progress)
            t->progress(t->progress_ctx, all * tcn);
        done += nt;
    }
    free(ka);
    free(kb);
    free(md);
    return rc;
}

#else /* built without nvcc */

hunt_gpu *hunt_gpu_open(tc_backend *be, tc_model_gpu *mg, char *err, size_t errlen)
{
    snprintf(err, errlen, "this tcscope was built without nvcc (no CUDA)");
    return NULL;
}

void hunt_gpu_close(hunt_gpu *h) {}

int hunt_gpu_run(hunt_gpu *h, const infer_target *t, const tc_instr *ins, const model *m, size_t n_per_family,
                 uint64_t seed, size_t want, uint64_t *sample, bool *sampled, verify_result *r,
                 tc_model_gpu_count *count, char *err, size_t errlen)
{
    snprintf(err, errlen, "this tcscope was built without nvcc (no CUDA)");
    return -1;
}

#endif
