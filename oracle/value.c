/* The CLI value notation (see value.h): syntax checked here so every error
 * names its problem; decimals read by MPFR, hex floats read exactly here. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mpfr.h>

#include "oracle/value.h"

static bool fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && len)
        vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return false;
}

/* Exponents beyond this are refused: every format here lives far inside. */
#define EXP_LIMIT 100000000L

/* Reads [+-]digits after an exponent marker; *e receives the value. */
static bool read_exponent(const char *s, const char **end, long *e)
{
    int sgn = 1;
    if (*s == '+' || *s == '-')
        sgn = *s++ == '-' ? -1 : 1;
    if (!isdigit((unsigned char)*s))
        return false;
    long v = 0;
    while (isdigit((unsigned char)*s)) {
        if (v < EXP_LIMIT * 10)
            v = v * 10 + (*s - '0');
        s++;
    }
    *e = sgn * v;
    *end = s;
    return true;
}

static bool parse_hex(const char *text, const char *s, bool neg, tc_parsed_value *out, char *err,
                      size_t len)
{
    uint64_t sig = 0;
    long exp = 0;      /* binary exponent of sig's last bit */
    bool sticky = false, any = false, dot = false;
    for (;; s++) {
        int d;
        if (*s == '.') {
            if (dot)
                return fail(err, len, "bad hex float '%s': two points", text);
            dot = true;
            continue;
        }
        if (!isxdigit((unsigned char)*s))
            break;
        any = true;
        d = isdigit((unsigned char)*s) ? *s - '0' : (tolower((unsigned char)*s) - 'a' + 10);
        if (sig >> 60) {
            /* No room: the digit lies below the kept bits. */
            sticky |= d != 0;
            if (!dot)
                exp += 4;
        } else {
            sig = sig << 4 | (uint64_t)d;
            if (dot)
                exp -= 4;
        }
    }
    if (!any)
        return fail(err, len, "bad hex float '%s': no hex digits", text);
    if (!*s)
        return fail(err, len, "bad hex float '%s': missing 'p' exponent", text);
    if (*s != 'p' && *s != 'P')
        return fail(err, len, "bad hex float '%s': unexpected character '%c'", text, *s);
    long e;
    const char *end;
    if (!read_exponent(s + 1, &end, &e))
        return fail(err, len, "bad hex float '%s': missing exponent digits", text);
    if (*end)
        return fail(err, len, "bad hex float '%s': unexpected character '%c'", text, *end);
    /* The value's exponent, digits included: "0x0.<10^9 zeros>1p0" has a
     * small 'p' but a scale that an int32 exponent cannot hold. */
    if (e > EXP_LIMIT || e < -EXP_LIMIT || (sig && (exp + e > EXP_LIMIT || exp + e < -EXP_LIMIT)))
        return fail(err, len, "bad hex float '%s': exponent out of range", text);
    out->is_bits = false;
    out->sticky = sticky;   /* digits past 60 bits: kept as sticky, rounded once later */
    out->v.sign = neg;
    if (sig == 0) {
        out->v.cls = TC_ZERO;
        out->v.sig = 0;
        out->v.exp = 0;
    } else {
        out->v.cls = TC_FINITE;
        out->v.sig = sig;
        out->v.exp = (int32_t)(exp + e);
    }
    return true;
}

/* Checks the decimal grammar [digits][.digits][(e|E)[+-]digits] so that
 * MPFR is only handed text it reads completely. */
static bool check_decimal(const char *text, const char *s, char *err, size_t len)
{
    bool any = false;
    while (isdigit((unsigned char)*s))
        s++, any = true;
    if (*s == '.') {
        s++;
        while (isdigit((unsigned char)*s))
            s++, any = true;
    }
    if (!any)
        return fail(err, len, "bad value '%s': not a number (decimal, 0x hex float, inf, nan "
                              "or bits:0x..)", text);
    if (*s == 'e' || *s == 'E') {
        long e;
        const char *end;
        if (!read_exponent(s + 1, &end, &e))
            return fail(err, len, "bad decimal '%s': missing exponent digits", text);
        if (e > EXP_LIMIT || e < -EXP_LIMIT)
            return fail(err, len, "bad decimal '%s': exponent out of range", text);
        s = end;
    }
    if (*s)
        return fail(err, len, "bad decimal '%s': unexpected character '%c'", text, *s);
    return true;
}

