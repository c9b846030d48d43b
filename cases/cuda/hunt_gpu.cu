/* The GPU hunt's kernels (cases/hunt_gpu_run.h): every family's tiles drawn
 * on the GPU by the host's own code (cases/hunt_draw.h, one thread per tile
 * of the "tile" stream, the tiles of a window of instructions in one launch:
 * a wide tile's instruction alone has too few tiles to fill the GPU), packed
 * to the executor's native widths, and the executor's answers compared there
 * with the GPU model's; only counts, and the few elements the host must see
 * (declined by the model, or differing), come back. Integer code only (the
 * draw needs no floating point; its 64-bit remainders are the compiler's).
 * Every CUDA call is checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cases/hunt_draw.h"
#include "cases/random_draw.h"
#include "cases/hunt_gpu_run.h"
#include "probes/cuda/cuda_check.cuh"
#include "probes/model_gpu_run.h"

/* What the compare kernels count: one block of device memory, cleared per call. */
typedef struct {
    unsigned long long poisoned, declined, nmism;
    unsigned long long mism[HUNT_NFAMILIES];
    unsigned long long unwritten, differs; /* the poison check's first element (~0: none) */
} hg_counts;

struct hgpu {
    int dev;
    hg_counts *cnt;
    size_t *ddecl, *dmism;                /* the lists' indices */
    size_t cap_decl, cap_mism;
    uint64_t *dg;                         /* gathered inputs: (2k + 3) words per listed element */
    size_t cap_g;
};

/* A job of a window, as the draw and pack kernels read it. */
typedef struct {
    int m, n, k, kb, group, keep, nmeta, random;
    unsigned long long q0, nt, tile0;     /* tiles q0.. of each family (random: of the stream), nt each; its
                                             first draw thread */
    uint64_t seed, czero;
    tc_format f[4];
    uint64_t *A, *B, *C;
    const uint64_t *rst;                  /* random: tile j's start state */
    uint32_t meta[128];
} hg_desc;

struct hgpu_win {
    int dev;
    cudaStream_t st;
    cudaEvent_t ev;
    void *mem;                            /* every job's buffers, one after another */
    size_t cap_mem;
    hg_desc *ddesc, *hdesc;
    size_t cap_ddesc, cap_hdesc;
    unsigned long long *dbad;             /* 3 per job: the first A, B, C element outside its mask */
    size_t cap_bad;
    unsigned long long *hbad;
    hgpu_bufs *bufs;
    const char **names;                   /* 3 per job: the formats of A, B, C */
    size_t cap_jobs, njobs;
};

static __device__ __forceinline__ uint64_t hg_load(const void *p, size_t i, int bytes)
{
    switch (bytes) {
    case 1: return ((const uint8_t *)p)[i];
    case 2: return ((const uint16_t *)p)[i];
    case 4: return ((const uint32_t *)p)[i];
    default: return ((const uint64_t *)p)[i];
    }
}

static __device__ __forceinline__ void hg_store(void *p, size_t i, int bytes, uint64_t v)
{
    switch (bytes) {
    case 1: ((uint8_t *)p)[i] = (uint8_t)v; break;
    case 2: ((uint16_t *)p)[i] = (uint16_t)v; break;
    case 4: ((uint32_t *)p)[i] = (uint32_t)v; break;
    default: ((uint64_t *)p)[i] = v; break;
    }
}

/* Thread g of a window's draw: job j (the last whose tile0 <= g), its tile
 * q0 + i of family f, where g - tile0 = f * nt + i; stream "tile". A random
 * job's tile i is tile q0 + i of the proof's stream, from its start state. */
