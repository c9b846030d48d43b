/* tcscope choose for an application (cli/choose.h choose_app): every
 * candidate evaluated on the backend at the user's K against exact
 * references (reports/choose_app.h); with library GEMM records the ranked
 * candidates are the recorded library paths (each path's recorded structure
 * with the model of the GPU it was recorded on, ranked by measured GEMM
 * TFLOP/s of that GPU and caller); --report adds the
 * error-vs-K page. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/app.h"
#include "cli/choose.h"
#include "cli/cli.h"
#include "cli/model_on.h"
#include "cli/run_info.h"
#include "reports/choose_app.h"
#include "reports/record_gemm.h"
#include "reports/render.h"
#include "reports/reports.h"

#define DEFAULT_GEMM "reports/baselines/h100-gemm.packed.xz"   /* library GEMM cases */

/* Candidates evaluated, then library paths (each phase counted from 0 to
 * its total), through the shared progress (reports/render.h): a bar on a
 * terminal, plain lines in a log of a long run. One choose a process: its
 * progress lives here. */
static struct {
    tc_progress bar;
    bool running;
} phases;

static void progress(void *ctx, size_t done, size_t total, const char *what)
{
    (void)ctx, (void)what;
    if (!phases.running)
        tc_progress_start(&phases.bar, "choose", total);
    phases.running = done < total;
    if (phases.running)
        tc_progress_update(&phases.bar, done);
    else
        tc_progress_end(&phases.bar);
}

/* The gemm cases of a comma list of record files, in order. */
static json_t *load_gemm_list(const char *list, char *err, size_t len)
{
    json_t *all = json_array();
    char *copy = strdup(list), *save = NULL;
    for (char *f = copy ? strtok_r(copy, ",", &save) : NULL; f; f = strtok_r(NULL, ",", &save)) {
        json_t *one = tc_gemm_records_load(f, NULL, err, len);
        if (!one) {
            json_decref(all), free(copy);
            return NULL;
        }
        json_array_extend(all, one);
        json_decref(one);
    }
    free(copy);
    if (!json_array_size(all)) {
        snprintf(err, len, "--gemm-records '%.200s': no record file", list);
        json_decref(all);
        return NULL;
    }
    return all;
}

static int print_record(const json_t *choices, tc_backend *b, uint64_t seed)
{
    char err[512];
    const tc_backend_info *info = tc_backend_get_info(b);
    json_t *h = cli_record_header("choice", info, &seed, 1);
    tc_record_stream st;
    if (tc_record_stream_begin(&st, stdout, h, err, sizeof err)) {
        json_decref(h);
        return cli_fail("choose", "%s", err);
    }
    size_t i;
    json_t *c;
    json_array_foreach(choices, i, c) if (tc_record_stream_object(&st, c, err, sizeof err))
    {
        json_decref(h);
        return cli_fail("choose", "%s", err);
    }
    tc_record_stream_end(&st, NULL);
    json_decref(h);
    return TC_EXIT_OK;
}

/* The K list of the report's error-vs-K plot: the user's, else 16, 64, ...
 * below K; K itself always; increasing, without repeats. */
static int report_ks(const app_settings *s, int *ks)
{
    int n = 0, cand[CHOOSE_MAX_SWEEP_K + 12];
    if (s->nsweep_k)
        for (int i = 0; i < s->nsweep_k; i++)
            cand[n++] = s->sweep_k[i];
    else
        for (int k = 16; k < s->k && n < 10; k *= 4)
            cand[n++] = k;
    cand[n++] = s->k;
    int out = 0;
    for (int i = 0; i < n; i++) {   /* insertion into the sorted, distinct list */
        int j = out;
        bool dup = false;
        for (int q = 0; q < out; q++)
            dup |= ks[q] == cand[i];
        if (dup)
            continue;
        while (j > 0 && ks[j - 1] > cand[i]) {
            ks[j] = ks[j - 1];
            j--;
        }
        ks[j] = cand[i];
        out++;
    }
    return out;
}

