/* cli/record.h: the checks a recording makes before anything runs, then
 * cases/recording.h on the backend, with the messages and lines that
 * tcscope run --random/--chain/--check-layout has always printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cases/recording.h"
#include "cli/cli.h"
#include "cli/run_info.h"
#include "cli/fleet.h"
#include "cli/record.h"
#include "probes/backend_corpus.h"
#include "reports/record_corpus.h"
#include "reports/render.h"
#include "reports/reports.h"

int cli_record_cvt(const char *cmd, const char *v, tc_rounding *r)
{
    char round[16];
    const char *comma = strchr(v, ',');
    size_t rl = comma ? (size_t)(comma - v) : strlen(v);
    *r = (tc_rounding){.mode = TC_RNE, .ovf = TC_OVF_SAT};
    bool ok = rl < sizeof round;
    if (ok) {
        memcpy(round, v, rl);
        round[rl] = '\0';
        ok = tc_round_parse(round, &r->mode) && r->mode != TC_RS;
    }
    if (!ok)
        return cli_fail(cmd, "--cvt: bad rounding in '%s' (rne, rna, rz, ru, rd, ro)", v);
    if (comma && !tc_overflow_parse(comma + 1, &r->ovf))
        return cli_fail(cmd, "--cvt: bad overflow in '%s' (inf, sat, nan)", v);
    return TC_EXIT_OK;
}

/* The budget of a chain line, for the instruction named or every one "all"
 * runs, before any runs. */
static int chains_fit(const cli_record_job *j)
{
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    for (size_t i = 0; i < ncat; i++) {
        char err[256];
        bool named = !strcmp(j->instr, cat[i].name), all = !strcmp(j->instr, "all");
        if ((named || (all && tc_instr_has_chains(&cat[i], NULL, 0))) &&
            !tc_chain_fits(&cat[i], j->n, j->len, err, sizeof err))
            return cli_fail(j->cmd, "%s %zu %s %d: %s", j->n_opt, j->n, j->len_opt, j->len, err);
    }
    return TC_EXIT_OK;
}

static void skipped(void *ctx, const char *why)
{
    cli_warn((const char *)ctx, "skipped %s", why);
}

typedef struct {
    const cli_record_job *j;
    tc_backend *b;
    tc_json_out *out;
} layout_ctx;

static void layout_line(void *ctx, const tc_instr *ins, const char *why)
{
    layout_ctx *l = ctx;
    if (l->j->json) {
        json_t *o = json_pack("{s:s, s:s, s:s}", "instr", ins->name, "backend", tc_backend_get_info(l->b)->backend,
                              "layout", why ? "fail" : "pass");
        if (why)
            json_object_set_new(o, "why", json_string(why));
        tc_json_out_put(l->out, "layout", o);
    } else
        printf("%-40s %s%s%s\n", ins->name, why ? "FAIL" : "pass", why ? ": " : "", why ? why : "");
}

/* The instructions --instr names, in catalogue order (a list was checked
 * before); TC_EXIT_OK or a message and TC_EXIT_USAGE. */
static int select_set(const cli_record_job *j, const tc_instr **v, tc_recording_set *s)
{
    size_t ncat;
    const tc_instr *cat = tc_catalogue(&ncat);
    *s = (tc_recording_set){v, 0, !strcmp(j->instr, "all"), skipped, (void *)j->cmd};
    if (!s->all && !strchr(j->instr, ',')) {
        if (!(v[0] = tc_instr_by_name(j->instr)))
            return cli_unknown_instr(j->cmd, "--instr", j->instr);
        s->n = 1;
        return TC_EXIT_OK;
    }
    for (size_t i = 0; i < ncat; i++)
        if (cli_instr_selected(j->instr, cat[i].name))
            v[s->n++] = &cat[i];
    return TC_EXIT_OK;
}

/* Where the lines go: the record's stream, and the instructions counted on
 * stderr (a bar on a terminal, plain lines in a log). */
typedef struct {
    tc_record_stream st;
    tc_progress prog;
    size_t lines;       /* instructions recorded or skipped */
    const char *cmd;
} line_sink;

/* An instruction the backend cannot run: said on a clean line, and counted. */
static void skipped_counted(void *ctx, const char *why)
{
    line_sink *k = ctx;
    tc_progress_clear(&k->prog);
    skipped((void *)k->cmd, why);
    tc_progress_update(&k->prog, ++k->lines);
}

/* Each line an object of the record on stdout (reports/record_corpus.h),
 * flushed as soon as it is whole: a later failure keeps it, and the trailer
 * (tc_record_stream_end) counts it. ctx: the line_sink. */
static int put_corpus(void *ctx, const tc_corpus_rec *rec, char *err, size_t errlen)
{
    line_sink *k = ctx;
    int rc = tc_record_corpus_line(stdout, rec, err, errlen);
    fflush(stdout);
    k->st.objects += rc == 0;
    tc_progress_update(&k->prog, ++k->lines);
    return rc;
}

