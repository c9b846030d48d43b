/* Family "order": does the result depend on the order of the K terms? A
 * fused sum of exact products does not; a sequence of rounded adds does.
 * Case files only (a permuted case): the inference checks order
 * independence on its own answers (cases/infer.c). */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static int gen_order(const tc_gen_target *t, tc_casefile *out)
{
    if (t->k < 2)
        return 0;
    fam_builder b;
    fb_init(&b, t, "order.permute", "order", -1,
            "a dot product with heavy cancellation under 32 permutations of its %d terms "
            "(positions move together with their products): one result, or several",
            t->k);
    fam_random_terms(&b, 1);
    b.c.vary.kind = TC_VARY_PERMUTE;
    b.c.vary.count = 32;
    fb_expect(&b, TC_OUT_INVARIANT);
    return fb_push(&b, out);
}

const tc_family tc_family_order = {"order", gen_order, NULL};
