/* tcscope hunt: the boundary-directed differential search (cases/hunt.h).
 * Every hunt family on every selected instruction, whole tiles through the
 * backend and through the model with a profile, every element compared bit
 * for bit. Exit 0 when nothing differs, 1 on any mismatch, 2 on bad input.
 *
 * --out DIR writes DIR/hunt.jsonl: a header, then per instruction the
 * elements and mismatches of each family, the smallest failing inputs, and
 * a replay sample: the backend's answers to the first --sample elements of
 * every family, whose inputs anyone can regenerate from the seed (CI replays
 * them through the model: tests/test_hunt_replay.c). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "cases/hunt_gpu.h"
#include "cli/hunt_batch.h"
#include "cli/hunt_sample.h"
#include "cases/verify.h"
#include "cli/cli.h"
#include "cli/model_on.h"
#include "cli/run_info.h"
#include "oracle/profile.h"
#include "probes/probes.h"
#include "reports/reports.h"
#include "reports/render.h"

#define CMD "hunt"

typedef struct {
    const char *backend, *profile, *instr, *out, *model_on;
    unsigned long long n, seed, sample;
    bool json, force;
    int draw;   /* hunt_draw; -1: the default (tile on a GPU backend, else family) */
} hunt_args;

typedef enum {
    O_BACKEND, O_PROFILE, O_MODEL_ON, O_INSTR, O_N, O_SEED, O_DRAW, O_SAMPLE, O_OUT, O_FORCE, O_JSON, O_OLD_N,
    O_OLD_SAMPLE
} hunt_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "the hardware to search (required): gpu, gpu:N, model:PROFILE or exact"},
    [O_PROFILE] = {"--profile", "P", "the model it is compared with: a name under oracle/profiles or a file "
                                     "(default h100)"},
    [O_MODEL_ON] = {"--model-on", "gpu[:N]|cpu", "what computes the model's answers: the GPU model (the default "
                                                "where a GPU is present; on the backend's GPU) or the CPU's"},
    [O_INSTR] = {"--instr", "NAME[,NAME..]|all", "the instructions (default all)"},
    [O_N] = {"--count", "PER_FAMILY", "elements per hunt family and instruction (default 400000)", 1, 100000000ull},
    [O_SEED] = {"--seed", "S", "random seed (default 0x4b1d5eed)"},
    [O_DRAW] = {"--draw", "tile|family", "the families' streams (cases/hunt.h): tile (each tile its own start, drawn "
                                         "on the GPU with the GPU model: the default on a GPU backend) or family (one "
                                         "stream per family, the records before 2026-11-29: the default elsewhere)"},
    [O_SAMPLE] = {"--samples", "N", "with --out: the backend's answers to the first N elements of every family, for replay (default 128)", 0, 4096},
    [O_OUT] = {"--out", "DIR", "write DIR/hunt.jsonl: elements and mismatches per family, the smallest failing inputs, the replay sample"},
    [O_FORCE] = {"--force", NULL, "replace an earlier DIR/hunt.jsonl (else it is kept, and said before the hunt runs)"},
    [O_JSON] = {"--json", NULL, "the hunt record (as --out writes it), printed as each instruction finishes"},
    [O_OLD_N] = {CLI_ALIAS("--n", "--count")},
    [O_OLD_SAMPLE] = {CLI_ALIAS("--sample", "--samples")},
};
const cli_command cmd_hunt_cli = {"hunt", "boundary-directed search for inputs where the backend and the model differ",
                                  NULL, "Exit 1 when any answer differs from the model.", opts, CLI_NOPTS(opts),
                                  false};

