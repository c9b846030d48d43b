/* What every gemm file of cases/ uses (cases/gemm_internal.h): memory
 * that is there or a message and exit 2, the batch a thread gathers, one
 * output's row and column, and the names of an enumeration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

void *gemm_alloc(size_t count, size_t size)
{
    void *p = count && size ? calloc(count, size) : malloc(1);
    if (!p) {
        fprintf(stderr, "tcscope: out of memory (%zu x %zu bytes)\n", count, size);
        exit(2);
    }
    return p;
}

size_t gemm_batch(int k)
{
    size_t b = ((size_t)1 << 22) / (size_t)(k > 0 ? k : 1);
    return b ? b : 1;
}

/* B's columns are read a band of GATHER_ROWS rows at a time for every
 * output of the batch: the band stays in cache, where a column at a time
 * walks all of B (K x N, 64 MB at K 65536) once per output. */
#define GATHER_ROWS 64

void gemm_gather(const uint32_t *A, const uint32_t *B, int n, int k, size_t nout, const int *ii, const int *jj,
                 uint64_t *a, uint64_t *b)
{
    size_t K = (size_t)k;
    for (size_t t = 0; t < nout; t++)
        for (size_t kk = 0; kk < K; kk++)
            a[t * K + kk] = A[(size_t)ii[t] * K + kk];
    for (size_t k0 = 0; k0 < K; k0 += GATHER_ROWS) {
        size_t k1 = k0 + GATHER_ROWS < K ? k0 + GATHER_ROWS : K;
        for (size_t t = 0; t < nout; t++)
            for (size_t kk = k0; kk < k1; kk++)
                b[t * K + kk] = B[kk * (size_t)n + (size_t)jj[t]];
    }
}

/* An enumeration's name from its table ("?" out of range), and back (-1: none). */
const char *gemm_name_of(const char *const *table, size_t n, int v)
{
    return v >= 0 && (size_t)v < n ? table[v] : "?";
}

int gemm_name_index(const char *const *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, table[i]))
            return (int)i;
    return -1;
}
