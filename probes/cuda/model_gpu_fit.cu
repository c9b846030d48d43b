/* A fit's counts on the GPU (probes/model_gpu_fit.h): how many of the
 * crafted cases each candidate model gets wrong. One block of threads is
 * one candidate over a run of cases, one thread one case: the element
 * model_gpu.cu's kernels compute (model_element_int128, or for a wide
 * model, f64, model_element_wide), compared with the target's answer and
 * counted per block (__syncthreads_count), so the counts need one atomic a
 * block. The candidate's model and step order are copied into shared memory
 * first: every thread of the block reads them.
 *
 * An element the kernel declines (a step wider than its limbs) is listed,
 * (candidate << 32 | case), for the host's model_dot, up to the list's
 * room; the candidate's declined count says when the list ran out.
 * Integer arithmetic only, as model_gpu.cu (tools/model-gpu-sass.sh checks
 * this kernel's SASS too). Every CUDA call is checked. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "oracle/model_internal.h"
#include "oracle/model_wide_core.h"
#include "probes/cuda/cuda_check.cuh"
#include "probes/model_gpu_run.h"
#include "probes/clock.h"

static_assert(sizeof(model) % 4 == 0, "the model is copied to shared memory in 32-bit words");

/* Cases per block: one candidate's block runs this many of them. */
#define FIT_BLOCK 256

/* Case i of candidate blockIdx.y: 1 wrong, 0 right; declined elements are
 * listed and counted in *dec. */
template <bool WIDE>
static __device__ __forceinline__ void fit_element(const model *m, const int *order, int k, unsigned n,
                                                   const uint64_t *A, const uint64_t *B, const uint64_t *C,
                                                   const uint64_t *D, unsigned long long *at, unsigned long long *nat,
                                                   unsigned cap, int *wrong, int *dec)
{
    unsigned i = blockIdx.x * FIT_BLOCK + threadIdx.x;
    *wrong = *dec = 0;
    if (i >= n)
        return;
    uint64_t d = 0;
    const uint64_t *a = A + (size_t)i * (size_t)k, *b = B + (size_t)i * (size_t)k;
    int rc = WIDE ? model_element_wide(m, k, a, 1, b, 1, C[i], order, &d)
                  : model_element_int128(m, k, a, 1, b, 1, C[i], order, &d);
    if (rc != 0) {
        *dec = 1;
        unsigned long long x = atomicAdd(nat, 1ull);
        if (x < cap)
            at[x] = ((unsigned long long)blockIdx.y << 32) | i;
    } else {
        *wrong = d != D[i];
    }
}

template <bool WIDE>
static __device__ __forceinline__ void fit_block(const model *ms, const int *orders, const unsigned char *ordered,
                                                 int k, unsigned n, const uint64_t *A, const uint64_t *B,
                                                 const uint64_t *C, const uint64_t *D, unsigned *bad, unsigned *ndec,
                                                 unsigned long long *at, unsigned long long *nat, unsigned cap)
{
    __shared__ __align__(16) unsigned sm[sizeof(model) / 4];
    __shared__ int so[MODEL_ELEMENT_MAX_K];
    unsigned v = blockIdx.y;
    const unsigned *src = (const unsigned *)(ms + v);
    for (unsigned w = threadIdx.x; w < sizeof(model) / 4; w += FIT_BLOCK)
        sm[w] = src[w];
    for (int q = (int)threadIdx.x; q < k; q += FIT_BLOCK)
        so[q] = orders[(size_t)v * (size_t)k + (size_t)q];
    __syncthreads();
    int wrong, dec;
    fit_element<WIDE>((const model *)sm, ordered[v] ? so : NULL, k, n, A, B, C, D, at, nat, cap, &wrong, &dec);
    int nw = __syncthreads_count(wrong), nd = __syncthreads_count(dec);
    if (threadIdx.x == 0) {
        if (nw)
            atomicAdd(bad + v, (unsigned)nw);
        if (nd)
            atomicAdd(ndec + v, (unsigned)nd);
    }
}

