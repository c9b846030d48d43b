/* Fixed point wider than int128, for the model's rare wide sums (a step
 * whose terms span more bits than int128 holds, model_core.h; f64's exact
 * steps): n 64-bit limbs, least significant first, two's complement modulo
 * 2^(64n). Host and device (TC_HD), integer operations only, no allocation:
 * the caller owns the limbs (a local array sized for its widest span) and
 * uses only the n it needs. Exact: every operation is the integer one
 * modulo 2^(64n); the caller picks n so that its sums never wrap unless it
 * asks for the wrap (mlimb_wrap). Not a public header. */
#ifndef TC_MODEL_LIMBS_H
#define TC_MODEL_LIMBS_H

#include <stdbool.h>
#include <stdint.h>

#include "oracle/model_hd.h"

typedef unsigned __int128 u128;   /* as model_internal.h's (C11 allows the repeat) */

static inline TC_HD void mlimb_clear(uint64_t *w, int n)
{
    for (int i = 0; i < n; i++)
        w[i] = 0;
}

/* w += (neg ? -1 : 1) * mag * 2^sh, modulo 2^(64n); sh >= 0. */
static inline TC_HD void mlimb_add(uint64_t *w, int n, u128 mag, int sh, bool neg)
{
    int at = sh / 64, b = sh % 64;
    uint64_t lo = (uint64_t)mag, hi = (uint64_t)(mag >> 64);
    uint64_t p[3] = {lo << b, b ? (lo >> (64 - b)) | (hi << b) : hi, b ? hi >> (64 - b) : 0};
    uint64_t carry = 0;   /* the carry, or the borrow when neg */
    for (int i = at; i < n && (i - at < 3 || carry); i++) {
        uint64_t x = i - at < 3 ? p[i - at] : 0;
        uint64_t old = w[i];
        if (neg) {
            uint64_t d = old - x;
            uint64_t r = d - carry;
            carry = (uint64_t)(old < x) + (uint64_t)(d < carry);
            w[i] = r;
        } else {
            uint64_t s = old + x;
            uint64_t r = s + carry;
            carry = (uint64_t)(s < x) + (uint64_t)(r < carry);
            w[i] = r;
        }
    }
}

/* The sign of w (its top bit). */
static inline TC_HD bool mlimb_negative(const uint64_t *w, int n)
{
    return (w[n - 1] >> 63) != 0;
}

/* w <- -w. */
static inline TC_HD void mlimb_negate(uint64_t *w, int n)
{
    uint64_t carry = 1;
    for (int i = 0; i < n; i++) {
        uint64_t r = ~w[i] + carry;
        carry = carry && r == 0;
        w[i] = r;
    }
}

/* w's low `bits` bits (1 <= bits <= 64n) as a signed number of that width,
 * sign-extended: a register of `bits` bits that wraps. */
static inline TC_HD void mlimb_wrap(uint64_t *w, int n, int bits)
{
    int at = (bits - 1) / 64, b = (bits - 1) % 64;   /* the register's sign bit */
    bool neg = (w[at] >> b) & 1;
    uint64_t keep = b == 63 ? ~(uint64_t)0 : ((uint64_t)1 << (b + 1)) - 1;
    w[at] = neg ? w[at] | ~keep : w[at] & keep;
    for (int i = at + 1; i < n; i++)
        w[i] = neg ? ~(uint64_t)0 : 0;
}

/* Significant bits of a non-negative w (0 for 0). */
static inline TC_HD int mlimb_bitlen(const uint64_t *w, int n)
{
    for (int i = n - 1; i >= 0; i--)
        if (w[i])
            return 64 * i + 64 - tc_clz64(w[i]);
    return 0;
}

/* A non-negative w cut to its top `keep` bits (keep <= 128): w >> *sh in
 * *mag, with *sh = max(0, bitlen - keep), and whether a cut bit was set. */
static inline TC_HD u128 mlimb_top(const uint64_t *w, int n, int keep, int *sh, bool *sticky)
{
    int len = mlimb_bitlen(w, n);
    int s = len > keep ? len - keep : 0;
    int at = s / 64, b = s % 64;
    bool cut = false;
    for (int i = 0; i < at; i++)
        cut = cut || w[i] != 0;
    if (b)
        cut = cut || (w[at] & (((uint64_t)1 << b) - 1)) != 0;
    u128 mag = 0;
    for (int i = 0; i < 2; i++) {   /* limbs at.. shifted down by b */
        uint64_t part = at + i < n ? w[at + i] >> b : 0;
        if (b && at + i + 1 < n)
            part |= w[at + i + 1] << (64 - b);
        mag |= (u128)part << (64 * i);
    }
    *sh = s;
    *sticky = cut;
    return mag;
}

#endif
