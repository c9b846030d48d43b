/* Family "double_round": values a quarter, half and three quarters of an F32
 * ulp away from the output's ties, for outputs narrower than F32: an
 * accumulator wider than the output rounds twice, to it and then to D
 * (model_params acc_fmt, acc_round), and answers unlike a single rounding.
 * Inference only: its cases are named "round" in the fit. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

/* Double rounding: values a quarter, half, three quarters of an f32 ulp
 * from the output's ties, for an accumulator wider than the output. */
static int fam_round2(cset *s, const infer_target *t)
{
    int rc = 0;
    int pd = fam_prec(t->f.d);
    if (pd >= 24)
        return 0;
    static const double fr[] = {0.25, 0.5, 0.75, 1, 1.5};
    for (int m = 0; m < 2; m++)
        for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++)
            for (int sg = -1; sg <= 1; sg += 2)
                for (int neg = 0; neg < 2; neg++) {
                    double u = ldexp(0.5 + m, -(pd - 1)), v = sg * fr[i] * ldexp(1.0, -23);
                    double x[3] = {neg ? -1.0 : 1.0, neg ? -u : u, v};
                    rc |= fam_add_terms(s, t, "round", 3 <= t->k ? 3 : 2, x, NULL, 0) < 0;
                    double y[2] = {neg ? -u : u, v};
                    rc |= fam_add_terms(s, t, "round", 2, y, NULL, neg ? -1.0 : 1.0) < 0;
                }
    return rc;
}

const tc_family tc_family_double_round = {"double_round", NULL, fam_round2};
