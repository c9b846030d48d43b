/* Format descriptors, lookup by name, and exact format properties. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format_hd.h"
#include "formats/formats.h"

/* NaN bits: what CUDA's host conversions produce from a float NaN
 * (cuda_fp8.hpp __nv_cvt_float_to_fp8: 0x7F for both; cuda_fp16.hpp and
 * cuda_bf16.hpp: 0x7FFF; cuda_fp4.hpp/cuda_fp6.hpp: +max, having no NaN).
 * TF32's and FP32's are the canonical 0x7FFFFFFF (TF32: its 19 bits). */
#define FMT(n, e, m, b, st, sh, sgn, sp, nan) \
    {.name = n, .ebits = e, .mbits = m, .bias = b, .storage_bits = st, .shift = sh, \
     .has_sign = sgn, .specials = sp, .nan_bits = nan}

const tc_format tc_e4m3 = FMT("e4m3", 4, 3, 7, 8, 0, true, TC_SPECIALS_FN, 0x7F);
const tc_format tc_e5m2 = FMT("e5m2", 5, 2, 15, 8, 0, true, TC_SPECIALS_IEEE, 0x7F);
const tc_format tc_f16 = FMT("f16", 5, 10, 15, 16, 0, true, TC_SPECIALS_IEEE, 0x7FFF);
const tc_format tc_bf16 = FMT("bf16", 8, 7, 127, 16, 0, true, TC_SPECIALS_IEEE, 0x7FFF);
const tc_format tc_tf32 = FMT("tf32", 8, 10, 127, 32, 13, true, TC_SPECIALS_IEEE, 0x7FFFE000);
const tc_format tc_f32 = FMT("f32", 8, 23, 127, 32, 0, true, TC_SPECIALS_IEEE, 0x7FFFFFFF);
const tc_format tc_f64 = FMT("f64", 11, 52, 1023, 64, 0, true, TC_SPECIALS_IEEE,
                             0x7FFFFFFFFFFFFFFFull);
const tc_format tc_e2m1 = FMT("e2m1", 2, 1, 1, 4, 0, true, TC_SPECIALS_NONE, 0x7);
const tc_format tc_e3m2 = FMT("e3m2", 3, 2, 3, 6, 0, true, TC_SPECIALS_NONE, 0x1F);
const tc_format tc_e2m3 = FMT("e2m3", 2, 3, 1, 6, 0, true, TC_SPECIALS_NONE, 0x1F);
const tc_format tc_e8m0 = FMT("e8m0", 8, 0, 127, 8, 0, false, TC_SPECIALS_E8M0, 0xFF);
/* A scale format only (NVFP4's block scale, PTX .ue4m3): E4M3 without its
 * sign, 0x7F NaN; bit 7 of the byte is not read. Not in the format list. */
const tc_format tc_ue4m3 = FMT("ue4m3", 4, 3, 7, 8, 0, false, TC_SPECIALS_FN, 0x7F);
const tc_format tc_s8 = FMT("s8", 0, 7, 0, 8, 0, true, TC_SPECIALS_INT, 0);
const tc_format tc_u8 = FMT("u8", 0, 8, 0, 8, 0, false, TC_SPECIALS_INT, 0);
const tc_format tc_s32 = FMT("s32", 0, 31, 0, 32, 0, true, TC_SPECIALS_INT, 0);

static const tc_format *const all_formats[] = {
    &tc_e4m3, &tc_e5m2, &tc_f16, &tc_bf16, &tc_tf32, &tc_f32, &tc_f64,
    &tc_e2m1, &tc_e3m2, &tc_e2m3, &tc_e8m0, &tc_s8, &tc_u8, &tc_s32,
};

static const struct {
    const char *alias;
    const tc_format *f;
} aliases[] = {
    {"fp8e4m3", &tc_e4m3}, {"fp8_e4m3", &tc_e4m3}, {"e4m3fn", &tc_e4m3},
    {"float8_e4m3fn", &tc_e4m3}, {"fp8e5m2", &tc_e5m2}, {"fp8_e5m2", &tc_e5m2},
    {"float8_e5m2", &tc_e5m2}, {"fp16", &tc_f16}, {"half", &tc_f16},
    {"float16", &tc_f16}, {"bfloat16", &tc_bf16}, {"fp32", &tc_f32},
    {"float", &tc_f32}, {"float32", &tc_f32}, {"fp64", &tc_f64},
    {"double", &tc_f64}, {"float64", &tc_f64}, {"fp4", &tc_e2m1},
    {"fp4e2m1", &tc_e2m1}, {"fp6e3m2", &tc_e3m2}, {"fp6e2m3", &tc_e2m3},
    {"ue8m0", &tc_e8m0}, {"int8", &tc_s8}, {"uint8", &tc_u8}, {"int32", &tc_s32},
};

