// cvt_sweep: every float32 input (all 2^32) through
//   - the device cvt instructions of sm_90 (inline PTX), when a GPU is there,
//   - CUDA's host conversions (cuda_fp8.h, cuda_fp16.h, cuda_bf16.h,
//     cuda_fp6.h, cuda_fp4.h, compiled for the host),
//   - our encoder (formats/, tc_encode_f32_array),
// and one JSON line per conversion: mismatch counts between each pair, a
// hash of every output of each path, and the first mismatches.
//
//   cvt_sweep [--host-only] [--threads N] [--log2n K] [--only NAME] [--probe HEX,HEX,..]
//
// --probe prints, per conversion, every path's output for the given float32
// bit patterns (one JSON line each) and sweeps nothing.
//
// --log2n K sweeps 2^K inputs spread evenly over the 2^32 (a quick check);
// without it every input is converted.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "formats/formats.h"
}

#define CK(call)                                                                        \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "cvt_sweep: %s failed: %s\n", #call, cudaGetErrorString(e_)); \
            exit(2);                                                                    \
        }                                                                               \
    } while (0)

// ---- device conversions: one kernel per instruction ------------------------
enum DevOp {
    D_NONE = -1,
    D_E4M3_RN_SAT, D_E5M2_RN_SAT,
    D_F16_RN, D_F16_RZ, D_F16_RM, D_F16_RP, D_F16_RN_SAT, D_F16_RZ_SAT,
    D_BF16_RN, D_BF16_RZ, D_BF16_RM, D_BF16_RP, D_BF16_RN_SAT, D_BF16_RZ_SAT,
    D_TF32_RNA, D_TF32_RNA_SAT, D_TF32_RN, D_TF32_RZ,
};