static int parse_args(int argc, char **argv, hunt_args *a)
{
    *a = (hunt_args){NULL, "h100", "all", NULL, NULL, 400000, 0x4B1D5EED, 128, false, false, -1};
    uint64_t seed;
    cli_scan sc = cli_scan_start(&cmd_hunt_cli, argc, argv);
    while (cli_next(&sc))
        switch ((hunt_opt)sc.opt) {
        case O_BACKEND: a->backend = sc.val; break;
        case O_PROFILE: a->profile = sc.val; break;
        case O_MODEL_ON: a->model_on = sc.val; break;
        case O_INSTR: a->instr = sc.val; break;
        case O_N: a->n = sc.count; break;
        case O_SEED:
            if (!cli_seed(CMD, "--seed", sc.val, &seed))
                return TC_EXIT_USAGE;
            a->seed = seed;
            break;
        case O_DRAW:
            if ((a->draw = hunt_draw_by_name(sc.val)) < 0)
                return cli_fail(CMD, "--draw takes tile or family, not '%s'", sc.val);
            break;
        case O_SAMPLE: a->sample = sc.count; break;
        case O_OUT: a->out = sc.val; break;
        case O_FORCE: a->force = true; break;
        case O_JSON: a->json = true; break;
        case O_OLD_N: case O_OLD_SAMPLE: break;   /* old spellings: cli_next answers as the new ones */
        }
    if (sc.status)
        return sc.status;
    if (!a->backend)
        return cli_fail(CMD, "needs --backend B (the hardware to search, e.g. gpu)");
    if (a->draw < 0)
        a->draw = !strncmp(a->backend, "gpu", 3) ? HUNT_DRAW_TILE : HUNT_DRAW_FAMILY;
    return TC_EXIT_OK;
}

/* --out: an earlier DIR/hunt.jsonl said before the hunt runs (for hours,
 * perhaps), not after it; --force replaces it. */
static int out_free(const hunt_args *a, char *err, size_t len)
{
    static const char *const names[] = {"hunt.jsonl"};
    tc_outdir d = {.fd = -1};
    int bad = tc_outdir_open(&d, a->out, a->force, err, len) || tc_out_check_free(&d, names, 1, err, len);
    tc_outdir_close(&d);
    return bad ? cli_fail(CMD, "%s", err) : TC_EXIT_OK;
}

/* --instr: "all" or a comma list of catalogue names (cli_list_check), in catalogue order. */
static int select_instrs(const char *sel, const tc_instr ***out, size_t *n)
{
    int rc = cli_list_check(CMD, "--instr", sel, true);
    if (rc != TC_EXIT_OK)
        return rc;
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    const tc_instr **list = calloc(count, sizeof *list);
    if (!list)
        return cli_fail(CMD, "out of memory");
    *n = 0;
    for (size_t i = 0; i < count; i++)
        if (cli_instr_selected(sel, cat[i].name))
            list[(*n)++] = &cat[i];
    *out = list;
    return TC_EXIT_OK;
}

static json_t *result_json(const tc_instr *ins, const verify_result *r, json_t *sample)
{
    json_t *fams = json_object();
    for (int f = 0; f < HUNT_NFAMILIES; f++)
        json_object_set_new(fams, hunt_family_name(f),
                            json_pack("{s:I, s:I}", "elements", (json_int_t)r->dist_n[VERIFY_DIST_HUNT + f],
                                      "mismatches", (json_int_t)r->dist_mismatches[VERIFY_DIST_HUNT + f]));
    json_t *fails = json_array();
    for (size_t i = 0; i < r->nfails; i++) {
        const verify_failure *f = &r->fails[i];
        json_t *a = json_array(), *b = json_array();
        for (int q = 0; q < f->c.k; q++) {
            json_array_append_new(a, tc_json_bits(f->c.a[q]));
            json_array_append_new(b, tc_json_bits(f->c.b[q]));
        }
        json_array_append_new(fails, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "family", f->dist, "a", a, "b",
                                               b, "c", tc_json_bits(f->c.c), "hw", tc_json_bits(f->c.d),
                                               "model", tc_json_bits(f->model_d)));
    }
    json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:o, s:o}", "kind", "hunt", "instr", ins->name, "elements",
                          (json_int_t)r->n, "mismatches", (json_int_t)r->mismatches, "families", fams,
                          "failures", fails);
    if (sample)
        json_object_set_new(o, "sample", sample);
    return o;
}

/* One instruction's hunt on the host path: its model, its first tiles drawn
 * ahead (verify_hunt_start). */
typedef struct {
    audit_backend_ctx ctx;
    infer_target t;
    const model_params *p;
    model *m;
    verify_hunt_ahead *ahead;
} hunt_slot;

static void slot_drop(hunt_slot *s)
{
    verify_hunt_drop(s->ahead);
    model_free(s->m);
    s->ahead = NULL;
    s->m = NULL;
}

#define HUNT_NONE_LEFT SIZE_MAX