__global__ void hg_draw_kernel(const hg_desc *jobs, int njobs, unsigned long long total)
{
    unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (g >= total)
        return;
    int lo = 0, hi = njobs - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (jobs[mid].tile0 <= g)
            lo = mid;
        else
            hi = mid - 1;
    }
    const hg_desc *d = &jobs[lo];
    unsigned long long local = g - d->tile0;
    size_t ta = (size_t)d->m * (size_t)d->k, tb = (size_t)d->k * (size_t)d->n, tc = (size_t)d->m * (size_t)d->n;
    if (d->random) {
        rd_shape s = {&d->f[0], &d->f[1], &d->f[2], d->m, d->n, d->k, d->czero};
        uint64_t st = d->rst[local];
        rd_fill_tile(&s, d->q0 + local, &st, d->A + local * ta, d->B + local * tb, d->C + local * tc);
        return;
    }
    int f = (int)(local / d->nt);
    unsigned long long i = local - (unsigned long long)f * d->nt;
    uint64_t st = hunt_tile_seed_hd(d->seed, f, d->q0 + i);
    hunt_tile T = {d->m, d->n, d->k, &d->f[0], &d->f[1], &d->f[2], &d->f[3],
                   d->A + local * ta, d->B + local * tb, d->C + local * tc, &st};
    hunt_fill_tile_hd(&T, f);
}

/* A sparse job's metadata registers, the same for every tile. */
__global__ void hg_meta_kernel(const hg_desc *d, size_t tiles, uint32_t *pe)
{
    size_t n = tiles * (size_t)d->nmeta;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        pe[i] = d->meta[i % (size_t)d->nmeta];
}

/* src (n uint64) to dst at `bytes` each; the first index with bits outside
 * mask into *bad. */
__global__ void hg_pack_kernel(const uint64_t *src, size_t n, int bytes, uint64_t mask, void *dst,
                               unsigned long long *bad)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t v = src[i];
        if (v & ~mask)
            atomicMin(bad, (unsigned long long)i);
        hg_store(dst, i, bytes, v);
    }
}

/* B of a sparse instruction: the drawn k x n rows to the logical kb x n
 * tile, row q at q/keep*group + q%keep, the other rows zero (the positions
 * a sparse A leaves out: audit_target's run_sparse). */
__global__ void hg_pack_b_sparse_kernel(const uint64_t *src, size_t ntiles, int k, int kb, int n, int group,
                                        int keep, int bytes, uint64_t mask, void *dst, unsigned long long *bad)
{
    size_t total = ntiles * (size_t)kb * (size_t)n, per = (size_t)kb * (size_t)n;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < total;
         i += (size_t)gridDim.x * blockDim.x) {
        size_t t = i / per, e = i - t * per;
        int r = (int)(e / (size_t)n), j = (int)(e - (size_t)r * (size_t)n);
        uint64_t v = 0;
        if (r % group < keep) {
            size_t s = t * (size_t)k * (size_t)n + (size_t)(r / group * keep + r % group) * (size_t)n + (size_t)j;
            v = src[s];
            if (v & ~mask)
                atomicMin(bad, (unsigned long long)s);
        }
        hg_store(dst, i, bytes, v);
    }
}

/* Every element o of the round: the hardware's d (native width) against the
 * model's; per family (fam_elems elements each; random: per distribution,
 * tile o / mn's index mod 4) the mismatches, and the lists of declined and
 * differing elements. */
__global__ void hg_compare_kernel(size_t total, size_t fam_elems, size_t mn, int random, const void *pd, int db,
                                  uint64_t poison,
                                  const uint64_t *M, hg_counts *cnt, size_t *decl, size_t cap_decl, size_t *mism,
                                  size_t cap_mism)
{
    for (size_t o = blockIdx.x * (size_t)blockDim.x + threadIdx.x; o < total;
         o += (size_t)gridDim.x * blockDim.x) {
        uint64_t hw = hg_load(pd, o, db), mv = M[o];
        if (hw == poison)
            atomicAdd(&cnt->poisoned, 1ull);
        if (mv == TC_MODEL_GPU_DECLINED) {
            unsigned long long x = atomicAdd(&cnt->declined, 1ull);
            if (x < cap_decl)
                decl[x] = o;
        } else if (hw != mv) {
            atomicAdd(&cnt->mism[random ? o / mn % 4 : o / fam_elems], 1ull);
            unsigned long long x = atomicAdd(&cnt->nmism, 1ull);
            if (x < cap_mism)
                mism[x] = o;
        }
    }
}

/* The inputs of listed elements: for x < n, g[x*(2k+3)..]: a (k), b (k), c,
 * hw, model. */