__global__ void __launch_bounds__(FIT_BLOCK)
    tc_model_gpu_fit_kernel(const model *ms, const int *orders, const unsigned char *ordered, int k, unsigned n,
                            const uint64_t *A, const uint64_t *B, const uint64_t *C, const uint64_t *D, unsigned *bad,
                            unsigned *ndec, unsigned long long *at, unsigned long long *nat, unsigned cap)
{
    fit_block<false>(ms, orders, ordered, k, n, A, B, C, D, bad, ndec, at, nat, cap);
}

__global__ void __launch_bounds__(FIT_BLOCK)
    tc_model_gpu_fit_wide_kernel(const model *ms, const int *orders, const unsigned char *ordered, int k,
                                 unsigned n, const uint64_t *A, const uint64_t *B, const uint64_t *C,
                                 const uint64_t *D, unsigned *bad, unsigned *ndec, unsigned long long *at,
                                 unsigned long long *nat, unsigned cap)
{
    fit_block<true>(ms, orders, ordered, k, n, A, B, C, D, bad, ndec, at, nat, cap);
}

struct tc_mgpu_fit {
    int dev, k;
    unsigned n;
    void *dA, *dB, *dC, *dD;   /* the cases, put once */
    void *dIn, *dOut, *dAt;    /* each count's: the candidates in one block, the counts out, the declined */
    size_t capA, capB, capC, capD, capIn, capOut, capAt;
    unsigned char *in;         /* the host's staging of dIn and dOut (one copy each way a count: the GPU
                                  is shared, and each call waits for it) */
    size_t capHostIn;
};

extern "C" void tc_mgpu_fit_close(tc_mgpu_fit *s)
{
    if (!s)
        return;
    cudaSetDevice(s->dev);
    void *bufs[] = {s->dA, s->dB, s->dC, s->dD, s->dIn, s->dOut, s->dAt};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        cudaFree(bufs[i]);
    free(s->in);
    free(s);
}

