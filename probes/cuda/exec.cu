/* The CUDA runtime side of the GPU backend: device, buffers, launches.
 *
 * Runtime API only (cudart_static): no driver API symbols, so the binary
 * starts on a machine without a driver and says so. Every call is checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "probes/cuda/cuda_check.cuh"
#include "probes/gpu.h"
#include "probes/layout.h"

#define TC_MAX_INSTR 512

struct tc_gpu {
    int dev;
    int sm_count;
    int exec_arch;      /* tc_gpu_exec_arch */
    void *dA, *dB, *dC, *dD, *dX, *dE;
    size_t capA, capB, capC, capD, capX, capE;
    uint16_t *tables[TC_MAX_INSTR][3]; /* per catalogue entry: A, B, C/D fragment tables */
    void *host[6];
    size_t host_cap[6];
    cudaEvent_t ev0, ev1;
    float last_ms;
};

/* The entry named `name` in the generated tables of the families fams. */
template <class T, size_t NF>
static const T *find_named(const T *(*const (&fams)[NF])(size_t *), const char *name)
{
    for (size_t f = 0; f < NF; f++) {
        size_t n;
        const T *k = fams[f](&n);
        for (size_t i = 0; i < n; i++)
            if (!strcmp(k[i].name, name))
                return &k[i];
    }
    return NULL;
}

extern "C" const tc_gpu_kernel *tc_gpu_kernel_find(const char *name)
{
    static const tc_gpu_kernel *(*const fams[])(size_t *) = {
        tc_gpu_kernels_mma, tc_gpu_kernels_wgmma_f16, tc_gpu_kernels_wgmma_tf32,
        tc_gpu_kernels_wgmma_fp8, tc_gpu_kernels_mma_sp, tc_gpu_kernels_wgmma_sp};
    return find_named(fams, name);
}

extern "C" const tc_gpu_chain_kernel *tc_gpu_chain_kernel_find(const char *name)
{
    static const tc_gpu_chain_kernel *(*const fams[])(size_t *) = {
        tc_gpu_chains_mma, tc_gpu_chains_wgmma_f16, tc_gpu_chains_wgmma_tf32, tc_gpu_chains_wgmma_fp8};
    return find_named(fams, name);
}

/* The kernel driver's version, from the kernel module (no driver API needed). */
static void driver_version(char *out, size_t len)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    char line[256];
    if (fgets(line, sizeof line, f)) {
        /* "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build ...":
         * the first blank-separated word made of digits and dots */
        for (char *tok = strtok(line, " \t\n"); tok; tok = strtok(NULL, " \t\n")) {
            size_t n = strlen(tok), dots = 0, ok = n > 0;
            for (size_t i = 0; i < n && ok; i++) {
                dots += tok[i] == '.';
                ok = (tok[i] >= '0' && tok[i] <= '9') || tok[i] == '.';
            }
            if (ok && dots >= 1) {
                snprintf(out, len, "%s", tok);
                break;
            }
        }
    }
    fclose(f);
}

/* g->exec_arch from the one-thread kernel of probes/cuda/mma_gen.cu. A
 * device without code for it (an architecture this build lacks) gives 0,
 * not an error: the backend then refuses every warp-level instruction. */
static int read_exec_arch(tc_gpu *g, char *err, size_t errlen)
{
    int *d = NULL, h = 0;
    CK(cudaMalloc((void **)&d, sizeof *d), "cudaMalloc(exec arch)");
    cudaError_t e = cudaMemset(d, 0, sizeof *d);
    if (e == cudaSuccess && tc_gpu_exec_arch_launch(d) == (int)cudaSuccess)
        e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    else if (e == cudaSuccess)
        cudaGetLastError(); /* no kernel image: clear it, the device stays usable */
    cudaFree(d);
    if (e != cudaSuccess)
        return tc_cuda_fail(err, errlen, "reading the executors' architecture", e);
    g->exec_arch = h;
    return 0;
}

extern "C" int tc_gpu_exec_arch(const tc_gpu *g)
{
    return g->exec_arch;
}

