/* tcscope audit: fingerprint + proof + features + timing for each instruction,
 * written as a record, a profile, and Markdown/HTML reports. This file reads
 * the options and picks the instructions; the work is in cli/audit_run.c (in
 * this process), cli/audit_jobs.c (--jobs), cli/audit_rows.c (recorded rows),
 * cli/audit_timing.c and cli/audit_outputs.c (the folder, --merge). */
#include <signal.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases/audit.h"
#include "cli/audit.h"
#include "cli/audit_rows.h"
#include "probes/dots.h"
#include "cli/cli.h"
#include "cli/model_on.h"
#include "cli/record_arg.h"
#include "cli/fleet.h"
#include "cli/pool.h"
#include "reports/reports.h"


typedef enum { O_BACKEND, O_INSTR, O_OUT, O_PROFILE_NAME, O_TIMING, O_MERGE, O_RENDER, O_COUNTEREXAMPLES, O_SHARD, O_N,
               O_PREFER, O_HUNT_N, O_SEED, O_JSON, O_NO_TIMING, O_NO_CASES, O_FORCE, O_JOBS, O_RESUME, O_PART,
               O_SLICE, O_ARCH, O_MODEL_ON, O_OLD_N, O_OLD_HUNT_N } audit_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "gpu, gpu:N, model:PROFILE, exact or corpus:PATH (recorded rows: fitted, cli/audit_rows.c) (default: the GPU, else " CLI_RECORDED_MODEL "); gpu:all or gpu:I,J,..: one worker per GPU, the instructions shared out, merged (OUT/fleet.json)"},
    [O_INSTR] = {"--instr", "NAME[,NAME..]|all", "the instructions audited (default all)"},
    [O_OUT] = {"--out", "DIR", "the output folder (default out/audit)"},
    [O_PROFILE_NAME] = {"--profile-name", "NAME", "the name of the profile written (a plain file name)"},
    [O_TIMING] = {"--timing", "BENCH.json", "attach this bench record's timing instead of measuring"},
    [O_MERGE] = {"--merge", "DIR,DIR..", "merge these audit output folders (--shard runs) into --out: nothing is run; "
                                         "two different results for one instruction are refused"},
    [O_PREFER] = {"--prefer", "DIR", "with --merge: where two folders differ on an instruction, take DIR's result"},
    [O_RENDER] = {"--render", "REC", "the Markdown/HTML report of a recorded audit (REC.jsonl[.gz]) into --out: nothing is run"},
    [O_COUNTEREXAMPLES] = {"--counterexamples", "HUNT.jsonl", "a hunt record whose failures join the fits "
                                                             "(re-asked on the backend)"},
    [O_SHARD] = {"--shard", "I/N", "audit every N-th instruction from the I-th (0 <= I < N)"},
    [O_N] = {"--count", "COUNT", "random elements in the proof (default 1e6 on a GPU, 1e5 on the recorded model)", 1,
             AUDIT_MAX_N},
    [O_HUNT_N] = {"--hunt-count", "PER_FAMILY", "elements per hunt family in the proof (default COUNT / 16)", 1,
                  100000000ull},
    [O_SEED] = {"--seed", "S", "random seed (default 0x7c5c09e)"},
    [O_JSON] = {"--json", NULL, "print the record instead of the text: header, one object per instruction (its answers only in OUT/audit.jsonl), trailer"},
    [O_NO_TIMING] = {"--no-timing", NULL, "no timing (neither measured nor the recorded bench)"},
    [O_NO_CASES] = {"--no-cases", NULL, "leave every inference case's answer out of the record"},
    [O_FORCE] = {"--force", NULL, "replace an earlier audit in --out DIR"},
    [O_JOBS] = {"--jobs", "J", "child processes, each auditing its share of the instructions (default: one per CPU; "
                               "1: all in this process)", 1, 1024},
    [O_RESUME] = {"--resume", NULL, "keep the parts (DIR/parts/NAME) an earlier run of the same command finished; "
                                    "run the others"},
    [O_PART] = {"--part", NULL, "internal: one child of --jobs (its record and profile, no reports)"},
    [O_SLICE] = {"--slice", NULL, "internal: with --part, each instruction its own part, DIR/NAME"},
    [O_ARCH] = {"--arch", "sm_XX", "a model backend keeps to this architecture's instructions (sm_70 ... sm_120a, "
                                   "probes/isa/arch/; the profile's arithmetic still); one it lacks is refused (exit 2)"},
    [O_MODEL_ON] = {"--model-on", "gpu[:N]|cpu", "what computes the proof's expected answers: the GPU model (the "
                                                "default where a GPU is present; on the backend's GPU) or the CPU's"},
    [O_OLD_N] = {CLI_ALIAS("--n", "--count")},
    [O_OLD_HUNT_N] = {CLI_ALIAS("--hunt-n", "--hunt-count")},
};
const cli_command cmd_audit_cli = {"audit", "fingerprint, proof, features and timing of each instruction: "
                                            "a record, a profile, Markdown and HTML reports",
                                   NULL, NULL, opts, CLI_NOPTS(opts), false};

