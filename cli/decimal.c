/* Numbers printed for people: decimal first (the bits and the exact hex
 * float beside it, where the command prints them), so a value reads as 448,
 * not 0x1.cp+8. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "oracle/value.h"

void cli_decimal(const tc_format *f, double x, char *buf, size_t len)
{
    if (isnan(x)) {
        snprintf(buf, len, "nan");
        return;
    }
    if (isinf(x)) {
        snprintf(buf, len, x < 0 ? "-inf" : "inf");
        return;
    }
    /* The fewest significant digits that read back as the same value of f
     * (rounded to nearest into f), as printf's %g writes them: 448,
     * 0.001953125, 3.4028235e+38 for f32's largest. */
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    uint64_t want = f ? tc_encode_f64(f, x, rne) : 0;
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, x);
        double y = strtod(buf, NULL);
        if (f ? tc_encode_f64(f, y, rne) == want : y == x)
            return;
    }
}

/* Significant digits of a decimal ("0.00006103515625": 10; "5.96e-8": 3). */
static int sig_digits(const char *s)
{
    int n = 0;
    bool lead = true;
    for (; *s && *s != 'e' && *s != 'E'; s++) {
        if (*s < '0' || *s > '9')
            continue;
        if (*s != '0')
            lead = false;
        if (!lead)
            n++;
    }
    return n;
}

void cli_value_decimal(const tc_format *f, tc_value v, char *buf, size_t len)
{
    /* exact when that is short (448, 0.001953125, 5.9604644775390625e-8), else the shortest */
    char exact[2048];
    if (v.cls != TC_NAN && v.cls != TC_INF && tc_value_to_decimal(v, exact, sizeof exact) && sig_digits(exact) <= 17) {
        snprintf(buf, len, "%s", exact);
        return;
    }
    double d = v.cls == TC_NAN ? NAN : v.cls == TC_INF ? INFINITY : v.cls == TC_ZERO ? 0 : ldexp((double)v.sig, v.exp);
    cli_decimal(f, v.sign ? -d : d, buf, len);
}