template <int OP>
__device__ __forceinline__ uint32_t dev_cvt(float x)
{
    unsigned short h = 0;
    uint32_t r = 0;
    if constexpr (OP == D_E4M3_RN_SAT)
        asm volatile("cvt.rn.satfinite.e4m3x2.f32 %0, %2, %1;" : "=h"(h) : "f"(x), "f"(0.0f));
    else if constexpr (OP == D_E5M2_RN_SAT)
        asm volatile("cvt.rn.satfinite.e5m2x2.f32 %0, %2, %1;" : "=h"(h) : "f"(x), "f"(0.0f));
    else if constexpr (OP == D_F16_RN)
        asm volatile("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_F16_RZ)
        asm volatile("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_F16_RM)
        asm volatile("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_F16_RP)
        asm volatile("cvt.rp.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_F16_RN_SAT)
        asm volatile("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_F16_RZ_SAT)
        asm volatile("cvt.rz.satfinite.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_BF16_RN)
        asm volatile("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_BF16_RZ)
        asm volatile("cvt.rz.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_BF16_RM)
        asm volatile("cvt.rm.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_BF16_RP)
        asm volatile("cvt.rp.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_BF16_RN_SAT)
        asm volatile("cvt.rn.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_BF16_RZ_SAT)
        asm volatile("cvt.rz.satfinite.bf16.f32 %0, %1;" : "=h"(h) : "f"(x));
    else if constexpr (OP == D_TF32_RNA)
        asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    else if constexpr (OP == D_TF32_RNA_SAT)
        asm volatile("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    else if constexpr (OP == D_TF32_RN)
        asm volatile("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    else if constexpr (OP == D_TF32_RZ)
        asm volatile("cvt.rz.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    if constexpr (OP == D_E4M3_RN_SAT || OP == D_E5M2_RN_SAT)
        return h & 0xFFu;
    else if constexpr (OP >= D_TF32_RNA)
        return r;
    else
        return h;
}

// Input i of the sweep: the float32 with bits base + i * stride.
template <int OP>
__global__ void cvt_kernel(uint32_t base, uint32_t stride, uint32_t n, uint32_t *out)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint32_t b = base + i * stride;
        out[i] = dev_cvt<OP>(__uint_as_float(b));
    }
}

static void launch(int op, uint32_t base, uint32_t stride, uint32_t n, uint32_t *d_out)
{
    dim3 g(1024), t(256);
    switch (op) {
#define L(OP) case OP: cvt_kernel<OP><<<g, t>>>(base, stride, n, d_out); break
    L(D_E4M3_RN_SAT); L(D_E5M2_RN_SAT);
    L(D_F16_RN); L(D_F16_RZ); L(D_F16_RM); L(D_F16_RP); L(D_F16_RN_SAT); L(D_F16_RZ_SAT);
    L(D_BF16_RN); L(D_BF16_RZ); L(D_BF16_RM); L(D_BF16_RP); L(D_BF16_RN_SAT); L(D_BF16_RZ_SAT);
    L(D_TF32_RNA); L(D_TF32_RNA_SAT); L(D_TF32_RN); L(D_TF32_RZ);
#undef L
    default: fprintf(stderr, "cvt_sweep: no kernel %d\n", op); exit(2);
    }
    CK(cudaGetLastError());
}

// ---- CUDA's host conversions ------------------------------------------------
enum HostOp {
    H_NONE = -1,
    H_E4M3_SAT, H_E4M3_NOSAT, H_E5M2_SAT, H_E5M2_NOSAT,
    H_F16_RN, H_F16_RZ, H_F16_RD, H_F16_RU,
    H_BF16_RN, H_BF16_RZ, H_BF16_RD, H_BF16_RU,
    H_E8M0_RZ_SAT, H_E8M0_RZ_NOSAT, H_E8M0_RP_SAT, H_E8M0_RP_NOSAT,
    H_E2M1_RN, H_E2M1_RZ, H_E2M3_RN, H_E2M3_RZ, H_E3M2_RN, H_E3M2_RZ,
};

static uint32_t host_cvt(int op, float x)
{
    switch (op) {
    case H_E4M3_SAT: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    case H_E4M3_NOSAT: return __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3);
    case H_E5M2_SAT: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
    case H_E5M2_NOSAT: return __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2);
    case H_F16_RN: return __half_as_ushort(__float2half_rn(x));
    case H_F16_RZ: return __half_as_ushort(__float2half_rz(x));
    case H_F16_RD: return __half_as_ushort(__float2half_rd(x));
    case H_F16_RU: return __half_as_ushort(__float2half_ru(x));
    case H_BF16_RN: return __bfloat16_as_ushort(__float2bfloat16_rn(x));
    case H_BF16_RZ: return __bfloat16_as_ushort(__float2bfloat16_rz(x));
    case H_BF16_RD: return __bfloat16_as_ushort(__float2bfloat16_rd(x));
    case H_BF16_RU: return __bfloat16_as_ushort(__float2bfloat16_ru(x));
    case H_E8M0_RZ_SAT: return __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundZero);
    case H_E8M0_RZ_NOSAT: return __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundZero);
    case H_E8M0_RP_SAT: return __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf);
    case H_E8M0_RP_NOSAT: return __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundPosInf);
    case H_E2M1_RN: return __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest);
    case H_E2M1_RZ: return __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundZero);
    case H_E2M3_RN: return __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest);
    case H_E2M3_RZ: return __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundZero);
    case H_E3M2_RN: return __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest);
    case H_E3M2_RZ: return __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundZero);
    default: return 0;
    }
}

// ---- the conversions and what they should equal in our encoder -------------
struct Conversion {
    const char *name;       // the PTX instruction or the CUDA host function
    const tc_format *f;
    tc_round mode;
    tc_overflow ovf;
    int dev;                // DevOp or D_NONE
    int host;               // HostOp or H_NONE
};