static int parse_args(int argc, char **argv, audit_args *a)
{
    *a = (audit_args){.instr = "all", .out = "out/audit", .seed = 0x7c5c09e, .nshards = 1, .timing = true,
                      .keep_cases = true};
    cli_scan sc = cli_scan_start(&cmd_audit_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        switch ((audit_opt)sc.opt) {
        case O_BACKEND: a->backend = v; break;
        case O_ARCH: a->arch = v; break;
        case O_INSTR: a->instr = v; break;
        case O_OUT: a->out = v; break;
        case O_PROFILE_NAME: {
            char why[160];
            if (!tc_out_name_ok(v, why, sizeof why))
                return cli_fail("audit", "bad --profile-name: %s", why);
            a->profile_name = v;
            break;
        }
        case O_TIMING: a->timing_file = v; break;
        case O_MERGE: a->merge = v; break;
        case O_PREFER: a->prefer = v; break;
        case O_RENDER: a->render = v; break;
        case O_COUNTEREXAMPLES: a->given_file = v; break;
        case O_SHARD:
            if (!cli_index_of("audit", "--shard", v, 1000000, &a->shard, &a->nshards))
                return TC_EXIT_USAGE;
            break;
        case O_N: a->n = (size_t)sc.count; break;
        case O_HUNT_N: a->hunt_n = (size_t)sc.count; break;
        case O_SEED:
            if (!cli_seed("audit", "--seed", v, &a->seed))
                return TC_EXIT_USAGE;
            break;
        case O_JSON: a->json = true; break;
        case O_NO_TIMING: a->timing = false; break;
        case O_NO_CASES: a->keep_cases = false; break;
        case O_FORCE: a->force = true; break;
        case O_JOBS: a->jobs = (unsigned)sc.count; break;
        case O_RESUME: a->resume = a->force = true; break; /* the top-level outputs are rebuilt from the parts */
        case O_PART: a->part = true, a->jobs = 1; break;
        case O_SLICE: a->slice = true; break;
        case O_MODEL_ON: a->model_on = v; break;
        case O_OLD_N: case O_OLD_HUNT_N: break;   /* old spellings: cli_next answers as the new ones */
        }
    }
    if (sc.status)
        return sc.status;
    if (a->slice && !a->part)
        return cli_fail("audit", "--slice goes with --part only (both are --jobs's, internal)");
    if (cli_model_on_check("audit", a->model_on) != TC_EXIT_OK)
        return TC_EXIT_USAGE;
    if (cli_list_check("audit", "--instr", a->instr, true) || (a->merge && cli_list_check("audit", "--merge", a->merge, false)))
        return TC_EXIT_USAGE;
    return TC_EXIT_OK;
}

/* The GPU when there is one; else the recorded model, said loudly (cli/backend_rule.c). */
static tc_backend *open_backend(const audit_args *a, bool *is_model_fallback)
{
    return cli_backend_open("audit", a->backend, is_model_fallback);
}

static size_t select_instrs(tc_backend *be, const audit_args *a, const tc_instr ***out)
{
    const char *name = a->instr;
    size_t count;
    const tc_instr *cat = tc_catalogue(&count);
    const tc_instr **list = calloc(count + 1, sizeof *list);
    size_t n = 0, nunsupported = 0;
    bool refused = false;
    char why[256];
    for (size_t i = 0; list && i < count; i++) {
        if (!cli_instr_selected(name, cat[i].name))
            continue;
        if (i % a->nshards != a->shard)
            continue;
        if (tc_backend_supports(be, &cat[i], why, sizeof why))
            list[n++] = &cat[i];
        else if (strcmp(name, "all")) /* named: a partial audit would pass for the whole */
            refused = true, cli_fail("audit", "%s", why);
        else
            nunsupported++;
    }
    if (nunsupported && a->arch)
        fprintf(stderr, "tcscope audit: %zu instructions left out: not on %s (--arch), or not available on %s\n",
                nunsupported, a->arch, tc_backend_get_info(be)->backend);
    else if (nunsupported)
        fprintf(stderr, "tcscope audit: %zu instructions not available on %s (e.g. no verified "
                        "profile entry, or no kernel built)\n",
                nunsupported, tc_backend_get_info(be)->backend);
    *out = list;
    return refused ? 0 : n;
}

