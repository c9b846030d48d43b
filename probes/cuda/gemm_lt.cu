/* tcscope gemm on the GPU: one cuBLASLt matmul per call on inputs the host
 * gives (probes/gemm.h), its outputs, the algorithm the heuristic chose and
 * its event-timed median. cuBLASLt is loaded with dlopen
 * (probes/cuda/cublaslt_load.h, shared with timing_cublas.cu), so tcscope
 * runs without it; every CUDA and cuBLASLt call is checked. */
#include <algorithm>
#include <new>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <cublasLt.h>

#include "probes/cuda/cublaslt_load.h"
#include "probes/cuda/event_timing.cuh"
#include "probes/cuda/gemm_check.cuh"
#include "probes/gemm.h"

namespace {

TcLt lt;

/* A path's CUDA types: A, B, compute; C and D are always FP32. */
struct PathTypes {
    const char *name;
    cudaDataType_t a, b;
    cublasComputeType_t compute;
    int fast_accum;
};

const PathTypes kPaths[] = {
    {"f16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, 0},
    {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, 0},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 0},
    {"e4m3", CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUBLAS_COMPUTE_32F, 0},
    {"e4m3-fast", CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUBLAS_COMPUTE_32F, 1},
    /* cuBLASLt has no E5M2 x E5M2 GEMM: the e5m2 paths take B in E4M3. */
    {"e5m2", CUDA_R_8F_E5M2, CUDA_R_8F_E4M3, CUBLAS_COMPUTE_32F, 0},
    {"e5m2-fast", CUDA_R_8F_E5M2, CUDA_R_8F_E4M3, CUBLAS_COMPUTE_32F, 1},
    {"f32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 0},
    {"f32-bf16x9", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_EMULATED_16BFX9, 0},
};

size_t type_bytes(cudaDataType_t t)
{
    return t == CUDA_R_32F ? 4 : (t == CUDA_R_16F || t == CUDA_R_16BF) ? 2 : 1;
}

/* Element (r, c) of a row-major host matrix into a column-major device
 * image: A (m x k) K-major is col-major k x m; B (k x n) is col-major k x n. */
void pack(std::vector<unsigned char> &out, const uint32_t *src, size_t n, size_t bytes)
{
    out.resize(n * bytes);
    for (size_t i = 0; i < n; i++)
        memcpy(&out[i * bytes], &src[i], bytes);   /* little endian: the low bytes */
}

} // namespace

#define LT(call)                                                                                   \
    do {                                                                                           \
        cublasStatus_t s_ = (call);                                                                \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                         \
            snprintf(err, errlen, "gemm %s: %s failed (cublasStatus %d)", path, #call, (int)s_);   \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

extern "C" int tcg_gemm_device(int device, char *name, size_t namelen, long *version, char *err, size_t errlen)
{
    const char *path = "device";
    int count = 0;
    CU(cudaGetDeviceCount(&count));
    if (device < 0 || device >= count) {
        snprintf(err, errlen, "no CUDA device %d (%d present)", device, count);
        return -1;
    }
    cudaDeviceProp p;
    CU(cudaGetDeviceProperties(&p, device));
    snprintf(name, namelen, "%s", p.name);
    if (!tc_lt_load(lt, err, errlen))
        return -1;
    *version = (long)lt.version();
    return 0;
}

static int run(int device, const char *path, int m, int n, int k, const uint32_t *A, const uint32_t *B, uint32_t *D,
               int warmup, int reps, double *ms_median, tc_gemm_algo *algo, char *err, size_t errlen)
{
    const PathTypes *t = nullptr;
    for (const PathTypes &p : kPaths)
        if (!strcmp(p.name, path))
            t = &p;
    if (!t) {
        snprintf(err, errlen, "gemm: no cuBLASLt path '%s'", path);
        return -1;
    }
    if (!tc_lt_load(lt, err, errlen))
        return -1;
    CU(cudaSetDevice(device));
    TcLtMatmul r(lt);
    const size_t ws_bytes = 64u << 20;
    const size_t na = (size_t)m * k, nb = (size_t)k * n, nd = (size_t)m * n;
    const size_t ba = type_bytes(t->a), bb = type_bytes(t->b);
    /* Device images: A^T (k x m col-major) is A row-major; B col-major is
     * B^T row-major; D col-major m x n is transposed back below. */
    std::vector<uint32_t> bt(nb);
    for (int kk = 0; kk < k; kk++)
        for (int j = 0; j < n; j++)
            bt[(size_t)j * k + kk] = B[(size_t)kk * n + j];
    std::vector<unsigned char> ha, hb;
    pack(ha, A, na, ba);
    pack(hb, bt.data(), nb, bb);
    CU(cudaMalloc(&r.A, na * ba));
    CU(cudaMalloc(&r.B, nb * bb));
    CU(cudaMalloc(&r.D, nd * 4));
    CU(cudaMalloc(&r.ws, ws_bytes));
    CU(cudaMemcpy(r.A, ha.data(), na * ba, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(r.B, hb.data(), nb * bb, cudaMemcpyHostToDevice));
    CU(cudaMemset(r.D, 0xff, nd * 4));   /* NaN: an output never written shows */

    cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    int8_t fast = (int8_t)t->fast_accum;
    LT(lt.create(&r.h));
    /* A compute type this cuBLASLt does not know (an emulation mode) is a
     * skip, like a shape without an algorithm. */
    cublasStatus_t cs = lt.descCreate(&r.op, t->compute, CUDA_R_32F);
    if (cs == CUBLAS_STATUS_NOT_SUPPORTED || cs == CUBLAS_STATUS_INVALID_VALUE) {
        snprintf(err, errlen, "cuBLASLt does not offer %s (cublasLtMatmulDescCreate status %d)", path, (int)cs);
        return 1;
    }
    LT(cs);
    LT(lt.descSet(r.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    LT(lt.descSet(r.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    if (t->a == CUDA_R_8F_E4M3 || t->a == CUDA_R_8F_E5M2)
        LT(lt.descSet(r.op, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast));
    /* An emulated compute type alone lets cuBLASLt run plain FP32 where it
     * judges emulation no faster (the default strategy is "performant": in
     * the first H100 run bf16x9's error statistics, algorithm id and
     * TFLOP/s equalled f32's in every case; outputs were not recorded).
     * The EAGER strategy asks for emulation wherever it is possible. */
    if (t->compute == CUBLAS_COMPUTE_32F_EMULATED_16BFX9) {
        if (!lt.emuCreate || !lt.emuSet || !lt.emuDestroy) {
            snprintf(err, errlen, "this cuBLASLt has no emulation descriptor: %s cannot be asked for eagerly", path);
            return 1;
        }
        int32_t eager = CUBLAS_EMULATION_STRATEGY_EAGER;
        LT(lt.emuCreate(&r.emu));
        LT(lt.emuSet(r.emu, CUBLASLT_EMULATION_DESC_STRATEGY, &eager, sizeof eager));
        LT(lt.descSet(r.op, CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR, &r.emu, sizeof r.emu));
    }
    LT(lt.layoutCreate(&r.la, t->a, k, m, k));
    LT(lt.layoutCreate(&r.lb, t->b, k, n, k));
    LT(lt.layoutCreate(&r.ld, CUDA_R_32F, m, n, m));
    LT(lt.prefCreate(&r.pref));
    LT(lt.prefSet(r.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof ws_bytes));
    cublasLtMatmulHeuristicResult_t heur;
    memset(&heur, 0, sizeof heur);
    int found = 0;
    cublasStatus_t hs = lt.heuristic(r.h, r.op, r.la, r.lb, r.ld, r.ld, r.pref, 1, &heur, &found);
    if (hs == CUBLAS_STATUS_NOT_SUPPORTED || (hs == CUBLAS_STATUS_SUCCESS && found < 1)) {
        snprintf(err, errlen, "cuBLASLt offers no algorithm for %s at %dx%dx%d (status %d)", path, m, n, k, (int)hs);
        return 1;
    }
    LT(hs);
    memset(algo, 0, sizeof *algo);
    {
        uint32_t u32;
        int32_t i32;
        uint16_t u16;
        size_t w;
/* A fact the library will not give is recorded as -1, not a failed case. */
#define GETI(attr, field, var)                                                 \
        algo->field = lt.algoGet(&heur.algo, attr, &var, sizeof var, &w) == CUBLAS_STATUS_SUCCESS ? (int)var : -1;
        GETI(CUBLASLT_ALGO_CONFIG_ID, algo_id, i32)
        GETI(CUBLASLT_ALGO_CONFIG_TILE_ID, tile_id, u32)
        GETI(CUBLASLT_ALGO_CONFIG_SPLITK_NUM, splitk, i32)
        GETI(CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, reduction_scheme, u32)
        GETI(CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, swizzle, u32)
        GETI(CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, custom_option, u32)
        GETI(CUBLASLT_ALGO_CONFIG_STAGES_ID, stages_id, u32)
        GETI(CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID, inner_shape_id, u16)
        GETI(CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, cluster_shape_id, u16)
#undef GETI
        /* Whether the chosen algorithm can emulate at all: the record's
         * evidence, with the outputs, that emulation ran or did not. */
        algo->emulation = lt.capGet(&heur.algo, CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT, &i32, sizeof i32,
                                    &w) == CUBLAS_STATUS_SUCCESS ? (i32 != 0) : -1;
        algo->workspace = heur.workspaceSize;
        algo->waves = heur.wavesCount;
    }
    float alpha = 1.0f, beta = 0.0f;
    LT(r.run(&alpha, &beta, &heur.algo, ws_bytes));
    CU(cudaDeviceSynchronize());
    std::vector<uint32_t> dc(nd);
    CU(cudaMemcpy(dc.data(), r.D, nd * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            D[(size_t)i * n + j] = dc[(size_t)j * m + i];

    *ms_median = 0;
    if (reps > 0) {
        std::vector<double> ms;
        auto launch = [&]() {
            cublasStatus_t s = r.run(&alpha, &beta, &heur.algo, ws_bytes);
            if (s != CUBLAS_STATUS_SUCCESS)
                snprintf(err, errlen, "gemm %s: the timed matmul failed (cublasStatus %d)", path, (int)s);
            return s == CUBLAS_STATUS_SUCCESS;
        };
        if (tc_time_launches(warmup, reps, launch, &ms, path, err, errlen) != 0)
            return -1;
        *ms_median = tc_median_ms(ms);
    }
    return 0;
}

/* Host vectors may throw std::bad_alloc: an error, never an exception into C. */
extern "C" int tcg_gemm_run(int device, const char *path, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                            uint32_t *D, int warmup, int reps, double *ms_median, tc_gemm_algo *algo, char *err,
                            size_t errlen)
{
    try {
        return run(device, path, m, n, k, A, B, D, warmup, reps, ms_median, algo, err, errlen);
    } catch (const std::bad_alloc &) {
        snprintf(err, errlen, "gemm %s: out of host memory at %dx%dx%d", path, m, n, k);
        return -1;
    }
}
