/* Family "cplace": does C enter the fused sum with the products (aligned
 * together, so a small C is lost beside large products) or is it added
 * apart (model_params c_mode)?
 * Case files only: the inference asks the same question in its "cin" cases,
 * which are built in the alignment scan's loop (align.c) and stay there so
 * that the inference's case order is unchanged. */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static int gen_cplace(const tc_gen_target *t, tc_casefile *out)
{
    int em, es;
    if (t->k < 2 || !fam_big_small(t, &em, &es))
        return 0;
    fam_builder b;
    int n = 0;
    fb_init(&b, t, "cplace.c_small", "c-placement", -1,
            "products 2^%d - 2^%d cancel exactly, C = 2^%d: C survives unless it was aligned "
            "together with the products",
            em, em, es);
    fb_prod(&b, 1, em);
    fb_prod(&b, -1, em);
    fb_c(&b, 1, es);
    fb_expect(&b, TC_OUT_EXACT);
    fb_alt_value(&b, 1, es, "C added apart from the products' aligned sum");
    fb_alt_text(&b, "0", "C aligned with the products (inside the fused sum)");
    n += fb_push(&b, out);
    fb_init(&b, t, "cplace.c_big", "c-placement", -1,
            "C = 2^%d, products -2^%d and 2^%d: the small product survives only if C and -2^%d "
            "cancel before it is added",
            em, em, es, em);
    fb_prod(&b, -1, em);
    fb_prod(&b, 1, es);
    fb_c(&b, 1, em);
    fb_expect(&b, TC_OUT_EXACT);
    fb_alt_value(&b, 1, es, "C and the first product summed before the second");
    fb_alt_text(&b, "0", "small product lost beside C and -2^E");
    n += fb_push(&b, out);
    return n;
}

const tc_family tc_family_cplace = {"cplace", gen_cplace, NULL};