/* The choices at every K of the report (per_k, see tc_choose_app_report);
 * main: those at the user's K, already evaluated. NULL + err. */
static json_t *evaluate_per_k(const app_settings *s, const app_dist *dist, tc_backend *b, const tc_record *bench,
                              const tc_choose_app_opts *o, const json_t *main, char *err, size_t len)
{
    int ks[CHOOSE_MAX_SWEEP_K + 12];
    int nk = report_ks(s, ks);
    json_t *per_k = json_array();
    for (int i = 0; i < nk; i++) {
        if (ks[i] == s->k) {
            json_array_append_new(per_k, json_pack("{s:i, s:O}", "k", ks[i], "choices", main));
            continue;
        }
        app_data d;
        app_reference_cache_clear();   /* the references belong to one K's data */
        if (!app_data_make(&d, dist, s->m, s->n, ks[i], o->rows, o->cols, s->seed,
                           s->scaling == APP_SCALE_TENSOR, err, len)) {
            json_decref(per_k);
            return NULL;
        }
        json_t *res = tc_choose_app(b, &d, bench, o, err, len);
        app_data_free(&d);
        if (!res) {
            json_decref(per_k);
            return NULL;
        }
        json_array_append_new(per_k, json_pack("{s:i, s:o}", "k", ks[i], "choices", res));
    }
    app_reference_cache_clear();
    return per_k;
}

