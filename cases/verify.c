/* verify: model vs target, bit for bit (see verify.h). */
#include "cases/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/infer_internal.h"

static const char *const dist_names[VERIFY_NDIST] = {"near1", "wide", "cancel", "bits", "adversarial"};

const char *verify_dist_name(int i)
{
    return i >= 0 && i < VERIFY_NDIST ? dist_names[i] : "?";
}

static int nonzero_terms(const infer_target *t, const infer_case *c)
{
    int n = 0;
    for (int i = 0; i < c->k; i++)
        n += tc_classify(t->f.a, c->a[i]) != TC_ZERO && tc_classify(t->f.b, c->b[i]) != TC_ZERO;
    return n;
}

static int copy_case(infer_case *dst, const infer_case *src)
{
    *dst = *src;
    dst->a = malloc((size_t)src->k * sizeof *dst->a);
    dst->b = malloc((size_t)src->k * sizeof *dst->b);
    if (!dst->a || !dst->b) {
        free(dst->a);
        free(dst->b);
        dst->a = dst->b = NULL;
        return -1;
    }
    memcpy(dst->a, src->a, (size_t)src->k * sizeof *dst->a);
    memcpy(dst->b, src->b, (size_t)src->k * sizeof *dst->b);
    return 0;
}

/* Keeps the failures with the fewest nonzero terms. */
static void keep_failure(verify_result *r, const infer_target *t, const infer_case *c, uint64_t md,
                         int dist)
{
    int nz = nonzero_terms(t, c);
    size_t slot = r->nfails;
    if (r->nfails == VERIFY_MAX_FAILS) {
        size_t worst = 0;
        for (size_t i = 1; i < r->nfails; i++)
            if (r->fails[i].nonzero_terms > r->fails[worst].nonzero_terms)
                worst = i;
        if (r->fails[worst].nonzero_terms <= nz)
            return;
        free(r->fails[worst].c.a);
        free(r->fails[worst].c.b);
        slot = worst;
    } else {
        r->nfails++;
    }
    verify_failure *f = &r->fails[slot];
    if (copy_case(&f->c, c)) {
        if (slot == r->nfails - 1)
            r->nfails--;
        return;
    }
    f->model_d = md;
    f->dist = dist_names[dist];
    f->nonzero_terms = nz;
}

/* Zeroes terms of a failing case while it keeps failing: a readable witness. */
static int shrink(const infer_target *t, const model *m, verify_failure *f, char *err, size_t errlen)
{
    int k = f->c.k;
    uint64_t za = tc_encode_f64(t->f.a, 0.0, (tc_rounding){TC_RNE, TC_OVF_INF, false, 0, false});
    uint64_t zb = tc_encode_f64(t->f.b, 0.0, (tc_rounding){TC_RNE, TC_OVF_INF, false, 0, false});
    for (int round = 0; round < k; round++) {
        cset s = {0};
        int *pos = malloc((size_t)k * sizeof *pos);
        if (!pos)
            return -1;
        int np = 0;
        for (int i = 0; i < k; i++) {
            if (f->c.a[i] == za && f->c.b[i] == zb)
                continue;
            uint64_t a0 = f->c.a[i], b0 = f->c.b[i];
            f->c.a[i] = za;
            f->c.b[i] = zb;
            int rc = cset_add_bits(&s, f->c.family, k, f->c.a, f->c.b, f->c.c);
            f->c.a[i] = a0;
            f->c.b[i] = b0;
            if (rc) {
                free(pos);
                cset_free(&s);
                return -1;
            }
            pos[np++] = i;
        }
        bool progressed = false;
        if (np > 0 && infer_run_cases(t, s.v, s.n, err, errlen) == 0) {
            for (size_t i = 0; i < s.n; i++) {
                uint64_t md = model_dot(m, k, s.v[i].a, s.v[i].b, s.v[i].c);
                if (md != s.v[i].d) {
                    f->c.a[pos[i]] = za;
                    f->c.b[pos[i]] = zb;
                    f->c.d = s.v[i].d;
                    f->model_d = md;
                    f->nonzero_terms = nonzero_terms(t, &f->c);
                    progressed = true;
                    break;
                }
            }
        }
        free(pos);
        cset_free(&s);
        if (!progressed)
            break;
    }
    return 0;
}

