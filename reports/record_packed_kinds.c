/* What is bulk in each kind of object of a packed record (SCHEMA.md "Packed
 * records"): the inputs a generator draws again from the line's seed, and
 * the outputs kept as packed bits. The one table of it: the writer packs
 * what is named here; the reader needs only the generators (the packed line
 * says where each output goes and how wide it is). */
#include <stdlib.h>
#include <string.h>

#include "probes/backend_corpus.h"
#include "reports/reports_internal.h"

/* ---- Inputs ---------------------------------------------------------- */

static const tc_instr *instr_of(const json_t *o, char *err, size_t len)
{
    const char *name = json_string_value(json_object_get(o, "instr"));
    const tc_instr *ins = name ? tc_instr_by_name(name) : NULL;
    if (!ins)
        rep_set_err(err, len, "instruction '%s' is not in the catalogue", name ? name : "(none)");
    return ins;
}

/* A count field: a positive integer, or 0 with err. */
static size_t count_of(const json_t *o, const char *key, char *err, size_t len)
{
    json_t *v = json_object_get(o, key);
    if (!json_is_integer(v) || json_integer_value(v) <= 0) {
        rep_set_err(err, len, "\"%s\" is not a positive integer", key);
        return 0;
    }
    return (size_t)json_integer_value(v);
}

static int seed_of(const json_t *o, uint64_t *seed, char *err, size_t len)
{
    json_t *v = json_object_get(o, "seed");
    if (!json_is_integer(v)) {
        rep_set_err(err, len, "no integer \"seed\"");
        return -1;
    }
    *seed = (uint64_t)json_integer_value(v); /* the writers put a seed above 2^63 as its two's complement */
    return 0;
}

static int alloc3(pk_array *a, char *err, size_t len)
{
    for (int i = 0; i < 3; i++)
        if (!(a[i].x = malloc(a[i].n * sizeof *a[i].x + 8))) {
            pk_arrays_free(a, 3);
            rep_set_err(err, len, "out of memory");
            return -1;
        }
    return 3;
}

/* A corpus line ("tiles"): A, B, C of tc_corpus_inputs; none when the line
 * takes its twin's ("inputs_of"). */
static int draw_tiles(const json_t *o, pk_array *a, char *err, size_t len)
{
    if (json_object_get(o, "inputs_of"))
        return 0;
    const tc_instr *ins = instr_of(o, err, len);
    size_t nt = count_of(o, "ntiles", err, len);
    uint64_t seed;
    if (!ins || !nt || seed_of(o, &seed, err, len))
        return -1;
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    if (nt > TC_LINE_MAX_ELEMS / (mk + kn + 2 * mn)) { /* before anything is allocated */
        rep_set_err(err, len, "%zu tiles are more than a line's %u elements", nt, TC_LINE_MAX_ELEMS);
        return -1;
    }
    a[0] = (pk_array){"a", ins->a, NULL, nt * mk};
    a[1] = (pk_array){"b", ins->b, NULL, nt * kn};
    a[2] = (pk_array){"c", ins->c, NULL, nt * mn};
    if (alloc3(a, err, len) < 0)
        return -1;
    tc_corpus_inputs(ins, nt, seed, a[0].x, a[1].x, a[2].x);
    return 3;
}

/* A chain line: A0, B, C of tc_chain_inputs; none when the line is its
 * twin's ("same_as"). */
static int draw_chain(const json_t *o, pk_array *a, char *err, size_t len)
{
    if (json_object_get(o, "same_as"))
        return 0;
    const tc_instr *ins = instr_of(o, err, len);
    size_t nc = count_of(o, "chains", err, len), steps = count_of(o, "len", err, len);
    uint64_t seed;
    if (!ins || !nc || !steps || seed_of(o, &seed, err, len))
        return -1;
    if (steps > 1000000 || !tc_chain_fits(ins, nc, (int)steps, err, len))
        return steps > 1000000 ? (rep_set_err(err, len, "\"len\" %zu is over 10^6", steps), -1) : -1;
    size_t M = (size_t)ins->m, K = (size_t)ins->k, st = nc * steps;
    a[0] = (pk_array){"a0", ins->a, NULL, nc * M * K};
    a[1] = (pk_array){"b", ins->b, NULL, st * K * K};
    a[2] = (pk_array){"c", ins->c, NULL, st * M * K};
    if (alloc3(a, err, len) < 0)
        return -1;
    tc_chain_inputs(ins, nc, (int)steps, seed, a[0].x, a[1].x, a[2].x);
    return 3;
}

/* "by" names the generator and its version: a generator that draws
 * differently gets a new name, so an old record says which it needs. */
static const pk_generator generators[] = {
    {"tiles", "tc_corpus_inputs/1", draw_tiles},
    {"chain", "tc_chain_inputs/1", draw_chain},
};
#define NGEN (sizeof generators / sizeof generators[0])

const pk_generator *pk_generator_of_kind(const char *kind)
{
    for (size_t i = 0; kind && i < NGEN; i++)
        if (!strcmp(generators[i].kind, kind))
            return &generators[i];
    return NULL;
}

const pk_generator *pk_generator_named(const char *by)
{
    for (size_t i = 0; by && i < NGEN; i++)
        if (!strcmp(generators[i].by, by))
            return &generators[i];
    return NULL;
}

void pk_arrays_free(pk_array *a, int n)
{
    for (int i = 0; i < n; i++) {
        free(a[i].x);
        a[i].x = NULL;
    }
}

/* ---- Outputs ------------------------------------------------------------ */

/* parent NULL: a member of the object itself; key NULL: every string member
 * of parent. digits: 'a' or 'd' for the instruction's A or D format, else
 * the number of hex digits. */
static const struct {
    const char *kind, *parent, *key;
    int digits;
} outputs[] = {
    {"tiles", NULL, "d", 'd'},
    {"chain", NULL, "x", 'a'},
    {"chain", NULL, "d", 'd'},
    {"hunt", "sample", NULL, 'd'},
    {"gemm", "outputs", "d_hex", 8},
};
#define NOUT (sizeof outputs / sizeof outputs[0])

int pk_outputs_each(json_t *o, const char *kind, pk_output_fn fn, void *ctx, char *err, size_t len)
{
    for (size_t i = 0; kind && i < NOUT; i++) {
        if (strcmp(outputs[i].kind, kind))
            continue;
        json_t *in = outputs[i].parent ? json_object_get(o, outputs[i].parent) : o;
        if (!json_is_object(in))
            continue;
        int digits = outputs[i].digits;
        if (digits == 'a' || digits == 'd') {
            const tc_instr *ins = instr_of(o, err, len);
            if (!ins)
                return -1;
            digits = ((digits == 'a' ? ins->a : ins->d)->storage_bits + 3) / 4;
        }
        const char *k;
        json_t *v;
        json_object_foreach(in, k, v) {
            if (!json_is_string(v) || (outputs[i].key && strcmp(k, outputs[i].key)))
                continue;
            if (fn(ctx, outputs[i].parent, k, v, digits, err, len))
                return -1;
        }
    }
    return 0;
}

const char *pk_object_name(const json_t *o)
{
    const char *s = json_string_value(json_object_get(o, "instr"));
    if (!s)
        s = json_string_value(json_object_get(o, "path"));
    return s ? s : "?";
}
