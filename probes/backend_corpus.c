/* Corpus recording and reading (see backend_corpus.h). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "probes/backend_corpus.h"
#include "probes/layout.h"

size_t tc_corpus_tiles(const tc_instr *ins, size_t elems)
{
    size_t per = (size_t)ins->m * (size_t)ins->n;
    return (elems + per - 1) / per;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t random_elem(const tc_format *f, bool is_c, uint64_t *s)
{
    uint64_t r = splitmix(s);
    if (f->specials == TC_SPECIALS_INT) {
        if (f->storage_bits == 32) /* C of an integer MMA: keep the exact sum within s32 */
            return (uint64_t)(uint32_t)((int32_t)(r % (1u << 25)) - (1 << 24));
        return r & tc_format_mask(f);
    }
    unsigned kind = (unsigned)(r >> 60);
    uint64_t mant = (splitmix(s) & ((1ull << f->mbits) - 1)) << f->shift;
    uint64_t sign = (r & 1) ? 1ull << (f->storage_bits - 1) : 0;
    if (kind == 0)
        return splitmix(s) & tc_format_mask(f);
    if (kind == 1)
        return sign | mant; /* subnormal or zero */
    int emax_field = (1 << f->ebits) - 1;
    int e = f->bias + (int)((r >> 1) % 13) - 6;
    if (e < 1)
        e = 1;
    if (e > emax_field - 1)
        e = emax_field - 1;
    (void)is_c;
    return sign | (uint64_t)e << (f->mbits + f->shift) | mant;
}

void tc_corpus_inputs(const tc_instr *ins, size_t ntiles, uint64_t seed, uint64_t *A, uint64_t *B, uint64_t *C)
{
    uint64_t s = seed;
    size_t len = strlen(ins->name);
    if (ins->a_in_regs && len > 3 && !strcmp(ins->name + len - 3, ".rs"))
        len -= 3; /* .rs takes the inputs of its shared-memory twin */
    for (size_t i = 0; i < len; i++) /* each instruction its own stream */
        s = s * 1099511628211ull ^ (unsigned char)ins->name[i];
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    for (size_t i = 0; i < ntiles * mk; i++)
        A[i] = random_elem(ins->a, false, &s);
    for (size_t i = 0; i < ntiles * kn; i++)
        B[i] = random_elem(ins->b, false, &s);
    for (size_t i = 0; i < ntiles * mn; i++)
        C[i] = random_elem(ins->c, true, &s);
    if (ins->sparse && ins->a == &tc_tf32) /* 1:2 (probes/sparse.h): zero one of every pair */
        for (size_t g = 0; g < ntiles * mk; g += 2)
            A[g + (size_t)(splitmix(&s) % 2)] = 0;
    else if (ins->sparse) /* 2:4: zero two random positions of every group of four */
        for (size_t g = 0; g < ntiles * mk; g += 4) {
            unsigned keep1 = (unsigned)(splitmix(&s) % 4), keep2 = (keep1 + 1 + (unsigned)(splitmix(&s) % 3)) % 4;
            for (unsigned j = 0; j < 4; j++)
                if (j != keep1 && j != keep2)
                    A[g + j] = 0;
        }
}

static char *to_hex(const uint64_t *x, size_t n, const tc_format *f)
{
    int w = (f->storage_bits + 3) / 4;
    char *s = malloc(n * (size_t)w + 1);
    if (!s)
        return NULL;
    static const char dig[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < w; j++)
            s[i * (size_t)w + (size_t)j] = dig[(x[i] >> (4 * (w - 1 - j))) & 15];
    s[n * (size_t)w] = '\0';
    return s;
}

static int from_hex(const char *s, size_t n, const tc_format *f, uint64_t *x)
{
    int w = (f->storage_bits + 3) / 4;
    if (!s || strlen(s) != n * (size_t)w)
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = 0;
        for (int j = 0; j < w; j++) {
            char c = s[i * (size_t)w + (size_t)j];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0)
                return -1;
            v = v << 4 | (uint64_t)d;
        }
        x[i] = v;
    }
    return 0;
}

/* The shared-memory twin of a wgmma .rs instruction, else NULL. */
static const tc_instr *twin_of(const tc_instr *ins)
{
    char name[96];
    size_t len = strlen(ins->name);
    if (!ins->a_in_regs || len < 4 || len >= sizeof name || strcmp(ins->name + len - 3, ".rs") != 0)
        return NULL;
    memcpy(name, ins->name, len - 3);
    name[len - 3] = '\0';
    return tc_instr_by_name(name);
}

