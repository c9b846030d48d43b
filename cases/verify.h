/* verify: the model with given parameters against a target, bit for bit.
 *
 * Whole random tiles from four distributions (values near 1, the whole
 * exponent range, heavily cancelling pairs, uniform bit patterns including
 * NaN/Inf), then every crafted case of cases/infer.h (adversarial: alignment
 * scans, FPRev block patterns, rounding tables, subnormals, specials).
 * A fingerprint is verified only with 0 mismatches; otherwise the smallest
 * failing inputs are kept, each shrunk (terms set to zero while it still
 * fails) so a person can read it.
 */
#ifndef TC_VERIFY_H
#define TC_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/hunt.h"
#include "cases/infer.h"
#include "cases/random_draw.h"

/* Distributions of a proof: 0..3 random tiles (near1, wide, cancel, bits),
 * 4 the inference's crafted cases, then one per hunt family. */
#define VERIFY_NDIST_RANDOM 4
#define VERIFY_DIST_ADVERSARIAL 4
#define VERIFY_DIST_HUNT 5
#define VERIFY_NDIST (VERIFY_DIST_HUNT + HUNT_NFAMILIES)
/* A proof takes 1..VERIFY_MAX_N elements (verify --n); its tiles are made
 * and checked in chunks of at most 2^21 outputs (and 4096 tiles), so its
 * memory stays under about 100 MB whatever n is. */
#define VERIFY_MAX_N 1000000000ull
#define VERIFY_MAX_FAILS 24

typedef struct {
    infer_case c;         /* the (shrunk) inputs and the target's answer d */
    uint64_t model_d;     /* what the model says */
    const char *dist;     /* where it came from: "near1", "wide", "cancel_pairs", "bits", "adversarial", or a
                             hunt family */
    int nonzero_terms;
} verify_failure;

/* Where a whole-tile check's time goes (verify_result.stage_s): drawing the
 * inputs, the target's run (its copies to and from a GPU included), the
 * model's answers (the GPU model's copies included), the comparison. */
enum { VERIFY_STAGE_DRAW, VERIFY_STAGE_EXECUTE, VERIFY_STAGE_MODEL, VERIFY_STAGE_COMPARE, VERIFY_NSTAGES };

typedef struct verify_result {
    size_t n, mismatches;                 /* all elements */
    size_t dist_n[VERIFY_NDIST], dist_mismatches[VERIFY_NDIST];
    verify_failure fails[VERIFY_MAX_FAILS];   /* fewest nonzero terms first */
    size_t nfails;
    double stage_s[VERIFY_NSTAGES];       /* seconds, the random and hunt tiles (not the crafted cases) */
    bool hunt_gpu;                        /* the hunt families ran on t->hunt_run (the "tile" stream),
                                             else verify_hunt ("family" stream, host) */
    bool hunt_host_draw;                  /* with hunt_gpu: t->hunt_run drew the tiles on the host's cores
                                             and ran them through t->run and the model (few tiles) */
    bool random_gpu;                      /* the random tiles ran on t->random_run (the same tiles) */
    double random_s, hunt_s, crafted_s;   /* wall seconds of verify_run's three parts */
} verify_result;

/* Distribution names, index 0..VERIFY_NDIST-1. */
const char *verify_dist_name(int i);
/* Adds the time since *t0 to r's stage `stage` and restarts *t0. */
void verify_stage_add(verify_result *r, int stage, double *t0);
/* Stage names ("draw", "execute", "model", "compare"), index 0..VERIFY_NSTAGES-1. */
const char *verify_stage_name(int i);
/* Where r's hunt families came from, as records say it (reports/SCHEMA.md
 * hunt_path): "gpu" (the tile stream drawn and checked on the GPU path),
 * "host" (the tile stream drawn on the host's cores, checked in rounds), or
 * NULL (the family stream on the host: verify_hunt). */
const char *verify_hunt_path(const verify_result *r);
/* Where r's random tiles were drawn and checked, as records say it
 * (random_path): "gpu" (the GPU path), or NULL (the host's cores). */
const char *verify_random_path(const verify_result *r);

/* The proof's random tiles: t as cases/random_draw.h draws it, and the
 * tiles n elements take (whole tiles, one of each distribution at least).
 * Tile q of the stream from RD_SEED_DEFAULT (seed 0) or seed. */
rd_shape verify_random_shape(const infer_target *t);
size_t verify_random_tiles(const infer_target *t, size_t n);

/* At least n random elements (rounded up to whole tiles; through
 * t->random_run when it takes them, out->random_gpu, else on this host's
 * cores), the adversarial cases, and at least n_hunt elements of every hunt
 * family (cases/hunt.h; 0: none): through t->hunt_run when it takes t
 * (out->hunt_gpu), else verify_hunt. seed 0 uses a fixed default. 0, or -1
 * with err set. */
int verify_run(const infer_target *t, const model_params *p, size_t n, size_t n_hunt, uint64_t seed,
               verify_result *out, char *err, size_t errlen);
/* Only the hunt families, with a compiled model: adds to *r (not cleared,
 * failures kept as verify_run does). 0, or -1 with err. */
int verify_hunt(const infer_target *t, const model *m, size_t n_per_family, uint64_t seed, verify_result *r,
                char *err, size_t errlen);
/* verify_hunt in two steps, for a caller that hunts one instruction after
 * another: verify_hunt_start draws t's first round on a thread of its own
 * (NULL, with err, when out of memory); verify_hunt_finish, with t's target
 * (the same shape and formats) and model, does what verify_hunt does and
 * frees it. So the next instruction's tiles are drawn while one's are
 * checked; the tiles, and the results, are verify_hunt's (draw: the stream
 * of cases/hunt.h; verify_hunt draws HUNT_DRAW_FAMILY). verify_hunt_drop
 * frees one not finished. */
typedef struct verify_hunt_ahead verify_hunt_ahead;
verify_hunt_ahead *verify_hunt_start(const infer_target *t, size_t n_per_family, uint64_t seed, hunt_draw draw,
                                     char *err, size_t errlen);
int verify_hunt_finish(verify_hunt_ahead *a, const infer_target *t, const model *m, verify_result *r, char *err,
                       size_t errlen);
void verify_hunt_drop(verify_hunt_ahead *a);
void verify_result_free(verify_result *r);
/* A mismatching element c (the target's answer in c->d, the model's md) of
 * distribution dist into r's failures, as every whole-tile check keeps them:
 * a few per distribution, the fewest nonzero terms first (copies c's terms).
 * For a caller that compares elsewhere (the GPU hunt, cases/hunt_gpu.h). */
void verify_keep_failure(verify_result *r, const infer_target *t, const infer_case *c, uint64_t md, int dist);

#endif
