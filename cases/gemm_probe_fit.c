/* The probe's structure, class by class, from the verify outputs
 * (cases/probe.h): each class's runs and verify outputs handed to
 * gemm_fit_structure (cases/gemm_fit.c), then every verify output
 * predicted with the structure kept. The D's may have been rounded to a
 * 16-bit output (the call's output type): the outputs say so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "cases/gemm_probe_internal.h"
#include "probes/probes.h"

/* The output format the verify D shows: f16 or bf16 when every output is
 * one (random sums of K products never all are otherwise), else FP32. */
static const tc_format *output_format(const tc_probe_design *d, const uint32_t *D)
{
    const tc_format *cand = !strcmp(d->fmt->name, "f16") ? &tc_f16 : !strcmp(d->fmt->name, "bf16") ? &tc_bf16 : NULL;
    if (!cand)
        return &tc_f32;
    for (size_t e = 0; e < (size_t)d->m * d->n; e++)
        if (gemm_round_out(cand, D[e]) != D[e])
            return &tc_f32;
    return cand;
}

/* ---- per class ------------------------------------------------------------- */

/* The verify outputs of class c (grid rows and columns, blocks of c). */
static size_t class_outputs(const tc_probe_design *d, const tc_probe_result *r, int c, int *ii, int *jj)
{
    size_t n = 0;
    for (int i = 0; i < d->m; i += d->vrow)
        for (int j = 0; j < d->n; j += d->vcol)
            if (r->block_class[(size_t)(i / d->runs_r) * r->nbn + j / d->runs_c] == c)
                ii[n] = i, jj[n] = j, n++;
    return n;
}

static void keep_miss(tc_gemm_miss *list, int *n, int i, int j, uint32_t got, uint32_t pred)
{
    if (*n < TC_PROBE_KEEP)
        list[(*n)++] = (tc_gemm_miss){i, j, got, pred};
}

static void keep_miss(tc_gemm_miss *list, int *n, int i, int j, uint32_t got, uint32_t pred);

/* A chain without fused steps: FP32 FMA runs from +0 (a SIMT kernel). The
 * runs product cannot see where they restart (every boundary test reads
 * "apart" in a chain that rounds each product), so runs of P positions
 * are tried (P 0: one chain a slice; 16, 32, .. K/2: cuBLAS's FFMA SGEMM on
 * the H200 restarts its chains every 64 or 128), each with every
 * slicing; every output of the class is tried, the best kept. */
#define FMA_MIN_RUN 16   /* the shortest chain tried; starts holds K / FMA_MIN_RUN + 1 of them */

static int fit_fma(gemm_fit_in *in, tc_probe_result *r, tc_probe_class *k, const uint32_t *got, char *err,
                   size_t errlen)
{
    int *starts = gemm_alloc((size_t)in->k / FMA_MIN_RUN + 2, sizeof *starts), best_P = -1;
    uint32_t *pred = gemm_alloc(in->nout, sizeof *pred);
    gemm_fit_out f;
    double best_rate = -1;
    int rc = 0;
    in->fma = true, in->chunk = 1, in->gran = 1, in->run_start = starts;
    for (int pass = 0; pass < 2 && !rc; pass++)   /* P chosen on the outputs tried, then every output */
        for (int P = pass ? best_P : 0; P < in->k && !rc && P >= 0; P = pass ? in->k : P ? P * 2 : FMA_MIN_RUN) {
            in->nruns = 0;
            for (int x = 0; x < in->k; x += P ? P : in->k)
                starts[in->nruns++] = x;
            in->all = pass == 1, in->pred = pass ? pred : NULL;
            rc = gemm_fit_structure(in, &f, err, errlen);
            if (!rc && !pass && f.have && (double)f.best_n / f.nfit > best_rate)
                best_rate = (double)f.best_n / f.nfit, best_P = P;
        }
    if (!rc && best_P >= 0 && f.have) {
        k->s = f.s, k->n = in->nout, k->nruns = in->nruns;
        r->fit_n = f.nfit, r->ncand = f.ncand;
        memcpy(r->cand, f.cand, sizeof f.cand);
        for (int e = 0; e < f.nunexplained; e++)
            keep_miss(r->unexplained, &r->nunexplained, f.unexplained[e].i, f.unexplained[e].j, f.unexplained[e].got,
                      f.unexplained[e].predicted);
        for (size_t e = 0; e < in->nout; e++) {
            if (pred[e] == got[e])
                k->bit_exact++;
            else
                keep_miss(r->miss, &r->nmiss, in->ii[e], in->jj[e], got[e], pred[e]);
            r->vi[r->nout] = in->ii[e], r->vj[r->nout] = in->jj[e], r->vgot[r->nout] = got[e];
            r->vpred[r->nout++] = pred[e];
        }
    }
    free(starts), free(pred);
    return rc;
}

