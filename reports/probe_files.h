/* The files of a probe folder (cases/probe.h): names, the manifest's
 * schema, the SHA-256 every exported file is recorded with
 * (reports/probe_export.c writes them, reports/probe_read.c reads them). */
#ifndef TC_REPORTS_PROBE_FILES_H
#define TC_REPORTS_PROBE_FILES_H

#include <stddef.h>

#include "cases/probe.h"

#define TC_PROBE_SCHEMA "tcscope-probe/1"
#define TC_PROBE_MANIFEST "manifest.json"

/* "step_A.npy", "runs_B.npy", "verify_D.npy": product p's file `which` (A, B, D). */
void tc_probe_file_name(tc_probe_product p, char which, char *buf, size_t len);

/* SHA-256 of n bytes as 64 lower-case hex digits. */
void tc_probe_sha256_hex(const unsigned char *data, size_t n, char hex[65]);

#endif
