/* The probe's masking products read (cases/probe.h): the step product
 * gives K per tensor-core step, the runs product, block by block, where
 * partial sums leave the accumulator; blocks that agree form a class.
 * Values no test expects are kept (tc_probe_odd), never guessed at. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "cases/gemm_probe_internal.h"

static void odd(tc_probe_result *r, tc_probe_product p, int i, int j, uint32_t got)
{
    r->odd++;
    if (r->nodd < TC_PROBE_KEEP)
        r->odds[r->nodd++] = (tc_probe_odd){p, i, j, got};
}

static void note(tc_probe_result *r, const char *why)
{
    if (!r->why[0])
        snprintf(r->why, sizeof r->why, "%s", why);
}

/* step: q < chunk cut (0), q >= chunk kept (s_step), every replica alike. */
void probe_read_step(const tc_probe_design *d, const uint32_t *D, tc_probe_result *r)
{
    int Q = d->step_q;
    signed char *seen = gemm_alloc((size_t)Q, 1);   /* 0 unseen, 1 cut, 2 kept, 3 replicas disagree */
    for (int i = 0; i < d->m; i++)
        for (int j = 0; j < d->n; j++) {
            int q = tc_probe_step_q(d, i, j);
            uint32_t u = D[(size_t)i * d->n + j];
            float v = gemm_f32_of(u);
            if (q < 2 || q >= Q) {   /* controls: L - L */
                if (v != 0)
                    odd(r, PROBE_STEP, i, j, u);
                continue;
            }
            int o = v == 0 ? 1 : v == (float)d->s_step ? 2 : 0;
            if (!o)
                odd(r, PROBE_STEP, i, j, u);
            else
                seen[q] = seen[q] == 0 || seen[q] == o ? (signed char)o : 3;
        }
    r->chunk = 0;
    for (int q = 2; q < Q && !r->chunk; q++)
        if (seen[q] == 2)
            r->chunk = q;
    for (int q = 2; q < Q; q++)
        if (seen[q] == 3 || (seen[q] == 1 && r->chunk && q > r->chunk) || (seen[q] == 2 && q < r->chunk)) {
            note(r, "step product: small products kept and cut out of step order, or replicas disagree");
            break;
        }
    if (!r->chunk) {   /* nothing kept below Q: one step spans at least Q positions */
        r->chunk = Q;
        note(r, "step product: no small product kept up to the last q tested");
    }
    r->chain = r->chunk > 2;
    free(seen);
}

/* runs: per block, boundary u: 1 apart, 0 same accumulator, -1 unknown. */
static signed char boundary(const tc_probe_design *d, float v)
{
    double ulp = d->L * 0x1p-23;
    if (d->cancel)   /* same run: L + s - L keeps s; apart: s meets -L in its accumulator, L only in FP32 */
        return v == (float)d->s_run ? 0 : v != 0 && fabs(v) <= 4 * ulp ? 1 : -1;
    return v == (float)d->L ? 0 : v == (float)(d->L + ulp) ? 1 : -1;
}

/* Block b's bitmap into a class: a class's map takes the entries its
 * blocks know; a block joins the first class it contradicts nowhere. */
static int join(signed char *maps, int *nclass, const signed char *bm, int nb)
{
    for (int c = 0; c < *nclass; c++) {
        signed char *cm = maps + (size_t)c * nb;
        bool ok = true;
        for (int u = 1; u < nb && ok; u++)
            ok = bm[u] < 0 || cm[u] < 0 || bm[u] == cm[u];
        if (!ok)
            continue;
        for (int u = 1; u < nb; u++)
            if (cm[u] < 0)
                cm[u] = bm[u];
        return c;
    }
    memcpy(maps + (size_t)*nclass * nb, bm, (size_t)nb);
    return (*nclass)++;
}

void probe_read_runs(const tc_probe_design *d, const uint32_t *D, tc_probe_result *r)
{
    int nb = d->nbound;
    r->nbm = (d->m + d->runs_r - 1) / d->runs_r, r->nbn = (d->n + d->runs_c - 1) / d->runs_c;
    size_t nblocks = (size_t)r->nbm * r->nbn;
    signed char *bm = gemm_alloc(nblocks * nb, 1);
    memset(bm, -1, nblocks * nb);
    for (int i = 0; i < d->m; i++)
        for (int j = 0; j < d->n; j++) {
            int u = tc_probe_runs_u(d, i, j);
            uint32_t w = D[(size_t)i * d->n + j];
            if (u < 1 || u >= nb) {   /* no experiment here */
                if (gemm_f32_of(w) != 0)
                    odd(r, PROBE_RUNS, i, j, w);
                continue;
            }
            signed char o = boundary(d, gemm_f32_of(w));
            if (o < 0)
                odd(r, PROBE_RUNS, i, j, w);
            else
                bm[((size_t)(i / d->runs_r) * r->nbn + j / d->runs_c) * nb + u] = o;
        }
    /* Whole blocks first (each holds every test once), then the edges. */
    signed char *maps = gemm_alloc(nblocks * nb, 1);
    r->block_class = gemm_alloc(nblocks, sizeof *r->block_class);
    r->nclass = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int bi = 0; bi < r->nbm; bi++)
            for (int bj = 0; bj < r->nbn; bj++) {
                bool whole = (bi + 1) * d->runs_r <= d->m && (bj + 1) * d->runs_c <= d->n;
                if (whole == (pass == 0)) {
                    size_t b = (size_t)bi * r->nbn + bj;
                    r->block_class[b] = join(maps, &r->nclass, bm + b * nb, nb);
                }
            }
    r->cls = gemm_alloc((size_t)r->nclass, sizeof *r->cls);
    for (int c = 0; c < r->nclass; c++) {
        tc_probe_class *k = &r->cls[c];
        const signed char *cm = maps + (size_t)c * nb;
        k->run_start = gemm_alloc((size_t)nb + 1, sizeof *k->run_start);
        k->run_start[k->nruns++] = 0;
        for (int u = 1; u < nb; u++)
            if (cm[u] == 1)
                k->run_start[k->nruns++] = d->gran * u;
    }
    for (size_t b = 0; b < nblocks; b++)
        r->cls[r->block_class[b]].blocks++;
    free(bm), free(maps);
}
