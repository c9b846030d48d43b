/* model_eval: one output element of a model profile, or of any backend, per
 * input line, for cross-checks against other simulators
 * (tools/mmasim_check.py) and to ask the hardware the same questions
 * (tools/mmasim_settle.py, `--backend gpu`).
 *
 *   model_eval [--profile PATH]        (default: model:h100's profile)
 *   model_eval --backend SPEC          (gpu, model:NAME, exact: one tile per
 *                                       line, the input at D[0][0], every
 *                                       other element of A, B, C +0)
 *   stdin:  INSTR A_HEX,A_HEX,.. B_HEX,B_HEX,.. C_HEX     (K values each)
 *   stdout: D_HEX                                           (one per line)
 *
 * d = sum_k a[k]*b[k] + c: the K operand bit patterns of one row of A and
 * one column of B (in K order), and C's bits, as container bits (a TF32
 * operand is its 32-bit register, low 13 bits included). Dense instructions
 * only (a sparse one sums K/2 selected terms: not this tool's job yet).
 * Blank lines and lines starting with '#' are skipped. Bad input: a message
 * naming the line, exit 2.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model.h"
#include "oracle/profile.h"
#include "probes/probes.h"

#define MAX_K 64

static int fail(long line, const char *msg, const char *what)
{
    fprintf(stderr, "model_eval: line %ld: %s%s%s\n", line, msg, what ? ": " : "", what ? what : "");
    return 2;
}

/* Reads exactly n comma-separated hex values of at most mask's bits into v
 * (no empty fields, no signs). */
static int parse_vec(char *s, int n, uint64_t mask, uint64_t *v)
{
    for (int i = 0; i < n; i++) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(s, &end, 16);
        if (!isxdigit((unsigned char)*s) || end == s || errno || (x & ~mask) || *end != (i + 1 < n ? ',' : '\0'))
            return -1;
        v[i] = x;
        s = end + 1;
    }
    return 0;
}

/* One input line: 0 with the instruction and its operands, 1 for a line to
 * skip, 2 after a message (bad input). */
static int read_input(char *line, long ln, const tc_instr **insp, uint64_t *a, uint64_t *b, uint64_t *c)
{
    char *save = NULL, *name = strtok_r(line, " \t\r\n", &save);
    if (!name || name[0] == '#')
        return 1;
    char *as = strtok_r(NULL, " \t\r\n", &save), *bs = strtok_r(NULL, " \t\r\n", &save),
         *cs = strtok_r(NULL, " \t\r\n", &save);
    const tc_instr *ins = tc_instr_by_name(name);
    if (!ins)
        return fail(ln, "unknown instruction", name);
    if (ins->sparse)
        return fail(ln, "sparse instructions are not supported", name);
    if (ins->k > MAX_K)
        return fail(ln, "K too large", name);
    if (!cs || strtok_r(NULL, " \t\r\n", &save))
        return fail(ln, "want INSTR A_HEX,.. B_HEX,.. C_HEX", NULL);
    if (parse_vec(as, ins->k, tc_operand_mask(ins->a), a) || parse_vec(bs, ins->k, tc_operand_mask(ins->b), b))
        return fail(ln, "A and B need K hex values each, within the operand's bits", NULL);
    if (parse_vec(cs, 1, tc_operand_mask(ins->c), c))
        return fail(ln, "C needs one hex value within its bits", NULL);
    *insp = ins;
    return 0;
}

/* Reads one line into buf; 0 at the end, -1 (after a message) when too long. */
static int next_line(char *buf, size_t len, long *ln)
{
    if (!fgets(buf, (int)len, stdin))
        return 0;
    ++*ln;
    if (!strchr(buf, '\n') && !feof(stdin))
        return fail(*ln, "line too long", NULL), -1;
    return 1;
}

/* One answer: 0 with *d, or 2 after a message naming line ln. */
typedef int (*eval_fn)(void *ctx, long ln, const tc_instr *ins, const uint64_t *a, const uint64_t *b, uint64_t c,
                       uint64_t *d);

