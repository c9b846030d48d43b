/* The layout proof: unique tags through selection matrices (see layout.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/layout.h"
#include "probes/sparse.h"

/* Distinct values for d = 0..31, exact in every format here and coarse
 * enough to survive any accumulator (FP8 wgmma with f32 accumulation keeps
 * fewer bits of C than f32 has: seen on the H100): (1 + (d & 3)/4) * 2^(d >> 2),
 * three significant bits, or d + 1 for integers. tag(f, 0) is one. */
static uint64_t tag(const tc_format *f, int d)
{
    if (f->specials == TC_SPECIALS_INT)
        return (uint64_t)(d + 1);
    uint64_t e = (uint64_t)(f->bias + (d >> 2)), m = (uint64_t)(d & 3) << (f->mbits - 2);
    return (e << f->mbits | m) << f->shift;
}

/* The same value in D's format (exact: every tag fits every output format). */
static uint64_t in_d(const tc_instr *ins, const tc_format *from, uint64_t bits)
{
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    return tc_encode(ins->d, tc_decode(from, bits, false), false, r);
}

/* Which 5-bit digit of which coordinate a pass encodes. */
typedef struct {
    bool col;   /* false: row */
    int shift;  /* 0: low digit, 5: high digit */
} pass_kind;

static int digit(pass_kind p, int row, int col) { return ((p.col ? col : row) >> p.shift) & 31; }

static int check(const tc_instr *ins, tc_operand op, pass_kind p, size_t ntiles, const uint64_t *D,
                 const uint64_t *expect, char *msg, size_t len)
{
    size_t mn = (size_t)ins->m * (size_t)ins->n;
    for (size_t i = 0; i < ntiles * mn; i++)
        if (D[i] != expect[i]) {
            size_t t = i / mn, r = i % mn / (size_t)ins->n, c = i % (size_t)ins->n;
            snprintf(msg, len,
                     "%s: operand %s, %s digit %d: tile %zu D[%zu][%zu] = 0x%llx, expected 0x%llx", ins->name,
                     tc_operand_name(op), p.col ? "column" : "row", p.shift / 5, t, r, c,
                     (unsigned long long)D[i], (unsigned long long)expect[i]);
            return -1;
        }
    return 0;
}

/* One pass for one operand. A: tiles t select column (t*N + j) % K of A into
 * D column j. B: tiles t select row (t*M + i) % K of B into D row i. C: A and
 * B zero. */
/* Sparse A: whether logical column kk of row i is kept under rotation rot.
 * The pattern of (row, group) is (i + group + rot) mod the number of
 * patterns: the 6 pairs of four (2:4) or the 2 singles of two (1:2). */
static bool sparse_kept(const tc_instr *ins, int i, int kk, int rot)
{
    static const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    int G, S;
    tc_sparse_ratio(ins, &G, &S);
    int grp = kk / G, pos = kk % G;
    if (G == 2)
        return (i + grp + rot) % 2 == pos;
    const int *pr = pairs[(i + grp + rot) % 6];
    return pos == pr[0] || pos == pr[1];
}

static int one_pass(tc_backend *b, const tc_instr *ins, tc_operand op, pass_kind p, int rot, char *msg, size_t len)
{
    int M = ins->m, N = ins->n, K = ins->k;
    size_t ntiles = op == TC_OPND_A ? (size_t)((K + N - 1) / N) : op == TC_OPND_B ? (size_t)((K + M - 1) / M) : 1;
    size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
    uint64_t *A = calloc(ntiles * mk, 8), *B = calloc(ntiles * kn, 8), *C = calloc(ntiles * mn, 8),
             *D = calloc(ntiles * mn, 8), *E = calloc(ntiles * mn, 8);
    int rc = -1;
    if (!A || !B || !C || !D || !E) {
        snprintf(msg, len, "out of memory");
        goto out;
    }
    for (size_t t = 0; t < ntiles; t++) {
        uint64_t *At = A + t * mk, *Bt = B + t * kn, *Ct = C + t * mn, *Et = E + t * mn;
        if (op == TC_OPND_A) {
            for (int i = 0; i < M; i++)
                for (int kk = 0; kk < K; kk++)
                    At[i * K + kk] = !ins->sparse || sparse_kept(ins, i, kk, rot) ? tag(ins->a, digit(p, i, kk)) : 0;
            for (int j = 0; j < N; j++) {
                int kk = (int)((t * (size_t)N + (size_t)j) % (size_t)K);
                Bt[kk * N + j] = tag(ins->b, 0);
                for (int i = 0; i < M; i++)
                    Et[i * N + j] = in_d(ins, ins->a, At[i * K + kk]);
            }
        } else if (op == TC_OPND_B) {
            for (int kk = 0; kk < K; kk++)
                for (int j = 0; j < N; j++)
                    Bt[kk * N + j] = tag(ins->b, digit(p, kk, j));
            for (int i = 0; i < M; i++) {
                int kk = (int)((t * (size_t)M + (size_t)i) % (size_t)K);
                At[i * K + kk] = tag(ins->a, 0);
                for (int j = 0; j < N; j++)
                    Et[i * N + j] = in_d(ins, ins->b, tag(ins->b, digit(p, kk, j)));
            }
        } else {
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    Ct[i * N + j] = tag(ins->c, digit(p, i, j));
                    Et[i * N + j] = in_d(ins, ins->c, Ct[i * N + j]);
                }
        }
    }
    char err[384];
    if (tc_backend_mma(b, ins, ntiles, A, B, C, D, err, sizeof err)) {
        snprintf(msg, len, "%s", err);
        goto out;
    }
    rc = check(ins, op, p, ntiles, D, E, msg, len);
    if (rc && ins->sparse) {
        size_t used = strlen(msg);
        snprintf(msg + used, len > used ? len - used : 0, " (sparse pattern rotation %d)", rot);
    }
out:
    free(A);
    free(B);
    free(C);
    free(D);
    free(E);
    return rc;
}

int tc_layout_probe(tc_backend *b, const tc_instr *ins, char *msg, size_t len)
{
    /* The tags must stay exact in D: the product of a tag and one, the sum
     * with zero. Every catalogue pair of formats holds them. Sparse A is
     * proved under every kept pattern (rotations); B and C need one. */
    static const pass_kind passes[] = {{false, 0}, {false, 5}, {true, 0}, {true, 5}};
    int G = 1, S = 1;
    if (ins->sparse)
        tc_sparse_ratio(ins, &G, &S);
    int rots = !ins->sparse ? 1 : G == 2 ? 2 : 6;
    for (int op = TC_OPND_A; op <= TC_OPND_C; op++)
        for (int rot = 0; rot < (op == TC_OPND_A ? rots : 1); rot++)
            for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++)
                if (one_pass(b, ins, (tc_operand)op, passes[i], rot, msg, len))
                    return -1;
    return 0;
}