static int run_random(const infer_target *t, const model *m, size_t n, uint64_t seed,
                      verify_result *r, char *err, size_t errlen)
{
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    size_t per_tile = tcn;
    size_t ntiles = (n + per_tile - 1) / per_tile;
    if (ntiles < VERIFY_NDIST - 1)
        ntiles = VERIFY_NDIST - 1;
    size_t chunk = ((size_t)1 << 21) / tcn;   /* tiles per call: VERIFY_MAX_N's memory bound */
    if (chunk > 4096)
        chunk = 4096;   /* dist[] below */
    if (chunk < 1)
        chunk = 1;
    uint64_t *A = malloc(chunk * ta * sizeof *A), *B = malloc(chunk * tb * sizeof *B);
    uint64_t *C = malloc(chunk * tcn * sizeof *C), *D = malloc(chunk * tcn * sizeof *D);
    uint64_t *M = malloc(chunk * tcn * sizeof *M);
    uint64_t *ka = malloc((size_t)t->k * sizeof *ka), *kb = malloc((size_t)t->k * sizeof *kb);
    int rc = 0;
    if (!A || !B || !C || !D || !M || !ka || !kb) {
        snprintf(err, errlen, "verify: out of memory");
        rc = -1;
        goto out;
    }
    uint64_t st = seed ? seed : 0xC0FFEE1234ull;
    for (size_t done = 0; done < ntiles && rc == 0;) {
        size_t nt = ntiles - done < chunk ? ntiles - done : chunk;
        int dist[4096];
        for (size_t q = 0; q < nt; q++) {
            int dd = (int)((done + q) % 4);
            dist[q] = dd;
            /* a tile: rows of A from one random element's a, columns of B likewise */
            for (int i = 0; i < t->m; i++) {
                uint64_t c0;
                infer_rnd_case(t, &st, dd, ka, kb, &c0);
                memcpy(A + q * ta + (size_t)i * t->k, ka, (size_t)t->k * sizeof *ka);
                if (i < t->n)
                    for (int kk = 0; kk < t->k; kk++)
                        B[q * tb + (size_t)kk * t->n + i] = kb[kk];
                for (int j = 0; j < t->n; j++) {
                    infer_rnd_case(t, &st, dd, ka, kb, &c0);
                    C[q * tcn + (size_t)i * t->n + j] = c0;
                }
            }
            for (int j = t->m; j < t->n; j++) {
                uint64_t c0;
                infer_rnd_case(t, &st, dd, ka, kb, &c0);
                for (int kk = 0; kk < t->k; kk++)
                    B[q * tb + (size_t)kk * t->n + j] = kb[kk];
            }
        }
        if (t->run(t->ctx, nt, A, B, C, D, err, errlen)) {
            rc = -1;
            break;
        }
        model_mma(m, t->m, t->n, t->k, nt, A, B, C, M);
        for (size_t q = 0; q < nt; q++)
            for (size_t e = 0; e < tcn; e++) {
                size_t o = q * tcn + e;
                r->n++;
                r->dist_n[dist[q]]++;
                if (D[o] == M[o])
                    continue;
                r->mismatches++;
                r->dist_mismatches[dist[q]]++;
                int i = (int)(e / (size_t)t->n), j = (int)(e % (size_t)t->n);
                infer_case c = {dist_names[dist[q]], t->k, ka, kb, C[o], D[o]};
                for (int kk = 0; kk < t->k; kk++) {
                    ka[kk] = A[q * ta + (size_t)i * t->k + kk];
                    kb[kk] = B[q * tb + (size_t)kk * t->n + j];
                }
                keep_failure(r, t, &c, M[o], dist[q]);
            }
        done += nt;
    }
out:
    free(A);
    free(B);
    free(C);
    free(D);
    free(M);
    free(ka);
    free(kb);
    return rc;
}

int verify_run(const infer_target *t, const model_params *p, size_t n, uint64_t seed,
               verify_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    model *m = model_new(p, t->f, err, errlen);
    if (!m)
        return -1;
    int rc = run_random(t, m, n, seed, out, err, errlen);
    if (rc == 0) {
        cset s = {0};
        infer_target t2 = *t;
        t2.random_cases = 1;
        rc = infer_build_cases(&t2, &s);
        if (rc)
            snprintf(err, errlen, "verify: out of memory");
        if (rc == 0)
            rc = infer_run_cases(t, s.v, s.n, err, errlen);
        for (size_t i = 0; rc == 0 && i < s.n; i++) {
            uint64_t md = model_dot(m, s.v[i].k, s.v[i].a, s.v[i].b, s.v[i].c);
            out->n++;
            out->dist_n[4]++;
            if (md != s.v[i].d) {
                out->mismatches++;
                out->dist_mismatches[4]++;
                keep_failure(out, t, &s.v[i], md, 4);
            }
        }
        cset_free(&s);
    }
    for (size_t i = 0; rc == 0 && i < out->nfails && i < 4; i++)
        rc = shrink(t, m, &out->fails[i], err, errlen);
    model_free(m);
    if (rc)
        verify_result_free(out);
    return rc;
}

void verify_result_free(verify_result *r)
{
    for (size_t i = 0; i < r->nfails; i++) {
        free(r->fails[i].c.a);
        free(r->fails[i].c.b);
    }
    memset(r, 0, sizeof *r);
}
