/* The user's sample values: a NumPy .npy file or raw little-endian float32.
 * The .npy header is a Python dict literal from a file we did not write:
 * it is parsed as the format defines it (cases/npy.h: exactly the keys
 * descr, fortran_order and shape, each value parsed whole), every field is
 * checked (magic, version, header length inside the file, the data size
 * exactly the shape's), and nothing in it is trusted for a size before it
 * is checked. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/app.h"
#include "cases/npy.h"

#define MAX_FILE_BYTES (1ull << 30)   /* 1 GiB: far more values than a distribution needs */
#define MAX_HEADER (1u << 20)

static bool fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return false;
}

/* The whole file, at most MAX_FILE_BYTES. */
static unsigned char *slurp(const char *path, size_t *n, char *err, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail(err, len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, used = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fail(err, len, "%s: out of memory", path);
            return NULL;
        }
        used += fread(buf + used, 1, cap - used, f);
        if (used < cap)
            break;
        if (cap >= MAX_FILE_BYTES) {
            free(buf);
            fclose(f);
            fail(err, len, "%s: larger than %llu bytes", path, (unsigned long long)MAX_FILE_BYTES);
            return NULL;
        }
        unsigned char *nb = realloc(buf, cap * 2);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        fail(err, len, "%s: read error", path);
        return NULL;
    }
    *n = used;
    return buf;
}

/* ---- the header dict, a Python literal ---- */

typedef struct {
    const char *p, *end;
    char *err;
    size_t len;
} lit;

static void blank(lit *l)
{
    while (l->p < l->end && (*l->p == ' ' || *l->p == '\t' || *l->p == '\n' || *l->p == '\r'))
        l->p++;
}

static bool at(lit *l, char c)
{
    blank(l);
    if (l->p < l->end && *l->p == c) {
        l->p++;
        return true;
    }
    return false;
}

/* 'text' or "text", no escape, at most out_len - 1 bytes. */
static bool string(lit *l, char *out, size_t out_len)
{
    blank(l);
    if (l->p >= l->end || (*l->p != '\'' && *l->p != '"'))
        return fail(l->err, l->len, "a string expected in the .npy header");
    char q = *l->p++;
    const char *s = l->p;
    /* printable ASCII only: what is quoted in a message is safe to print */
    while (l->p < l->end && *l->p != q && *l->p != '\\' && *l->p >= 0x20 && *l->p < 0x7f)
        l->p++;
    if (l->p >= l->end || *l->p != q)
        return fail(l->err, l->len, "a string with an escape, a byte outside printable ASCII or no end in the .npy "
                                    "header");
    size_t n = (size_t)(l->p - s);
    l->p++;
    if (n >= out_len)
        return fail(l->err, l->len, "a string of %zu bytes in the .npy header (at most %zu)", n, out_len - 1);
    memcpy(out, s, n);
    out[n] = '\0';
    return true;
}

/* True or False, a whole word. */
static bool boolean(lit *l, bool *out)
{
    blank(l);
    size_t left = (size_t)(l->end - l->p), n = left >= 4 && !memcmp(l->p, "True", 4) ? 4
                                              : left >= 5 && !memcmp(l->p, "False", 5) ? 5 : 0;
    if (!n || (n < left && (isalnum((unsigned char)l->p[n]) || l->p[n] == '_')))
        return fail(l->err, l->len, "fortran_order is not True or False in the .npy header");
    *out = n == 4;
    l->p += n;
    return true;
}

/* A Python int literal as a dimension: digits, no sign, no leading zero. */
static bool dimension(lit *l, size_t max, size_t *out)
{
    blank(l);
    const char *s = l->p;
    unsigned long long d = 0;
    while (l->p < l->end && isdigit((unsigned char)*l->p)) {
        d = d * 10 + (unsigned)(*l->p++ - '0');
        if (d > max)
            return fail(l->err, l->len, "a shape dimension too large (above %zu) in the .npy header", max);
    }
    if (l->p == s || (*s == '0' && l->p - s > 1))
        return fail(l->err, l->len, "bad shape: a dimension is not a whole number in the .npy header");
    *out = (size_t)d;
    return true;
}

/* (), (d,) or (d, d, ...) with an optional trailing comma; (d) is an int, not a tuple. */
static bool shape(lit *l, size_t max, npy_header *h)
{
    if (!at(l, '('))
        return fail(l->err, l->len, "no shape tuple in the .npy header");
    h->ndim = 0;
    h->count = 1;
    bool comma = true;
    while (!at(l, ')')) {
        if (!comma)
            return fail(l->err, l->len, "bad shape: a ',' or ')' expected in the .npy header");
        if (h->ndim == NPY_MAX_DIMS)
            return fail(l->err, l->len, "more than %d dimensions in the .npy header", NPY_MAX_DIMS);
        size_t d = 0;
        if (!dimension(l, max, &d))
            return false;
        if (d && h->count > max / d)
            return fail(l->err, l->len, "shape too large (more than %zu values) in the .npy header", max);
        h->count *= d;
        h->shape[h->ndim++] = d;
        comma = at(l, ',');
    }
    if (h->ndim == 1 && !comma)
        return fail(l->err, l->len, "shape (%zu) is an int, not a tuple, in the .npy header", h->shape[0]);
    return true;
}

