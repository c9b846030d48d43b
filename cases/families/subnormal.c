/* Family "subnormal": what becomes of values below the normal range at each
 * stage: A and B on input, the products, C, the output. A tensor core may
 * flush each of them independently (model_params ftz_a, ftz_b, ftz_c,
 * prod_flush_exp, ftz_out), and an FP8 path that widens to F16 flushes at
 * F16's range rather than FP8's.
 * Both users: the case files ask one case per stage, with "kept" and
 * "flushed" outcomes; the inference scans several subnormal significands,
 * exponents of the other factor, C beside them, and product exponents
 * around the bottom of D's normal range. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static int gen_subnormal(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    fam_builder b;
    int n = 0;
    /* A (then B) at its smallest subnormal, times the power of two that lifts
     * the product into D's normal range, so D's own flushing cannot hide it. */
    for (int side = 0; side < 2; side++) {
        const tc_format *fs = side ? t->b : t->a, *fo = side ? t->a : t->b;
        if (fs->mbits == 0)
            continue;
        int es = tc_format_emin(fs) - fs->mbits;
        int eo = fam_imin(fam_imax(0, x.emin_d - es), tc_format_emax(fo));
        fb_init(&b, t, side ? "subnormal.b_input" : "subnormal.a_input", "subnormal-inputs", -1,
                "%s's smallest subnormal 0x1p%d times 0x1p%d: kept as a value, or flushed to zero",
                side ? "B" : "A", es, eo);
        char ts[64], to[64];
        tc_gen_hex(1, es, ts, sizeof ts);
        tc_gen_hex(1, eo, to, sizeof to);
        if (!fam_fits(t->d, 1, es + eo, false))
            b.bad = true;
        fb_pair_text(&b, side ? to : ts, side ? ts : to);
        fb_expect(&b, TC_OUT_EXACT);
        fb_alt_exact(&b, TC_RNE, side ? "subnormal B used" : "subnormal A used");
        fb_alt_text(&b, "0", side ? "subnormal B flushed to zero" : "subnormal A flushed to zero");
        n += fb_push(&b, out);
    }
    /* C at its smallest subnormal, every product zero. */
    int ec = x.emin_c - t->c->mbits;
    fb_init(&b, t, "subnormal.c_input", "subnormal-c", -1,
            "C at its smallest subnormal 0x1p%d with zero products: passed through, or flushed", ec);
    fb_pair_text(&b, "0", "0");
    fb_c(&b, 1, ec);
    if (!fam_fits(t->d, 1, ec, false))
        b.bad = true;
    fb_expect(&b, TC_OUT_EXACT);
    fb_alt_exact(&b, TC_RNE, "subnormal C used");
    fb_alt_text(&b, "0", "subnormal C flushed to zero");
    n += fb_push(&b, out);
    /* A product of normals below D's normal range (left out when the inputs
     * cannot reach it, e.g. f16 products in f32). */
    fb_init(&b, t, "subnormal.product", "subnormal-outputs", -1,
            "a product of two normals equal to 0x1p%d, subnormal in D: kept or flushed",
            x.emin_d - 1);
    fb_prod(&b, 1, x.emin_d - 1);
    fb_expect(&b, TC_OUT_EXACT);
    fb_alt_exact(&b, TC_RNE, "subnormal result kept");
    fb_alt_text(&b, "0", "subnormal result flushed to zero");
    n += fb_push(&b, out);
    fb_init(&b, t, "subnormal.product_pair", "subnormal-products", -1,
            "two products 0x1p%d each (subnormal in D) summing to D's smallest normal: "
            "products below D's normal range kept or flushed",
            x.emin_d - 1);
    fb_prod(&b, 1, x.emin_d - 1);
    fb_prod(&b, 1, x.emin_d - 1);
    fb_expect(&b, TC_OUT_EXACT);
    fb_alt_exact(&b, TC_RNE, "products in D's subnormal range kept");
    fb_alt_text(&b, "0", "products in D's subnormal range flushed");
    n += fb_push(&b, out);
    /* A product below A's normal range (Fasi et al.'s "binary16 subnormal
     * in binary32 mode"): A's smallest normal times 1/2. */
    int ea = tc_format_emin(t->a);
    fb_init(&b, t, "subnormal.product_below_input", "subnormal-products", -1,
            "A's smallest normal 0x1p%d times 0x1p-1: a product below A's normal range, normal in D",
            ea);
    {
        char ta[64];
        tc_gen_hex(1, ea, ta, sizeof ta);
        if (!fam_fits(t->b, 1, -1, true) || !fam_fits(t->d, 1, ea - 1, false))
            b.bad = true;
        fb_pair_text(&b, ta, "0x1p-1");
    }
    fb_expect(&b, TC_OUT_EXACT);
    fb_alt_exact(&b, TC_RNE, "product below the input format's normal range kept");
    fb_alt_text(&b, "0", "product below the input format's normal range flushed");
    n += fb_push(&b, out);
    /* Normal C minus a normal product leaving D's smallest subnormal. */
    fb_init(&b, t, "subnormal.output_cancel", "subnormal-outputs", -1,
            "C = 0x1p%d + 1 ulp minus the product 0x1p%d: the result is D's smallest subnormal",
            x.emin_d, x.emin_d);
    fb_prod(&b, -1, x.emin_d);
    fb_c(&b, (1ll << (x.pd - 1)) + 1, x.emin_d - x.pd + 1);
    fb_expect(&b, TC_OUT_EXACT);
    fb_alt_exact(&b, TC_RNE, "subnormal output produced");
    fb_alt_text(&b, "0", "subnormal output flushed to zero");
    n += fb_push(&b, out);
    return n;
}

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