__global__ void hg_gather_kernel(const size_t *list, size_t n, int m, int nc, int k, const uint64_t *A,
                                 const uint64_t *B, const uint64_t *C, const void *pd, int db, const uint64_t *M,
                                 uint64_t *g)
{
    size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (x >= n)
        return;
    size_t o = list[x], mn = (size_t)m * (size_t)nc, t = o / mn, e = o - t * mn;
    size_t i = e / (size_t)nc, j = e - i * (size_t)nc, w = 2 * (size_t)k + 3;
    uint64_t *out = g + x * w;
    const uint64_t *a = A + t * (size_t)m * (size_t)k + i * (size_t)k, *b = B + t * (size_t)k * (size_t)nc + j;
    for (int q = 0; q < k; q++) {
        out[q] = a[q];
        out[k + q] = b[(size_t)q * (size_t)nc];
    }
    out[2 * k] = C[o];
    out[2 * k + 1] = hg_load(pd, o, db);
    out[2 * k + 2] = M[o];
}

/* The two poisoned runs, element by element (probes/backend_gpu.c run_chunk). */
__global__ void hg_poison_kernel(size_t total, const void *pd, const void *pd2, int db, uint64_t p1, uint64_t p2,
                                 hg_counts *cnt)
{
    for (size_t o = blockIdx.x * (size_t)blockDim.x + threadIdx.x; o < total;
         o += (size_t)gridDim.x * blockDim.x) {
        uint64_t d1 = hg_load(pd, o, db), d2 = hg_load(pd2, o, db);
        if (d1 == p1 && d2 == p2)
            atomicMin(&cnt->unwritten, (unsigned long long)o);
        else if (d1 != d2)
            atomicMin(&cnt->differs, (unsigned long long)o);
    }
}

/* Bytes of one element at native width: the container's (a sub-byte format,
 * which no GPU path runs, still gets a whole byte for the draw test). */
static int hg_bytes(const tc_format *f)
{
    return f->storage_bits <= 8 ? 1 : f->storage_bits <= 16 ? 2 : f->storage_bits <= 32 ? 4 : 8;
}

static uint64_t hg_poison_of(unsigned char byte, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = v << 8 | byte;
    return v;
}

static unsigned hg_blocks(size_t n, unsigned threads)
{
    size_t b = (n + threads - 1) / threads;
    return (unsigned)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

/* A device buffer of at least `bytes` (one byte at least: a pointer even for none). */
static int hg_grow(void **p, size_t *cap, size_t bytes, char *err, size_t errlen)
{
    return tc_cuda_grow(p, cap, bytes > 0 ? bytes : 1, err, errlen);
}
#define GROW(ptr, cap, bytes) hg_grow((void **)&(ptr), &(cap), (bytes), err, errlen)

/* A host buffer of at least n elements of size `size` (kept, grown). */
static int hg_host_grow(void **p, size_t *cap, size_t n, size_t size, char *err, size_t errlen)
{
    if (n <= *cap)
        return 0;
    void *q = realloc(*p, n * size);
    if (!q) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return -1;
    }
    *p = q;
    *cap = n;
    return 0;
}

extern "C" int hgpu_open(int dev, hgpu **out, char *err, size_t errlen)
{
    if (tc_cuda_use_device(dev, err, errlen))
        return -1;
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, hg_draw_kernel), "no machine code for this GPU (cudaFuncGetAttributes)");
    hgpu *h = (hgpu *)calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return -1;
    }
    h->dev = dev;
    cudaError_t e = cudaMalloc((void **)&h->cnt, sizeof *h->cnt);
    if (e != cudaSuccess) {
        free(h);
        return tc_cuda_fail(err, errlen, "cudaMalloc", e);
    }
    *out = h;
    return 0;
}

extern "C" void hgpu_close(hgpu *h)
{
    if (!h)
        return;
    cudaSetDevice(h->dev);
    cudaFree(h->cnt);
    cudaFree(h->ddecl);
    cudaFree(h->dmism);
    cudaFree(h->dg);
    free(h);
}

extern "C" int hgpu_win_open(int dev, hgpu_win **out, char *err, size_t errlen)
{
    if (tc_cuda_use_device(dev, err, errlen))
        return -1;
    hgpu_win *w = (hgpu_win *)calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return -1;
    }
    w->dev = dev;
    cudaError_t e = cudaStreamCreateWithFlags(&w->st, cudaStreamNonBlocking);
    if (e == cudaSuccess && (e = cudaEventCreateWithFlags(&w->ev, cudaEventDisableTiming)) != cudaSuccess)
        cudaStreamDestroy(w->st);
    if (e != cudaSuccess) {
        free(w);
        return tc_cuda_fail(err, errlen, "a stream for the GPU hunt's draw", e);
    }
    *out = w;
    return 0;
}

