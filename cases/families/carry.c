/* Family "carry": how many carry bits the adder keeps above the largest
 * term's binade (model_params carry_bits): 2^j terms of nearly 2 need j
 * carry bits; an adder with fewer loses the top of the sum.
 * Case files only: the inference has no family of its own for it; its
 * alignment cases (align.c: 1.5 + 1.5) and block cases (block.c: every
 * product 1.75) carry out of the binade. */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static int gen_carry(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    int q = x.pa - 1;
    if (q + 1 > x.pd || q > 60)
        return 0;
    int n = 0;
    char tv[64];
    tc_gen_hex((1ll << (q + 1)) - 1, -q, tv, sizeof tv);
    for (int j = 1; (1 << j) <= x.k; j++) {
        fam_builder b;
        char name[64], label[96];
        snprintf(name, sizeof name, "carry.j%d", j);
        fb_init(&b, t, name, "carry-out", j,
                "%d terms of 2 - 2^-%d: the sum 2^%d(2 - 2^-%d) needs %d carry bits above the "
                "terms' binade",
                1 << j, q, j, q, j);
        for (int i = 0; i < (1 << j); i++)
            fb_pair_text(&b, tv, "1");
        fb_expect(&b, TC_OUT_EXACT);
        snprintf(label, sizeof label, "carry kept");
        fb_alt_exact(&b, TC_RNE, label);
        n += fb_push(&b, out);
    }
    return n;
}

const tc_family tc_family_carry = {"carry", gen_carry, NULL};