static const Conversion conversions[] = {
    {"cvt.rn.satfinite.e4m3x2.f32", &tc_e4m3, TC_RNE, TC_OVF_SAT, D_E4M3_RN_SAT, H_E4M3_SAT},
    {"cvt.rn.satfinite.e5m2x2.f32", &tc_e5m2, TC_RNE, TC_OVF_SAT, D_E5M2_RN_SAT, H_E5M2_SAT},
    {"__nv_cvt_float_to_fp8(E4M3,NOSAT)", &tc_e4m3, TC_RNE, TC_OVF_INF, D_NONE, H_E4M3_NOSAT},
    {"__nv_cvt_float_to_fp8(E5M2,NOSAT)", &tc_e5m2, TC_RNE, TC_OVF_INF, D_NONE, H_E5M2_NOSAT},
    {"cvt.rn.f16.f32", &tc_f16, TC_RNE, TC_OVF_INF, D_F16_RN, H_F16_RN},
    {"cvt.rz.f16.f32", &tc_f16, TC_RZ, TC_OVF_INF, D_F16_RZ, H_F16_RZ},
    {"cvt.rm.f16.f32", &tc_f16, TC_RD, TC_OVF_INF, D_F16_RM, H_F16_RD},
    {"cvt.rp.f16.f32", &tc_f16, TC_RU, TC_OVF_INF, D_F16_RP, H_F16_RU},
    {"cvt.rn.satfinite.f16.f32", &tc_f16, TC_RNE, TC_OVF_SAT, D_F16_RN_SAT, H_NONE},
    {"cvt.rz.satfinite.f16.f32", &tc_f16, TC_RZ, TC_OVF_SAT, D_F16_RZ_SAT, H_NONE},
    {"cvt.rn.bf16.f32", &tc_bf16, TC_RNE, TC_OVF_INF, D_BF16_RN, H_BF16_RN},
    {"cvt.rz.bf16.f32", &tc_bf16, TC_RZ, TC_OVF_INF, D_BF16_RZ, H_BF16_RZ},
    {"cvt.rm.bf16.f32", &tc_bf16, TC_RD, TC_OVF_INF, D_BF16_RM, H_BF16_RD},
    {"cvt.rp.bf16.f32", &tc_bf16, TC_RU, TC_OVF_INF, D_BF16_RP, H_BF16_RU},
    {"cvt.rn.satfinite.bf16.f32", &tc_bf16, TC_RNE, TC_OVF_SAT, D_BF16_RN_SAT, H_NONE},
    {"cvt.rz.satfinite.bf16.f32", &tc_bf16, TC_RZ, TC_OVF_SAT, D_BF16_RZ_SAT, H_NONE},
    {"cvt.rna.tf32.f32", &tc_tf32, TC_RNA, TC_OVF_INF, D_TF32_RNA, H_NONE},
    {"cvt.rna.satfinite.tf32.f32", &tc_tf32, TC_RNA, TC_OVF_SAT, D_TF32_RNA_SAT, H_NONE},
    {"cvt.rn.tf32.f32", &tc_tf32, TC_RNE, TC_OVF_INF, D_TF32_RN, H_NONE},
    {"cvt.rz.tf32.f32", &tc_tf32, TC_RZ, TC_OVF_INF, D_TF32_RZ, H_NONE},
    {"__nv_cvt_float_to_e8m0(RZ,SATFINITE)", &tc_e8m0, TC_RZ, TC_OVF_SAT, D_NONE, H_E8M0_RZ_SAT},
    {"__nv_cvt_float_to_e8m0(RZ,NOSAT)", &tc_e8m0, TC_RZ, TC_OVF_INF, D_NONE, H_E8M0_RZ_NOSAT},
    {"__nv_cvt_float_to_e8m0(RP,SATFINITE)", &tc_e8m0, TC_RU, TC_OVF_SAT, D_NONE, H_E8M0_RP_SAT},
    {"__nv_cvt_float_to_e8m0(RP,NOSAT)", &tc_e8m0, TC_RU, TC_OVF_INF, D_NONE, H_E8M0_RP_NOSAT},
    {"__nv_cvt_float_to_fp4(E2M1,RN)", &tc_e2m1, TC_RNE, TC_OVF_SAT, D_NONE, H_E2M1_RN},
    {"__nv_cvt_float_to_fp4(E2M1,RZ)", &tc_e2m1, TC_RZ, TC_OVF_SAT, D_NONE, H_E2M1_RZ},
    {"__nv_cvt_float_to_fp6(E2M3,RN)", &tc_e2m3, TC_RNE, TC_OVF_SAT, D_NONE, H_E2M3_RN},
    {"__nv_cvt_float_to_fp6(E2M3,RZ)", &tc_e2m3, TC_RZ, TC_OVF_SAT, D_NONE, H_E2M3_RZ},
    {"__nv_cvt_float_to_fp6(E3M2,RN)", &tc_e3m2, TC_RNE, TC_OVF_SAT, D_NONE, H_E3M2_RN},
    {"__nv_cvt_float_to_fp6(E3M2,RZ)", &tc_e3m2, TC_RZ, TC_OVF_SAT, D_NONE, H_E3M2_RZ},
};