int tc_corpus_record(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, FILE *out, char *err,
                     size_t errlen)
{
    size_t nt = tc_corpus_tiles(ins, elems);
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    uint64_t *A = malloc(nt * mk * 8), *B = malloc(nt * kn * 8), *C = malloc(nt * mn * 8), *D = malloc(nt * mn * 8);
    int rc = -1;
    json_t *j = NULL;
    if (!A || !B || !C || !D) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    char lay[320] = "pass";
    char msg[320];
    if (tc_layout_probe(b, ins, msg, sizeof msg))
        snprintf(lay, sizeof lay, "fail: %.300s", msg);
    tc_corpus_inputs(ins, nt, seed, A, B, C);
    if (tc_backend_mma(b, ins, nt, A, B, C, D, err, errlen))
        goto done;
    const tc_instr *twin = twin_of(ins);
    bool d_same = false;
    if (twin && tc_backend_supports(b, twin, msg, sizeof msg)) {
        uint64_t *D2 = malloc(nt * mn * 8);
        if (!D2 || tc_backend_mma(b, twin, nt, A, B, C, D2, err, errlen)) {
            free(D2);
            goto done;
        }
        d_same = !memcmp(D, D2, nt * mn * 8);
        free(D2);
    } else
        twin = NULL;
    const tc_backend_info *info = tc_backend_get_info(b);
    j = json_object();
    json_object_set_new(j, "instr", json_string(ins->name));
    json_object_set_new(j, "backend", json_string(info->backend));
    json_object_set_new(j, "device", json_string(info->device));
    json_object_set_new(j, "driver", json_string(info->driver));
    json_object_set_new(j, "cuda", json_string(info->cuda));
    json_object_set_new(j, "sm", json_integer(info->sm));
    json_object_set_new(j, "seed", json_integer((json_int_t)seed));
    json_object_set_new(j, "ntiles", json_integer((json_int_t)nt));
    json_object_set_new(j, "layout", json_string(lay));
    tc_instr_sass sa;
    char serr[256];
    if (info->sm && !tc_backend_sass(b, ins, &sa, serr, sizeof serr))
        json_object_set_new(j, "sass",
                            json_pack("{s:s, s:b, s:i, s:i, s:s, s:s}", "opcode", sa.opcode, "native", sa.native,
                                      "per_mma", sa.per_mma, "conversions", sa.conversions, "verdict", sa.verdict,
                                      "message", sa.message));
    else if (info->sm)
        json_object_set_new(j, "sass", json_pack("{s:s}", "error", serr));
    const struct {
        const char *key;
        const uint64_t *x;
        size_t n;
        const tc_format *f;
    } ops[] = {{"a", A, nt * mk, ins->a}, {"b", B, nt * kn, ins->b}, {"c", C, nt * mn, ins->c}, {"d", D, nt * mn, ins->d}};
    if (twin) {
        json_object_set_new(j, "inputs_of", json_string(twin->name));
        if (d_same)
            json_object_set_new(j, "d_same_as", json_string(twin->name));
    }
    for (size_t i = twin ? 3 : 0; i < (d_same ? 3u : 4u); i++) {
        char *h = to_hex(ops[i].x, ops[i].n, ops[i].f);
        if (!h) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
        json_object_set_new(j, ops[i].key, json_string(h));
        free(h);
    }
    char *line = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!line) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    fprintf(out, "%s\n", line);
    free(line);
    rc = 0;
done:
    json_decref(j);
    free(A);
    free(B);
    free(C);
    free(D);
    return rc;
}

static void copy_str(json_t *j, const char *key, char *out, size_t len)
{
    const char *s = json_string_value(json_object_get(j, key));
    snprintf(out, len, "%s", s ? s : "");
}

