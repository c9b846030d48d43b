/* exact value -> bits, rounded once. The reference encoder: every fast path
 * (encode_fast.c) must give the same bits, and the tests prove it. */
#include "formats/formats.h"
#include "formats/round.h"

/* Where the value lands on the format's grid: kept * 2^q, with the
 * remainder described by its top bit, the OR of the rest, and its first 32
 * bits (for stochastic rounding). */
typedef struct {
    uint64_t kept;
    int64_t q;
    tc_remainder rem;
} grid_pos;

/* sig * 2^exp (+ sticky below) cut at 2^q. */
static grid_pos cut_at(uint64_t sig, int64_t exp, bool sticky, int64_t q)
{
    grid_pos g = {.kept = 0, .q = q, .rem = {false, false, 0}};
    int64_t shift = q - exp;
    if (shift <= 0) {
        /* The cut lies at or below the last given bit: the remainder is only
         * the sticky part, below half an ulp by the contract of tc_encode. */
        g.kept = sig << -shift;
        g.rem.rest = sticky;
        return g;
    }
    if (shift > 127) {
        g.rem.rest = true;   /* sig != 0 lies far below half an ulp */
        return g;
    }
    unsigned __int128 s = sig;
    unsigned sh = (unsigned)shift;
    unsigned __int128 r = sh >= 128 ? s : s & ((((unsigned __int128)1) << sh) - 1);
    g.kept = sh >= 64 ? 0 : sig >> sh;
    unsigned __int128 half = ((unsigned __int128)1) << (sh - 1);
    g.rem.half = r >= half;
    g.rem.rest = (r & (half - 1)) != 0 || sticky;
    g.rem.frac32 = (uint32_t)(sh <= 32 ? r << (32 - sh) : r >> (sh - 32));
    return g;
}

static uint64_t sign_bit(const tc_format *f, bool sign)
{
    return f->has_sign && sign ? 1ull << (f->ebits + f->mbits) : 0;
}

static uint64_t place(const tc_format *f, uint64_t b)
{
    return b << f->shift;
}

/* The largest finite magnitude as a code (without sign). */
static uint64_t max_code(const tc_format *f)
{
    uint64_t allones = (1ull << (f->ebits + f->mbits)) - 1;
    switch (f->specials) {
    case TC_SPECIALS_IEEE:
        return allones - (1ull << f->mbits);       /* exponent top-1, fraction all ones */
    case TC_SPECIALS_FN:
        return allones - 1;
    case TC_SPECIALS_E8M0:
        return allones - 1;
    default:
        return allones;
    }
}

uint64_t tc_fmt_max_bits(const tc_format *f, bool sign)
{
    return place(f, sign_bit(f, sign) | max_code(f));
}

/* The result for a value that overflowed (tc_overflow's table). */
uint64_t tc_fmt_overflow_bits(const tc_format *f, bool sign, tc_rounding r)
{
    if (f->specials == TC_SPECIALS_NONE || r.ovf == TC_OVF_SAT)
        return tc_fmt_max_bits(f, sign);
    if (f->specials == TC_SPECIALS_E8M0)
        return f->nan_bits;
    if (r.ovf == TC_OVF_NAN)
        return place(f, sign_bit(f, sign)) | f->nan_bits;
    return tc_round_away_on_overflow(r.mode, sign) ? tc_fmt_inf_bits(f, sign, r)
                                                    : tc_fmt_max_bits(f, sign);
}

/* The result for an Inf input: Inf, or a format's stand-in for it. */
uint64_t tc_fmt_inf_bits(const tc_format *f, bool sign, tc_rounding r)
{
    if (f->specials == TC_SPECIALS_NONE || r.ovf == TC_OVF_SAT)
        return tc_fmt_max_bits(f, sign);
    if (f->specials == TC_SPECIALS_IEEE) {
        uint64_t inf = ((1ull << f->ebits) - 1) << f->mbits;
        return place(f, sign_bit(f, sign) | inf);
    }
    if (f->specials == TC_SPECIALS_E8M0)
        return f->nan_bits;
    return place(f, sign_bit(f, sign)) | f->nan_bits;   /* FN: S.1..1.1..1 */
}

