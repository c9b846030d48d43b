/* Launching the timing kernels (probes/timing.h, GPU side): buffers, one
 * block per SM, clock64 spans per block, event time. */
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "probes/timing.h"

extern const tct_kernel_set tct_mma_sets[];
extern const int tct_mma_set_count;
extern const tct_kernel_set tct_wmma_sets[];
extern const int tct_wmma_set_count;
extern const tct_kernel_set *const tct_wgmma_tables[];
extern const int *const tct_wgmma_table_counts[];
extern const int tct_wgmma_table_count;

namespace {

constexpr int kMaxBlocks = 1024;
constexpr int kMaxThreads = 1024;

struct Buffers {
    uint32_t *in = nullptr, *out = nullptr;
    long long *cyc = nullptr;
    int *smid = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    int smem_per_sm = 0;
    bool ready = false;
};
Buffers g;   /* the opened device's buffers: one bench at a time */

bool cuda_ok(cudaError_t e, const char *what, char *err, size_t len)
{
    if (e == cudaSuccess)
        return true;
    snprintf(err, len, "%s: %s", what, cudaGetErrorString(e));
    return false;
}

} // namespace

extern "C" const tct_kernel_set *tct_find(const char *name)
{
    for (int i = 0; i < tct_mma_set_count; i++)
        if (!strcmp(tct_mma_sets[i].name, name))
            return &tct_mma_sets[i];
    for (int i = 0; i < tct_wmma_set_count; i++)
        if (!strcmp(tct_wmma_sets[i].name, name))
            return &tct_wmma_sets[i];
    for (int t = 0; t < tct_wgmma_table_count; t++)
        for (int i = 0; i < *tct_wgmma_table_counts[t]; i++)
            if (!strcmp(tct_wgmma_tables[t][i].name, name))
                return &tct_wgmma_tables[t][i];
    return nullptr;
}

extern "C" int tct_open(int device, tct_device *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    int n = 0;
    if (!cuda_ok(cudaGetDeviceCount(&n), "no usable CUDA GPU: cudaGetDeviceCount", err, errlen))
        return -1;
    if (device < 0 || device >= n) {
        snprintf(err, errlen, "no CUDA device %d (%d found)", device, n);
        return -1;
    }
    if (!cuda_ok(cudaSetDevice(device), "cudaSetDevice", err, errlen))
        return -1;
    cudaDeviceProp p;
    if (!cuda_ok(cudaGetDeviceProperties(&p, device), "cudaGetDeviceProperties", err, errlen))
        return -1;
    snprintf(info->name, sizeof info->name, "%s", p.name);
    info->sm = p.major * 10 + p.minor;
    info->sm_count = p.multiProcessorCount;
    cudaDeviceGetAttribute(&info->clock_khz, cudaDevAttrClockRate, device);
    info->smem_per_sm = (int)p.sharedMemPerMultiprocessor;
    cudaDeviceGetPCIBusId(info->pci, sizeof info->pci, device);
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    if (info->sm != 90) {
        snprintf(err, errlen, "%s is sm_%d: the timing kernels are built for sm_90a", p.name, info->sm);
        return -1;
    }
    if (!g.ready) {
        if (!cuda_ok(cudaMalloc(&g.in, TCT_INPUT_WORDS * sizeof(uint32_t)), "cudaMalloc", err, errlen) ||
            !cuda_ok(cudaMalloc(&g.out, (size_t)kMaxBlocks * kMaxThreads * sizeof(uint32_t)), "cudaMalloc", err, errlen) ||
            !cuda_ok(cudaMalloc(&g.cyc, (size_t)kMaxBlocks * 32 * 2 * sizeof(long long)), "cudaMalloc", err, errlen) ||
            !cuda_ok(cudaMalloc(&g.smid, kMaxBlocks * sizeof(int)), "cudaMalloc", err, errlen) ||
            !cuda_ok(cudaEventCreate(&g.start), "cudaEventCreate", err, errlen) ||
            !cuda_ok(cudaEventCreate(&g.stop), "cudaEventCreate", err, errlen))
            return -1;
        g.smem_per_sm = info->smem_per_sm;
        g.ready = true;
    }
    return 0;
}

