/* cases/recording.h: the instructions of a recording run one after the
 * other; for chains, the last full record of each chain key kept while a
 * later instruction of the set may be written as same_as it. */
#include <stdlib.h>
#include <string.h>

#include "cases/recording.h"
#include "probes/backend_corpus.h"
#include "probes/layout.h"

/* Whether s runs ins: with all, only what b can run (and, for chains, what
 * has chains); what b cannot run is said through s->skipped. */
static bool runs(tc_backend *b, const tc_recording_set *s, const tc_instr *ins, bool chains)
{
    char why[384];
    if (!s->all)
        return true;
    if (chains && !tc_instr_has_chains(ins, NULL, 0))
        return false;
    if (!tc_backend_supports(b, ins, why, sizeof why)) {
        if (s->skipped)
            s->skipped(s->ctx, why);
        return false;
    }
    return true;
}

int tc_recording_corpus(tc_backend *b, const tc_recording_set *s, size_t elems, uint64_t seed,
                        tc_recording_put_corpus put, void *ctx, char *err, size_t errlen)
{
    for (size_t i = 0; i < s->n; i++) {
        if (!runs(b, s, s->instrs[i], false))
            continue;
        tc_corpus_rec rec;
        if (tc_corpus_run(b, s->instrs[i], elems, seed, &rec, err, errlen))
            return -1;
        int rc = put(ctx, &rec, err, errlen);
        tc_corpus_rec_free(&rec);
        if (rc)
            return -1;
    }
    return 0;
}

/* TF32 from f32: sm_90 has .satfinite for tf32 only with .rna, emulated and
 * with its own NaNs; cvt.rn.tf32.f32 is native and matches tc_encode bit for
 * bit. A = D (f16, f64): nothing is converted, and a saturating encoder
 * would turn D's Inf into max where the GPU keeps it. Otherwise the GPU
 * converts a wider D into FP8, f16 or bf16 with satfinite. */
tc_rounding tc_recording_default_cvt(const tc_instr *ins)
{
    bool wide = ins->a == &tc_tf32 || ins->a == ins->d;
    return (tc_rounding){.mode = TC_RNE, .ovf = wide ? TC_OVF_INF : TC_OVF_SAT};
}

/* The last full chain record of each key still needed (a record can be
 * large: nothing else is kept). */
typedef struct {
    size_t n;
    tc_chain_rec *recs; /* at most one per instruction of the set */
} chain_twins;

/* Whether an instruction after index i of s has the chain key key. */
static bool key_used_later(const tc_recording_set *s, size_t i, const char *key)
{
    char k2[96];
    for (size_t j = i + 1; j < s->n; j++) {
        if (!tc_instr_has_chains(s->instrs[j], NULL, 0))
            continue;
        tc_chain_key(s->instrs[j], k2, sizeof k2);
        if (!strcmp(k2, key))
            return true;
    }
    return false;
}

/* What chain_one hands each record to. */
typedef struct {
    tc_recording_put_chain put;
    void *ctx;
} chain_put;

static int chain_one(tc_backend *b, const tc_recording_set *s, size_t i, size_t nchains, int len,
                     const tc_rounding *cvt, uint64_t seed, chain_twins *tw, const chain_put *p, char *err,
                     size_t errlen)
{
    const tc_instr *ins = s->instrs[i];
    char key[96];
    tc_chain_key(ins, key, sizeof key);
    size_t ti = tw ? tw->n : 0; /* this key's entry in the table */
    for (size_t t = 0; tw && t < tw->n; t++)
        if (!strcmp(tw->recs[t].key, key))
            ti = t;
    tc_chain_rec *twin = tw && ti < tw->n ? &tw->recs[ti] : NULL, rec;
    tc_rounding r = cvt ? *cvt : tc_recording_default_cvt(ins);
    if (tc_chain_run(b, ins, nchains, len, r, seed, twin, &rec, err, errlen))
        return -1;
    int rc = p->put(p->ctx, &rec, err, errlen);
    if (rc || !tw) { /* stopped, or no twins kept (a named list): done with rec */
        tc_chain_rec_free(&rec);
        return rc ? -1 : 0;
    }
    bool later = key_used_later(s, i, key);
    if (rec.same_as[0] || !later)
        tc_chain_rec_free(&rec);
    else {
        if (twin)
            tc_chain_rec_free(twin);
        tw->recs[ti] = rec;
        tw->n += ti == tw->n;
    }
    if (!later && twin) { /* the key is done: drop its entry */
        tc_chain_rec_free(twin);
        tw->recs[ti] = tw->recs[--tw->n];
    }
    return 0;
}

int tc_recording_chains(tc_backend *b, const tc_recording_set *s, size_t nchains, int len,
                        const tc_rounding *cvt, uint64_t seed, tc_recording_put_chain put, void *ctx, char *err,
                        size_t errlen)
{
    chain_put p = {put, ctx};
    /* twins only within "all": a named list is recorded as named */
    chain_twins tw = {0, calloc(s->n + 1, sizeof(tc_chain_rec))};
    if (!tw.recs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < s->n && !rc; i++)
        if (runs(b, s, s->instrs[i], true))
            rc = chain_one(b, s, i, nchains, len, cvt, seed, s->all ? &tw : NULL, &p, err, errlen);
    for (size_t i = 0; i < tw.n; i++)
        tc_chain_rec_free(&tw.recs[i]);
    free(tw.recs);
    return rc;
}

size_t tc_recording_layout(tc_backend *b, const tc_recording_set *s,
                           void (*result)(void *ctx, const tc_instr *ins, const char *why), void *ctx)
{
    size_t failed = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!runs(b, s, s->instrs[i], false))
            continue;
        char msg[384];
        bool bad = tc_layout_probe(b, s->instrs[i], msg, sizeof msg) != 0;
        failed += bad;
        result(ctx, s->instrs[i], bad ? msg : NULL);
    }
    return failed;
}
