/* The .npy format's header (numpy.lib.format): after the magic "\x93NUMPY",
 * the version and the header's length, a Python literal dict with exactly
 * the keys 'descr', 'fortran_order' and 'shape', padded with spaces and
 * ended by a newline. The reader of the user's sample values
 * (cases/npy.c, app_dist_load) parses it here, as the format defines it:
 * every key once, every value parsed whole (never found by substring). */
#ifndef TC_NPY_H
#define TC_NPY_H

#include <stdbool.h>
#include <stddef.h>

#define NPY_MAX_DIMS 32   /* numpy's own limit (NPY_MAXDIMS) */

typedef struct {
    char descr[16];       /* the dtype as written: "<f4", "<f8", ... */
    bool fortran_order;
    size_t ndim;
    size_t shape[NPY_MAX_DIMS];
    size_t count;         /* product of the shape (1 for ()); overflow refused */
} npy_header;

/* Parses the header dict text h of hlen bytes (no NUL needed). count is
 * checked against max_count (the caller's bound, before it sizes anything).
 * false with err saying what is wrong. */
bool npy_header_parse(const char *h, size_t hlen, size_t max_count, npy_header *out, char *err, size_t len);

/* A whole .npy file in memory: magic, version 1.0, 2.0 or 3.0, header,
 * then exactly count items of 4 or 8 bytes ('<f4' or '<f8') converted to
 * double in *out (malloc'd, *count of them). name is for messages. false
 * with err. */
bool npy_read_values(const unsigned char *buf, size_t n, const char *name, double **out, size_t *count, char *err,
                     size_t len);

#endif
