/* hunt's replay sample (cli/hunt_sample.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/hunt_sample.h"

/* The replay sample: family f's first `want` answers at D + f * stride, as
 * hex digits of D's width. */
json_t *hunt_sample_of(const tc_instr *ins, const uint64_t *D, size_t stride, size_t want, char *err,
                       size_t errlen)
{
    int digits = ins->d->storage_bits / 4;
    char *hex = malloc(want * (size_t)digits + 1);
    json_t *o = json_object();
    if (!o || !hex) {
        snprintf(err, errlen, "out of memory");
        json_decref(o);
        free(hex);
        return NULL;
    }
    for (int fam = 0; fam < HUNT_NFAMILIES; fam++) {
        const uint64_t *d = D + (size_t)fam * stride;
        for (size_t e = 0; e < want; e++)
            snprintf(hex + e * (size_t)digits, (size_t)digits + 1, "%0*llx", digits, (unsigned long long)d[e]);
        json_object_set_new(o, hunt_family_name(fam), json_string(hex));
    }
    free(hex);
    return o;
}

/* The first `want` answers of every family (tile 0.. of its stream `draw`),
 * every family's tiles one batch for the backend (a call per family cost
 * more than the tiles on a GPU). */
json_t *hunt_sample_run(const infer_target *t, const tc_instr *ins, uint64_t seed, hunt_draw draw, size_t want,
                        char *err, size_t errlen)
{
    json_t *o = NULL;
    size_t mn = (size_t)t->m * t->n, ntiles = (want + mn - 1) / mn, all = ntiles * HUNT_NFAMILIES;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n;
    uint64_t *A = malloc(all * ta * 8), *B = malloc(all * tb * 8), *C = malloc(all * mn * 8), *D = malloc(all * mn * 8);
    if (!A || !B || !C || !D)
        snprintf(err, errlen, "out of memory");
    else {
        for (int fam = 0; fam < HUNT_NFAMILIES; fam++) {
            size_t q = (size_t)fam * ntiles;
            hunt_fill_tiles(t, draw, seed, fam, 0, ntiles, A + q * ta, B + q * tb, C + q * mn);
        }
        if (t->run(t->ctx, all, A, B, C, D, err, errlen) == 0)
            o = hunt_sample_of(ins, D, ntiles * mn, want, err, errlen);
    }
    free(A), free(B), free(C), free(D);
    return o;
}
