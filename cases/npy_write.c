/* The .npy writer (cases/npy_write.h): NumPy's format 1.0 as numpy.save
 * writes it (NEP 1: magic, version, header length, a Python dict literal
 * padded to 64 bytes), for the probe's exported inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/npy_write.h"

size_t tc_npy_itemsize(const char *descr)
{
    static const struct {
        const char *descr;
        size_t size;
    } items[] = {{"<f2", 2}, {"<u2", 2}, {"<f4", 4}, {"<u4", 4}, {"|u1", 1}};
    for (size_t i = 0; i < sizeof items / sizeof items[0]; i++)
        if (!strcmp(descr, items[i].descr))
            return items[i].size;
    return 0;
}

int tc_npy_dict(char *buf, size_t len, const char *descr, const size_t *shape, int ndim)
{
    char dims[64];
    if (ndim == 1)
        snprintf(dims, sizeof dims, "(%zu,)", shape[0]);
    else if (ndim == 2)
        snprintf(dims, sizeof dims, "(%zu, %zu)", shape[0], shape[1]);
    else
        return -1;
    int n = snprintf(buf, len, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, dims);
    return n > 0 && (size_t)n < len ? 0 : -1;
}

unsigned char *tc_npy_encode(const char *descr, const size_t *shape, int ndim, const uint32_t *bits,
                             size_t *nbytes)
{
    size_t item = tc_npy_itemsize(descr), count = 1;
    char dict[256];
    if (!item || tc_npy_dict(dict, sizeof dict, descr, shape, ndim))
        return NULL;
    for (int d = 0; d < ndim; d++)
        count *= shape[d];
    size_t dlen = strlen(dict), hlen = (10 + dlen + 1 + 63) / 64 * 64 - 10;   /* dict, spaces, '\n' */
    unsigned char *buf = malloc(10 + hlen + count * item);
    if (!buf)
        return NULL;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hlen & 0xff), buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, dict, dlen);
    memset(buf + 10 + dlen, ' ', hlen - dlen - 1);
    buf[10 + hlen - 1] = '\n';
    unsigned char *p = buf + 10 + hlen;
    for (size_t e = 0; e < count; e++)
        for (size_t b = 0; b < item; b++)
            *p++ = (unsigned char)(bits[e] >> (8 * b));
    *nbytes = 10 + hlen + count * item;
    return buf;
}
