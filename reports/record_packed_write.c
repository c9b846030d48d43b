/* The writer of packed records (record_packed.h; SCHEMA.md "Packed
 * records"). Each line of today's text becomes one line of the packed
 * stream: kept as it is, or, for an object with bulk, the object with its
 * bulk fields set to null and a member "packed" saying how to fill them,
 * followed by the outputs' bytes. The whole is compressed once with xz. */
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

#include "probes/record_json.h"
#include "reports/record_packed.h"
#include "reports/reports_internal.h"

/* The outputs of one line: descriptors and their bytes, in order. */
typedef struct {
    json_t *o, *blobs;
    FILE *bytes;
    size_t outputs;
} line_outputs;

static int hex_digit(char c, int *upper)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    int up = c >= 'A' && c <= 'F', low = c >= 'a' && c <= 'f';
    if (!up && !low)
        return -1;
    if (*upper >= 0 && *upper != up) /* one case in one field, so it can be written back */
        return -1;
    *upper = up;
    return (up ? c - 'A' : c - 'a') + 10;
}

static int pack_output(void *ctx, const char *parent, const char *key, json_t *hex, int digits, char *err,
                       size_t len)
{
    line_outputs *lo = ctx;
    const char *s = json_string_value(hex);
    size_t sl = json_string_length(hex);
    if (digits < 1 || digits > 16 || sl % (size_t)digits) {
        rep_set_err(err, len, "\"%s\": %zu hex digits are not whole elements of %d", key, sl, digits);
        return -1;
    }
    size_t n = sl / (size_t)digits;
    int bits = 4 * digits, upper = -1;
    unsigned char *p = calloc(pk_bytes(n, bits) + 1, 1);
    if (!p) {
        rep_set_err(err, len, "out of memory");
        return -1;
    }
    for (size_t e = 0; e < n; e++) {
        uint64_t v = 0;
        for (int q = 0; q < digits; q++) {
            int d = hex_digit(s[e * (size_t)digits + (size_t)q], &upper);
            if (d < 0) {
                free(p);
                rep_set_err(err, len, "\"%s\": element %zu is not hex of one case", key, e);
                return -1;
            }
            v = v << 4 | (uint64_t)d;
        }
        pk_bits_put(p, e, bits, v);
    }
    fwrite(p, 1, pk_bytes(n, bits), lo->bytes);
    free(p);
    json_t *at = parent ? json_pack("[s,s]", parent, key) : json_pack("[s]", key);
    json_t *d = json_pack("{s:o, s:I, s:i}", "at", at, "n", (json_int_t)n, "bits", bits);
    if (upper > 0)
        json_object_set_new(d, "upper", json_true());
    json_array_append_new(lo->blobs, d);
    json_object_set_new(parent ? json_object_get(lo->o, parent) : lo->o, key, json_null());
    lo->outputs += n;
    return 0;
}

/* The inputs of o, checked to be the generator's and replaced by null; the
 * descriptor {"by", "sha256"} in *inputs, or NULL when o keeps none. */
static int pack_inputs(json_t *o, const pk_generator *g, json_t **inputs, size_t *elems, char *err, size_t len)
{
    *inputs = NULL;
    pk_array a[3];
    int na = g->draw(o, a, err, len);
    if (na <= 0)
        return na;
    int rc = 0;
    json_t *want = json_object();
    for (int i = 0; i < na && !rc; i++) {
        const char *have = json_string_value(json_object_get(o, a[i].key));
        if (tc_hex_put(want, a[i].key, a[i].x, a[i].n, a[i].f)) {
            rep_set_err(err, len, "out of memory");
            rc = -1;
        } else if (!have || strcmp(have, json_string_value(json_object_get(want, a[i].key)))) {
            rep_set_err(err, len, "\"%s\" is not what %s draws for the line's seed: its inputs cannot be "
                        "regenerated, so it cannot be packed", a[i].key, g->by);
            rc = -1;
        }
        *elems += a[i].n;
    }
    char sha[65];
    if (!rc && pk_sha256_arrays(a, na, sha)) {
        rep_set_err(err, len, "sha256: out of memory");
        rc = -1;
    }
    for (int i = 0; i < na && !rc; i++)
        json_object_set_new(o, a[i].key, json_null());
    if (!rc)
        *inputs = json_pack("{s:s, s:s}", "by", g->by, "sha256", sha);
    json_decref(want);
    pk_arrays_free(a, na);
    return rc;
}

