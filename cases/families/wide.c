/* Family "wide": spans of 20 to 140 bits between the largest term (C, or a
 * large product) and a product near the bottom of the product range, and
 * output ties broken by a tiny C far below (sticky bits). Tells a wide
 * alignment from an exact one (model_params align_bits), which the "align"
 * scan (a few bits past the output's precision) cannot.
 * Inference only: its cases are named "align" in the fit. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

/* Wide spans: the largest term C (any exponent of C's range) or a large
 * product, the small one a product near the bottom of the product range,
 * j bits apart for j up to ~140: tells wide alignment from exact. */
static int fam_wide(cset *s, const infer_target *t)
{
    int rc = 0;
    const oracle_formats *f = &t->f;
    int pmin = tc_format_emin(f->a) + tc_format_emin(f->b);   /* smallest normal product exponent */
    int pmax = tc_format_emax(f->a) + tc_format_emax(f->b);
    int cmax = tc_format_emax(f->c);
    for (int j = 20; j <= 140; j += (j < 70 ? 1 : 3)) {
        int lo = pmin + 2;
        double small[2] = {ldexp(1.0, lo), ldexp(1.0, lo)}, nsmall[1] = {-ldexp(1.0, lo)};
        if (lo + j <= cmax) {
            rc |= fam_add_terms(s, t, "align", 1, small, NULL, ldexp(1.0, lo + j)) < 0;
            rc |= fam_add_terms(s, t, "align", 2, small, NULL, ldexp(1.0, lo + j)) < 0;
            rc |= fam_add_terms(s, t, "align", 1, nsmall, NULL, ldexp(1.0, lo + j)) < 0;
        }
        if (lo + j <= pmax - 1) {
            double two[3] = {ldexp(1.0, lo + j), ldexp(1.0, lo), ldexp(1.0, lo)};
            rc |= fam_add_terms(s, t, "align", 3 <= t->k ? 3 : 2, two, NULL, 0) < 0;
        }
    }
    /* ties of the output broken by a tiny C far below: sticky bits decide */
    int pd = fam_prec(f->d);
    for (int j = pd + 2; j <= 160; j += (j < 80 ? 1 : 2))
        for (int sg = -1; sg <= 1; sg += 2) {
            double tie[2] = {1, ldexp(1.0, -pd)};
            rc |= fam_add_terms(s, t, "align", 2, tie, NULL, sg * ldexp(1.0, -j)) < 0;
            double tie3[2] = {1, 3 * ldexp(1.0, -pd)};
            rc |= fam_add_terms(s, t, "align", 2, tie3, NULL, sg * ldexp(1.0, -j)) < 0;
        }
    return rc;
}

const tc_family tc_family_wide = {"wide", NULL, fam_wide};
