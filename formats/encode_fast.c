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

/* E8M0 (unsigned, exponent only, 0xFF NaN): the grid is the powers of two
 * 2^-127 (code 0) .. 2^127 (code 0xFE), with no zero, so a positive value
 * below 2^-127 gives code 0 whichever way it rounds. The sign is not read
 * (the reference rounds the magnitude as positive). round_core sees it as a
 * one-bit-precision format whose code counts the hidden bit, one above
 * E8M0's; subnormal inputs are normalised first, since round_core takes the
 * grid step from e and E8M0 has a point, 2^-127, below float32's 2^-126. */
#define T_E8M0 ((fast_fmt){0, 8, -127, 0, 0x1FF})
static uint64_t enc_e8m0_f32(const tc_format *f, uint32_t x, tc_rounding r)
{
    uint32_t u = x & 0x7fffffffu;
    if (u >= 0x7f800000u)
        return slow_f32(f, x, r);
    uint32_t E = u >> 23, m = u & 0x7fffffu;
    int e = (int)E - 127;
    if (E == 0) {
        if (m == 0 || r.daz)
            return 0;
        int n = 31 - __builtin_clz(m);
        m <<= 23 - n;
        e = n - 149;
    } else {
        m |= 0x800000u;
    }
    uint64_t code = round_core(f, T_E8M0, 0, m, e, 23, r.mode, r, r.rbits);
    code = code ? code - 1 : 0;
    return code > 0xFE ? tc_fmt_overflow_bits(f, false, r) : code;
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
    if (f == &tc_e8m0)
        return enc_e8m0_f32(f, b, r);
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

/* The array path. Every input goes through one branch-free lane in 32-bit
 * integers (results fit: the widest container here, TF32's, is 32 bits),
 * so a block of lanes is a straight loop the compiler vectorizes; NaN and
 * Inf inputs are flagged and redone through the reference path after the
 * block, and an overflow takes its precomputed result (one per sign).
 *
 * The cut: value = m * 2^(E' - 150) with E' = max(E, 1), m < 2^24. Above
 * the target's emin (k = E' - 127 - emin >= 0) the cut lies a fixed
 * 23 - mbits bits up in m and the code's exponent part is k; below, -k more
 * bits go and the exponent part is 0. The cut is clamped at 31, which
 * changes nothing: from 25 on the kept bits are 0, the first bit below is
 * 0 and every bit of m lies further down.
 *
 * Rounding adds a per-mode bias below the cut and keeps the carry:
 *   RZ 0; RNA half; RNE half - 1 + the last kept bit (a tie goes up only
 *   from an odd kept value); RU all-ones below the cut for +, 0 for -;
 *   RD the reverse. m + bias < 2^24 + 2^31 cannot wrap. RO ORs "anything
 *   below" into the last bit; RS adds rbits to the first 32 bits below the
 *   cut (tc_rounding.rbits) and keeps that carry. */
ALWAYS_INLINE uint32_t lane_f32(fast_fmt t, uint32_t x, tc_round mode, bool ftz, bool daz,
                                uint32_t rbits, uint32_t ovf_pos, uint32_t ovf_neg)
{
    uint32_t sign = x >> 31, u = x & 0x7fffffffu;
    uint32_t E = u >> 23;
    uint32_t m = (u & 0x7fffffu) | (E ? 0x800000u : 0);
    if (daz)
        m = E ? m : 0;
    int32_t k = (int32_t)(E ? E : 1) - (127 + t.emin);
    uint32_t base = k > 0 ? (uint32_t)k : 0;
    uint32_t sh = (uint32_t)(23 - t.mbits) + (k < 0 ? (uint32_t)-k : 0);
    uint32_t c = sh < 31 ? sh : 31;
    uint32_t low = (1u << c) - 1;   /* the bits below the cut */
    uint32_t kept;
    switch (mode) {
    case TC_RNE:
        kept = (m + (low >> 1) + ((m >> c) & 1)) >> c;
        break;
    case TC_RNA:
        kept = (m + (low >> 1) + 1) >> c;
        break;
    case TC_RU:
        kept = (m + (low & (sign - 1))) >> c;
        break;
    case TC_RD:
        kept = (m + (low & -sign)) >> c;
        break;
    case TC_RO:
        kept = (m >> c) | ((m & low) != 0);
        break;
    case TC_RS: {
        /* The first 32 bits below the true cut sh (m < 2^24: from sh = 56
         * on they are 0, and the clamped shift count gives that). */
        uint32_t rem = m & low;
        uint32_t frac = sh <= 32 ? rem << (32 - sh) : rem >> (sh - 32 < 31 ? sh - 32 : 31);
        kept = (m >> c) + ((uint32_t)(frac + rbits) < frac);
        break;
    }
    default:   /* TC_RZ */
        kept = m >> c;
        break;
    }
    /* A round-up carry walks into the exponent field, as the encoding's
     * order allows; past max finite it is an overflow. */
    uint32_t code = (base << t.mbits) + kept;
    if (ftz)
        code = code < (1u << t.mbits) ? 0 : code;
    uint32_t res = ((sign << (t.ebits + t.mbits)) | code) << t.shift;
    return code > t.maxcode ? (sign ? ovf_neg : ovf_pos) : res;
}

#define BLOCK 64

/* The lanes of in[0..n), n <= BLOCK; true when a NaN or Inf is among them.
 * With n == BLOCK (a constant after inlining) the loop needs no scalar
 * epilogue, which is what the vectorizer at -O2 asks for. */
ALWAYS_INLINE bool block_f32(fast_fmt t, tc_round mode, bool ftz, bool daz,
                             const float *restrict in, uint64_t *restrict out, size_t n,
                             const uint32_t *restrict rb, uint32_t ovf_pos, uint32_t ovf_neg)
{
    uint32_t special = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &in[i], sizeof b);
        out[i] = lane_f32(t, b, mode, ftz, daz, mode == TC_RS ? rb[i] : 0, ovf_pos, ovf_neg);
        special |= (b & 0x7fffffffu) >= 0x7f800000u;
    }
    return special;
}

