/* The GPU library of tcscope gemm (probes/gemm.h), where the build has
 * CUDA: cuBLASLt, or tcscope's own wgmma kernel for the paths that name
 * one; one GEMM per call, the outputs asked for picked from the whole D. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "probes/probes.h"

#if TC_HAVE_CUDA
static int gpu_run(void *ctx, const tc_gemm_path *p, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                   size_t nout, const int *ii, const int *jj, uint32_t *out, int warmup, int reps, double *ms,
                   tc_gemm_algo *algo, char *err, size_t errlen)
{
    int device = (int)(intptr_t)ctx;
    uint32_t *D = gemm_alloc((size_t)m * n, sizeof *D);
    int rc = p->kernel ? tcg_wgmma_gemm_run(device, p->name, m, n, k, A, B, D, warmup, reps, ms, err, errlen)
                       : tcg_gemm_run(device, p->name, m, n, k, A, B, D, warmup, reps, ms, algo, err, errlen);
    if (rc == 0)
        for (size_t e = 0; e < nout; e++)
            out[e] = D[(size_t)ii[e] * n + jj[e]];
    free(D);
    return rc;
}
#endif

int tc_gemm_lib_gpu(tc_gemm_lib *lib, int device, char *err, size_t errlen)
{
    memset(lib, 0, sizeof *lib);
#if TC_HAVE_CUDA
    if (tcg_gemm_device(device, lib->device, sizeof lib->device, &lib->version, err, errlen) != 0) {
        tc_say_no_driver(err, errlen);
        return -1;
    }
    snprintf(lib->name, sizeof lib->name, "cublaslt");
    lib->run = gpu_run;
    lib->ctx = (void *)(intptr_t)device;
    return 0;
#else
    (void)device;
    snprintf(err, errlen, TC_NO_GPU_BUILD);
    return -1;
#endif
}
