/* The GPU backend behind tc_backend_open("gpu[:N]") (probes/backend_gpu.c).
 * Without nvcc (TC_HAVE_CUDA=0) every function refuses with a message. */
#ifndef TC_GPU_BACKEND_H
#define TC_GPU_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probes/probes.h"

typedef struct tc_gpub tc_gpub;

int tc_gpub_open(int dev, tc_backend_info *info, tc_gpub **out, char *err, size_t errlen);
void tc_gpub_close(tc_gpub *g);
bool tc_gpub_supports(tc_gpub *g, const tc_instr *ins, char *why, size_t len);
int tc_gpub_mma(tc_gpub *g, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                const uint64_t *C, uint64_t *D, char *err, size_t errlen);
int tc_gpub_sass(tc_gpub *g, const tc_instr *ins, tc_instr_sass *out, char *err, size_t errlen);
double tc_gpub_last_kernel_s(const tc_gpub *g);
/* tc_backend_mma_dev's GPU side (probes/probes.h); tc_gpub_device: the CUDA
 * device number, -1 without CUDA. */
int tc_gpub_mma_dev(tc_gpub *g, const tc_instr *ins, size_t ntiles, const void *dA, const uint32_t *dE,
                    const void *dB, const void *dC, void *dD, unsigned char poison, char *err, size_t errlen);
int tc_gpub_device(const tc_gpub *g);
/* true once a CUDA call of this backend failed (launch, copy, sync): not the
 * inputs, the device; probes/backend.c then refuses every later batch. */
bool tc_gpub_device_failed(const tc_gpub *g);
int tc_gpub_chain(tc_gpub *g, const tc_instr *ins, size_t nchains, int len, const uint64_t *A0, const uint64_t *B,
                  const uint64_t *C, tc_rounding cvt, uint64_t *Xused, uint64_t *D, char *err, size_t errlen);

#endif