extern "C" void hgpu_win_close(hgpu_win *w)
{
    if (!w)
        return;
    cudaSetDevice(w->dev);
    cudaStreamSynchronize(w->st);
    cudaFree(w->mem);
    cudaFree(w->ddesc);
    cudaFree(w->dbad);
    cudaEventDestroy(w->ev);
    cudaStreamDestroy(w->st);
    free(w->hdesc);
    free(w->hbad);
    free(w->bufs);
    free(w->names);
    free(w);
}

static size_t hg_align(size_t n) { return (n + 255) / 256 * 256; }

/* The sizes of a job's buffers, in hgpu_bufs's order (A, B, C, M, pa, pb,
 * pc, pd, pd2, pe), then a random job's start states, each rounded up to
 * 256 bytes. */
#define HG_NBUFS 11
static void hg_sizes(const hgpu_shape *s, size_t nt, size_t *sz)
{
    size_t tiles = nt * (size_t)hgpu_blocks(s), m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k,
           kb = (size_t)s->kb;
    size_t out = tiles * m * n;
    size_t by[4] = {(size_t)hg_bytes(&s->f[0]), (size_t)hg_bytes(&s->f[1]),
                    (size_t)hg_bytes(&s->f[2]), (size_t)hg_bytes(&s->f[3])};
    size_t raw[HG_NBUFS] = {tiles * m * k * 8, tiles * k * n * 8, out * 8, out * 8, tiles * m * k * by[0],
                            tiles * kb * n * by[1], out * by[2], out * by[3], out * by[3],
                            s->meta ? tiles * (size_t)s->nmeta * 4 : 0, s->random ? nt * 8 : 0};
    for (int i = 0; i < HG_NBUFS; i++)
        sz[i] = hg_align(raw[i]);
}

extern "C" size_t hgpu_job_bytes(const hgpu_shape *s, size_t nt)
{
    size_t sz[HG_NBUFS], t = 0;
    hg_sizes(s, nt, sz);
    for (int i = 0; i < HG_NBUFS; i++)
        t += sz[i];
    return t;
}