/* Every input line of stdin through eval, one D per line on stdout. */
static int each_input(eval_fn eval, void *ctx)
{
    char line[8192];
    long ln = 0;
    int rc = 0, got;
    while (!rc && (got = next_line(line, sizeof line, &ln)) != 0) {
        const tc_instr *ins;
        uint64_t a[MAX_K], b[MAX_K], c[1], d;
        if (got < 0)
            return 2;
        rc = read_input(line, ln, &ins, a, b, c);
        if (rc == 1) {
            rc = 0;
            continue;
        }
        if (!rc && !(rc = eval(ctx, ln, ins, a, b, c[0], &d)))
            printf("%llx\n", (unsigned long long)d);
    }
    return rc;
}

/* --backend: each input alone in a tile (row 0 of A, column 0 of B,
 * C[0][0]; everything else +0), D[0][0] read back. */
static int tile_eval(void *ctx, long ln, const tc_instr *ins, const uint64_t *a, const uint64_t *b, uint64_t c,
                     uint64_t *d)
{
    tc_backend *be = ctx;
    char err[512];
    if (!tc_backend_supports(be, ins, err, sizeof err))
        return fail(ln, "the backend cannot run it", err);
    size_t m = (size_t)ins->m, n = (size_t)ins->n, k = (size_t)ins->k;
    uint64_t *A = calloc(m * k, sizeof *A), *B = calloc(k * n, sizeof *B), *C = calloc(m * n, sizeof *C),
             *D = calloc(m * n, sizeof *D);
    int rc = 0;
    if (!A || !B || !C || !D)
        rc = fail(ln, "out of memory", NULL);
    else {
        for (size_t kk = 0; kk < k; kk++) {
            A[kk] = a[kk];     /* A[0][kk] */
            B[kk * n] = b[kk]; /* B[kk][0] */
        }
        C[0] = c;
        if (tc_backend_mma(be, ins, 1, A, B, C, D, err, sizeof err))
            rc = fail(ln, "the backend failed", err);
        *d = D ? D[0] : 0;
    }
    free(A), free(B), free(C), free(D);
    return rc;
}

typedef struct {
    model_profile prof;
    model **models; /* compiled on first use, per catalogue entry */
} profile_ctx;

static int dot_eval(void *ctx, long ln, const tc_instr *ins, const uint64_t *a, const uint64_t *b, uint64_t c,
                    uint64_t *d)
{
    profile_ctx *pc = ctx;
    size_t n;
    size_t idx = (size_t)(ins - tc_catalogue(&n));
    char err[512];
    if (!pc->models[idx]) {
        const model_params *p = profile_lookup(&pc->prof, ins->name);
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        if (!p || !(pc->models[idx] = model_new(p, f, err, sizeof err)))
            return fail(ln, p ? err : "the profile has no parameters for", p ? NULL : ins->name);
    }
    *d = model_dot(pc->models[idx], ins->k, a, b, c);
    return 0;
}

int main(int argc, char **argv)
{
    const char *path = "oracle/profiles/h100.profile", *spec = NULL;
    if (argc == 3 && !strcmp(argv[1], "--profile"))
        path = argv[2];
    else if (argc == 3 && !strcmp(argv[1], "--backend"))
        spec = argv[2];
    else if (argc != 1) {
        fprintf(stderr, "usage: model_eval [--profile PATH | --backend SPEC] < lines 'INSTR A_HEX,.. B_HEX,.. C_HEX'\n");
        return 2;
    }
    char err[512];
    if (spec) {
        tc_backend *be = tc_backend_open(spec, err, sizeof err);
        if (!be) {
            fprintf(stderr, "model_eval: %s\n", err);
            return 2;
        }
        int rc = each_input(tile_eval, be);
        tc_backend_close(be);
        return rc;
    }
    profile_ctx pc;
    if (profile_load(path, &pc.prof, err, sizeof err)) {
        fprintf(stderr, "model_eval: %s\n", err);
        return 2;
    }
    size_t n;
    tc_catalogue(&n);
    pc.models = calloc(n, sizeof *pc.models);
    int rc = pc.models ? each_input(dot_eval, &pc) : (fprintf(stderr, "model_eval: out of memory\n"), 2);
    for (size_t i = 0; pc.models && i < n; i++)
        model_free(pc.models[i]);
    free(pc.models);
    profile_free(&pc.prof);
    return rc;
}
