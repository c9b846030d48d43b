/* int_mma: the integer MMA (s8/u8 products into s32) in int64, exactly.
 *
 * Why: an integer audit's control checks N + 11 H elements (10^8 in the
 * big audit) against the exact sum; the general oracle decodes every term
 * into a float value and sums it in a fixed-point window, and the wrapped
 * candidate went through doubles again: about 0.8 us an element on one
 * core. Here the operands are 8-bit integers and C at most 32 bits: k <=
 * 2^20 products of at most 2^16 and |c| <= 2^31 stay below 2^37, so int64
 * holds the sum exactly, and one sum gives both answers an s32 accumulator
 * can have. The
 * saturated one is what oracle_mma_exact rounds to (tc_encode saturates an
 * integer format at its limits); tests/test_oracle.c holds the two equal. */
#include "oracle/oracle.h"

#include "oracle/exact_acc.h"

static int64_t int_of(const tc_format *f, uint64_t bits)
{
    int w = f->storage_bits;
    uint64_t v = bits & (w >= 64 ? ~0ull : (1ull << w) - 1);
    if (f->has_sign && w < 64 && (v >> (w - 1)) & 1)
        return (int64_t)(v | ~((1ull << w) - 1));
    return (int64_t)v;
}

typedef struct {
    oracle_formats f;
    int m, n, k;
    const uint64_t *A, *B, *C;
    uint64_t *sat, *wrap;
} int_job;

static void int_tiles(void *ctx, size_t lo, size_t hi)
{
    const int_job *j = ctx;
    int w = j->f.d->storage_bits;
    uint64_t mask = (1ull << w) - 1;
    int64_t most = j->f.d->has_sign ? ((int64_t)1 << (w - 1)) - 1 : (int64_t)mask;
    int64_t least = j->f.d->has_sign ? -((int64_t)1 << (w - 1)) : 0;
    for (size_t t = lo; t < hi; t++)
        for (int i = 0; i < j->m; i++) {
            const uint64_t *a = j->A + (t * (size_t)j->m + (size_t)i) * (size_t)j->k;
            for (int jj = 0; jj < j->n; jj++) {
                size_t o = (t * (size_t)j->m + (size_t)i) * (size_t)j->n + (size_t)jj;
                const uint64_t *b = j->B + t * (size_t)j->k * (size_t)j->n + (size_t)jj;
                int64_t s = j->C ? int_of(j->f.c, j->C[o]) : 0;
                for (int kk = 0; kk < j->k; kk++)
                    s += int_of(j->f.a, a[kk]) * int_of(j->f.b, b[(size_t)kk * (size_t)j->n]);
                j->sat[o] = (uint64_t)(s > most ? most : s < least ? least : s) & mask;
                j->wrap[o] = (uint64_t)s & mask;
            }
        }
}

static bool small_int(const tc_format *f)
{
    return f->specials == TC_SPECIALS_INT && f->storage_bits <= 32;
}

int oracle_mma_int(oracle_formats f, int m, int n, int k, size_t ntiles, const uint64_t *A, const uint64_t *B,
                   const uint64_t *C, uint64_t *sat, uint64_t *wrap)
{
    /* the bound above: 8-bit products, k up to 2^20 */
    if (!small_int(f.a) || !small_int(f.b) || !small_int(f.c) || !small_int(f.d) || f.a->storage_bits > 8 ||
        f.b->storage_bits > 8 || k < 1 || k > (1 << 20) || m < 1 || n < 1)
        return -1;
    int_job j = {f, m, n, k, A, B, C, sat, wrap};
    exact_parallel(ntiles, ntiles * (size_t)m * (size_t)n * (size_t)k, int_tiles, &j);
    return 0;
}
