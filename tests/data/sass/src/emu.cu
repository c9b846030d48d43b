#include <stdint.h>
/* FP8 mma on sm_90 with A refreshed each step (add a run-time zero) so
 * that ptxas cannot merge the emulation's products. */
extern "C" __global__ void emu_e4m3(const uint32_t *in, float *out, long long *cyc, int iters, uint32_t z)
{
    uint32_t a0=in[0],a1=in[1],a2=in[2],a3=in[3],b0=in[4],b1=in[5];
    float c[4] = {};
    long long t0 = clock64();
    #pragma unroll 1
    for (int i = 0; i < iters; i++) {
        #pragma unroll
        for (int u = 0; u < 4; u++) {
            a0 += z;
            asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                : "+f"(c[0]),"+f"(c[1]),"+f"(c[2]),"+f"(c[3]) : "r"(a0),"r"(a1),"r"(a2),"r"(a3),"r"(b0),"r"(b1));
        }
    }
    long long t1 = clock64();
    out[threadIdx.x] = c[0]+c[1]+c[2]+c[3];
    if (threadIdx.x == 0) cyc[blockIdx.x] = t1 - t0;
}
