/* tcscope compare OLD.json NEW.json [--json] [--threshold X]
 * Exit 0: same behaviour; 1: differences (each named); 2: unusable input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/compare.h"
#include "reports/reports.h"
#include "reports/text.h"

/* Messages quote record text (keys, values): escaped for the terminal. */
static void print_safe(const char *prefix, const char *msg)
{
    char safe[2048];
    tc_text_escape(msg ? msg : "?", safe, sizeof safe, false);
    printf("%s%s\n", prefix, safe);
}

/* A change of what the instruction computes (its fingerprint): listed
 * before the counters and timings. */
static bool is_fingerprint(const json_t *d)
{
    return !strncmp(json_string_value(json_object_get(d, "field")), "fingerprint.", 12);
}

typedef enum { O_THRESHOLD, O_SUBSET, O_JSON } compare_opt;
static const cli_option cmp_opts[] = {
    [O_THRESHOLD] = {"--threshold", "X", "relative change of a timing that counts, when the records hold no "
                                         "repeated runs: 0.05 or 5% (0..10, default 0.05)"},
    [O_SUBSET] = {"--subset", NULL, "NEW covers part of OLD on purpose: compare the objects NEW has"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one object per context line and difference, then a compare_summary"},
};
const cli_command cmd_compare_cli = {"compare", "two records: exit 1 if any behaviour or timing changed",
                                     "OLD.json NEW.json", NULL, cmp_opts, CLI_NOPTS(cmp_opts), false};

int cmd_compare(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    int nfiles = 0;
    bool json = false;
    tc_compare_opts opts = tc_compare_defaults();
    cli_scan sc = cli_scan_start(&cmd_compare_cli, argc, argv);
    while (cli_next(&sc)) {
        if (sc.opt == CLI_OPERAND) {
            if (nfiles == 2)
                return cli_fail("compare", "too many files ('%s'): give OLD.json NEW.json", sc.val);
            files[nfiles++] = sc.val;
            continue;
        }
        switch ((compare_opt)sc.opt) {
        case O_THRESHOLD:
            if (!cli_fraction(sc.val, 0, 10, &opts.default_threshold))   /* "0.05" or "5%", at most 10 */
                return cli_fail("compare", "bad threshold '%s' (a fraction like 0.05 or a percentage like 5%%)", sc.val);
            break;
        case O_SUBSET: opts.new_is_subset = true; break;
        case O_JSON: json = true; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (nfiles != 2)
        return cli_fail("compare", "needs two record files: OLD.json NEW.json");

    tc_record rec[2];
    char err[512];
    for (int f = 0; f < 2; f++)
        if (tc_record_load_any(files[f], &rec[f], err, sizeof err) != 0) {
            if (f == 1)
                tc_record_free(&rec[0]);
            return cli_fail("compare", "%s", err);
        }
    if (!tc_compare_check(&rec[0], files[0], err, sizeof err) || !tc_compare_check(&rec[1], files[1], err, sizeof err) ||
        !tc_compare_check_kinds(&rec[0], &rec[1], err, sizeof err)) {
        tc_record_free(&rec[0]);
        tc_record_free(&rec[1]);
        return cli_fail("compare", "%s", err);
    }

    tc_json_out out; /* --json: a record (SCHEMA.md "Command output"), the two files named in its header */
    json_t *hdr = tc_record_header("compare", NULL, NULL, 0);
    json_object_set_new(hdr, "old", json_string(files[0]));
    json_object_set_new(hdr, "new", json_string(files[1]));
    tc_json_out_begin(&out, json, hdr);
    json_t *diffs = json_array(), *context = json_array();
    size_t n = tc_compare_records(&rec[0], &rec[1], &opts, diffs, context);
    size_t i;
    json_t *d;
    json_array_foreach(context, i, d)
    {
        if (json)
            tc_json_out_put(&out, "compare_context", json_pack("{s:O}", "context", d));
        else if (json_object_get(d, "message")) {
            print_safe("note: ", json_string_value(json_object_get(d, "message")));
        } else {
            char *x = json_dumps(json_object_get(d, "old"), JSON_ENCODE_ANY);
            char *y = json_dumps(json_object_get(d, "new"), JSON_ENCODE_ANY);
            printf("context: %s %s -> %s\n", json_string_value(json_object_get(d, "field")), x, y);
            free(x);
            free(y);
        }
    }
    /* what the instruction does first, then the counters and timings that follow from it */
    for (int pass = 0; pass < 2; pass++)
        json_array_foreach(diffs, i, d)
        {
            if (is_fingerprint(d) != (pass == 0))
                continue;
            if (json)
                tc_json_out_put(&out, "difference", json_pack("{s:O}", "difference", d));
            else
                print_safe("changed: ", json_string_value(json_object_get(d, "message")));
        }
    size_t nold = json_array_size(rec[0].objects), nnew = json_array_size(rec[1].objects);
    if (json) {
        tc_json_out_put(&out, "compare_summary",
                        json_pack("{s:s, s:I, s:I, s:I}", "compare", n ? "changed" : "same", "differences",
                                  (json_int_t)n, "objects_old", (json_int_t)nold, "objects_new", (json_int_t)nnew));
        tc_json_out_end(&out, NULL);
    } else if (n)
        printf("%zu difference%s (%zu objects in OLD, %zu in NEW)\n", n, n == 1 ? "" : "s", nold, nnew);
    else
        printf("same: %zu objects compared, no difference\n", opts.new_is_subset ? nnew : nold);
    size_t only_old = 0, only_new = 0;
    json_array_foreach(diffs, i, d) if (!strcmp(json_string_value(json_object_get(d, "field")), "(object)"))
    {
        if (!strcmp(json_string_value(json_object_get(d, "new")), "absent"))
            only_old++;
        else
            only_new++;
    }
    if (only_old && !only_new)
        fprintf(stderr, "compare: every object of NEW is in OLD, %zu of OLD's are not in NEW: if NEW covers part "
                        "of OLD on purpose, compare with --subset\n", only_old);
    json_decref(diffs);
    json_decref(context);
    tc_record_free(&rec[0]);
    tc_record_free(&rec[1]);
    return n ? TC_EXIT_DIFF : TC_EXIT_OK;
}
