/* The reader of packed records (record_packed.h; SCHEMA.md "Packed
 * records"): today's text back, line by line, byte for byte. Every length
 * read from the stream is checked against what is left of it before
 * anything is allocated, so a damaged record is an error, never a crash. */
#include <stdlib.h>
#include <string.h>

#include <lzma.h>

#include "probes/record_json.h"
#include "reports/record_packed.h"
#include "reports/reports_internal.h"

/* The most a packed record may decompress to: 1 GiB (the committed ones
 * are at most a few tens of MB). */
#define PACKED_MAX_BYTES (1u << 30)

bool tc_packed_is(const unsigned char *p, size_t n)
{
    static const unsigned char xz[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
    return n >= 6 && !memcmp(p, xz, 6);
}

static int xz_read(const unsigned char *in, size_t n, unsigned char **out, size_t *got, char *err, size_t len)
{
    lzma_stream s = LZMA_STREAM_INIT;
    size_t cap = 1u << 20;
    unsigned char *buf = malloc(cap);
    lzma_ret r = buf ? lzma_stream_decoder(&s, 1u << 28, 0) /* 256 MiB: preset 9 asks 65 */ : LZMA_MEM_ERROR;
    s.next_in = in;
    s.avail_in = n;
    while (r == LZMA_OK) {
        if (s.total_out == cap) {
            unsigned char *more = cap < PACKED_MAX_BYTES ? realloc(buf, cap * 2) : NULL;
            if (!more) {
                r = cap < PACKED_MAX_BYTES ? LZMA_MEM_ERROR : LZMA_MEMLIMIT_ERROR;
                break;
            }
            buf = more;
            cap *= 2;
        }
        s.next_out = buf + s.total_out;
        s.avail_out = cap - s.total_out;
        r = lzma_code(&s, LZMA_FINISH);
    }
    *got = s.total_out;
    lzma_end(&s);
    if (r != LZMA_STREAM_END) {
        free(buf);
        rep_set_err(err, len, r == LZMA_MEMLIMIT_ERROR ? "decompresses to more than 1 GiB"
                              : r == LZMA_BUF_ERROR    ? "the xz stream is cut short"
                                                       : "not a whole xz stream (liblzma error %d)", (int)r);
        return -1;
    }
    *out = buf;
    return 0;
}

/* Fills the output at blob descriptor d from p (at most left bytes); the
 * bytes used in *used. */
static int fill_output(json_t *o, const json_t *d, const unsigned char *p, size_t left, size_t *used,
                       size_t *elems, char *err, size_t len)
{
    const json_t *at = json_object_get(d, "at"), *jn = json_object_get(d, "n"), *jb = json_object_get(d, "bits");
    size_t depth = json_array_size(at);
    const char *k0 = json_string_value(json_array_get(at, 0)), *k1 = json_string_value(json_array_get(at, 1));
    json_t *in = depth == 2 ? json_object_get(o, k0) : o;
    const char *key = depth == 2 ? k1 : k0;
    json_int_t n = json_integer_value(jn), bits = json_integer_value(jb);
    if (!json_is_integer(jn) || !json_is_integer(jb) || !key || depth > 2 || !json_is_object(in) ||
        !json_is_null(json_object_get(in, key)) || n < 0 || bits < 4 || bits > 64 || bits % 4) {
        rep_set_err(err, len, "a blob without \"at\" (a null member), \"n\" or \"bits\" (4..64, by 4)");
        return -1;
    }
    if ((size_t)n > left / (size_t)bits * 8 + 8 || pk_bytes((size_t)n, (int)bits) > left) {
        rep_set_err(err, len, "\"%s\": %lld elements of %lld bits run past the end of the stream", key,
                    (long long)n, (long long)bits);
        return -1;
    }
    int digits = (int)bits / 4;
    const char *dig = json_is_true(json_object_get(d, "upper")) ? "0123456789ABCDEF" : "0123456789abcdef";
    char *s = malloc((size_t)n * (size_t)digits + 1);
    if (!s) {
        rep_set_err(err, len, "out of memory");
        return -1;
    }
    for (size_t e = 0; e < (size_t)n; e++) {
        uint64_t v = pk_bits_get(p, e, (int)bits);
        for (int q = 0; q < digits; q++)
            s[e * (size_t)digits + (size_t)q] = dig[(v >> (4 * (digits - 1 - q))) & 15];
    }
    json_object_set_new(in, key, json_stringn_nocheck(s, (size_t)n * (size_t)digits));
    free(s);
    *used = pk_bytes((size_t)n, (int)bits);
    *elems += (size_t)n;
    return 0;
}

/* Draws the inputs again, checks their sha256 and puts them in place. */
static int fill_inputs(json_t *o, const json_t *d, size_t *elems, char *err, size_t len)
{
    const char *by = json_string_value(json_object_get(d, "by")),
               *sha = json_string_value(json_object_get(d, "sha256"));
    const pk_generator *g = pk_generator_named(by);
    if (!g || !sha) {
        rep_set_err(err, len, "inputs by '%s': no such generator in this tcscope", by ? by : "(none)");
        return -1;
    }
    pk_array a[3];
    int na = g->draw(o, a, err, len), rc = 0;
    if (na <= 0)
        return na == 0 ? (rep_set_err(err, len, "%s draws no inputs for this line", by), -1) : -1;
    char got[65];
    for (int i = 0; i < na && !rc; i++)
        if (!json_is_null(json_object_get(o, a[i].key)))
            rc = (rep_set_err(err, len, "inputs: \"%s\" is not a null member", a[i].key), -1);
    if (!rc && pk_sha256_arrays(a, na, got))
        rc = (rep_set_err(err, len, "sha256: out of memory"), -1);
    else if (!rc && strcmp(got, sha))
        rc = (rep_set_err(err, len, "the inputs %s draws have sha256 %.12s.., the record says %.12s..: the "
                          "generator is not the one that made the record", by, got, sha), -1);
    for (int i = 0; i < na && !rc; i++) {
        rc = tc_hex_put(o, a[i].key, a[i].x, a[i].n, a[i].f) ? (rep_set_err(err, len, "out of memory"), -1) : 0;
        *elems += a[i].n;
    }
    pk_arrays_free(a, na);
    return rc;
}

/* The packed line o (its member "packed" p) back in today's form, written to
 * out; its outputs from p[..left), the bytes used in *used. */
static int unpack_line(json_t *o, const json_t *pk, const unsigned char *p, size_t left, size_t *used, FILE *out,
                       tc_packed_stats *st, char *err, size_t len)
{
    const json_t *blobs = json_object_get(pk, "blobs"), *inputs = json_object_get(pk, "inputs");
    if (!json_is_object(pk) || !json_is_array(blobs)) {
        rep_set_err(err, len, "\"packed\" is not an object with \"blobs\"");
        return -1;
    }
    *used = 0;
    size_t i;
    const json_t *d;
    json_array_foreach(blobs, i, d) {
        size_t u = 0;
        if (fill_output(o, d, p + *used, left - *used, &u, &st->outputs, err, len))
            return -1;
        *used += u;
    }
    if (inputs && fill_inputs(o, inputs, &st->inputs, err, len))
        return -1;
    json_object_del(o, "packed");
    st->packed++;
    return rep_write_line(out, o) ? (rep_set_err(err, len, "out of memory"), -1) : 0;
}

/* The decompressed stream p[0..n) as today's text to out. */
static int unpack_all(const unsigned char *p, size_t n, FILE *out, tc_packed_stats *st, char *err, size_t len)
{
    size_t ml = strlen(TC_PACKED_MAGIC "\n");
    if (n < ml || memcmp(p, TC_PACKED_MAGIC "\n", ml)) {
        rep_set_err(err, len, "an xz stream, but not a packed record (no first line " TC_PACKED_MAGIC ")");
        return -1;
    }
    for (size_t at = ml; at < n;) {
        const unsigned char *nl = memchr(p + at, '\n', n - at);
        size_t ll = nl ? (size_t)(nl - (p + at)) : 0, used = 0;
        st->lines++;
        json_error_t je;
        json_t *o = nl ? json_loadb((const char *)p + at, ll, 0, &je) : NULL;
        const json_t *pk = json_object_get(o, "packed");
        char why[400] = "";
        int rc = 0;
        if (!nl)
            rc = (rep_set_err(why, sizeof why, "cut short (no newline)"), -1);
        else if (!o)
            rc = (rep_set_err(why, sizeof why, "not JSON: %s", je.text), -1);
        else if (!pk) /* kept as it was written */
            rc = fwrite(p + at, 1, ll + 1, out) == ll + 1 ? 0 : (rep_set_err(why, sizeof why, "write failed"), -1);
        else
            rc = unpack_line(o, pk, nl + 1, n - (size_t)(nl + 1 - p), &used, out, st, why, sizeof why);
        if (rc)
            rep_set_err(err, len, "line %zu (%s): %s", st->lines, o ? pk_object_name(o) : "?", why);
        json_decref(o);
        if (rc)
            return -1;
        at += ll + 1 + used;
    }
    return 0;
}

int tc_packed_read(const unsigned char *xz, size_t n, char **text, size_t *len, tc_packed_stats *st, char *err,
                   size_t errlen)
{
    tc_packed_stats mine = {0};
    st = st ? st : &mine;
    *st = (tc_packed_stats){0};
    *text = NULL;
    *len = 0;
    unsigned char *raw = NULL;
    size_t rawn = 0;
    if (xz_read(xz, n, &raw, &rawn, err, errlen))
        return -1;
    FILE *out = open_memstream(text, len);
    int rc = out ? unpack_all(raw, rawn, out, st, err, errlen) : -1;
    if (out)
        fclose(out);
    free(raw);
    if (rc) {
        free(*text);
        *text = NULL;
        *len = 0;
    }
    return rc;
}
