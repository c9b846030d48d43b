/* The GPU hunt's round kernels (cases/hunt_gpu_run.h): every family's tiles
 * drawn on the GPU by the host's own code (cases/hunt_draw.h, one thread per
 * tile of the "tile" stream), packed to the executor's native widths, and
 * the executor's answers compared there with the GPU model's; only counts,
 * and the few elements the host must see (declined by the model, or
 * differing), come back. Integer code only (the draw needs no floating
 * point; its 64-bit remainders are the compiler's). Every CUDA call is
 * checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "cases/hunt_draw.h"
#include "cases/hunt_gpu_run.h"
#include "probes/cuda/cuda_check.cuh"
#include "probes/model_gpu_run.h"

__constant__ tc_format c_fmt[4];

/* What the kernels count: one block of device memory, cleared per round. */
typedef struct {
    unsigned long long poisoned, declined, nmism;
    unsigned long long mism[HUNT_NFAMILIES];
    unsigned long long bad[3];            /* the first A, B, C element outside its mask (~0: none) */
    unsigned long long unwritten, differs; /* the poison check's first element (~0: none) */
} hg_counts;

/* A list's host memory, kept from round to round. */
typedef struct {
    size_t *at;
    uint64_t *g;
    size_t cap_at, cap_g;
} hg_host;

