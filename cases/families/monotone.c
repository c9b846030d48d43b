/* Family "monotone": is the result monotone in C? An adder that aligns to the
 * largest exponent with a few extra bits and truncates keeps small terms
 * beside a smaller C but drops them beside a larger one, so a larger C can
 * give a smaller D (Fasi et al. 2021's non-monotonicity).
 * Case files only: the inference checks monotonicity on its own answers
 * (cases/infer.c raises one product at a time). */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

/* C = 2^E - 2^(E-p) (just below 2^E), then C = 2^E, with 3 * 2^t terms of
 * 2^(E-p-t): exactly, D rises from 2^E + 1 ulp to 2^E + 2 ulps (a tie). An
 * adder that aligns to the largest exponent with t extra bits and truncates
 * keeps the terms beside the smaller C but drops them beside the larger, so
 * the larger C gives the smaller D (Fasi et al.'s non-monotonicity). */
static int gen_monotone(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    if (x.pd > 62)
        return 0;
    int T = 0;
    while (3 * (2 << T) <= x.k)
        T++;
    int E = fam_imax(0, x.pmin + x.pd + T);
    if (x.k < 3 || E + 1 > fam_imin(x.emax_c, x.pmax))
        return 0;
    int n = 0;
    for (int tb = 0; tb <= T; tb++) {
        fam_builder b;
        char c2[64], name[64];
        int terms = 3 << tb, g = E - x.pd - tb;
        snprintf(name, sizeof name, "monotone.t%d", tb);
        fb_init(&b, t, name, "monotonicity", -1,
                "C = 2^%d - 2^%d, then C = 2^%d, with %d terms of 2^%d: the larger C must not give a "
                "smaller D (an adder keeping %d extra bits and truncating breaks this)",
                E, E - x.pd, E, terms, g, tb);
        for (int i = 0; i < terms; i++)
            fb_prod(&b, 1, g);
        fb_c(&b, (1ll << x.pd) - 1, E - x.pd);
        tc_gen_hex(1, E, c2, sizeof c2);
        if (!fam_fits(t->c, 1, E, false))
            b.bad = true;
        b.c.vary.kind = TC_VARY_INPUT;
        b.c.vary.which = 'c';
        b.c.vary.value = fam_dup(c2);
        fb_expect(&b, TC_OUT_MONOTONE);
        fb_expect(&b, TC_OUT_EXACT);
        n += fb_push(&b, out);
    }
    return n;
}

const tc_family tc_family_monotone = {"monotone", gen_monotone, NULL};