extern "C" int tc_mgpu_fit_open(int dev, int k, size_t n, const uint64_t *a, const uint64_t *b, const uint64_t *c,
                                const uint64_t *d, tc_mgpu_fit **out, char *err, size_t errlen)
{
    *out = NULL;
    if (k < 1 || k > MODEL_ELEMENT_MAX_K || n < 1 || n > 0xFFFFFFFFu) {
        snprintf(err, errlen, "GPU fit: %zu cases of K %d outside what the kernel takes (internal error)", n, k);
        return -1;
    }
    if (tc_cuda_use_device(dev, err, errlen))
        return -1;
    tc_mgpu_fit *s = (tc_mgpu_fit *)calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "GPU fit: out of memory");
        return -1;
    }
    s->dev = dev;
    s->k = k;
    s->n = (unsigned)n;
    size_t ab = n * (size_t)k * 8, cd = n * 8;
    if (tc_cuda_put(&s->dA, &s->capA, a, ab, "copy the cases' A to the GPU", err, errlen) ||
        tc_cuda_put(&s->dB, &s->capB, b, ab, "copy the cases' B to the GPU", err, errlen) ||
        tc_cuda_put(&s->dC, &s->capC, c, cd, "copy the cases' C to the GPU", err, errlen) ||
        tc_cuda_put(&s->dD, &s->capD, d, cd, "copy the cases' answers to the GPU", err, errlen)) {
        tc_mgpu_fit_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* The host's staging buffer holds at least `bytes` (its contents not kept). */
static int host_room(tc_mgpu_fit *s, size_t bytes, char *err, size_t errlen)
{
    if (bytes <= s->capHostIn)
        return 0;
    unsigned char *p = (unsigned char *)realloc(s->in, bytes);
    if (!p) {
        snprintf(err, errlen, "GPU fit: out of memory");
        return -1;
    }
    s->in = p;
    s->capHostIn = bytes;
    return 0;
}

/* Byte offsets of one count's blocks: in (the models, the step orders, the
 * flags) and out (the counts, the declined counts, their total). */
static size_t fit_align(size_t x)
{
    return (x + 15) & ~(size_t)15;
}

extern "C" int tc_mgpu_fit_count(tc_mgpu_fit *s, const struct model *ms, const int *orders,
                                 const unsigned char *ordered, size_t nv, int wide, unsigned *bad, unsigned *ndec,
                                 uint64_t *at, size_t cap, size_t *nat, tc_mgpu_times *times, char *err, size_t errlen)
{
    *nat = 0;
    if (nv == 0)
        return 0;
    if (nv > 65535 || cap > 0xFFFFFFFFu) {
        snprintf(err, errlen, "GPU fit: %zu candidates at once, over 65535 (internal error)", nv);
        return -1;
    }
    CK(cudaSetDevice(s->dev), "cudaSetDevice");
    double t0 = tc_now_s();
    size_t k = (size_t)s->k, o_ord = fit_align(nv * sizeof *ms), o_flag = o_ord + fit_align(nv * k * sizeof *orders),
           in_bytes = o_flag + nv, o_dec = fit_align(nv * sizeof *bad), o_nat = o_dec + fit_align(nv * sizeof *ndec),
           out_bytes = o_nat + sizeof(unsigned long long);
    if (host_room(s, in_bytes, err, errlen))
        return -1;
    memcpy(s->in, ms, nv * sizeof *ms);
    memcpy(s->in + o_ord, orders, nv * k * sizeof *orders);
    memcpy(s->in + o_flag, ordered, nv);
    if (tc_cuda_put(&s->dIn, &s->capIn, s->in, in_bytes, "copy the candidates to the GPU", err, errlen) ||
        tc_cuda_grow(&s->dOut, &s->capOut, out_bytes, err, errlen) ||
        tc_cuda_grow(&s->dAt, &s->capAt, (cap ? cap : 1) * sizeof *at, err, errlen))
        return -1;
    CK(cudaMemset(s->dOut, 0, out_bytes), "clear the counts");
    double t1 = tc_now_s();
    dim3 grid((s->n + FIT_BLOCK - 1) / FIT_BLOCK, (unsigned)nv);
    unsigned char *in = (unsigned char *)s->dIn, *res = (unsigned char *)s->dOut;
    const model *dm = (const model *)in;
    const int *dord = (const int *)(in + o_ord);
    const unsigned char *dflag = in + o_flag;
    const uint64_t *dA = (const uint64_t *)s->dA, *dB = (const uint64_t *)s->dB, *dC = (const uint64_t *)s->dC,
                   *dD = (const uint64_t *)s->dD;
    unsigned *dbad = (unsigned *)res, *ddec = (unsigned *)(res + o_dec);
    unsigned long long *dat = (unsigned long long *)s->dAt, *dnat = (unsigned long long *)(res + o_nat);
    if (wide)
        tc_model_gpu_fit_wide_kernel<<<grid, FIT_BLOCK>>>(dm, dord, dflag, s->k, s->n, dA, dB, dC, dD, dbad, ddec,
                                                          dat, dnat, (unsigned)cap);
    else
        tc_model_gpu_fit_kernel<<<grid, FIT_BLOCK>>>(dm, dord, dflag, s->k, s->n, dA, dB, dC, dD, dbad, ddec, dat,
                                                     dnat, (unsigned)cap);
    CK(cudaGetLastError(), "launch of the fit kernel");
    /* the copy back waits for the kernel (the same stream): one wait a count */
    if (host_room(s, out_bytes, err, errlen))
        return -1;
    CK(cudaMemcpy(s->in, res, out_bytes, cudaMemcpyDeviceToHost), "the fit kernel, and its counts back");
    double t2 = tc_now_s();
    unsigned long long total = 0;
    memcpy(bad, s->in, nv * sizeof *bad);
    memcpy(ndec, s->in + o_dec, nv * sizeof *ndec);
    memcpy(&total, s->in + o_nat, sizeof total);
    *nat = (size_t)total;
    size_t listed = *nat < cap ? *nat : cap;
    if (listed)
        CK(cudaMemcpy(at, s->dAt, listed * sizeof *at, cudaMemcpyDeviceToHost), "copy the declined from the GPU");
    double t3 = tc_now_s();
    times->copy_s += (t1 - t0) + (t3 - t2);
    times->kernel_s += t2 - t1;   /* with the counts' copy back */
    return 0;
}
