/* Corpus and chain runs into the structs of their lines, and the readers
 * of the lines (see backend_corpus.h; reports/record_corpus.c writes them). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "probes/backend_corpus.h"
#include "probes/record_json.h"
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

/* Elements of a corpus line of nt tiles (A, B, C and D), or 0 when beyond
 * TC_LINE_MAX_ELEMS (the product is checked before it is formed). */
static size_t corpus_line_elems(const tc_instr *ins, size_t nt)
{
    size_t per = (size_t)ins->m * ins->k + (size_t)ins->k * ins->n + 2 * (size_t)ins->m * ins->n;
    return nt >= 1 && nt <= TC_LINE_MAX_ELEMS / per ? nt * per : 0;
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

/* full: the layout probe, the twin's batch and the SASS too (tc_corpus_run);
 * else the inputs and D only (tc_corpus_bits). */
static int corpus_run(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, bool full, tc_corpus_rec *rec,
                      char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    if (elems < 1 || elems > TC_CORPUS_MAX_ELEMS) {
        snprintf(err, errlen, "%s: %zu corpus elements asked (1..%u)", ins->name, elems, TC_CORPUS_MAX_ELEMS);
        return -1;
    }
    size_t nt = tc_corpus_tiles(ins, elems);
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    if (!corpus_line_elems(ins, nt)) {
        snprintf(err, errlen, "%s: %zu tiles exceed a line's %u elements", ins->name, nt, TC_LINE_MAX_ELEMS);
        return -1;
    }
    rec->ins = ins;
    rec->ntiles = nt;
    rec->seed = seed;
    uint64_t *A = rec->A = malloc(nt * mk * 8), *B = rec->B = malloc(nt * kn * 8), *C = rec->C = malloc(nt * mn * 8),
             *D = rec->D = malloc(nt * mn * 8);
    if (!A || !B || !C || !D) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    char msg[320];
    snprintf(rec->layout, sizeof rec->layout, full ? "pass" : TC_CORPUS_LAYOUT_NOT_CHECKED);
    if (full && tc_layout_probe(b, ins, msg, sizeof msg))
        snprintf(rec->layout, sizeof rec->layout, "fail: %.300s", msg);
    tc_corpus_inputs(ins, nt, seed, A, B, C);
    if (tc_backend_mma(b, ins, nt, A, B, C, D, err, errlen))
        goto fail;
    const tc_instr *twin = full ? twin_of(ins) : NULL;
    if (twin && tc_backend_supports(b, twin, msg, sizeof msg)) {
        uint64_t *D2 = malloc(nt * mn * 8);
        if (!D2 || tc_backend_mma(b, twin, nt, A, B, C, D2, err, errlen)) {
            free(D2);
            goto fail;
        }
        snprintf(rec->inputs_of, sizeof rec->inputs_of, "%s", twin->name);
        rec->d_same = !memcmp(D, D2, nt * mn * 8);
        free(D2);
    }
    const tc_backend_info *info = tc_backend_get_info(b);
    snprintf(rec->backend, sizeof rec->backend, "%s", info->backend);
    snprintf(rec->device, sizeof rec->device, "%s", info->device);
    snprintf(rec->driver, sizeof rec->driver, "%s", info->driver);
    snprintf(rec->cuda, sizeof rec->cuda, "%s", info->cuda);
    rec->sm = info->sm;
    if (full && info->sm) /* a GPU: its SASS, or why it could not be read */
        rec->sass_read = tc_backend_sass(b, ins, &rec->sass, rec->sass_error, sizeof rec->sass_error) ? -1 : 1;
    return 0;
fail:
    tc_corpus_rec_free(rec);
    memset(rec, 0, sizeof *rec);
    return -1;
}

int tc_corpus_run(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, tc_corpus_rec *rec, char *err,
                  size_t errlen)
{
    return corpus_run(b, ins, elems, seed, true, rec, err, errlen);
}

int tc_corpus_bits(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, tc_corpus_rec *rec, char *err,
                   size_t errlen)
{
    return corpus_run(b, ins, elems, seed, false, rec, err, errlen);
}

static void copy_str(json_t *j, const char *key, char *out, size_t len)
{
    const char *s = json_string_value(json_object_get(j, key));
    snprintf(out, len, "%s", s ? s : "");
}

int tc_corpus_parse(const char *line, tc_corpus_rec *rec, char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    json_t *j = tc_line_load(line, err, errlen);
    if (!j)
        return -1;
    int rc = -1;
    const char *name = json_string_value(json_object_get(j, "instr"));
    /* a record's object is "tiles"; a bare line written before records had no kind */
    json_t *jk = json_object_get(j, "kind");
    if (jk && (!json_is_string(jk) || strcmp(json_string_value(jk), "tiles") != 0)) {
        snprintf(err, errlen, "not a corpus line (kind '%s')", json_is_string(jk) ? json_string_value(jk) : "?");
        goto done;
    }
    rec->ins = tc_instr_by_name(name);
    json_int_t nt = json_integer_value(json_object_get(j, "ntiles"));
    if (!rec->ins) {
        snprintf(err, errlen, "unknown instruction '%s'", name ? name : "(none)");
        goto done;
    }
    if (nt < 1 || (uint64_t)nt > SIZE_MAX || !corpus_line_elems(rec->ins, (size_t)nt)) {
        snprintf(err, errlen, "%s: ntiles %lld out of range (1 up to %u elements in a line)", name,
                 (long long)nt, TC_LINE_MAX_ELEMS);
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
    rec->sm = (int)json_integer_value(json_object_get(j, "sm"));
    json_t *sa = json_object_get(j, "sass");
    if (sa && json_object_get(sa, "error")) {
        rec->sass_read = -1;
        copy_str(sa, "error", rec->sass_error, sizeof rec->sass_error);
    } else if (sa) {
        rec->sass_read = 1;
        copy_str(sa, "opcode", rec->sass.opcode, sizeof rec->sass.opcode);
        rec->sass.native = json_is_true(json_object_get(sa, "native"));
        rec->sass.per_mma = (int)json_integer_value(json_object_get(sa, "per_mma"));
        rec->sass.conversions = (int)json_integer_value(json_object_get(sa, "conversions"));
        copy_str(sa, "verdict", rec->sass.verdict, sizeof rec->sass.verdict);
        copy_str(sa, "message", rec->sass.message, sizeof rec->sass.message);
    }
    size_t mk = (size_t)ins->m * ins->k, kn = (size_t)ins->k * ins->n, mn = (size_t)ins->m * ins->n;
    copy_str(j, "inputs_of", rec->inputs_of, sizeof rec->inputs_of);
    rec->d_same = json_object_get(j, "d_same_as") != NULL;
    if (rec->d_same && !rec->inputs_of[0]) {
        snprintf(err, errlen, "%s: d_same_as without inputs_of", ins->name);
        goto done;
    }
    if (!rec->inputs_of[0] && (!(rec->A = tc_hex_get(j, "a", rec->ntiles * mk, ins->a)) ||
                               !(rec->B = tc_hex_get(j, "b", rec->ntiles * kn, ins->b)) ||
                               !(rec->C = tc_hex_get(j, "c", rec->ntiles * mn, ins->c)))) {
        snprintf(err, errlen, "%s: input hex missing, of the wrong length or with bad digits", ins->name);
        goto done;
    }
    if (!rec->d_same) {
        if (!(rec->D = tc_hex_get(j, "d", rec->ntiles * mn, ins->d))) {
            snprintf(err, errlen, "%s: output hex missing, of the wrong length or with bad digits", ins->name);
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

/* ---- Chain records (see backend_corpus.h) ------------------------------- */

void tc_chain_key(const tc_instr *ins, char *key, size_t len)
{
    if (!len)
        return;
    const char *name = ins->name;
    size_t n = strlen(name);
    if (ins->a_in_regs && n > 3 && !strcmp(name + n - 3, ".rs"))
        n -= 3;
    /* wgmma: drop the digits of N in ".mMnNkK." (every N makes the same step) */
    size_t n0 = n, n1 = n;
    const char *shape = strncmp(ins->api, "wgmma", 5) == 0 ? strstr(name, ".m") : NULL;
    const char *nn = shape ? strchr(shape, 'n') : NULL;
    if (nn && nn < name + n) {
        n0 = n1 = (size_t)(nn - name) + 1;
        while (n1 < n && name[n1] >= '0' && name[n1] <= '9')
            n1++;
    }
    snprintf(key, len, "%.*s%.*s", (int)n0, name, (int)(n - n1), name + n1);
}

/* The stream of chain c: from the key (not the name, so wgmma twins share
 * it) and the seed, tagged so that it is not the corpus stream of the same
 * name, and one per chain so that chain c does not depend on nchains. */
static uint64_t chain_stream(const char *key, uint64_t seed, size_t c)
{
    uint64_t s = seed;
    for (const char *p = "chain:"; *p; p++)
        s = s * 1099511628211ull ^ (unsigned char)*p;
    for (const char *p = key; *p; p++)
        s = s * 1099511628211ull ^ (unsigned char)*p;
    s += (uint64_t)c * 0xD1B54A32D192ED03ull;
    splitmix(&s);
    return s;
}

/* A finite value with a random sign and significand and exponent e0 or
 * e0 + 1 (kept within the normal range); with probability 1/any, any
 * pattern, so that specials and huge values also reach later steps. */
static uint64_t chain_elem(const tc_format *f, int e0, unsigned any, uint64_t *s)
{
    uint64_t r = splitmix(s);
    if ((r >> 32) % any == 0)
        return splitmix(s) & tc_format_mask(f);
    uint64_t mant = (splitmix(s) & ((1ull << f->mbits) - 1)) << f->shift;
    uint64_t sign = (r & 1) ? 1ull << (f->storage_bits - 1) : 0;
    int emax_field = (1 << f->ebits) - 1;
    int e = f->bias + e0 + (int)((r >> 1) & 1);
    if (e < 1)
        e = 1;
    if (e > emax_field - 1)
        e = emax_field - 1;
    return sign | (uint64_t)e << (f->mbits + f->shift) | mant;
}

void tc_chain_inputs(const tc_instr *ins, size_t nchains, int len, uint64_t seed, uint64_t *A0, uint64_t *B,
                     uint64_t *C)
{
    char key[96];
    tc_chain_key(ins, key, sizeof key);
    size_t M = (size_t)ins->m, K = (size_t)ins->k, mk = M * K, kk = K * K;
    /* b = 1.f * 2^e, e in {eb, eb + 1}: E[b^2] = 35/6 * 4^eb, and
     * eb = -floor((ceil(log2 K) + 5) / 2) keeps K * E[b^2] within [0.18, 0.37] for
     * K = 4..32, so X = X*B + C (C in [1/2, 2)) settles instead of growing.
     * Any pattern with probability 1/(32 K), about one row in 32 of B_i and
     * C_i: a NaN or Inf anywhere in B_i reaches every element of the chain
     * one step later, so one in 32 elements (K^2/32 per B_i) would leave
     * nothing but NaN after two or three steps. */
    int lg = 0;
    while ((1u << lg) < (unsigned)ins->k)
        lg++;
    int eb = -((lg + 5) / 2);
    unsigned any = 32u * (unsigned)ins->k;
    for (size_t c = 0; c < nchains; c++) {
        uint64_t s = chain_stream(key, seed, c);
        for (size_t e = 0; e < mk; e++)
            A0[c * mk + e] = random_elem(ins->a, false, &s);
        for (size_t i = 0; i < (size_t)len; i++) {
            size_t step = c * (size_t)len + i;
            for (size_t e = 0; e < kk; e++)
                B[step * kk + e] = chain_elem(ins->b, eb, any, &s);
            for (size_t e = 0; e < mk; e++)
                C[step * mk + e] = chain_elem(ins->c, -1, any, &s);
        }
    }
}

/* Element counts of a record's arrays; -1 when they do not fit a size_t. */
typedef struct {
    size_t mk, kk, steps;
} chain_dims;

static int chain_dims_of(const tc_instr *ins, size_t nchains, int len, chain_dims *d, char *err, size_t errlen)
{
    size_t M = (size_t)ins->m, K = (size_t)ins->k;
    d->mk = M * K;
    d->kk = K * K;
    if (nchains < 1 || len < 1) {
        snprintf(err, errlen, "%s: chains and len must be at least 1", ins->name);
        return -1;
    }
    /* A0, then per step B (K*K), C, X and D (M*K each): TC_LINE_MAX_ELEMS in all */
    size_t per = d->kk + 3 * d->mk, cap = TC_LINE_MAX_ELEMS;
    if (nchains > cap / d->mk || nchains > (cap - nchains * d->mk) / per / (size_t)len) {
        snprintf(err, errlen, "%s: %zu chains of %d steps exceed a line's %zu elements (C*L*(K*K+3*M*K) + C*M*K)",
                 ins->name, nchains, len, cap);
        return -1;
    }
    d->steps = nchains * (size_t)len;
    return 0;
}

bool tc_chain_fits(const tc_instr *ins, size_t nchains, int len, char *err, size_t errlen)
{
    chain_dims d;
    return chain_dims_of(ins, nchains, len, &d, err, errlen) == 0;
}

/* What a later line may take from twin: the same key, seed, shape and cvt,
 * and full data. */
static int twin_matches(const tc_chain_rec *twin, const char *key, uint64_t seed, size_t nchains, int len,
                        tc_rounding cvt)
{
    return twin && twin->ins && !strcmp(twin->key, key) && twin->seed == seed && twin->nchains == nchains &&
           twin->len == len && twin->cvt.mode == cvt.mode && twin->cvt.ovf == cvt.ovf && twin->A0 && twin->B &&
           twin->C && twin->X && twin->D;
}

int tc_chain_run(tc_backend *b, const tc_instr *ins, size_t nchains, int len, tc_rounding cvt, uint64_t seed,
                 const tc_chain_rec *twin, tc_chain_rec *rec, char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    chain_dims dm;
    if (!tc_instr_has_chains(ins, err, errlen) || chain_dims_of(ins, nchains, len, &dm, err, errlen))
        return -1;
    if (cvt.ftz || cvt.daz || cvt.mode == TC_RS) {
        snprintf(err, errlen, "%s: chain cvt must be a rounding (not rs) and an overflow only: the record keeps "
                 "no ftz, daz or random bits", ins->name);
        return -1;
    }
    char key[96];
    tc_chain_key(ins, key, sizeof key);
    if (twin && !twin_matches(twin, key, seed, nchains, len, cvt)) {
        snprintf(err, errlen, "%s: twin %s is not a full record of key %s with the same seed, chains, len and cvt",
                 ins->name, twin->ins ? twin->ins->name : "(none)", key);
        return -1;
    }
    size_t mk = dm.mk, kk = dm.kk, st = dm.steps;
    uint64_t *A0 = rec->A0 = malloc(nchains * mk * 8), *B = rec->B = malloc(st * kk * 8),
             *C = rec->C = malloc(st * mk * 8), *X = rec->X = malloc(st * mk * 8), *D = rec->D = malloc(st * mk * 8);
    if (!A0 || !B || !C || !X || !D) {
        snprintf(err, errlen, "out of memory");
        tc_chain_rec_free(rec);
        return -1;
    }
    tc_chain_inputs(ins, nchains, len, seed, A0, B, C);
    if (tc_backend_chain(b, ins, nchains, len, A0, B, C, cvt, X, D, err, errlen)) {
        tc_chain_rec_free(rec);
        return -1;
    }
    /* The inputs are the twin's by construction (same key and seed); the
     * outputs are compared here, on the data, never assumed. */
    if (twin && !memcmp(twin->A0, A0, nchains * mk * 8) && !memcmp(twin->B, B, st * kk * 8) &&
        !memcmp(twin->C, C, st * mk * 8) && !memcmp(twin->X, X, st * mk * 8) && !memcmp(twin->D, D, st * mk * 8))
        snprintf(rec->same_as, sizeof rec->same_as, "%s", twin->ins->name);
    const tc_backend_info *info = tc_backend_get_info(b);
    rec->ins = ins;
    snprintf(rec->key, sizeof rec->key, "%s", key);
    snprintf(rec->backend, sizeof rec->backend, "%s", info->backend);
    snprintf(rec->device, sizeof rec->device, "%s", info->device);
    snprintf(rec->driver, sizeof rec->driver, "%s", info->driver);
    snprintf(rec->cuda, sizeof rec->cuda, "%s", info->cuda);
    rec->sm = info->sm;
    rec->seed = seed;
    rec->nchains = nchains;
    rec->len = len;
    rec->cvt = (tc_rounding){.mode = cvt.mode, .ovf = cvt.ovf};
    return 0;
}

int tc_chain_parse(const char *line, tc_chain_rec *rec, char *err, size_t errlen)
{
    memset(rec, 0, sizeof *rec);
    json_t *j = tc_line_load(line, err, errlen);
    if (!j)
        return -1;
    int rc = -1;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    const char *name = json_string_value(json_object_get(j, "instr"));
    if (!kind || strcmp(kind, "chain") != 0) {
        snprintf(err, errlen, "not a chain record (kind '%s')", kind ? kind : "(none)");
        goto done;
    }
    const tc_instr *ins = rec->ins = tc_instr_by_name(name);
    if (!ins) {
        snprintf(err, errlen, "unknown instruction '%s'", name ? name : "(none)");
        goto done;
    }
    if (!tc_instr_has_chains(ins, err, errlen))
        goto done;
    char key[96];
    tc_chain_key(ins, key, sizeof key);
    copy_str(j, "key", rec->key, sizeof rec->key);
    if (strcmp(rec->key, key) != 0) {
        snprintf(err, errlen, "%s: key '%s' is not its chain key '%s'", ins->name, rec->key, key);
        goto done;
    }
    json_t *jc = json_object_get(j, "chains"), *jl = json_object_get(j, "len"), *js = json_object_get(j, "seed");
    json_int_t nc = json_integer_value(jc), len = json_integer_value(jl);
    if (!json_is_integer(jc) || !json_is_integer(jl) || !json_is_integer(js) || nc < 1 || len < 1 ||
        len > 1000000000) {
        snprintf(err, errlen, "%s: bad or missing seed, chains or len", ins->name);
        goto done;
    }
    rec->nchains = (size_t)nc;
    rec->len = (int)len;
    rec->seed = (uint64_t)json_integer_value(js);
    chain_dims dm;
    if (chain_dims_of(ins, rec->nchains, rec->len, &dm, err, errlen))
        goto done;
    json_t *cv = json_object_get(j, "cvt");
    const char *rn = json_string_value(json_object_get(cv, "round")),
               *ov = json_string_value(json_object_get(cv, "overflow"));
    if (!rn || !ov || !tc_round_parse(rn, &rec->cvt.mode) || !tc_overflow_parse(ov, &rec->cvt.ovf) ||
        rec->cvt.mode == TC_RS) {
        snprintf(err, errlen, "%s: bad or missing cvt (round '%s', overflow '%s')", ins->name, rn ? rn : "?",
                 ov ? ov : "?");
        goto done;
    }
    copy_str(j, "backend", rec->backend, sizeof rec->backend);
    copy_str(j, "device", rec->device, sizeof rec->device);
    copy_str(j, "driver", rec->driver, sizeof rec->driver);
    copy_str(j, "cuda", rec->cuda, sizeof rec->cuda);
    rec->sm = (int)json_integer_value(json_object_get(j, "sm"));
    static const char *const data[] = {"a0", "b", "c", "x", "d"};
    json_t *sa = json_object_get(j, "same_as");
    if (sa) {
        const tc_instr *tw = tc_instr_by_name(json_string_value(sa));
        char tkey[96] = "";
        if (tw)
            tc_chain_key(tw, tkey, sizeof tkey);
        if (!tw || tw == ins || strcmp(tkey, key) != 0) {
            snprintf(err, errlen, "%s: same_as '%s' is not another instruction of key %s", ins->name,
                     json_is_string(sa) ? json_string_value(sa) : "?", key);
            goto done;
        }
        for (size_t i = 0; i < 5; i++)
            if (json_object_get(j, data[i])) {
                snprintf(err, errlen, "%s: both same_as and \"%s\"", ins->name, data[i]);
                goto done;
            }
        snprintf(rec->same_as, sizeof rec->same_as, "%s", tw->name);
    } else if (!(rec->A0 = tc_hex_get(j, "a0", rec->nchains * dm.mk, ins->a)) ||
               !(rec->B = tc_hex_get(j, "b", dm.steps * dm.kk, ins->b)) ||
               !(rec->C = tc_hex_get(j, "c", dm.steps * dm.mk, ins->c)) ||
               !(rec->X = tc_hex_get(j, "x", dm.steps * dm.mk, ins->a)) ||
               !(rec->D = tc_hex_get(j, "d", dm.steps * dm.mk, ins->d))) {
        snprintf(err, errlen, "%s: a0, b, c, x or d missing, of the wrong length or with bad digits", ins->name);
        goto done;
    }
    rc = 0;
done:
    json_decref(j);
    if (rc)
        tc_chain_rec_free(rec);
    return rc;
}

int tc_chain_resolve(tc_chain_rec *rec, const tc_chain_rec *twin, char *err, size_t errlen)
{
    if (!rec->same_as[0])
        return 0;
    if (!twin || !twin->ins || strcmp(twin->ins->name, rec->same_as) != 0 ||
        !twin_matches(twin, rec->key, rec->seed, rec->nchains, rec->len, rec->cvt)) {
        snprintf(err, errlen, "%s: its twin %s is missing or does not match (key, seed, chains, len, cvt)",
                 rec->ins ? rec->ins->name : "?", rec->same_as);
        return -1;
    }
    chain_dims dm;
    if (chain_dims_of(rec->ins, rec->nchains, rec->len, &dm, err, errlen))
        return -1;
    tc_chain_rec_free(rec);
    rec->A0 = dup_elems(twin->A0, rec->nchains * dm.mk);
    rec->B = dup_elems(twin->B, dm.steps * dm.kk);
    rec->C = dup_elems(twin->C, dm.steps * dm.mk);
    rec->X = dup_elems(twin->X, dm.steps * dm.mk);
    rec->D = dup_elems(twin->D, dm.steps * dm.mk);
    if (!rec->A0 || !rec->B || !rec->C || !rec->X || !rec->D) {
        tc_chain_rec_free(rec);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

void tc_chain_rec_free(tc_chain_rec *rec)
{
    free(rec->A0);
    free(rec->B);
    free(rec->C);
    free(rec->X);
    free(rec->D);
    rec->A0 = rec->B = rec->C = rec->X = rec->D = NULL;
}

/* X: X_0 = A0 and X_i = cvt(D_{i-1}), element by element. */
static void check_chain_x(const tc_chain_rec *r, size_t mk, size_t *x_mismatch, size_t *x_nan_pattern)
{
    const tc_instr *ins = r->ins;
    tc_rounding cvt = {.mode = r->cvt.mode, .ovf = r->cvt.ovf};
    for (size_t c = 0; c < r->nchains; c++)
        for (size_t i = 0; i < (size_t)r->len; i++) {
            size_t step = c * (size_t)r->len + i;
            const uint64_t *x = r->X + step * mk;
            for (size_t e = 0; e < mk; e++) {
                uint64_t want = i == 0 ? r->A0[c * mk + e]
                                       : tc_encode(ins->a, tc_decode(ins->d, r->D[(step - 1) * mk + e], false),
                                                   false, cvt);
                if (x[e] == want)
                    continue;
                if (tc_classify(ins->a, x[e]) == TC_NAN && tc_classify(ins->a, want) == TC_NAN)
                    (*x_nan_pattern)++;
                else
                    (*x_mismatch)++;
            }
        }
}

/* Bytes of tiles handed to one tc_backend_mma call: large enough that the
 * per-call cost of the software backends vanishes, small enough for a
 * wgmma N = 256 replay (16 of 256 columns used at K = 16) to stay modest. */
#define CHECK_BATCH_BYTES ((size_t)64 << 20)

/* D: every step again as ceil(K/N) plain MMAs on column blocks of B_i and
 * C_i (zero beyond K), all steps of all chains batched. */
static int check_chain_d(tc_backend *b, const tc_chain_rec *r, const chain_dims *dm, size_t *d_mismatch,
                         char *err, size_t errlen)
{
    const tc_instr *ins = r->ins;
    size_t M = (size_t)ins->m, N = (size_t)ins->n, K = (size_t)ins->k;
    size_t mk = dm->mk, kn = K * N, mn = M * N, nb = (K + N - 1) / N;
    size_t total = dm->steps * nb, per_tile = (mk + kn + 2 * mn) * 8;
    size_t batch = CHECK_BATCH_BYTES / per_tile;
    if (batch < 1)
        batch = 1;
    if (batch > total)
        batch = total;
    uint64_t *A = malloc(batch * mk * 8), *B = malloc(batch * kn * 8), *C = malloc(batch * mn * 8),
             *D = malloc(batch * mn * 8);
    int rc = 0;
    if (!A || !B || !C || !D) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    for (size_t t0 = 0; !rc && t0 < total; t0 += batch) {
        size_t nt = total - t0 < batch ? total - t0 : batch;
        for (size_t u = 0; u < nt; u++) { /* tile t = step * nb + block */
            size_t step = (t0 + u) / nb, j0 = (t0 + u) % nb * N;
            memcpy(A + u * mk, r->X + step * mk, mk * 8);
            for (size_t kk = 0; kk < K; kk++)
                for (size_t j = 0; j < N; j++)
                    B[u * kn + kk * N + j] = j0 + j < K ? r->B[step * dm->kk + kk * K + j0 + j] : 0;
            for (size_t i = 0; i < M; i++)
                for (size_t j = 0; j < N; j++)
                    C[u * mn + i * N + j] = j0 + j < K ? r->C[step * mk + i * K + j0 + j] : 0;
        }
        if (tc_backend_mma(b, ins, nt, A, B, C, D, err, errlen)) {
            rc = -1;
            break;
        }
        for (size_t u = 0; u < nt; u++) {
            size_t step = (t0 + u) / nb, j0 = (t0 + u) % nb * N;
            for (size_t i = 0; i < M; i++)
                for (size_t j = 0; j < N && j0 + j < K; j++)
                    *d_mismatch += D[u * mn + i * N + j] != r->D[step * mk + i * K + j0 + j];
        }
    }
    free(A);
    free(B);
    free(C);
    free(D);
    return rc;
}

int tc_chain_check(tc_backend *b, const tc_chain_rec *rec, size_t *d_mismatch, size_t *x_mismatch,
                   size_t *x_nan_pattern, char *err, size_t errlen)
{
    *d_mismatch = *x_mismatch = *x_nan_pattern = 0;
    const tc_instr *ins = rec->ins;
    chain_dims dm;
    if (!ins || !tc_instr_has_chains(ins, err, errlen) || chain_dims_of(ins, rec->nchains, rec->len, &dm, err, errlen))
        return -1;
    if (!rec->A0 || !rec->B || !rec->C || !rec->X || !rec->D) {
        snprintf(err, errlen, "%s: the record has no data (same_as %s not resolved)", ins->name, rec->same_as);
        return -1;
    }
    char why[384];
    if (!tc_backend_supports(b, ins, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    check_chain_x(rec, dm.mk, x_mismatch, x_nan_pattern);
    return check_chain_d(b, rec, &dm, d_mismatch, err, errlen);
}
