/* infer: the crafted cases of every family (cases/families/) for a target,
 * and running cases on it. The cases' inputs are bit patterns (cset). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"
#include "cases/infer.h"
#include "cases/infer_internal.h"

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

bool infer_enc(const tc_format *f, double x, uint64_t *bits)
{
    uint64_t b = tc_encode_f64(f, x, rne);
    double back = tc_decode_to_f64(f, b);
    if (back != x || (x == 0 && signbit(x) != signbit(back)))
        return false;
    *bits = b;
    return true;
}

/* x = a*b with a in A's format and b in B's: b a power of two, normal ranges
 * preferred. */
bool infer_split(const oracle_formats *f, double x, uint64_t *a, uint64_t *b)
{
    if (x == 0) {
        *b = tc_encode_f64(f->b, 1.0, rne);
        return infer_enc(f->a, x, a);
    }
    for (int d = 0; d <= 300; d++) {
        for (int s = -1; s <= 1; s += 2) {
            int e = s * d;
            double pb = ldexp(1.0, e);
            if (infer_enc(f->b, pb, b) && infer_enc(f->a, x / pb, a) &&
                tc_classify(f->a, *a) == TC_FINITE && tc_classify(f->b, *b) == TC_FINITE) {
                /* prefer normal factors */
                tc_value va = tc_decode(f->a, *a, false);
                int bl = 64 - __builtin_clzll(va.sig);
                if (va.exp + bl - 1 >= tc_format_emin(f->a) || d > 200)
                    return true;
            }
            if (d == 0)
                break;
        }
    }
    return false;
}

int cset_add_bits(cset *s, const char *family, int k, const uint64_t *a, const uint64_t *b,
                  uint64_t c)
{
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 1024;
        infer_case *nv = realloc(s->v, nc * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = nc;
    }
    infer_case *cs = &s->v[s->n];
    cs->family = family;
    cs->k = k;
    cs->a = malloc((size_t)k * sizeof *cs->a);
    cs->b = malloc((size_t)k * sizeof *cs->b);
    if (!cs->a || !cs->b) {
        free(cs->a);
        free(cs->b);
        return -1;
    }
    memcpy(cs->a, a, (size_t)k * sizeof *a);
    memcpy(cs->b, b, (size_t)k * sizeof *b);
    cs->c = c;
    cs->d = 0;
    s->n++;
    return 0;
}

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

void cset_free(cset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].a);
        free(s->v[i].b);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
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
