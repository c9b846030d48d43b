/* Sweep inputs: reproducible random values per distribution, conversion
 * into the chain's format (directly or through FP32), per-tensor scaling. */
#include <math.h>
#include <string.h>

#include "cases/sweep_internal.h"

const char *sweep_dist_name(sweep_dist d)
{
    switch (d) {
    case SWEEP_NORMAL: return "normal";
    case SWEEP_UNIFORM: return "uniform";
    case SWEEP_LOGUNIFORM: return "loguniform";
    case SWEEP_INTS: return "ints";
    }
    return "?";
}

bool sweep_dist_parse(const char *s, sweep_dist *out)
{
    for (int d = SWEEP_NORMAL; d <= SWEEP_INTS; d++)
        if (!strcmp(s, sweep_dist_name((sweep_dist)d))) {
            *out = (sweep_dist)d;
            return true;
        }
    return false;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void sweep_rng_seed(sweep_rng *r, uint64_t seed, const char *stream)
{
    uint64_t x = seed;
    for (const char *p = stream; *p; p++)   /* FNV-1a of the stream name: one stream per format */
        x = (x ^ (unsigned char)*p) * 0x100000001b3ull;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sweep_rng_next(sweep_rng *r)
{
    /* xoshiro256** */
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

static double unit_open(sweep_rng *r)   /* (0, 1] */
{
    return (double)((sweep_rng_next(r) >> 11) + 1) * 0x1p-53;
}

double sweep_draw(sweep_rng *r, sweep_dist d, int log_range)
{
    switch (d) {
    case SWEEP_NORMAL: {
        double u1 = unit_open(r), u2 = unit_open(r);
        return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
    }
    case SWEEP_UNIFORM:
        return (2 * unit_open(r) - 1) * sqrt(3.0);   /* variance 1 */
    case SWEEP_LOGUNIFORM: {
        double sign = (sweep_rng_next(r) & 1) ? -1 : 1;
        return sign * exp2(log_range * (2 * unit_open(r) - 1));
    }
    case SWEEP_INTS:
        return (double)(int)(sweep_rng_next(r) % 5) - 2;
    }
    return 0;
}

double sweep_variance(sweep_dist d, int log_range)
{
    switch (d) {
    case SWEEP_NORMAL:
    case SWEEP_UNIFORM:
        return 1;
    case SWEEP_LOGUNIFORM: {
        /* E[2^(2u)], u uniform on [-R, R] */
        double R = log_range;
        return R > 0 ? (exp2(2 * R) - exp2(-2 * R)) / (4 * R * M_LN2) : 1;
    }
    case SWEEP_INTS:
        return 2;
    }
    return 1;
}

double sweep_format_max(const tc_format *f)
{
    tc_value v = tc_format_max(f);
    return ldexp((double)v.sig, v.exp);
}

bool sweep_is_fp8(const tc_format *f)
{
    return f->storage_bits == 8 && f->ebits >= 4;
}

tc_rounding sweep_cvt_rounding(const sweep_params *p)
{
    /* FP8 conversions saturate, as cvt.rn.satfinite.e4m3x2/e5m2x2 do (and as FP8
     * training casts do); wider formats overflow to Inf as IEEE says. */
    tc_rounding r = {.mode = p->round, .ovf = sweep_is_fp8(p->fmt) ? TC_OVF_SAT : TC_OVF_INF};
    return r;
}

double sweep_pow2_scale(const tc_format *f, double amax)
{
    if (!(amax > 0) || !isfinite(amax))
        return 1;
    double max = sweep_format_max(f);
    int e;
    double m = frexp(max / amax, &e);   /* max/amax = m * 2^e, m in [0.5, 1) */
    (void)m;
    return ldexp(1.0, e - 1);           /* largest 2^j <= max/amax */
}

double sweep_encode_tensor(const sweep_params *p, const double *x, size_t n, uint64_t *bits)
{
    double amax = 0;
    for (size_t i = 0; i < n; i++) {
        double v = p->from_f32 ? (double)(float)x[i] : x[i];
        if (fabs(v) > amax)
            amax = fabs(v);
    }
    double s = p->pertensor && sweep_is_fp8(p->fmt) ? sweep_pow2_scale(p->fmt, amax) : 1;
    tc_rounding rne = {.mode = TC_RNE, .ovf = sweep_cvt_rounding(p).ovf};
    for (size_t i = 0; i < n; i++) {
        if (p->from_f32)   /* FP32 data, then the selected rounding into the format */
            bits[i] = tc_encode_f64(p->fmt, (double)(float)x[i] * s, sweep_cvt_rounding(p));
        else               /* a value of the format: the nearest one to the sample */
            bits[i] = tc_encode_f64(p->fmt, x[i] * s, rne);
    }
    return s;
}
