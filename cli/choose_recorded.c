/* tcscope choose from recorded sweeps (cli/choose.h choose_recorded): the
 * formats ranked by recorded throughput among those whose recorded error
 * meets the constraints (reports/choose.h), as text or a record. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/sweep.h"
#include "cli/choose.h"
#include "cli/cli.h"
#include "cli/record_arg.h"
#include "reports/choose.h"
#include "reports/reports.h"

#define DEFAULT_SWEEP "reports/baselines/h100-sweep.json"
#define DEFAULT_SWEEP_WGMMA "reports/baselines/h100-sweep-wgmma.json"

/* Loads each file and appends its objects of `kind` to `into`. */
int choose_load_all(const char *const *paths, size_t n, const char *kind, json_t *into, tc_record *merged)
{
    for (size_t i = 0; i < n; i++) {
        tc_record r;
        if (cli_record_of("choose", NULL, paths[i], kind, &r)) /* a file given for nothing would be a silent no-op */
            return TC_EXIT_USAGE;
        json_t *objs = tc_record_objects_of(&r, kind);
        json_array_extend(into, objs);
        if (merged)
            json_array_extend(merged->objects, r.objects);
        json_decref(objs);
        tc_record_free(&r);
    }
    return TC_EXIT_OK;
}

static void print_text(const json_t *res, const tc_choose_opts *o)
{
    size_t i;
    json_t *c;
    int shown = 0;
    printf("constraints: %s relative error", o->stat);
    if (isnan(o->max_rel_err))
        printf(" (no bound: listed by error, most accurate first; ranking by speed needs --max-rel-err)");
    else
        printf(" <= %g", o->max_rel_err);
    printf(" at chain depth %d", o->depth);
    if (o->k)
        printf(", dot length >= %d", o->k);
    if (o->range_hi > 0)
        printf(", range %g:%g", o->range_lo, o->range_hi);
    if (o->need_inf_nan)
        printf(", Inf/NaN must survive");
    if (o->depth == 1)   /* the sweeps' step 1 is one product of inputs already in the format */
        printf("\n(at depth 1 the error is the arithmetic's alone: the inputs count as already in each format, "
               "so an FP8 product can show 0;\n the rounding between chained products counts from --chain 2, your "
               "data's own with --m/--n/--k)");
    printf("\n\n%-4s %-6s %-36s %10s %12s\n", "rank", "format", "instruction", "TFLOP/s", "error");
    json_array_foreach(res, i, c)
    {
        if (!json_is_integer(json_object_get(c, "rank")))
            continue;
        printf("%-4lld %-6s %-36s %10.1f %12.3g\n", (long long)json_integer_value(json_object_get(c, "rank")),
               cli_str(c, "format"), cli_str(c, "instr"),
               tc_json_number(json_object_get(c, "tflops")), tc_json_number(json_object_get(c, "error")));
        shown++;
    }
    if (!shown)
        printf("(no format with a throughput record meets the constraints)\n");
    bool head = false;
    json_array_foreach(res, i, c)
    {
        if (json_is_integer(json_object_get(c, "rank")) || json_object_get(c, "excluded"))
            continue;
        if (!head)
            printf("\nmeet the constraints, no throughput record (not ranked):\n");
        head = true;
        printf("  %-6s %-36s error %.3g\n", cli_str(c, "format"),
               cli_str(c, "instr"), tc_json_number(json_object_get(c, "error")));
    }
    head = false;
    json_array_foreach(res, i, c)
    {
        if (!json_object_get(c, "excluded"))
            continue;
        if (!head)
            printf("\nexcluded:\n");
        head = true;
        printf("  %-6s %-36s %s\n", cli_str(c, "format"),
               cli_str(c, "instr"), cli_str(c, "reason"));
    }
}

