/* tcscope decide MODE: a deciding input for every pair of a field's values
 * (cases/decide.h), asked of a backend, and what the answers decide.
 *   export  on this CPU, from a profile: every field's whole range
 *           (oracle/model_ranges.h), an input separating each alternative
 *           from the profile's value, or the pair proven equivalent
 *           (oracle/model_equiv.h), or kept open with the search budget
 *           spent; --out DIR/decide.jsonl
 *   ask     the backend answers every input of a decide record: DIR/decide.jsonl
 *           (the record with the answers) and DIR/hunt.jsonl (the inputs
 *           the profile's model answers otherwise, as a hunt's failures:
 *           `audit --counterexamples` refits from them); exit 1 if any
 *   infer   field by field: decided by construction, by sampled evidence
 *           only (open pairs among them), or undecided, with counts and
 *           shares, and the pairs excluded, proven equivalent and open
 *           (--out DIR/decide.md);
 *           --compare P2 names the fields P2 holds otherwise than the
 *           answers decided; exit 1 when the profile misses an answer */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "cases/audit.h"
#include "cases/decide.h"
#include "cases/hunt.h"
#include "cli/cli.h"
#include "cli/pool.h"
#include "cli/decide.h"
#include "cli/record_arg.h"
#include "cli/run_info.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "probes/probes.h"
#include "reports/record_decide.h"
#include "reports/render.h"
#include "reports/reports.h"

#define CMD DECIDE_CMD

typedef enum {
    O_INSTR, O_PROFILE, O_COMPARE, O_OUT, O_IN, O_BACKEND, O_SEED, O_COUNT, O_MUTATIONS, O_THREADS, O_FORCE,
    O_PAIRS
} decide_opt;
static const cli_option opts[] = {
    [O_INSTR] = {"--instr", "NAME[,NAME..]|all", "export, ask, infer: the instructions (default all)"},
    [O_PROFILE] = {"--profile", "P", "export: the decided values (required); ask: the model the answers are checked "
                                     "against (default: the fingerprints the record was built from); infer: the "
                                     "values judged (default the same)"},
    [O_COMPARE] = {"--compare", "P2", "infer: name every field where profile P2 holds another value than the "
                                      "answers decided"},
    [O_OUT] = {"--out", "DIR", "export, ask: the record(s) into DIR; infer: DIR/decide.md, the table"},
    [O_IN] = {"--in", "RECORD", "ask, infer: a decide record (export's or ask's)"},
    [O_BACKEND] = {"--backend", "B", "ask: the hardware (required): gpu, gpu:N, model:PROFILE"},
    [O_SEED] = {"--seed", "S", "export: the pool's seed (default 0x5eedec1de)"},
    [O_COUNT] = {"--count", "PER_FAMILY", "export: hunt elements per family in the pool (default 512)", 1, 65536},
    [O_MUTATIONS] = {"--mutations", "M", "export: mutated inputs tried per pair the pool leaves open (default 2000)",
                     1, 1000000},
    [O_THREADS] = {"--threads", "T", "export: instructions searched at once (default: every CPU)", 1, 1024},
    [O_FORCE] = {"--force", NULL, "replace the files of an earlier run in --out"},
    [O_PAIRS] = {"--pairs", NULL, "infer: every alternative of every field: the input that excludes it with the "
                                  "profile's, the alternative's and the hardware's answers there, or why none"},
};
const cli_command cmd_decide_cli = {
    "decide", "a deciding input for every pair of a field's values; what the hardware's answers decide",
    "export|ask|infer",
    "  decide export --profile P [--instr L] --out DIR [--seed S] [--count N] [--mutations M] [--threads T]\n"
    "  decide ask --backend B --in DIR/decide.jsonl [--profile P] --out DIR2\n"
    "  decide infer --in DIR2/decide.jsonl [--profile P] [--compare P2] [--out DIR3] [--pairs]\n"
    "ask exits 1 when the backend answers an input otherwise than the model (DIR2/hunt.jsonl lists them:\n"
    "give it to audit --counterexamples); infer exits 1 when the profile misses an answer.",
    opts, CLI_NOPTS(opts), false};

