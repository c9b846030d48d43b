/* The hunt on the GPU (cases/hunt_gpu.h): the host's side of a round, over
 * the round kernels of cases/cuda/hunt_gpu.cu, the executor
 * (tc_backend_mma_dev) and the GPU model (tc_model_gpu_mma_dev). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/hunt.h"
#include "cases/hunt_gpu.h"
#include "cases/hunt_gpu_cpu.h"
#include "cases/hunt_gpu_run.h"
#include "probes/sparse.h"
#include "probes/clock.h"

/* Windows drawn at once, each on a stream of its own (run 2 on an H200: two
 * at a time, 24 instructions each, left 0.29 s of 0.80 s waiting for draws;
 * a window's draw lasts as long as its widest tile's thread). */
#define HUNT_GPU_SLOTS 6

/* Outputs per round (every family's tiles together): about 8 M, so a round
 * of the widest tiles holds under 1 GB of device memory. */
#define HUNT_GPU_ROUND_OUT ((size_t)1 << 23)

int hunt_gpu_sparse_meta(const tc_instr *ins, uint32_t *regs, int *n, char *err, size_t errlen)
{
    int map[TC_SPARSE_MAP_MAX];
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
    const tc_format *f[4] = {t->f.a, t->f.b, t->f.c, t->f.d};
    for (int i = 0; i < 4; i++)
        if (f[i]->storage_bits % 8)
            return "sub-byte operands (packed two or more to a byte)";
    if (ins->sparse && !tc_sparse_meta_threads(ins))
        return "no metadata layout for this sparse instruction";
    return NULL;
}

#if TC_HAVE_CUDA

struct hunt_gpu {
    tc_backend *be;
    tc_model_gpu *mg;
    hgpu *g;
    hgpu_win *w[HUNT_GPU_SLOTS];
    hunt_gpu_stats st;
};

void hunt_gpu_last_stats(const hunt_gpu *h, hunt_gpu_stats *out)
{
    *out = h->st;
}

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
    h->be = be;
    h->mg = mg;
    int rc = hgpu_open(dev, &h->g, err, errlen);
    for (int i = 0; rc == 0 && i < HUNT_GPU_SLOTS; i++)
        rc = hgpu_win_open(dev, &h->w[i], err, errlen);
    if (rc) {
        hunt_gpu_close(h);
        return NULL;
    }
    return h;
}