bool npy_header_parse(const char *text, size_t hlen, size_t max_count, npy_header *out, char *err, size_t len)
{
    lit l = {text, text + hlen, err, len};
    static const char *const keys[] = {"descr", "fortran_order", "shape"};
    bool seen[3] = {false, false, false};
    memset(out, 0, sizeof *out);
    if (!at(&l, '{'))
        return fail(err, len, "the .npy header is not a dict");
    bool comma = true;
    while (!at(&l, '}')) {
        char key[32];
        if (!comma)
            return fail(err, len, "a ',' or '}' expected in the .npy header");
        if (!string(&l, key, sizeof key))
            return false;
        int k = 0;
        while (k < 3 && strcmp(key, keys[k]))
            k++;
        if (k == 3)
            return fail(err, len, "unknown key '%.31s' in the .npy header (descr, fortran_order, shape)", key);
        if (seen[k])
            return fail(err, len, "key '%s' twice in the .npy header", key);
        seen[k] = true;
        if (!at(&l, ':'))
            return fail(err, len, "a ':' expected after '%s' in the .npy header", key);
        if (!(k == 0 ? string(&l, out->descr, sizeof out->descr)
                     : k == 1 ? boolean(&l, &out->fortran_order) : shape(&l, max_count, out)))
            return false;
        comma = at(&l, ',');
    }
    blank(&l);
    if (l.p != l.end)
        return fail(err, len, "text after the dict in the .npy header");
    for (int k = 0; k < 3; k++)
        if (!seen[k])
            return fail(err, len, "the .npy header lacks '%s'", keys[k]);
    return true;
}

bool npy_read_values(const unsigned char *buf, size_t n, const char *path, double **out, size_t *count, char *err,
                     size_t len)
{
    if (n < 6 || memcmp(buf, "\x93NUMPY", 6))
        return fail(err, len, "%s: not a .npy file (no \\x93NUMPY preamble)", path);
    if (n < 10)
        return fail(err, len, "%s: truncated .npy preamble", path);
    int major = buf[6];
    size_t hlen, off;
    if (major == 1) {
        hlen = buf[8] | (size_t)buf[9] << 8;
        off = 10;
    } else if (major == 2 || major == 3) {
        if (n < 12)
            return fail(err, len, "%s: truncated .npy preamble", path);
        hlen = buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        off = 12;
    } else
        return fail(err, len, "%s: unsupported .npy version %d.%d", path, major, buf[7]);
    if (buf[7] != 0)
        return fail(err, len, "%s: unsupported .npy version %d.%d", path, major, buf[7]);
    if (hlen > MAX_HEADER || hlen > n - off)
        return fail(err, len, "%s: .npy header length %zu runs past the file (%zu bytes)", path, hlen, n);
    if (memchr(buf + off, '\0', hlen))
        return fail(err, len, "%s: NUL byte in the .npy header", path);
    npy_header h;
    char why[200];
    if (!npy_header_parse((const char *)buf + off, hlen, MAX_FILE_BYTES, &h, why, sizeof why))
        return fail(err, len, "%s: %s", path, why);
    size_t item = !strcmp(h.descr, "<f4") ? 4 : !strcmp(h.descr, "<f8") ? 8 : 0;
    if (!item)
        return fail(err, len, "%s: .npy dtype '%s' is not little-endian float32 or float64 ('<f4', '<f8')", path,
                    h.descr);
    size_t vals = h.count, data = n - off - hlen;
    if (vals == 0)
        return fail(err, len, "%s: the .npy array is empty", path);
    if (vals > data / item || data != vals * item)
        return fail(err, len, "%s: the .npy shape says %zu values of %zu bytes, the file holds %zu data bytes", path,
                    vals, item, data);
    double *v = malloc(vals * sizeof *v);
    if (!v)
        return fail(err, len, "%s: out of memory", path);
    const unsigned char *p = buf + off + hlen;
    for (size_t i = 0; i < vals; i++, p += item) {
        uint64_t u = 0;
        for (size_t b = 0; b < item; b++)
            u |= (uint64_t)p[b] << (8 * b);
        if (item == 4) {
            uint32_t w = (uint32_t)u;
            float f;
            memcpy(&f, &w, 4);
            v[i] = f;
        } else
            memcpy(&v[i], &u, 8);
    }
    *out = v;
    *count = vals;
    return true;
}

static bool raw_values(const unsigned char *buf, size_t n, const char *path, double **out, size_t *count, char *err,
                       size_t len)
{
    if (n == 0 || n % 4)
        return fail(err, len, "%s: %zu bytes is not a whole number of float32 values (raw file; .npy files start "
                    "with \\x93NUMPY)", path, n);
    double *v = malloc(n / 4 * sizeof *v);
    if (!v)
        return fail(err, len, "%s: out of memory", path);
    for (size_t i = 0; i < n / 4; i++) {
        uint32_t w = buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
                     (uint32_t)buf[4 * i + 3] << 24;
        float f;
        memcpy(&f, &w, 4);
        v[i] = f;
    }
    *out = v;
    *count = n / 4;
    return true;
}

bool app_dist_load(const char *path, app_dist *d, char *err, size_t len)
{
    size_t n;
    unsigned char *buf = slurp(path, &n, err, len);
    if (!buf)
        return false;
    double *v = NULL;
    size_t count = 0;
    bool npy = n >= 6 && !memcmp(buf, "\x93NUMPY", 6);
    bool ok = npy ? npy_read_values(buf, n, path, &v, &count, err, len) : raw_values(buf, n, path, &v, &count, err, len);
    free(buf);
    if (!ok)
        return false;
    for (size_t i = 0; i < count; i++)
        if (!isfinite(v[i])) {
            double x = v[i];
            free(v);
            return fail(err, len, "%s: value %zu is not finite (%g)", path, i, x);
        }
    memset(d, 0, sizeof *d);
    d->kind = APP_SAMPLES;
    d->samples = v;
    d->nsamples = count;
    snprintf(d->desc, sizeof d->desc, "values resampled from %s (%zu %s values)", path, count,
             npy ? ".npy" : "raw float32");
    return true;
}