/* ---- slices cut where the runs product tests nothing -------------------------
 * The runs product tests a boundary every gran positions; equal slices of
 * K / S positions (the rest to the last: gemm_struct_bounds) are cut off
 * that grid when gran does not divide K / S, and the masking never sees
 * those cuts. Such a structure (promote P in each slice, from its start)
 * is tried where every boundary it puts on the grid is one the class
 * showed, and only its cuts off the grid are unseen: the verify outputs
 * decide. The runs fitted are the structure's own (gran 1). */

/* The runs of S equal slices promoting every P (0: never) into runs; true
 * when its runs on the grid are exactly the class's and some are off it. */
static bool hidden_runs(const tc_probe_design *d, const tc_probe_class *k, int S, int P, int shift, int *runs,
                        int *nruns)
{
    int n = 0, seen = 0, hidden = 0, per = d->k / S;
    for (int t = 0; t < S; t++) {
        int lo = t ? t * per + shift : 0, hi = t + 1 < S ? (t + 1) * per + shift : d->k;
        for (int x = lo; x < hi; x += P > 0 ? P : hi - lo) {
            runs[n++] = x;
            if (x % d->gran) {
                hidden++;
                continue;
            }
            if (seen >= k->nruns || k->run_start[seen] != x)
                return false;
            seen++;
        }
    }
    *nruns = n;
    return hidden > 0 && seen == k->nruns;
}

/* The best fit with hidden cuts into *f when it predicts more fit outputs
 * than f's; the note says which, and whether cuts one position off
 * predict as many (then the positions are not decided). */
static int fit_hidden_cuts(const tc_probe_design *d, const tc_probe_class *k, gemm_fit_in in, gemm_fit_out *f,
                           char *note, size_t notelen, char *err, size_t errlen)
{
    int *runs = gemm_alloc((size_t)d->k + TC_GEMM_MAX_SLICES + 1, sizeof *runs), nruns, best_S = 0, best_P = 0;
    gemm_fit_out g;
    int rc = 0, P[2] = {0, k->nruns > 1 ? k->run_start[1] : 0};
    in.gran = 1, in.run_start = runs;
    for (int S = 2; S <= 16 && !rc; S++)
        for (int x = 0; x < 2 && !rc; x++)
            if ((x == 0 || P[x] > 0) && hidden_runs(d, k, S, P[x], 0, runs, &nruns)) {
                in.nruns = nruns;
                rc = gemm_fit_structure(&in, &g, err, errlen);
                if (!rc && g.have && (!f->have || g.best_n > f->best_n))
                    *f = g, best_S = S, best_P = P[x];
            }
    if (!rc && best_S) {
        char off[16] = "";
        for (int shift = -1; shift <= 1 && !rc; shift += 2)   /* the cuts one position off */
            if (hidden_runs(d, k, best_S, best_P, shift, runs, &nruns)) {
                in.nruns = nruns;
                rc = gemm_fit_structure(&in, &g, err, errlen);
                if (!rc && g.have && g.best_n >= f->best_n)
                    snprintf(off + strlen(off), sizeof off - strlen(off), " %+d", shift);
            }
        snprintf(note, notelen, "split-K %d cut off the %d-position grid the runs product tests: chosen by the "
                 "verify outputs%s%s%s", best_S, d->gran, off[0] ? " (cuts moved by" : "", off,
                 off[0] ? " predict as many: their positions are not decidable)" : "");
    }
    free(runs);
    return rc;
}

