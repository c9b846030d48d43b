#include <stdint.h>
extern "C" __global__ void neg_hoist2(const uint32_t *in, float *out, long long *cyc, int iters)
{
    uint32_t a0=in[0],a1=in[1],a2=in[2],a3=in[3],b0=in[4],b1=in[5];
    float s = 0.f;
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
        float d0, d1, d2, d3;
        asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%10,%10,%10};"
            : "=f"(d0),"=f"(d1),"=f"(d2),"=f"(d3) : "r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(b0),"r"(b1),"f"(0.f));
        s = s * d0 + d1;
    }
    long long t1 = clock64();
    out[threadIdx.x] = s;
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
