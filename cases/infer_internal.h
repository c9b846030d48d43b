/* Internals of cases/infer*.c, cases/verify*.c and cases/families/. Not a public header. */
#ifndef TC_INFER_INTERNAL_H
#define TC_INFER_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "cases/infer.h"
#include "cases/random_draw.h"

#define INFER_KMAX 256

typedef struct {
    infer_case *v;
    size_t n, cap;
    size_t hunt_from, hunt_to; /* the hunt families' cases, v[hunt_from..hunt_to) */
} cset;

bool infer_enc(const tc_format *f, double x, uint64_t *bits);
bool infer_split(const oracle_formats *f, double x, uint64_t *a, uint64_t *b);
int cset_add_bits(cset *s, const char *family, int k, const uint64_t *a, const uint64_t *b, uint64_t c);
void cset_free(cset *s);
int infer_build_cases(const infer_target *t, cset *s);
/* t as cases/random_draw.h draws it (C's zero encoded here, once): the fit's
 * random family and the proof's random tiles (verify_random_shape). */
rd_shape infer_rnd_shape(const infer_target *t);

/* A fit's scores (cases/infer_count.c): the crafted cases, and the few that
 * lately told a candidate wrong, tried first; or the target's fit ops
 * (infer_target.fit) counting them elsewhere. */
#define INFER_COUNT_FIRST 32
typedef struct {
    const infer_target *t;
    const infer_case *cs;
    size_t n;
    size_t first[INFER_COUNT_FIRST];
    int nfirst;
    unsigned char *is_first;   /* n flags: the case is in `first` */
    void *set;                 /* t->fit's, when it took the cases (NULL: the cores count) */
    size_t evals_gpu, evals_cpu;   /* candidate x case evaluations elsewhere and on the host */
    char err[256];             /* why infer_count_all failed (the fit then stops) */
} infer_count;

/* 0, or -1 with err (out of memory, or t->fit failed). */
int infer_count_init(infer_count *fc, const infer_target *t, const infer_case *cs, size_t n, char *err,
                     size_t errlen);
void infer_count_free(infer_count *fc);
/* s[i]: the answers of fc's cases v[i] gets wrong when fewer than `below`,
 * else `below` or more (SIZE_MAX: v[i] is no model); the candidates counted
 * at once (on the cores, or by t->fit, exactly). 0, or -1 with fc->err set
 * (s not set). */
int infer_count_all(infer_count *fc, const model_params *v, size_t nv, size_t below, size_t *s);

#endif