// ---- comparison ------------------------------------------------------------
static const uint32_t BLOCK = 1u << 16;   // hash granule: independent of thread count
enum { P_DEV, P_HOST, P_OURS, NPATH };
enum { C_DEV_OURS, C_DEV_HOST, C_HOST_OURS, NCMP };

struct Mismatch {
    uint32_t in, out[NPATH];
};

// FNV-1a over 32-bit words (one multiply per output keeps the sweep fast).
static inline uint64_t fnv1a(uint64_t h, uint32_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

struct Job {
    const Conversion *c;
    bool have_dev, have_host;
    uint32_t base, stride, n;        // this chunk's inputs
    const uint32_t *dev_out;         // n device results (or null)
    uint64_t *block_hash[NPATH];     // per BLOCK, for the chunk
    uint64_t mism[NCMP];
    std::vector<Mismatch> first;     // up to 8 per thread
};

static void compare_range(Job *j, uint32_t lo, uint32_t hi, uint64_t *mism, std::vector<Mismatch> *first)
{
    const Conversion *c = j->c;
    tc_rounding r = {};
    r.mode = c->mode;
    r.ovf = c->ovf;
    static const uint32_t K = 4096;
    float in[K];
    uint64_t ours[K];
    for (uint32_t blk = lo; blk < hi; blk += BLOCK) {
        uint32_t bend = hi - blk < BLOCK ? hi : blk + BLOCK;
        uint64_t h[NPATH] = {0xcbf29ce484222325ull, 0xcbf29ce484222325ull, 0xcbf29ce484222325ull};
        for (uint32_t s = blk; s < bend; s += K) {
            uint32_t m = bend - s < K ? bend - s : K;
            for (uint32_t i = 0; i < m; i++) {
                uint32_t b = j->base + (s + i) * j->stride;
                memcpy(&in[i], &b, 4);
            }
            tc_encode_f32_array(c->f, in, ours, m, r, nullptr);
            for (uint32_t i = 0; i < m; i++) {
                uint32_t idx = s + i;
                uint32_t o[NPATH];
                o[P_OURS] = (uint32_t)ours[i];
                o[P_DEV] = j->have_dev ? j->dev_out[idx] : 0;
                o[P_HOST] = j->have_host ? host_cvt(c->host, in[i]) : 0;
                for (int p = 0; p < NPATH; p++) h[p] = fnv1a(h[p], o[p]);
                bool bad[NCMP] = {j->have_dev && o[P_DEV] != o[P_OURS],
                                  j->have_dev && j->have_host && o[P_DEV] != o[P_HOST],
                                  j->have_host && o[P_HOST] != o[P_OURS]};
                bool any = false;
                for (int k = 0; k < NCMP; k++)
                    if (bad[k]) { mism[k]++; any = true; }
                if (any && first->size() < 8) {
                    Mismatch mm;
                    mm.in = j->base + idx * j->stride;
                    for (int p = 0; p < NPATH; p++) mm.out[p] = o[p];
                    first->push_back(mm);
                }
            }
        }
        for (int p = 0; p < NPATH; p++) j->block_hash[p][blk / BLOCK] = h[p];
    }
}

static void compare_chunk(Job *j, int threads)
{
    std::vector<std::thread> ts;
    std::vector<uint64_t> mism((size_t)threads * NCMP, 0);
    std::vector<std::vector<Mismatch>> firsts(threads);
    uint32_t nblocks = (j->n + BLOCK - 1) / BLOCK;
    for (int t = 0; t < threads; t++) {
        uint32_t b0 = (uint32_t)((uint64_t)nblocks * t / threads);
        uint32_t b1 = (uint32_t)((uint64_t)nblocks * (t + 1) / threads);
        uint32_t lo = b0 * BLOCK, hi = b1 * BLOCK < j->n ? b1 * BLOCK : j->n;
        if (lo >= hi) continue;
        ts.emplace_back(compare_range, j, lo, hi, &mism[(size_t)t * NCMP], &firsts[t]);
    }
    for (auto &t : ts) t.join();
    for (int t = 0; t < threads; t++) {
        for (int k = 0; k < NCMP; k++) j->mism[k] += mism[(size_t)t * NCMP + k];
        for (auto &m : firsts[t])
            if (j->first.size() < 8) j->first.push_back(m);
    }
}

static std::string hex(uint64_t v)
{
    char b[24];
    snprintf(b, sizeof b, "0x%llx", (unsigned long long)v);
    return b;
}

int main(int argc, char **argv)
{
    bool host_only = false;
    int threads = (int)std::thread::hardware_concurrency();
    int log2n = 32;
    const char *only = nullptr;
    std::vector<uint32_t> probe;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--probe") && i + 1 < argc) {
            for (char *p = argv[++i]; *p;) {
                char *end;
                probe.push_back((uint32_t)strtoul(p, &end, 16));
                if (end == p) { fprintf(stderr, "cvt_sweep: bad --probe list\n"); return 2; }
                p = *end == ',' ? end + 1 : end;
            }
            continue;
        }
        if (!strcmp(argv[i], "--host-only")) host_only = true;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--log2n") && i + 1 < argc) log2n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            fprintf(stderr, "cvt_sweep: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (threads < 1 || log2n < 16 || log2n > 32) {
        fprintf(stderr, "cvt_sweep: --threads >= 1 and --log2n in 16..32\n");
        return 2;
    }
    uint64_t total = 1ull << log2n;
    uint32_t stride = (uint32_t)(1ull << (32 - log2n));
    uint32_t chunk = total < (1ull << 28) ? (uint32_t)total : 1u << 28;

    // The machine, first: GPU name, driver and runtime versions.
    int ndev = 0;
    uint32_t *d_out = nullptr;
    std::vector<uint32_t> dev_out;
    if (!host_only) {
        CK(cudaGetDeviceCount(&ndev));
        cudaDeviceProp prop;
        CK(cudaGetDeviceProperties(&prop, 0));
        int drv = 0, rt = 0;
        CK(cudaDriverGetVersion(&drv));
        CK(cudaRuntimeGetVersion(&rt));
        printf("{\"machine\": \"%s\", \"sm\": \"%d.%d\", \"driver_api\": %d, \"runtime\": %d, "
               "\"inputs_per_conversion\": %llu, \"host_threads\": %d}\n",
               prop.name, prop.major, prop.minor, drv, rt, (unsigned long long)total, threads);
        CK(cudaMalloc(&d_out, (size_t)chunk * 4));
        dev_out.resize(chunk);
    } else {
        printf("{\"machine\": \"host only\", \"inputs_per_conversion\": %llu, \"host_threads\": %d}\n",
               (unsigned long long)total, threads);
    }
    fflush(stdout);
    if (!probe.empty()) {
        for (const Conversion &c : conversions) {
            if (only && !strstr(c.name, only)) continue;
            bool have_dev = !host_only && c.dev != D_NONE;
            printf("{\"conversion\": \"%s\", \"probe\": [", c.name);
            for (size_t k = 0; k < probe.size(); k++) {
                uint32_t x = probe[k], dv = 0;
                if (have_dev) {
                    CK(cudaMemset(d_out, 0xA5, 4));
                    launch(c.dev, x, 0, 1, d_out);
                    CK(cudaDeviceSynchronize());
                    CK(cudaMemcpy(&dv, d_out, 4, cudaMemcpyDeviceToHost));
                }
                float fx;
                memcpy(&fx, &x, 4);
                tc_rounding r = {};
                r.mode = c.mode;
                r.ovf = c.ovf;
                printf("%s{\"input\": \"0x%08x\"", k ? ", " : "", x);
                if (have_dev) printf(", \"device\": \"0x%x\"", dv);
                if (c.host != H_NONE) printf(", \"cuda_host\": \"0x%x\"", host_cvt(c.host, fx));
                printf(", \"ours\": \"0x%llx\"}", (unsigned long long)tc_encode_f32(c.f, fx, r));
            }
            printf("]}\n");
        }
        return 0;
    }
    int rc = 0;
    for (const Conversion &c : conversions) {
        if (only && !strstr(c.name, only)) continue;
        bool have_dev = !host_only && c.dev != D_NONE;
        bool have_host = c.host != H_NONE;
        if (!have_dev && !have_host) continue;
        Job j{};
        j.c = &c;
        j.have_dev = have_dev;
        j.have_host = have_host;
        std::vector<uint64_t> hashes[NPATH];
        uint64_t mism[NCMP] = {0, 0, 0};
        std::vector<Mismatch> first;
        for (uint64_t start = 0; start < total; start += chunk) {
            j.base = (uint32_t)(start * stride);
            j.stride = stride;
            j.n = chunk;
            if (have_dev) {
                // Poison first: a kernel that writes nothing must not pass.
                CK(cudaMemset(d_out, 0xA5, (size_t)chunk * 4));
                launch(c.dev, j.base, stride, chunk, d_out);
                CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(dev_out.data(), d_out, (size_t)chunk * 4, cudaMemcpyDeviceToHost));
                j.dev_out = dev_out.data();
            }
            std::vector<uint64_t> bh[NPATH];
            uint32_t nblocks = (chunk + BLOCK - 1) / BLOCK;
            for (int p = 0; p < NPATH; p++) {
                bh[p].assign(nblocks, 0);
                j.block_hash[p] = bh[p].data();
            }
            j.mism[0] = j.mism[1] = j.mism[2] = 0;
            j.first.clear();
            compare_chunk(&j, threads);
            for (int k = 0; k < NCMP; k++) mism[k] += j.mism[k];
            for (auto &m : j.first)
                if (first.size() < 8) first.push_back(m);
            for (int p = 0; p < NPATH; p++)
                hashes[p].insert(hashes[p].end(), bh[p].begin(), bh[p].end());
        }
        uint64_t h[NPATH];
        for (int p = 0; p < NPATH; p++) {
            h[p] = 0xcbf29ce484222325ull;
            for (uint64_t v : hashes[p]) {
                h[p] = fnv1a(h[p], (uint32_t)v);
                h[p] = fnv1a(h[p], (uint32_t)(v >> 32));
            }
        }
        printf("{\"conversion\": \"%s\", \"format\": \"%s\", \"round\": \"%s\", \"overflow\": \"%s\", "
               "\"inputs\": %llu",
               c.name, c.f->name, tc_round_name(c.mode), tc_overflow_name(c.ovf),
               (unsigned long long)total);
        if (have_dev)
            printf(", \"device_vs_ours\": %llu, \"hash_device\": \"%s\"",
                   (unsigned long long)mism[C_DEV_OURS], hex(h[P_DEV]).c_str());
        if (have_dev && have_host)
            printf(", \"device_vs_cuda_host\": %llu", (unsigned long long)mism[C_DEV_HOST]);
        if (have_host)
            printf(", \"cuda_host_vs_ours\": %llu, \"hash_cuda_host\": \"%s\"",
                   (unsigned long long)mism[C_HOST_OURS], hex(h[P_HOST]).c_str());
        printf(", \"hash_ours\": \"%s\", \"first_mismatches\": [", hex(h[P_OURS]).c_str());
        for (size_t k = 0; k < first.size(); k++) {
            printf("%s{\"input\": \"0x%08x\"", k ? ", " : "", first[k].in);
            if (have_dev) printf(", \"device\": \"0x%x\"", first[k].out[P_DEV]);
            if (have_host) printf(", \"cuda_host\": \"0x%x\"", first[k].out[P_HOST]);
            printf(", \"ours\": \"0x%x\"}", first[k].out[P_OURS]);
        }
        printf("]}\n");
        fflush(stdout);
        if (mism[0] || mism[1] || mism[2]) rc = 1;
    }
    if (d_out) CK(cudaFree(d_out));
    return rc;
}
