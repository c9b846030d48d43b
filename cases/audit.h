/* audit: one instruction's fingerprint, its proof and its timing, as a record.
 *
 * For each instruction the audit infers the model parameters from the
 * backend's answers (cases/infer.h), proves them bit for bit on a large
 * random + adversarial batch (cases/verify.h), asks the published feature
 * questions (cases/features.h), and attaches the instruction's timing (a live
 * bench on the GPU, else the recorded bench of the same device). The result
 * is an `audit` object of reports/SCHEMA.md plus the profile entry; a
 * fingerprint counts as verified only with 0 mismatches.
 */
#ifndef TC_AUDIT_H
#define TC_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

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
    const json_t *timing;     /* bench objects to attach, by instr (array), or NULL */
    bool keep_cases;          /* put every inference case's answer in the record */
    const infer_case *given;  /* inputs that failed elsewhere (a hunt's failures for this
                                 instruction): asked again on the backend, never taken on
                                 trust, and fitted from the start as counterexamples */
    size_t ngiven;
} audit_opts;

typedef struct {
    const tc_instr *ins;
    infer_result fit;
    verify_result proof;
    json_t *object;           /* the `audit` record object (owned) */
    bool control;             /* outside the model: checked against the exact oracle only */
} audit_result;

/* Audits one instruction on the backend. 0, or -1 with err (the backend
 * failed, or the instruction is outside the model: integer formats). */
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
/* The failures that records (a hunt's objects) list for ins, as cases to
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

/* The evidence object of a fit: per field, the value, whether the cases
 * decide it, and for each rejected candidate the cases that reject it with
 * their inputs, the hardware's bits and the candidate's prediction. */
json_t *audit_evidence_json(const infer_result *fit, const tc_instr *ins);

#endif
