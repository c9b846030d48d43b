/* The bit-pattern cases (infer_internal.h, families.h): the case set (cset)
 * and its builders. Every value is written as a double that the formats hold
 * exactly (checked), products as a*b with both factors representable
 * (infer_split). Below the families and the inference: it calls neither. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"

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

void cset_free(cset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].a);
        free(s->v[i].b);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

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