static int fit_class(const tc_probe_design *d, const char *profile, const uint32_t *D, const uint32_t *A,
                     const uint32_t *B, tc_probe_result *r, int c, int *ii, int *jj, char *err, size_t errlen)
{
    tc_probe_class *k = &r->cls[c];
    size_t nout = class_outputs(d, r, c, ii, jj);
    uint32_t *got = gemm_alloc(nout, sizeof *got);
    for (size_t e = 0; e < nout; e++)
        got[e] = D[(size_t)ii[e] * d->n + jj[e]];
    gemm_fit_in in = {d->path, profile, d->k, d->n, d->gran, r->chunk, r->out, k->nruns, k->run_start, A, B,
                      nout, ii, jj, got, false, false, NULL, false, GEMM_IN_FP8_AS_F16, r->fp8_as_f16};
    gemm_fit_out f;
    int rc;
    if (!r->chain) {   /* no fused step: FP32 FMA chains */
        rc = fit_fma(&in, r, k, got, err, errlen);
        free(got);
        return rc;
    }
    rc = gemm_fit_structure(&in, &f, err, errlen);
    char note[320] = "";
    if (!rc && (!f.have || f.best_n * 1000 < f.nfit * 999))   /* not explained on the grid's runs */
        rc = fit_hidden_cuts(d, k, in, &f, note, sizeof note, err, errlen);
    if (note[0])
        snprintf(r->why + strlen(r->why), sizeof r->why - strlen(r->why), "%sclass %d: %s", r->why[0] ? "; " : "", c,
                 note);
    if (rc || !f.have) {
        if (!rc)
            snprintf(r->why, sizeof r->why, "class %d: %d runs fit no promote/split-K structure (up to %d slices)",
                     c, k->nruns, TC_GEMM_MAX_SLICES);
        k->s = (tc_gemm_struct){.chunk = r->chunk, .splitk = 1};
        k->n = nout;
        free(got);
        return rc;
    }
    k->s = f.s;
    int main = 0;   /* the largest class speaks for the call */
    for (int x = 1; x < r->nclass; x++)
        main = r->cls[x].blocks > r->cls[main].blocks ? x : main;
    if (c == main) {
        r->cvt = f.cv, r->fit_n = f.nfit, r->ncand = f.ncand, r->cvt_tried = f.nfit;
        memcpy(r->cand, f.cand, sizeof f.cand);
        memcpy(r->cvt_bit_exact, f.cvt_bit_exact, sizeof f.cvt_bit_exact);
    }
    for (int e = 0; e < f.nunexplained; e++)
        keep_miss(r->unexplained, &r->nunexplained, f.unexplained[e].i, f.unexplained[e].j, f.unexplained[e].got,
                  f.unexplained[e].predicted);
    /* Every output of the class with the structure kept. */
    uint32_t *pred = gemm_alloc(nout, sizeof *pred);
    rc = gemm_predict(d->path, profile, &k->s, f.cv, A, B, d->n, d->k, nout, ii, jj, pred, err, errlen);
    k->n = nout;
    for (size_t e = 0; e < nout && !rc; e++) {
        uint32_t want = got[e], p = gemm_round_out(r->out, pred[e]);
        if (p == want)
            k->bit_exact++;
        else
            keep_miss(r->miss, &r->nmiss, ii[e], jj[e], want, p);
        r->vi[r->nout] = ii[e], r->vj[r->nout] = jj[e], r->vgot[r->nout] = want, r->vpred[r->nout++] = p;
    }
    free(pred), free(got);
    return rc;
}

/* No fused step seen, yet partial sums stay in an accumulator: an FP32
 * FMA chain rounds every product, so every runs test of it reads "apart";
 * here some read "same accumulator". On an FP8 path that is a 16-bit
 * tensor-core chain fed FP8 widened to f16 (Triton on Hopper when wgmma
 * cannot accumulate as asked: gemm.h GEMM_IN_FP8_AS_F16), whose fused
 * step keeps the FP8 step test's small product (2^-16 of L), so the step
 * test cannot see it: the chunk is the instruction's K. */
static void fp8_as_f16(const tc_probe_design *d, tc_probe_result *r)
{
    int main = 0;
    for (int x = 1; x < r->nclass; x++)
        main = r->cls[x].blocks > r->cls[main].blocks ? x : main;
    const tc_instr *ins = tc_instr_by_name(GEMM_F16_MMA_SYNC);
    if (r->chain || !d->path->fp8 || !r->nclass || r->cls[main].nruns >= d->nbound || !ins)
        return;
    r->fp8_as_f16 = r->chain = true;
    r->chunk = ins->k;
    snprintf(r->why + strlen(r->why), sizeof r->why - strlen(r->why), "%sno fused step seen but sums kept in an "
             "accumulator: FP8 widened to f16 on %s, chunk its K", r->why[0] ? "; " : "", GEMM_F16_MMA_SYNC);
}

int probe_fit(const tc_probe_design *d, const char *profile_path, const uint32_t *D, const uint32_t *A,
              const uint32_t *B, const tc_probe_tick *tick, tc_probe_result *r, char *err, size_t errlen)
{
    fp8_as_f16(d, r);
    r->out = output_format(d, D);
    r->cvt = GEMM_IN_AS_UPLOADED;
    size_t cap = (size_t)((d->m + d->vrow - 1) / d->vrow) * ((d->n + d->vcol - 1) / d->vcol);
    int *ii = gemm_alloc(cap, sizeof *ii), *jj = gemm_alloc(cap, sizeof *jj);
    r->vi = gemm_alloc(cap, sizeof *r->vi), r->vj = gemm_alloc(cap, sizeof *r->vj);
    r->vgot = gemm_alloc(cap, sizeof *r->vgot), r->vpred = gemm_alloc(cap, sizeof *r->vpred);
    int rc = 0;
    for (int c = 0; c < r->nclass && !rc; c++) {
        rc = fit_class(d, profile_path, D, A, B, r, c, ii, jj, err, errlen);
        r->n += r->cls[c].n, r->bit_exact += r->cls[c].bit_exact;
        if (tick)
            tick->fn(tick->ctx, (size_t)c + 1, (size_t)r->nclass + 1);
    }
    free(ii), free(jj);
    return rc;
}
