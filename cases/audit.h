/* audit: one instruction's fingerprint, its proof and its feature answers, as data.
 *
 * For each instruction the audit infers the model parameters from the
 * backend's answers (cases/infer.h), proves them bit for bit on a large
 * random + adversarial batch (cases/verify.h), asks the published feature
 * questions (cases/features.h). The result is a C struct (audit_result);
 * reports/record_audit.h writes it as an `audit` object of reports/SCHEMA.md
 * with the instruction's timing, and cli/cmd_audit.c makes the profile entry;
 * a fingerprint counts as verified only with 0 mismatches.
 */
#ifndef TC_AUDIT_H
#define TC_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "cases/casefile.h"
#include "cases/features.h"
#include "cases/infer.h"
#include "cases/verify.h"
#include "probes/probes.h"

/* The proof's size (--n): 1..VERIFY_MAX_N elements, 10^6 by default on a
 * GPU. Memory stays bounded whatever n is: tiles are made and checked in
 * chunks (cases/verify.h; the integer control likewise, 2^16 outputs). */
#define AUDIT_MAX_N VERIFY_MAX_N

typedef struct {
    size_t verify_n;          /* random elements of the proof (rounded up to tiles) */
    size_t hunt_n;            /* elements of the proof per hunt family (cases/hunt.h), 0: none */
    uint64_t seed;            /* of the inference's and the proof's random cases */
    bool keep_cases;          /* keep every inference case's answer (audit_result.answers) */
    const infer_case *given;  /* inputs that failed elsewhere (a hunt's failures for this
                                 instruction): asked again on the backend, never taken on
                                 trust, and fitted from the start as counterexamples */
    size_t ngiven;
    infer_model_fn model_run; /* what computes the proof's expected answers (the GPU model:
                                 cli/model_on.h); NULL: model_mma on this CPU */
    void *model_ctx;
    const infer_fit_ops *fit; /* what counts the fit's candidates (the GPU: cli/model_on.h);
                                 NULL: the cores */
    void *fit_ctx;
    infer_hunt_fn hunt_run;   /* what runs the proof's hunt families (the GPU path:
                                 cli/hunt_on.h); NULL: verify_hunt on this CPU */
    void *hunt_ctx;
    infer_hunt_fn random_run; /* what runs the proof's random tiles (the GPU path:
                                 cli/hunt_on.h); NULL: this host's cores */
    void *random_ctx;
} audit_opts;

/* One overflow candidate of the integer control (saturate or wrap) against
 * the hardware: how many outputs it gets wrong, and the first of them. */
typedef struct {
    size_t count, first;      /* first: SIZE_MAX while none */
    uint64_t *a, *b;          /* the K terms of the first difference (owned) */
    uint64_t c, hw, pred;     /* its accumulator, the hardware's and the candidate's bits */
} audit_miss;

/* An integer instruction's audit (outside the floating-point model): the
 * exact integer sum with the two overflow behaviours as candidates. */
typedef struct {
    bool wrap;                /* the answers agree with wrapping modulo 2^32 (else saturating) */
    size_t elements;          /* outputs compared */
    audit_miss sat, wrp;      /* each candidate's differences (wrp.count SIZE_MAX: not an integer output) */
} audit_control;

/* The audit of one instruction, as data: reports/record_audit.h turns it
 * into the `audit` object of reports/SCHEMA.md. */
typedef struct {
    const tc_instr *ins;
    bool control;             /* outside the model: checked against the exact oracle only (ctl) */
    infer_result fit;
    verify_result proof;      /* with control: only n and mismatches are set */
    audit_control ctl;
    int counterexample_rounds;
    double fit_s;             /* wall seconds of the fits (refits included); the proof's are in proof */
    double fit_count_s;       /* of them, the counts done on the GPU (infer_target.fit), waits
                                 included: the caller sets it (cli/audit_run.c) */
    /* the published feature questions: ok, or why they could not run */
    bool features_ok;
    char features_err[256];
    tc_feature_summary *features;   /* nfeatures summaries (strings in features_cf) */
    size_t nfeatures;
    tc_casefile features_cf;
    bool keep_cases;          /* the record keeps every inference answer (audit_opts) */
    uint64_t seed;            /* the inference's seed: the answers are regenerated from it */
} audit_result;

/* True for an instruction outside the floating-point model (integer
 * formats): its audit is the control, the exact integer sums computed on
 * the host's cores (minutes at 10^8 elements, where a fitted one's proof
 * runs on the GPU). */
bool audit_is_control(const tc_instr *ins);
/* Audits one instruction on the backend. 0, or -1 with err (the backend
 * failed); an instruction outside the model gets the control. */
int audit_instr(tc_backend *be, const tc_instr *ins, const audit_opts *o, audit_result *out,
                char *err, size_t errlen);
void audit_result_free(audit_result *r);

/* The inference target that runs tiles of ins on be (ctx must outlive it).
 * For a 2:4 (tf32: 1:2) sparse instruction the target's dots are the K/2
 * terms the instruction really sums: compressed tiles, placed at the first
 * kept positions of every group of the logical tile the backend takes; its
 * fingerprint (block, order, ...) is that of the compressed sum. */
typedef struct {
    tc_backend *be;
    const tc_instr *ins;
} audit_backend_ctx;
infer_target audit_target(audit_backend_ctx *ctx, uint64_t seed);

/* The inference cases the audit of ins with this seed runs (inputs only),
 * and a hash over their inputs: CI regenerates them to replay the recorded
 * answers, and the hash proves they are the cases that ran. */
int audit_regen_cases(const tc_instr *ins, uint64_t seed, bool without_hunt, infer_case **cases, size_t *n);
void audit_cases_free(infer_case *cases, size_t n);
/* The failures that records (a hunt's objects) list for ins, and the other
 * deciding inputs a decide ask lists beside them ("deciding"), as cases to
 * give the audit (audit_opts.given; answers not kept: the audit asks its
 * backend). 0 (none is fine), or -1 with err when they are malformed. */
int audit_given_cases(const json_t *objects, const tc_instr *ins, infer_case **cases, size_t *n, char *err,
                      size_t errlen);
uint64_t audit_cases_hash(const infer_case *cs, size_t n);

/* Every case behind a recorded answers object with the recorded answer in
 * .d: the crafted ones regenerated from its seed (and checked against its
 * inputs hash), then its counterexamples. 0, or -1 with err. */
int audit_answer_cases(const tc_instr *ins, const json_t *answers, infer_case **cases, size_t *n,
                       char *err, size_t errlen);

#endif