/* The whole array in one mode. rb: per-element random bits for TC_RS, or
 * NULL (then r.rbits for every element, from a block of copies). */
ALWAYS_INLINE void run_f32(const tc_format *f, fast_fmt t, tc_round mode, bool ftz, bool daz,
                           const float *restrict in, uint64_t *restrict out, size_t n,
                           tc_rounding r, const uint32_t *restrict rb)
{
    uint32_t ovf_pos = (uint32_t)tc_fmt_overflow_bits(f, false, r);
    uint32_t ovf_neg = (uint32_t)tc_fmt_overflow_bits(f, true, r);
    uint32_t same[BLOCK];
    if (mode == TC_RS && !rb)
        for (size_t i = 0; i < BLOCK; i++)
            same[i] = r.rbits;
    for (size_t i0 = 0; i0 < n; i0 += BLOCK) {
        size_t len = n - i0 < BLOCK ? n - i0 : BLOCK;
        const uint32_t *rbi = mode != TC_RS ? NULL : rb ? rb + i0 : same;
        bool special;
        if (len == BLOCK)
            special = block_f32(t, mode, ftz, daz, in + i0, out + i0, BLOCK, rbi, ovf_pos, ovf_neg);
        else
            special = block_f32(t, mode, ftz, daz, in + i0, out + i0, len, rbi, ovf_pos, ovf_neg);
        if (__builtin_expect(special, 0))
            for (size_t i = i0; i < i0 + len; i++) {
                uint32_t b;
                memcpy(&b, &in[i], sizeof b);
                if ((b & 0x7fffffffu) >= 0x7f800000u) {
                    tc_rounding ri = r;
                    ri.rbits = rb ? rb[i] : r.rbits;
                    out[i] = slow_f32(f, b, ri);
                }
            }
    }
}

/* One function per format, the mode a compile-time constant in each loop;
 * the common case (no ftz, no daz) gets its own loops, free of both tests.
 * ATTR: the target the copy is compiled for (see tc_encode_f32_array). */
