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
    uint64_t nan_bits;   /* the NaN NVIDIA's conversions produce (canonical) */
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

typedef enum {
    TC_OVF_INF,   /* IEEE: overflow goes to Inf (or max finite, as the rounding direction says) */
    TC_OVF_SAT,   /* saturate to +-max finite (satfinite); NaN stays NaN */
    TC_OVF_NAN    /* overflow to NaN (E4M3's non-saturating mode) */
} tc_overflow;

typedef struct {
    tc_round mode;
    tc_overflow ovf;
    bool ftz;          /* results below the normal range flush to signed zero */
    uint32_t rbits;    /* random bits for TC_RS: round up when frac + rbits >= 2^32 */
} tc_rounding;

/* Canonical formats; tc_format_by_name also accepts generic "eXmY" names. */
extern const tc_format tc_e4m3, tc_e5m2, tc_f16, tc_bf16, tc_tf32, tc_f32, tc_f64;
extern const tc_format tc_e2m1, tc_e3m2, tc_e2m3, tc_e8m0, tc_s8, tc_u8, tc_s32;

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
 * precision (MPFR, a wide accumulator) round exactly once. */
uint64_t tc_encode(const tc_format *f, tc_value v, bool sticky, tc_rounding r);

/* Fast paths with the same results as tc_encode on the decoded input. */
uint64_t tc_encode_f32(const tc_format *f, float x, tc_rounding r);
uint64_t tc_encode_f64(const tc_format *f, double x, tc_rounding r);
float tc_decode_to_f32(const tc_format *f, uint64_t bits);   /* exact where representable */
double tc_decode_to_f64(const tc_format *f, uint64_t bits);  /* exact for formats <= 53 bits */

/* Names of rounding/overflow modes ("rne", "rna", "rz", "ru", "rd", "ro", "rs";
 * "inf", "sat", "nan"); parse functions return false on an unknown name. */
const char *tc_round_name(tc_round m);
bool tc_round_parse(const char *s, tc_round *out);
const char *tc_overflow_name(tc_overflow o);
bool tc_overflow_parse(const char *s, tc_overflow *out);

/* C99 hex-float text of an exact value ("0x1.8p-9", "-0x0p+0", "inf", "nan"). */
void tc_value_to_hex(tc_value v, char *buf, size_t len);

#endif
