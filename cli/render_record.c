/* --render REC: the Markdown/HTML report (and plots) of a recorded run,
 * nothing run (sweep and audit share it; `make report` regenerates the
 * committed baselines' reports with it). The files are named after REC:
 * r.json -> r.md, r.html, r-median.svg ..; r.jsonl.gz -> r.md, .. (the
 * compression suffix first, then the record's own). The page shows the
 * record's own run facts (date, version), so rendering twice gives the
 * same bytes. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/render.h"

#define MAX_NAMES 8

/* NAME from the record's path: its base name less ".gz", then less its last extension. */
static void report_name(const char *path, char *name, size_t len)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    snprintf(name, len, "%s", base);
    size_t n = strlen(name);
    if (n > 3 && !strcmp(name + n - 3, ".gz"))
        name[n - 3] = '\0';
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
}

int cli_render_record(const char *cmd, const char *path, const char *out, bool force)
{
    if (!out)
        return cli_fail(cmd, "--render needs --out DIR");
    tc_record rec;
    char err[512];
    if (tc_record_load(path, &rec, err, sizeof err))
        return cli_fail(cmd, "%s", err);
    char name[256];
    report_name(path, name, sizeof name);
    char names[MAX_NAMES][TC_OUT_NAME_MAX + 1];
    const char *list[MAX_NAMES];
    size_t n = tc_report_names(name, names, MAX_NAMES);
    for (size_t i = 0; i < n; i++)
        list[i] = names[i];
    tc_outdir d;
    int rc = TC_EXIT_OK;
    if (tc_outdir_open(&d, out, force, err, sizeof err) || tc_out_check_free(&d, list, n, err, sizeof err) ||
        tc_report_write(&rec, &d, name, err, sizeof err))
        rc = cli_fail(cmd, "report: %s", err);
    tc_outdir_close(&d);
    if (rc == TC_EXIT_OK)
        printf("wrote %s/%s.md, %s/%s.html\n", out, name, out, name);
    tc_record_free(&rec);
    return rc;
}
