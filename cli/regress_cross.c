/* regress --cross-run (cli/regress.h regress_cross): a --cross-gpu worker's
 * share of the cross-GPU comparison, in this process, after the timing and
 * beside the checks (their children, let go when the timing ends): every
 * instruction of the list on --cross-count random inputs of the run's seed
 * (the inputs of `run --random`), the output bits as a corpus record in
 * OUT/cross.txt, which the fleet compares across the GPUs (cli/fleet.c). Only the bits: no layout probe, no SASS, no twin's
 * batch (tc_corpus_bits), and no new process or CUDA context: a `run
 * --random` child for this took 6.9 s alone on an H200 and 11-13 s beside
 * the checks, the longest of a 2-GPU regress's verify phase. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/regress.h"
#include "cli/run_info.h"
#include "probes/backend_corpus.h"
#include "reports/record_corpus.h"
#include "probes/clock.h"
#include "reports/reports.h"

typedef struct {
    const regress_ctx *c;
    tc_backend *be;
    int rc;
    size_t lines;
    double run_s, write_s;    /* inputs drawn and run on the GPU; lines written */
    char err[600];
} cross_job;

/* Every selected instruction the backend runs, a line each, in catalogue order. */
static int emit_cross(FILE *f, const void *vctx)
{
    cross_job *x = (cross_job *)vctx;
    const regress_args *a = x->c->a;
    json_t *h = cli_record_header("corpus", tc_backend_get_info(x->be), &a->seed, 1);
    tc_record_stream st;
    int rc = tc_record_stream_begin(&st, f, h, x->err, sizeof x->err); /* h holds the kind st names */
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    char why[384];
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (!cli_instr_selected(a->cross_run, cat[i].name) || !tc_backend_supports(x->be, &cat[i], why, sizeof why))
            continue;
        tc_corpus_rec rec;
        double t0 = tc_now_s();
        rc = tc_corpus_bits(x->be, &cat[i], a->cross_n, a->seed, &rec, x->err, sizeof x->err);
        double t1 = tc_now_s();
        x->run_s += t1 - t0;
        if (rc == 0) {
            rc = tc_record_corpus_line(f, &rec, x->err, sizeof x->err);
            st.objects += rc == 0;
            tc_corpus_rec_free(&rec);
            x->write_s += tc_now_s() - t1;
        }
    }
    if (rc == 0 && st.objects == 0)
        snprintf(x->err, sizeof x->err, "no instruction of '%s' runs on %s", a->cross_run, x->c->backend), rc = -1;
    x->lines = st.objects;
    x->rc = rc;
    /* a run stopped on an error ends "partial", which the fleet refuses */
    int end = tc_record_stream_end(&st, rc ? "stopped on an error" : NULL);
    json_decref(h);
    return end ? -1 : 0;
}

int regress_cross(const regress_ctx *c, tc_backend *be, tc_outdir *d)
{
    cross_job x = {.c = c, .be = be};
    char err[700];
    double t0 = tc_now_s();
    if (tc_out_write(d, "cross.txt", emit_cross, &x, err, sizeof err) != 0 || x.rc != 0) {
        cli_warn(REGRESS_CMD, "--cross-run: %s; no OUT/cross.txt", x.rc ? x.err : err);
        tc_out_remove(d, "cross.txt", err, sizeof err);
        return -1;
    }
    /* on stderr: a worker's stdout is its --json record */
    fprintf(stderr, "# cross-GPU inputs: %zu instructions, %zu elements each, in %.1f s (drawn and run %.1f s, "
            "written %.1f s)\n", x.lines, c->a->cross_n, tc_now_s() - t0, x.run_s, x.write_s);
    return 0;
}
