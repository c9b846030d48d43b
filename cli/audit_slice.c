/* tcscope audit --part --slice: one child of --jobs auditing a slice of the
 * instructions (cli/audit.h audit_run_slice). A child per instruction paid
 * a GPU context each, and a GPU creates contexts one at a time: on an H200,
 * 32 processes opening it at once took 10 s where one took 0.7 s, so 256
 * children spent most of an audit waiting there. A slice opens the GPU
 * once and writes each instruction's part as that instruction's own child
 * would have, so the parts, their merge and --resume are unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/audit.h"
#include "cli/cli.h"

int audit_run_slice(const audit_args *a, tc_backend *be, bool fallback, const tc_instr *const *list, size_t n,
                    const tc_record *given_rec, int argc, char **argv)
{
    /* the per-instruction child's arguments: ours without --slice, with
     * --instr NAME and --out a->out/NAME (the run marker's command) */
    char **v = calloc((size_t)argc + 1, sizeof *v);
    char *out = malloc(4300);
    if (!v || !out) {
        free(v), free(out);
        return cli_fail("audit", "out of memory");
    }
    int vc = 0, at_instr = -1, at_out = -1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--slice"))
            continue;
        if (i > 0 && !strcmp(argv[i - 1], "--instr"))
            at_instr = vc;
        if (i > 0 && !strcmp(argv[i - 1], "--out"))
            at_out = vc;
        v[vc++] = argv[i];
    }
    if (at_instr < 0 || at_out < 0) {
        free(v), free(out);
        return cli_fail("audit", "--slice needs --instr LIST and --out DIR, each a separate argument (internal)");
    }
    int status = TC_EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        snprintf(out, 4300, "%s/%s", a->out, list[i]->name);
        audit_args one = *a;
        one.instr = list[i]->name;
        one.out = out;
        one.slice = false;
        v[at_instr] = (char *)list[i]->name;
        v[at_out] = out;
        int rc = audit_run_here(&one, be, fallback, list + i, 1, given_rec, vc, v);
        if (rc != TC_EXIT_OK && rc != TC_EXIT_DIFF) {   /* a device fault: what follows cannot be trusted */
            status = rc;
            break;
        }
        if (rc == TC_EXIT_DIFF)
            status = TC_EXIT_DIFF;
    }
    free(v), free(out);
    return status;
}