/* --counterexamples: a record (a hunt's) whose failures are checked for
 * every selected instruction before anything runs. */
static int load_given(const char *path, const tc_instr **list, size_t n, tc_record *rec)
{
    char err[512];
    if (cli_record_of("audit", "--counterexamples", path, "hunt", rec))
        return TC_EXIT_USAGE;
    bool any = false;   /* a hunt of other instructions would add nothing, silently */
    for (size_t i = 0; i < n && !any; i++) {
        size_t j;
        json_t *o;
        json_array_foreach(rec->objects, j, o) any = any || !strcmp(cli_str(o, "instr"), list[i]->name);
    }
    if (!any) {
        cli_fail("audit", "--counterexamples %s: no hunt of an audited instruction in it (it holds %s%s)", path,
                 cli_str(json_array_get(rec->objects, 0), "instr"), json_array_size(rec->objects) > 1 ? ", .." : "");
        tc_record_free(rec);
        return TC_EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++) {
        infer_case *g;
        size_t ng;
        if (audit_given_cases(rec->objects, list[i], &g, &ng, err, sizeof err) != 0) {
            tc_record_free(rec);
            return cli_fail("audit", "--counterexamples %s: %s", path, err);
        }
        audit_cases_free(g, ng);
    }
    return TC_EXIT_OK;
}

int cmd_audit(int argc, char **argv)
{
    audit_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc != TC_EXIT_OK)
        return rc;
    if (a.render)
        return cli_render_record("audit", a.render, a.out, a.force);
    if (cli_fleet_spec(a.backend)) { /* every GPU of the node, the catalogue shared out (cli/fleet.h) */
        char path[4300];
        snprintf(path, sizeof path, "%s/audit.jsonl", a.out);
        if (a.merge || a.part || a.nshards > 1)
            return cli_fail("audit", "--backend %s does not go with --merge, --part or --shard", a.backend);
        if (!a.force && !a.resume && access(path, F_OK) == 0)
            return cli_fail("audit", "%s exists: --force replaces it, --resume keeps it", path);
        if (!a.force && !a.resume && (rc = cli_fleet_unfinished("audit", a.out)) != TC_EXIT_OK)
            return rc;   /* the workers get --resume or --force as given (cli/fleet.c) */
        cli_fleet_job j = {"audit", argc, argv, a.backend, a.out, a.instr, true, false, 0};
        return cli_fleet_run(&j);
    }
    if (a.merge)
        return audit_merge(&a, argc, argv);
    if (a.part) /* a child of --jobs ends with its parent (a killed run keeps the finished parts only) */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
    bool fallback;
    tc_backend *be = open_backend(&a, &fallback);
    if (!be)
        return TC_EXIT_USAGE;
    if (cli_backend_arch("audit", be, a.arch)) { /* the list below keeps to it; the children need no --arch */
        tc_backend_close(be);
        return TC_EXIT_USAGE;
    }
    if (tc_dots_of_backend(be, &(size_t){0})) { /* recorded rows: a fixed set, fitted (cli/audit_rows.h) */
        rc = audit_rows(&a, be);
        tc_backend_close(be);
        return rc;
    }
    const tc_backend_info *info = tc_backend_get_info(be);
    /* The proof needs 10^6 elements on hardware; replaying the recorded model
     * on a laptop proves nothing new, so it runs a tenth of that by default. */
    if (a.n == 0)
        a.n = fallback ? 100000 : 1000000;
    const tc_instr **list;
    size_t n = select_instrs(be, &a, &list);
    if (n == 0) {
        cli_fail("audit", "no instruction to audit ('%s' on %s)", a.instr, info->backend);
        free(list);
        tc_backend_close(be);
        return TC_EXIT_USAGE;
    }
    tc_record given_rec = {NULL, NULL};
    if (a.given_file && load_given(a.given_file, list, n, &given_rec) != TC_EXIT_OK) {
        free(list);
        tc_backend_close(be);
        return TC_EXIT_USAGE;
    }
    if (n > 1 && !a.part && (a.jobs ? a.jobs : tc_pool_cpus()) > 1) {
        tc_outdir d;
        rc = audit_begin_outputs(&a, &d, argc, argv);
        if (rc == TC_EXIT_OK)
            rc = audit_run_jobs(&a, info, fallback, list, n, &d);
        if (fallback)
            cli_warn("audit", "reminder: this was the recorded model, not a GPU.");
    } else if (a.slice)
        rc = audit_run_slice(&a, be, fallback, list, n, &given_rec, argc, argv);
    else
        rc = audit_run_here(&a, be, fallback, list, n, &given_rec, argc, argv);
    if (given_rec.header)
        tc_record_free(&given_rec);
    free(list);
    tc_backend_close(be);
    return rc;
}