void hunt_gpu_close(hunt_gpu *h)
{
    if (!h)
        return;
    for (int i = 0; i < HUNT_GPU_SLOTS; i++)
        hgpu_win_close(h->w[i]);
    hgpu_close(h->g);
    free(h);
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

/* Tiles per family of one round of an instruction of tcn outputs a tile. */
static size_t round_tiles(size_t tcn, size_t ntiles)
{
    size_t most = HUNT_GPU_ROUND_OUT / (tcn * HUNT_NFAMILIES);
    return most < 1 ? 1 : most > ntiles ? ntiles : most;
}

/* A round's lists freed (a failure after hgpu_compare): -1. */
static int lists_free(hgpu_result *res)
{
    free(res->mism.at);
    free(res->mism.g);
    free(res->decl.at);
    free(res->decl.g);
    memset(&res->mism, 0, sizeof res->mism);
    memset(&res->decl, 0, sizeof res->decl);
    return -1;
}

/* One drawn round (b: nt tiles per family, tiles q0.. of the stream; a
 * random round: tiles q0.. of the proof's stream) of an instruction through
 * the executor, the GPU model and the comparison; its elements counted in
 * r, the CPU's part handed to wk (or done here). want: the sample, taken
 * when q0 is 0. 0, or -1 with err. */
static int run_round(hunt_gpu *h, const infer_target *t, const tc_instr *ins, const model *m, const hgpu_shape *s,
                     const hgpu_bufs *b, size_t q0, size_t nt, size_t want, uint64_t *sample, bool *sampled,
                     verify_result *r, tc_model_gpu_count *count, size_t job, bool last, hgc_worker *wk, char *err,
                     size_t errlen)
{
    size_t tcn = (size_t)t->m * t->n, all = nt * (size_t)hgpu_blocks(s), declined = 0;
    double t0 = tc_now_s();
    /* in windows the GPU model's kernel (integer units) runs beside the
     * instruction's (tensor cores); one at a time, one after the other */
    bool beside = wk->running;
    if (beside) {
        if (tc_model_gpu_mma_dev_start(h->mg, m, t->m, t->n, t->k, all, b->A, b->B, b->C, b->M, count, err, errlen))
            return -1;
        verify_stage_add(r, VERIFY_STAGE_MODEL, &t0);
    }
    int rc = tc_backend_mma_dev(h->be, ins, all, b->pa, b->pe, b->pb, b->pc, b->pd, 0xFF, err, errlen);
    verify_stage_add(r, VERIFY_STAGE_EXECUTE, &t0);
    if (beside) {   /* ended even after a failed run: the next start needs it */
        char err2[256];
        if (tc_model_gpu_mma_dev_end(h->mg, &declined, count, rc ? err2 : err, rc ? sizeof err2 : errlen))
            return -1;
    } else if (rc == 0 &&
               tc_model_gpu_mma_dev(h->mg, m, t->m, t->n, t->k, all, b->A, b->B, b->C, b->M, &declined, count, err,
                                    errlen))
        return -1;
    if (rc)
        return -1;
    verify_stage_add(r, VERIFY_STAGE_MODEL, &t0);
    hgpu_result res;
    if (hgpu_compare(h->g, s, b, nt, &res, err, errlen))
        return lists_free(&res);
    if (res.poisoned) {   /* some element holds the poison: the second run decides */
        double te = tc_now_s();
        int bad = tc_backend_mma_dev(h->be, ins, all, b->pa, b->pe, b->pb, b->pc, b->pd2, 0xA5, err, errlen) ||
                  hgpu_poison_check(h->g, s, b, nt, ins->name, err, errlen);
        r->stage_s[VERIFY_STAGE_EXECUTE] += tc_now_s() - te;
        if (bad)
            return lists_free(&res);
    }
    if (res.declined != declined || res.decl.n != declined) {
        snprintf(err, errlen, "%s: the GPU model declined %zu elements, the compare found %llu (internal error)",
                 ins->name, declined, res.declined);
        return lists_free(&res);
    }
    if (want && q0 == 0 && want <= nt * tcn && !s->random) {
        if (hgpu_sample(s, b, nt, want, sample, err, errlen))
            return lists_free(&res);
        *sampled = true;
    }
    hgc_item *it = hgc_item_new(t, m, r, count, job, last, s->random, s->random ? tcn : nt * tcn, res.mismatches,
                                &res.mism, &res.decl);
    if (!it) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return -1;
    }
    if (s->random)
        for (size_t j = 0; j < nt; j++)
            r->dist_n[(q0 + j) % VERIFY_NDIST_RANDOM] += tcn;
    else
        for (int f = 0; f < HUNT_NFAMILIES; f++)
            r->dist_n[VERIFY_DIST_HUNT + f] += nt * tcn;
    r->n += all * tcn;
    verify_stage_add(r, VERIFY_STAGE_COMPARE, &t0);
    if (hgc_submit(wk, it)) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return -1;
    }
    if (t->progress)
        t->progress(t->progress_ctx, all * tcn);
    return 0;
}

/* Tiles q0.. (nt of each block) of an instruction of shape s drawn into
 * window 0 and waited for, the wait counted as r's draw stage; b its
 * buffers. 0, or -1 with err naming the instruction. */
