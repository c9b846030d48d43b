/* float/double -> bits without building a tc_value: integer work on the
 * input's fields, specialised per format and mode. Same results as
 * tc_encode(f, tc_decode(input), false, r) (tests/test_formats_fast.c and
 * tools/exhaustive_f32.c prove it); special inputs and the formats this file
 * does not specialise take that reference path. */
#include <string.h>

#include "formats/formats.h"
#include "formats/round.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* The target's constants. emin: exponent of the smallest normal. */
typedef struct {
    int mbits, ebits, emin, shift;
    uint64_t maxcode;   /* largest finite magnitude code */
} fast_fmt;

/* value = m * 2^(e - F), 0 < m < 2^(F+1), rounded onto the target's grid.
 * The grid step is 2^(max(e, emin) - mbits), so the cut lies
 * sh = F - mbits + max(0, emin - e) bits up in m; adding the kept bits to
 * (max(e, emin) - emin) << mbits gives the code, the carry of a round-up
 * walking into the exponent field as the encoding's order allows. */
ALWAYS_INLINE uint64_t round_core(const tc_format *f, fast_fmt t, uint32_t sign, uint64_t m,
                                  int e, int F, tc_round mode, tc_rounding r, uint32_t rbits)
{
    int d = t.emin > e ? t.emin - e : 0;
    int sh = F - t.mbits + d;
    uint64_t base = (uint64_t)(e + d - t.emin);
    uint64_t kept;
    tc_remainder R;
    if (sh >= 62) {
        kept = 0;
        R.half = false;   /* m < 2^53 <= 2^(sh-1) */
        R.rest = true;
        R.frac32 = sh - 32 < 64 ? (uint32_t)(m >> (sh - 32)) : 0;
    } else {
        kept = m >> sh;
        uint64_t rem = m & ((1ull << sh) - 1);
        uint64_t half = 1ull << (sh - 1);
        R.half = (rem & half) != 0;
        R.rest = (rem & (half - 1)) != 0;
        R.frac32 = (uint32_t)(sh <= 32 ? rem << (32 - sh) : rem >> (sh - 32));
    }
    if (mode == TC_RO)
        kept |= (uint64_t)tc_rem_inexact(R);
    else
        kept += tc_round_up(mode, sign, kept, R, rbits);
    uint64_t code = (base << t.mbits) + kept;
    if (r.ftz && code < (1ull << t.mbits))
        code = 0;
    if (__builtin_expect(code > t.maxcode, 0))
        return tc_fmt_overflow_bits(f, sign, r);
    return (((uint64_t)sign << (t.ebits + t.mbits)) | code) << t.shift;
}

/* The reference path, for specials and the formats not specialised here. */
static uint64_t slow_f32(const tc_format *f, uint32_t x, tc_rounding r)
{
    return tc_encode(f, tc_decode(&tc_f32, x, r.daz), false, r);
}

static uint64_t slow_f64(const tc_format *f, uint64_t x, tc_rounding r)
{
    return tc_encode(f, tc_decode(&tc_f64, x, r.daz), false, r);
}

ALWAYS_INLINE uint64_t enc_f32_bits(const tc_format *f, fast_fmt t, uint32_t x, tc_round mode,
                                    tc_rounding r, uint32_t rbits)
{
    uint32_t sign = x >> 31, u = x & 0x7fffffffu;
    if (__builtin_expect(u >= 0x7f800000u, 0)) {
        r.rbits = rbits;
        return slow_f32(f, x, r);
    }
    uint32_t E = u >> 23, frac = u & 0x7fffffu;
    if (E == 0) {
        if (frac == 0 || r.daz)
            return ((uint64_t)sign << (t.ebits + t.mbits)) << t.shift;
        return round_core(f, t, sign, frac, -126, 23, mode, r, rbits);
    }
    return round_core(f, t, sign, frac | 0x800000u, (int)E - 127, 23, mode, r, rbits);
}

ALWAYS_INLINE uint64_t enc_f64_bits(const tc_format *f, fast_fmt t, uint64_t x, tc_round mode,
                                    tc_rounding r)
{
    uint32_t sign = (uint32_t)(x >> 63);
    uint64_t u = x & 0x7fffffffffffffffull;
    if (__builtin_expect(u >= 0x7ff0000000000000ull, 0))
        return slow_f64(f, x, r);
    uint32_t E = (uint32_t)(u >> 52);
    uint64_t frac = u & 0xfffffffffffffull;
    if (E == 0) {
        if (frac == 0 || r.daz)
            return ((uint64_t)sign << (t.ebits + t.mbits)) << t.shift;
        return round_core(f, t, sign, frac, -1022, 52, mode, r, r.rbits);
    }
    return round_core(f, t, sign, frac | (1ull << 52), (int)E - 1023, 52, mode, r, r.rbits);
}

/* Formats the fast path serves: signed binary floats narrower than the
 * input (E8M0's code 0 is a normal; integers round differently). */
static bool fast_ok(const tc_format *f, int F)
{
    return f->has_sign && f->mbits < F && f->ebits <= 11 &&
           (f->specials == TC_SPECIALS_IEEE || f->specials == TC_SPECIALS_FN ||
            f->specials == TC_SPECIALS_NONE);
}

