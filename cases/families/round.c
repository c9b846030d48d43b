/* Family "round": how the fused sum is rounded into D (model_params
 * out_round: RNE, RNA, toward zero, up, down), for both signs, even and odd
 * bases and ties.
 * Both users: the case files build a truth table (1/4, 2/4, 3/4 ulp each
 * way) with one predicted outcome per mode; the inference scans offsets
 * around +-1 and around a power of two in the output's precision. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

/* Base +-2^E (or +-(2^E + ulp): odd) plus a small term of 1/4, 2/4 or 3/4 ulp
 * in either direction: each rounding mode gives its own row. */
static int gen_round(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    if (x.k < 3)
        return 0;
    int E = fam_imax(0, x.pmin + x.pd + 1);
    if (E + 1 > fam_imin(x.pmax, x.emax_d))
        return 0;
    int eu = E - x.pd + 1; /* ulp of the base */
    int n = 0;
    static const char *const qname[4] = {"", "q1", "q2", "q3"};
    for (int total = 1; total >= -1; total -= 2)
        for (int odd = 0; odd < 2; odd++)
            for (int q = 1; q <= 3; q++)
                for (int dir = 1; dir >= -1; dir -= 2) {
                    fam_builder b;
                    char name[64];
                    snprintf(name, sizeof name, "round.%s.%s.%s.%s", total > 0 ? "pos" : "neg",
                             odd ? "odd" : "even", qname[q], dir > 0 ? "away" : "toward0");
                    fb_init(&b, t, name, "rounding", -1,
                            "%s(2^%d%s) %s %d/4 ulp: which rounding the sum gets",
                            total > 0 ? "" : "-", E, odd ? " + 1 ulp" : "",
                            dir > 0 ? "+" : "-", q);
                    fb_prod(&b, total, E);
                    if (odd)
                        fb_prod(&b, total, eu);
                    fb_prod(&b, (long long)total * dir * q, eu - 2);
                    fb_expect(&b, TC_OUT_EXACT);
                    fb_alt_exact(&b, TC_RNE, "round to nearest, ties to even");
                    fb_alt_exact(&b, TC_RNA, "round to nearest, ties away");
                    fb_alt_exact(&b, TC_RZ, "toward zero");
                    fb_alt_exact(&b, TC_RU, "toward +inf");
                    fb_alt_exact(&b, TC_RD, "toward -inf");
                    long long base = (1ll << (x.pd - 1)) + odd;
                    fb_alt_value(&b, total * base, eu, "small term dropped");
                    n += fb_push(&b, out);
                }
    return n;
}

/* Rounding truth tables around 1 and -1 in the output's precision. */
static int fam_round(cset *s, const infer_target *t)
{
    int rc = 0;
    int pd = fam_prec(t->f.d);
    static const double fr[] = {0.25, 0.5, 0.75, 1.25, 1.5, 1.75, 2.5, 3.5};
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++)
        for (int sg = -1; sg <= 1; sg += 2)
            for (int cs = -1; cs <= 1; cs += 2) {
                double u = ldexp(fr[i], -(pd - 1)) * sg;
                double one[1] = {u};
                rc |= fam_add_terms(s, t, "round", 1, one, NULL, cs) < 0;
                double two[2] = {(double)cs, u};
                rc |= fam_add_terms(s, t, "round", 2, two, NULL, 0) < 0;
                /* the same below a power of two (the ulp halves) */
                double three[2] = {(double)cs * 2, u};
                rc |= fam_add_terms(s, t, "round", 2, three, NULL, -cs * 0.5 * 2) < 0;
            }
    return rc;
}

const tc_family tc_family_round = {"round", gen_round, fam_round};
