#include <stdint.h>
/* Non-volatile asm, loop-invariant operands: the compiler may hoist or merge. */
extern "C" __global__ void neg_hoisted(const uint32_t *in, float *out, long long *cyc, int iters)
{
    uint32_t a0=in[0],a1=in[1],a2=in[2],a3=in[3],b0=in[4],b1=in[5];
    float s = 0.f;
    long long t0 = clock64();
    #pragma unroll 1
    for (int i = 0; i < iters; i++) {
        #pragma unroll
        for (int u = 0; u < 4; u++) {
            float d0, d1, d2, d3;
            asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
                : "=f"(d0),"=f"(d1),"=f"(d2),"=f"(d3) : "r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(b0),"r"(b1),"f"(0.f));
            s += d0 + d1 + d2 + d3;
        }
    }
    long long t1 = clock64();
    out[threadIdx.x] = s;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
/* Non-volatile asm with a changing accumulator but two identical copies per step: merged. */
extern "C" __global__ void neg_merged(const uint32_t *in, float *out, long long *cyc, int iters)
{
    uint32_t a0=in[0],a1=in[1],a2=in[2],a3=in[3],b0=in[4],b1=in[5];
    float c[2][4] = {};
    long long t0 = clock64();
    #pragma unroll 1
    for (int i = 0; i < iters; i++) {
        #pragma unroll
        for (int u = 0; u < 4; u++)
        #pragma unroll
        for (int j = 0; j < 2; j++)
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
            : "+f"(c[j][0]),"+f"(c[j][1]),"+f"(c[j][2]),"+f"(c[j][3]) : "r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(b0),"r"(b1));
    }
    long long t1 = clock64();
    out[threadIdx.x] = c[0][0]+c[0][1]+c[0][2]+c[0][3]+c[1][0]+c[1][1]+c[1][2]+c[1][3];
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
