/* A fit's counts on the GPU: how many of a fit's crafted cases each
 * candidate model gets wrong (cases/infer_count.c asks this of every step's
 * candidates), the cases put on the GPU once and every candidate of a step
 * counted in one launch (probes/cuda/model_gpu_fit.cu), with the arithmetic
 * of the GPU model (probes/model_gpu.h): each element model_dot's, an
 * element the kernel declines computed by model_dot on the host. The counts
 * are exact, as the cores' are. Built without nvcc, open refuses with a
 * message. */
#ifndef TC_MODEL_GPU_FIT_H
#define TC_MODEL_GPU_FIT_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/model.h"
#include "probes/model_gpu.h"

typedef struct tc_model_gpu_fit tc_model_gpu_fit;

/* n cases of K k on g's GPU: a and b n x k row-major (case i's terms at
 * i * k), c, and the target's answers d (copied: the caller's may go).
 * 0 with *out; 1 when the GPU does not take them (K over
 * MODEL_ELEMENT_MAX_K: the cores count); -1 with err. */
int tc_model_gpu_fit_open(tc_model_gpu *g, int k, size_t n, const uint64_t *a, const uint64_t *b,
                          const uint64_t *c, const uint64_t *d, tc_model_gpu_fit **out, char *err, size_t errlen);
/* bad[i]: how many of the cases ms[i] gets wrong, for nv models of the
 * cases' formats; the evaluations each side computed added to *count
 * (gpu, cpu: the declined ones, and the seconds). 0, or -1 with err. */
int tc_model_gpu_fit_count(tc_model_gpu_fit *s, const model *const *ms, size_t nv, size_t *bad,
                           tc_model_gpu_count *count, char *err, size_t errlen);
void tc_model_gpu_fit_close(tc_model_gpu_fit *s);

#endif
