/* tcscope_convert and tcscope_decode: the encoders and decoders of
 * formats/ on arrays, as `tcscope convert` applies them to one value. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_internal.h"

int tcscope_convert(const char *from, const uint64_t *x, size_t n, int daz, const char *to, const char *round,
                    const char *overflow, int ftz, const uint32_t *rbits, uint64_t *out, uint8_t *flags,
                    char *err, size_t errlen)
{
    API_ERR_BUF(err, errlen);
    tc_format fs, ts;
    const tc_format *f = api_format("source format", from, &fs, err, errlen), *t;
    if (!f || !(t = api_format("format", to, &ts, err, errlen)))
        return -1;
    tc_rounding r = {.ftz = ftz != 0, .daz = daz != 0};
    if (!round || !tc_round_parse(round, &r.mode))
        return api_fail(err, errlen, "unknown rounding '%s' (rne, rna, rz, ru, rd, ro, rs)", round ? round : "(null)");
    if (!overflow || !tc_overflow_parse(overflow, &r.ovf))
        return api_fail(err, errlen, "unknown overflow '%s' (inf, sat, nan)", overflow ? overflow : "(null)");
    if (n && (!x || !out))
        return api_fail(err, errlen, "tcscope_convert: x and out are required");
    if (n && r.mode == TC_RS && !rbits)
        return api_fail(err, errlen, "rounding rs needs rbits (one random word per value)");
    if (api_check_bits("x", f, x, NULL, n, err, errlen))
        return -1;
    if (f == &tc_f32 && !flags) { /* the fast path the sweeps use; tests check it equals the one below */
        float *v = (float *)malloc(n ? n * sizeof *v : 1);
        if (!v)
            return api_fail(err, errlen, "out of memory");
        for (size_t i = 0; i < n; i++) {
            uint32_t u = (uint32_t)x[i];
            memcpy(&v[i], &u, sizeof u);
        }
        tc_encode_f32_array(t, v, out, n, r, rbits);
        free(v);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned fl = 0;
        if (rbits)
            r.rbits = rbits[i];
        out[i] = tc_encode_flags(t, tc_decode(f, x[i], r.daz), false, r, &fl);
        if (flags)
            flags[i] = (uint8_t)fl;
    }
    return 0;
}

int tcscope_decode(const char *fmt, const uint64_t *x, size_t n, double *out, char *err, size_t errlen)
{
    API_ERR_BUF(err, errlen);
    tc_format scratch;
    const tc_format *f = api_format("format", fmt, &scratch, err, errlen);
    if (!f)
        return -1;
    if (n && (!x || !out))
        return api_fail(err, errlen, "tcscope_decode: x and out are required");
    if (api_check_bits("x", f, x, NULL, n, err, errlen))
        return -1;
    for (size_t i = 0; i < n; i++)
        out[i] = tc_decode_to_f64(f, x[i]);
    return 0;
}
