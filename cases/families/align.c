/* Family "align": how many bits below the largest term the fused adder keeps
 * when it shifts every term to the largest exponent (model_params
 * align_bits), whether the bits shifted out are cut or rounded
 * (align_round), and whether C is aligned with the products (the inference's
 * "cin" cases: C large, C small, C cancelling; c_mode, align_with_acc).
 * Both users: the case files scan the kept width j, one case per level; the
 * inference scans 1 + 2^-j in every arrangement of products and C. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

/* Terms 2^E, 2^(E-j-p+1), -2^E, 2^(E-j): the second is j bits below the last
 * bit of the largest term, and survives only if the alignment keeps j bits. */
static int gen_align(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    if (x.k < 4)
        return 0;
    int E = fam_imin(x.pmax, x.emax_d - 1);
    int J = fam_imin(x.pd + 3, E - (x.pd - 1) - x.pmin);
    J = fam_imin(J, E - x.emin_d);
    int n = 0;
    for (int j = 0; j <= J; j++) {
        fam_builder b;
        char name[64], l1[96], l2[96], l3[96];
        snprintf(name, sizeof name, "align.j%02d", j);
        fb_init(&b, t, name, "alignment-extra-bits", j,
                "2^%d + 2^%d - 2^%d + 2^%d: the second term lies %d bits below the last bit of the "
                "largest term; the exact sum 2^%d(1 + 2^-%d) shows whether the alignment kept it",
                E, E - j - x.pd + 1, E, E - j, j, E - j, x.pd - 1);
        fb_prod(&b, 1, E);
        fb_prod(&b, 1, E - j - x.pd + 1);
        fb_prod(&b, -1, E);
        fb_prod(&b, 1, E - j);
        fb_expect(&b, TC_OUT_EXACT);
        snprintf(l1, sizeof l1, "alignment bit kept");
        snprintf(l2, sizeof l2, "alignment bit dropped (truncation)");
        snprintf(l3, sizeof l3, "alignment bit rounded up");
        fb_alt_exact(&b, TC_RNE, l1);
        fb_alt_value(&b, 1, E - j, l2);
        fb_alt_value(&b, (1ll << (x.pd - 2)) + 1, E - j - x.pd + 2, l3);
        n += fb_push(&b, out);
    }
    return n;
}

/* 1 + 2^-j in every arrangement: products only, C large, C small, cancelling. */
static int fam_align(cset *s, const infer_target *t)
{
    int rc = 0, k = t->k;
    int pd = fam_prec(t->f.d);
    for (int j = 1; j <= pd + 44; j++) {
        double tail = ldexp(1.0, -j);
        double x2[2] = {1, tail}, x3[3] = {1, tail, tail}, xn[2] = {1, -tail}, xm[2] = {-1, tail};
        double x3t[3] = {1, 3 * tail, 0};
        rc |= fam_add_terms(s, t, "align", 2, x2, NULL, 0) < 0;
        if (k >= 3)
            rc |= fam_add_terms(s, t, "align", 3, x3, NULL, 0) < 0;
        rc |= fam_add_terms(s, t, "align", 2, xn, NULL, 0) < 0;
        rc |= fam_add_terms(s, t, "align", 2, xm, NULL, 0) < 0;
        rc |= fam_add_terms(s, t, "align", 2, x3t, NULL, 0) < 0;
        double one[1] = {tail}, two[2] = {tail, tail}, big[1] = {1}, ntail[1] = {-tail};
        rc |= fam_add_terms(s, t, "cin", 1, one, NULL, 1) < 0;
        rc |= fam_add_terms(s, t, "cin", 1, ntail, NULL, 1) < 0;
        rc |= fam_add_terms(s, t, "cin", 2, two, NULL, 1) < 0;
        rc |= fam_add_terms(s, t, "cin", 1, big, NULL, tail) < 0;
        rc |= fam_add_terms(s, t, "cin", 1, big, NULL, -tail) < 0;
        /* the carry of 1.5 + 1.5 moves the reference */
        double carry[3] = {1.5, 1.5, tail};
        if (k >= 3)
            rc |= fam_add_terms(s, t, "align", 3, carry, NULL, 0) < 0;
        double canc[3] = {2, -1, tail};
        if (k >= 3)
            rc |= fam_add_terms(s, t, "align", 3, canc, NULL, 0) < 0;
    }
    return rc;
}

const tc_family tc_family_align = {"align", gen_align, fam_align};