int choose_app(const app_settings *s, const char *const *benches, size_t nb, bool json)
{
    char err[512];
    if (!s->m || !s->n || !s->k)
        return cli_fail("choose", "application mode needs --m, --n and --k (the GEMM's shape); "
                        "give --sweep FILE for advice from recorded sweeps");
    if (s->k > CHOOSE_APP_MAX_K)
        return cli_fail("choose", "--k %d: application mode evaluates up to K = %d", s->k, CHOOSE_APP_MAX_K);
    if (s->samples && s->dist)
        return cli_fail("choose", "--samples and --dist exclude each other");
    if ((s->nsweep_k || s->force) && !s->report)
        return cli_fail("choose", "--sweep-k and --force go with --report DIR");
    if (s->gemm_records && s->no_library)
        return cli_fail("choose", "--gemm-records and --no-library exclude each other");
    app_dist dist;
    if (s->samples ? !app_dist_load(s->samples, &dist, err, sizeof err)
                   : !app_dist_parse(s->dist ? s->dist : "normal", &dist, err, sizeof err))
        return cli_fail("choose", "%s", err);
    /* The report's folder is checked before any work: an existing page is kept unless --force. */
    tc_outdir out = {.fd = -1};
    static const char *const page[] = {"choose.html"};
    if (s->report && (tc_outdir_open(&out, s->report, s->force, err, sizeof err) ||
                      tc_out_check_free(&out, page, 1, err, sizeof err))) {
        tc_outdir_close(&out);
        app_dist_free(&dist);
        return cli_fail("choose", "%s", err);
    }
    static char def_bench[4096];
    const char *bench_from = nb ? benches[0] : "";
    tc_record bench = tc_record_new(json_object());
    json_t *objs = json_array();
    int rc = TC_EXIT_OK;
    if (!nb && tc_data_path(CHOOSE_DEFAULT_BENCH, def_bench, sizeof def_bench)) {
        const char *one[] = {def_bench};
        bench_from = def_bench;
        rc = choose_load_all(one, 1, "bench", objs, &bench);
    } else if (nb)
        rc = choose_load_all(benches, nb, "bench", objs, &bench);
    json_decref(objs);
    /* The library paths: the gemm records (given, else the H100 ones beside the binary when there). */
    static char def_gemm[4096];
    const char *gemm_from = s->no_library ? NULL : s->gemm_records;
    if (!s->no_library && !gemm_from && tc_data_path(DEFAULT_GEMM, def_gemm, sizeof def_gemm))
        gemm_from = def_gemm;
    json_t *gemm_recs = NULL;
    if (!rc && gemm_from && !(gemm_recs = load_gemm_list(gemm_from, err, sizeof err)))
        rc = cli_fail("choose", "%s", err);
    /* The library paths' outputs and the exact references: the GPU model when one opens, else the CPU's. */
    cli_model_on mo;
    tc_model_gpu_count refs = {0};
    if (!rc && gemm_recs)
        cli_model_on_open("choose", NULL, s->backend, &mo);
    else
        cli_model_on_open("choose", "cpu", NULL, &mo);
    app_reference_use(mo.gpu, &refs);
    size_t outputs = (size_t)(s->rows < s->m ? s->rows : s->m) * (size_t)(s->rows < s->n ? s->rows : s->n);
    if (!rc && outputs > APP_CHAIN_MAX_OUTPUTS && (!gemm_recs || !mo.gpu))
        rc = cli_fail("choose", "--outputs %d: over 1000 x 1000 outputs only the library paths are evaluated, on "
                      "the GPU model with exact references on the GPU: %s", s->rows,
                      gemm_recs ? "no GPU model opens here" : "--no-library leaves none");
    tc_backend *b = rc ? NULL : cli_backend_open("choose", s->backend, NULL);
    if (!rc && !b)
        rc = TC_EXIT_USAGE;
    app_data d;
    /* A GEMM smaller than the sample has only M x N outputs: all of them. */
    int rows = s->rows < s->m ? s->rows : s->m, cols = s->rows < s->n ? s->rows : s->n;
    if (!rc && !app_data_make(&d, &dist, s->m, s->n, s->k, rows, cols, s->seed,
                                s->scaling == APP_SCALE_TENSOR, err, sizeof err))
        rc = cli_fail("choose", "%s", err);
    if (!rc) {
        /* Whose structures are ranked: --gpu, else the backend's GPU (a model: its profile's name). */
        const char *bk = tc_backend_get_info(b)->backend, *dev = tc_backend_get_info(b)->device;
        const char *gpu = s->gpu ? s->gpu : !strncmp(bk, "model:", 6) ? bk + 6 : dev;
        tc_choose_app_opts o = {.gpu = gpu, .caller = s->caller ? s->caller : "tcscope",
                                .allow_transfer = s->allow_transfer,
                                .dist = &dist, .scaling = s->scaling, .metric = s->metric, .bound = s->bound,
                                .rows = rows, .cols = cols, .backend = tc_backend_get_info(b)->backend,
                                .bench_from = bench_from, .gemm_recs = gemm_recs, .gemm_from = gemm_from,
                                .stages_to = outputs > APP_CHAIN_MAX_OUTPUTS ? stderr : NULL,
                                .progress = progress, .model_gpu = mo.gpu, .model_on = mo.name,
                                .references_on = mo.gpu ? mo.name : "cpu"};
        json_t *res = tc_choose_app(b, &d, &bench, &o, err, sizeof err);
        if (!res)
            rc = cli_fail("choose", "%s", err);
        else if (json)
            rc = print_record(res, b, s->seed);
        else
            tc_choose_app_print(stdout, res, &o, &d);
        if (res && !rc && s->report) {
            json_t *per_k = evaluate_per_k(s, &dist, b, &bench, &o, res, err, sizeof err);
            if (!per_k || tc_choose_app_report(&out, res, per_k, &o, &d, tc_backend_get_info(b)->device, err,
                                               sizeof err))
                rc = cli_fail("choose", "%s", err);
            else if (!json)
                printf("\nreport: %s/choose.html\n", s->report);
            json_decref(per_k);
        }
        json_decref(res);
        app_data_free(&d);
        app_reference_cache_clear();
    }
    if (b)
        tc_backend_close(b);
    app_reference_use(NULL, NULL);
    cli_model_on_close(&mo);
    tc_outdir_close(&out);
    tc_record_free(&bench);
    json_decref(gemm_recs);
    app_dist_free(&dist);
    return rc;
}
