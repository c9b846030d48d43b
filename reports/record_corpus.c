/* Corpus and chain lines from their structs (see record_corpus.h). The
 * order of the fields is the order they are set (JSON_PRESERVE_ORDER): the
 * committed GPU lines under reports/baselines/ are in this order, and
 * tests/test_corpus.c and test_chain_corpus.c write them again byte for byte. */
#include <stdlib.h>

#include <jansson.h>

#include "probes/record_json.h"
#include "reports/record_corpus.h"

/* Prints j as one compact line; 0, or -1 with err. Takes j. */
static int put_line(FILE *out, json_t *j, int failed, char *err, size_t errlen)
{
    char *line = failed ? NULL : json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (!line) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    fprintf(out, "%s\n", line);
    free(line);
    return 0;
}

/* The fields every line starts with, after "kind" where there is one. */
static void set_origin(json_t *j, const char *backend, const char *device, const char *driver, const char *cuda,
                       int sm, uint64_t seed)
{
    json_object_set_new(j, "backend", json_string(backend));
    json_object_set_new(j, "device", json_string(device));
    json_object_set_new(j, "driver", json_string(driver));
    json_object_set_new(j, "cuda", json_string(cuda));
    json_object_set_new(j, "sm", json_integer(sm));
    json_object_set_new(j, "seed", json_integer((json_int_t)seed));
}

int tc_record_corpus_line(FILE *out, const tc_corpus_rec *r, char *err, size_t errlen)
{
    const tc_instr *ins = r->ins;
    size_t nt = r->ntiles, mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    json_t *j = json_object();
    json_object_set_new(j, "kind", json_string("tiles"));
    json_object_set_new(j, "instr", json_string(ins->name));
    set_origin(j, r->backend, r->device, r->driver, r->cuda, r->sm, r->seed);
    json_object_set_new(j, "ntiles", json_integer((json_int_t)nt));
    json_object_set_new(j, "layout", json_string(r->layout));
    const tc_instr_sass *sa = &r->sass;
    if (r->sass_read > 0)
        json_object_set_new(j, "sass",
                            json_pack("{s:s, s:b, s:i, s:i, s:s, s:s}", "opcode", sa->opcode, "native", sa->native,
                                      "per_mma", sa->per_mma, "conversions", sa->conversions, "verdict", sa->verdict,
                                      "message", sa->message));
    else if (r->sass_read < 0)
        json_object_set_new(j, "sass", json_pack("{s:s}", "error", r->sass_error));
    bool twin = r->inputs_of[0] != '\0';
    if (twin) {
        json_object_set_new(j, "inputs_of", json_string(r->inputs_of));
        if (r->d_same)
            json_object_set_new(j, "d_same_as", json_string(r->inputs_of));
    }
    int failed = 0;
    if (!twin)
        failed = tc_hex_put(j, "a", r->A, nt * mk, ins->a) || tc_hex_put(j, "b", r->B, nt * kn, ins->b) ||
                 tc_hex_put(j, "c", r->C, nt * mn, ins->c);
    if (!failed && !(twin && r->d_same))
        failed = tc_hex_put(j, "d", r->D, nt * mn, ins->d);
    return put_line(out, j, failed, err, errlen);
}

int tc_record_chain_line(FILE *out, const tc_chain_rec *r, char *err, size_t errlen)
{
    const tc_instr *ins = r->ins;
    size_t M = (size_t)ins->m, K = (size_t)ins->k, st = r->nchains * (size_t)r->len;
    json_t *j = json_object();
    json_object_set_new(j, "kind", json_string("chain"));
    json_object_set_new(j, "instr", json_string(ins->name));
    json_object_set_new(j, "key", json_string(r->key));
    set_origin(j, r->backend, r->device, r->driver, r->cuda, r->sm, r->seed);
    json_object_set_new(j, "chains", json_integer((json_int_t)r->nchains));
    json_object_set_new(j, "len", json_integer(r->len));
    json_object_set_new(j, "cvt", json_pack("{s:s, s:s}", "round", tc_round_name(r->cvt.mode), "overflow",
                                            tc_overflow_name(r->cvt.ovf)));
    int failed = 0;
    if (r->same_as[0])
        json_object_set_new(j, "same_as", json_string(r->same_as));
    else
        failed = tc_hex_put(j, "a0", r->A0, r->nchains * M * K, ins->a) ||
                 tc_hex_put(j, "b", r->B, st * K * K, ins->b) || tc_hex_put(j, "c", r->C, st * M * K, ins->c) ||
                 tc_hex_put(j, "x", r->X, st * M * K, ins->a) || tc_hex_put(j, "d", r->D, st * M * K, ins->d);
    return put_line(out, j, failed, err, errlen);
}
