/* Internals shared by cases/gemm_probe_*.c; not a public API. */
#ifndef TC_GEMM_PROBE_INTERNAL_H
#define TC_GEMM_PROBE_INTERNAL_H

#include "cases/probe.h"

/* The step product into r->chunk, r->chain (gemm_probe_masks.c). */
void probe_read_step(const tc_probe_design *d, const uint32_t *D, tc_probe_result *r);
/* The runs product into r's blocks and classes (their run starts). */
void probe_read_runs(const tc_probe_design *d, const uint32_t *D, tc_probe_result *r);

/* Each class's structure fitted to the verify outputs and every verify
 * output predicted (gemm_probe_fit.c), tick (NULL: none) told after each
 * class: done of nclass + 1. -1 with err when a model is missing. */
int probe_fit(const tc_probe_design *d, const char *profile_path, const uint32_t *D, const uint32_t *A,
              const uint32_t *B, const tc_probe_tick *tick, tc_probe_result *r, char *err, size_t errlen);

#endif
