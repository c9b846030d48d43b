/* tcscope audit's timing (cli/audit.h audit_collect_timing): the figures
 * attached to each instruction's object, from a bench record, measured now
 * on a GPU, or the H100's recorded bench beside its recorded model. */
#include <stdlib.h>
#include <string.h>

#include "cli/audit.h"
#include "cli/cli.h"
#include "probes/timing.h"
#include "reports/render.h"
#include "reports/record_bench.h"
#include "reports/reports.h"

#define RECORDED_BENCH "reports/baselines/h100-bench.json.gz"

/* The timing of a record file's bench objects (tc_bench_timing: the
 * figures, not the detail), or NULL with err set. */
static json_t *load_bench_objects(const char *path, char *err, size_t len)
{
    tc_record rec;
    if (tc_record_load_any(path, &rec, err, len) != 0)
        return NULL;
    json_t *objs = tc_record_objects_of(&rec, "bench");
    json_t *timing = json_array();
    size_t i;
    json_t *o;
    json_array_foreach(objs, i, o)
        json_array_append_new(timing, tc_bench_timing(o));
    json_decref(objs);
    tc_record_free(&rec);
    return timing;
}

static json_t *measure_timing(const tc_instr *const *list, size_t n)
{
    char err[512];
    json_t *arr = json_array();
    tc_bench_opts o = {.device = 0};
    tc_bench *b = tc_bench_open(&o, err, sizeof err);
    if (!b) {
        cli_warn("audit", "timing skipped: %s", err);
        return arr;
    }
    tc_progress p;
    tc_progress_start(&p, "timing", n);
    tc_bench_result *r = malloc(sizeof *r);
    if (!r)
        abort();
    for (size_t i = 0; i < n; i++) {
        tc_bench_instr(b, list[i], r);
        json_t *full = tc_bench_object(r);
        json_array_append_new(arr, tc_bench_timing(full));
        json_decref(full);
        tc_progress_update(&p, i + 1);
    }
    free(r);
    tc_progress_end(&p);
    tc_bench_close(b);
    return arr;
}

/* Timing objects by instruction: from --timing, measured now on a GPU, or the
 * recorded bench of the H100 beside its recorded model. NULL: a bad --timing. */
json_t *audit_collect_timing(const audit_args *a, const tc_backend_info *info,
                            const tc_instr *const *list, size_t n, const char **source)
{
    char err[512];
    *source = "none";
    if (!a->timing)
        return json_array();
    if (a->timing_file) {
        json_t *t = load_bench_objects(a->timing_file, err, sizeof err);
        if (!t)
            cli_fail("audit", "--timing: %s", err);
        else if (json_array_size(t) == 0) { /* e.g. a sweep record: no timing would be attached */
            cli_fail("audit", "--timing %s: the record holds no bench object", a->timing_file);
            json_decref(t);
            return NULL;
        }
        *source = a->timing_file;
        return t;
    }
    if (info->sm > 0) {
        *source = "measured in this run";
        return measure_timing(list, n);
    }
    if (strcmp(info->backend, CLI_RECORDED_MODEL) != 0)
        return json_array();
    char path[4096];   /* the data beside the binary, not the working folder (probes/datadir.c) */
    err[0] = '\0';
    if (!tc_data_path(RECORDED_BENCH, path, sizeof path))
        snprintf(err, sizeof err, "%s is not beside the binary (%.400s)", RECORDED_BENCH, path);
    json_t *t = *err ? NULL : load_bench_objects(path, err, sizeof err);
    if (!t) {
        cli_warn("audit", "no recorded timing: %s", err);
        return json_array();
    }
    *source = "recorded: " RECORDED_BENCH;
    return t;
}
