/* Internal to formats/: the rounding decision shared by the reference
 * encoder and the fast paths, so both round by one definition. */
#ifndef TC_FORMATS_ROUND_H
#define TC_FORMATS_ROUND_H

#include "formats/formats.h"

/* What lies below the last kept bit. */
typedef struct {
    bool half;        /* the first bit below */
    bool rest;        /* any bit further down (sticky included) */
    uint32_t frac32;  /* the first 32 bits below, for TC_RS */
} tc_remainder;

static inline bool tc_rem_inexact(tc_remainder r)
{
    return r.half || r.rest;
}

/* 1 when the magnitude `kept` must go up one ulp (TC_RO is handled by the
 * caller: it sets the last bit instead). */
static inline uint64_t tc_round_up(tc_round m, bool sign, uint64_t kept, tc_remainder r,
                                   uint32_t rbits)
{
    switch (m) {
    case TC_RNE:
        return r.half && (r.rest || (kept & 1));
    case TC_RNA:
        return r.half;
    case TC_RU:
        return !sign && tc_rem_inexact(r);
    case TC_RD:
        return sign && tc_rem_inexact(r);
    case TC_RS:
        return (uint64_t)r.frac32 + rbits >= (1ull << 32);
    default:
        return 0;
    }
}

/* Whether a rounding that overflows goes past max finite (to Inf). */
static inline bool tc_round_away_on_overflow(tc_round m, bool sign)
{
    switch (m) {
    case TC_RNE:
    case TC_RNA:
    case TC_RS:
        return true;
    case TC_RU:
        return !sign;
    case TC_RD:
        return sign;
    default:
        return false;
    }
}

/* Special results, placed in the container (encode.c). */
uint64_t tc_fmt_max_bits(const tc_format *f, bool sign);
uint64_t tc_fmt_overflow_bits(const tc_format *f, bool sign, tc_rounding r);
uint64_t tc_fmt_inf_bits(const tc_format *f, bool sign, tc_rounding r);

#endif
