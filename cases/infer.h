/* infer: the arithmetic fingerprint of one instruction from its answers.
 *
 * The target is anything that runs tiles (the GPU, or the model itself for
 * the self-test). infer_fingerprint crafts case families (cases/families/:
 * FPRev-style block and split detection, alignment-width scans, rounding
 * truth tables, C in or out of the fused sum, input conversion, subnormals
 * at every stage, NaN/Inf/overflow patterns, random batches), runs them, and fits every
 * model_params field: each field takes the candidate value that reproduces
 * the most answers (coordinate descent from four starts until nothing
 * changes, with joint searches over the interacting pairs of fields, until
 * a start explains every answer). Evidence per field: for every rejected
 * candidate, the cases whose answers it contradicts. A field none of the
 * cases can decide is marked not identifiable (its value does not change any
 * crafted answer; fields can also trade against each other, e.g. FP8 inputs
 * flushed as FP8 vs widened to F16). The fit is only a hypothesis:
 * cases/verify.h proves it.
 */
#ifndef TC_INFER_H
#define TC_INFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oracle/model.h"

/* Runs ntiles independent tiles D = A*B + C (row-major, as probes.h). */
typedef int (*infer_run_fn)(void *ctx, size_t ntiles, const uint64_t *A, const uint64_t *B,
                            const uint64_t *C, uint64_t *D, char *err, size_t errlen);

/* Computes the model's answers to ntiles whole tiles, as model_mma does
 * (the GPU model plugs in here: probes/model_gpu.h). 0, or -1 with err. */
typedef int (*infer_model_fn)(void *ctx, const model *m, int mrows, int ncols, int k, size_t ntiles,
                              const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D, char *err,
                              size_t errlen);

struct infer_target;
struct verify_result;
/* Runs verify's hunt families (n: elements per family) or its random tiles
 * (n: elements) elsewhere (the GPU path: cli/hunt_on.h), as verify would on
 * the host (the hunt's with the "tile" stream), adding to *r. 0; 1 when it
 * cannot take this target (verify runs them on the host); -1 with err. */
typedef int (*infer_hunt_fn)(void *ctx, const struct infer_target *t, const model *m, size_t n_per_family,
                             uint64_t seed, struct verify_result *r, char *err, size_t errlen);

/* Counts a fit's candidates elsewhere (the GPU: probes/model_gpu_fit.h, by
 * way of cli/model_on.c) instead of on the cores (cases/infer_count.c). */
struct infer_case;
typedef struct infer_fit_ops {
    /* n cases, all of K k, put where they are counted: 0 with *set; 1 when
     * not taken there (the cores count them); -1 with err. */
    int (*open)(void *ctx, const struct infer_case *cs, size_t n, int k, void **set, char *err, size_t errlen);
    /* bad[i]: how many of the cases ms[i] gets wrong, exactly; *host: how
     * many of the nv x n evaluations the host's model computed (the rest:
     * elsewhere). 0, or -1 with err. */
    int (*count)(void *set, const model *const *ms, size_t nv, size_t *bad, size_t *host, char *err,
                 size_t errlen);
    void (*close)(void *set);
} infer_fit_ops;

typedef struct infer_target {
    int m, n, k;              /* instruction shape */
    oracle_formats f;         /* A, B, C, D formats */
    infer_run_fn run;
    void *ctx;
    size_t random_cases;      /* random elements added to the fit (0: 4096) */
    uint64_t seed;            /* for the random cases (0: fixed default) */
    const struct infer_case *extra;  /* cases with the target's answers already known (the
                                        counterexamples of a failed proof), added to the fit */
    size_t nextra;
    bool without_hunt;        /* the case set of records written before the hunt families
                                 joined the fit (cases/hunt.h): replay of old answers only */
    const model_params *start; /* a fingerprint to descend from first (the fit that a refit
                                  corrects: its counterexamples usually move one field);
                                  NULL: the fixed starts only */
    infer_model_fn model_run;  /* what computes the model's answers to verify's whole tiles */
    void *model_ctx;           /* (NULL: model_mma on this CPU) */
    infer_hunt_fn hunt_run;    /* what runs verify's hunt families (NULL: verify_hunt here) */
    void *hunt_ctx;
    infer_hunt_fn random_run;  /* what runs verify's random tiles (NULL: on this host's cores) */
    void *random_ctx;
    const infer_fit_ops *fit;  /* what counts the fit's candidates (NULL: the cores) */
    void *fit_ctx;
    void (*progress)(void *ctx, size_t elements);   /* verify: called with the elements just compared */
    void *progress_ctx;                               /* (NULL progress: none) */
} infer_target;

/* One dot product d = sum a[i]*b[i] + c with the target's answer. */
typedef struct infer_case {
    const char *family;       /* static: "align", "block", "round", "cin", "convert", "subnormal", "special",
                                 "random", "counterexample" */
    int k;
    uint64_t *a, *b;          /* k elements each */
    uint64_t c;
    uint64_t d;               /* the target's answer */
} infer_case;

/* A rejected candidate and the cases that reject it. */
#define INFER_MAX_REFS 3
typedef struct {
    char value[64];           /* the rejected value, in profile syntax */
    int nrefs;                /* cases it contradicts (listed up to INFER_MAX_REFS) */
    size_t ncontradicted;     /* how many crafted answers it gets wrong in all */
    size_t ref_case[INFER_MAX_REFS];   /* indices into infer_result.cases */
    uint64_t ref_pred[INFER_MAX_REFS]; /* what the candidate predicts there */
} infer_rejected;

#define INFER_MAX_ALTS 80
typedef struct {
    const char *field;        /* profile key: "block", "align_bits", ... */
    char value[64];           /* the inferred value, in profile syntax */
    bool identifiable;        /* false: some other candidate fits every case too */
    char equivalent[160];     /* those candidates, when not identifiable */
    int nrejected;
    infer_rejected rejected[INFER_MAX_ALTS];
} infer_evidence;

typedef struct {
    model_params params;      /* the fitted fingerprint */
    infer_case *cases;        /* every case run, with its answer */
    size_t ncases;            /* the crafted ones first, then the target's nextra */
    size_t nextra;
    size_t mismatches;        /* cases the fitted params do not reproduce (0 for a sound fit) */
    size_t evals_gpu, evals_cpu; /* the fit's candidate x case evaluations: by infer_target.fit
                                    elsewhere, and by the host's model (the cores, and what
                                    fit's count computed on the host) */
    infer_evidence *ev;       /* one per profile field, in profile order */
    size_t nev;
    /* behaviour outside the model's fields */
    bool deterministic;       /* the same answers on a repeated run */
    size_t nondeterministic;  /* cases whose answers changed */
    bool order_independent;   /* permuting the K terms never changed an answer */
    size_t order_cases, order_changed;
    bool monotone;            /* raising one product never lowered the result */
    size_t monotone_cases, monotone_violations;
} infer_result;

/* Returns 0 with *out filled, or -1 with err set (the target failed, or the
 * instruction's formats are outside the model). */
int infer_fingerprint(const infer_target *t, infer_result *out, char *err, size_t errlen);
void infer_result_free(infer_result *r);

/* Runs dot-product cases on the target: case i is placed on the diagonal of
 * a tile (row i of A, column i of B, C[i][i]), min(m, n) cases per tile;
 * fills each case's d. 0 or -1 with err. */
int infer_run_cases(const infer_target *t, infer_case *cases, size_t n, char *err, size_t errlen);

#endif