static bool parse_decimal(const char *text, const char *s, bool neg, tc_parsed_value *out,
                          char *err, size_t len)
{
    if (!check_decimal(text, s, err, len))
        return false;
    mpfr_t x;
    mpfr_init2(x, 64);
    char *end;
    mpfr_clear_flags();
    /* Toward zero: x is the truncation; inexact means bits remain below. */
    int inex = mpfr_strtofr(x, s, &end, 10, MPFR_RNDZ);
    bool range = mpfr_overflow_p() || mpfr_underflow_p();
    if (*end || range) {
        mpfr_clear(x);
        return fail(err, len, "bad decimal '%s': %s", text,
                    range ? "out of range" : "not read completely");
    }
    out->is_bits = false;
    out->sticky = inex != 0;
    out->v.sign = neg;
    if (mpfr_zero_p(x)) {
        out->v.cls = TC_ZERO;
        out->v.sig = 0;
        out->v.exp = 0;
    } else {
        mpz_t z;
        mpz_init(z);
        mpfr_exp_t e = mpfr_get_z_2exp(z, x);
        out->v.cls = TC_FINITE;
        out->v.sig = mpz_get_ui(z);   /* x >= 0 here: the sign was taken off */
        out->v.exp = (int32_t)e;
        mpz_clear(z);
    }
    mpfr_clear(x);
    return true;
}

static bool parse_bits(const char *text, const char *s, const tc_format *f, tc_parsed_value *out,
                       char *err, size_t len)
{
    if (!f)
        return fail(err, len, "bad value '%s': raw bits need a format", text);
    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2]))
        return fail(err, len, "bad bits '%s': expected bits:0x followed by hex digits", text);
    uint64_t v = 0;
    const char *p = s + 2;
    for (; isxdigit((unsigned char)*p); p++) {
        if (v >> 60)
            return fail(err, len, "bad bits '%s': wider than 64 bits", text);
        int d = isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10);
        v = v << 4 | (uint64_t)d;
    }
    if (*p)
        return fail(err, len, "bad bits '%s': unexpected character '%c'", text, *p);
    uint64_t mask = f->storage_bits >= 64 ? ~0ull : (1ull << f->storage_bits) - 1;
    if (v & ~mask)
        return fail(err, len, "bad bits '%s': wider than %s's %d bits", text, f->name,
                    f->storage_bits);
    if (v & ~tc_format_mask(f))
        return fail(err, len, "bad bits '%s': %s leaves its low %d bits unused (must be 0)",
                    text, f->name, f->shift);
    out->is_bits = true;
    out->bits = v;
    out->v = tc_decode(f, v, false);
    out->sticky = false;
    return true;
}

/* Messages quote the text, shortened so the reason after it survives a
 * message buffer (a value may be megabytes of digits). */
static void shorten(const char *text, char *buf, size_t len)
{
    size_t tl = strlen(text);
    snprintf(buf, len, "%.*s%s", tl > 64 ? 56 : (int)tl, text, tl > 64 ? "...(long)" : "");
}