extern "C" int tc_gpu_open(int dev, tc_backend_info *info, tc_gpu **out, char *err, size_t errlen)
{
    if (tc_cuda_use_device(dev, err, errlen))
        return -1;
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
    int clock_khz = 0, drv = 0, rt = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev), "cudaDeviceGetAttribute(clock)");
    CK(cudaDriverGetVersion(&drv), "cudaDriverGetVersion");
    CK(cudaRuntimeGetVersion(&rt), "cudaRuntimeGetVersion");
    tc_gpu *g = (tc_gpu *)calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    g->dev = dev;
    g->sm_count = p.multiProcessorCount;
    CK(cudaEventCreate(&g->ev0), "cudaEventCreate");
    CK(cudaEventCreate(&g->ev1), "cudaEventCreate");
    if (read_exec_arch(g, err, errlen)) {
        tc_gpu_close(g);
        return -1;
    }
    memset(info, 0, sizeof *info);
    snprintf(info->backend, sizeof info->backend, "gpu:%d", dev);
    snprintf(info->device, sizeof info->device, "%.127s", p.name);
    driver_version(info->driver, sizeof info->driver);
    if (!info->driver[0])
        snprintf(info->driver, sizeof info->driver, "cuda-driver-api %d.%d", drv / 1000, drv % 1000 / 10);
    snprintf(info->cuda, sizeof info->cuda, "%d.%d", rt / 1000, rt % 1000 / 10);
    info->sm = p.major * 10 + p.minor;
    info->sm_count = p.multiProcessorCount;
    info->clock_mhz = clock_khz / 1000;
    *out = g;
    return 0;
}

extern "C" void tc_gpu_close(tc_gpu *g)
{
    if (!g)
        return;
    cudaSetDevice(g->dev);
    cudaFree(g->dA);
    cudaFree(g->dB);
    cudaFree(g->dC);
    cudaFree(g->dD);
    cudaFree(g->dX);
    cudaFree(g->dE);
    for (int i = 0; i < TC_MAX_INSTR; i++)
        for (int j = 0; j < 3; j++)
            cudaFree(g->tables[i][j]);
    for (int i = 0; i < 6; i++)
        cudaFreeHost(g->host[i]);
    cudaEventDestroy(g->ev0);
    cudaEventDestroy(g->ev1);
    free(g);
}

