/* model: a parametrized, bit-accurate software tensor core.
 *
 * One output element is d = sum_k a[k]*b[k] + c computed the way a tensor
 * core might: inputs possibly converted and flushed, products exact or
 * rounded, the K products cut into sequential steps of `block` terms, each
 * step a fused sum aligned to a reference exponent with a limited number of
 * fraction bits, the running accumulator held in some format between steps,
 * and a final rounding into the output format. model_params says which; the
 * audit infers them from hardware answers (cases/infer.h), profiles store
 * them as text (oracle/profile.h).
 *
 * The setting of model_params_exact() (exact products, unlimited alignment,
 * one step, accumulator held exactly, one final rounding) is the correctly
 * rounded result and equals oracle_dot_exact bit for bit.
 *
 * Hot path: int64/int128 fixed point; the GMP reference (model_reference.c)
 * takes over only when the terms span more bits than 128 (very wide
 * alignment on far-apart exponents).
 */
#ifndef TC_MODEL_H
#define TC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/formats.h"
#include "oracle/oracle.h"

/* Sentinels for integer fields. */
#define MODEL_EXACT        (-1)        /* align_bits / prod_bits: keep every bit */
#define MODEL_UNLIMITED    0           /* carry_bits: the sum register never wraps */
#define MODEL_NO_FLUSH     (-100000)   /* prod_flush_exp: no product is flushed */

/* How an operand is consumed: as given, or first converted to fmt with round.
 * The source value is the whole container (a TF32 operand is read as the
 * FP32 it is stored in), so "tf32 with rz" drops the 13 low bits and "as
 * given" would use them. */
typedef struct {
    bool convert;          /* false: use the instruction's format as is */
    tc_format fmt;         /* the format converted to (by value: generic eXmY allowed) */
    tc_round round;        /* rne, rna, rz, ru, rd, ro */
} model_cvt;

/* Where C enters. */
typedef enum {
    MODEL_C_FIRST,   /* C is the initial accumulator: it joins the first step's fused sum */
    MODEL_C_LAST     /* the steps start from 0; C is added to the result with c_round */
} model_c_mode;

/* Which exponent a product offers as alignment reference. */
typedef enum {
    MODEL_EXP_NOMINAL,     /* ea + eb (exponent fields; the significand product is in [1,4)) */
    MODEL_EXP_NORMALIZED   /* floor(log2 |a*b|) */
} model_exp_ref;

/* What happens to the bits of a term shifted below the kept fraction bits. */
typedef enum {
    MODEL_ALIGN_TRUNC,   /* sign-magnitude: toward zero */
    MODEL_ALIGN_FLOOR,   /* two's complement: toward -Inf */
    MODEL_ALIGN_RNE      /* each term rounded to nearest even on the grid */
} model_align_round;

/* Which NaN a NaN result is. CANONICAL: always nan_bits. Otherwise a NaN
 * operand's payload, quieted, propagates (invalid operations such as
 * 0*Inf or Inf-Inf still give nan_bits); when several operands of a step
 * are NaN the first in the named order of A, B and the running
 * accumulator (C in the first step) wins. A step of several products
 * looks at them in K order and at the accumulator once, in the first
 * product's turn. */
typedef enum {
    MODEL_NAN_CANONICAL,
    MODEL_NAN_ACC_A_B,
    MODEL_NAN_ACC_B_A,
    MODEL_NAN_A_B_ACC,
    MODEL_NAN_B_A_ACC,
    MODEL_NAN_A_ACC_B,
    MODEL_NAN_B_ACC_A,
    MODEL_NAN_ORDERS            /* count */
} model_nan_prop;

typedef struct {
    /* inputs */
    model_cvt cvt_a, cvt_b;
    bool ftz_a, ftz_b;          /* subnormal A/B (in the format used, after conversion) read as zero */
    bool ftz_c;                 /* subnormal C (in C's format) read as zero */
    /* products */
    int prod_bits;              /* MODEL_EXACT, or rounded to this precision (bits incl. leading) */
    tc_round prod_round;
    int prod_flush_exp;         /* products with |p| < 2^prod_flush_exp become signed zero (MODEL_NO_FLUSH) */
    /* steps */
    int block;                  /* products fused per step, >= 1; a larger K runs ceil(K/block) steps in order */
    int split_runs;             /* 0: step s takes positions [s*block, (s+1)*block). G > 0: the K
                                   positions are dealt to the steps in runs of G, round robin
                                   (an instruction emulated by several narrower MMAs, each fed
                                   every other register pair); see model_step_order */
    model_c_mode c_mode;
    tc_round c_round;           /* MODEL_C_LAST: rounding of acc + C into the accumulator format */
    /* fused sum of one step */
    bool align_with_acc;        /* the accumulator (C in the first step) counts for the reference exponent */
    model_exp_ref exp_ref;
    int align_bits;             /* fraction bits kept below the reference exponent, or MODEL_EXACT */
    model_align_round align_round;
    int carry_bits;             /* integer bits above the reference bit; the sum wraps beyond (MODEL_UNLIMITED) */
    /* accumulator between steps */
    bool acc_exact;             /* true: the step's fixed-point sum is carried unrounded (normalised only at the end) */
    tc_format acc_fmt;          /* else: each step's sum is normalised and rounded into acc_fmt */
    tc_round acc_round;
    bool ftz_acc;
    bool acc_ovf_inf;           /* overflow of the accumulator gives Inf whatever acc_round says
                                   (a truncating adder that still signals overflow); false: IEEE */
    /* output */
    tc_round out_round;
    tc_overflow out_ovf;
    bool ftz_out;
    uint64_t nan_bits;          /* the NaN pattern every NaN result gets */
    model_nan_prop nan_prop;    /* or a NaN operand's payload (operands over 31 bits only) */
    /* regions random draws miss (each decided by the hunt families, cases/hunt.h) */
    bool zero_positive;         /* zero_sign: every zero result is +0, whatever the signs of the
                                   terms or of a value that underflowed (false: IEEE 754 signs) */
    bool dropped_nan_inf;       /* dropped_nan: an operand converted by cutting low bits (an RZ
                                   conversion to a narrower fraction, e.g. TF32 read from its f32
                                   register) is cut before it is classified, so a NaN whose payload
                                   lies only in the cut bits reads as Inf (false: it stays NaN) */
    bool floored;               /* align_floor: the fused sum's grid is never finer than */
    int align_floor;            /* 2^align_floor: bits of the terms below it are cut even where
                                   align_bits below the reference would keep them (floored false:
                                   the grid follows the reference alone; zeroed params have none) */
    /* block-scaled forms only (model_dot_scaled; model_dot ignores it) */
    int scale_group;            /* 0: each product times its block's scales is one term of the fused
                                   sum, offering its own exponent. G > 0: the products are first
                                   summed exactly in groups of G positions, and each group times its
                                   scales is one term offering the scales' exponent (MMA-Sim's
                                   kind::mxf4 and mxf4nvf4: G = 16); block then counts positions */
} model_params;

