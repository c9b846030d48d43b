/* A record named by an option (sweep --bench, audit --counterexamples,
 * regress --record, choose --bench/--sweep): it must exist and hold what
 * the option is for, else the option would silently add nothing. */
#include <stdio.h>
#include <string.h>

#include "cli/record_arg.h"

#include "cli/cli.h"

int cli_record_holds(const char *cmd, const char *opt, const char *path, const char *kind, const tc_record *rec)
{
    json_t *objs = tc_record_objects_of(rec, kind);
    size_t n = json_array_size(objs);
    json_decref(objs);
    if (n)
        return TC_EXIT_OK;
    const char *hk = tc_record_header_kind(rec->header);
    hk = hk ? hk : "?";
    return cli_fail(cmd, "%s%s%s holds no %s object (it is a%s %s record)", opt ? opt : "", opt ? " " : "", path,
                    kind, strchr("aeiou", hk[0]) ? "n" : "", hk);
}

int cli_record_of(const char *cmd, const char *opt, const char *path, const char *kind, tc_record *rec)
{
    char err[600];
    if (tc_record_load_any(path, rec, err, sizeof err))
        return opt ? cli_fail(cmd, "%s: %s", opt, err) : cli_fail(cmd, "%s", err);
    int rc = cli_record_holds(cmd, opt, path, kind, rec);
    if (rc != TC_EXIT_OK)
        tc_record_free(rec);
    return rc;
}
