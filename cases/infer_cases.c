/* infer: the crafted cases of every family (cases/families/) for a target,
 * and running cases on it. The case set and its builders are
 * cases/families/bits_build.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"
#include "cases/infer.h"
#include "cases/infer_internal.h"

/* The crafted families, then the hunt's elements (marked: the replay of
 * records written before the hunt joined the fit leaves them out), then the
 * random elements. */
int infer_build_cases(const infer_target *t, cset *s)
{
    int rc = 0;
    for (const tc_family *const *f = tc_families_crafted; *f; f++)
        rc |= (*f)->bits(s, t);
    s->hunt_from = s->n;
    rc |= tc_family_hunt.bits(s, t);
    s->hunt_to = s->n;
    rc |= tc_family_random.bits(s, t);
    return rc ? -1 : 0;
}

int infer_run_cases(const infer_target *t, infer_case *cases, size_t n, char *err, size_t errlen)
{
    int m = t->m, nn = t->n, k = t->k;
    int per = m < nn ? m : nn;
    if (per < 1 || k < 1) {
        snprintf(err, errlen, "infer: bad shape m%dn%dk%d", m, nn, k);
        return -1;
    }
    size_t ntiles = (n + (size_t)per - 1) / (size_t)per;
    size_t ta = (size_t)m * k, tb = (size_t)k * nn, tc = (size_t)m * nn;
    uint64_t *A = calloc(ntiles * ta + 1, sizeof *A), *B = calloc(ntiles * tb + 1, sizeof *B);
    uint64_t *C = calloc(ntiles * tc + 1, sizeof *C), *D = calloc(ntiles * tc + 1, sizeof *D);
    if (!A || !B || !C || !D) {
        free(A);
        free(B);
        free(C);
        free(D);
        snprintf(err, errlen, "infer: out of memory");
        return -1;
    }
    /* Unused rows/columns stay +0 bit patterns (0 is +0 in every format). */
    for (size_t i = 0; i < n; i++) {
        size_t tile = i / (size_t)per;
        int d = (int)(i % (size_t)per);
        for (int kk = 0; kk < k; kk++) {
            A[tile * ta + (size_t)d * k + kk] = cases[i].a[kk];
            B[tile * tb + (size_t)kk * nn + d] = cases[i].b[kk];
        }
        C[tile * tc + (size_t)d * nn + d] = cases[i].c;
    }
    int rc = t->run(t->ctx, ntiles, A, B, C, D, err, errlen);
    if (rc == 0)
        for (size_t i = 0; i < n; i++) {
            size_t tile = i / (size_t)per;
            int d = (int)(i % (size_t)per);
            cases[i].d = D[tile * tc + (size_t)d * nn + d];
        }
    free(A);
    free(B);
    free(C);
    free(D);
    return rc;
}