static fast_fmt fast_params(const tc_format *f)
{
    fast_fmt t = {.mbits = f->mbits, .ebits = f->ebits, .emin = tc_format_emin(f),
                  .shift = f->shift};
    uint64_t allones = (1ull << (f->ebits + f->mbits)) - 1;
    if (f->specials == TC_SPECIALS_IEEE)
        t.maxcode = allones - (1ull << f->mbits);
    else if (f->specials == TC_SPECIALS_FN)
        t.maxcode = allones - 1;
    else
        t.maxcode = allones;
    return t;
}

/* Compile-time constants for the common formats. */
#define T_E4M3 ((fast_fmt){3, 4, -6, 0, 0x7E})
#define T_E5M2 ((fast_fmt){2, 5, -14, 0, 0x7B})
#define T_F16 ((fast_fmt){10, 5, -14, 0, 0x7BFF})
#define T_BF16 ((fast_fmt){7, 8, -126, 0, 0x7F7F})
#define T_TF32 ((fast_fmt){10, 8, -126, 13, 0x3FBFF})
#define T_E2M1 ((fast_fmt){1, 2, 0, 0, 0x7})
#define T_E2M3 ((fast_fmt){3, 2, 0, 0, 0x1F})
#define T_E3M2 ((fast_fmt){2, 3, -2, 0, 0x1F})

static uint64_t enc_f32_any(const tc_format *f, fast_fmt t, uint32_t x, tc_rounding r)
{
    switch (r.mode) {
    case TC_RNE: return enc_f32_bits(f, t, x, TC_RNE, r, r.rbits);
    case TC_RNA: return enc_f32_bits(f, t, x, TC_RNA, r, r.rbits);
    case TC_RZ: return enc_f32_bits(f, t, x, TC_RZ, r, r.rbits);
    case TC_RU: return enc_f32_bits(f, t, x, TC_RU, r, r.rbits);
    case TC_RD: return enc_f32_bits(f, t, x, TC_RD, r, r.rbits);
    case TC_RO: return enc_f32_bits(f, t, x, TC_RO, r, r.rbits);
    default: return enc_f32_bits(f, t, x, TC_RS, r, r.rbits);
    }
}

uint64_t tc_encode_f32(const tc_format *f, float x, tc_rounding r)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    if (f == &tc_e4m3)
        return enc_f32_any(f, T_E4M3, b, r);
    if (f == &tc_e5m2)
        return enc_f32_any(f, T_E5M2, b, r);
    if (f == &tc_f16)
        return enc_f32_any(f, T_F16, b, r);
    if (f == &tc_bf16)
        return enc_f32_any(f, T_BF16, b, r);
    if (f == &tc_tf32)
        return enc_f32_any(f, T_TF32, b, r);
    if (fast_ok(f, 23))
        return enc_f32_any(f, fast_params(f), b, r);
    return slow_f32(f, b, r);
}

uint64_t tc_encode_f64(const tc_format *f, double x, tc_rounding r)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    if (!fast_ok(f, 52))
        return slow_f64(f, b, r);
    fast_fmt t = fast_params(f);
    switch (r.mode) {
    case TC_RNE: return enc_f64_bits(f, t, b, TC_RNE, r);
    case TC_RNA: return enc_f64_bits(f, t, b, TC_RNA, r);
    case TC_RZ: return enc_f64_bits(f, t, b, TC_RZ, r);
    case TC_RU: return enc_f64_bits(f, t, b, TC_RU, r);
    case TC_RD: return enc_f64_bits(f, t, b, TC_RD, r);
    case TC_RO: return enc_f64_bits(f, t, b, TC_RO, r);
    default: return enc_f64_bits(f, t, b, TC_RS, r);
    }
}

/* The array path: a branch-free pass over every input of a normal-range
 * shape, then the rare ones (NaN, Inf, overflow) again through the
 * reference path; overflow takes its precomputed result. The cut sh is clamped at 63: m < 2^24, so from sh = 26 on
 * the half bit is 0 and every bit of m is below it, and the first 32 bits
 * below the cut, m * 2^32 >> sh, are already 0 from sh = 56. */
ALWAYS_INLINE uint64_t lane_f32(fast_fmt t, uint32_t x, tc_round mode, bool ftz, bool daz,
                                uint32_t rbits, const uint64_t ovf[2], bool *special)
{
    uint32_t sign = x >> 31, u = x & 0x7fffffffu;
    uint32_t E = u >> 23;
    uint64_t m = (u & 0x7fffffu) | ((uint64_t)(E != 0) << 23);
    if (daz)
        m = E ? m : 0;
    int e = (int)(E ? E : 1) - 127;
    int d = t.emin > e ? t.emin - e : 0;
    int sh = 23 - t.mbits + d;
    sh = sh > 63 ? 63 : sh;
    uint64_t base = (uint64_t)(e + d - t.emin);
    uint64_t kept = m >> sh;
    uint64_t rem = m & ((1ull << sh) - 1);
    uint64_t half = 1ull << (sh - 1);
    tc_remainder R = {.half = (rem & half) != 0, .rest = (rem & (half - 1)) != 0, .frac32 = 0};
    if (mode == TC_RS)
        R.frac32 = (uint32_t)((rem << 32) >> sh);   /* rem < 2^24: no bit lost */
    if (mode == TC_RO)
        kept |= (uint64_t)tc_rem_inexact(R);
    else
        kept += tc_round_up(mode, sign, kept, R, rbits);
    uint64_t code = (base << t.mbits) + kept;
    if (ftz)
        code = code < (1ull << t.mbits) ? 0 : code;
    *special = u >= 0x7f800000u;
    uint64_t res = (((uint64_t)sign << (t.ebits + t.mbits)) | code) << t.shift;
    return code > t.maxcode ? ovf[sign] : res;
}

