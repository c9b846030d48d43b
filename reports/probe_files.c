/* The files of a probe folder (reports/probe_files.h): names, SHA-256
 * (nettle) of a buffer and of a file, and the check of a D file's .npy
 * header against what numpy.save writes for an M x N float32 array. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "cases/npy_write.h"
#include "reports/probe_files.h"

void tc_probe_file_name(tc_probe_product p, char which, char *buf, size_t len)
{
    snprintf(buf, len, "%s_%c.npy", tc_probe_product_name(p), which);
}

static void hex_of(struct sha256_ctx *c, char hex[65])
{
    uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(c, sizeof digest, digest);
    for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

void tc_probe_sha256_hex(const unsigned char *data, size_t n, char hex[65])
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, n, data);
    hex_of(&c, hex);
}

int tc_probe_sha256_file(const char *path, char hex[65], char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    struct sha256_ctx c;
    sha256_init(&c);
    unsigned char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&c, got, buf);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: read error", path);
        return -1;
    }
    hex_of(&c, hex);
    return 0;
}

/* What differs, for the message: the dict's fields as text. */
static void field(const char *dict, const char *key, char *out, size_t len)
{
    const char *p = strstr(dict, key);
    size_t n = 0;
    if (p) {
        p += strlen(key);
        n = strcspn(p, key[1] == 's' ? ")" : ",}");
        n += key[1] == 's' && p[n] == ')';
    }
    snprintf(out, len, "%.*s", (int)(n < 40 ? n : 40), p ? p : "?");
}

int tc_probe_check_d_header(const char *path, int m, int n, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s (compute D = A @ B for this product and save it with numpy.save)", path,
                 strerror(errno));
        return -1;
    }
    unsigned char pre[12];
    size_t got = fread(pre, 1, sizeof pre, f), off = pre[6] == 1 ? 10 : 12, hlen = 0;
    int rc = -1;
    if (got < 10 || memcmp(pre, "\x93NUMPY", 6) || pre[6] < 1 || pre[6] > 3 || (pre[6] > 1 && got < 12)) {
        snprintf(err, errlen, "%s: not a .npy file (version 1-3)", path);
        goto out;
    }
    hlen = pre[8] | (size_t)pre[9] << 8;
    if (pre[6] > 1)
        hlen |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
    char want[256], *dict = hlen <= 65536 ? malloc(hlen + 1) : NULL;
    size_t shape[2] = {(size_t)m, (size_t)n};
    if (!dict || fseek(f, (long)off, SEEK_SET) || fread(dict, 1, hlen, f) != hlen) {
        snprintf(err, errlen, "%s: truncated .npy header", path);
        free(dict);
        goto out;
    }
    dict[hlen] = 0;
    while (hlen > 0 && (dict[hlen - 1] == ' ' || dict[hlen - 1] == '\n'))
        dict[--hlen] = 0;
    tc_npy_dict(want, sizeof want, "<f4", shape, 2);
    if (strlen(dict) != hlen) {   /* strcmp would stop at the NUL and take the text before it */
        snprintf(err, errlen, "%s: a NUL byte inside the .npy header (at byte %zu of %zu): not as numpy.save writes it",
                 path, strlen(dict), hlen);
    } else if (strcmp(dict, want)) {
        char descr[48], order[48], shp[48];
        field(dict, "'descr': ", descr, sizeof descr);
        field(dict, "'fortran_order': ", order, sizeof order);
        field(dict, "'shape': ", shp, sizeof shp);
        snprintf(err, errlen, "%s: dtype %s, fortran_order %s, shape %s; the probe needs a C-order little-endian "
                 "float32 array ('<f4') of shape (%d, %d), as numpy.save writes it", path, descr, order, shp, m, n);
    } else {
        rc = 0;
    }
    free(dict);
out:
    fclose(f);
    return rc;
}