struct hgpu {
    int dev;
    hgpu_bufs b;
    size_t capA, capB, capC, capM, cap_pa, cap_pb, cap_pc, cap_pd, cap_pd2, cap_pe;
    hg_counts *cnt;
    size_t *ddecl, *dmism;                /* the lists' indices */
    size_t cap_decl, cap_mism;
    uint64_t *dg;                         /* gathered inputs: (2k + 3) words per listed element */
    size_t cap_g;
    hg_host hm, hd;                       /* the host's copies: mismatches, declined */
    int db;                               /* D's bytes */
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

/* Thread g: tile j = g % nt of family f = g / nt, stream "tile". */
__global__ void hg_draw_kernel(int m, int n, int k, uint64_t seed, unsigned long long q0, unsigned long long nt,
                               uint64_t *A, uint64_t *B, uint64_t *C)
{
    unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
    if (g >= nt * HUNT_NFAMILIES)
        return;
    int f = (int)(g / nt);
    unsigned long long j = g - (unsigned long long)f * nt;
    uint64_t st = hunt_tile_seed_hd(seed, f, q0 + j);
    size_t ta = (size_t)m * (size_t)k, tb = (size_t)k * (size_t)n, tc = (size_t)m * (size_t)n;
    hunt_tile T = {m, n, k, &c_fmt[0], &c_fmt[1], &c_fmt[2], &c_fmt[3], A + g * ta, B + g * tb, C + g * tc, &st};
    hunt_fill_tile_hd(&T, f);
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
 * model's; per family (fam_elems elements each) the mismatches, and the
 * lists of declined and differing elements. */
__global__ void hg_compare_kernel(size_t total, size_t fam_elems, const void *pd, int db, uint64_t poison,
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
            atomicAdd(&cnt->mism[o / fam_elems], 1ull);
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
    void *p[] = {h->b.A, h->b.B, h->b.C, h->b.M, h->b.pa, h->b.pb, h->b.pc, h->b.pd, h->b.pd2, h->b.pe,
                 h->cnt, h->ddecl, h->dmism, h->dg};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        cudaFree(p[i]);
    free(h->hm.at);
    free(h->hm.g);
    free(h->hd.at);
    free(h->hd.g);
    free(h);
}

/* A device buffer of at least `bytes` (one byte at least: a pointer even for none). */
static int hg_grow(void **p, size_t *cap, size_t bytes, char *err, size_t errlen)
{
    return tc_cuda_grow(p, cap, bytes > 0 ? bytes : 1, err, errlen);
}
#define GROW(ptr, cap, bytes) hg_grow((void **)&(ptr), &(cap), (bytes), err, errlen)

extern "C" int hgpu_prepare(hgpu *h, const hgpu_shape *s, size_t nt, hgpu_bufs *b, char *err, size_t errlen)
{
    CK(cudaSetDevice(h->dev), "cudaSetDevice");
    size_t tiles = nt * HUNT_NFAMILIES, m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k, kb = (size_t)s->kb;
    size_t out = tiles * m * n;
    int ab = s->f[0].storage_bits / 8, bb = s->f[1].storage_bits / 8, cb = s->f[2].storage_bits / 8,
        db = s->f[3].storage_bits / 8;
    if (GROW(h->b.A, h->capA, tiles * m * k * 8) || GROW(h->b.B, h->capB, tiles * k * n * 8) ||
        GROW(h->b.C, h->capC, out * 8) || GROW(h->b.M, h->capM, out * 8) ||
        GROW(h->b.pa, h->cap_pa, tiles * m * k * ab) || GROW(h->b.pb, h->cap_pb, tiles * kb * n * bb) ||
        GROW(h->b.pc, h->cap_pc, out * cb) || GROW(h->b.pd, h->cap_pd, out * db) ||
        GROW(h->b.pd2, h->cap_pd2, out * db) || GROW(h->ddecl, h->cap_decl, out * sizeof(size_t)) ||
        GROW(h->dmism, h->cap_mism, HGPU_MISM_MAX * sizeof(size_t)))
        return -1;
    CK(cudaMemcpyToSymbol(c_fmt, s->f, sizeof s->f), "copy the formats to the GPU");
    h->db = db;
    if (s->meta) {   /* every tile's metadata registers: the same (cases/hunt_gpu.c) */
        size_t words = tiles * (size_t)s->nmeta;
        uint32_t *host = (uint32_t *)malloc(words * sizeof *host);
        if (!host) {
            snprintf(err, errlen, "GPU hunt: out of memory");
            return -1;
        }
        for (size_t t = 0; t < tiles; t++)
            memcpy(host + t * (size_t)s->nmeta, s->meta, (size_t)s->nmeta * sizeof *host);
        int rc = GROW(h->b.pe, h->cap_pe, words * sizeof *host);
        cudaError_t e = rc ? cudaSuccess : cudaMemcpy(h->b.pe, host, words * sizeof *host, cudaMemcpyHostToDevice);
        free(host);
        if (rc)
            return -1;
        CK(e, "copy the sparse metadata to the GPU");
    }
    *b = h->b;
    return 0;
}

extern "C" int hgpu_draw(hgpu *h, const hgpu_shape *s, size_t q0, size_t nt, char *err, size_t errlen)
{
    CK(cudaSetDevice(h->dev), "cudaSetDevice");
    size_t tiles = nt * HUNT_NFAMILIES, m = (size_t)s->m, n = (size_t)s->n, k = (size_t)s->k;
    hg_draw_kernel<<<(unsigned)((tiles + 63) / 64), 64>>>(s->m, s->n, s->k, s->seed, q0, nt, h->b.A, h->b.B,
                                                          h->b.C);
    CK(cudaGetLastError(), "launch of the hunt draw kernel");
    CK(cudaMemset(h->cnt, 0xFF, sizeof *h->cnt), "clear the counts");
    size_t na = tiles * m * k, nc = tiles * m * n;
    hg_pack_kernel<<<hg_blocks(na, 256), 256>>>(h->b.A, na, s->f[0].storage_bits / 8, s->mask[0], h->b.pa,
                                                &h->cnt->bad[0]);
    CK(cudaGetLastError(), "launch of the pack kernel (A)");
    if (s->group) {
        size_t nb = tiles * (size_t)s->kb * n;
        hg_pack_b_sparse_kernel<<<hg_blocks(nb, 256), 256>>>(h->b.B, tiles, s->k, s->kb, s->n, s->group, s->keep,
                                                             s->f[1].storage_bits / 8, s->mask[1], h->b.pb,
                                                             &h->cnt->bad[1]);
    } else {
        size_t nb = tiles * k * n;
        hg_pack_kernel<<<hg_blocks(nb, 256), 256>>>(h->b.B, nb, s->f[1].storage_bits / 8, s->mask[1], h->b.pb,
                                                    &h->cnt->bad[1]);
    }
    CK(cudaGetLastError(), "launch of the pack kernel (B)");
    hg_pack_kernel<<<hg_blocks(nc, 256), 256>>>(h->b.C, nc, s->f[2].storage_bits / 8, s->mask[2], h->b.pc,
                                                &h->cnt->bad[2]);
    CK(cudaGetLastError(), "launch of the pack kernel (C)");
    CK(cudaDeviceSynchronize(), "the hunt draw and pack kernels");
    hg_counts c;
    CK(cudaMemcpy(&c, h->cnt, sizeof c, cudaMemcpyDeviceToHost), "copy the counts from the GPU");
    static const char *const names[3] = {"A", "B", "C"};
    const uint64_t *src[3] = {h->b.A, h->b.B, h->b.C};
    for (int w = 0; w < 3; w++)
        if (c.bad[w] != ~0ull) {
            uint64_t v = 0;
            CK(cudaMemcpy(&v, src[w] + c.bad[w], sizeof v, cudaMemcpyDeviceToHost), "copy a bad element back");
            snprintf(err, errlen, "%s[%llu] = 0x%llx is not a %s bit pattern", names[w], c.bad[w],
                     (unsigned long long)v, s->f[w].name);
            return -1;
        }
    return 0;
}

static int by_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* n listed indices (device) sorted on the host (the same order whatever the
 * kernel's), their inputs gathered into l (memory hh). */
static int gather(hgpu *h, const hgpu_shape *s, size_t *dlist, size_t n, hg_host *hh, hgpu_list *l, char *err,
                  size_t errlen)
{
    l->n = n;
    if (!n)
        return 0;
    size_t w = 2 * (size_t)s->k + 3;
    if (n > hh->cap_at) {
        size_t *p = (size_t *)realloc(hh->at, n * sizeof *p);
        if (!p) {
            snprintf(err, errlen, "GPU hunt: out of memory");
            return -1;
        }
        hh->at = p;
        hh->cap_at = n;
    }
    if (n * w > hh->cap_g) {
        uint64_t *p = (uint64_t *)realloc(hh->g, n * w * sizeof *p);
        if (!p) {
            snprintf(err, errlen, "GPU hunt: out of memory");
            return -1;
        }
        hh->g = p;
        hh->cap_g = n * w;
    }
    CK(cudaMemcpy(hh->at, dlist, n * sizeof *hh->at, cudaMemcpyDeviceToHost), "copy a list from the GPU");
    qsort(hh->at, n, sizeof *hh->at, by_index);
    CK(cudaMemcpy(dlist, hh->at, n * sizeof *hh->at, cudaMemcpyHostToDevice), "copy a list to the GPU");
    if (GROW(h->dg, h->cap_g, n * w * 8))
        return -1;
    hg_gather_kernel<<<(unsigned)((n + 127) / 128), 128>>>(dlist, n, s->m, s->n, s->k, h->b.A, h->b.B, h->b.C,
                                                           h->b.pd, h->db, h->b.M, h->dg);
    CK(cudaGetLastError(), "launch of the gather kernel");
    CK(cudaMemcpy(hh->g, h->dg, n * w * 8, cudaMemcpyDeviceToHost), "copy gathered inputs from the GPU");
    l->at = hh->at;
    l->g = hh->g;
    return 0;
}

extern "C" int hgpu_compare(hgpu *h, const hgpu_shape *s, size_t nt, hgpu_result *r, char *err, size_t errlen)
{
    CK(cudaSetDevice(h->dev), "cudaSetDevice");
    memset(r, 0, sizeof *r);
    size_t mn = (size_t)s->m * (size_t)s->n, total = nt * HUNT_NFAMILIES * mn;
    CK(cudaMemset(h->cnt, 0, sizeof *h->cnt), "clear the counts");
    hg_compare_kernel<<<hg_blocks(total, 256), 256>>>(total, nt * mn, h->b.pd, h->db, hg_poison_of(0xFF, h->db),
                                                      h->b.M, h->cnt, h->ddecl, total, h->dmism, HGPU_MISM_MAX);
    CK(cudaGetLastError(), "launch of the compare kernel");
    hg_counts c;
    CK(cudaMemcpy(&c, h->cnt, sizeof c, cudaMemcpyDeviceToHost), "copy the counts from the GPU");
    r->poisoned = c.poisoned;
    r->declined = c.declined;
    memcpy(r->mismatches, c.mism, sizeof c.mism);
    size_t nm = c.nmism < HGPU_MISM_MAX ? (size_t)c.nmism : HGPU_MISM_MAX;
    size_t nd = c.declined < total ? (size_t)c.declined : total;
    return gather(h, s, h->dmism, nm, &h->hm, &r->mism, err, errlen) ||
                   gather(h, s, h->ddecl, nd, &h->hd, &r->decl, err, errlen)
               ? -1
               : 0;
}

extern "C" int hgpu_poison_check(hgpu *h, const hgpu_shape *s, size_t nt, const char *instr, char *err,
                                 size_t errlen)
{
    CK(cudaSetDevice(h->dev), "cudaSetDevice");
    size_t mn = (size_t)s->m * (size_t)s->n, total = nt * HUNT_NFAMILIES * mn;
    CK(cudaMemset(h->cnt, 0xFF, sizeof *h->cnt), "clear the counts");
    hg_poison_kernel<<<hg_blocks(total, 256), 256>>>(total, h->b.pd, h->b.pd2, h->db, hg_poison_of(0xFF, h->db),
                                                     hg_poison_of(0xA5, h->db), h->cnt);
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

extern "C" int hgpu_sample(hgpu *h, const hgpu_shape *s, size_t nt, size_t want, uint64_t *out, char *err,
                           size_t errlen)
{
    CK(cudaSetDevice(h->dev), "cudaSetDevice");
    size_t mn = (size_t)s->m * (size_t)s->n;
    int db = h->db;
    unsigned char buf[4096 * 8];
    if (want > nt * mn || want > 4096) {
        snprintf(err, errlen, "GPU hunt: a sample of %zu over the round's %zu elements (internal error)", want,
                 nt * mn);
        return -1;
    }
    for (int f = 0; f < HUNT_NFAMILIES; f++) {
        CK(cudaMemcpy(buf, (const char *)h->b.pd + (size_t)f * nt * mn * (size_t)db, want * (size_t)db,
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

extern "C" int hgpu_draw_copy(hgpu *h, const hgpu_shape *s, size_t q0, size_t nt, int fam, uint64_t *A,
                              uint64_t *B, uint64_t *C, char *err, size_t errlen)
{
    hgpu_bufs b;
    if (hgpu_prepare(h, s, nt, &b, err, errlen) || hgpu_draw(h, s, q0, nt, err, errlen))
        return -1;
    size_t ta = (size_t)s->m * s->k, tb = (size_t)s->k * s->n, tc = (size_t)s->m * s->n, t0 = (size_t)fam * nt;
    CK(cudaMemcpy(A, b.A + t0 * ta, nt * ta * 8, cudaMemcpyDeviceToHost), "copy A back");
    CK(cudaMemcpy(B, b.B + t0 * tb, nt * tb * 8, cudaMemcpyDeviceToHost), "copy B back");
    CK(cudaMemcpy(C, b.C + t0 * tc, nt * tc * 8, cudaMemcpyDeviceToHost), "copy C back");
    return 0;
}
