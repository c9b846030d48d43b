/* The files of a probe folder (cases/probe.h): names, the manifest's
 * schema, the SHA-256 every exported file is recorded with
 * (reports/probe_files.c; reports/probe_export.c writes them, reports/probe_infer_dir.c reads them). */
#ifndef TC_REPORTS_PROBE_FILES_H
#define TC_REPORTS_PROBE_FILES_H

#include <stddef.h>

#include "cases/probe.h"

#define TC_PROBE_SCHEMA "tcscope-probe/1"
#define TC_PROBE_MANIFEST "manifest.json"

/* "step_A.npy", "runs_B.npy", "verify_D.npy": product p's file `which` (A, B, D). */
void tc_probe_file_name(tc_probe_product p, char which, char *buf, size_t len);

/* SHA-256 of n bytes, or of a file, as 64 lower-case hex digits. */
void tc_probe_sha256_hex(const unsigned char *data, size_t n, char hex[65]);
int tc_probe_sha256_file(const char *path, char hex[65], char *err, size_t errlen);

/* 0 when path's .npy header is exactly numpy.save's for a C-order
 * little-endian float32 m x n array; else -1 with err saying what it is
 * (dtype, byte order, Fortran order, shape). */
int tc_probe_check_d_header(const char *path, int m, int n, char *err, size_t errlen);

#endif
