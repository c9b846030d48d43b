/* Record validation: the required fields of each kind, as a table, so that
 * reports/SCHEMA.md and the code say the same thing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/reports.h"

typedef enum { F_STR, F_INT, F_NUM, F_NUM_NULL, F_INT_NULL, F_OBJ, F_OBJ_NULL, F_ARR, F_BOOL, F_BITS } ftype;

typedef struct {
    const char *name;
    ftype type;
} field;

static const field header_fields[] = {
    {"schema", F_STR},  {"kind", F_STR},   {"tcscope_version", F_STR}, {"date", F_STR},
    {"host", F_STR},    {"backend", F_STR}, {"gpu", F_STR},            {"driver", F_STR},
    {"cuda", F_STR},    {"clock_mhz", F_INT_NULL}, {"seeds", F_ARR},   {NULL, F_STR},
};
static const field audit_fields[] = {
    {"instr", F_STR}, {"fingerprint", F_OBJ}, {"evidence", F_OBJ},
    {"verification", F_OBJ}, {"timing", F_OBJ_NULL}, {NULL, F_STR},
};
static const field verification_fields[] = {
    {"elements", F_INT}, {"mismatches", F_INT}, {"verified", F_BOOL}, {NULL, F_STR},
};
static const field corpus_fields[] = {
    {"instr", F_STR}, {"count", F_INT}, {"hash", F_BITS}, {"outputs", F_ARR}, {NULL, F_STR},
};
static const field bench_fields[] = {
    {"instr", F_STR},           {"latency_cycles", F_NUM_NULL}, {"throughput_fma_clk_sm", F_NUM_NULL},
    {"fraction_of_peak", F_NUM_NULL}, {"tflops", F_NUM_NULL}, {NULL, F_STR},
};
static const field hunt_fields[] = {
    {"instr", F_STR}, {"elements", F_INT}, {"mismatches", F_INT}, {NULL, F_STR},
};
static const field sweep_fields[] = {
    {"format", F_STR}, {"instr", F_STR}, {"k", F_INT},      {"dist", F_STR},  {"from", F_STR},
    {"round", F_STR},  {"scale", F_STR}, {"trials", F_INT}, {"seed", F_BITS}, {"chain", F_INT},
    {"steps", F_ARR},  {NULL, F_STR},
};
static const field step_fields[] = {
    {"step", F_INT},      {"median", F_NUM_NULL}, {"p90", F_NUM_NULL}, {"max", F_NUM_NULL},
    {"overflow", F_NUM},  {"nan", F_NUM},         {"time_s", F_NUM_NULL}, {NULL, F_STR},
};

static const char *const header_kinds[] = {"audit", "corpus", "bench", "sweep", "hunt", "mixed", NULL};

static bool fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return false;
}

static const char *type_name(ftype t)
{
    switch (t) {
    case F_STR: return "a string";
    case F_INT: return "an integer";
    case F_NUM: return "a number";
    case F_NUM_NULL: return "a number or null";
    case F_INT_NULL: return "an integer or null";
    case F_OBJ: return "an object";
    case F_OBJ_NULL: return "an object or null";
    case F_ARR: return "an array";
    case F_BOOL: return "true or false";
    case F_BITS: return "a \"0x..\" bit string";
    }
    return "?";
}

static bool type_ok(const json_t *v, ftype t)
{
    uint64_t bits;
    switch (t) {
    case F_STR: return json_is_string(v);
    case F_INT: return json_is_integer(v);
    case F_NUM: return json_is_number(v);
    case F_NUM_NULL: return json_is_number(v) || json_is_null(v);
    case F_INT_NULL: return json_is_integer(v) || json_is_null(v);
    case F_OBJ: return json_is_object(v);
    case F_OBJ_NULL: return json_is_object(v) || json_is_null(v);
    case F_ARR: return json_is_array(v);
    case F_BOOL: return json_is_boolean(v);
    case F_BITS: return tc_json_get_bits(v, &bits);
    }
    return false;
}

static bool check_fields(const json_t *o, const field *fs, const char *what, char *err, size_t len)
{
    for (const field *f = fs; f->name; f++) {
        json_t *v = json_object_get(o, f->name);
        if (!v)
            return fail(err, len, "%s: missing field '%s'", what, f->name);
        if (!type_ok(v, f->type))
            return fail(err, len, "%s: field '%s' must be %s", what, f->name, type_name(f->type));
    }
    return true;
}

bool tc_record_check_header(const json_t *h, char *err, size_t len)
{
    if (!json_is_object(h))
        return fail(err, len, "record header is not a JSON object");
    const char *schema = json_string_value(json_object_get(h, "schema"));
    if (!schema)
        return fail(err, len, "not a tcscope record: the first line has no \"schema\"");
    static const char prefix[] = "tcscope-record/";
    if (strncmp(schema, prefix, sizeof prefix - 1) != 0)
        return fail(err, len, "not a tcscope record: schema '%s'", schema);
    char *end;
    long major = strtol(schema + sizeof prefix - 1, &end, 10);
    if (end == schema + sizeof prefix - 1 || (*end && *end != '.'))
        return fail(err, len, "malformed schema '%s'", schema);
    if (major != TC_RECORD_SCHEMA_MAJOR)
        return fail(err, len, "schema '%s' is not supported (this tcscope reads %s)", schema,
                    TC_RECORD_SCHEMA);
    if (!check_fields(h, header_fields, "header", err, len))
        return false;
    const char *kind = json_string_value(json_object_get(h, "kind"));
    for (const char *const *k = header_kinds; *k; k++)
        if (!strcmp(kind, *k))
            return true;
    return fail(err, len, "header: unknown record kind '%s'", kind);
}

static bool check_audit(const json_t *o, char *err, size_t len)
{
    if (!check_fields(o, audit_fields, "audit", err, len))
        return false;
    return check_fields(json_object_get(o, "verification"), verification_fields, "audit verification",
                        err, len);
}

static bool check_corpus(const json_t *o, char *err, size_t len)
{
    if (!check_fields(o, corpus_fields, "corpus", err, len))
        return false;
    json_t *outs = json_object_get(o, "outputs"), *v;
    json_int_t count = json_integer_value(json_object_get(o, "count"));
    if (count < 0 || (json_int_t)json_array_size(outs) > count)
        return fail(err, len, "corpus: %zu outputs listed but count is %lld", json_array_size(outs),
                    (long long)count);
    size_t i;
    json_array_foreach(outs, i, v) if (!type_ok(v, F_BITS)) return fail(
        err, len, "corpus: outputs[%zu] must be a \"0x..\" bit string", i);
    json_t *ins = json_object_get(o, "inputs");
    if (ins && (!json_is_array(ins) || json_array_size(ins) != json_array_size(outs)))
        return fail(err, len, "corpus: inputs must be an array as long as outputs");
    return true;
}

static bool check_sweep(const json_t *o, char *err, size_t len)
{
    if (!check_fields(o, sweep_fields, "sweep", err, len))
        return false;
    json_t *steps = json_object_get(o, "steps"), *s;
    json_int_t chain = json_integer_value(json_object_get(o, "chain"));
    if ((json_int_t)json_array_size(steps) != chain)
        return fail(err, len, "sweep %s: %zu steps but chain is %lld",
                    json_string_value(json_object_get(o, "format")), json_array_size(steps),
                    (long long)chain);
    size_t i;
    char what[64];
    json_array_foreach(steps, i, s)
    {
        snprintf(what, sizeof what, "sweep step %zu", i + 1);
        if (!json_is_object(s))
            return fail(err, len, "%s: not an object", what);
        if (!check_fields(s, step_fields, what, err, len))
            return false;
        if (json_integer_value(json_object_get(s, "step")) != (json_int_t)i + 1)
            return fail(err, len, "%s: field 'step' must be %zu", what, i + 1);
    }
    return true;
}

bool tc_record_check_object(const json_t *o, char *err, size_t len)
{
    if (!json_is_object(o))
        return fail(err, len, "record object is not a JSON object");
    const char *kind = json_string_value(json_object_get(o, "kind"));
    if (!kind)
        return fail(err, len, "object without a \"kind\"");
    if (!strcmp(kind, "audit"))
        return check_audit(o, err, len);
    if (!strcmp(kind, "corpus"))
        return check_corpus(o, err, len);
    if (!strcmp(kind, "bench"))
        return check_fields(o, bench_fields, "bench", err, len);
    if (!strcmp(kind, "sweep"))
        return check_sweep(o, err, len);
    if (!strcmp(kind, "hunt"))
        return check_fields(o, hunt_fields, "hunt", err, len) &&
               (json_is_object(json_object_get(o, "families")) ||
                fail(err, len, "hunt object without \"families\""));
    return fail(err, len, "unknown object kind '%s'", kind);
}
