/* The CUDA-call check of the backends' runtime files (exec.cu, model_gpu.cu):
 * CK(call, what) writes "what: REASON (NAME)" into err and returns -1 from
 * the calling function, whose err and errlen are in scope; tc_cuda_grow
 * keeps a device buffer at least `need` bytes, tc_cuda_put fills one from
 * the host; tc_cuda_use_device opens a GPU. */
#ifndef TC_CUDA_CHECK_CUH
#define TC_CUDA_CHECK_CUH

#include <cstdio>
#include <cuda_runtime.h>

static inline int tc_cuda_fail(char *err, size_t len, const char *what, cudaError_t e)
{
    snprintf(err, len, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
    return -1;
}

#define CK(call, what)                                   \
    do {                                                 \
        cudaError_t e_ = (call);                         \
        if (e_ != cudaSuccess)                           \
            return tc_cuda_fail(err, errlen, what, e_);  \
    } while (0)

/* GPU dev made current; -1 with why not (no driver, no such GPU). */
static inline int tc_cuda_use_device(int dev, char *err, size_t errlen)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess)
        return tc_cuda_fail(err, errlen, "no usable GPU (cudaGetDeviceCount)", e);
    if (dev < 0 || dev >= count) {
        snprintf(err, errlen, "no GPU %d: this machine has %d", dev, count);
        return -1;
    }
    CK(cudaSetDevice(dev), "cudaSetDevice");
    return 0;
}

/* *p holds at least need bytes (the old contents are not kept). */
static inline int tc_cuda_grow(void **p, size_t *cap, size_t need, char *err, size_t errlen)
{
    if (need <= *cap)
        return 0;
    cudaFree(*p);
    *p = NULL;
    *cap = 0;
    CK(cudaMalloc(p, need), "cudaMalloc");
    *cap = need;
    return 0;
}

/* The device buffer *p (grown as tc_cuda_grow) holds the host's bytes at
 * src: the allocate-and-copy of every operand the backends send. */
static inline int tc_cuda_put(void **p, size_t *cap, const void *src, size_t bytes, const char *what, char *err,
                              size_t errlen)
{
    if (tc_cuda_grow(p, cap, bytes, err, errlen))
        return -1;
    CK(cudaMemcpy(*p, src, bytes, cudaMemcpyHostToDevice), what);
    return 0;
}

#endif
