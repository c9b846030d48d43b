/* Host and device: the model's integer arithmetic (model_internal.h,
 * model_core.h) is written once, as static inline functions that C compiles
 * for the CPU and nvcc compiles for the GPU as well (probes/cuda/model_gpu.cu).
 * TC_HD (formats/format_hd.h) marks them; the few compiler builtins they need have a device form. */
#ifndef TC_MODEL_HD_H
#define TC_MODEL_HD_H

#include <stdint.h>

#include "formats/format_hd.h"   /* TC_HD */

/* Leading zeros of x != 0 (64 bits). */
static inline TC_HD int tc_clz64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return __clzll((long long)x);
#else
    return __builtin_clzll(x);
#endif
}

/* A rare path kept out of its caller (the wide sums: their limb arrays
 * and loops would crowd the GPU kernel's hot loop). */
#ifdef __CUDACC__
#define TC_HD_NOINLINE __noinline__
#else
#define TC_HD_NOINLINE __attribute__((noinline))
#endif

#endif