const tc_format *const *tc_format_list(size_t *count)
{
    *count = sizeof all_formats / sizeof all_formats[0];
    return all_formats;
}

/* "eXmY" (IEEE specials), "eXmYfn" (E4M3-style: no Inf, one NaN) or
 * "eXmYnf" (all codes finite), optionally "_bN" for a bias other than
 * 2^(X-1)-1. X in 1..11, Y in 0..52, X+Y+1 <= 64. */
static const tc_format *generic_format(const char *name, tc_format *scratch)
{
    char *end;
    if (name[0] != 'e' || !isdigit((unsigned char)name[1]))
        return NULL;
    long e = strtol(name + 1, &end, 10);
    if (*end != 'm' || !isdigit((unsigned char)end[1]))
        return NULL;
    long m = strtol(end + 1, &end, 10);
    if (e < 1 || e > 11 || m < 0 || m > 52)
        return NULL;
    tc_specials sp = TC_SPECIALS_IEEE;
    if (!strncmp(end, "fn", 2)) {
        sp = TC_SPECIALS_FN;
        end += 2;
    } else if (!strncmp(end, "nf", 2)) {
        sp = TC_SPECIALS_NONE;
        end += 2;
    }
    long bias = (1L << (e - 1)) - 1;
    if (!strncmp(end, "_b", 2)) {
        char *bend;
        if (!isdigit((unsigned char)end[2]) && end[2] != '-')
            return NULL;
        bias = strtol(end + 2, &bend, 10);
        if (bias < -2000 || bias > 2000)
            return NULL;
        end = bend;
    }
    if (*end != '\0')
        return NULL;
    /* A format whose every code is special is no format. */
    if (sp == TC_SPECIALS_IEEE && e < 2)
        return NULL;
    if (sp == TC_SPECIALS_FN && e + m < 2)
        return NULL;
    *scratch = (tc_format){.name = name, .ebits = (int)e, .mbits = (int)m, .bias = (int)bias,
                           .storage_bits = (int)(1 + e + m), .shift = 0, .has_sign = true,
                           .specials = sp};
    /* The all-ones magnitude: the quiet NaN (IEEE), the one NaN (FN), or,
     * with no NaN, +max as cuda_fp4/fp6 give for a NaN input. */
    scratch->nan_bits = (1ull << (e + m)) - 1;
    return scratch;
}

const tc_format *tc_format_by_name(const char *name, tc_format *scratch)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof all_formats / sizeof all_formats[0]; i++)
        if (!strcmp(name, all_formats[i]->name))
            return all_formats[i];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(name, aliases[i].alias))
            return aliases[i].f;
    return scratch ? generic_format(name, scratch) : NULL;
}

bool tc_format_is_int(const tc_format *f)
{
    return tc_format_is_int_hd(f);
}

int tc_format_precision(const tc_format *f)
{
    return f->mbits + (tc_format_is_int(f) ? 0 : 1);
}

int tc_format_emin(const tc_format *f)
{
    return tc_format_emin_hd(f);
}

int tc_format_emax(const tc_format *f)
{
    return tc_format_emax_hd(f);
}

uint64_t tc_format_mask(const tc_format *f)
{
    int used = f->storage_bits - f->shift;
    uint64_t m = used >= 64 ? ~0ull : (1ull << used) - 1;
    return m << f->shift;
}

tc_value tc_format_max(const tc_format *f)
{
    tc_value v = {.cls = TC_FINITE, .sign = false};
    if (tc_format_is_int(f)) {
        v.sig = (1ull << f->mbits) - 1;
        v.exp = 0;
        return v;
    }
    int p = tc_format_precision(f);
    uint64_t sig = (1ull << p) - 1;
    if (f->specials == TC_SPECIALS_FN)
        sig -= 1;   /* S.1..1.1..1 is NaN */
    if (sig == 0) { /* FN with no fraction bits: the top code is NaN, one below is 2^(emax-1) */
        v.sig = 1;
        v.exp = tc_format_emax(f) - 1;
        return v;
    }
    v.sig = sig;
    v.exp = tc_format_emax(f) - (p - 1);
    return v;
}

