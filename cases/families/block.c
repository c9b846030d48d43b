/* Family "block": how many terms are fused in one step and how a longer K is
 * split (model_params block, split_runs), FPRev style: a large term and its
 * negation moved through the positions; the small terms that survive tell
 * which terms were summed together, and whether the running sum joins each
 * block's fused sum.
 * Both users: the case files predict the survivors for every block size
 * (tc_gen_block_predict); the inference moves +-M through pairs of
 * positions beside tails of several sizes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

/* The survivors a fused-block model predicts (gen.h). */
long tc_gen_block_predict(int k, const int *big, const long *small, int block, bool inside)
{
    int acc_big = 0;
    long acc_small = 0;
    for (int s0 = 0; s0 < k; s0 += block) {
        int bb = 0;
        long bs = 0;
        bool any_big = false;
        for (int i = s0; i < s0 + block && i < k; i++) {
            bb += big[i];
            bs += small[i];
            any_big |= big[i] != 0;
        }
        if (inside) {
            bool lost = any_big || acc_big != 0;
            acc_big += bb;
            acc_small = lost ? 0 : acc_small + bs;
        } else {
            if (any_big)
                bs = 0;
            bool lost = acc_big != 0 || bb != 0;
            acc_big += bb;
            acc_small = lost ? 0 : acc_small + bs;
        }
    }
    return acc_big != 0 ? -1 : acc_small;
}

static int gen_block(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    int em, es;
    if (x.k < 3 || !fam_big_small(t, &em, &es))
        return 0;
    int k = x.k, n = 0;
    int big[TC_CASE_MAX_K];
    long small[TC_CASE_MAX_K];
    for (int fam = 0; fam < 2; fam++) {
        int fixed = fam == 0 ? 0 : k - 1;
        for (int i = 0; i < k; i++) {
            if (i == fixed)
                continue;
            fam_builder b;
            char name[64];
            snprintf(name, sizeof name, "block.%s.i%02d", fam == 0 ? "lead" : "tail", i);
            fb_init(&b, t, name, "fused-block", -1,
                    "-2^%d at position %d, +2^%d at position %d, 2^%d everywhere else: the small terms "
                    "that survive tell which terms were summed together",
                    em, fixed, em, i, es);
            for (int p = 0; p < k; p++) {
                big[p] = p == fixed ? -1 : p == i ? 1 : 0;
                small[p] = big[p] ? 0 : 1;
                fb_prod(&b, big[p] ? big[p] : 1, big[p] ? em : es);
            }
            fb_expect(&b, TC_OUT_EXACT);
            fb_alt_exact(&b, TC_RNE, "no term lost (exact sum)");
            for (int blk = 1; blk <= k; blk *= 2)
                for (int inside = 1; inside >= 0; inside--) {
                    if (blk == 1 && !inside)
                        continue; /* the same model as inside for one term */
                    long cnt = tc_gen_block_predict(k, big, small, blk, inside);
                    char label[128];
                    if (blk == 1)
                        snprintf(label, sizeof label, "one term at a time");
                    else
                        snprintf(label, sizeof label, "fused blocks of %d, running sum %s", blk,
                                 inside ? "inside the block sum" : "added after each block");
                    if (cnt >= 0)
                        fb_alt_value(&b, cnt, es, label);
                }
            n += fb_push(&b, out);
        }
    }
    return n;
}

/* FPRev: +M and -M at positions i, j, ones elsewhere; and one large term
 * moved through every position beside tails of 1, 1/2, 1/4, 1/8 ulp. */
static int fam_block(cset *s, const infer_target *t)
{
    int rc = 0, k = t->k;
    int pd = fam_prec(t->f.d);
    double terms[INFER_KMAX];
    int scales[3] = {pd, pd + 3, pd + 9};
    int step = k > 32 ? k / 16 : 1;
    for (int sc = 0; sc < 3; sc++) {
        /* values scaled so the tail is 2^-(scale) and M is 1 */
        double one = ldexp(1.0, -scales[sc]);
        for (int i = 0; i < k; i += step)
            for (int j = 0; j < k; j += step) {
                if (i == j)
                    continue;
                for (int q = 0; q < k; q++)
                    terms[q] = one;
                terms[i] = 1;
                terms[j] = -1;
                rc |= fam_add_terms(s, t, "block", k, terms, NULL, 0) < 0;
            }
        for (int j = 0; j < k; j += step) {
            for (int q = 0; q < k; q++)
                terms[q] = one;
            terms[j] = -1;
            rc |= fam_add_terms(s, t, "block", k, terms, NULL, 1) < 0;   /* C = M */
            for (int q = 0; q < k; q++)
                terms[q] = one;
            terms[j] = 1;
            rc |= fam_add_terms(s, t, "block", k, terms, NULL, -1) < 0;
        }
    }
    for (int q8 = 0; q8 < 4; q8++) {
        double tail = ldexp(1.0, -(pd - 1) - q8) * 0.75;
        for (int j = 0; j < k; j += step) {
            for (int q = 0; q < k; q++)
                terms[q] = tail;
            terms[j] = 1;
            rc |= fam_add_terms(s, t, "block", k, terms, NULL, 0) < 0;
            for (int q = 0; q < k; q++)
                terms[q] = q % 2 ? -tail : tail;
            terms[j] = 1;
            rc |= fam_add_terms(s, t, "block", k, terms, NULL, 0) < 0;
        }
        for (int q = 0; q < k; q++)
            terms[q] = tail;
        rc |= fam_add_terms(s, t, "block", k, terms, NULL, 1) < 0;
    }
    /* every product the same: carries beyond one block */
    for (int q = 0; q < k; q++)
        terms[q] = 1.75;
    rc |= fam_add_terms(s, t, "block", k, terms, NULL, 0) < 0;
    return rc;
}

const tc_family tc_family_block = {"block", gen_block, fam_block};
