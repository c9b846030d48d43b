/* Family "determinism": the same tile on many SMs in one batch, and across
 * runs, must give the same bits; an emulated or split path may not.
 * Case files only: the inference repeats its own run (cases/infer.c). */
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

static int gen_determinism(const tc_gen_target *t, tc_casefile *out)
{
    fam_builder b;
    int n = 0;
    fb_init(&b, t, "determinism.tiles", "determinism", -1,
            "the same tile 264 times in one batch (spread over the SMs): the same bits everywhere");
    fam_random_terms(&b, 2);
    b.c.vary.kind = TC_VARY_TILES;
    b.c.vary.count = 264;
    fb_expect(&b, TC_OUT_INVARIANT);
    n += fb_push(&b, out);
    fb_init(&b, t, "determinism.runs", "determinism", -1,
            "the same tile in 4 separate runs: the same bits every time");
    fam_random_terms(&b, 3);
    b.c.vary.kind = TC_VARY_RUNS;
    b.c.vary.count = 4;
    fb_expect(&b, TC_OUT_INVARIANT);
    n += fb_push(&b, out);
    return n;
}

const tc_family tc_family_determinism = {"determinism", gen_determinism, NULL};