tc_value tc_format_min_normal(const tc_format *f)
{
    tc_value v = {.cls = TC_FINITE, .sign = false, .sig = 1, .exp = tc_format_emin(f)};
    return v;
}

tc_value tc_format_min_subnormal(const tc_format *f)
{
    tc_value v = {.cls = TC_FINITE, .sign = false, .sig = 1, .exp = tc_format_emin(f)};
    if (!tc_format_is_int(f) && f->specials != TC_SPECIALS_E8M0)
        v.exp -= f->mbits;
    return v;
}

/* The modes and their names. */
static const char *const round_names[] = {"rne", "rna", "rz", "ru", "rd", "ro", "rs"};
static const char *const ovf_names[] = {"inf", "sat", "nan"};

const char *tc_round_name(tc_round m)
{
    return (unsigned)m < 7 ? round_names[m] : "?";
}

bool tc_round_parse(const char *s, tc_round *out)
{
    static const struct {
        const char *name;
        tc_round m;
    } extra[] = {{"rn", TC_RNE}, {"nearest", TC_RNE}, {"rm", TC_RD}, {"rp", TC_RU},
                 {"odd", TC_RO}, {"stochastic", TC_RS}};
    for (int i = 0; i < 7; i++)
        if (!strcmp(s, round_names[i])) {
            *out = (tc_round)i;
            return true;
        }
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        if (!strcmp(s, extra[i].name)) {
            *out = extra[i].m;
            return true;
        }
    return false;
}

const char *tc_overflow_name(tc_overflow o)
{
    return (unsigned)o < 3 ? ovf_names[o] : "?";
}

bool tc_overflow_parse(const char *s, tc_overflow *out)
{
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, ovf_names[i])) {
            *out = (tc_overflow)i;
            return true;
        }
    if (!strcmp(s, "satfinite")) {
        *out = TC_OVF_SAT;
        return true;
    }
    return false;
}

/* sig * 2^exp as 0x1.hhhp+e: the leading 1 moved to the front, trailing zero
 * nibbles dropped. */
void tc_value_to_hex(tc_value v, char *buf, size_t len)
{
    const char *sgn = v.sign ? "-" : "";
    if (v.cls == TC_NAN) {
        snprintf(buf, len, "nan");
        return;
    }
    if (v.cls == TC_INF) {
        snprintf(buf, len, "%sinf", sgn);
        return;
    }
    if (v.cls == TC_ZERO || v.sig == 0) {
        snprintf(buf, len, "%s0x0p+0", sgn);
        return;
    }
    int n = 64 - __builtin_clzll(v.sig);
    long e = (long)v.exp + n - 1;
    uint64_t frac = v.sig << (64 - n) << 1;   /* bits after the leading 1, left aligned */
    if (n == 64)
        frac = v.sig << 1;
    char digits[17];
    int nd = 0;
    while (frac) {
        digits[nd++] = "0123456789abcdef"[frac >> 60];
        frac <<= 4;
    }
    digits[nd] = '\0';
    snprintf(buf, len, "%s0x1%s%s" "p%+ld", sgn, nd ? "." : "", digits, e);
}

/* Compares |a| and |b| for finite nonzero values exactly. */
static int cmp_mag(tc_value a, tc_value b)
{
    int na = 64 - __builtin_clzll(a.sig), nb = 64 - __builtin_clzll(b.sig);
    long ea = (long)a.exp + na, eb = (long)b.exp + nb;
    if (ea != eb)
        return ea < eb ? -1 : 1;
    /* Same leading exponent: align the significands at the top bit. */
    uint64_t sa = a.sig << (64 - na), sb = b.sig << (64 - nb);
    return sa < sb ? -1 : sa > sb;
}

int tc_value_cmp(tc_value a, tc_value b)
{
    if (a.cls == TC_NAN || b.cls == TC_NAN)
        return 2;
    int sa = a.cls == TC_ZERO ? 0 : (a.sign ? -1 : 1);
    int sb = b.cls == TC_ZERO ? 0 : (b.sign ? -1 : 1);
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (sa == 0)
        return 0;
    int mag;
    if (a.cls == TC_INF || b.cls == TC_INF)
        mag = (a.cls == TC_INF) - (b.cls == TC_INF);
    else
        mag = cmp_mag(a, b);
    return sa > 0 ? mag : -mag;
}
