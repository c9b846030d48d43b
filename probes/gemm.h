/* gemm: library GEMMs (cuBLASLt) and tcscope's own wgmma GEMM on the GPU, D = A * B with FP32 output.
 *
 * The host hands element bit patterns (one uint32_t container each, the
 * path's upload format) row-major: A is m x k, B is k x n; D comes back as
 * m x n FP32 bit patterns, row-major. cuBLASLt runs "TN" (A K-major, the
 * layout FP8 needs), alpha = 1, beta = 0, so D is the accumulator itself.
 * Paths are named here and mapped to CUDA types in probes/cuda/gemm_lt.cu;
 * the host code that judges the outputs is cases/gemm.h.
 */
#ifndef TC_PROBES_GEMM_H
#define TC_PROBES_GEMM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the heuristic picked (cublasLtMatmulAlgoConfigGetAttribute). */
typedef struct {
    int algo_id, tile_id, splitk, reduction_scheme, swizzle, custom_option, stages_id, inner_shape_id,
        cluster_shape_id;
    int emulation;   /* CUBLASLT_ALGO_CAP_FLOATING_POINT_EMULATION_SUPPORT: 1, 0, -1 unknown */
    size_t workspace;
    float waves;
} tc_gemm_algo;

/* One GEMM of path `path` (a name of cases/gemm.h's table: "f16", "bf16",
 * "tf32", "e4m3", "e4m3-fast", "e5m2", "e5m2-fast", "f32", "f32-bf16x9").
 * The outputs are those of the first launch; then `warmup` untimed and
 * `reps` timed launches (cudaEvent), median in *ms_median (reps 0: no
 * timing, *ms_median = 0). Returns 0; 1 when cuBLASLt offers no algorithm
 * for the path and shape (err says so: a skip, not a failure); -1 on any
 * CUDA/cuBLAS error or missing library (err set). */
int tcg_gemm_run(int device, const char *path, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                 uint32_t *D, int warmup, int reps, double *ms_median, tc_gemm_algo *algo, char *err,
                 size_t errlen);

/* tcscope's own wgmma GEMM (probes/cuda/gemm_wgmma.cu, sm_90a): path
 * "tcscope-wgmma-f16" or "tcscope-wgmma-e4m3", inputs and outputs as
 * tcg_gemm_run's. Returns 0; 1 when it cannot run this case (a K that is
 * not a whole number of instruction steps, a device other than sm_90; err
 * says so: a skip); -1 on any CUDA error (err set). */
int tcg_wgmma_gemm_run(int device, const char *path, int m, int n, int k, const uint32_t *A, const uint32_t *B,
                       uint32_t *D, int warmup, int reps, double *ms_median, char *err, size_t errlen);

/* The device's name and cuBLASLt's version (0 when unknown); -1 with err
 * when there is no usable GPU or cuBLASLt. */
int tcg_gemm_device(int device, char *name, size_t namelen, long *cublaslt_version, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
