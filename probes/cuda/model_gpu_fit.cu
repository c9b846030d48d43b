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

static double fit_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct tc_mgpu_fit {
    int dev, k;
    unsigned n;
    void *dA, *dB, *dC, *dD;                    /* the cases, put once */
    void *dM, *dO, *dF, *dBad, *dDec, *dAt, *dNat;   /* each count's: models, orders, flags, results */
    size_t capA, capB, capC, capD, capM, capO, capF, capBad, capDec, capAt, capNat;
};

extern "C" void tc_mgpu_fit_close(tc_mgpu_fit *s)
{
    if (!s)
        return;
    cudaSetDevice(s->dev);
    void *bufs[] = {s->dA, s->dB, s->dC, s->dD, s->dM, s->dO, s->dF, s->dBad, s->dDec, s->dAt, s->dNat};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        cudaFree(bufs[i]);
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
        tc_cuda_put(&s->dD, &s->capD, d, cd, "copy the cases' answers to the GPU", err, errlen) ||
        tc_cuda_grow(&s->dNat, &s->capNat, sizeof(unsigned long long), err, errlen)) {
        tc_mgpu_fit_close(s);
        return -1;
    }
    *out = s;
    return 0;
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
    double t0 = fit_now();
    size_t k = (size_t)s->k;
    if (tc_cuda_put(&s->dM, &s->capM, ms, nv * sizeof *ms, "copy the candidates to the GPU", err, errlen) ||
        tc_cuda_put(&s->dO, &s->capO, orders, nv * k * sizeof *orders, "copy the step orders to the GPU", err,
                    errlen) ||
        tc_cuda_put(&s->dF, &s->capF, ordered, nv, "copy the step orders to the GPU", err, errlen) ||
        tc_cuda_grow(&s->dBad, &s->capBad, nv * sizeof *bad, err, errlen) ||
        tc_cuda_grow(&s->dDec, &s->capDec, nv * sizeof *ndec, err, errlen) ||
        tc_cuda_grow(&s->dAt, &s->capAt, (cap ? cap : 1) * sizeof *at, err, errlen))
        return -1;
    CK(cudaMemset(s->dBad, 0, nv * sizeof *bad), "clear the counts");
    CK(cudaMemset(s->dDec, 0, nv * sizeof *ndec), "clear the counts");
    CK(cudaMemset(s->dNat, 0, sizeof(unsigned long long)), "clear the counts");
    double t1 = fit_now();
    dim3 grid((s->n + FIT_BLOCK - 1) / FIT_BLOCK, (unsigned)nv);
    const model *dm = (const model *)s->dM;
    const int *dord = (const int *)s->dO;
    const unsigned char *dflag = (const unsigned char *)s->dF;
    const uint64_t *dA = (const uint64_t *)s->dA, *dB = (const uint64_t *)s->dB, *dC = (const uint64_t *)s->dC,
                   *dD = (const uint64_t *)s->dD;
    unsigned *dbad = (unsigned *)s->dBad, *ddec = (unsigned *)s->dDec;
    unsigned long long *dat = (unsigned long long *)s->dAt, *dnat = (unsigned long long *)s->dNat;
    if (wide)
        tc_model_gpu_fit_wide_kernel<<<grid, FIT_BLOCK>>>(dm, dord, dflag, s->k, s->n, dA, dB, dC, dD, dbad, ddec,
                                                          dat, dnat, (unsigned)cap);
    else
        tc_model_gpu_fit_kernel<<<grid, FIT_BLOCK>>>(dm, dord, dflag, s->k, s->n, dA, dB, dC, dD, dbad, ddec, dat,
                                                     dnat, (unsigned)cap);
    CK(cudaGetLastError(), "launch of the fit kernel");
    CK(cudaDeviceSynchronize(), "the fit kernel");
    double t2 = fit_now();
    unsigned long long total = 0;
    CK(cudaMemcpy(bad, s->dBad, nv * sizeof *bad, cudaMemcpyDeviceToHost), "copy the counts from the GPU");
    CK(cudaMemcpy(ndec, s->dDec, nv * sizeof *ndec, cudaMemcpyDeviceToHost), "copy the counts from the GPU");
    CK(cudaMemcpy(&total, s->dNat, sizeof total, cudaMemcpyDeviceToHost), "copy the counts from the GPU");
    *nat = (size_t)total;
    size_t listed = *nat < cap ? *nat : cap;
    if (listed)
        CK(cudaMemcpy(at, s->dAt, listed * sizeof *at, cudaMemcpyDeviceToHost), "copy the declined from the GPU");
    double t3 = fit_now();
    times->copy_s += (t1 - t0) + (t3 - t2);
    times->kernel_s += t2 - t1;
    return 0;
}
