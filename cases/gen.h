/* cases/gen: generators of parametrized case families.
 *
 * Each family builds case blocks for one target (an instruction, or a class of
 * instructions with the same formats and K) from the formats' precision and
 * exponent range alone: every input and every expected or alternative outcome
 * is derived by arithmetic, never taken from hardware. A family that cannot be
 * expressed in a target's formats (e.g. a product too small to reach the
 * output's subnormal range) leaves those cases out rather than bending them.
 *
 * Families (tc_gen_families lists them; each is one file of cases/families/,
 * which also makes the inference's cases of the same question):
 *   subnormal    subnormals in A, B, C, in products and in the output
 *   products     are products exact
 *   align        alignment width scan: bits kept below the largest term (level j)
 *   round        rounding truth table: +-1/4, 1/2, 3/4 ulp, both signs, ties even/odd
 *   block        fused block size / split-K (FPRev style: a large term moved through every position)
 *   cplace       C inside or outside the fused sum
 *   carry        carry-out bits: sums that leave the largest term's binade (level j)
 *   monotone     monotonicity of the sum in C
 *   specials     NaN (payloads), Inf, 0*Inf, Inf-Inf, overflow, intermediate overflow
 *   order        permutation dependence of the K terms
 *   determinism  the same tile on many SMs in one batch, and across runs
 */
#ifndef TC_GEN_H
#define TC_GEN_H

#include <stdbool.h>
#include <stddef.h>

#include "cases/casefile.h"

typedef struct {
    const tc_format *a, *b, *c, *d;
    int k;                 /* values per case at most */
    char instr[128];       /* the selector written into each case */
    char prefix[96];       /* case names: PREFIX.FAMILY.DETAIL */
} tc_gen_target;

/* The target of one instruction: its exact name and K. */
void tc_gen_target_of(const tc_instr *ins, tc_gen_target *t);

/* The family names, in a fixed order. */
const char *const *tc_gen_families(size_t *count);

/* Appends the cases of one family ("all": every family) for the target to
 * out. Returns the number appended, or -1 with err set for an unknown family. */
int tc_gen_family(const char *family, const tc_gen_target *t, tc_casefile *out, char *err,
                  size_t errlen);

/* Exact dyadic value m * 2^e as C99 hex-float text ("0x1.8p-9", "-0x1p+0", "0"). */
void tc_gen_hex(long long m, int e, char *buf, size_t len);

/* What the block family predicts for a fused-block model (exposed for tests):
 * terms x[0..k-1] given as (m[i] big-term multiples, s[i] small-term counts),
 * blocks of `block` terms summed in order; inside: the running sum joins each
 * block's fused sum, else it is added after the block. A sum that holds a
 * nonzero big part loses every small part. Returns the small-term count. */
long tc_gen_block_predict(int k, const int *big, const long *small, int block, bool inside);

#endif
