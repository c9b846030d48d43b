/* cuBLASLt loaded at run time (dlopen), so that tcscope starts and runs
 * everything else on machines without cuBLAS; only the header's types are
 * used at build time. Shared by gemm_lt.cu and timing_cublas.cu. */
#ifndef TC_PROBES_CUDA_CUBLASLT_LOAD_H
#define TC_PROBES_CUDA_CUBLASLT_LOAD_H

#include <cstdio>
#include <dlfcn.h>
#include <cuda_runtime.h>
#include <cublasLt.h>

struct TcLt {
    void *lib = nullptr;
    decltype(&cublasLtCreate) create;
    decltype(&cublasLtDestroy) destroy;
    decltype(&cublasLtGetVersion) version;
    decltype(&cublasLtMatmulDescCreate) descCreate;
    decltype(&cublasLtMatmulDescDestroy) descDestroy;
    decltype(&cublasLtMatmulDescSetAttribute) descSet;
    decltype(&cublasLtMatrixLayoutCreate) layoutCreate;
    decltype(&cublasLtMatrixLayoutDestroy) layoutDestroy;
    decltype(&cublasLtMatmulPreferenceCreate) prefCreate;
    decltype(&cublasLtMatmulPreferenceDestroy) prefDestroy;
    decltype(&cublasLtMatmulPreferenceSetAttribute) prefSet;
    decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic;
    decltype(&cublasLtMatmulAlgoConfigGetAttribute) algoGet;
    decltype(&cublasLtMatmulAlgoCapGetAttribute) capGet;
    decltype(&cublasLtMatmul) matmul;
    /* Optional (newer cuBLASLt): null when absent; users say what they lose. */
    decltype(&cublasLtEmulationDescCreate) emuCreate = nullptr;
    decltype(&cublasLtEmulationDescDestroy) emuDestroy = nullptr;
    decltype(&cublasLtEmulationDescSetAttribute) emuSet = nullptr;
};

/* Loads l once (true at once when l.lib is set); false with err when the
 * library or a required symbol is missing (then l.lib stays null). */
inline bool tc_lt_load(TcLt &l, char *err, size_t len)
{
    if (l.lib)
        return true;
    static const char *const names[] = {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"};
    void *h = nullptr;
    for (const char *n : names)
        if ((h = dlopen(n, RTLD_NOW | RTLD_LOCAL)))
            break;
    if (!h) {
        snprintf(err, len, "cuBLASLt not found (dlopen libcublasLt.so.13: %s)", dlerror());
        return false;
    }
#define TC_LT_SYM(field, name)                                                  \
    if (!(l.field = (decltype(l.field))dlsym(h, name))) {                       \
        snprintf(err, len, "cuBLASLt lacks %s", name);                          \
        dlclose(h);                                                             \
        return false;                                                           \
    }
    TC_LT_SYM(create, "cublasLtCreate")
    TC_LT_SYM(destroy, "cublasLtDestroy")
    TC_LT_SYM(version, "cublasLtGetVersion")
    TC_LT_SYM(descCreate, "cublasLtMatmulDescCreate")
    TC_LT_SYM(descDestroy, "cublasLtMatmulDescDestroy")
    TC_LT_SYM(descSet, "cublasLtMatmulDescSetAttribute")
    TC_LT_SYM(layoutCreate, "cublasLtMatrixLayoutCreate")
    TC_LT_SYM(layoutDestroy, "cublasLtMatrixLayoutDestroy")
    TC_LT_SYM(prefCreate, "cublasLtMatmulPreferenceCreate")
    TC_LT_SYM(prefDestroy, "cublasLtMatmulPreferenceDestroy")
    TC_LT_SYM(prefSet, "cublasLtMatmulPreferenceSetAttribute")
    TC_LT_SYM(heuristic, "cublasLtMatmulAlgoGetHeuristic")
    TC_LT_SYM(algoGet, "cublasLtMatmulAlgoConfigGetAttribute")
    TC_LT_SYM(capGet, "cublasLtMatmulAlgoCapGetAttribute")
    TC_LT_SYM(matmul, "cublasLtMatmul")
#undef TC_LT_SYM
    l.emuCreate = (decltype(l.emuCreate))dlsym(h, "cublasLtEmulationDescCreate");
    l.emuDestroy = (decltype(l.emuDestroy))dlsym(h, "cublasLtEmulationDescDestroy");
    l.emuSet = (decltype(l.emuSet))dlsym(h, "cublasLtEmulationDescSetAttribute");
    l.lib = h;
    return true;
}

/* What one cuBLASLt matmul holds on the device; every member that was made
 * is released when it goes out of scope, so an early return leaks nothing. */
struct TcLtMatmul {
    const TcLt &lt;
    void *A = nullptr, *B = nullptr, *D = nullptr, *ws = nullptr;
    cublasLtHandle_t h = nullptr;
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, ld = nullptr;
    cublasLtMatmulPreference_t pref = nullptr;
    cublasLtEmulationDesc_t emu = nullptr;
    explicit TcLtMatmul(const TcLt &l) : lt(l) {}
    /* D = alpha A B + beta D (C is D: in place) with algo, on the default stream. */
    cublasStatus_t run(const void *alpha, const void *beta, const cublasLtMatmulAlgo_t *algo, size_t ws_bytes) const
    {
        return lt.matmul(h, op, alpha, A, la, B, lb, beta, D, ld, D, ld, algo, ws, ws_bytes, 0);
    }
    TcLtMatmul(const TcLtMatmul &) = delete;
    TcLtMatmul &operator=(const TcLtMatmul &) = delete;
    ~TcLtMatmul()
    {
        if (emu) lt.emuDestroy(emu);
        if (pref) lt.prefDestroy(pref);
        if (la) lt.layoutDestroy(la);
        if (lb) lt.layoutDestroy(lb);
        if (ld) lt.layoutDestroy(ld);
        if (op) lt.descDestroy(op);
        if (h) lt.destroy(h);
        if (A) cudaFree(A);
        if (B) cudaFree(B);
        if (D) cudaFree(D);
        if (ws) cudaFree(ws);
    }
};

#endif