extern "C" int hgpu_win_launch(hgpu_win *w, const hgpu_shape *s, const size_t *q0, const size_t *nt, size_t njobs,
                               char *err, size_t errlen)
{
    CK(cudaSetDevice(w->dev), "cudaSetDevice");
    CK(cudaStreamSynchronize(w->st), "the window's earlier draw");   /* its buffers are about to be reused */
    size_t total = 0, tiles = 0;
    for (size_t j = 0; j < njobs; j++)
        total += hgpu_job_bytes(&s[j], nt[j]);
    if (hg_host_grow((void **)&w->hdesc, &w->cap_hdesc, njobs, sizeof *w->hdesc, err, errlen) ||
        hg_host_grow((void **)&w->bufs, &w->cap_jobs, njobs, sizeof *w->bufs, err, errlen))
        return -1;
    free(w->names);   /* the names and checks of this window's jobs */
    free(w->hbad);
    w->names = (const char **)calloc(3 * njobs + 1, sizeof *w->names);
    w->hbad = (unsigned long long *)calloc(3 * njobs + 1, sizeof *w->hbad);
    if (!w->names || !w->hbad) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return -1;
    }
    if (GROW(w->mem, w->cap_mem, total) || GROW(w->ddesc, w->cap_ddesc, njobs * sizeof *w->ddesc) ||
        GROW(w->dbad, w->cap_bad, 3 * njobs * sizeof *w->dbad))
        return -1;
    char *p = (char *)w->mem;
    for (size_t j = 0; j < njobs; j++) {
        size_t sz[HG_NBUFS];
        hg_sizes(&s[j], nt[j], sz);
        void *at[HG_NBUFS];
        for (int i = 0; i < HG_NBUFS; i++) {
            at[i] = p;
            p += sz[i];
        }
        w->bufs[j] = (hgpu_bufs){(uint64_t *)at[0], (uint64_t *)at[1], (uint64_t *)at[2], (uint64_t *)at[3],
                                 at[4], at[5], at[6], at[7], at[8], s[j].meta ? (uint32_t *)at[9] : NULL};
        hg_desc *d = &w->hdesc[j];
        memset(d, 0, sizeof *d);
        *d = (hg_desc){s[j].m, s[j].n, s[j].k, s[j].kb, s[j].group, s[j].keep, s[j].meta ? s[j].nmeta : 0,
                       s[j].random, q0[j], nt[j], tiles, s[j].seed, s[j].czero,
                       {s[j].f[0], s[j].f[1], s[j].f[2], s[j].f[3]}, w->bufs[j].A, w->bufs[j].B, w->bufs[j].C,
                       (const uint64_t *)at[10], {0}};
        if (s[j].random) {
            if (!s[j].rst || q0[j] % 4) {
                snprintf(err, errlen, "GPU random tiles: no start states, or a round from tile %zu (internal error)",
                         q0[j]);
                return -1;
            }
            /* on the draw's stream, before it: the caller refills the states only after
             * hgpu_win_wait, when the stream has consumed them */
            CK(cudaMemcpyAsync(at[10], s[j].rst, nt[j] * sizeof *s[j].rst, cudaMemcpyHostToDevice, w->st),
               "copy the random tiles' start states to the GPU");
        }
        if (s[j].meta) {
            if (s[j].nmeta < 1 || s[j].nmeta > 128) {
                snprintf(err, errlen, "GPU hunt: %d metadata registers (internal error)", s[j].nmeta);
                return -1;
            }
            memcpy(d->meta, s[j].meta, (size_t)s[j].nmeta * sizeof *s[j].meta);
        }
        for (int i = 0; i < 3; i++)
            w->names[3 * j + (size_t)i] = s[j].f[i].name;
        tiles += nt[j] * (size_t)hgpu_blocks(&s[j]);
    }
    w->njobs = njobs;
    CK(cudaMemcpyAsync(w->ddesc, w->hdesc, njobs * sizeof *w->ddesc, cudaMemcpyHostToDevice, w->st),
       "copy the window's jobs to the GPU");
    CK(cudaMemsetAsync(w->dbad, 0xFF, 3 * njobs * sizeof *w->dbad, w->st), "clear the window's checks");
    /* small blocks: a window's tiles are few (one thread each), spread them over every SM */
    hg_draw_kernel<<<(unsigned)((tiles + 31) / 32), 32, 0, w->st>>>(w->ddesc, (int)njobs, tiles);
    CK(cudaGetLastError(), "launch of the hunt draw kernel");
    for (size_t j = 0; j < njobs; j++) {
        const hgpu_shape *sj = &s[j];
        const hgpu_bufs *b = &w->bufs[j];
        size_t tj = nt[j] * (size_t)hgpu_blocks(sj), m = (size_t)sj->m, n = (size_t)sj->n, k = (size_t)sj->k;
        size_t na = tj * m * k, nc = tj * m * n;
        unsigned long long *bad = w->dbad + 3 * j;
        hg_pack_kernel<<<hg_blocks(na, 256), 256, 0, w->st>>>(b->A, na, hg_bytes(&sj->f[0]), sj->mask[0],
                                                                b->pa, &bad[0]);
        if (sj->group)
            hg_pack_b_sparse_kernel<<<hg_blocks(tj * (size_t)sj->kb * n, 256), 256, 0, w->st>>>(
                b->B, tj, sj->k, sj->kb, sj->n, sj->group, sj->keep, hg_bytes(&sj->f[1]), sj->mask[1], b->pb,
                &bad[1]);
        else
            hg_pack_kernel<<<hg_blocks(tj * k * n, 256), 256, 0, w->st>>>(b->B, tj * k * n, hg_bytes(&sj->f[1]),
                                                                          sj->mask[1], b->pb, &bad[1]);
        hg_pack_kernel<<<hg_blocks(nc, 256), 256, 0, w->st>>>(b->C, nc, hg_bytes(&sj->f[2]), sj->mask[2],
                                                                b->pc, &bad[2]);
        if (b->pe)
            hg_meta_kernel<<<hg_blocks(tj * (size_t)sj->nmeta, 256), 256, 0, w->st>>>(w->ddesc + j, tj, b->pe);
        CK(cudaGetLastError(), "launch of the pack kernels");
    }
    CK(cudaEventRecord(w->ev, w->st), "cudaEventRecord");
    return 0;
}