/* The answer in one line (the text's last). */
static void print_recommendation(const json_t *res, const tc_choose_opts *o)
{
    const json_t *first = NULL, *c;
    size_t i;
    json_array_foreach(res, i, c) if (json_integer_value(json_object_get(c, "rank")) == 1) first = c;
    if (first && isnan(o->max_rel_err))
        printf("\nRecommended: none yet, because no --max-rel-err was given and ranking by speed alone would favour "
               "the least accurate; the most accurate is %s %s (%s error %.3g at depth %d): give a bound (0.01 or 1%%) "
               "to rank by speed\n", cli_str(first, "format"), cli_str(first, "instr"), o->stat,
               tc_json_number(json_object_get(first, "error")), o->depth);
    else if (first)
        printf("\nRecommended: %s %s because it is the fastest meeting %s <= %g at depth %d (%.1f TFLOP/s peak, "
               "error %.3g)\n", cli_str(first, "format"), cli_str(first, "instr"), o->stat, o->max_rel_err, o->depth,
               tc_json_number(json_object_get(first, "tflops")), tc_json_number(json_object_get(first, "error")));
    else
        printf("\nRecommended: none, because no format with a throughput record meets the constraints (the "
               "reasons above)\n");
}

int choose_recorded(tc_choose_opts *o, const char *dist_arg, const char **sweeps, size_t ns, const char **benches,
                    size_t nb, bool json)
{
    sweep_dist d;
    if (dist_arg) {
        if (!sweep_dist_parse(dist_arg, &d))
            return cli_fail("choose", "bad --dist '%s' (normal, uniform, loguniform, ints)", dist_arg);
        o->dist = dist_arg;
    }
    /* The defaults: the H100 baselines in the data beside the binary (probes/datadir.c). */
    static char def_sweep[4096], def_wgmma[4096], def_bench[4096];
    if (ns == 0) {
        if (!tc_data_path(DEFAULT_SWEEP, def_sweep, sizeof def_sweep))
            return cli_fail("choose", "no sweep record: %s is not beside the binary (run tcscope sweep --out DIR, "
                            "or give --sweep FILE)", def_sweep);
        sweeps[ns++] = def_sweep;
        if (tc_data_path(DEFAULT_SWEEP_WGMMA, def_wgmma, sizeof def_wgmma))
            sweeps[ns++] = def_wgmma;
    }
    if (nb == 0 && tc_data_path(CHOOSE_DEFAULT_BENCH, def_bench, sizeof def_bench))
        benches[nb++] = def_bench;

    json_t *sw = json_array();
    tc_record bench = tc_record_new(json_object());
    int rc = choose_load_all(sweeps, ns, "sweep", sw, NULL);
    json_t *bench_objs = json_array();
    if (rc == TC_EXIT_OK)
        rc = choose_load_all(benches, nb, "bench", bench_objs, &bench);
    json_decref(bench_objs);
    if (rc == TC_EXIT_OK && json_array_size(sw) == 0)
        rc = cli_fail("choose", "the sweep records hold no sweep object");
    if (rc == TC_EXIT_OK) {
        json_t *res = tc_choose(sw, &bench, o);
        if (json) { /* a record (SCHEMA.md "Command output"): one recorded_choice per candidate */
            json_t *hdr = tc_record_header("choose", NULL, NULL, 0), *from = json_array();
            for (size_t i = 0; i < ns; i++)
                json_array_append_new(from, json_string(sweeps[i]));
            for (size_t i = 0; i < nb; i++)
                json_array_append_new(from, json_string(benches[i]));
            json_object_set_new(hdr, "from", from);
            tc_json_out out;
            tc_json_out_begin(&out, true, hdr);
            size_t i;
            json_t *c;
            json_array_foreach(res, i, c) tc_json_out_put(&out, "recorded_choice", json_incref(c));
            tc_json_out_end(&out, NULL);
        } else {
            print_text(res, o);
            printf("\nfrom: ");
            for (size_t i = 0; i < ns; i++)
                printf("%s%s", i ? ", " : "", sweeps[i]);
            for (size_t i = 0; i < nb; i++)
                printf(", %s", benches[i]);
            printf("%s\n", nb ? "" : " (no bench record: nothing can be ranked by speed)");
            if (o->k)
                printf("(recorded sweeps have their own dot lengths; for an evaluation at K = %d on your shape "
                       "and data give --m and --n)\n", o->k);
            print_recommendation(res, o);
        }
        json_decref(res);
    }
    json_decref(sw);
    tc_record_free(&bench);
    return rc;
}
