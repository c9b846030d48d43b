/* cases/families: the adversarial case families, one file each.
 *
 * A family is one question about the hardware's arithmetic (where C enters
 * the sum, how many bits the alignment keeps, what subnormals become, ...)
 * asked as cases. It has up to two producers, both building structs:
 *   text  tc_case structs (inputs as exact hex values, what the case probes,
 *         the reference and the outcomes each hardware model predicts), which
 *         the case-file generator (cases/gen.c, `tcscope cases --emit`) prints
 *         as case-file text;
 *   bits  infer_case structs (the inputs as bit patterns), which the
 *         inference (cases/infer.c) runs and fits the fingerprint to.
 * The two producers of one family ask the same question in the form each
 * user needs: a case file states its expectations and is read by people, so
 * it holds a few cases with their predicted outcomes; the inference fits many
 * fields at once and needs dense scans. Their inputs are not the same cases
 * (and must stay as they are: the recorded audits replay the inference's
 * cases by hash, the library's case files are compared byte for byte).
 *
 * Internal to cases/: the shared builders below are not a public API.
 */
#ifndef TC_FAMILIES_H
#define TC_FAMILIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cases/casefile.h"
#include "cases/gen.h"
#include "cases/infer_internal.h"

typedef struct {
    const char *name;                                      /* `tcscope cases --emit NAME` */
    int (*text)(const tc_gen_target *t, tc_casefile *out); /* cases appended; NULL: none */
    int (*bits)(cset *s, const infer_target *t);           /* 0, or nonzero on failure; NULL: none */
} tc_family;

extern const tc_family tc_family_subnormal, tc_family_products, tc_family_align,
    tc_family_round, tc_family_block, tc_family_cplace, tc_family_carry, tc_family_monotone,
    tc_family_specials, tc_family_order, tc_family_determinism, tc_family_nan_payload,
    tc_family_convert, tc_family_wide, tc_family_double_round, tc_family_hunt, tc_family_random;

/* The case files' families in the order of `--emit all`, NULL-terminated. */
extern const tc_family *const tc_families_text[];
/* The inference's crafted families in the order it builds them (the hunt
 * and random families come after them: cases/infer_cases.c), NULL-terminated. */
extern const tc_family *const tc_families_crafted[];

/* ---- Text cases (text_build.c) ---- */

/* Format facts a family needs. */
typedef struct {
    int pa, pb, pc, pd;
    int emin_d, emax_d, emin_c, emax_c;
    int pmin, pmax;     /* exponents of power-of-two products of normal inputs */
    int k;
} fam_facts;

fam_facts fam_facts_of(const tc_gen_target *t);

static inline int fam_imin(int a, int b)
{
    return a < b ? a : b;
}

static inline int fam_imax(int a, int b)
{
    return a > b ? a : b;
}

/* Is m * 2^e exactly a value of f (a normal one when normal_only)? */
bool fam_fits(const tc_format *f, long long m, int e, bool normal_only);
char *fam_dup(const char *s);

/* One case being built; bad: some value does not exist in the formats (the
 * case is dropped). */
typedef struct {
    tc_case c;
    bool bad;
    const tc_gen_target *t;
} fam_builder;

void fb_init(fam_builder *b, const tc_gen_target *t, const char *name, const char *feature, int level,
             const char *probes, ...) __attribute__((format(printf, 6, 7)));
void fb_pair_text(fam_builder *b, const char *a, const char *bb);
/* A term whose product is m * 2^e: the significand on one side, a power of
 * two on the other, both normal where possible. */
void fb_prod(fam_builder *b, long long m, int e);
void fb_c(fam_builder *b, long long m, int e);
void fb_c_text(fam_builder *b, const char *v);
void fb_expect(fam_builder *b, tc_outcome_kind kind);
void fb_alt_exact(fam_builder *b, tc_round mode, const char *label);
void fb_alt_text(fam_builder *b, const char *value, const char *label);
/* An alternative D = m * 2^e; left out when D's format cannot hold it. */
void fb_alt_value(fam_builder *b, long long m, int e, const char *label);
/* Appends the case to out (1), or drops it (0). */
int fb_push(fam_builder *b, tc_casefile *out);

/* Exponents of a big term M and a small one s as far apart as the formats
 * allow (block, cplace); false when they are too close to tell anything. */
bool fam_big_small(const tc_gen_target *t, int *em, int *es);
/* A reproducible dot product with heavy cancellation (order, determinism). */
void fam_random_terms(fam_builder *b, unsigned seed);

/* ---- Bit-pattern cases (bits_build.c) ---- */

/* Products terms[0..nt) at the first positions (or at pos[] if given), the
 * rest +0*+0, and C = c. Skipped (0) when a value is not representable. */
int fam_add_terms(cset *s, const infer_target *t, const char *family, int nt, const double *terms,
                  const int *pos, double c);

static inline int fam_prec(const tc_format *f)
{
    return f->mbits + 1;
}

#endif
