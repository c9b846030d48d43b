/* A fit's counts on the GPU (probes/model_gpu_fit.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/model_internal.h"
#include "probes/model_gpu_fit.h"
#include "probes/model_gpu_run.h"
#include "probes/clock.h"

/* Declined elements listed at most, per launch (8 bytes each); a launch
 * that declines more has its candidates with declined elements counted
 * whole on the host. */
#define FIT_DECLINED_LIST ((size_t)1 << 16)
/* Candidates per launch: the kernel's grid holds 65535 rows. */
#define FIT_LAUNCH_MAX 4096

struct tc_model_gpu_fit {
    tc_mgpu_fit *s;
    int k;
    size_t n;
    uint64_t *a, *b, *c, *d;   /* the host's copy: what the declined are computed from */
    uint64_t *at;              /* FIT_DECLINED_LIST: the declined of a launch (made once, not each count) */
};

void tc_model_gpu_fit_close(tc_model_gpu_fit *s)
{
    if (!s)
        return;
#if TC_HAVE_CUDA
    tc_mgpu_fit_close(s->s);
#endif
    free(s->a), free(s->b), free(s->c), free(s->d), free(s->at);
    free(s);
}

#if TC_HAVE_CUDA

/* The cases [lo, hi) m gets wrong, on the host. */
static size_t host_count(const tc_model_gpu_fit *s, const model *m, size_t lo, size_t hi)
{
    size_t bad = 0;
    for (size_t i = lo; i < hi; i++)
        bad += model_dot(m, s->k, s->a + i * (size_t)s->k, s->b + i * (size_t)s->k, s->c[i]) != s->d[i];
    return bad;
}

int tc_model_gpu_fit_open(tc_model_gpu *g, int k, size_t n, const uint64_t *a, const uint64_t *b,
                          const uint64_t *c, const uint64_t *d, tc_model_gpu_fit **out, char *err, size_t errlen)
{
    *out = NULL;
    if (k > MODEL_ELEMENT_MAX_K || n == 0)
        return 1;
    tc_model_gpu_fit *s = calloc(1, sizeof *s);
    size_t ab = n * (size_t)k * sizeof *a;
    if (!s || !(s->a = malloc(ab)) || !(s->b = malloc(ab)) || !(s->c = malloc(n * 8)) || !(s->d = malloc(n * 8)) ||
        !(s->at = malloc(FIT_DECLINED_LIST * sizeof *s->at))) {
        tc_model_gpu_fit_close(s);
        snprintf(err, errlen, "GPU fit: out of memory");
        return -1;
    }
    s->k = k;
    s->n = n;
    memcpy(s->a, a, ab), memcpy(s->b, b, ab), memcpy(s->c, c, n * 8), memcpy(s->d, d, n * 8);
    if (tc_mgpu_fit_open(tc_model_gpu_device(g), k, n, a, b, c, d, &s->s, err, errlen)) {
        tc_model_gpu_fit_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* One launch of nv <= FIT_LAUNCH_MAX candidates (all wide or none). */
static int count_launch(tc_model_gpu_fit *s, const model *const *ms, size_t nv, bool wide, size_t *bad,
                        tc_model_gpu_count *count, char *err, size_t errlen)
{
    size_t k = (size_t)s->k;
    model *flat = malloc(nv * sizeof *flat);
    int *orders = calloc(nv * k, sizeof *orders);   /* unordered candidates leave theirs 0 */
    unsigned char *ordered = malloc(nv);
    unsigned *gbad = malloc(nv * sizeof *gbad), *ndec = malloc(nv * sizeof *ndec);
    uint64_t *at = s->at;
    int rc = -1;
    if (!flat || !orders || !ordered || !gbad || !ndec) {
        snprintf(err, errlen, "GPU fit: out of memory");
        goto out;
    }
    for (size_t v = 0; v < nv; v++) {
        flat[v] = *ms[v];   /* the kernel reads the values; the pointers in it are the host's, unused there */
        ordered[v] = model_step_order(&ms[v]->p, s->k, orders + v * k);
    }
    size_t nat = 0;
    tc_mgpu_times tm = {0, 0};
    if (tc_mgpu_fit_count(s->s, flat, orders, ordered, nv, wide, gbad, ndec, at, FIT_DECLINED_LIST, &nat, &tm, err,
                          errlen))
        goto out;
    count->copy_s += tm.copy_s;
    count->kernel_s += tm.kernel_s;
    double t0 = tc_now_s();
    size_t cpu = 0;
    for (size_t v = 0; v < nv; v++)
        bad[v] = gbad[v];
    if (nat <= FIT_DECLINED_LIST) {
        for (size_t x = 0; x < nat; x++) {
            size_t v = (size_t)(at[x] >> 32), i = (size_t)(at[x] & 0xFFFFFFFFu);
            bad[v] += host_count(s, ms[v], i, i + 1);
        }
        cpu = nat;
    } else {   /* the list ran out: those candidates counted whole here */
        for (size_t v = 0; v < nv; v++)
            if (ndec[v]) {
                bad[v] = host_count(s, ms[v], 0, s->n);
                cpu += s->n;
            }
    }
    count->cpu += cpu;
    count->gpu += nv * s->n - nat;
    count->cpu_s += tc_now_s() - t0;
    rc = 0;
out:
    free(flat), free(orders), free(ordered), free(gbad), free(ndec);
    return rc;
}

int tc_model_gpu_fit_count(tc_model_gpu_fit *s, const model *const *ms, size_t nv, size_t *bad,
                           tc_model_gpu_count *count, char *err, size_t errlen)
{
    for (size_t v0 = 0; v0 < nv;) {
        /* a run of candidates of one kind (wide or not), at most a launch's */
        bool wide = ms[v0]->wide;
        size_t v1 = v0 + 1;
        while (v1 < nv && v1 - v0 < FIT_LAUNCH_MAX && ms[v1]->wide == wide)
            v1++;
        if (count_launch(s, ms + v0, v1 - v0, wide, bad + v0, count, err, errlen))
            return -1;
        v0 = v1;
    }
    return 0;
}

#else

int tc_model_gpu_fit_open(tc_model_gpu *g, int k, size_t n, const uint64_t *a, const uint64_t *b,
                          const uint64_t *c, const uint64_t *d, tc_model_gpu_fit **out, char *err, size_t errlen)
{
    *out = NULL;
    snprintf(err, errlen, "GPU fit: this tcscope was built without nvcc (no CUDA)");
    return -1;
}

int tc_model_gpu_fit_count(tc_model_gpu_fit *s, const model *const *ms, size_t nv, size_t *bad,
                           tc_model_gpu_count *count, char *err, size_t errlen)
{
    snprintf(err, errlen, "GPU fit: this tcscope was built without nvcc (no CUDA)");
    return -1;
}

#endif
