/* tcscope choose: precision advice from recorded sweeps and benches (no GPU
 * needed); its options are the table below (tcscope choose --help).
 * Defaults: reports/baselines/h100-sweep.json (+ h100-sweep-wgmma.json when
 * present) and reports/baselines/h100-bench.json, beside the binary. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/sweep.h"
#include "cli/cli.h"
#include "reports/choose.h"

#define DEFAULT_SWEEP "reports/baselines/h100-sweep.json"
#define DEFAULT_SWEEP_WGMMA "reports/baselines/h100-sweep-wgmma.json"
#define DEFAULT_BENCH "reports/baselines/h100-bench.json"
#define MAX_FILES 16
#define MAX_K 1000000000  /* a dot length: compared, never allocated */

static bool parse_pos_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v > 0) || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_range(const char *s, double *lo, double *hi)
{
    const char *colon = strchr(s, ':');
    if (!colon)
        return false;
    char a[64];
    snprintf(a, sizeof a, "%.*s", (int)(colon - s), s);
    return parse_pos_double(a, lo) && parse_pos_double(colon + 1, hi) && *lo < *hi;
}

/* Loads each file and appends its objects of `kind` to `into`. */
static int load_all(const char *const *paths, size_t n, const char *kind, json_t *into, tc_record *merged)
{
    char err[512];
    for (size_t i = 0; i < n; i++) {
        tc_record r;
        if (tc_record_load_any(paths[i], &r, err, sizeof err))
            return cli_fail("choose", "%s", err);
        json_t *objs = tc_record_objects_of(&r, kind);
        if (json_array_size(objs) == 0) { /* a file given for nothing would be a silent no-op */
            json_decref(objs);
            tc_record_free(&r);
            return cli_fail("choose", "%s holds no %s object", paths[i], kind);
        }
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
        printf(" (any)");
    else
        printf(" <= %g", o->max_rel_err);
    printf(" at chain depth %d", o->depth);
    if (o->k)
        printf(", dot length >= %d", o->k);
    if (o->range_hi > 0)
        printf(", range %g:%g", o->range_lo, o->range_hi);
    if (o->need_inf_nan)
        printf(", Inf/NaN must survive");
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

typedef enum { O_MAX_REL_ERR, O_K, O_CHAIN, O_RANGE, O_NEED_INF_NAN, O_STAT, O_DIST, O_SWEEP, O_BENCH,
               O_JSON } choose_opt;
static const cli_option opts[] = {
    [O_MAX_REL_ERR] = {"--max-rel-err", "E", "the largest relative error allowed (a positive number)"},
    [O_K] = {"--k", "K", "the dot length each product needs (default: any)", 1, MAX_K},
    [O_CHAIN] = {"--chain", "D", "the chain depth whose error counts (default 1)", 1, SWEEP_MAX_CHAIN},
    [O_RANGE] = {"--range", "LO:HI", "the magnitudes the data spans (0 < LO < HI)"},
    [O_NEED_INF_NAN] = {"--need-inf-nan", NULL, "only formats with infinities and NaNs"},
    [O_STAT] = {"--stat", "median|p90|max", "the error statistic compared (default p90)"},
    [O_DIST] = {"--dist", "D", "only sweeps of this distribution: normal, uniform, loguniform, ints"},
    [O_SWEEP] = {"--sweep", "FILE", "a sweep record (repeatable, 16 at most; default the H100 baselines)"},
    [O_BENCH] = {"--bench", "FILE", "a bench record (repeatable, 16 at most; default the H100 baseline)"},
    [O_JSON] = {"--json", NULL, "one JSON object per ranked or excluded choice"},
};
const cli_command cmd_choose_cli = {"choose", "precision advice from recorded sweeps and benches (no GPU needed)",
                                    NULL, NULL, opts, CLI_NOPTS(opts), false};

int cmd_choose(int argc, char **argv)
{
    tc_choose_opts o = tc_choose_defaults();
    const char *sweeps[MAX_FILES], *benches[MAX_FILES];
    size_t ns = 0, nb = 0;
    bool json = false;
    sweep_dist d;
    cli_scan sc = cli_scan_start(&cmd_choose_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        switch ((choose_opt)sc.opt) {
        case O_MAX_REL_ERR:
            if (!parse_pos_double(v, &o.max_rel_err))
                return cli_fail("choose", "bad --max-rel-err '%s' (a positive number)", v);
            break;
        case O_K: o.k = (int)sc.count; break;
        case O_CHAIN: o.depth = (int)sc.count; break;
        case O_RANGE:
            if (!parse_range(v, &o.range_lo, &o.range_hi))
                return cli_fail("choose", "bad --range '%s' (LO:HI, 0 < LO < HI)", v);
            break;
        case O_NEED_INF_NAN: o.need_inf_nan = true; break;
        case O_STAT:
            if (strcmp(v, "median") && strcmp(v, "p90") && strcmp(v, "max"))
                return cli_fail("choose", "bad --stat '%s' (median, p90 or max)", v);
            o.stat = v;
            break;
        case O_DIST:
            if (!sweep_dist_parse(v, &d))
                return cli_fail("choose", "bad --dist '%s' (normal, uniform, loguniform, ints)", v);
            o.dist = v;
            break;
        case O_SWEEP:
            if (ns == MAX_FILES)
                return cli_fail("choose", "too many --sweep files");
            sweeps[ns++] = v;
            break;
        case O_BENCH:
            if (nb == MAX_FILES)
                return cli_fail("choose", "too many --bench files");
            benches[nb++] = v;
            break;
        case O_JSON: json = true; break;
        }
    }
    if (sc.status)
        return sc.status;
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
    if (nb == 0 && tc_data_path(DEFAULT_BENCH, def_bench, sizeof def_bench))
        benches[nb++] = def_bench;

    json_t *sw = json_array();
    tc_record bench = tc_record_new(json_object());
    int rc = load_all(sweeps, ns, "sweep", sw, NULL);
    json_t *bench_objs = json_array();
    if (rc == TC_EXIT_OK)
        rc = load_all(benches, nb, "bench", bench_objs, &bench);
    json_decref(bench_objs);
    if (rc == TC_EXIT_OK && json_array_size(sw) == 0)
        rc = cli_fail("choose", "the sweep records hold no sweep object");
    if (rc == TC_EXIT_OK) {
        json_t *res = tc_choose(sw, &bench, &o);
        if (json) {
            size_t i;
            json_t *c;
            json_array_foreach(res, i, c)
            {
                char *s = json_dumps(c, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
                puts(s);
                free(s);
            }
        } else {
            print_text(res, &o);
            printf("\nfrom: ");
            for (size_t i = 0; i < ns; i++)
                printf("%s%s", i ? ", " : "", sweeps[i]);
            for (size_t i = 0; i < nb; i++)
                printf(", %s", benches[i]);
            printf("%s\n", nb ? "" : " (no bench record: nothing can be ranked by speed)");
        }
        json_decref(res);
    }
    json_decref(sw);
    tc_record_free(&bench);
    return rc;
}
