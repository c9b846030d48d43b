/* .npy files written (format version 1.0, C order, little-endian), and the
 * header dict a C-order array of a dtype and shape has: what numpy.save
 * writes, so that a reader can require exactly it (cases/npy_write.c; the
 * reader of sample values is cases/npy.c, app_dist_load). */
#ifndef TC_CASES_NPY_WRITE_H
#define TC_CASES_NPY_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes an element of descr takes ("<f2", "<u2", "<f4", "<u4", "|u1"); 0: not one of these. */
size_t tc_npy_itemsize(const char *descr);

/* "{'descr': '<f4', 'fortran_order': False, 'shape': (256, 256), }" (ndim
 * 1 or 2) into buf; -1 when it does not fit or ndim is out of range. */
int tc_npy_dict(char *buf, size_t len, const char *descr, const size_t *shape, int ndim);

/* The whole file in memory (malloc'd; *nbytes its size): preamble, the
 * dict padded with spaces and a newline to a multiple of 64 bytes, then
 * the elements (bits[e], the low itemsize bytes, little-endian). NULL for
 * a descr or shape tc_npy_dict refuses. */
unsigned char *tc_npy_encode(const char *descr, const size_t *shape, int ndim, const uint32_t *bits,
                             size_t *nbytes);

#endif
