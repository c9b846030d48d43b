/* Family "convert": TF32 operands given as F32 bit patterns with bits below
 * TF32's precision (under, at and over half of TF32's ulp, odd and even):
 * are the inputs consumed as given, or cut or rounded to TF32 first
 * (model_params cvt_a, cvt_b)?
 * Inference only: a case file writes values, which cannot carry bits below
 * the format. */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

/* TF32 operands: bits below the format, at, below and above half. */
static int fam_convert(cset *s, const infer_target *t)
{
    int rc = 0, k = t->k;
    static const uint32_t low[] = {0x1000, 0x1001, 0x0FFF, 0x1FFF, 0x0001};
    for (int w = 0; w < 2; w++) {
        const tc_format *f = w ? t->f.b : t->f.a;
        if (f->shift == 0)
            continue;
        for (size_t i = 0; i < sizeof low / sizeof low[0]; i++)
            for (int odd = 0; odd < 2; odd++)
                for (int neg = 0; neg < 2; neg++) {
                    uint64_t a[INFER_KMAX], b[INFER_KMAX];
                    uint64_t za = tc_encode_f64(t->f.a, 0.0, rne), zb = tc_encode_f64(t->f.b, 0.0, rne);
                    for (int j = 0; j < k; j++) {
                        a[j] = za;
                        b[j] = zb;
                    }
                    uint64_t x = 0x3F800000u | (odd ? 0x2000u : 0) | low[i] | (neg ? 0x80000000u : 0);
                    a[0] = w ? tc_encode_f64(t->f.a, 1.0, rne) : x;
                    b[0] = w ? x : tc_encode_f64(t->f.b, 1.0, rne);
                    rc |= cset_add_bits(s, "convert", k, a, b, tc_encode_f64(t->f.c, 0.0, rne));
                }
    }
    return rc;
}

const tc_family tc_family_convert = {"convert", NULL, fam_convert};