/* *overflow: the rounded finite value lies beyond the format's range. */
static uint64_t encode_int(const tc_format *f, tc_value v, bool sticky, tc_rounding r, bool *overflow)
{
    int w = f->storage_bits;
    uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
    uint64_t maxpos = (1ull << f->mbits) - 1;
    uint64_t maxneg = f->has_sign ? 1ull << f->mbits : 0;   /* |most negative| */
    uint64_t mag;
    bool sign = v.sign;
    switch (v.cls) {
    case TC_NAN:
    case TC_ZERO:
        return 0;
    case TC_INF:
        mag = UINT64_MAX;
        break;
    default: {
        int n = 64 - __builtin_clzll(v.sig);
        if ((int64_t)v.exp + n > 64) {
            mag = UINT64_MAX;
            break;
        }
        grid_pos g = cut_at(v.sig, v.exp, sticky, 0);
        mag = g.kept + tc_round_up(r.mode, sign, g.kept, g.rem, r.rbits);
        if (r.mode == TC_RO && tc_rem_inexact(g.rem))
            mag = g.kept | 1;
        if (mag < g.kept)
            mag = UINT64_MAX;
    }
    }
    *overflow = v.cls == TC_FINITE && mag > (sign ? maxneg : maxpos);
    if (sign) {
        if (mag > maxneg)
            mag = maxneg;
        return (~mag + 1) & mask;
    }
    return (mag > maxpos ? maxpos : mag) & mask;
}

static uint64_t encode(const tc_format *f, tc_value v, bool sticky, tc_rounding r, bool *overflow)
{
    *overflow = false;
    if (f->specials == TC_SPECIALS_INT)
        return encode_int(f, v, sticky, r, overflow);
    bool e8m0 = f->specials == TC_SPECIALS_E8M0;
    bool sign = f->has_sign && v.sign;
    switch (v.cls) {
    case TC_NAN:
        return f->nan_bits;
    case TC_INF:
        return tc_fmt_inf_bits(f, sign, r);
    case TC_ZERO:
        return e8m0 ? 0 : place(f, sign_bit(f, sign));
    default:
        break;
    }
    if (v.sig == 0)
        return e8m0 ? 0 : place(f, sign_bit(f, sign));

    int p = tc_format_precision(f);
    int64_t emin = tc_format_emin(f), emax = tc_format_emax(f);
    int n = 64 - __builtin_clzll(v.sig);
    int64_t e = (int64_t)v.exp + n - 1;
    int64_t q = (e > emin ? e : emin) - (p - 1);
    grid_pos g = cut_at(v.sig, v.exp, sticky, q);
    uint64_t kept = g.kept;
    if (r.mode == TC_RO) {
        if (tc_rem_inexact(g.rem))
            kept |= 1;
    } else {
        kept += tc_round_up(r.mode, sign, kept, g.rem, r.rbits);
    }
    uint64_t lead = 1ull << (p - 1);
    if (kept == lead << 1) {
        kept = lead;
        q++;
    }
    if (e8m0 && kept == 0)
        return 0;   /* below 2^-127: no zero, the smallest code */
    if (kept == 0)
        return place(f, sign_bit(f, sign));
    bool normal = kept >= lead;
    if (!normal && r.ftz)
        return place(f, sign_bit(f, sign));
    int64_t eres = q + (p - 1);
    if ((*overflow = normal && eres > emax))
        return tc_fmt_overflow_bits(f, sign, r);
    uint64_t code;
    if (normal) {
        code = ((uint64_t)(eres - emin + (e8m0 ? 0 : 1)) << f->mbits) | (kept - lead);
    } else {
        code = kept;
    }
    if ((*overflow = code > max_code(f)))
        return tc_fmt_overflow_bits(f, sign, r);
    return place(f, sign_bit(f, sign) | code);
}

uint64_t tc_encode(const tc_format *f, tc_value v, bool sticky, tc_rounding r)
{
    bool overflow;
    return encode(f, v, sticky, r, &overflow);
}

/* Inexact and saturated are read off the result against the input, so they
 * hold whatever path the encoder took; only overflow needs the encoder. */
uint64_t tc_encode_flags(const tc_format *f, tc_value v, bool sticky, tc_rounding r, unsigned *flags)
{
    bool overflow;
    uint64_t bits = encode(f, v, sticky, r, &overflow);
    tc_value out = tc_decode(f, bits, false);
    *flags = 0;
    if (overflow)
        *flags |= TC_FLAG_OVERFLOW;
    if ((overflow || v.cls == TC_INF) && (out.cls == TC_FINITE || out.cls == TC_ZERO))
        *flags |= TC_FLAG_SATURATED;
    if (v.cls != TC_NAN && (sticky || tc_value_cmp(out, v) != 0))
        *flags |= TC_FLAG_INEXACT;
    return bits;
}