/* Subnormal inputs, products, C and outputs; product flush thresholds. */
static int fam_subnormal(cset *s, const infer_target *t)
{
    const oracle_formats *f = &t->f;
    int rc = 0, k = t->k;
    uint64_t za = tc_encode_f64(f->a, 0.0, rne), zb = tc_encode_f64(f->b, 0.0, rne);
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    /* subnormal A (and B) times powers of two of the other */
    for (int w = 0; w < 2; w++) {
        const tc_format *fs = w ? f->b : f->a, *fo = w ? f->a : f->b;
        if (fs->mbits == 0)
            continue;
        uint64_t sub[3] = {1, 3, (1ull << fs->mbits) - 1};
        for (int si = 0; si < 3; si++)
            for (int e = 0; e <= tc_format_emax(fo); e += (tc_format_emax(fo) + 3) / 4) {
                for (int j = 0; j < k; j++) {
                    a[j] = za;
                    b[j] = zb;
                }
                uint64_t x = sub[si] << fs->shift, y;
                if (!infer_enc(fo, ldexp(1.0, e), &y))
                    continue;
                a[0] = w ? y : x;
                b[0] = w ? x : y;
                rc |= cset_add_bits(s, "subnormal", k, a, b, tc_encode_f64(f->c, 0.0, rne));
                /* with C = 1 beside it (the subnormal then matters only in the sum) */
                rc |= cset_add_bits(s, "subnormal", k, a, b, tc_encode_f64(f->c, 1.0, rne));
            }
    }
    /* C subnormal, alone and with a small product */
    uint64_t csub[2] = {1, (1ull << f->c->mbits) - 1};
    for (int i = 0; i < 2; i++) {
        for (int j = 0; j < k; j++) {
            a[j] = za;
            b[j] = zb;
        }
        rc |= cset_add_bits(s, "subnormal", k, a, b, csub[i] << f->c->shift);
        double p = ldexp(1.0, tc_format_emin(f->c));
        if (infer_split(f, p, &a[0], &b[0]))
            rc |= cset_add_bits(s, "subnormal", k, a, b, csub[i] << f->c->shift);
    }
    /* products 2^e around the C and D normal ranges' bottoms, alone and beside C */
    int pd = fam_prec(f->d);
    int lo = tc_format_emin(f->d) - pd - 4, hi = tc_format_emin(f->d) + 6;
    int lo2 = tc_format_emin(f->a) + tc_format_emin(f->b) - f->a->mbits - f->b->mbits;
    if (lo < lo2)
        lo = lo2;
    for (int e = lo; e <= hi; e++)
        for (int with_c = 0; with_c < 3; with_c++) {
            double term[2] = {ldexp(1.5, e), ldexp(1.0, e)};
            double c = with_c == 1 ? ldexp(1.0, e + 4) : with_c == 2 ? ldexp(-1.0, e + pd - 2) : 0;
            rc |= fam_add_terms(s, t, "subnormal", with_c == 2 ? 2 : 1, term, NULL, c) < 0;
        }
    return rc;
}

const tc_family tc_family_subnormal = {"subnormal", gen_subnormal, fam_subnormal};
