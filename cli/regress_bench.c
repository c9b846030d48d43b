/* regress's timing pass (cli/regress.h regress_time), in this process and
 * alone on the GPU, before any check starts. Regress asks only whether each
 * instruction's latency or throughput moved, so each is timed at the points
 * the comparison uses: its latency, and its throughput at the best (ILP,
 * warps, staging) point of the baseline's table (probes/timing.h
 * tc_bench_instr_at: 8 launches where the table takes 80 to 128). A figure
 * beyond --timing-tol is measured again with the whole table, which
 * decides (reports/regress_timing.h): a quick measurement never raises a
 * difference alone. Every kernel's SASS is checked as by `tcscope bench`.
 * What was measured is OUT/bench.json (a bench record: point_only where only
 * the point was timed), compared with the baseline in cli/regress_compare.c. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/regress.h"
#include "cli/run_info.h"
#include "probes/timing.h"
#include "reports/record_bench.h"
#include "reports/regress_timing.h"
#include "reports/render.h"
#include "reports/reports.h"
#include "probes/clock.h"

typedef struct {
    tc_bench *b;
    const tc_instr *ins;
    const tc_bench_point *point;
    tc_bench_result *r;
    double quick_s, table_s;
} measure_ctx;

static int measure(void *vc, bool full, tc_timing_figures *got)
{
    measure_ctx *m = vc;
    double t0 = tc_now_s();
    if (full)
        tc_bench_instr(m->b, m->ins, m->r);
    else
        tc_bench_instr_at(m->b, m->ins, m->point, m->r);
    *(full ? &m->table_s : &m->quick_s) += tc_now_s() - t0;
    got->latency = m->r->nlat ? m->r->latency : -1;
    got->throughput = m->r->best_fma > 0 ? m->r->best_fma : -1;
    return m->r->status == TC_BENCH_TIMED ? 0 : -1;
}

/* The bench record of the audit's run beside it: NAME-audit.jsonl[.gz] ->
 * NAME-bench.json.gz (how reports/baselines names a GPU's records). */
static bool beside(const char *audit, char *path, size_t len)
{
    const char *at = strstr(audit, "-audit.jsonl");
    if (!at || (strcmp(at, "-audit.jsonl") && strcmp(at, "-audit.jsonl.gz")))
        return false;
    return snprintf(path, len, "%.*s-bench.json.gz", (int)(at - audit), audit) < (int)len;
}

/* The baseline's figures and points: NULL after a warning. */
static tc_timing_base *bases_of(const regress_ctx *c, const tc_record *base, long *n)
{
    char err[600], path[4200];
    tc_record bench = {NULL, NULL};
    const char *bp = c->a->bench_record ? c->a->bench_record : beside(c->a->record, path, sizeof path) ? path : NULL;
    if (bp && tc_record_load_any(bp, &bench, err, sizeof err) != 0) {
        if (c->a->bench_record)
            cli_warn(REGRESS_CMD, "--bench-record: %s: every instruction's whole table is timed", err);
        bench = (tc_record){NULL, NULL};
    }
    tc_timing_base *b;
    *n = tc_timing_bases(base, bench.header ? &bench : NULL, &b, err, sizeof err);
    if (bench.header)
        tc_record_free(&bench);
    if (*n < 0)
        cli_warn(REGRESS_CMD, "SASS and timing not compared: %s", err);
    return *n > 0 ? b : NULL;
}

/* "gpu:N" -> N; plain "gpu" (or gpu:jit) the first GPU. */
static int device_of(const char *backend)
{
    if (strncmp(backend, "gpu:", 4) || backend[4] < '0' || backend[4] > '9')
        return 0;
    return atoi(backend + 4);
}

void regress_time(regress_ctx *c, tc_outdir *d)
{
    char err[600];
    double t0 = tc_now_s();
    /* the GPU first: its timing kernels' SASS is read on a thread of its
     * own while the baseline's bench record loads (probes/timing.h) */
    tc_bench_opts o = {.device = device_of(c->backend), .no_whole_gpu = true};
    tc_bench *b = tc_bench_open(&o, err, sizeof err);
    if (!b) {
        cli_warn(REGRESS_CMD, "SASS and timing not compared: %s", err);
        return;
    }
    /* the record read on its thread beside this process's context (cli/regress_base.c) */
    const tc_record *base = regress_base_wait(c->record);
    if (!base) {
        cli_warn(REGRESS_CMD, "SASS and timing not compared: %s", c->record->err);
        tc_bench_close(b);
        return;
    }
    long nb = 0;
    tc_timing_base *bases = bases_of(c, base, &nb);
    if (!bases) {
        tc_bench_close(b);
        return;
    }
    double gpu_s, sass_s;
    tc_bench_open_seconds(b, &gpu_s, &sass_s);
    const char *from = tc_bench_sass_source(b);
    char sass_from[PATH_MAX + 8];   /* a copy: printed once the bench is closed */
    snprintf(sass_from, sizeof sass_from, "%s", *from ? from : "not read");
    double open_s = tc_now_s() - t0;
    tc_bench_machine m;
    tc_bench_machine_read(b, &m);
    tc_run_info run = cli_run_info(&m.run);
    tc_record fresh = tc_record_new(tc_bench_header(&m, &run));
    tc_bench_result *r = malloc(sizeof *r);
    if (!r)
        abort();
    measure_ctx mc = {.b = b, .r = r};
    size_t timed = 0, at_point = 0, tables = 0, confirmed = 0;
    double r0 = tc_now_s();
    regress_gate_ready(c);   /* the checks' children have their contexts: none is made while the GPU is timed */
    double ready_s = tc_now_s() - r0;
    tc_progress prog;
    tc_progress_start(&prog, "timing", c->n);
    for (size_t i = 0; i < c->n; i++) {
        const tc_timing_base *x = NULL;
        for (long k = 0; k < nb && !x; k++)
            if (!strcmp(bases[k].instr, c->it[i].ins->name))
                x = &bases[k];
        tc_progress_update(&prog, i + 1);
        if (!x)
            continue;   /* not timed in the baseline: nothing to compare */
        mc.ins = c->it[i].ins;
        mc.point = &x->point;
        tc_timing_figures used;
        bool full;
        int moved = tc_timing_decide(x, c->a->tol, measure, &mc, &used, &full);
        timed++;
        at_point += x->has_point;
        tables += full;
        confirmed += x->has_point && full && moved > 0;
        if (tc_record_add(&fresh, tc_bench_object(r), err, sizeof err) != 0)
            cli_warn(REGRESS_CMD, "%s: %s", r->instr, err);
    }
    tc_progress_end(&prog);
    free(r);
    tc_bench_close(b);
    if (tc_record_write(d, "bench.json", &fresh, NULL, err, sizeof err) != 0)
        cli_warn(REGRESS_CMD, "%s", err);
    regress_compare_timing(c, base, &fresh);
    if (!c->a->json)
        printf("# timing: %zu instructions in %.1f s (opened %.1f s: the GPU %.1f s, the baseline read on a thread "
               "from the start, the SASS %.1f s (%s) on a thread; the checks' children ready %.1f s later; %zu at the "
               "baseline's best point %.1f s, %zu whole tables %.1f s, %zu of them confirming a quick difference)\n",
               timed, tc_now_s() - t0, open_s, gpu_s, sass_s, sass_from, ready_s, at_point, mc.quick_s, tables,
               mc.table_s, confirmed);
    fflush(stdout);
    tc_record_free(&fresh);
    free(bases);
}
