/* The CUDA side of the GPU hunt (cases/cuda/hunt_gpu.cu), called by
 * cases/hunt_gpu.c only: the draw and pack of a window of instructions at
 * once, and the compare of one instruction's round, on tiles kept on the
 * GPU. Plain C types, so both compilers read it. */
#ifndef TC_HUNT_GPU_RUN_H
#define TC_HUNT_GPU_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "cases/hunt_families.h"
#include "formats/formats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One instruction as the kernels see it. */
typedef struct {
    int m, n, k;              /* the drawn tile (a sparse instruction's K halved: what it sums) */
    int kb;                   /* rows of B the executor takes: k, or the logical K of a sparse one */
    int group, keep;          /* sparse: drawn row q of B goes to row q/keep*group + q%keep (else 0, 0) */
    tc_format f[4];           /* A, B, C, D */
    uint64_t mask[3];         /* tc_operand_mask of A, B, C: the bits a pattern may have */
    const uint32_t *meta;     /* sparse: the metadata registers of every tile (the same), nmeta; else NULL */
    int nmeta;
    uint64_t seed;
    int random;               /* 1: the proof's random tiles (cases/random_draw.h), one block of nt tiles a
                                 round, tile j being tile q0 + j of the stream (q0 a multiple of 4); 0: nt
                                 tiles of every hunt family */
    uint64_t czero;           /* random: C's zero */
    const uint64_t *rst;      /* random: the round's nt tiles' start states (host memory, read by the launch) */
} hgpu_shape;

/* The blocks of nt tiles a round holds: one per hunt family, or one of random tiles. */
static inline int hgpu_blocks(const hgpu_shape *s)
{
    return s->random ? 1 : HUNT_NFAMILIES;
}

/* One instruction's round on the GPU: the drawn tiles (uint64, tile f*nt + j
 * is tile q0 + j of family f; random: tile j is tile q0 + j), the model's answers (uint64), and the
 * executor's operands at native width (pd2: the poison check's second run). */
typedef struct {
    uint64_t *A, *B, *C, *M;
    void *pa, *pb, *pc, *pd, *pd2;
    uint32_t *pe;
} hgpu_bufs;

/* Elements found by the compare kernel, in the kernel's order (no order:
 * whoever keeps failures sorts them by at): at[x] the element's index in
 * the round, g[x * (2k + 3)..] its inputs gathered: a (k terms), b (k
 * terms), c, the hardware's d, the GPU model's answer. */
typedef struct {
    size_t n;
    size_t *at;
    uint64_t *g;
} hgpu_list;

typedef struct {
    unsigned long long poisoned;                       /* elements of D holding the first run's poison */
    unsigned long long mismatches[HUNT_NFAMILIES];     /* of the elements the GPU model computed, per family
                                                          (random: per distribution, tile j's (q0 + j) % 4) */
    unsigned long long declined;                       /* elements the GPU model left to the CPU */
    hgpu_list mism, decl;     /* mism: HGPU_MISM_MAX at most (which ones, when more differ, is the
                                 kernel's order); decl: all. Their memory is the caller's to free
                                 (free(at), free(g)), set even when hgpu_compare fails */
} hgpu_result;

#define HGPU_MISM_MAX 256

/* The compare's scratch (counts, lists) on GPU dev. */
typedef struct hgpu hgpu;
int hgpu_open(int dev, hgpu **out, char *err, size_t errlen);
void hgpu_close(hgpu *h);

/* A window: the rounds of njobs instructions (job j: tiles q0[j].. of every
 * family, nt[j] each), drawn and packed by kernels launched on a stream of
 * its own, so that the draw of one window runs while the instructions of
 * another are run, modelled and compared on the default stream. */
typedef struct hgpu_win hgpu_win;
int hgpu_win_open(int dev, hgpu_win **out, char *err, size_t errlen);
void hgpu_win_close(hgpu_win *w);
/* Buffers for the jobs (grown, kept), every job's draw and pack launched;
 * returns before they finish. 0 or -1 with err. */
int hgpu_win_launch(hgpu_win *w, const hgpu_shape *s, const size_t *q0, const size_t *nt, size_t njobs, char *err,
                    size_t errlen);
/* Waits for the window's draw; -1 with err ("A[i] = 0x.. is not a f16 bit
 * pattern", *bad_job its job) when a drawn value has bits outside its mask. */
int hgpu_win_wait(hgpu_win *w, size_t *bad_job, char *err, size_t errlen);
/* Job j's buffers in the window. */
void hgpu_win_bufs(const hgpu_win *w, size_t j, hgpu_bufs *b);
/* Device bytes a job of shape s and nt tiles per family takes in a window. */
size_t hgpu_job_bytes(const hgpu_shape *s, size_t nt);

/* b's pd (native width) against b's M over the round's nt tiles per family:
 * the counts and lists of *r (its lists in new memory: the caller frees
 * them, after a failure too). 0 or -1 with err. */
int hgpu_compare(hgpu *h, const hgpu_shape *s, const hgpu_bufs *b, size_t nt, hgpu_result *r, char *err,
                 size_t errlen);
/* The poison check's second half: pd (run with poison 0xFF) and pd2 (0xA5)
 * element by element; -1 with err naming the first element never written or
 * differing between the runs; 0 when each is the same written answer. */
int hgpu_poison_check(hgpu *h, const hgpu_shape *s, const hgpu_bufs *b, size_t nt, const char *instr, char *err,
                      size_t errlen);
/* Elements [f*nt*mn, f*nt*mn + want) of pd, unpacked, into out[f*want..]
 * for every family: the replay sample of a first round. 0 or -1. */
int hgpu_sample(const hgpu_shape *s, const hgpu_bufs *b, size_t nt, size_t want, uint64_t *out, char *err,
                size_t errlen);
/* Test: job j's drawn tiles (nt per family, family by family) copied back
 * after hgpu_win_wait: A, B, C uint64. 0 or -1. */
int hgpu_win_copy(const hgpu_win *w, size_t j, const hgpu_shape *s, size_t nt, uint64_t *A, uint64_t *B,
                  uint64_t *C, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