/* The first instruction of list[from..n) that is hunted on the host path (a
 * profile entry, floating-point formats, on this backend, not one of the
 * GPU path's, job_of): its slot set up and its first tiles started. n when
 * none is left; HUNT_NONE_LEFT, with err, when its model does not compile
 * or out of memory. */
static size_t hunt_next(tc_backend *be, const model_profile *prof, const tc_instr **list, size_t n, size_t from,
                        const hunt_args *a, cli_model_on *mo, const size_t *job_of, hunt_slot *s, char *err,
                        size_t errlen)
{
    for (size_t i = from; i < n; i++) {
        char why[256];
        if (job_of[i] != HUNT_BATCH_NONE)
            continue;
        s->p = profile_lookup(prof, list[i]->name);
        s->ctx = (audit_backend_ctx){be, list[i]};
        s->t = audit_target(&s->ctx, a->seed);
        cli_model_on_attach(mo, &s->t);
        if (!s->p || !hunt_applies(&s->t) || !tc_backend_supports(be, list[i], why, sizeof why))
            continue;
        s->ahead = NULL;
        if (!(s->m = model_new(s->p, s->t.f, err, errlen))) {
            char why2[512];
            snprintf(why2, sizeof why2, "%s", err);
            snprintf(err, errlen, "%.100s: %.380s", list[i]->name, why2);
            return HUNT_NONE_LEFT;
        }
        if (!(s->ahead = verify_hunt_start(&s->t, a->n, a->seed, (hunt_draw)a->draw, err, errlen))) {
            slot_drop(s);
            return HUNT_NONE_LEFT;
        }
        return i;
    }
    return n;
}

/* Slot s's instruction hunted on the host path, its replay sample (want >
 * 0) into *sample. 0, or -1 with err. */
static int hunt_one(hunt_slot *s, const tc_instr *ins, const hunt_args *a, verify_result *r, json_t **sample,
                    char *err, size_t errlen)
{
    size_t want = (size_t)a->sample;
    verify_hunt_ahead *ahead = s->ahead;
    s->ahead = NULL;   /* verify_hunt_finish frees it */
    if (verify_hunt_finish(ahead, &s->t, s->m, r, err, errlen))
        return -1;
    return want && !(*sample = hunt_sample_run(&s->t, ins, a->seed, (hunt_draw)a->draw, want, err, errlen)) ? -1 : 0;
}

/* Job j of the GPU path's batch: its results into *r (the batch keeps
 * none), its sample (the round's own answers, else a run of the sample's
 * tiles: the same stream) and its model's counts (their seconds added to
 * mo's, for the stages line). 0, or -1 with err. */
static int take_job(hunt_batch *b, size_t j, const hunt_args *a, cli_model_on *mo, verify_result *r,
                    json_t **sample, json_t **melem, char *err, size_t errlen)
{
    hunt_gpu_job *jb = &b->jobs[j];
    size_t want = (size_t)a->sample;
    *r = jb->r;
    memset(&jb->r, 0, sizeof jb->r);
    mo->count.copy_s += jb->count.copy_s;
    mo->count.kernel_s += jb->count.kernel_s;
    mo->count.cpu_s += jb->count.cpu_s;
    *melem = json_pack("{s:I, s:I}", "gpu", (json_int_t)jb->count.gpu, "cpu", (json_int_t)jb->count.cpu);
    if (want)
        *sample = jb->sampled ? hunt_sample_of(jb->ins, jb->sample, want, want, err, errlen)
                              : hunt_sample_run(jb->t, jb->ins, a->seed, HUNT_DRAW_TILE, want, err, errlen);
    return want && !*sample ? -1 : 0;
}