extern "C" int hgpu_win_wait(hgpu_win *w, size_t *bad_job, char *err, size_t errlen)
{
    CK(cudaSetDevice(w->dev), "cudaSetDevice");
    CK(cudaEventSynchronize(w->ev), "the hunt draw and pack kernels");
    CK(cudaMemcpy(w->hbad, w->dbad, 3 * w->njobs * sizeof *w->hbad, cudaMemcpyDeviceToHost),
       "copy the window's checks from the GPU");
    static const char *const names[3] = {"A", "B", "C"};
    for (size_t j = 0; j < w->njobs; j++)
        for (int i = 0; i < 3; i++) {
            unsigned long long at = w->hbad[3 * j + (size_t)i];
            if (at == ~0ull)
                continue;
            const uint64_t *src = i == 0 ? w->bufs[j].A : i == 1 ? w->bufs[j].B : w->bufs[j].C;
            uint64_t v = 0;
            CK(cudaMemcpy(&v, src + at, sizeof v, cudaMemcpyDeviceToHost), "copy a bad element back");
            snprintf(err, errlen, "%s[%llu] = 0x%llx is not a %s bit pattern", names[i], at, (unsigned long long)v,
                     w->names[3 * j + (size_t)i]);
            *bad_job = j;
            return -1;
        }
    return 0;
}

extern "C" void hgpu_win_bufs(const hgpu_win *w, size_t j, hgpu_bufs *b)
{
    *b = w->bufs[j];
}

/* n listed indices (device, in the kernel's order) and their inputs
 * gathered into l, in new host memory that l's owner frees. */
static int gather(hgpu *h, const hgpu_shape *s, const hgpu_bufs *b, const size_t *dlist, size_t n, hgpu_list *l,
                  char *err, size_t errlen)
{
    size_t w = 2 * (size_t)s->k + 3;
    l->n = n;
    l->at = (size_t *)malloc(n * sizeof *l->at + 1);
    l->g = (uint64_t *)malloc(n * w * sizeof *l->g + 1);
    if (!l->at || !l->g) {
        snprintf(err, errlen, "GPU hunt: out of memory");
        return -1;
    }
    if (!n)
        return 0;
    CK(cudaMemcpy(l->at, dlist, n * sizeof *l->at, cudaMemcpyDeviceToHost), "copy a list from the GPU");
    if (GROW(h->dg, h->cap_g, n * w * 8))
        return -1;
    hg_gather_kernel<<<(unsigned)((n + 127) / 128), 128>>>(dlist, n, s->m, s->n, s->k, b->A, b->B, b->C, b->pd,
                                                           hg_bytes(&s->f[3]), b->M, h->dg);
    CK(cudaGetLastError(), "launch of the gather kernel");
    CK(cudaMemcpy(l->g, h->dg, n * w * 8, cudaMemcpyDeviceToHost), "copy gathered inputs from the GPU");
    return 0;
}

extern "C" int hgpu_compare(hgpu *h, const hgpu_shape *s, const hgpu_bufs *b, size_t nt, hgpu_result *r, char *err,
                            size_t errlen)
{
    CK(cudaSetDevice(h->dev), "cudaSetDevice");
    memset(r, 0, sizeof *r);
    size_t mn = (size_t)s->m * (size_t)s->n, total = nt * (size_t)hgpu_blocks(s) * mn;
    int db = hg_bytes(&s->f[3]);
    if (GROW(h->ddecl, h->cap_decl, total * sizeof(size_t)) ||
        GROW(h->dmism, h->cap_mism, HGPU_MISM_MAX * sizeof(size_t)))
        return -1;
    CK(cudaMemset(h->cnt, 0, sizeof *h->cnt), "clear the counts");
    hg_compare_kernel<<<hg_blocks(total, 256), 256>>>(total, nt * mn, mn, s->random, b->pd, db,
                                                      hg_poison_of(0xFF, db), b->M, h->cnt, h->ddecl, total, h->dmism,
                                                      HGPU_MISM_MAX);
    CK(cudaGetLastError(), "launch of the compare kernel");
    hg_counts c;
    CK(cudaMemcpy(&c, h->cnt, sizeof c, cudaMemcpyDeviceToHost), "copy the counts from the GPU");
    r->poisoned = c.poisoned;
    r->declined = c.declined;
    memcpy(r->mismatches, c.mism, sizeof c.mism);
    size_t nm = c.nmism < HGPU_MISM_MAX ? (size_t)c.nmism : HGPU_MISM_MAX;
    size_t nd = c.declined < total ? (size_t)c.declined : total;
    return gather(h, s, b, h->dmism, nm, &r->mism, err, errlen) || gather(h, s, b, h->ddecl, nd, &r->decl, err, errlen)
               ? -1
               : 0;
}

