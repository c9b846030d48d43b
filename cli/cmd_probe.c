/* tcscope probe export | infer: the framework-neutral GEMM probe
 * (cases/probe.h). export writes the inputs of a shape and format as .npy
 * with a manifest; the user computes each D = A @ B with the call probed;
 * infer reads the D's, says the structure and how many verify outputs it
 * predicts bit for bit, and writes a gemm record. */
#include <stdio.h>
#include <string.h>

#include "cases/probe.h"
#include "cli/cli.h"
#include "oracle/oracle.h"
#include "probes/probes.h"

#define CMD "probe"

typedef enum { O_M, O_N, O_K, O_FORMAT, O_SEED, O_OUT, O_FORCE, O_PROFILE, O_THREADS } probe_opt;
static const cli_option opts[] = {
    [O_M] = {"--m", "M", "export: rows of A and D", 16, 16384},
    [O_N] = {"--n", "N", "export: columns of B and D", 16, 16384},
    [O_K] = {"--k", "K", "export: the dot length, a multiple of 16", 16, 65536},
    [O_FORMAT] = {"--format", "F", "export: f16, bf16, f32, e4m3, e5m2 (FP8: per-tensor scales 1.0)"},
    [O_SEED] = {"--seed", "S", "export: seed of the verify inputs (default 1)"},
    [O_OUT] = {"--out", "PATH", "export: the folder to write (required); infer: the record to write"},
    [O_FORCE] = {"--force", NULL, "export: replace an earlier export in the folder (its D's and call.json removed)"},
    [O_PROFILE] = {"--profile", "P", "infer: the instruction models (default: the profile of the GPU DIR/call.json "
                                     "names, else h100)"},
    [O_THREADS] = {"--threads", "N", "infer: CPU threads, 0: one per core (default 0; 1 when many run at once)", 0,
                   1024},
};
const cli_command cmd_probe_cli = {
    "probe", "framework-neutral GEMM probe: export inputs as .npy, infer the structure from your D = A @ B",
    "export | infer DIR",
    "export --m M --n N --k K --format F [--seed S] --out DIR writes step_, runs_, verify_ A.npy and B.npy and "
    "manifest.json; compute D = A @ B for each product with the call you probe and save it as float32 "
    "PRODUCT_D.npy in DIR; then infer DIR.",
    opts, CLI_NOPTS(opts), false};

typedef struct {
    const char *verb, *dir, *format, *out, *profile;
    int m, n, k, threads, force;
    uint64_t seed;
} probe_args;

static int parse(int argc, char **argv, probe_args *a)
{
    memset(a, 0, sizeof *a);
    a->seed = 1;
    cli_scan sc = cli_scan_start(&cmd_probe_cli, argc, argv);
    while (cli_next(&sc)) {
        switch (sc.opt) {
        case CLI_OPERAND:
            if (!a->verb)
                a->verb = sc.val;
            else if (!a->dir)
                a->dir = sc.val;
            else
                return cli_fail(CMD, "too many operands (probe export | probe infer DIR)");
            break;
        case O_M: a->m = (int)sc.count; break;
        case O_N: a->n = (int)sc.count; break;
        case O_K: a->k = (int)sc.count; break;
        case O_FORMAT: a->format = sc.val; break;
        case O_SEED:
            if (!cli_seed(CMD, "--seed", sc.val, &a->seed))
                return TC_EXIT_USAGE;
            break;
        case O_OUT: a->out = sc.val; break;
        case O_FORCE: a->force = 1; break;
        case O_PROFILE: a->profile = sc.val; break;
        case O_THREADS: a->threads = (int)sc.count; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (!a->verb || (strcmp(a->verb, "export") && strcmp(a->verb, "infer")))
        return cli_fail(CMD, "say export or infer (probe export --m M --n N --k K --format F --out DIR; probe "
                             "infer DIR)");
    return -1;
}

static int do_export(const probe_args *a)
{
    if (a->dir)
        return cli_fail(CMD, "export takes no operand (the folder is --out DIR)");
    if (!a->m || !a->n || !a->k || !a->format || !a->out)
        return cli_fail(CMD, "export needs --m, --n, --k, --format and --out");
    char err[600];
    if (tc_probe_export_dir(a->out, a->m, a->n, a->k, a->format, a->seed, a->force, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    printf("probe: %s: %dx%dx%d %s, seed %llu: for each of step, runs, verify compute D = A @ B from "
           "PRODUCT_A.npy, PRODUCT_B.npy and save it as float32 PRODUCT_D.npy there; then tcscope probe infer %s\n",
           a->out, a->m, a->n, a->k, a->format, (unsigned long long)a->seed, a->out);
    return TC_EXIT_OK;
}

static int do_infer(const probe_args *a)
{
    if (!a->dir)
        return cli_fail(CMD, "infer needs the folder (probe infer DIR)");
    if (a->m || a->n || a->k || a->format)
        return cli_fail(CMD, "infer reads the shape and format from DIR/manifest.json (no --m/--n/--k/--format)");
    char ppath[4096], err[600], summary[1024];
    oracle_set_threads(a->threads);
    if (a->profile && !tc_profile_path(a->profile, ppath, sizeof ppath))
        return cli_fail(CMD, "profile '%s' not found", a->profile);
    int rc = tc_probe_infer_dir(a->dir, a->profile ? ppath : NULL, a->out, summary, sizeof summary, err, sizeof err);
    if (rc < 0)
        return cli_fail(CMD, "%s", err);
    printf("%s\n", summary);
    return rc ? TC_EXIT_DIFF : TC_EXIT_OK;
}

int cmd_probe(int argc, char **argv)
{
    probe_args a;
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    return !strcmp(a.verb, "export") ? do_export(&a) : do_infer(&a);
}