static int put_chain(void *ctx, const tc_chain_rec *rec, char *err, size_t errlen)
{
    line_sink *k = ctx;
    int rc = tc_record_chain_line(stdout, rec, err, errlen);
    fflush(stdout);
    k->st.objects += rc == 0;
    tc_progress_update(&k->prog, ++k->lines);
    return rc;
}

/* The corpus or chains record (SCHEMA.md "Raw GPU records"): its header
 * with the backend's facts and the seed, the lines, the trailer ("partial"
 * when the run stopped on an error, which every reader refuses). */
static int record_lines(const cli_record_job *j, tc_backend *b, const tc_recording_set *s)
{
    bool chains = j->mode == CLI_RECORD_CHAINS;
    line_sink k = {.lines = 0, .cmd = j->cmd};
    tc_recording_set counted = *s;
    counted.skipped = skipped_counted, counted.ctx = &k;
    char err[384];
    json_t *h = cli_record_header(chains ? "chains" : "corpus", tc_backend_get_info(b), &j->seed, 1);
    int rc = tc_record_stream_begin(&k.st, stdout, h, err, sizeof err);
    json_decref(h);
    if (rc)
        return cli_fail(j->cmd, "%s", err);
    tc_progress_start(&k.prog, chains ? "record chains" : "record corpus", s->n);   /* a line an instruction */
    rc = chains ? tc_recording_chains(b, &counted, j->n, j->len, j->cvt_given ? &j->cvt : NULL, j->seed, put_chain, &k,
                                      err, sizeof err)
                : tc_recording_corpus(b, &counted, j->n, j->seed, put_corpus, &k, err, sizeof err);
    tc_progress_clear(&k.prog);   /* a message after it starts on a clean line */
    if (rc) {
        tc_record_stream_end(&k.st, "stopped on an error (see stderr)");
        return cli_fail(j->cmd, "%s", err);
    }
    return tc_record_stream_end(&k.st, NULL) ? cli_fail(j->cmd, "cannot write to stdout") : TC_EXIT_OK;
}

static int run_on(const cli_record_job *j, tc_backend *b, tc_json_out *out)
{
    size_t ncat;
    tc_catalogue(&ncat);
    const tc_instr **v = calloc(ncat + 1, sizeof *v);
    if (!v)
        return cli_fail(j->cmd, "out of memory");
    tc_recording_set s;
    int rc = select_set(j, v, &s);
    if (rc != TC_EXIT_OK)
        ;
    else if (j->mode == CLI_RECORD_LAYOUT) {
        layout_ctx l = {j, b, out};
        rc = tc_recording_layout(b, &s, layout_line, &l) ? TC_EXIT_DIFF : TC_EXIT_OK;
    } else
        rc = record_lines(j, b, &s);
    free(v);
    return rc;
}

int cli_record_run(const cli_record_job *j)
{
    int rc;
    if (j->mode == CLI_RECORD_CHAINS && (rc = chains_fit(j)) != TC_EXIT_OK)
        return rc;
    if (strchr(j->instr, ',') && cli_list_check(j->cmd, "--instr", j->instr, true))
        return TC_EXIT_USAGE;
    if (cli_fleet_spec(j->backend)) { /* every GPU of the node, the same inputs on each (cli/fleet.h) */
        if (j->mode != CLI_RECORD_CORPUS)
            return !strcmp(j->cmd, "run")
                       ? cli_fail(j->cmd, "--backend %s runs --random N only (no --chain, no --check-layout)",
                                  j->backend)
                       : cli_fail(j->cmd, "--backend %s runs record corpus only", j->backend);
        /* the workers run this command line on one GPU each; "run" is the
         * fleet's kind for corpus lines on stdout (cli/fleet.h) */
        cli_fleet_job f = {"run", j->argc, j->argv, j->backend, NULL, j->instr, false, false, 0};
        return cli_fleet_run(&f);
    }
    tc_backend *b = cli_backend_open(j->cmd, j->backend, NULL);
    if (!b)
        return TC_EXIT_USAGE;
    /* corpus and chains write their records (SCHEMA.md "Raw GPU records"),
     * with or without --json; the layout proof draws nothing at random: no seeds.
     * The record's kind stays "run", whichever command ran it. */
    tc_json_out out;
    tc_json_out_begin(&out, j->json && j->mode == CLI_RECORD_LAYOUT,
                      cli_record_header("run", tc_backend_get_info(b), NULL, 0));
    rc = run_on(j, b, &out);
    tc_json_out_end(&out, rc == TC_EXIT_USAGE ? "stopped on an error (see stderr)" : NULL);
    tc_backend_close(b);
    return rc;
}
