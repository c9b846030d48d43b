/* Family "random": random elements in four distributions (near 1, the whole
 * range, cancelling pairs, uniform bits), so the fit meets the arithmetic
 * where no crafted case looks; the proof (cases/verify.c) draws from the
 * same distributions (cases/random_draw.h, which both draw with).
 * Inference only: a case file is for cases a person can read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"
#include "cases/random_draw.h"

rd_shape infer_rnd_shape(const infer_target *t)
{
    const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};
    return (rd_shape){t->f.a, t->f.b, t->f.c, t->m, t->n, t->k, tc_encode_f64(t->f.c, 0.0, rne)};
}

static int fam_random(cset *s, const infer_target *t, size_t n, uint64_t seed)
{
    uint64_t st = seed;
    uint64_t a[INFER_KMAX], b[INFER_KMAX], c;
    rd_shape rs = infer_rnd_shape(t);
    for (size_t i = 0; i < n; i++) {
        rd_case(&rs, &st, (int)(i % 4), a, 1, b, 1, &c);
        if (cset_add_bits(s, "random", t->k, a, b, c))
            return -1;
    }
    return 0;
}

/* t->random_cases elements (0: 4096) from t->seed (0: a fixed default). */
static int bits_random(cset *s, const infer_target *t)
{
    return fam_random(s, t, t->random_cases ? t->random_cases : 4096, t->seed ? t->seed : 0x7C5C0BE5ull);
}

const tc_family tc_family_random = {"random", NULL, bits_random};
