/* cli/fleet_run.h: the fleet record's parts (per-GPU fields, the cross-GPU
 * comparison, the timing spread) and the lines that summarise it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/fleet_run.h"
#include "probes/probes.h"
#include "reports/fleet.h"
#include "reports/reports.h"

/* The cross-GPU comparison of what the workers printed (corpus lines). */
json_t *fleet_compare_bits(fleet *f, const bool *ran)
{
    tc_fleet_cmp *c = tc_fleet_cmp_new();
    if (!c)
        return json_null();
    for (size_t i = 0; i < f->n; i++) {
        char err[600];
        if (ran[i] && f->status[i] == TC_EXIT_OK && f->out[i] &&
            tc_fleet_cmp_add(c, f->g[i].index, f->out[i], err, sizeof err) != 0) {
            cli_warn(f->j->cmd, "GPU %d: its outputs are left out of the comparison: %s", f->g[i].index, err);
            f->status[i] = TC_EXIT_USAGE;
        }
    }
    json_t *r = tc_fleet_cmp_result(c);
    tc_fleet_cmp_free(c);
    return r;
}

/* The spread of latency and throughput across the GPUs' bench records. */
json_t *fleet_timing_spread(fleet *f, bool regress)
{
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    static const char *const keys[] = {"latency_cycles", "throughput_fma_clk_sm"};
    double *v[2] = {calloc(ncat * f->n + 1, sizeof(double)), calloc(ncat * f->n + 1, sizeof(double))};
    size_t *cnt = calloc(ncat + 1, sizeof *cnt);
    json_t *out = json_array();
    for (size_t i = 0; v[0] && v[1] && cnt && i < f->n; i++) {
        char path[4300], err[600];
        tc_record rec;
        snprintf(path, sizeof path, "%s/bench.json", f->path[i]);   /* bench's and regress's alike */
        if (f->status[i] != TC_EXIT_OK && f->status[i] != TC_EXIT_DIFF)
            continue;
        if (tc_record_load_any(path, &rec, err, sizeof err) != 0)
            continue; /* not timed (no GPU: the model has no timing) */
        size_t q;
        json_t *o;
        json_array_foreach(rec.objects, q, o) {
            const tc_instr *ins = tc_instr_by_name(cli_str(o, "instr"));
            size_t k = ins ? (size_t)(ins - cat) : 0;
            if (!ins || cnt[k] >= f->n)
                continue;
            for (int x = 0; x < 2; x++)
                v[x][k * f->n + cnt[k]] = tc_json_number(json_object_get(o, keys[x]));
            cnt[k]++;
        }
        tc_record_free(&rec);
    }
    for (size_t k = 0; cnt && k < ncat; k++)
        if (cnt[k])
            json_array_append_new(out, json_pack("{s:s, s:o, s:o}", "instr", cat[k].name, keys[0],
                                                 tc_fleet_spread(v[0] + k * f->n, cnt[k]), keys[1],
                                                 tc_fleet_spread(v[1] + k * f->n, cnt[k])));
    free(v[0]), free(v[1]), free(cnt);
    return out;
}

/* The per-GPU fields of the fleet record. */
json_t *fleet_gpu_fields(const fleet *f, size_t i, int st, const char *merged_phase)
{
    const cli_fleet_gpu *g = &f->g[i];
    json_t *o = json_pack("{s:i, s:s, s:o, s:o, s:o, s:b}", "gpu", g->index, "name", g->name, "uuid",
                          g->uuid[0] ? json_string(g->uuid) : json_null(), "cuda_visible_devices",
                          g->fake ? json_null() : json_string(g->visible), "exit",
                          st < 0 ? json_null() : json_integer(st), "ok", st == TC_EXIT_OK || st == TC_EXIT_DIFF);
    if (st != TC_EXIT_OK && st != TC_EXIT_DIFF) {
        char why[160];
        if (st < 0)
            snprintf(why, sizeof why, "not run: %s", f->instrs && !f->instrs[i] ? "no instruction left for it" : "stopped");
        else
            snprintf(why, sizeof why, "%s (%s) exited with %d", merged_phase, f->j->cmd, st);
        json_object_set_new(o, "failed", json_string(why));
    }
    json_object_set_new(o, "wall_s", st < 0 ? json_null() : json_real(f->secs[i]));
    json_object_set_new(o, "out", f->path[i][0] ? json_string(f->path[i]) : json_null());
    if (f->instrs)
        json_object_set_new(o, "instructions", json_string(f->instrs[i] ? f->instrs[i] : ""));
    return o;
}

