/* The walk of one GEMM output along its chain (probes/model_gpu_gemm.h),
 * written once for the CPU and the GPU as the model's arithmetic is
 * (oracle/model_core.h): each step model_int128_steps, each FP32 addition
 * between runs and slices mgemm_f32_add, an integer FP32 addition. Included
 * by probes/model_gpu_gemm.c and probes/cuda/model_gpu_gemm.cu only. */
#ifndef TC_MODEL_GPU_GEMM_CORE_H
#define TC_MODEL_GPU_GEMM_CORE_H

#include "oracle/model_core.h"
#include "probes/model_gpu_gemm.h"

/* What every thread reads: the chain, FP32's constants, and the step order
 * of each step length (model_step_order; ordered[len] 0: the identity). */
typedef struct mgemm_plan {
    tc_model_gemm_chain ch;
    mfmt f32;
    uint8_t ordered[MODEL_ELEMENT_MAX_K + 1];
    int8_t order[MODEL_ELEMENT_MAX_K + 1][MODEL_ELEMENT_MAX_K];
} mgemm_plan;

/* a + b in FP32, RNE, gradual underflow, as the CPU predictor's float
 * addition (x86 SSE addss) gives it: a NaN operand comes back quieted, a's
 * first; Inf - Inf is the default NaN 0xffc00000; an exact zero sum of
 * nonzero terms +0. The exact sum is held in 128 bits when the exponents
 * are within 64 of each other, else the smaller term is only a sticky bit
 * below the larger's last two. */
static inline TC_HD uint32_t mgemm_f32_add(const mfmt *f32, uint32_t a, uint32_t b)
{
    uint32_t ea = (a >> 23) & 0xff, eb = (b >> 23) & 0xff, fa = a & 0x7fffff, fb = b & 0x7fffff;
    if (ea == 0xff && fa)
        return a | 0x400000;
    if (eb == 0xff && fb)
        return b | 0x400000;
    if (ea == 0xff)
        return eb == 0xff && ((a ^ b) >> 31) ? 0xffc00000u : a;
    if (eb == 0xff)
        return b;
    if (!(a & 0x7fffffff))   /* +-0 + b: b, and -0 + -0 = -0 */
        return (b & 0x7fffffff) ? b : (a & b);
    if (!(b & 0x7fffffff))
        return a;
    /* x: the term with the larger last-bit weight */
    uint32_t x = a, y = b;
    int lx = (ea ? (int)ea : 1) - 150, ly = (eb ? (int)eb : 1) - 150;
    uint64_t mx = ea ? (fa | 0x800000u) : fa, my = eb ? (fb | 0x800000u) : fb;
    if (lx < ly) {
        uint32_t t = x;
        x = y, y = t;
        int tl = lx;
        lx = ly, ly = tl;
        uint64_t tm = mx;
        mx = my, my = tm;
    }
    int sx = (int)(x >> 31), sy = (int)(y >> 31), d = lx - ly, sign = sx, lsb;
    u128 mag;
    bool sticky = false;
    if (d <= 64) {
        u128 big = (u128)mx << d;
        lsb = ly;
        if (sx == sy) {
            mag = big + my;
        } else if (big >= my) {
            mag = big - my;
        } else {
            mag = (u128)my - big;
            sign = sy;
        }
        if (mag == 0)
            sign = 0;   /* RNE: an exact zero is +0 */
    } else {   /* |y| < 2^(lx - 40): below the larger's guard bits, on its side */
        mag = ((u128)mx << 2) - (sx == sy ? 0 : 1);
        lsb = lx - 2;
        sticky = true;
    }
    mval v = mfmt_round(f32, sign, mag, lsb, sticky, TC_RNE, false, TC_OVF_INF);
    return (uint32_t)mfmt_encode(f32, v);
}

/* The S slice sums v met as a balanced tree (cases/gemm_struct.c pairwise:
 * [lo, hi) is [lo, mid) + [mid, hi), mid = lo + (hi - lo) / 2), walked
 * with a stack of its own: a recursive device function would need a stack
 * size nvcc cannot bound. S <= 64: at most 7 levels. */
