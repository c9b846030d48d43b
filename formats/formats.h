/* formats: number formats as data, exact decode, correctly rounded encode.
 *
 * Plain C, no MPFR, no GPU: this is the hot path of every other layer.
 * A value of any format is carried exactly as (class, sign, sig, exp) with
 * value = (-1)^sign * sig * 2^exp, which holds every format up to FP64.
 */
#ifndef TC_FORMATS_H
#define TC_FORMATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a format spends its top exponent code (and its NaN/Inf patterns). */
typedef enum {
    TC_SPECIALS_IEEE,   /* top exponent: Inf (fraction 0) and NaN (E5M2, FP16, BF16, TF32, FP32, FP64) */
    TC_SPECIALS_FN,     /* no Inf; only S.1..1.1..1 is NaN (OCP E4M3) */
    TC_SPECIALS_NONE,   /* every code finite (OCP E2M1, E2M3, E3M2) */
    TC_SPECIALS_E8M0,   /* unsigned exponent-only scale, 0xFF is NaN (OCP E8M0) */
    TC_SPECIALS_INT     /* two's complement integer (s8, u8, s32): for integer MMA controls */
} tc_specials;

typedef struct {
    const char *name;    /* canonical lower-case name: "e4m3", "f16", "tf32", ... */
    int ebits;           /* exponent field width */
    int mbits;           /* stored fraction width (precision is mbits + 1) */
    int bias;
    int storage_bits;    /* width of the container: TF32 is 19 significant bits held in 32 */
    int shift;           /* low container bits not used by the format (TF32: 13) */
    bool has_sign;
    tc_specials specials;
    uint64_t nan_bits;   /* the NaN NVIDIA's conversions produce, as container bits (TF32: 0x7FFFE000) */
} tc_format;

typedef enum { TC_ZERO, TC_FINITE, TC_INF, TC_NAN } tc_class;

/* An exact value. For TC_FINITE, sig != 0. */
typedef struct {
    tc_class cls;
    bool sign;
    int32_t exp;
    uint64_t sig;
} tc_value;

typedef enum {
    TC_RNE,   /* to nearest, ties to even */
    TC_RNA,   /* to nearest, ties away from zero */
    TC_RZ,    /* toward zero */
    TC_RU,    /* toward +Inf */
    TC_RD,    /* toward -Inf */
    TC_RO,    /* round to odd (sticky into the last bit) */
    TC_RS     /* stochastic: reproducible from tc_rounding.rbits */
} tc_round;

/* Overflow: a finite value overflows when rounding it with the format's
 * precision and an unbounded exponent range gives a magnitude above max
 * finite. What then, and what becomes of an Inf input:
 *
 *   TC_OVF_INF  IEEE 754: +-Inf when the rounding direction points away from
 *               zero (RNE, RNA, RS; RU for +, RD for -), else +-max finite
 *               (RZ, RO, RU for -, RD for +). Inf stays Inf.
 *               A format without Inf uses its NaN instead: E4M3 gives S.1111.111
 *               with the value's sign (cuda_fp8.h __NV_NOSAT: -500 -> 0xFF).
 *   TC_OVF_SAT  PTX .satfinite / __NV_SATFINITE: +-max finite in every
 *               rounding mode, and +-Inf -> +-max finite. NaN stays NaN.
 *   TC_OVF_NAN  every overflow is NaN (with the value's sign); Inf stays Inf
 *               where the format has it, else NaN. For E4M3 it differs from
 *               TC_OVF_INF only under RZ/RO/RU/RD.
 *
 * Formats without Inf and NaN (E2M1, E2M3, E3M2) always saturate, and Inf
 * gives +-max (cuda_fp4.h/cuda_fp6.h). E8M0 has NaN only: overflow and Inf
 * give 0xFF unless TC_OVF_SAT (0xFE); it encodes |x| (the sign is dropped,
 * RU/RD act on the magnitude as cuda_fp8.h's rp does) and anything below
 * 2^-127, zero included, gives 0x00 (2^-127): it has no zero.
 * Integers (s8, u8, s32) round to an integer and always saturate; NaN -> 0.
 *
 * NaN input gives f->nan_bits (the sign is dropped), as CUDA's host
 * conversions do: 0x7F for both FP8 formats, 0x7FFF for FP16 and BF16; for
 * E2M1/E2M3/E3M2, which have no NaN, +max (cuda_fp4.h/cuda_fp6.h).
 * On an H100 (reports/baselines/h100-cvt.json, all 2^32 float32 inputs) the
 * device cvt to e4m3/e5m2 (satfinite), f16/bf16 (rn rz rm rp, rn/rz
 * satfinite) and tf32 (rn, rz: NaN -> 0x7FFFE000) equal this encoder bit for
 * bit. cvt.rna[.satfinite].tf32.f32 differ on NaN inputs only: sm_90 emulates
 * them with integer operations that keep the truncated payload (a NaN with
 * payload only in the low 13 bits becomes +-Inf; with .satfinite some NaNs
 * become +-max or +-Inf). This encoder keeps the canonical NaN there.
 */
typedef enum {
    TC_OVF_INF,   /* IEEE: overflow goes to Inf (or max finite, as the rounding direction says) */
    TC_OVF_SAT,   /* saturate to +-max finite (satfinite); NaN stays NaN */
    TC_OVF_NAN    /* overflow to NaN (E4M3's non-saturating mode) */
} tc_overflow;

