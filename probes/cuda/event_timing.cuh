/* Timing a launch between two CUDA events, shared by the GEMM paths (gemm_lt.cu,
 * gemm_wgmma.cu) and the bench's cuBLAS reference (timing_cublas.cu). */
#ifndef TC_EVENT_TIMING_CUH
#define TC_EVENT_TIMING_CUH

#include <algorithm>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

/* warmup untimed calls of launch(), then reps timed ones, each between two
 * events on the default stream; the milliseconds of each timed call in *ms.
 * launch() returns true, or false having written its own error into err.
 * 0, or -1 with err set (who names the caller in a CUDA error). */
template <class Launch>
static int tc_time_launches(int warmup, int reps, Launch launch, std::vector<double> *ms, const char *who, char *err,
                            size_t errlen)
{
    struct Events {
        cudaEvent_t e0 = nullptr, e1 = nullptr;
        ~Events()
        {
            if (e0) cudaEventDestroy(e0);
            if (e1) cudaEventDestroy(e1);
        }
    } ev;
    const char *what = nullptr;
    cudaError_t e = cudaSuccess;
#define TC_EV(call) if (e == cudaSuccess && (e = (call)) != cudaSuccess) what = #call
    TC_EV(cudaEventCreate(&ev.e0));
    TC_EV(cudaEventCreate(&ev.e1));
    for (int i = -warmup; e == cudaSuccess && i < reps; i++) {
        TC_EV(cudaEventRecord(ev.e0));
        if (e == cudaSuccess && !launch())
            return -1;
        TC_EV(cudaEventRecord(ev.e1));
        TC_EV(cudaEventSynchronize(ev.e1));
        float x = 0;
        TC_EV(cudaEventElapsedTime(&x, ev.e0, ev.e1));
        if (e == cudaSuccess && i >= 0)
            ms->push_back(x);
    }
#undef TC_EV
    if (e != cudaSuccess) {
        snprintf(err, errlen, "%s: %s failed: %s", who, what, cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

/* The median of v (sorted in place); 0 when empty. */
static inline double tc_median_ms(std::vector<double> &v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    size_t h = v.size() / 2;
    return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

#endif