static inline TC_HD uint32_t mgemm_pairwise(const mfmt *f32, const uint32_t *v, int S)
{
    int lo[8], hi[8], state[8], top = 0;
    uint32_t left[8], ret = 0;
    lo[0] = 0, hi[0] = S, state[0] = 0;
    while (top >= 0) {
        int l = lo[top], h = hi[top], mid = l + ((h - l) >> 1);
        if (h - l == 1) {   /* a leaf: its value goes to the parent */
            ret = v[l];
            top--;
        } else if (state[top] == 0) {   /* the left half first */
            state[top] = 1;
            top++;
            lo[top] = l, hi[top] = mid, state[top] = 0;
        } else if (state[top] == 1) {   /* then the right */
            left[top] = ret;
            state[top] = 2;
            top++;
            lo[top] = mid, hi[top] = h, state[top] = 0;
        } else {
            ret = mgemm_f32_add(f32, left[top], ret);
            top--;
        }
    }
    return ret;
}

/* D of one step of len positions (a[q], b[q * ldb]), C c. 0, or -1 on the
 * GPU when the step spans more bits than int128 holds (the CPU then computes
 * the output; on the CPU model_dot computes the step). */
static inline TC_HD int mgemm_step(const model *m, const mgemm_plan *pl, int len, const uint32_t *a,
                                   const uint32_t *b, size_t ldb, uint64_t c, uint64_t *d)
{
    mterm pr[MODEL_ELEMENT_MAX_K];
    const int8_t *ord = pl->ordered[len] ? pl->order[len] : NULL;
    for (int i = 0; i < len; i++) {
        int q = ord ? ord[i] : i;
        pr[i] = model_product(m, model_operand(m, 0, a[q]), model_operand(m, 1, b[(size_t)q * ldb]));
    }
    if (model_int128_steps(m, len, pr, c, d) == 0)
        return 0;
#ifdef __CUDACC__
    return -1;
#else
    uint64_t x[MODEL_ELEMENT_MAX_K], y[MODEL_ELEMENT_MAX_K];
    for (int i = 0; i < len; i++)
        x[i] = a[i], y[i] = b[(size_t)i * ldb];
    *d = model_dot(m, len, x, y, c);
    return 0;
#endif
}

/* One output: row a[0..k) of A, column b[q * ldb] of B. 0 with *out, or -1
 * (the GPU declining a step). */
static inline TC_HD int mgemm_output(const model *m, const mgemm_plan *pl, const uint32_t *a, const uint32_t *b,
                                     size_t ldb, uint32_t *out)
{
    const tc_model_gemm_chain *ch = &pl->ch;
    uint32_t v[TC_MGEMM_MAX_SLICES] = {0};
    int S = ch->nslices, chunk = ch->chunk;
    for (int t = 0; t < S; t++) {
        int lo = ch->bounds[t], hi = ch->bounds[t + 1];
        int run = ch->run > 0 ? ch->run : (hi - lo > 0 ? hi - lo : 1);
        uint32_t sum = 0;
        for (int r0 = lo; r0 < hi; r0 += run) {
            int rend = hi - r0 > run ? r0 + run : hi;
            uint64_t acc = 0;   /* +0: a zeroed accumulator */
            for (int c0 = r0; c0 < rend; c0 += chunk) {
                int len = rend - c0 > chunk ? chunk : rend - c0;
                if (mgemm_step(m, pl, len, a + c0, b + (size_t)c0 * ldb, ldb, acc, &acc))
                    return -1;
            }
            sum = r0 == lo ? (uint32_t)acc : mgemm_f32_add(&pl->f32, sum, (uint32_t)acc);
        }
        v[t] = sum;
    }
    uint32_t d = v[0];
    if (ch->combine == TC_MGEMM_PAIRWISE) {
        d = mgemm_pairwise(&pl->f32, v, S);
    } else if (ch->combine == TC_MGEMM_REVERSE) {
        d = v[S - 1];
        for (int t = S - 2; t >= 0; t--)
            d = mgemm_f32_add(&pl->f32, d, v[t]);
    } else {
        for (int t = 1; t < S; t++)
            d = mgemm_f32_add(&pl->f32, d, v[t]);
    }
    *out = d;
    return 0;
}

#endif