#define LOOP1(T, MODE, FTZ, DAZ)                                                           \
    do {                                                                                   \
    const uint64_t ovf[2] = {tc_fmt_overflow_bits(f, false, r), tc_fmt_overflow_bits(f, true, r)}; \
    for (size_t i0 = 0; i0 < n; i0 += 256) {                                               \
        size_t i1 = n - i0 < 256 ? n : i0 + 256;                                           \
        bool any = false;                                                                  \
        for (size_t i = i0; i < i1; i++) {                                                 \
            uint32_t b;                                                                    \
            bool sp;                                                                       \
            memcpy(&b, &in[i], sizeof b);                                                  \
            out[i] = lane_f32(T, b, MODE, FTZ, DAZ, MODE == TC_RS && rb ? rb[i] : r.rbits, ovf, &sp); \
            any |= sp;                                                                     \
        }                                                                                  \
        if (__builtin_expect(any, 0))                                                      \
            for (size_t i = i0; i < i1; i++) {                                             \
                uint32_t b;                                                                \
                bool sp;                                                                   \
                memcpy(&b, &in[i], sizeof b);                                              \
                lane_f32(T, b, MODE, FTZ, DAZ, 0, ovf, &sp);                               \
                if (sp) {                                                                  \
                    tc_rounding ri = r;                                                    \
                    ri.rbits = rb ? rb[i] : r.rbits;                                       \
                    out[i] = slow_f32(f, b, ri);                                           \
                }                                                                          \
            }                                                                              \
    }                                                                                      \
    return;                                                                                \
    } while (0)

/* The common case (no ftz, no daz) gets its own loop, free of both tests. */
#define LOOP(T, MODE)                                                                      \
    if (!r.ftz && !r.daz)                                                                  \
        LOOP1(T, MODE, false, false);                                                      \
    LOOP1(T, MODE, r.ftz, r.daz)

#define BATCH(NAME, T)                                                                     \
    static void NAME(const tc_format *f, const float *in, uint64_t *out, size_t n,         \
                     tc_rounding r, const uint32_t *rb)                                    \
    {                                                                                      \
        switch (r.mode) {                                                                  \
        case TC_RNE: LOOP(T, TC_RNE);                                                      \
        case TC_RNA: LOOP(T, TC_RNA);                                                      \
        case TC_RZ: LOOP(T, TC_RZ);                                                        \
        case TC_RU: LOOP(T, TC_RU);                                                        \
        case TC_RD: LOOP(T, TC_RD);                                                        \
        case TC_RO: LOOP(T, TC_RO);                                                        \
        default: LOOP(T, TC_RS);                                                           \
        }                                                                                  \
    }

BATCH(batch_e4m3, T_E4M3)
BATCH(batch_e5m2, T_E5M2)
BATCH(batch_f16, T_F16)
BATCH(batch_bf16, T_BF16)
BATCH(batch_tf32, T_TF32)
BATCH(batch_e2m1, T_E2M1)
BATCH(batch_e2m3, T_E2M3)
BATCH(batch_e3m2, T_E3M2)

void tc_encode_f32_array(const tc_format *f, const float *in, uint64_t *out, size_t n,
                         tc_rounding r, const uint32_t *rbits)
{
    if (r.mode != TC_RS)
        rbits = NULL;
    if (f == &tc_e4m3)
        batch_e4m3(f, in, out, n, r, rbits);
    else if (f == &tc_e5m2)
        batch_e5m2(f, in, out, n, r, rbits);
    else if (f == &tc_f16)
        batch_f16(f, in, out, n, r, rbits);
    else if (f == &tc_bf16)
        batch_bf16(f, in, out, n, r, rbits);
    else if (f == &tc_tf32)
        batch_tf32(f, in, out, n, r, rbits);
    else if (f == &tc_e2m1)
        batch_e2m1(f, in, out, n, r, rbits);
    else if (f == &tc_e2m3)
        batch_e2m3(f, in, out, n, r, rbits);
    else if (f == &tc_e3m2)
        batch_e3m2(f, in, out, n, r, rbits);
    else
        for (size_t i = 0; i < n; i++) {
            tc_rounding ri = r;
            if (rbits)
                ri.rbits = rbits[i];
            out[i] = tc_encode_f32(f, in[i], ri);
        }
}
