/* Family "nan_payload": which NaN operand a NaN result carries (A against B,
 * each against C, a later product against C, two products in K order) and
 * whether a signalling NaN comes back quiet (model_params nan_prop), which
 * the canonical-NaN cases of specials.c cannot tell apart.
 * Inference only: a case file states nothing about payloads beyond "D is
 * NaN" (specials.c prints the input patterns). IEEE formats only. */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

/* A NaN of f with the given sign, quiet bit and payload (below the quiet bit). */
static uint64_t nan_of(const tc_format *f, int sign, bool quiet, uint64_t payload)
{
    uint64_t exp = ((1ull << f->ebits) - 1) << f->mbits;
    uint64_t q = quiet ? 1ull << (f->mbits - 1) : 0;
    return (((uint64_t)sign << (f->ebits + f->mbits)) | exp | q | payload) << f->shift;
}

/* NaN payloads: which NaN operand a NaN result carries, if any (A against
 * B, each against C, a later product against C, two products in K order)
 * and whether a signaling NaN comes back quieted. IEEE formats only. */
static int fam_nan_payload(cset *s, const infer_target *t)
{
    const oracle_formats *f = &t->f;
    int k = t->k, rc = 0;
    if (k < 2 || f->a->specials != TC_SPECIALS_IEEE || f->b->specials != TC_SPECIALS_IEEE ||
        f->c->specials != TC_SPECIALS_IEEE || f->a->mbits < 3 || f->b->mbits < 3 || f->c->mbits < 3)
        return 0;
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    uint64_t za = tc_encode_f64(f->a, 0.0, rne), zb = tc_encode_f64(f->b, 0.0, rne);
    uint64_t one_a = tc_encode_f64(f->a, 1.0, rne), one_b = tc_encode_f64(f->b, 1.0, rne);
    uint64_t c0 = tc_encode_f64(f->c, 0.0, rne);
    for (int v = 0; v < 7; v++) {
        for (int i = 0; i < k; i++) {
            a[i] = za;
            b[i] = zb;
        }
        uint64_t c = c0;
        switch (v) {
        case 0: a[0] = nan_of(f->a, 0, true, 1); b[0] = nan_of(f->b, 1, true, 2); break;
        case 1: a[0] = nan_of(f->a, 0, true, 1); b[0] = one_b; c = nan_of(f->c, 1, true, 2); break;
        case 2: a[0] = one_a; b[0] = nan_of(f->b, 0, true, 1); c = nan_of(f->c, 1, true, 2); break;
        case 3: a[0] = nan_of(f->a, 1, false, 3); b[0] = one_b; break;
        case 4: a[k - 1] = nan_of(f->a, 0, true, 1); b[k - 1] = one_b; c = nan_of(f->c, 1, true, 2); break;
        case 5: a[0] = nan_of(f->a, 0, true, 1); b[0] = one_b; a[k - 1] = nan_of(f->a, 1, true, 2); b[k - 1] = one_b; break;
        case 6: a[0] = one_a; b[0] = nan_of(f->b, 1, false, 3); c = nan_of(f->c, 0, false, 1); break;
        }
        rc |= cset_add_bits(s, "special", k, a, b, c);
    }
    return rc;
}

const tc_family tc_family_nan_payload = {"nan_payload", NULL, fam_nan_payload};
