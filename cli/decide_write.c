/* decide's records into --out: shared by export (cmd_decide.c) and ask
 * (decide_ask.c), apart from both so neither calls back into the other. */
#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/decide.h"
#include "reports/reports.h"

#define CMD DECIDE_CMD

int decide_write_record(const char *dir, bool force, const char *name, const tc_record *rec)
{
    char err[600];
    tc_outdir d = {.fd = -1};
    int rc = TC_EXIT_OK;
    if (tc_outdir_open(&d, dir, force, err, sizeof err) != 0 ||
        tc_record_write(&d, name, rec, NULL, err, sizeof err) != 0)
        rc = cli_fail(CMD, "cannot write %s/%s: %s", dir, name, err);
    tc_outdir_close(&d);
    return rc;
}