int tc_corpus_parse(const char *line, tc_corpus_rec *rec, char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    rec->sass_native = -1;
    json_error_t je;
    json_t *j = json_loads(line, 0, &je);
    if (!j) {
        snprintf(err, errlen, "bad JSON: %s", je.text);
        return -1;
    }
    int rc = -1;
    const char *name = json_string_value(json_object_get(j, "instr"));
    rec->ins = tc_instr_by_name(name);
    json_int_t nt = json_integer_value(json_object_get(j, "ntiles"));
    if (!rec->ins || nt < 1) {
        snprintf(err, errlen, "unknown instruction '%s' or bad ntiles", name ? name : "(none)");
        goto done;
    }
    const tc_instr *ins = rec->ins;
    rec->ntiles = (size_t)nt;
    rec->seed = (uint64_t)json_integer_value(json_object_get(j, "seed"));
    copy_str(j, "backend", rec->backend, sizeof rec->backend);
    copy_str(j, "device", rec->device, sizeof rec->device);
    copy_str(j, "driver", rec->driver, sizeof rec->driver);
    copy_str(j, "cuda", rec->cuda, sizeof rec->cuda);
    copy_str(j, "layout", rec->layout, sizeof rec->layout);
    json_t *sa = json_object_get(j, "sass");
    if (sa) {
        copy_str(sa, "opcode", rec->sass_opcode, sizeof rec->sass_opcode);
        json_t *nat = json_object_get(sa, "native");
        rec->sass_native = nat ? json_is_true(nat) : -1;
    }
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    copy_str(j, "inputs_of", rec->inputs_of, sizeof rec->inputs_of);
    rec->d_same = json_object_get(j, "d_same_as") != NULL;
    if (rec->d_same && !rec->inputs_of[0]) {
        snprintf(err, errlen, "%s: d_same_as without inputs_of", ins->name);
        goto done;
    }
    if (!rec->inputs_of[0]) {
        rec->A = malloc(rec->ntiles * mk * 8);
        rec->B = malloc(rec->ntiles * kn * 8);
        rec->C = malloc(rec->ntiles * mn * 8);
        if (!rec->A || !rec->B || !rec->C) {
            snprintf(err, errlen, "out of memory");
            goto done;
        }
        if (from_hex(json_string_value(json_object_get(j, "a")), rec->ntiles * mk, ins->a, rec->A) ||
            from_hex(json_string_value(json_object_get(j, "b")), rec->ntiles * kn, ins->b, rec->B) ||
            from_hex(json_string_value(json_object_get(j, "c")), rec->ntiles * mn, ins->c, rec->C)) {
            snprintf(err, errlen, "%s: input hex of the wrong length or with bad digits", ins->name);
            goto done;
        }
    }
    if (!rec->d_same) {
        rec->D = malloc(rec->ntiles * mn * 8);
        if (!rec->D ||
            from_hex(json_string_value(json_object_get(j, "d")), rec->ntiles * mn, ins->d, rec->D)) {
            snprintf(err, errlen, "%s: output hex of the wrong length or with bad digits", ins->name);
            goto done;
        }
    }
    rc = 0;
done:
    json_decref(j);
    if (rc)
        tc_corpus_rec_free(rec);
    return rc;
}

static uint64_t *dup_elems(const uint64_t *x, size_t n)
{
    uint64_t *y = x ? malloc(n * 8) : NULL;
    if (y)
        memcpy(y, x, n * 8);
    return y;
}

int tc_corpus_resolve(tc_corpus_rec *rec, const tc_corpus_rec *twin, char *err, size_t errlen)
{
    if (!rec->inputs_of[0])
        return 0;
    const tc_instr *ins = rec->ins;
    if (!twin || !twin->ins || strcmp(twin->ins->name, rec->inputs_of) != 0 || twin->ntiles != rec->ntiles ||
        twin->seed != rec->seed || twin->ins->m != ins->m || twin->ins->n != ins->n || twin->ins->k != ins->k ||
        !twin->A || !twin->D) {
        snprintf(err, errlen, "%s: its twin %s is missing or does not match", ins->name, rec->inputs_of);
        return -1;
    }
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    rec->A = dup_elems(twin->A, rec->ntiles * mk);
    rec->B = dup_elems(twin->B, rec->ntiles * kn);
    rec->C = dup_elems(twin->C, rec->ntiles * mn);
    if (rec->d_same)
        rec->D = dup_elems(twin->D, rec->ntiles * mn);
    if (!rec->A || !rec->B || !rec->C || !rec->D) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

void tc_corpus_rec_free(tc_corpus_rec *rec)
{
    free(rec->A);
    free(rec->B);
    free(rec->C);
    free(rec->D);
    rec->A = rec->B = rec->C = rec->D = NULL;
}