/* One line of text (without its "\n") to the packed stream out. */
static int pack_line(const char *line, size_t ll, FILE *out, tc_packed_stats *st, char *err, size_t len)
{
    json_error_t je;
    json_t *o = json_loadb(line, ll, 0, &je);
    if (!o) {
        rep_set_err(err, len, "not JSON: %s", je.text);
        return -1;
    }
    const char *kind = json_string_value(json_object_get(o, "kind"));
    const pk_generator *g = pk_generator_of_kind(kind);
    line_outputs lo = {o, json_array(), NULL, 0};
    char *bytes = NULL;
    size_t nbytes = 0;
    lo.bytes = open_memstream(&bytes, &nbytes);
    json_t *inputs = NULL;
    size_t ins = 0;
    int rc = json_object_get(o, "packed") ? (rep_set_err(err, len, "already has a member \"packed\""), -1) : 0;
    if (!rc && g)
        rc = pack_inputs(o, g, &inputs, &ins, err, len);
    if (!rc)
        rc = pk_outputs_each(o, kind, pack_output, &lo, err, len);
    fclose(lo.bytes);
    if (rc)
        rep_set_err(err + strlen(err), len - strlen(err), " (%s)", pk_object_name(o));
    else if (!inputs && !json_array_size(lo.blobs)) { /* nothing bulky: the line as it is */
        fwrite(line, 1, ll, out);
        fputc('\n', out);
    } else {
        json_t *p = json_object();
        if (inputs)
            json_object_set_new(p, "inputs", inputs);
        json_object_set(p, "blobs", lo.blobs);
        json_object_set_new(o, "packed", p);
        rc = rep_write_line(out, o);
        fwrite(bytes, 1, nbytes, out);
        st->packed++;
        st->inputs += ins;
        st->outputs += lo.outputs;
    }
    free(bytes);
    json_decref(lo.blobs);
    json_decref(o);
    return rc;
}

/* xz at preset 9 (the records are written once and read many times), its
 * dictionary no larger than the text needs: the same bytes out, and a small
 * record does not ask for the 674 MiB preset 9 takes to write. */
static int xz_write(const char *in, size_t n, FILE *out, char *err, size_t len)
{
    lzma_options_lzma opt;
    lzma_lzma_preset(&opt, 9);
    while (opt.dict_size / 2 >= n && opt.dict_size / 2 >= LZMA_DICT_SIZE_MIN)
        opt.dict_size /= 2;
    lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, NULL}};
    size_t cap = lzma_stream_buffer_bound(n), got = 0;
    uint8_t *buf = malloc(cap);
    lzma_ret r = buf ? lzma_stream_buffer_encode(filters, LZMA_CHECK_CRC64, NULL, (const uint8_t *)in, n, buf, &got,
                                                 cap)
                     : LZMA_MEM_ERROR;
    int rc = r == LZMA_OK && fwrite(buf, 1, got, out) == got ? 0 : -1;
    if (rc)
        rep_set_err(err, len, r == LZMA_OK ? "write failed" : "xz: liblzma error %d", (int)r);
    free(buf);
    return rc;
}

int tc_packed_write(const char *text, size_t len, FILE *out, tc_packed_stats *st, char *err, size_t errlen)
{
    return tc_packed_write_progress(text, len, out, st, NULL, NULL, err, errlen);
}

int tc_packed_write_progress(const char *text, size_t len, FILE *out, tc_packed_stats *st,
                             void (*progress)(void *ctx, size_t done, size_t total), void *ctx, char *err,
                             size_t errlen)
{
    tc_packed_stats mine = {0};
    st = st ? st : &mine;
    *st = (tc_packed_stats){0};
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    fputs(TC_PACKED_MAGIC "\n", m);
    int rc = 0;
    for (size_t at = 0; at < len && !rc;) {
        const char *nl = memchr(text + at, '\n', len - at);
        if (!nl) {
            rep_set_err(err, errlen, "line %zu: no newline at its end", st->lines + 1);
            rc = -1;
            break;
        }
        st->lines++;
        char why[400] = "";
        if ((rc = pack_line(text + at, (size_t)(nl - (text + at)), m, st, why, sizeof why)))
            rep_set_err(err, errlen, "line %zu: %s", st->lines, why);
        at = (size_t)(nl - text) + 1;
        if (progress)
            progress(ctx, at, len);
    }
    fclose(m);
    if (!rc)
        rc = xz_write(buf, n, out, err, errlen);
    free(buf);
    return rc;
}
