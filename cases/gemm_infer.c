/* The accumulation structure of a library GEMM from its outputs on
 * masking inputs (FPRev-style): each probe is one output D[i][i] whose row
 * of A and column of B are zero except a few products placed at chosen K
 * positions, sized so that whether a small product survives says whether
 * it was summed with a large one in the same tensor-core step, in the
 * same tensor-core accumulator, or only later in FP32.
 *
 * Magnitudes (products; a = v / 2^h, b = 2^h, both exact):
 *              L      small_step  small_fp32        big (16 terms)  unit
 *   FP8        2^16   1           1.5 * 2^-8        16 * 2^16       2^-18
 *   others     2^30   1           1.5 * 2^6         16 * 2^30       2^-20
 * - step test: L at 0, -L at 1, small_step at q: a step fuses its products
 *   aligned to the largest with 13 (FP8) or 25 fraction bits, so the small
 *   one is cut (output 0) when q is in the step of 0 and 1, else kept (1).
 * - run test: L at p, small_fp32 (3/4 of an FP32 ulp of L) at q > p: in
 *   one tensor-core accumulator it is cut (FP8: alignment; others: the
 *   accumulator rounds toward zero), so the output is L; added to L in FP32
 *   with RNE it rounds up to L + ulp. Scanned q by q (one chunk apart)
 *   for the first run; later runs of the same length are confirmed two
 *   probes each (their last chunk in, the next position out), the scan
 *   taking over where one does not fit.
 * - meeting test (FPRev): +big in run 0, -big in run j, a unit in every
 *   other run: a unit survives only when added after the bigs cancelled, so
 *   output / unit = runs outside the subtree where run 0 and run j meet.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

typedef struct {
    double L, small_step, small_fp32, big, unit;
} magnitudes;

static magnitudes mags(const tc_gemm_path *p)
{
    if (p->fp8)
        return (magnitudes){0x1p16, 1, 0x1.8p-8, 0x1p16, 0x1p-18};
    return (magnitudes){0x1p30, 1, 0x1.8p6, 0x1p30, 0x1p-20};
}

/* A batch of probes: rows of A and columns of B of a m x n x k GEMM. */
typedef struct {
    const tc_gemm_lib *lib;
    const tc_gemm_path *p;
    int m, n, k, cap;        /* cap: probes per call, min(m, n) */
    uint32_t *A, *B;
    int *ii;
    uint32_t *out;
    int used;
    int probes, calls;
    char err[512];
} probe_batch;

static bool put(probe_batch *b, int probe, int pos, double v)
{
    if (v == 0)
        return true;
    int h = (int)floor(log2(fabs(v)) / 2);
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    uint64_t ea = tc_encode_f64(b->p->a, ldexp(v, -h), r), eb = tc_encode_f64(b->p->b, ldexp(1, h), r);
    if (tc_decode_to_f64(b->p->a, ea) * tc_decode_to_f64(b->p->b, eb) != v) {
        snprintf(b->err, sizeof b->err, "masking product %g is not exact in %s x %s", v, b->p->a->name,
                 b->p->b->name);
        return false;
    }
    b->A[(size_t)probe * b->k + pos] = (uint32_t)ea;
    b->B[(size_t)pos * b->n + probe] = (uint32_t)eb;
    return true;
}

static void clear(probe_batch *b)
{
    memset(b->A, 0, (size_t)b->m * b->k * sizeof *b->A);
    memset(b->B, 0, (size_t)b->k * b->n * sizeof *b->B);
    b->used = 0;
}

static int flush(probe_batch *b)
{
    if (!b->used)
        return 0;
    double ms;
    tc_gemm_algo algo;
    int rc = b->lib->run(b->lib->ctx, b->p, b->m, b->n, b->k, b->A, b->B, (size_t)b->used, b->ii, b->ii, b->out, 0,
                         0, &ms, &algo, b->err, sizeof b->err);
    b->probes += b->used;
    b->calls++;
    return rc ? -1 : 0;
}

