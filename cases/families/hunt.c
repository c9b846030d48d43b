/* Family "hunt": a few elements of each of the boundary-directed search's
 * families (cases/hunt.h: zeros, zero terms, cancellation, the range's
 * edges, subnormal operands, NaN payloads) in the fit.
 * Inference only. The hunt families themselves stay in cases/hunt.c: they
 * fill whole tiles for the proof (cases/verify.c) and `tcscope hunt`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"
#include "cases/hunt.h"

/* Elements of the hunt families (cases/hunt.h): the regions random draws
 * miss (zeros, zero terms, subnormal operands, the range's edges, NaN
 * payloads) in the fit itself, so that the fields deciding them are fitted
 * from answers there rather than defaulted. A stream apart from the
 * proof's (which starts from the run seed). */
#define HUNT_FIT_PER_FAMILY 48

static int fam_hunt(cset *s, const infer_target *t)
{
    if (t->without_hunt || !hunt_applies(t) || t->k > INFER_KMAX)
        return 0;
    size_t mn = (size_t)t->m * t->n, ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n;
    size_t ntiles = (HUNT_FIT_PER_FAMILY + mn - 1) / mn;
    uint64_t *A = malloc(ntiles * ta * sizeof *A), *B = malloc(ntiles * tb * sizeof *B),
             *C = malloc(ntiles * mn * sizeof *C);
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    int rc = 0;
    if (!A || !B || !C)
        rc = -1;
    for (int fam = 0; rc == 0 && fam < HUNT_NFAMILIES; fam++) {
        uint64_t st = hunt_family_seed((t->seed ? t->seed : 0x7C5C0BE5ull) ^ 0xF17F17ull, fam);
        for (size_t q = 0; q < ntiles; q++)
            hunt_fill_tile(t, fam, &st, A + q * ta, B + q * tb, C + q * mn);
        for (size_t e = 0; rc == 0 && e < HUNT_FIT_PER_FAMILY; e++) {
            /* spread over rows and columns: element e of tile e / mn */
            size_t q = e / mn, r = e % mn, i = r % (size_t)t->m, j = (r * 7 + r / (size_t)t->m) % (size_t)t->n;
            for (int kk = 0; kk < t->k; kk++) {
                a[kk] = A[q * ta + i * (size_t)t->k + (size_t)kk];
                b[kk] = B[q * tb + (size_t)kk * t->n + j];
            }
            rc = cset_add_bits(s, hunt_family_name(fam), t->k, a, b, C[q * mn + i * (size_t)t->n + j]);
        }
    }
    free(A);
    free(B);
    free(C);
    return rc;
}

const tc_family tc_family_hunt = {"hunt", NULL, fam_hunt};