static int parse_args(int argc, char **argv, decide_args *a)
{
    *a = (decide_args){.instr = "all", .seed = 0x5eedec1deull, .per_family = 512, .mutations = 2000};
    cli_scan sc = cli_scan_start(&cmd_decide_cli, argc, argv);
    while (cli_next(&sc)) {
        if (sc.opt == CLI_OPERAND) {
            if (a->mode)
                return cli_fail(CMD, "one mode only ('%s' after '%s')", sc.val, a->mode);
            a->mode = sc.val;
            continue;
        }
        switch ((decide_opt)sc.opt) {
        case O_INSTR: a->instr = sc.val; break;
        case O_PROFILE: a->profile = sc.val; break;
        case O_COMPARE: a->compare = sc.val; break;
        case O_OUT: a->out = sc.val; break;
        case O_IN: a->in = sc.val; break;
        case O_BACKEND: a->backend = sc.val; break;
        case O_SEED:
            if (!cli_seed(CMD, "--seed", sc.val, &a->seed))
                return TC_EXIT_USAGE;
            break;
        case O_COUNT: a->per_family = sc.count; break;
        case O_MUTATIONS: a->mutations = sc.count; break;
        case O_THREADS: a->threads = sc.count; break;
        case O_FORCE: a->force = true; break;
        case O_PAIRS: a->pairs = true; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (!a->mode)
        return cli_fail(CMD, "needs a mode: export, ask or infer");
    return cli_list_check(CMD, "--instr", a->instr, true);
}

static int load_profile(const char *name, model_profile *p)
{
    char path[1100], err[512];
    if (!tc_profile_path(name, path, sizeof path))
        return cli_fail(CMD, "unknown profile '%s' (not a file, not under oracle/profiles/)", name);
    if (profile_load(path, p, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    return TC_EXIT_OK;
}

/* ---- export ---- */

typedef struct {
    const tc_instr **list;
    const model_params **v;
    size_t n, next, finished;   /* next and finished under mu */
    decide_opts o;
    decide_set *sets;
    int *rc;
    double *secs;
    char (*err)[256];
    pthread_mutex_t mu;
} export_job;

static void *export_worker(void *p)
{
    export_job *j = p;
    for (;;) {
        pthread_mutex_lock(&j->mu);
        size_t i = j->next++;
        pthread_mutex_unlock(&j->mu);
        if (i >= j->n)
            return NULL;
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        j->rc[i] = decide_build(j->list[i], j->v[i], &j->o, &j->sets[i], j->err[i], sizeof j->err[i]);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        j->secs[i] = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        pthread_mutex_lock(&j->mu);
        j->finished++;
        pthread_mutex_unlock(&j->mu);
    }
}

/* The instructions searched, counted while the workers run (minutes for a
 * whole profile): a bar on a terminal, plain lines in a log. */
static void export_progress(export_job *j)
{
    tc_progress prog;
    tc_progress_start(&prog, "decide export", j->n);
    for (size_t done = 0; done < j->n;) {
        struct timespec nap = {0, 200 * 1000 * 1000};
        nanosleep(&nap, NULL);
        pthread_mutex_lock(&j->mu);
        done = j->finished;
        pthread_mutex_unlock(&j->mu);
        tc_progress_update(&prog, done);
    }
    tc_progress_end(&prog);
}

static int export_run(const decide_args *a, const model_profile *prof)
{
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    export_job j = {.o = {a->seed, (size_t)a->per_family, (size_t)a->mutations}};
    j.list = calloc(count, sizeof *j.list);
    j.v = calloc(count, sizeof *j.v);
    j.sets = calloc(count, sizeof *j.sets);
    j.rc = calloc(count, sizeof *j.rc);
    j.secs = calloc(count, sizeof *j.secs);
    j.err = calloc(count, sizeof *j.err);
    int status = TC_EXIT_OK;
    if (!j.list || !j.v || !j.sets || !j.rc || !j.secs || !j.err)
        status = cli_fail(CMD, "out of memory");
    for (size_t i = 0; status == TC_EXIT_OK && i < count; i++) {
        const model_params *p = profile_lookup(prof, cat[i].name);
        if (!cli_instr_selected(a->instr, cat[i].name))
            continue;
        if (!p) { /* named: the export would silently lack it */
            if (strcmp(a->instr, "all"))
                status = cli_fail(CMD, "%s: no entry in profile %s", cat[i].name, a->profile);
            continue;
        }
        j.list[j.n] = &cat[i];
        j.v[j.n++] = p;
    }
    unsigned nt = a->threads ? (unsigned)a->threads : tc_pool_cpus();
    nt = nt > j.n ? (unsigned)j.n : nt;
    pthread_t th[1024];
    unsigned started = 0;
    pthread_mutex_init(&j.mu, NULL);
    json_decref(json_object()); /* jansson's hash seed, once, before any thread */
    for (; status == TC_EXIT_OK && started < nt; started++)
        if (pthread_create(&th[started], NULL, export_worker, &j))
            break;
    if (status == TC_EXIT_OK && started == 0 && j.n)
        status = cli_fail(CMD, "cannot start a thread");
    if (started)
        export_progress(&j);
    for (unsigned t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_destroy(&j.mu);
    uint64_t seeds[1] = {a->seed};
    json_t *hdr = cli_record_header("decide", NULL, seeds, 1);
    json_object_set_new(hdr, "profile", json_string(a->profile));
    tc_record rec = tc_record_new(hdr);
    size_t inputs = 0, pairs = 0, open = 0, equivalent = 0;
    printf("# tcscope decide export: profile %s, pool seed 0x%llx, %llu per hunt family, %llu mutations per open pair\n",
           a->profile, (unsigned long long)a->seed, a->per_family, a->mutations);
    for (size_t i = 0; i < j.n && status == TC_EXIT_OK; i++) {
        char err[512];
        if (j.rc[i]) {
            status = cli_fail(CMD, "%s", j.err[i]);
            break;
        }
        decide_set *s = &j.sets[i];
        size_t eq = 0;
        for (size_t q = 0; q < s->nopen; q++)
            eq += s->open[q].equivalent;
        printf("%-44s pool %6zu  pairs %4zu  inputs %4zu (%zu mutated)  proven equivalent %3zu  open %3zu  %.1f s\n",
               s->ins->name, s->pool, s->pairs, s->ninputs, s->ninputs - s->npool, eq, s->nopen - eq, j.secs[i]);
        inputs += s->ninputs, pairs += s->pairs, open += s->nopen - eq, equivalent += eq;
        if (tc_record_add(&rec, tc_decide_object(s, NULL), err, sizeof err))
            status = cli_fail(CMD, "%s", err);
    }
    if (status == TC_EXIT_OK) {
        printf("# %zu instructions, %zu pairs, %zu separated by %zu inputs, %zu proven equivalent, %zu open "
               "(not separated within the budget)\n",
               j.n, pairs, pairs - open - equivalent, inputs, equivalent, open);
        status = decide_write_record(a->out, a->force, "decide.jsonl", &rec);
    }
    tc_record_free(&rec);
    for (size_t i = 0; j.sets && i < j.n; i++)
        decide_set_free(&j.sets[i]);
    free(j.list), free(j.v), free(j.sets), free(j.rc), free(j.secs), free(j.err);
    return status;
}

int cmd_decide(int argc, char **argv)
{
    decide_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != TC_EXIT_OK)
        return rc;
    bool exp = !strcmp(a.mode, "export"), ask = !strcmp(a.mode, "ask"), inf = !strcmp(a.mode, "infer");
    if (!exp && !ask && !inf)
        return cli_fail(CMD, "unknown mode '%s' (export, ask or infer)", a.mode);
    if (exp && (!a.profile || !a.out))
        return cli_fail(CMD, "export needs --profile P and --out DIR");
    if (ask && (!a.backend || !a.in || !a.out))
        return cli_fail(CMD, "ask needs --backend B, --in RECORD and --out DIR");
    if (inf && !a.in)
        return cli_fail(CMD, "infer needs --in RECORD");
    if (!ask && a.backend)
        return cli_fail(CMD, "--backend goes with ask only");
    if (!inf && (a.compare || a.pairs))
        return cli_fail(CMD, "--compare and --pairs go with infer only");
    model_profile prof, cmp;
    bool have_prof = false, have_cmp = false;
    if (a.profile) {
        if ((rc = load_profile(a.profile, &prof)) != TC_EXIT_OK)
            return rc;
        have_prof = true;
    }
    if (a.compare && (rc = load_profile(a.compare, &cmp)) == TC_EXIT_OK)
        have_cmp = true;
    tc_record in = {0};
    bool have_in = false;
    if (rc == TC_EXIT_OK && a.in && (rc = cli_record_of(CMD, "--in", a.in, "decide", &in)) == TC_EXIT_OK)
        have_in = true;
    if (rc == TC_EXIT_OK)
        rc = exp   ? export_run(&a, &prof)
             : ask ? decide_ask_run(&a, &in, have_prof ? &prof : NULL)
                   : decide_infer_run(&a, &in, have_prof ? &prof : NULL, have_cmp ? &cmp : NULL);
    if (have_in)
        tc_record_free(&in);
    if (have_prof)
        profile_free(&prof);
    if (have_cmp)
        profile_free(&cmp);
    return rc;
}
