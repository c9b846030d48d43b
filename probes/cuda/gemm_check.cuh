/* The CUDA-call check of the GEMM paths (gemm_lt.cu, gemm_wgmma.cu): a
 * failed call writes "gemm PATH: CALL failed: REASON" into err and returns
 * -1 from the calling function, whose err, errlen and path are in scope. */
#ifndef TC_GEMM_CHECK_CUH
#define TC_GEMM_CHECK_CUH

#include <cstdio>
#include <cuda_runtime.h>

#define CU(call)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            snprintf(err, errlen, "gemm %s: %s failed: %s", path, #call, cudaGetErrorString(e_));   \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

#endif
