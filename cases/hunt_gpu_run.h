/* The CUDA side of the GPU hunt (cases/cuda/hunt_gpu.cu), called by
 * cases/hunt_gpu.c only: draw, pack and compare kernels over one round of
 * tiles kept on the GPU. Plain C types, so both compilers read it. */
#ifndef TC_HUNT_GPU_RUN_H
#define TC_HUNT_GPU_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "cases/hunt_families.h"
#include "formats/formats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hgpu hgpu;

/* One instruction as the round kernels see it. */
typedef struct {
    int m, n, k;              /* the drawn tile (a sparse instruction's K halved: what it sums) */
    int kb;                   /* rows of B the executor takes: k, or the logical K of a sparse one */
    int group, keep;          /* sparse: drawn row q of B goes to row q/keep*group + q%keep (else 0, 0) */
    tc_format f[4];           /* A, B, C, D (copied to the GPU's constant memory) */
    uint64_t mask[3];         /* tc_operand_mask of A, B, C: the bits a pattern may have */
    const uint32_t *meta;     /* sparse: the metadata registers of every tile (the same), nmeta; else NULL */
    int nmeta;
    uint64_t seed;
} hgpu_shape;

/* A round's device buffers: the drawn tiles (uint64, tile f*nt + j is tile
 * q0 + j of family f), the model's answers (uint64), and the executor's
 * operands at native width (pd2: the second run of the poison check). */
typedef struct {
    uint64_t *A, *B, *C, *M;
    void *pa, *pb, *pc, *pd, *pd2;
    uint32_t *pe;
} hgpu_bufs;

/* Elements found by the compare kernel, listed in increasing order: at[x]
 * the element's index in the round, g[x * (2k + 3)..] its inputs gathered:
 * a (k terms), b (k terms), c, the hardware's d, the GPU model's answer. */
typedef struct {
    size_t n;
    size_t *at;
    uint64_t *g;
} hgpu_list;

typedef struct {
    unsigned long long poisoned;                       /* elements of D holding the first run's poison */
    unsigned long long mismatches[HUNT_NFAMILIES];     /* of the elements the GPU model computed */
    unsigned long long declined;                       /* elements the GPU model left to the CPU */
    hgpu_list mism, decl;     /* mism: HGPU_MISM_MAX at most (which ones, when more differ, is the
                                 kernel's order); decl: all (hgpu's memory, until the next call) */
} hgpu_result;

#define HGPU_MISM_MAX 256

int hgpu_open(int dev, hgpu **out, char *err, size_t errlen);
void hgpu_close(hgpu *h);
/* Buffers for rounds of at most nt tiles per family of shape s, its
 * formats and metadata on the GPU. 0 or -1 with err. */
int hgpu_prepare(hgpu *h, const hgpu_shape *s, size_t nt, hgpu_bufs *b, char *err, size_t errlen);
/* Tiles q0..q0+nt-1 of every family (HUNT_DRAW_TILE) drawn into b's uint64
 * buffers and packed to native width; a value with bits outside its mask:
 * -1 with "A[i] = 0x.. is not a f16 bit pattern" (i in the round's array). */
int hgpu_draw(hgpu *h, const hgpu_shape *s, size_t q0, size_t nt, char *err, size_t errlen);
/* b's pd (native width) against M over the round's nt tiles per family: the
 * counts and lists of *r (its lists' memory kept by h until the next call).
 * 0 or -1 with err. */
int hgpu_compare(hgpu *h, const hgpu_shape *s, size_t nt, hgpu_result *r, char *err, size_t errlen);
/* The poison check's second half: pd (run with poison 0xFF) and pd2 (0xA5)
 * element by element; -1 with err naming the first element never written or
 * differing between the runs; 0 when each is the same written answer. */
int hgpu_poison_check(hgpu *h, const hgpu_shape *s, size_t nt, const char *instr, char *err, size_t errlen);
/* Elements [f*nt*mn, f*nt*mn + want) of pd, unpacked, into out[f*want..]
 * for every family: the replay sample of round 0. 0 or -1. */
int hgpu_sample(hgpu *h, const hgpu_shape *s, size_t nt, size_t want, uint64_t *out, char *err, size_t errlen);
/* Test: tiles q0.. of family fam, drawn on the GPU, copied back (A, B, C
 * uint64, nt tiles each). 0 or -1. */
int hgpu_draw_copy(hgpu *h, const hgpu_shape *s, size_t q0, size_t nt, int fam, uint64_t *A, uint64_t *B,
                   uint64_t *C, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
