/* Family "products": are the products of A and B formed exactly (all pa+pb
 * bits), or rounded before the sum (model_params prod_bits)? A rounded
 * product changes every dot product whose terms need their low bits.
 * Case files only: the inference has no family of its own for it; prod_bits
 * is fitted from the answers to all its cases. */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static int gen_products(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    fam_builder b;
    int n = 0;
    if (x.pa > 62 || x.pb > 62)
        return 0;
    long long ma = (1ll << x.pa) - 1, mb = (1ll << x.pb) - 1;
    char ta[64], tb[64], tl[64];
    tc_gen_hex(ma, -x.pa, ta, sizeof ta);
    tc_gen_hex(mb, -x.pb, tb, sizeof tb);
    if (x.pd >= x.pa + x.pb) {
        fb_init(&b, t, "products.single", "products-exact", -1,
                "(1 - 2^-%d)(1 - 2^-%d) needs %d bits, which D holds: the product is kept exactly",
                x.pa, x.pb, x.pa + x.pb);
        fb_pair_text(&b, ta, tb);
        fb_expect(&b, TC_OUT_EXACT);
        fb_alt_exact(&b, TC_RNE, "product exact");
        n += fb_push(&b, out);
    }
    if (x.pd >= x.pa) {
        tc_gen_hex(1, -x.pb, tl, sizeof tl);
        fb_init(&b, t, "products.cancel", "products-exact", -1,
                "(1-2^-%d)(1-2^-%d) + (1-2^-%d)2^-%d = 1 - 2^-%d exactly: the 2^-%d bits of the two "
                "products cancel only if both products are exact",
                x.pa, x.pb, x.pa, x.pb, x.pa, x.pa + x.pb);
        fb_pair_text(&b, ta, tb);
        fb_pair_text(&b, ta, tl);
        fb_expect(&b, TC_OUT_EXACT);
        fb_alt_exact(&b, TC_RNE, "products exact");
        n += fb_push(&b, out);
    }
    return n;
}

const tc_family tc_family_products = {"products", gen_products, NULL};