static int draw_round(hunt_gpu *h, const tc_instr *ins, const hgpu_shape *s, size_t q0, size_t nt, verify_result *r,
                      hgpu_bufs *b, char *err, size_t errlen)
{
    size_t bad_job;
    double t0 = tc_now_s();
    if (hgpu_win_launch(h->w[0], s, &q0, &nt, 1, err, errlen) || hgpu_win_wait(h->w[0], &bad_job, err, errlen)) {
        char why2[512];
        snprintf(why2, sizeof why2, "%s", err);
        snprintf(err, errlen, "%.100s: %.380s", ins->name, why2);
        return -1;
    }
    verify_stage_add(r, VERIFY_STAGE_DRAW, &t0);
    hgpu_win_bufs(h->w[0], 0, b);
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
    if (!ntiles)
        return 0;
    size_t most = round_tiles(tcn, ntiles);
    uint32_t meta[HUNT_SPARSE_META_MAX];
    hgpu_shape s;
    if (shape_of(t, ins, seed, meta, &s, err, errlen))
        return -1;
    hgc_worker none = {.running = false};
    for (size_t done = 0; done < ntiles;) {
        size_t nt = ntiles - done < most ? ntiles - done : most;
        hgpu_bufs b;
        if (draw_round(h, ins, &s, done, nt, r, &b, err, errlen) ||
            run_round(h, t, ins, m, &s, &b, done, nt, want, sample, sampled, r, count, 0, done + nt == ntiles, &none,
                      err, errlen))
            return -1;
        done += nt;
    }
    return 0;
}

int hunt_gpu_random(hunt_gpu *h, const infer_target *t, const tc_instr *ins, const model *m, size_t n, uint64_t seed,
                    verify_result *r, tc_model_gpu_count *count, char *err, size_t errlen)
{
    const char *why = hunt_gpu_unsupported(t, ins, m);
    if (why) {
        snprintf(err, errlen, "%s: the GPU path cannot run it: %s (internal error: the caller checks first)",
                 ins->name, why);
        return -1;
    }
    size_t tcn = (size_t)t->m * t->n, ntiles = verify_random_tiles(t, n);
    /* a round's tiles a multiple of 4, so every round starts at a
     * distribution 0 tile (the compare counts by the tile's index) */
    size_t most = HUNT_GPU_ROUND_OUT / tcn / VERIFY_NDIST_RANDOM * VERIFY_NDIST_RANDOM;
    most = most < VERIFY_NDIST_RANDOM ? VERIFY_NDIST_RANDOM : most;
    uint32_t meta[HUNT_SPARSE_META_MAX];
    hgpu_shape s;
    if (shape_of(t, ins, seed, meta, &s, err, errlen))
        return -1;
    rd_shape rs = verify_random_shape(t);
    uint64_t st = seed ? seed : RD_SEED_DEFAULT;
    uint64_t *start = malloc((ntiles < most ? ntiles : most) * sizeof *start);
    if (!start) {
        snprintf(err, errlen, "GPU random tiles: out of memory");
        return -1;
    }
    s.random = 1;
    s.czero = rs.czero;
    s.rst = start;
    hgc_worker none = {.running = false};
    int rc = 0;
    for (size_t done = 0; rc == 0 && done < ntiles;) {
        size_t nt = ntiles - done < most ? ntiles - done : most;
        double t0 = tc_now_s();   /* the pass is the draw's too */
        for (size_t j = 0; j < nt; j++) {   /* each tile's start: a pass over the stream, at most one call a case */
            start[j] = st;
            rd_skip_tile(&rs, done + j, &st);
        }
        verify_stage_add(r, VERIFY_STAGE_DRAW, &t0);
        hgpu_bufs b;
        if (draw_round(h, ins, &s, done, nt, r, &b, err, errlen) ||
            run_round(h, t, ins, m, &s, &b, done, nt, 0, NULL, NULL, r, count, 0, done + nt == ntiles, &none, err,
                      errlen))
            rc = -1;
        done += nt;
    }
    free(start);
    return rc;
}

/* A window: jobs [from, to) whose every tile is one round, within
 * HUNT_GPU_WINDOW_BYTES of device memory and HUNT_GPU_WINDOW_JOBS jobs
 * (HUNT_GPU_FIRST_JOBS for the first: nothing runs while it is drawn).
 * Small enough that a window's draw (its widest tile's thread) ends while
 * the window before runs: on an H200, all 248 instructions of a hunt at
 * 50000 per family in one window waited 0.17 s for the draw, 0.59 s in all. */