int cmd_hunt(int argc, char **argv)
{
    hunt_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != TC_EXIT_OK)
        return rc;
    char err[512];
    if (a.out && (rc = out_free(&a, err, sizeof err)) != TC_EXIT_OK)
        return rc;
    const tc_instr **list = NULL;
    size_t n = 0;
    if ((rc = select_instrs(a.instr, &list, &n)) != TC_EXIT_OK)
        return rc;
    model_profile prof;
    char ppath[1100];
    if (!tc_profile_path(a.profile, ppath, sizeof ppath)) {
        free(list);
        return cli_fail(CMD, "unknown profile '%s' (not a file, not under oracle/profiles/)", a.profile);
    }
    if (profile_load(ppath, &prof, err, sizeof err)) {
        free(list);
        return cli_fail(CMD, "%s", err);
    }
    tc_backend *be = cli_backend_open(CMD, a.backend, NULL);   /* the no-GPU message of every command */
    if (!be) {
        profile_free(&prof);
        free(list);
        return TC_EXIT_USAGE;
    }
    cli_model_on mo;
    if ((rc = cli_model_on_open(CMD, a.model_on, a.backend, &mo)) != TC_EXIT_OK) {
        tc_backend_close(be);
        profile_free(&prof);
        free(list);
        return rc;
    }
    /* the GPU path (cases/hunt_gpu.h): the tile stream, the model on the backend's GPU */
    char gpu_why[256] = "";
    hunt_gpu *hg = NULL;
    if (a.draw == HUNT_DRAW_TILE && !(hg = hunt_gpu_open(be, mo.gpu, gpu_why, sizeof gpu_why)) && !gpu_why[0])
        snprintf(gpu_why, sizeof gpu_why, "not available");
    if (a.draw != HUNT_DRAW_TILE)
        snprintf(gpu_why, sizeof gpu_why, "--draw family");
    const tc_backend_info *info = tc_backend_get_info(be);
    uint64_t seeds[1] = {a.seed};
    json_t *hdr = cli_record_header("hunt", info, seeds, 1);
    json_object_set_new(hdr, "profile", json_string(a.profile));
    json_object_set_new(hdr, "model_on", json_string(mo.name));
    json_object_set_new(hdr, "per_family", json_integer((json_int_t)a.n));
    json_object_set_new(hdr, "sample", json_integer((json_int_t)a.sample));
    json_object_set_new(hdr, "draw", json_string(hunt_draw_name((hunt_draw)a.draw)));
    tc_json_out out; /* --json: the record hunt.jsonl holds, printed as it is made */
    tc_json_out_begin(&out, a.json, json_copy(hdr));
    tc_record rec = tc_record_new(hdr);
    size_t total = 0, bad = 0, skipped = 0, on_gpu = 0, hunted = 0;
    double stage_s[VERIFY_NSTAGES] = {0};
    int status = TC_EXIT_OK;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!a.json)
        printf("# tcscope hunt on %s (%s) vs model profile %s on %s, %llu elements per family, %s stream; "
               "GPU path: %s\n", info->backend, info->device, a.profile, mo.name, a.n,
               hunt_draw_name((hunt_draw)a.draw), hg ? "on" : gpu_why);
    tc_progress prog;   /* on a terminal: instructions done of n, the time left */
    /* The GPU path's instructions first (cli/hunt_batch.h), their results
     * kept; then the loop writes every instruction's in catalogue order. */
    hunt_batch batch;
    if (hunt_batch_run(&batch, hg, be, &prof, list, n, (size_t)a.n, a.seed, (size_t)a.sample, &prog, err,
                       sizeof err)) {
        fprintf(stderr, "tcscope hunt: %s\n", err);
        status = TC_EXIT_USAGE;
    }
    tc_progress_start(&prog, "hunt", n);
    /* On the host path the next hunted instruction's first tiles are drawn
     * (on threads of their own) while one's are checked: two slots, used in
     * turn. */
    hunt_slot slot[2];
    int cur = 0;
    memset(slot, 0, sizeof slot);
    size_t next = n;
    if (status != TC_EXIT_USAGE &&
        (next = hunt_next(be, &prof, list, n, 0, &a, &mo, batch.job_of, &slot[cur], err, sizeof err)) ==
            HUNT_NONE_LEFT) {
        fprintf(stderr, "tcscope hunt: %s\n", err);
        status = TC_EXIT_USAGE;
        next = n;
    }
    for (size_t i = 0; i < n && status != TC_EXIT_USAGE; i++) {
        tc_progress_update(&prog, i);
        size_t job = batch.job_of[i];
        if (i != next && job == HUNT_BATCH_NONE) {
            skipped++;
            continue;
        }
        const tc_instr *ins = list[i];
        verify_result r;
        memset(&r, 0, sizeof r);
        json_t *sample = NULL, *melem = NULL;
        int fail = 0;
        if (job != HUNT_BATCH_NONE)
            fail = take_job(&batch, job, &a, &mo, &r, &sample, &melem, err, sizeof err);
        else {
            hunt_slot *now = &slot[cur];
            cur ^= 1;
            next = hunt_next(be, &prof, list, n, i + 1, &a, &mo, batch.job_of, &slot[cur], err, sizeof err);
            if (next == HUNT_NONE_LEFT) {
                tc_progress_clear(&prog);
                fprintf(stderr, "tcscope hunt: %s\n", err);
                slot_drop(now);
                status = TC_EXIT_USAGE;
                break;
            }
            fail = hunt_one(now, ins, &a, &r, &sample, err, sizeof err);
            slot_drop(now);
            melem = cli_model_on_take(&mo);
        }
        if (fail) {
            tc_progress_clear(&prog);
            fprintf(stderr, "tcscope hunt: %s: %s\n", ins->name, err);
            json_decref(sample);
            json_decref(melem);
            verify_result_free(&r);
            status = TC_EXIT_USAGE;
            break;
        }
        on_gpu += job != HUNT_BATCH_NONE;
        hunted++;
        for (int q = 0; q < VERIFY_NSTAGES; q++)
            stage_s[q] += r.stage_s[q];
        total += r.n;
        bad += r.mismatches;
        if (r.mismatches)
            status = TC_EXIT_DIFF;
        json_t *o = result_json(ins, &r, sample);
        json_object_set_new(o, "model_elements", melem);
        json_object_set_new(o, "path", json_string(job != HUNT_BATCH_NONE ? "gpu" : "host"));
        tc_progress_clear(&prog);   /* the result line starts on a clean line */
        if (a.json)
            tc_json_out_put(&out, "hunt", json_incref(o));
        else {
            printf("%-44s %12zu elements %8zu mismatches", ins->name, r.n, r.mismatches);
            for (int f = 0; f < HUNT_NFAMILIES; f++)
                if (r.dist_mismatches[VERIFY_DIST_HUNT + f])
                    printf("  %s:%zu", hunt_family_name(f), r.dist_mismatches[VERIFY_DIST_HUNT + f]);
            printf("\n");
        }
        fflush(stdout);
        verify_result_free(&r);
        if (tc_record_add(&rec, o, err, sizeof err)) {
            tc_progress_clear(&prog);
            fprintf(stderr, "tcscope hunt: %s\n", err);
            status = TC_EXIT_USAGE;
            break;
        }
    }
    if (next < n)
        slot_drop(&slot[cur]);   /* stopped on an error before it */
    tc_progress_clear(&prog);
    tc_json_out_end(&out, status == TC_EXIT_USAGE ? "stopped on an error (see stderr)" : NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (!a.json)
        printf("# %zu elements in %.1f s (%.3g elements/s), %zu mismatches; %zu instructions not hunted "
               "(integer formats, no profile entry, or not on this backend)\n",
               total, secs, secs > 0 ? (double)total / secs : 0.0, bad, skipped);
    if (!a.json) {
        printf("# path: %zu of %zu instructions on the GPU path (cases/hunt_gpu.h: in windows, the stages "
               "overlapping), the rest on the host's\n", on_gpu, hunted);
        if (hg && on_gpu) {
            hunt_gpu_stats st;
            hunt_gpu_last_stats(hg, &st);
            printf("# GPU path: %.2f s for its instructions, %zu windows, %.2f s waiting for their draws; the CPU "
                   "computed %zu declined elements in %.2f s beside it, %.2f s of them after the GPU's last\n",
                   st.wall_s, st.windows, st.draw_wait_s, st.declined, st.cpu_s, st.tail_s);
        }
        cli_model_on_stages(&mo, stage_s, secs);
    }
    if (a.out && status != TC_EXIT_USAGE) {
        /* inside --out only, atomically, an earlier hunt.jsonl kept (reports/outdir.c) */
        tc_outdir d = {.fd = -1};
        if (tc_outdir_open(&d, a.out, a.force, err, sizeof err) != 0 ||
            tc_record_write(&d, "hunt.jsonl", &rec, NULL, err, sizeof err) != 0) {
            fprintf(stderr, "tcscope hunt: cannot write %s/hunt.jsonl: %s\n", a.out, err);
            status = TC_EXIT_USAGE;
        }
        tc_outdir_close(&d);
    }
    tc_record_free(&rec);
    hunt_batch_free(&batch);
    hunt_gpu_close(hg);
    cli_model_on_close(&mo);
    tc_backend_close(be);
    profile_free(&prof);
    free(list);
    return status;
}