bool tc_value_parse(const char *text, const tc_format *f, tc_parsed_value *out, char *err,
                    size_t errlen)
{
    if (!text || !*text)
        return fail(err, errlen, "bad value '': empty");
    char shown[72];
    shorten(text, shown, sizeof shown);
    if (!strncmp(text, "bits:", 5))
        return parse_bits(shown, text + 5, f, out, err, errlen);
    const char *s = text;
    bool neg = false;
    if (*s == '+' || *s == '-')
        neg = *s++ == '-';
    memset(out, 0, sizeof *out);
    if (!strcasecmp(s, "inf") || !strcasecmp(s, "infinity")) {
        out->v.cls = TC_INF;
        out->v.sign = neg;
        return true;
    }
    if (!strcasecmp(s, "nan")) {
        out->v.cls = TC_NAN;
        out->v.sign = neg;
        return true;
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return parse_hex(shown, s + 2, neg, out, err, errlen);
    return parse_decimal(shown, s, neg, out, err, errlen);
}

bool tc_value_parse_to_bits(const char *text, const tc_format *f, tc_rounding r, uint64_t *bits,
                            char *err, size_t errlen)
{
    tc_parsed_value p;
    if (!tc_value_parse(text, f, &p, err, errlen))
        return false;
    *bits = p.is_bits ? p.bits : tc_encode(f, p.v, p.sticky, r);
    return true;
}

bool tc_value_to_decimal(tc_value v, char *buf, size_t len)
{
    const char *sgn = v.sign ? "-" : "";
    if (v.cls == TC_NAN)
        return snprintf(buf, len, "nan") < (int)len;
    if (v.cls == TC_INF)
        return snprintf(buf, len, "%sinf", sgn) < (int)len;
    if (v.cls == TC_ZERO || v.sig == 0)
        return snprintf(buf, len, "%s0", sgn) < (int)len;
    /* sig * 2^exp = sig * 5^-exp / 10^-exp: an integer of digits and a
     * power of ten, exact. */
    mpz_t z;
    mpz_init(z);
    mpz_set_ui(z, v.sig);
    long pow10 = 0;
    if (v.exp >= 0) {
        mpz_mul_2exp(z, z, (mp_bitcnt_t)v.exp);
    } else {
        mpz_t f;
        mpz_init(f);
        mpz_ui_pow_ui(f, 5, (unsigned long)-(long)v.exp);
        mpz_mul(z, z, f);
        mpz_clear(f);
        pow10 = v.exp;
    }
    char *d = mpz_get_str(NULL, 10, z);
    mpz_clear(z);
    size_t nd = strlen(d);
    while (nd > 1 && d[nd - 1] == '0') {   /* trailing zeros into the exponent */
        d[--nd] = '\0';
        pow10++;
    }
    long e10 = pow10 + (long)nd - 1;   /* exponent of the leading digit */
    int n;
    if (e10 >= -6 && e10 <= 20) {
        if (pow10 >= 0)
            n = snprintf(buf, len, "%s%s%0*d", sgn, d, (int)pow10, 0);
        else if (e10 >= 0)
            n = snprintf(buf, len, "%s%.*s.%s", sgn, (int)(e10 + 1), d, d + e10 + 1);
        else
            n = snprintf(buf, len, "%s0.%0*d%s", sgn, (int)(-e10 - 1), 0, d);
        /* "%0*d" with width 0 still prints "0": undo that case */
        if (pow10 == 0 || e10 == -1) {
            if (pow10 == 0)
                n = snprintf(buf, len, "%s%s", sgn, d);
            else
                n = snprintf(buf, len, "%s0.%s", sgn, d);
        }
    } else {
        n = snprintf(buf, len, "%s%c%s%se%+ld", sgn, d[0], nd > 1 ? "." : "", d + 1, e10);
    }
    free(d);
    return n >= 0 && (size_t)n < len;
}

static bool same_value(tc_value x, tc_value y)
{
    if (x.cls != y.cls)
        return false;
    if (x.cls == TC_NAN)
        return true;
    if (x.sign != y.sign)
        return false;
    return x.cls != TC_FINITE || tc_value_cmp(x, y) == 0;
}

bool tc_value_parse_exact(const char *text, const tc_format *f, uint64_t *bits, char *err,
                          size_t errlen)
{
    tc_parsed_value pv;
    if (!tc_value_parse(text, f, &pv, err, errlen))
        return false;
    if (pv.is_bits) {
        *bits = pv.bits;
        return true;
    }
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    uint64_t enc = tc_encode(f, pv.v, pv.sticky, r);
    tc_value back = tc_decode(f, enc, false);
    /* the class too: a NaN that an integer format turns into 0 is not held */
    if (pv.sticky || !same_value(back, pv.v)) {
        char near[64], shown[72];
        tc_value_to_hex(back, near, sizeof near);
        shorten(text, shown, sizeof shown);
        return fail(err, errlen, "'%s' is not representable in %s (nearest %s)", shown, f->name, near);
    }
    *bits = enc;
    return true;
}