#define HUNT_GPU_WINDOW_BYTES ((size_t)1 << 30)
#define HUNT_GPU_WINDOW_JOBS 24
#define HUNT_GPU_FIRST_JOBS 4

typedef struct {
    size_t from, to;
    hgpu_shape *s;   /* per job of the run */
    uint32_t (*meta)[HUNT_SPARSE_META_MAX];
    size_t *q0, *nt;
} plan;

/* The last job of the window that starts at `from` (from itself when its
 * tiles take more than one round: the caller runs it alone). */
static size_t window_end(const plan *p, const hunt_gpu_job *jobs, size_t n, size_t from, size_t n_per_family)
{
    size_t bytes = 0, j = from, most = from == 0 ? HUNT_GPU_FIRST_JOBS : HUNT_GPU_WINDOW_JOBS;
    for (; j < n && j - from < most; j++) {
        size_t tcn = (size_t)jobs[j].t->m * jobs[j].t->n, ntiles = (n_per_family + tcn - 1) / tcn;
        if (round_tiles(tcn, ntiles) < ntiles)
            break;
        size_t b = hgpu_job_bytes(&p->s[j], p->nt[j]);
        if (j > from && bytes + b > HUNT_GPU_WINDOW_BYTES)
            break;
        bytes += b;
    }
    return j;
}