static float f32(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* K positions per tensor-core step: the first q >= 2 whose small product
 * survives (k when none does). */
static int find_chunk(probe_batch *b, const magnitudes *g, tc_gemm_inferred *r)
{
    for (int q0 = 2; q0 < b->k; q0 += b->cap) {
        clear(b);
        for (int t = 0; t < b->cap && q0 + t < b->k; t++, b->used++)
            if (!put(b, t, 0, g->L) || !put(b, t, 1, -g->L) || !put(b, t, q0 + t, g->small_step))
                return -1;
        if (flush(b))
            return -1;
        for (int t = 0; t < b->used; t++) {
            float d = f32(b->out[t]);
            if (d == (float)g->small_step)
                return q0 + t;
            if (d != 0 && r->consistent) {
                r->consistent = false;
                snprintf(r->why, sizeof r->why, "step test at q=%d gave %a (expected 0 or %g)", q0 + t, d,
                         g->small_step);
            }
        }
    }
    return b->k;
}

/* First position q = p + chunk * t (t >= 1) outside p's accumulator; k when none. */
static int next_run(probe_batch *b, const magnitudes *g, int p, int chunk, tc_gemm_inferred *r)
{
    float same = (float)g->L, apart = (float)g->L + (float)g->small_fp32;
    for (long q0 = p + chunk; q0 < b->k; q0 += (long)chunk * b->cap) {
        clear(b);
        for (int t = 0; t < b->cap && q0 + (long)t * chunk < b->k; t++, b->used++)
            if (!put(b, t, p, g->L) || !put(b, t, (int)(q0 + (long)t * chunk), g->small_fp32))
                return -1;
        if (flush(b))
            return -1;
        for (int t = 0; t < b->used; t++) {
            float d = f32(b->out[t]);
            if (d == apart)
                return (int)(q0 + (long)t * chunk);
            if (d != same && r->consistent) {
                r->consistent = false;
                snprintf(r->why, sizeof r->why, "run test p=%d q=%ld gave %a (expected %a or %a)", p,
                         q0 + (long)t * chunk, d, same, apart);
            }
        }
    }
    return b->k;
}

/* Runs of length len from pos on, checked two probes a run (cap / 2 runs
 * a call): the run's last chunk is still in its accumulator, the next
 * run's first position is not. Appends the confirmed run starts; returns
 * how many (0 when the first does not fit: then scan), -1 on an error. */
static int periodic_runs(probe_batch *b, const magnitudes *g, int pos, int len, int chunk, tc_gemm_inferred *r)
{
    float same = (float)g->L, apart = (float)g->L + (float)g->small_fp32;
    clear(b);
    int nr = 0;
    for (long s = pos; s + len <= b->k && 2 * nr + 1 < b->cap; s += len, nr++) {
        if (!put(b, 2 * nr, (int)s, g->L) || !put(b, 2 * nr + 1, (int)s, g->L) ||
            (len > chunk && !put(b, 2 * nr, (int)(s + len - chunk), g->small_fp32)) ||
            (s + len < b->k && !put(b, 2 * nr + 1, (int)(s + len), g->small_fp32)))
            return -1;
    }
    b->used = 2 * nr;
    if (nr == 0)
        return 0;
    if (flush(b))
        return -1;
    int ok = 0;
    for (; ok < nr; ok++) {
        long s = pos + (long)ok * len;
        bool last_in = f32(b->out[2 * ok]) == (len > chunk ? same : (float)g->L);
        bool next_out = s + len >= b->k || f32(b->out[2 * ok + 1]) == apart;
        if (!last_in || !next_out)
            break;
        r->run_start[r->nruns++] = (int)s;
    }
    return ok;
}

/* lca[j]: runs under the meeting point of run 0 and run j (j >= 1). */
static int meetings(probe_batch *b, const magnitudes *g, tc_gemm_inferred *r)
{
    int R = r->nruns, nbig0 = (R > 1 ? r->run_start[1] : b->k) < 16 ? (R > 1 ? r->run_start[1] : b->k) : 16;
    for (int j0 = 1; j0 < R; j0 += b->cap) {
        clear(b);
        for (int t = 0; t < b->cap && j0 + t < R; t++, b->used++) {
            int j = j0 + t, endj = j + 1 < R ? r->run_start[j + 1] : b->k;
            int nbig = nbig0 < endj - r->run_start[j] ? nbig0 : endj - r->run_start[j];
            if (nbig != nbig0) {   /* too short a run to hold -big: leave the meeting unknown */
                r->lca[j] = -1;
                continue;
            }
            for (int e = 0; e < nbig; e++)
                if (!put(b, t, r->run_start[0] + e, g->big) || !put(b, t, r->run_start[j] + e, -g->big))
                    return -1;
            for (int x = 1; x < R; x++)
                if (x != j && !put(b, t, r->run_start[x], g->unit))
                    return -1;
        }
        if (flush(b))
            return -1;
        for (int t = 0; t < b->used; t++) {
            if (r->lca[j0 + t] == -1)
                continue;
            double units = f32(b->out[t]) / g->unit;
            if (units != floor(units) || units < 0 || units > R - 2) {
                if (r->consistent)
                    snprintf(r->why, sizeof r->why, "meeting test run 0 / run %d gave %a", j0 + t, f32(b->out[t]));
                r->consistent = false;
                r->lca[j0 + t] = -1;
            } else {
                r->lca[j0 + t] = R - (int)units;
            }
        }
    }
    return 0;
}

/* Runs (in all) under the meeting point of slice 0 and slice t among
 * slices [lo, hi) combined pairwise; runs_in[x]: runs of slice x. */
static int pairwise_meet(const int *runs_in, int lo, int hi, int t)
{
    int mid = lo + (hi - lo) / 2;
    if (t < mid)
        return pairwise_meet(runs_in, lo, mid, t);
    int n = 0;
    for (int x = lo; x < hi; x++)
        n += runs_in[x];
    return n;
}

/* The runs and meetings structure s would show; true when they are the observed ones. */
static bool fits(const tc_gemm_struct *s, int k, const tc_gemm_inferred *r)
{
    int S = s->splitk, R = 0, *runs_in = gemm_alloc((size_t)S, sizeof *runs_in);
    int *slice_of = gemm_alloc((size_t)r->nruns + 1, sizeof *slice_of), *cut = gemm_alloc((size_t)S + 1, sizeof *cut);
    gemm_struct_bounds(s, k, cut);
    bool ok = true;
    for (int t = 0; t < S && ok; t++) {
        int lo = cut[t], hi = cut[t + 1], step = s->promote > 0 ? s->promote : hi - lo;
        for (int x = lo; x < hi && ok; x += step > 0 ? step : 1, R++) {
            ok = R < r->nruns && r->run_start[R] == x;
            if (ok)
                slice_of[R] = t, runs_in[t]++;
        }
    }
    ok = ok && R == r->nruns;
    for (int j = 1; j < R && ok; j++) {
        int t = slice_of[j], want = 0;
        if (t == 0)
            want = j + 1;
        else if (s->combine == GEMM_COMBINE_SEQ)
            for (int x = 0; x <= t; x++)
                want += runs_in[x];
        else if (s->combine == GEMM_COMBINE_REVERSE)
            want = R;   /* slice 0 is added last: run 0 meets every other slice at the root */
        else
            want = pairwise_meet(runs_in, 0, S, t);
        ok = r->lca[j] == -1 || r->lca[j] == want;
    }
    free(runs_in), free(slice_of), free(cut);
    return ok;
}

/* The structure from the runs and meetings: slice 0 ends at the first run
 * that meets run 0 above a plain K-order fold. Candidates, the first that
 * fits taken: equal slices, their count K / slice 0 rounded, met in K
 * order, pairwise, or last to first; then other counts (the runs, when
 * each is a slice; K / slice 0 cut down or up; 1 .. 64); then all of it
 * again with slices cut in whole units (powers of two times the chunk: a
 * kernel's K tile, the units left over going to the last slices, so that
 * slice 0 may be shorter than K / splitk). Orders that are one arithmetic
 * (FP32 addition commutes) are reported by the first name: two slices as
 * seq, three met last to first (s0 + (s1 + s2)) as pairwise. */
static void deduce(int k, tc_gemm_inferred *r)
{
    static const tc_gemm_combine order[] = {GEMM_COMBINE_SEQ, GEMM_COMBINE_PAIRWISE, GEMM_COMBINE_REVERSE};
    int R = r->nruns, j0 = 1;
    while (j0 < R && (r->lca[j0] == j0 + 1 || r->lca[j0] == -1))
        j0++;
    int slice0 = j0 < R ? r->run_start[j0] : k, promote = j0 > 1 ? r->run_start[1] : 0;
    int cand[4 + 64], nc = 0;
    cand[nc++] = slice0 > 0 ? (k + slice0 / 2) / slice0 : 1;
    if (promote == 0)
        cand[nc++] = R;
    cand[nc++] = slice0 > 0 ? k / slice0 : 1;
    cand[nc++] = slice0 > 0 ? (k + slice0 - 1) / slice0 : 1;
    for (int S = 1; S <= 64; S++)
        cand[nc++] = S;
    int chunk = r->s.chunk > 0 ? r->s.chunk : 1;
    for (long unit = 0; unit <= k; unit = unit ? unit * 2 : chunk)
        for (int x = 0; x < nc; x++) {
            if (cand[x] < 1 || (x > 0 && cand[x] > 64) || (unit > 0 && unit * cand[x] > k))
                continue;
            r->s.splitk = cand[x];
            r->s.promote = promote < k / cand[x] ? promote : 0;
            r->s.slice_unit = (int)unit;
            for (size_t c = 0; c < sizeof order / sizeof order[0]; c++) {
                r->s.combine = order[c];
                if ((order[c] == GEMM_COMBINE_SEQ || r->s.splitk > 2) && fits(&r->s, k, r))
                    return;
            }
        }
    r->s.splitk = cand[0] > 0 ? cand[0] : 1;
    r->s.promote = promote < k / r->s.splitk ? promote : 0;
    r->s.combine = GEMM_COMBINE_SEQ;
    r->s.slice_unit = 0;
    if (r->consistent)
        snprintf(r->why, sizeof r->why, "%d runs and their meetings fit no chunk/promote/split-K/combine structure",
                 R);
    r->consistent = false;
}

int tc_gemm_infer(const tc_gemm_lib *lib, const tc_gemm_path *p, int m, int n, int k, tc_gemm_inferred *out,
                  char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->consistent = true;
    out->s.splitk = 1;
    if (!p->instr) {
        snprintf(err, errlen, "path %s has no tensor-core instruction: its structure is not inferred", p->name);
        return -1;
    }
    if (k > 65536) {
        snprintf(err, errlen, "structure inference takes K <= 65536 (got %d)", k);
        return -1;
    }
    probe_batch b = {.lib = lib, .p = p, .m = m, .n = n, .k = k, .cap = m < n ? m : n};
    b.A = gemm_alloc((size_t)m * k, sizeof *b.A);
    b.B = gemm_alloc((size_t)k * n, sizeof *b.B);
    b.ii = gemm_alloc((size_t)b.cap, sizeof *b.ii);
    b.out = gemm_alloc((size_t)b.cap, sizeof *b.out);
    for (int t = 0; t < b.cap; t++)
        b.ii[t] = t;
    magnitudes g = mags(p);
    int rc = -1;
    int chunk = find_chunk(&b, &g, out);
    if (chunk < 0)
        goto done;
    out->s.chunk = chunk;
    out->run_start = gemm_alloc((size_t)k / chunk + 2, sizeof *out->run_start);
    for (int pos = 0, len = 0; pos < k;) {
        int ahead = len > 0 ? periodic_runs(&b, &g, pos, len, chunk, out) : 0;
        if (ahead < 0)
            goto done;
        if (ahead > 0) {   /* runs of the last length confirmed: on from the next one */
            pos += ahead * len;
            continue;
        }
        out->run_start[out->nruns++] = pos;
        int next = next_run(&b, &g, pos, chunk, out);
        if (next < 0)
            goto done;
        len = next - pos, pos = next;
    }
    out->lca = gemm_alloc((size_t)out->nruns, sizeof *out->lca);
    if (meetings(&b, &g, out))
        goto done;
    deduce(k, out);
    rc = 0;
done:
    if (rc)
        snprintf(err, errlen, "%s", b.err);
    out->probes = b.probes;
    out->calls = b.calls;
    free(b.A), free(b.B), free(b.ii), free(b.out);
    return rc;
}

void tc_gemm_inferred_free(tc_gemm_inferred *r)
{
    free(r->run_start);
    free(r->lca);
    r->run_start = r->lca = NULL;
}

static void count_predicted(tc_gemm_structure_result *o, size_t nout, const int *ii, const int *jj,
                            const uint32_t *got, const uint32_t *pred)
{
    o->n = nout, o->bit_exact = o->recorded_bit_exact = 0, o->nmiss = 0;
    for (size_t e = 0; e < nout; e++) {
        if (pred[e] == got[e]) {
            o->bit_exact++;
            o->recorded_bit_exact += e < GEMM_RECORDED_OUTPUTS;
        } else if (o->nmiss < 8) {
            o->miss[o->nmiss++] = (tc_gemm_miss){ii[e], jj[e], got[e], pred[e]};
        }
    }
    o->explained = nout > 0 && o->bit_exact * 1000 >= nout * 999;
}

/* The nout outputs of structure s under conversion cv by case c's model
 * (the GPU's when c has one), counted in o->model. */
static int predict(const tc_gemm_path *p, const tc_gemm_case *c, const tc_gemm_struct *s, tc_gemm_incvt cv,
                   const uint32_t *A, const uint32_t *B, size_t nout, const int *ii, const int *jj, uint32_t *pred,
                   tc_gemm_structure_result *o, char *err, size_t errlen)
{
    if (c->model_gpu)
        return gemm_predict_on(c->model_gpu, p, c->profile, s, cv, A, B, c->m, c->n, c->k, nout, ii, jj, pred,
                               &o->model, err, errlen);
    int rc = gemm_predict(p, c->profile, s, cv, A, B, c->n, c->k, nout, ii, jj, pred, err, errlen);
    o->model.cpu += rc ? 0 : nout;
    return rc;
}

/* The masking structure does not fit or does not predict: every structure
 * with the runs seen, fitted to the sampled outputs; the best kept when it
 * predicts more, and what no candidate explains said. */
static void refit(const tc_gemm_path *p, const tc_gemm_case *c, const uint32_t *A, const uint32_t *B, size_t nout,
                  const int *ii, const int *jj, const uint32_t *got, uint32_t *pred, tc_gemm_structure_result *o)
{
    gemm_fit_in in = {p, c->profile, c->k, c->n, 1, o->r.s.chunk, &tc_f32, o->r.nruns, o->r.run_start, A, B,
                      nout, ii, jj, got, false, false, NULL, false, GEMM_IN_AS_UPLOADED, false};
    gemm_fit_out f;
    char err[256];
    if (gemm_fit_structure(&in, &f, err, sizeof err) || !f.have)
        return;
    o->fit_n = f.nfit, o->ncand = f.ncand, o->nunexplained = f.nunexplained;
    memcpy(o->cand, f.cand, sizeof f.cand);
    memcpy(o->unexplained, f.unexplained, sizeof f.unexplained);
    size_t before = o->bit_exact;
    tc_gemm_structure_result keep = *o;
    if (predict(p, c, &f.s, f.cv, A, B, nout, ii, jj, pred, o, err, sizeof err))
        return;
    o->r.s = f.s, o->cvt.used = f.cv;
    count_predicted(o, nout, ii, jj, got, pred);
    if (o->bit_exact <= before) {   /* no better: the masking structure stays */
        o->r.s = keep.r.s, o->cvt.used = keep.cvt.used, o->n = keep.n, o->bit_exact = keep.bit_exact;
        o->recorded_bit_exact = keep.recorded_bit_exact, o->nmiss = keep.nmiss, o->explained = keep.explained;
        memcpy(o->miss, keep.miss, sizeof keep.miss);
        return;
    }
    o->fitted = true;
}

void gemm_infer_and_predict(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c, const uint32_t *A,
                            const uint32_t *B, size_t nout, const int *ii, const int *jj, const uint32_t *got,
                            tc_gemm_structure_result *o)
{
    memset(o, 0, sizeof *o);
    if (tc_gemm_infer(lib, p, c->m, c->n, c->k, &o->r, o->error, sizeof o->error) != 0) {
        o->failed = true;
        tc_gemm_inferred_free(&o->r);
        return;
    }
    /* An own kernel: whether the inference recovered what was built. */
    o->matches_construction = p->built.chunk && o->r.consistent && tc_gemm_struct_same(&o->r.s, &p->built);
    /* The input conversion first (tf32: four candidates, tried on the first
     * GEMM_CVT_TRIED outputs), then every output predicted with it. */
    size_t tried = nout < GEMM_CVT_TRIED ? nout : GEMM_CVT_TRIED;
    char *perr = o->prediction_error;
    size_t plen = sizeof o->prediction_error;
    uint32_t *pred = gemm_alloc(nout, sizeof *pred);
    if (gemm_infer_incvt(p, c->profile, &o->r.s, A, B, c->n, c->k, tried, ii, jj, got, &o->cvt, perr, plen) ||
        predict(p, c, &o->r.s, o->cvt.used, A, B, nout, ii, jj, pred, o, perr, plen)) {
        o->unpredicted = true;
        free(pred);
        return;
    }
    count_predicted(o, nout, ii, jj, got, pred);
    if (!o->explained || !o->r.consistent)
        refit(p, c, A, B, nout, ii, jj, got, pred, o);
    free(pred);
}