/* The correctly rounded setting for formats f with output rounding r
 * (mode, overflow policy, ftz): equals oracle_dot_exact(f, .., r). */
model_params model_params_exact(oracle_formats f, tc_rounding r);

/* NULL if p is usable with f; else a static message naming the bad field. */
const char *model_params_check(const model_params *p, oracle_formats f);

/* A model compiled for one set of formats (decode tables, constants).
 * Immutable after model_new, so one model may serve many threads. */
typedef struct model model;

/* NULL with a message in err when params or formats are unusable
 * (integer formats, f64 inputs beyond the model's range, bad fields). */
model *model_new(const model_params *p, oracle_formats f, char *err, size_t errlen);
void model_free(model *m);
const model_params *model_get_params(const model *m);
oracle_formats model_get_formats(const model *m);

/* One element: d = sum_{i<k} a[i]*b[i] + c as the modelled hardware computes it. */
uint64_t model_dot(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c);

/* One element of a block-scaled form (oracle_scales: the scales of A's row
 * and B's column): d = sum_k (a[k]*sa)*(b[k]*sb) + c as the modelled
 * hardware computes it. The reference only (exact integers, slow). s NULL:
 * model_dot's answer. Where model_scaled_check refuses (k, s), the
 * output format's NaN: a caller checks first. */
uint64_t model_dot_scaled(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c,
                          const oracle_scales *s);

/* NULL if model_dot_scaled can compute K = k with scales s: a scale format
 * (E8M0 or UE4M3), s->block in 1..k dividing k, and scale_group (if any)
 * dividing s->block, so each group has one scale; else a static message. */
const char *model_scaled_check(const model *m, int k, const oracle_scales *s);

/* The order in which the K positions enter the steps: idx[j] is the
 * position read j-th; the steps then take consecutive runs of `block`.
 * With split_runs = G the positions of the first floor(k/block)*block are
 * dealt in runs of G to the k/block full steps, each step keeping
 * increasing order; a partial last step keeps its positions. Returns false
 * (idx untouched) when the order is the identity. */
bool model_step_order(const model_params *p, int k, int *idx);

/* Convenience for one-off calls (compiles, computes, frees): slow. */
uint64_t model_dot_params(const model_params *p, oracle_formats f, int k,
                          const uint64_t *a, const uint64_t *b, uint64_t c);

/* ntiles tiles D = A*B + C, row-major as in probes.h (A: m x k, B: k x n,
 * C and D: m x n per tile), spread over all cores for large batches
 * (on the calling thread inside oracle_parallel: oracle/oracle.h). */
void model_mma(const model *m, int mrows, int ncols, int k, size_t ntiles,
               const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D);

/* Threads model_mma may use (0: all online cores). Configuration only. */
void model_set_threads(int nthreads);

/* Field names for text (profiles, evidence): "first"/"last", "nominal"/
 * "normalized", "trunc"/"floor"/"rne". Parse functions return false on an
 * unknown name. */
const char *model_c_mode_name(model_c_mode v);
bool model_c_mode_parse(const char *s, model_c_mode *out);
const char *model_exp_ref_name(model_exp_ref v);
bool model_exp_ref_parse(const char *s, model_exp_ref *out);
const char *model_align_round_name(model_align_round v);
bool model_align_round_parse(const char *s, model_align_round *out);

/* Canonical name of a format ("f16", or "e8m12" for generic ones) into buf. */
const char *model_format_name(const tc_format *f, char *buf, size_t len);

/* Number of fields that differ between two params (0: identical), with the
 * first differing field's name in *first (NULL when none). */
int model_params_diff(const model_params *x, const model_params *y, const char **first);

#endif
