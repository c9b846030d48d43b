#include <stdint.h>
#define UNROLL 4
extern "C" __global__ void ex_f16(const uint32_t *in, float *out, long long *cyc, int iters)
{
    uint32_t a0=in[0],a1=in[1],a2=in[2],a3=in[3],b0=in[4],b1=in[5];
    float c[2][4] = {};
    long long t0 = clock64();
    #pragma unroll 1
    for (int i = 0; i < iters; i++) {
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
        #pragma unroll
        for (int j = 0; j < 2; j++)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[j][0]),"+f"(c[j][1]),"+f"(c[j][2]),"+f"(c[j][3]) : "r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(b0),"r"(b1));
    }
    long long t1 = clock64();
    out[threadIdx.x] = c[0][0]+c[0][1]+c[0][2]+c[0][3]+c[1][0];
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
extern "C" __global__ void ex_e4m3(const uint32_t *in, float *out, long long *cyc, int iters)
{
    uint32_t a0=in[0],a1=in[1],a2=in[2],a3=in[3],b0=in[4],b1=in[5];
    float c[4] = {};
    long long t0 = clock64();
    #pragma unroll 1
    for (int i = 0; i < iters; i++) {
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[0]),"+f"(c[1]),"+f"(c[2]),"+f"(c[3]) : "r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(b0),"r"(b1));
    }
    long long t1 = clock64();
    out[threadIdx.x] = c[0]+c[1]+c[2]+c[3];
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
extern "C" __global__ void ex_f64(const double *in, double *out, long long *cyc, int iters)
{
    double a=in[0], b=in[1];
    double c[2] = {};
    long long t0 = clock64();
    #pragma unroll 1
    for (int i = 0; i < iters; i++) {
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
            : "+d"(c[0]),"+d"(c[1]) : "d"(a),"d"(b));
    }
    long long t1 = clock64();
    out[threadIdx.x] = c[0]+c[1];
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
extern "C" __global__ void ex_s8(const uint32_t *in, int *out, long long *cyc, int iters)
{
    uint32_t a0=in[0],a1=in[1],a2=in[2],a3=in[3],b0=in[4],b1=in[5];
    int c[4] = {};
    long long t0 = clock64();
    #pragma unroll 1
    for (int i = 0; i < iters; i++) {
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+r"(c[0]),"+r"(c[1]),"+r"(c[2]),"+r"(c[3]) : "r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(b0),"r"(b1));
    }
    long long t1 = clock64();
    out[threadIdx.x] = c[0]+c[1]+c[2]+c[3];
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