int hunt_gpu_run_all(hunt_gpu *h, hunt_gpu_job *jobs, size_t n, size_t n_per_family, uint64_t seed, size_t want,
                     void (*done)(void *ctx, size_t j), void *ctx, char *err, size_t errlen)
{
    double start = tc_now_s();
    memset(&h->st, 0, sizeof h->st);
    plan p = {0};
    p.s = calloc(n + 1, sizeof *p.s);
    p.meta = calloc(n + 1, sizeof *p.meta);
    p.q0 = calloc(n + 1, sizeof *p.q0);
    p.nt = calloc(n + 1, sizeof *p.nt);
    hgc_worker wk = {.running = false};
    int rc = p.s && p.meta && p.q0 && p.nt ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "GPU hunt: out of memory");
    for (size_t j = 0; rc == 0 && j < n; j++) {
        hunt_gpu_job *jb = &jobs[j];
        jb->sampled = false;
        const char *why = hunt_gpu_unsupported(jb->t, jb->ins, jb->m);
        if (why) {
            snprintf(err, errlen, "%s: the GPU hunt cannot run it: %s (internal error: the caller checks first)",
                     jb->ins->name, why);
            rc = -1;
            break;
        }
        size_t tcn = (size_t)jb->t->m * jb->t->n;
        p.nt[j] = (n_per_family + tcn - 1) / tcn;
        rc = shape_of(jb->t, jb->ins, seed, p.meta[j], &p.s[j], err, errlen);
    }
    bool serial = getenv("TCSCOPE_HUNT_GPU_SERIAL") != NULL;   /* one instruction at a time (a check) */
    if (rc == 0 && hgc_start(&wk, n, !serial)) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        rc = -1;
    }
    /* a ring of windows, each drawn on a stream of its own as soon as its
     * slot is free: the draws (each as long as its widest tile's thread)
     * run side by side and ahead of the instructions that use them */
    size_t reported = 0, wfrom[HUNT_GPU_SLOTS] = {0}, wto[HUNT_GPU_SLOTS] = {0}, next_from = 0;
    int head = 0, inflight = 0;
    for (size_t j = 0; rc == 0 && j < n;) {
        size_t tcn = (size_t)jobs[j].t->m * jobs[j].t->n;
        if (inflight == 0 && (serial || round_tiles(tcn, p.nt[j]) < p.nt[j])) {   /* alone, in rounds */
            hgc_drain(&wk);
            rc = hunt_gpu_run(h, jobs[j].t, jobs[j].ins, jobs[j].m, n_per_family, seed, want, jobs[j].sample,
                              &jobs[j].sampled, &jobs[j].r, &jobs[j].count, err, errlen);
            if (rc == 0)
                hgc_complete(&wk, j);
            next_from = ++j;
        } else {
            if (inflight == 0)
                next_from = j;
            while (rc == 0 && inflight < HUNT_GPU_SLOTS && next_from < n &&
                   round_tiles((size_t)jobs[next_from].t->m * jobs[next_from].t->n, p.nt[next_from]) >=
                       p.nt[next_from]) {
                int slot = (head + inflight) % HUNT_GPU_SLOTS;
                size_t e = window_end(&p, jobs, n, next_from, n_per_family);
                rc = hgpu_win_launch(h->w[slot], p.s + next_from, p.q0 + next_from, p.nt + next_from, e - next_from,
                                     err, errlen);
                wfrom[slot] = next_from;
                wto[slot] = e;
                next_from = e;
                inflight++;
            }
            double t0 = tc_now_s();
            size_t bad = 0, from = wfrom[head], to = wto[head];
            if (rc == 0 && hgpu_win_wait(h->w[head], &bad, err, errlen)) {
                char why2[512];
                snprintf(why2, sizeof why2, "%s", err);
                snprintf(err, errlen, "%.100s: %.380s", jobs[from + bad].ins->name, why2);
                rc = -1;
            }
            if (rc == 0) {
                double waited = tc_now_s() - t0;
                jobs[from].r.stage_s[VERIFY_STAGE_DRAW] += waited;
                h->st.draw_wait_s += waited;
                h->st.windows++;
            }
            for (size_t x = from; rc == 0 && x < to; x++) {
                hgpu_bufs b;
                hgpu_win_bufs(h->w[head], x - from, &b);
                rc = run_round(h, jobs[x].t, jobs[x].ins, jobs[x].m, &p.s[x], &b, 0, p.nt[x], want, jobs[x].sample,
                               &jobs[x].sampled, &jobs[x].r, &jobs[x].count, x, true, &wk, err, errlen);
                if (rc == 0)
                    hgc_report(&wk, n, &reported, done, ctx);
            }
            j = to;
            head = (head + 1) % HUNT_GPU_SLOTS;
            inflight--;
        }
        if (rc == 0)
            hgc_report(&wk, n, &reported, done, ctx);
    }
    double tail0 = tc_now_s();
    if (hgc_stop(&wk) && rc == 0) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        rc = -1;
    }
    if (rc == 0)
        hgc_report(&wk, n, &reported, done, ctx);
    if (rc == 0 && reported != n) {
        snprintf(err, errlen, "GPU hunt: %zu of %zu instructions finished (internal error)", reported, n);
        rc = -1;
    }
    hgc_free(&wk);
    h->st.tail_s = tc_now_s() - tail0;
    for (size_t j = 0; j < n; j++) {
        h->st.declined += jobs[j].count.cpu;
        h->st.cpu_s += jobs[j].count.cpu_s;
    }
    h->st.wall_s = tc_now_s() - start;
    free(p.s);
    free(p.meta);
    free(p.q0);
    free(p.nt);
    return rc;
}

#else /* built without nvcc */

void hunt_gpu_last_stats(const hunt_gpu *h, hunt_gpu_stats *out)
{
    memset(out, 0, sizeof *out);
}

int hunt_gpu_run_all(hunt_gpu *h, hunt_gpu_job *jobs, size_t n, size_t n_per_family, uint64_t seed, size_t want,
                     void (*done)(void *ctx, size_t j), void *ctx, char *err, size_t errlen)
{
    snprintf(err, errlen, "this tcscope was built without nvcc (no CUDA)");
    return -1;
}

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

int hunt_gpu_random(hunt_gpu *h, const infer_target *t, const tc_instr *ins, const model *m, size_t n, uint64_t seed,
                    verify_result *r, tc_model_gpu_count *count, char *err, size_t errlen)
{
    snprintf(err, errlen, "this tcscope was built without nvcc (no CUDA)");
    return -1;
}

#endif