extern "C" int tct_set_inputs(const uint32_t *words, size_t n, char *err, size_t errlen)
{
    if (n != TCT_INPUT_WORDS) {
        snprintf(err, errlen, "tct_set_inputs: %zu words, want %d", n, TCT_INPUT_WORDS);
        return -1;
    }
    return cuda_ok(cudaMemcpy(g.in, words, n * sizeof *words, cudaMemcpyHostToDevice), "cudaMemcpy", err, errlen) ? 0 : -1;
}

extern "C" int tct_launch(const tct_kernel_set *ks, int ilp, int blocks, int warps, int iters, uint32_t arg,
                          tct_launch_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    const void *fn = ilp == 0 ? ks->lat : (ilp >= 1 && ilp <= 8 ? ks->k[ilp - 1] : nullptr);
    if (!fn || blocks < 1 || blocks > kMaxBlocks || warps < 1 || warps > 32) {
        snprintf(err, errlen, "tct_launch: bad arguments (ilp %d, %d blocks, %d warps)", ilp, blocks, warps);
        return -1;
    }
    /* More than half an SM's shared memory: no two blocks share an SM. */
    int smem = g.smem_per_sm / 2 + 1024;
    if (smem < 40960)
        smem = 40960;
    if (!cuda_ok(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, smem), "cudaFuncSetAttribute", err, errlen))
        return -1;
    cudaFuncAttributes fa;
    if (!cuda_ok(cudaFuncGetAttributes(&fa, fn), "cudaFuncGetAttributes", err, errlen))
        return -1;
    if (warps * 32 > fa.maxThreadsPerBlock)
        return 1;   /* registers: the block does not fit on an SM */
    int nw = blocks * warps;
    if (!cuda_ok(cudaMemset(g.cyc, 0xff, (size_t)nw * 2 * sizeof(long long)), "cudaMemset", err, errlen) ||
        !cuda_ok(cudaMemset(g.smid, 0xff, blocks * sizeof(int)), "cudaMemset", err, errlen) ||
        !cuda_ok(cudaMemset(g.out, 0xff, (size_t)blocks * warps * 32 * sizeof(uint32_t)), "cudaMemset", err, errlen))
        return -1;
    uint32_t *in = g.in, *out = g.out;
    long long *cyc = g.cyc;
    int *smid = g.smid;
    void *args[] = {&in, &out, &cyc, &smid, &iters, &arg};
    cudaEventRecord(g.start);
    cudaError_t e = cudaLaunchKernel(fn, dim3(blocks), dim3(warps * 32), args, smem, 0);
    if (e == cudaErrorLaunchOutOfResources) {
        cudaGetLastError();
        return 1;
    }
    if (!cuda_ok(e, "cudaLaunchKernel", err, errlen))
        return -1;
    cudaEventRecord(g.stop);
    if (!cuda_ok(cudaEventSynchronize(g.stop), ks->symbol, err, errlen) ||
        !cuda_ok(cudaGetLastError(), ks->symbol, err, errlen))
        return -1;
    cudaEventElapsedTime(&r->ms, g.start, g.stop);

    static long long hc[kMaxBlocks * 32 * 2];
    static int hs[kMaxBlocks];
    if (!cuda_ok(cudaMemcpy(hc, g.cyc, (size_t)nw * 2 * sizeof(long long), cudaMemcpyDeviceToHost), "cudaMemcpy", err, errlen) ||
        !cuda_ok(cudaMemcpy(hs, g.smid, blocks * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy", err, errlen))
        return -1;
    double sum = 0;
    r->span_min = 1e300;
    r->distinct_sms = true;
    static bool seen[1024];
    memset(seen, 0, sizeof seen);
    for (int bI = 0; bI < blocks; bI++) {
        long long t0 = 0, t1 = 0;
        for (int w = 0; w < warps; w++) {
            long long a = hc[2 * (bI * warps + w)], z = hc[2 * (bI * warps + w) + 1];
            if (a == -1 || z == -1 || z < a) {
                snprintf(err, errlen, "%s: block %d warp %d wrote no valid clock span", ks->symbol, bI, w);
                return -1;
            }
            if (w == 0 || a < t0)
                t0 = a;
            if (w == 0 || z > t1)
                t1 = z;
        }
        double span = (double)(t1 - t0);
        sum += span;
        if (span < r->span_min)
            r->span_min = span;
        if (span > r->span_max)
            r->span_max = span;
        if (hs[bI] < 0 || hs[bI] >= 1024 || seen[hs[bI]])
            r->distinct_sms = false;
        else
            seen[hs[bI]] = true;
    }
    r->span_mean = sum / blocks;
    return 0;
}
