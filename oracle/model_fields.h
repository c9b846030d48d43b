/* model_fields: the fingerprint's fields (the parts of model_params a
 * profile names) as ONE table. Each row says, for one field, its profile
 * key, the text it reads and writes, when two params agree on it, and the
 * candidate values the inference tries. The profile reader and writer
 * (oracle/profile.c), model_params_diff, the audit's fingerprint JSON and
 * the inference (cases/infer.c) all walk this table, so a field added here
 * (plus its member in model_params) needs no other edit.
 *
 * Row order is the profile's file order; the inference's coordinate descent
 * visits the fields by `descent` rank instead (most decisive first).
 */
#ifndef TC_MODEL_FIELDS_H
#define TC_MODEL_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oracle/model.h"

/* What the candidates of a field may depend on: the instruction and the
 * NaN patterns seen in its answers (the candidates of `nan`). */
typedef struct {
    oracle_formats f;          /* A, B, C, D formats */
    int k;                     /* the instruction's K */
    const uint64_t *nans;      /* distinct NaN answers seen (may be NULL when nnans is 0) */
    int nnans;
} model_field_scope;

/* The most candidates one field yields (the size of model_field_candidates' out). */
#define MODEL_FIELD_MAX_CANDIDATES 96
/* The most rows the table may hold (profile.c keeps per-field bit masks). */
#define MODEL_FIELDS_MAX 32

typedef enum {
    MODEL_FIELD_BAD,        /* not a value of this field */
    MODEL_FIELD_SET,        /* stored into the params */
    MODEL_FIELD_CANONICAL   /* "canonical" (only `nan`): the output format's NaN, which the
                               profile reader takes from the instruction's name */
} model_field_parsed;

/* What a field's value is, for records that write it as JSON (a profile
 * writes every value as text): the audit writes an INT field's integer as a
 * JSON number (its one word, "none"/"exact"/"unlimited", stays a string), a
 * BITS field as a "0x.." string in lower-case hex, a WORD field as its text. */
typedef enum {
    MODEL_FIELD_WORD,   /* words or compound text: "rne", "f32:rz", "24:rz", "interleaved:4" */
    MODEL_FIELD_INT,    /* an integer, or the field's one word for its sentinel */
    MODEL_FIELD_BITS    /* a bit pattern, "0x" and hex */
} model_field_type;

typedef struct {
    const char *key;          /* profile key: "block", "align_bits", ... */
    model_field_type type;    /* its value as JSON (above) */
    const char *expect;       /* the values it reads, for error messages */
    bool optional;            /* added after the first recorded profiles: may be absent
                                 (absent: the value of zeroed params, the IEEE behaviour) */
    int descent;              /* rank in the inference's descent (0 first; a permutation) */
    model_field_parsed (*parse)(const char *v, model_params *p);
    void (*print)(char *buf, size_t len, const model_params *p);   /* as the profile writes it */
    bool (*same)(const model_params *x, const model_params *y);    /* equal on this field */
    /* cur with this field set to each candidate value in turn, into out
     * (room for MODEL_FIELD_MAX_CANDIDATES); returns how many. */
    int (*candidates)(const model_params *cur, const model_field_scope *s, model_params *out);
} model_field;

/* The table, model_field_count() rows in profile order. */
extern const model_field model_fields[];
int model_field_count(void);

/* The row whose key is `key`, or -1. */
int model_field_find(const char *key);

/* Field i of p as the profile writes it ("" when i is out of range). */
void model_field_text(const model_params *p, int i, char *buf, size_t len);

/* Every candidate value of field i for an instruction (scope), each as cur
 * with field i changed, into out[MODEL_FIELD_MAX_CANDIDATES]; returns how
 * many (0 when i is out of range). This is the exported enumeration a
 * backend uses to ask which other values of a field also fit its answers:
 * the list is exactly the one the inference scores (its order included),
 * may contain cur's own value, and may contain params model_new rejects
 * for these formats (skip those). */
int model_field_candidates(int i, const model_params *cur, const model_field_scope *s, model_params *out);

#endif