typedef struct {
    tc_round mode;
    tc_overflow ovf;
    bool ftz;          /* a rounded result below the normal range (a nonzero
                          subnormal) becomes zero of the same sign */
    uint32_t rbits;    /* random bits for TC_RS: with frac = the first 32 bits
                          below the last kept bit (the remainder in ulps times
                          2^32, truncated), round up when frac + rbits >= 2^32 */
    bool daz;          /* tc_encode_f32/f64 only: subnormal inputs read as zero */
} tc_rounding;

/* Canonical formats; tc_format_by_name also accepts generic "eXmY" names. */
extern const tc_format tc_e4m3, tc_e5m2, tc_f16, tc_bf16, tc_tf32, tc_f32, tc_f64;
extern const tc_format tc_e2m1, tc_e3m2, tc_e2m3, tc_e8m0, tc_s8, tc_u8, tc_s32;
/* The unsigned E4M3 of NVFP4 block scales (PTX .ue4m3): a scale format, read
 * by the block-scaled model (oracle/model_scales.h), not in tc_format_list. */
extern const tc_format tc_ue4m3;

/* Looks a format up by name; NULL if unknown. Generic names ("e3m4") are
 * built into *scratch, which must outlive the returned pointer. */
const tc_format *tc_format_by_name(const char *name, tc_format *scratch);
/* The built-in formats, in table order; *count receives the number. */
const tc_format *const *tc_format_list(size_t *count);

/* Format properties, exact: largest finite, smallest normal/subnormal, eps. */
tc_value tc_format_max(const tc_format *f);
tc_value tc_format_min_normal(const tc_format *f);
tc_value tc_format_min_subnormal(const tc_format *f);
int tc_format_emin(const tc_format *f);   /* exponent of the smallest normal */
int tc_format_emax(const tc_format *f);   /* exponent of the largest finite */
uint64_t tc_format_mask(const tc_format *f);  /* valid container bits */

/* bits -> exact value. daz: subnormal inputs read as signed zero. */
tc_value tc_decode(const tc_format *f, uint64_t bits, bool daz);
tc_class tc_classify(const tc_format *f, uint64_t bits);

/* exact value -> bits. `sticky` says nonzero bits lie below v.sig (so v is a
 * truncation of the true value, toward zero); this lets any source of wider
 * precision (MPFR, a wide accumulator) round exactly once. With sticky set,
 * v.sig must reach at least two bits below the format's last bit at v
 * (64 significant bits always do, for every format here). */
uint64_t tc_encode(const tc_format *f, tc_value v, bool sticky, tc_rounding r);

/* tc_encode, and what the conversion did (flags, IEEE 754's meanings):
 *   TC_FLAG_OVERFLOW   a finite input whose rounding with the format's
 *                      precision and an unbounded exponent exceeds max finite
 *                      (tc_overflow's definition); integers: the rounded
 *                      integer is out of range
 *   TC_FLAG_SATURATED  the result is finite in place of an overflow or an
 *                      infinite input (+-max; with TC_OVF_INF also RZ/RO/RU/RD
 *                      overflows, as IEEE 754 gives max finite there)
 *   TC_FLAG_INEXACT    the result's value is not the input's (rounded,
 *                      overflowed, saturated, flushed); never for a NaN input */
enum { TC_FLAG_INEXACT = 1, TC_FLAG_OVERFLOW = 2, TC_FLAG_SATURATED = 4 };
uint64_t tc_encode_flags(const tc_format *f, tc_value v, bool sticky, tc_rounding r, unsigned *flags);

/* Fast paths with the same results as tc_encode on the decoded input. */
uint64_t tc_encode_f32(const tc_format *f, float x, tc_rounding r);
uint64_t tc_encode_f64(const tc_format *f, double x, tc_rounding r);
float tc_decode_to_f32(const tc_format *f, uint64_t bits);   /* exact where representable */
double tc_decode_to_f64(const tc_format *f, uint64_t bits);  /* exact for formats <= 53 bits */

/* Array forms, specialised per format and mode (the fast sweeps use these):
 * out[i] = tc_encode_f32(f, in[i], r), with r.rbits ignored for TC_RS and
 * rbits[i] used instead (rbits may be NULL for the other modes). */
void tc_encode_f32_array(const tc_format *f, const float *in, uint64_t *out, size_t n,
                         tc_rounding r, const uint32_t *rbits);

/* Precision in bits (stored fraction + 1; integers: their value bits). */
int tc_format_precision(const tc_format *f);
bool tc_format_is_int(const tc_format *f);
/* value(a) < value(b): -1, equal: 0, greater: 1 (NaN compares unordered: 2). */
int tc_value_cmp(tc_value a, tc_value b);

/* Names of rounding/overflow modes ("rne", "rna", "rz", "ru", "rd", "ro", "rs";
 * "inf", "sat", "nan"); parse functions return false on an unknown name. */
const char *tc_round_name(tc_round m);
bool tc_round_parse(const char *s, tc_round *out);
const char *tc_overflow_name(tc_overflow o);
bool tc_overflow_parse(const char *s, tc_overflow *out);

/* C99 hex-float text of an exact value ("0x1.8p-9", "-0x0p+0", "inf", "nan"). */
void tc_value_to_hex(tc_value v, char *buf, size_t len);

#endif