#define RUN(T, MODE)                                                                      \
    do {                                                                                  \
        if (!r.ftz && !r.daz)                                                             \
            run_f32(f, T, MODE, false, false, in, out, n, r, rb);                         \
        else                                                                              \
            run_f32(f, T, MODE, r.ftz, r.daz, in, out, n, r, rb);                         \
        return;                                                                           \
    } while (0)

#define BATCH(NAME, T, ATTR)                                                              \
    ATTR static void NAME(const tc_format *f, const float *restrict in,                   \
                          uint64_t *restrict out, size_t n, tc_rounding r,                \
                          const uint32_t *restrict rb)                                    \
    {                                                                                     \
        switch (r.mode) {                                                                 \
        case TC_RNE: RUN(T, TC_RNE);                                                      \
        case TC_RNA: RUN(T, TC_RNA);                                                      \
        case TC_RZ: RUN(T, TC_RZ);                                                        \
        case TC_RU: RUN(T, TC_RU);                                                        \
        case TC_RD: RUN(T, TC_RD);                                                        \
        case TC_RO: RUN(T, TC_RO);                                                        \
        default: RUN(T, TC_RS);                                                           \
        }                                                                                 \
    }

typedef void batch_fn(const tc_format *f, const float *restrict in, uint64_t *restrict out,
                      size_t n, tc_rounding r, const uint32_t *restrict rb);

#define BATCHES(SUFFIX, ATTR)                                                             \
    BATCH(batch_e4m3##SUFFIX, T_E4M3, ATTR)                                               \
    BATCH(batch_e5m2##SUFFIX, T_E5M2, ATTR)                                               \
    BATCH(batch_f16##SUFFIX, T_F16, ATTR)                                                 \
    BATCH(batch_bf16##SUFFIX, T_BF16, ATTR)                                               \
    BATCH(batch_tf32##SUFFIX, T_TF32, ATTR)                                               \
    BATCH(batch_e2m1##SUFFIX, T_E2M1, ATTR)                                               \
    BATCH(batch_e2m3##SUFFIX, T_E2M3, ATTR)                                               \
    BATCH(batch_e3m2##SUFFIX, T_E3M2, ATTR)                                               \
    static batch_fn *batch_for##SUFFIX(const tc_format *f)                                \
    {                                                                                     \
        return f == &tc_e4m3 ? batch_e4m3##SUFFIX                                         \
             : f == &tc_e5m2 ? batch_e5m2##SUFFIX                                         \
             : f == &tc_f16  ? batch_f16##SUFFIX                                          \
             : f == &tc_bf16 ? batch_bf16##SUFFIX                                         \
             : f == &tc_tf32 ? batch_tf32##SUFFIX                                         \
             : f == &tc_e2m1 ? batch_e2m1##SUFFIX                                         \
             : f == &tc_e2m3 ? batch_e2m3##SUFFIX                                         \
             : f == &tc_e3m2 ? batch_e3m2##SUFFIX                                         \
             : NULL;                                                                      \
    }

/* The baseline build targets plain x86-64 (SSE2), which has no per-lane
 * variable shift, so the lanes run scalar there. Where the CPU has AVX2
 * (vpsrlvd and friends) a second copy of the same source, compiled for it,
 * runs 8 lanes at a time; the results are the same integer operations. */
BATCHES(, )
#if defined(__x86_64__) && defined(__GNUC__)
#define TC_HAVE_AVX2_COPY 1
BATCHES(_avx2, __attribute__((target("avx2"))))
#endif

void tc_encode_f32_array(const tc_format *f, const float *in, uint64_t *out, size_t n,
                         tc_rounding r, const uint32_t *rbits)
{
    if (r.mode != TC_RS)
        rbits = NULL;
    batch_fn *batch = batch_for(f);
#ifdef TC_HAVE_AVX2_COPY
    if (batch && __builtin_cpu_supports("avx2"))
        batch = batch_for_avx2(f);
#endif
    if (batch) {
        batch(f, in, out, n, r, rbits);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        tc_rounding ri = r;
        if (rbits)
            ri.rbits = rbits[i];
        out[i] = tc_encode_f32(f, in[i], ri);
    }
}