extern "C" int hgpu_poison_check(hgpu *h, const hgpu_shape *s, const hgpu_bufs *b, size_t nt, const char *instr,
                                 char *err, size_t errlen)
{
    CK(cudaSetDevice(h->dev), "cudaSetDevice");
    size_t mn = (size_t)s->m * (size_t)s->n, total = nt * (size_t)hgpu_blocks(s) * mn;
    int db = hg_bytes(&s->f[3]);
    CK(cudaMemset(h->cnt, 0xFF, sizeof *h->cnt), "clear the counts");
    hg_poison_kernel<<<hg_blocks(total, 256), 256>>>(total, b->pd, b->pd2, db, hg_poison_of(0xFF, db),
                                                     hg_poison_of(0xA5, db), h->cnt);
    CK(cudaGetLastError(), "launch of the poison check");
    hg_counts c;
    CK(cudaMemcpy(&c, h->cnt, sizeof c, cudaMemcpyDeviceToHost), "copy the counts from the GPU");
    if (c.unwritten != ~0ull) {
        snprintf(err, errlen, "%s: output element %llu (tile %llu) was not written by the kernel", instr,
                 c.unwritten, c.unwritten / mn);
        return -1;
    }
    if (c.differs != ~0ull) {
        snprintf(err, errlen, "%s: output element %llu differs between two runs", instr, c.differs);
        return -1;
    }
    return 0;
}

extern "C" int hgpu_sample(const hgpu_shape *s, const hgpu_bufs *b, size_t nt, size_t want, uint64_t *out, char *err,
                           size_t errlen)
{
    size_t mn = (size_t)s->m * (size_t)s->n;
    int db = hg_bytes(&s->f[3]);
    static unsigned char buf[4096 * 8];
    if (want > nt * mn || want > 4096 || s->random) {
        snprintf(err, errlen, "GPU hunt: a sample of %zu over the round's %zu elements (internal error)", want,
                 nt * mn);
        return -1;
    }
    for (int f = 0; f < HUNT_NFAMILIES; f++) {
        CK(cudaMemcpy(buf, (const char *)b->pd + (size_t)f * nt * mn * (size_t)db, want * (size_t)db,
                      cudaMemcpyDeviceToHost),
           "copy the sample from the GPU");
        for (size_t e = 0; e < want; e++) {
            uint64_t v = 0;
            for (int byte = db - 1; byte >= 0; byte--)   /* little-endian, as the GPU stores it */
                v = v << 8 | buf[e * (size_t)db + (size_t)byte];
            out[(size_t)f * want + e] = v;
        }
    }
    return 0;
}

extern "C" int hgpu_win_copy(const hgpu_win *w, size_t j, const hgpu_shape *s, size_t nt, uint64_t *A, uint64_t *B,
                             uint64_t *C, char *err, size_t errlen)
{
    CK(cudaSetDevice(w->dev), "cudaSetDevice");
    const hgpu_bufs *b = &w->bufs[j];
    size_t tiles = nt * (size_t)hgpu_blocks(s), ta = (size_t)s->m * s->k, tb = (size_t)s->k * s->n,
           tc = (size_t)s->m * s->n;
    CK(cudaMemcpy(A, b->A, tiles * ta * 8, cudaMemcpyDeviceToHost), "copy A back");
    CK(cudaMemcpy(B, b->B, tiles * tb * 8, cudaMemcpyDeviceToHost), "copy B back");
    CK(cudaMemcpy(C, b->C, tiles * tc * 8, cudaMemcpyDeviceToHost), "copy C back");
    return 0;
}
