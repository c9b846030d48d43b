/* The bit-pattern cases' builder (families.h): every value is written as a
 * double that the formats hold exactly (checked), products as a*b with both
 * factors representable (infer_split). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

/* Products terms[0..nt) at the first positions (or at pos[] if given), the
 * rest +0*+0, and C = c. Skipped (0) when a value is not representable. */
int fam_add_terms(cset *s, const infer_target *t, const char *family, int nt, const double *terms,
                  const int *pos, double c)
{
    int k = t->k;
    uint64_t a[INFER_KMAX], b[INFER_KMAX], cb;
    if (nt > k || k > INFER_KMAX)
        return 0;
    uint64_t z;
    infer_split(&t->f, 0.0, &z, &b[0]);
    uint64_t zb = tc_encode_f64(t->f.b, 0.0, rne);
    for (int i = 0; i < k; i++) {
        a[i] = z;
        b[i] = zb;
    }
    for (int i = 0; i < nt; i++) {
        int p = pos ? pos[i] : i;
        if (!infer_split(&t->f, terms[i], &a[p], &b[p]))
            return 0;
    }
    if (!infer_enc(t->f.c, c, &cb))
        return 0;
    return cset_add_bits(s, family, k, a, b, cb);
}