/* regress: each GPU's verdicts, the objects of the record its worker
 * printed (regress --json), as they were before that output was a record:
 * without "kind". A worker stopped half way printed a record with no
 * trailer or a partial one: its whole objects are kept all the same (its
 * exit status says it failed). */
json_t *fleet_regress_results(const char *out)
{
    json_t *a = json_array();
    for (const char *l = out ? out : ""; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        json_t *o = len && l[0] == '{' ? json_loadb(l, len, 0, NULL) : NULL;
        const char *k = json_string_value(json_object_get(o, "kind"));
        if (k && !strcmp(k, "regress") && !json_object_get(o, "schema")) {
            json_object_del(o, "kind");
            json_array_append(a, o);
        }
        json_decref(o);
        l += len + (e != NULL);
    }
    return a;
}

bool fleet_failed(int st)
{
    return st >= 0 && st != TC_EXIT_OK && st != TC_EXIT_DIFF;
}

/* What the fleet record says, in lines (stdout; stderr for run, whose stdout is the record). */
void fleet_summary(FILE *o, const fleet *f, const int *st0, const int *st1, json_t *cross, json_t *spread)
{
    for (size_t i = 0; i < f->n; i++) {
        const cli_fleet_gpu *g = &f->g[i];
        int s = fleet_failed(st0[i]) || !st1 || st0[i] < 0 ? st0[i] : st1[i];
        if (st0[i] < 0)
            fprintf(o, "# GPU %d (%s): not run (no instruction left for it)\n", g->index, g->name);
        else if (fleet_failed(s))
            fprintf(o, "# GPU %d (%s): FAILED, its %s exited with %d; the other GPUs are merged\n", g->index,
                    g->name, fleet_failed(st0[i]) ? f->j->cmd : "cross-GPU run (--cross-run)", s);
        else
            fprintf(o, "# GPU %d (%s%s%s): exit %d, %.1f s\n", g->index, g->name, g->uuid[0] ? ", " : "", g->uuid,
                    st0[i], f->secs[i]);
    }
    size_t k;
    json_t *c;
    json_array_foreach(cross, k, c) {
        json_t *same = json_object_get(c, "same"), *d0 = json_array_get(json_object_get(c, "differences"), 0);
        if (json_is_true(same))
            fprintf(o, "%-44s same bits on %lld GPUs (%lld elements; D hash %s)\n", cli_str(c, "instr"),
                    (long long)json_integer_value(json_object_get(c, "compared")),
                    (long long)json_integer_value(json_object_get(c, "elements")),
                    cli_str(json_array_get(json_object_get(c, "gpus"), 0), "hash"));
        else if (json_is_null(same))
            fprintf(o, "%-44s ran on one GPU only: nothing to compare\n", cli_str(c, "instr"));
        else if (!json_is_true(json_object_get(c, "inputs_same")))
            fprintf(o, "%-44s DIFFERS: the GPUs did not get the same inputs\n", cli_str(c, "instr"));
        else {
            size_t q;
            json_t *g;
            fprintf(o, "%-44s DIFFERS:", cli_str(c, "instr"));
            json_array_foreach(json_object_get(c, "gpus"), q, g)
                fprintf(o, " GPU %lld: %lld differing;", (long long)json_integer_value(json_object_get(g, "gpu")),
                        (long long)json_integer_value(json_object_get(g, "differing")));
            fprintf(o, "; e.g. element %lld (tile %lld, row %lld, col %lld): GPU %lld %s, GPU %lld %s\n",
                    (long long)json_integer_value(json_object_get(d0, "element")),
                    (long long)json_integer_value(json_object_get(d0, "tile")),
                    (long long)json_integer_value(json_object_get(d0, "row")),
                    (long long)json_integer_value(json_object_get(d0, "col")),
                    (long long)json_integer_value(json_object_get(d0, "gpu")), cli_str(d0, "bits"),
                    (long long)json_integer_value(json_object_get(d0, "reference_gpu")), cli_str(d0, "reference"));
        }
    }
    json_array_foreach(spread, k, c) {
        json_t *l = json_object_get(c, "latency_cycles"), *t = json_object_get(c, "throughput_fma_clk_sm");
        fprintf(o, "%-44s latency %g/%g/%g cycles, throughput %g/%g/%g FMA/clk/SM (min/median/max of %lld GPUs)\n",
                cli_str(c, "instr"), tc_json_number(json_object_get(l, "min")),
                tc_json_number(json_object_get(l, "median")), tc_json_number(json_object_get(l, "max")),
                tc_json_number(json_object_get(t, "min")), tc_json_number(json_object_get(t, "median")),
                tc_json_number(json_object_get(t, "max")), (long long)json_integer_value(json_object_get(l, "gpus")));
    }
}