extern "C" int tc_gpu_kernel_usable(tc_gpu *g, const tc_gpu_kernel *k, char *why, size_t len)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, k->func);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* clear it: the device stays usable for other kernels */
        snprintf(why, len, "%s: no machine code for this GPU (%s)", k->name, cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

/* The device copy of a fragment table, built from probes/layout.c once. */
static int table(tc_gpu *g, const tc_instr *ins, tc_operand op, uint16_t **out, char *err, size_t errlen)
{
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    size_t idx = (size_t)(ins - cat);
    if (idx >= count || idx >= TC_MAX_INSTR) {
        snprintf(err, errlen, "%s: not a catalogue entry", ins->name);
        return -1;
    }
    if (g->tables[idx][op]) {
        *out = g->tables[idx][op];
        return 0;
    }
    tc_frag_shape s;
    if (!tc_frag_shape_of(ins, op, &s)) {
        *out = NULL;
        return 0;
    }
    size_t n = (size_t)s.threads * (size_t)s.elems;
    uint16_t *h = (uint16_t *)malloc(n * sizeof *h);
    if (!h || tc_frag_table(ins, op, h, n) != n) {
        free(h);
        snprintf(err, errlen, "%s: no fragment table for %s", ins->name, tc_operand_name(op));
        return -1;
    }
    void *d = NULL;
    size_t cap = 0;
    int rc = tc_cuda_put(&d, &cap, h, n * sizeof *h, "fragment table upload", err, errlen);
    free(h);
    if (rc) {
        cudaFree(d);
        return -1;
    }
    g->tables[idx][op] = (uint16_t *)d;
    *out = (uint16_t *)d;
    return 0;
}

extern "C" void *tc_gpu_host_buffer(tc_gpu *g, int which, size_t bytes, char *err, size_t errlen)
{
    if (which < 0 || which >= 6) {
        snprintf(err, errlen, "bad staging buffer %d", which);
        return NULL;
    }
    if (bytes <= g->host_cap[which])
        return g->host[which];
    cudaFreeHost(g->host[which]);
    g->host[which] = NULL;
    g->host_cap[which] = 0;
    cudaError_t e = cudaHostAlloc(&g->host[which], bytes, cudaHostAllocDefault);
    if (e != cudaSuccess) {
        tc_cuda_fail(err, errlen, "cudaHostAlloc", e);
        return NULL;
    }
    g->host_cap[which] = bytes;
    return g->host[which];
}

static size_t bytes_of(const tc_format *f, size_t elems) { return elems * (size_t)f->storage_bits / 8; }

/* The launch on device buffers (A compressed and E the metadata registers
 * for a sparse kernel, E NULL else): D (bd bytes) filled with `poison`, the
 * kernel run to its end, its time in g->last_ms. */
static int launch_on(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles, const void *dA,
                     const uint32_t *dE, const void *dB, const void *dC, void *dD, size_t bd, unsigned char poison,
                     char *err, size_t errlen)
{
    bool sparse = k->kind == TC_GPUK_WARP_SP || k->kind == TC_GPUK_WG_SP;
    tc_gpu_args a;
    memset(&a, 0, sizeof a);
    if (k->kind != TC_GPUK_WMMA &&
        (table(g, ins, TC_OPND_A, (uint16_t **)&a.ta, err, errlen) ||
         table(g, ins, TC_OPND_B, (uint16_t **)&a.tb, err, errlen) ||
         table(g, ins, TC_OPND_C, (uint16_t **)&a.tc, err, errlen)))
        return -1;
    if (sparse && (!a.tc || (k->kind == TC_GPUK_WARP_SP && (!a.ta || !a.tb)))) {
        snprintf(err, errlen, "%s: no fragment table for a sparse operand (internal error)", ins->name);
        return -1;
    }
    CK(cudaMemset(dD, poison, bd), "poison D");
    a.A = dA;
    a.B = dB;
    a.C = dC;
    a.D = dD;
    a.E = sparse ? dE : NULL;
    a.ntiles = ntiles;
    size_t blocks = (ntiles + (size_t)k->tiles_per_block - 1) / (size_t)k->tiles_per_block;
    size_t cap = (size_t)g->sm_count * (k->kind == TC_GPUK_WG || k->kind == TC_GPUK_WG_SP ? 8 : 16);
    int grid = (int)(blocks < cap ? blocks : cap);
    if (grid < 1)
        grid = 1;
    CK(cudaEventRecord(g->ev0), "cudaEventRecord");
    CK((cudaError_t)k->launch(&a, grid), k->name);
    CK(cudaEventRecord(g->ev1), "cudaEventRecord");
    /* the launch's own end, not the device's: work of another stream (the
     * GPU hunt draws the next instructions' tiles on one) runs on */
    CK(cudaEventSynchronize(g->ev1), k->name);
    CK(cudaEventElapsedTime(&g->last_ms, g->ev0, g->ev1), "cudaEventElapsedTime");
    return 0;
}

/* Dense (E NULL) and sparse launches: sparse A is the compressed m x k/2
 * tile and E the metadata registers of each tile (32 mma.sp, 128 wgmma.sp). */
static int exec_common(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles, const void *A,
                       const uint32_t *E, const void *B, const void *C, void *D, unsigned char poison, char *err,
                       size_t errlen)
{
    CK(cudaSetDevice(g->dev), "cudaSetDevice");
    bool sparse = k->kind == TC_GPUK_WARP_SP || k->kind == TC_GPUK_WG_SP;
    size_t meta_per_tile = k->kind == TC_GPUK_WG_SP ? 128 : 32;
    if (sparse != (E != NULL) || sparse != ins->sparse) {
        snprintf(err, errlen, "%s: kernel %s and the call disagree about sparsity (internal error)", ins->name,
                 k->name);
        return -1;
    }
    size_t ba = bytes_of(ins->a, ntiles * ins->m * (sparse ? ins->k / 2 : ins->k)),
           bb = bytes_of(ins->b, ntiles * ins->k * ins->n);
    size_t bc = bytes_of(ins->c, ntiles * ins->m * ins->n), bd = bytes_of(ins->d, ntiles * ins->m * ins->n);
    size_t be = sparse ? ntiles * meta_per_tile * sizeof(uint32_t) : 0;
    if (tc_cuda_put(&g->dA, &g->capA, A, ba, "copy A to the GPU", err, errlen) ||
        tc_cuda_put(&g->dB, &g->capB, B, bb, "copy B to the GPU", err, errlen) ||
        tc_cuda_put(&g->dC, &g->capC, C, bc, "copy C to the GPU", err, errlen) ||
        tc_cuda_grow(&g->dD, &g->capD, bd, err, errlen) ||
        (sparse && tc_cuda_put(&g->dE, &g->capE, E, be, "copy the sparse metadata to the GPU", err, errlen)))
        return -1;
    if (launch_on(g, k, ins, ntiles, g->dA, sparse ? (const uint32_t *)g->dE : NULL, g->dB, g->dC, g->dD, bd,
                  poison, err, errlen))
        return -1;
    CK(cudaMemcpy(D, g->dD, bd, cudaMemcpyDeviceToHost), "copy D from the GPU");
    return 0;
}

extern "C" int tc_gpu_exec_dev(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles,
                               const void *dA, const uint32_t *dE, const void *dB, const void *dC, void *dD,
                               unsigned char poison, char *err, size_t errlen)
{
    CK(cudaSetDevice(g->dev), "cudaSetDevice");
    bool sparse = k->kind == TC_GPUK_WARP_SP || k->kind == TC_GPUK_WG_SP;
    if (sparse != (dE != NULL) || sparse != ins->sparse) {
        snprintf(err, errlen, "%s: kernel %s and the call disagree about sparsity (internal error)", ins->name,
                 k->name);
        return -1;
    }
    return launch_on(g, k, ins, ntiles, dA, dE, dB, dC, dD, bytes_of(ins->d, ntiles * ins->m * ins->n), poison,
                     err, errlen);
}

extern "C" int tc_gpu_device(const tc_gpu *g) { return g->dev; }

extern "C" int tc_gpu_exec(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles,
                           const void *A, const void *B, const void *C, void *D, unsigned char poison,
                           char *err, size_t errlen)
{
    return exec_common(g, k, ins, ntiles, A, NULL, B, C, D, poison, err, errlen);
}

extern "C" int tc_gpu_exec_sparse(tc_gpu *g, const tc_gpu_kernel *k, const tc_instr *ins, size_t ntiles,
                                  const void *A, const uint32_t *E, const void *B, const void *C, void *D,
                                  unsigned char poison, char *err, size_t errlen)
{
    return exec_common(g, k, ins, ntiles, A, E, B, C, D, poison, err, errlen);
}

extern "C" double tc_gpu_last_kernel_ms(const tc_gpu *g) { return g->last_ms; }

extern "C" int tc_gpu_chain_exec(tc_gpu *g, const tc_gpu_chain_kernel *k, const tc_instr *ins, size_t nchains,
                                 int len, const void *A0, const void *B, const void *C, void *Xused, void *D,
                                 int mode, int sat, int afmt, int dfmt, unsigned char poison, char *err,
                                 size_t errlen)
{
    CK(cudaSetDevice(g->dev), "cudaSetDevice");
    size_t M = (size_t)ins->m, K = (size_t)ins->k, steps = nchains * (size_t)len;
    size_t ba = bytes_of(ins->a, nchains * M * K), bb = bytes_of(ins->b, steps * K * K),
           bc = bytes_of(ins->c, steps * M * K), bx = bytes_of(ins->a, steps * M * K),
           bd = bytes_of(ins->d, steps * M * K);
    if (tc_cuda_put(&g->dA, &g->capA, A0, ba, "copy A0 to the GPU", err, errlen) ||
        tc_cuda_put(&g->dB, &g->capB, B, bb, "copy B to the GPU", err, errlen) ||
        tc_cuda_put(&g->dC, &g->capC, C, bc, "copy C to the GPU", err, errlen) ||
        tc_cuda_grow(&g->dD, &g->capD, bd, err, errlen) || tc_cuda_grow(&g->dX, &g->capX, bx, err, errlen))
        return -1;
    tc_chain_args a;
    memset(&a, 0, sizeof a);
    if (table(g, ins, TC_OPND_A, (uint16_t **)&a.ta, err, errlen) ||
        table(g, ins, TC_OPND_B, (uint16_t **)&a.tb, err, errlen) ||
        table(g, ins, TC_OPND_C, (uint16_t **)&a.tc, err, errlen))
        return -1;
    CK(cudaMemset(g->dD, poison, bd), "poison D");
    CK(cudaMemset(g->dX, poison, bx), "poison X");
    a.A0 = g->dA;
    a.B = g->dB;
    a.C = g->dC;
    a.Xused = g->dX;
    a.D = g->dD;
    a.nchains = nchains;
    a.len = len;
    a.dfmt = dfmt;
    a.afmt = afmt;
    a.mode = mode;
    a.sat = sat;
    size_t per = (size_t)k->chains_per_block, blocks = (nchains + per - 1) / per;
    size_t cap = (size_t)g->sm_count * (per == 1 ? 8 : 16);
    int grid = (int)(blocks < cap ? blocks : cap);
    CK((cudaError_t)k->launch(&a, grid < 1 ? 1 : grid), k->name);
    CK(cudaDeviceSynchronize(), k->name);
    CK(cudaMemcpy(Xused, g->dX, bx, cudaMemcpyDeviceToHost), "copy X from the GPU");
    CK(cudaMemcpy(D, g->dD, bd, cudaMemcpyDeviceToHost), "copy D from the GPU");
    return 0;
}
