/* The user's sample values: a NumPy .npy file or raw little-endian float32.
 * The .npy header is a Python dict literal from a file we did not write:
 * every field is checked (magic, version, header length inside the file,
 * descr, fortran_order, shape, the data size exactly the shape's), and
 * nothing in it is trusted for a size before it is checked. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/app.h"

#define MAX_FILE_BYTES (1ull << 30)   /* 1 GiB: far more values than a distribution needs */
#define MAX_HEADER (1u << 20)

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

/* The value text after 'key': in the header dict, or NULL. */
static const char *dict_value(const char *h, const char *key)
{
    char q[64];
    snprintf(q, sizeof q, "'%s'", key);
    const char *p = strstr(h, q);
    if (!p)
        return NULL;
    p += strlen(q);
    while (*p == ' ')
        p++;
    if (*p != ':')
        return NULL;
    p++;
    while (*p == ' ')
        p++;
    return p;
}

/* shape "(d0, d1, ...)" -> product of the dimensions (overflow checked). */
static bool parse_shape(const char *p, size_t *count, char *err, size_t len)
{
    if (!p || *p != '(')
        return fail(err, len, "no shape tuple in the .npy header");
    p++;
    size_t prod = 1;   /* () is a scalar: one value */
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p == ')')
            break;
        if (!isdigit((unsigned char)*p))
            return fail(err, len, "bad shape in the .npy header");
        errno = 0;
        char *end;
        unsigned long long d = strtoull(p, &end, 10);
        if (errno || d > MAX_FILE_BYTES)
            return fail(err, len, "shape dimension too large in the .npy header");
        if (d && prod > MAX_FILE_BYTES / d)
            return fail(err, len, "shape too large in the .npy header");
        prod *= (size_t)d;
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',')
            p++;
        else if (*p != ')')
            return fail(err, len, "bad shape in the .npy header");
    }
    *count = prod;
    return true;
}

static bool npy_values(const unsigned char *buf, size_t n, const char *path, double **out, size_t *count, char *err,
                       size_t len)
{
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
    if (hlen > MAX_HEADER || hlen > n - off)
        return fail(err, len, "%s: .npy header length %zu runs past the file (%zu bytes)", path, hlen, n);
    char *h = malloc(hlen + 1);
    if (!h)
        return fail(err, len, "%s: out of memory", path);
    memcpy(h, buf + off, hlen);
    h[hlen] = 0;
    if (strlen(h) != hlen) {
        free(h);
        return fail(err, len, "%s: NUL byte in the .npy header", path);
    }
    bool ok = false;
    size_t item = 0, vals = 0;
    const char *descr = dict_value(h, "descr"), *fo = dict_value(h, "fortran_order");
    if (!descr || !fo)
        fail(err, len, "%s: .npy header lacks 'descr' or 'fortran_order'", path);
    else if (!strncmp(descr, "'<f4'", 5))
        item = 4;
    else if (!strncmp(descr, "'<f8'", 5))
        item = 8;
    else
        fail(err, len, "%s: .npy dtype %.12s is not little-endian float32 or float64 ('<f4', '<f8')", path, descr);
    /* The order does not matter for a bag of values, but it must be a bool. */
    if (item && strncmp(fo, "False", 5) && strncmp(fo, "True", 4))
        fail(err, len, "%s: bad fortran_order in the .npy header", path), item = 0;
    if (item && parse_shape(dict_value(h, "shape"), &vals, err, len)) {
        size_t data = n - off - hlen;
        if (vals == 0)
            fail(err, len, "%s: the .npy array is empty", path);
        else if (vals > data / item || data != vals * item)
            fail(err, len, "%s: the .npy shape says %zu values of %zu bytes, the file holds %zu data bytes", path,
                 vals, item, data);
        else
            ok = true;
    }
    free(h);
    if (!ok)
        return false;
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
    bool ok = npy ? npy_values(buf, n, path, &v, &count, err, len) : raw_values(buf, n, path, &v, &count, err, len);
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
