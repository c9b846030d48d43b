/* model_eval: one output element of a model profile per input line, for
 * cross-checks against other simulators (tools/mmasim_check.py).
 *
 *   model_eval [--profile PATH]        (default: model:h100's profile)
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

int main(int argc, char **argv)
{
    const char *path = "oracle/profiles/h100.profile";
    if (argc == 3 && !strcmp(argv[1], "--profile"))
        path = argv[2];
    else if (argc != 1) {
        fprintf(stderr, "usage: model_eval [--profile PATH] < lines 'INSTR A_HEX,.. B_HEX,.. C_HEX'\n");
        return 2;
    }
    model_profile prof;
    char err[512];
    if (profile_load(path, &prof, err, sizeof err)) {
        fprintf(stderr, "model_eval: %s\n", err);
        return 2;
    }
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    model **models = calloc(n, sizeof *models); /* compiled on first use, per catalogue entry */
    if (!models) {
        profile_free(&prof);
        fprintf(stderr, "model_eval: out of memory\n");
        return 2;
    }
    char line[8192];
    long ln = 0;
    int rc = 0;
    while (!rc && fgets(line, sizeof line, stdin)) {
        ln++;
        if (!strchr(line, '\n') && !feof(stdin)) {
            rc = fail(ln, "line too long", NULL);
            break;
        }
        char *save = NULL, *name = strtok_r(line, " \t\r\n", &save);
        if (!name || name[0] == '#')
            continue;
        char *as = strtok_r(NULL, " \t\r\n", &save), *bs = strtok_r(NULL, " \t\r\n", &save),
             *cs = strtok_r(NULL, " \t\r\n", &save);
        const tc_instr *ins = tc_instr_by_name(name);
        if (!ins)
            rc = fail(ln, "unknown instruction", name);
        else if (ins->sparse)
            rc = fail(ln, "sparse instructions are not supported", name);
        else if (ins->k > MAX_K)
            rc = fail(ln, "K too large", name);
        else if (!cs || strtok_r(NULL, " \t\r\n", &save))
            rc = fail(ln, "want INSTR A_HEX,.. B_HEX,.. C_HEX", NULL);
        if (rc)
            break;
        size_t idx = (size_t)(ins - cat);
        if (!models[idx]) {
            const model_params *p = profile_lookup(&prof, ins->name);
            oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
            if (!p || !(models[idx] = model_new(p, f, err, sizeof err))) {
                rc = fail(ln, p ? err : "the profile has no parameters for", p ? NULL : name);
                break;
            }
        }
        uint64_t a[MAX_K], b[MAX_K], c[1];
        if (parse_vec(as, ins->k, tc_operand_mask(ins->a), a) || parse_vec(bs, ins->k, tc_operand_mask(ins->b), b))
            rc = fail(ln, "A and B need K hex values each, within the operand's bits", NULL);
        else if (parse_vec(cs, 1, tc_operand_mask(ins->c), c))
            rc = fail(ln, "C needs one hex value within its bits", NULL);
        else
            printf("%llx\n", (unsigned long long)model_dot(models[idx], ins->k, a, b, c[0]));
    }
    for (size_t i = 0; i < n; i++)
        model_free(models[i]);
    free(models);
    profile_free(&prof);
    return rc;
}
