/* tcscope verify: the model with a profile against a backend, bit for bit.
 * Exit 0 when every element matches, 1 on any mismatch, 2 on bad input.
 * Several instructions (--instr A,B,..) share one backend and one model
 * (one CUDA context): each prints what it would alone, its own record
 * under --json; an error stops the list (what was printed stands). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "cases/verify.h"
#include "cli/cli.h"
#include "cli/hunt_on.h"
#include "cli/model_on.h"
#include "cli/pool.h"
#include "cli/run_info.h"
#include "reports/reports.h"
#include "reports/render.h"
#include "oracle/profile.h"
#include "probes/probes.h"

/* A profile given by path, or by name in the data beside the binary. */
static int load_profile(const char *spec, model_profile *p, char *err, size_t errlen)
{
    char path[4096];
    if (tc_profile_path(spec, path, sizeof path))
        return profile_load(path, p, err, errlen);
    snprintf(err, errlen, "unknown profile '%s' (not a file, not under oracle/profiles/)", spec);
    return -1;
}

/* Whether backend is model:Q with the same arithmetic for ins as params:
 * the model checked against itself, which proves nothing about hardware. */
static bool is_self_check(const char *backend, const char *instr, const model_params *params)
{
    model_profile q;
    char err[512];
    if (strncmp(backend, "model:", 6) || load_profile(backend + 6, &q, err, sizeof err))
        return false;
    const model_params *p = profile_lookup(&q, instr);
    const char *first;
    bool same = p && model_params_diff(p, params, &first) == 0;
    profile_free(&q);
    return same;
}

static void hex_of(const tc_format *f, uint64_t bits, char *buf, size_t len)
{
    tc_value_to_hex(tc_decode(f, bits, false), buf, len);
}

static json_t *bits_array(const tc_format *f, const uint64_t *x, int k, bool values)
{
    json_t *a = json_array();
    for (int i = 0; i < k; i++) {
        char buf[64];
        if (values)
            hex_of(f, x[i], buf, sizeof buf);
        else
            snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)x[i]);
        json_array_append_new(a, json_string(buf));
    }
    return a;
}

static void print_failure_text(const tc_instr *ins, const verify_failure *f, size_t i)
{
    char v[64];
    printf("  failure %zu (%s, %d nonzero terms):\n", i + 1, f->dist, f->nonzero_terms);
    for (int q = 0; q < f->c.k; q++) {
        if (tc_classify(ins->a, f->c.a[q]) == TC_ZERO && tc_classify(ins->b, f->c.b[q]) == TC_ZERO)
            continue;
        char va[64], vb[64];
        hex_of(ins->a, f->c.a[q], va, sizeof va);
        hex_of(ins->b, f->c.b[q], vb, sizeof vb);
        printf("    a[%d] = 0x%llx (%s)  b[%d] = 0x%llx (%s)\n", q, (unsigned long long)f->c.a[q], va, q,
               (unsigned long long)f->c.b[q], vb);
    }
    hex_of(ins->c, f->c.c, v, sizeof v);
    printf("    c = 0x%llx (%s)\n", (unsigned long long)f->c.c, v);
    hex_of(ins->d, f->c.d, v, sizeof v);
    printf("    backend d = 0x%llx (%s)\n", (unsigned long long)f->c.d, v);
    hex_of(ins->d, f->model_d, v, sizeof v);
    printf("    model   d = 0x%llx (%s)\n", (unsigned long long)f->model_d, v);
}

static json_t *failure_json(const tc_instr *ins, const verify_failure *f, size_t i)
{
    char c[64], dv[64], mv[64], cb[32], db[32], mb[32];
    hex_of(ins->c, f->c.c, c, sizeof c);
    hex_of(ins->d, f->c.d, dv, sizeof dv);
    hex_of(ins->d, f->model_d, mv, sizeof mv);
    snprintf(cb, sizeof cb, "0x%llx", (unsigned long long)f->c.c);
    snprintf(db, sizeof db, "0x%llx", (unsigned long long)f->c.d);
    snprintf(mb, sizeof mb, "0x%llx", (unsigned long long)f->model_d);
    return json_pack("{s:s, s:I, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:s, s:s, s:s, s:s, s:s, s:s}",
                     "instr", ins->name, "failure", (json_int_t)(i + 1), "dist", f->dist, "k", f->c.k,
                     "nonzero_terms", f->nonzero_terms, "a", bits_array(ins->a, f->c.a, f->c.k, false),
                     "a_values", bits_array(ins->a, f->c.a, f->c.k, true), "b",
                     bits_array(ins->b, f->c.b, f->c.k, false), "b_values",
                     bits_array(ins->b, f->c.b, f->c.k, true), "c", cb, "c_value", c, "d_backend", db,
                     "d_backend_value", dv, "d_model", mb, "d_model_value", mv);
}

typedef enum { O_BACKEND, O_PROFILE, O_MODEL_ON, O_INSTR, O_N, O_HUNT_N, O_SEED, O_JSON, O_OLD_N, O_OLD_HUNT_N } verify_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "the hardware (required): gpu, gpu:N, model:PROFILE or exact"},
    [O_PROFILE] = {"--profile", "P", "the model's profile (required): a name under oracle/profiles or a file"},
    [O_MODEL_ON] = {"--model-on", "gpu[:N]|cpu", "what computes the model's answers to the random and hunt tiles: "
                                                "the GPU model (the default where a GPU is present) or the CPU's"},
    [O_INSTR] = {"--instr", "NAME[,NAME..]", "the instruction (required; tcscope list); several: each in turn "
                                             "on one backend, one record each under --json"},
    [O_N] = {"--count", "COUNT", "random elements compared (default 1e6)", 1, VERIFY_MAX_N},
    [O_HUNT_N] = {"--hunt-count", "PER_FAMILY", "elements per hunt family (default COUNT / 16)", 0, 100000000ull},
    [O_SEED] = {"--seed", "S", "random seed (default 0)"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: the verify object, then one verify_failure per failure"},
    [O_OLD_N] = {CLI_ALIAS("--n", "--count")},
    [O_OLD_HUNT_N] = {CLI_ALIAS("--hunt-n", "--hunt-count")},
};
const cli_command cmd_verify_cli = {"verify", "the model with a profile against a backend, bit for bit", NULL,
                                    "Exit 1 on any mismatch.", opts, CLI_NOPTS(opts), false};

/* The bar's count: elements compared so far (verify_run reports each batch). */
typedef struct {
    tc_progress bar;
    size_t done;
} verify_progress;

static void progress_cb(void *ctx, size_t elements)
{
    verify_progress *p = ctx;
    tc_progress_update(&p->bar, p->done += elements);
}

/* What every instruction of one run shares. */
typedef struct {
    const char *backend, *profile;
    bool json;
    size_t n, n_hunt;
    uint64_t seed;
    tc_backend *be;
    cli_model_on *mo;
    cli_hunt_on *ho;   /* the hunt families on the GPU path where it runs (cli/hunt_on.h) */
} verify_job;

/* One instruction verified and printed (text, or its own record under
 * --json): TC_EXIT_OK, TC_EXIT_DIFF, or TC_EXIT_USAGE after a message. */
static int verify_one(const verify_job *j, const tc_instr *ins, const model_params *p)
{
    model_params params = *p;
    char err[512];
    /* the audit's target: a sparse instruction is verified on the K/2 terms it sums */
    audit_backend_ctx ctx = {j->be, ins};
    infer_target t = audit_target(&ctx, j->seed);
    cli_model_on_attach(j->mo, &t);
    j->ho->ins = ins;
    t.hunt_run = cli_hunt_on_run, t.hunt_ctx = j->ho;
    t.random_run = cli_random_on_run, t.random_ctx = j->ho;
    /* on a terminal: elements compared of those verify_run will compare (random tiles, at
     * least one per distribution; the hunt families' tiles where they apply), the time left */
    size_t tcn = (size_t)t.m * (size_t)t.n, rnd = j->n ? (j->n + tcn - 1) / tcn : 0;
    rnd = j->n && rnd < VERIFY_NDIST_RANDOM ? VERIFY_NDIST_RANDOM : rnd;
    size_t hunt = j->n_hunt && hunt_applies(&t) ? (j->n_hunt + tcn - 1) / tcn * HUNT_NFAMILIES : 0;
    verify_progress prog = {.done = 0};
    tc_progress_start(&prog.bar, "verify", (rnd + hunt) * tcn);
    t.progress = progress_cb, t.progress_ctx = &prog;
    verify_result r;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = verify_run(&t, &params, j->n, j->n_hunt, j->seed, &r, err, sizeof err);
    tc_progress_clear(&prog.bar);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    json_t *model_elements = cli_model_on_take(j->mo);
    if (rc) {
        json_decref(model_elements);
        return cli_fail("verify", "%s: %s", ins->name, err);
    }
    const tc_backend_info *info = tc_backend_get_info(j->be);
    const char *backend = j->backend, *profile = j->profile;
    cli_model_on *mo = j->mo;
    bool ok = r.mismatches == 0, self = is_self_check(backend, ins->name, &params);
    if (j->json) {
        uint64_t seeds[1] = {j->seed};
        tc_json_out out;
        json_t *hdr = cli_record_header("verify", info, seeds, 1);
        json_object_set_new(hdr, "profile", json_string(profile));
        json_object_set_new(hdr, "model_on", json_string(mo->name));
        tc_json_out_begin(&out, true, hdr);
        json_t *dists = json_object();
        for (int i = 0; i < VERIFY_NDIST; i++)
            json_object_set_new(dists, verify_dist_name(i),
                                json_pack("{s:I, s:I}", "n", (json_int_t)r.dist_n[i], "mismatches",
                                          (json_int_t)r.dist_mismatches[i]));
        json_t *v = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:b, s:o, s:o}", "instr", ins->name, "backend",
                              info->backend, "device", info->device, "profile", profile, "n", (json_int_t)r.n,
                              "mismatches", (json_int_t)r.mismatches, "verified", ok, "distributions", dists,
                              "model_elements", model_elements);
        if (verify_hunt_path(&r)) {   /* absent: the "family" stream on the host (every record before) */
            json_object_set_new(v, "hunt_draw", json_string("tile"));
            json_object_set_new(v, "hunt_path", json_string(verify_hunt_path(&r)));
        }
        if (verify_random_path(&r))   /* absent: the host's cores (every record before) */
            json_object_set_new(v, "random_path", json_string(verify_random_path(&r)));
        if (self)   /* the backend is the model with this very profile: nothing about hardware was checked */
            json_object_set_new(v, "self_check", json_true());
        tc_json_out_put(&out, "verify", v);
        for (size_t i = 0; i < r.nfails; i++)
            tc_json_out_put(&out, "verify_failure", failure_json(ins, &r.fails[i], i));
        tc_json_out_end(&out, NULL);
    } else {
        json_decref(model_elements);
        if (self)   /* not VERIFIED: no hardware answered */
            printf("%s on %s vs model profile %s: %zu elements, %zu mismatches: the model checked against itself "
                   "(%s and the profile give this instruction the same arithmetic), which proves nothing about any "
                   "GPU; give --backend gpu to verify hardware\n", ins->name, info->backend, profile, r.n,
                   r.mismatches, info->backend);
        else
            printf("%s on %s (%s) vs model profile %s on %s: %zu elements, %zu mismatches: %s\n", ins->name,
                   info->backend, info->device, profile, mo->name, r.n, r.mismatches, ok ? "VERIFIED" : "NOT VERIFIED");
        for (int i = 0; i < VERIFY_NDIST; i++)
            printf("  %-12s %10zu elements %8zu mismatches\n", verify_dist_name(i), r.dist_n[i],
                   r.dist_mismatches[i]);
        for (size_t i = 0; i < r.nfails; i++)
            print_failure_text(ins, &r.fails[i], i);
        if (verify_hunt_path(&r))
            printf("# hunt families: the tile stream, %s\n", r.hunt_host_draw ? "drawn on the host's cores (few "
                   "tiles), run through the backend and the model in rounds" : "on the GPU path (cases/hunt_gpu.h)");
        if (verify_random_path(&r))
            printf("# random tiles: on the GPU path (cases/hunt_gpu.h)\n");
        printf("# %zu elements in %.2f s (%.3g elements/s)\n", r.n, secs, secs > 0 ? (double)r.n / secs : 0.0);
        cli_model_on_stages(mo, r.stage_s, secs);
    }
    fflush(stdout);
    verify_result_free(&r);
    return ok ? TC_EXIT_OK : TC_EXIT_DIFF;
}

/* The instructions of --instr A,B,..: each in the catalogue and in the
 * profile, or TC_EXIT_USAGE after a message, before anything runs (as for
 * one). */
static int instr_list(const char *list, const model_profile *prof, const char *profile, const tc_instr ***ins,
                      const model_params ***params, size_t *n)
{
    int rc = cli_list_check("verify", "--instr", list, true);
    if (rc != TC_EXIT_OK)
        return rc;
    if (!strcmp(list, "all"))
        return cli_fail("verify", "--instr takes instruction names, not 'all' (tcscope list; audit checks all)");
    size_t cap = 1;
    for (const char *c = list; *c; c++)
        cap += *c == ',';
    *ins = calloc(cap, sizeof **ins);
    *params = calloc(cap, sizeof **params);
    if (!*ins || !*params)
        return cli_fail("verify", "out of memory");
    *n = 0;
    for (const char *c = list; c; c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL) {
        char name[160];
        snprintf(name, sizeof name, "%.*s", (int)(strchr(c, ',') ? (size_t)(strchr(c, ',') - c) : strlen(c)), c);
        const tc_instr *x = tc_instr_by_name(name);
        if (!x)   /* cli_list_check found every one: only a name cut short here */
            return cli_unknown_instr("verify", "--instr", name);
        const model_params *p = profile_lookup(prof, name);
        if (!p)
            return cli_fail("verify", "profile '%s' has no [instr %s] section", profile, name);
        (*ins)[*n] = x;
        (*params)[(*n)++] = p;
    }
    return TC_EXIT_OK;
}

int cmd_verify(int argc, char **argv)
{
    const char *backend = NULL, *profile = NULL, *instr = NULL, *model_on = NULL;
    bool json = false, hunt_given = false;
    size_t n = 1000000, n_hunt = 0;
    uint64_t seed = 0;
    cli_scan sc = cli_scan_start(&cmd_verify_cli, argc, argv);
    while (cli_next(&sc))
        switch ((verify_opt)sc.opt) {
        case O_BACKEND: backend = sc.val; break;
        case O_PROFILE: profile = sc.val; break;
        case O_MODEL_ON: model_on = sc.val; break;
        case O_INSTR: instr = sc.val; break;
        case O_N: n = (size_t)sc.count; break;
        case O_HUNT_N:
            n_hunt = (size_t)sc.count;
            hunt_given = true;
            break;
        case O_SEED:
            if (!cli_seed("verify", "--seed", sc.val, &seed))
                return TC_EXIT_USAGE;
            break;
        case O_JSON: json = true; break;
        case O_OLD_N: case O_OLD_HUNT_N: break;   /* old spellings: cli_next answers as the new ones */
        }
    if (sc.status)
        return sc.status;
    if (!backend || !profile || !instr)
        return cli_fail("verify", "needs --backend B --profile P --instr NAME");
    if (!hunt_given)
        n_hunt = n / 16;   /* elements per hunt family (cases/hunt.h) */
    if (!strchr(instr, ',') && strcmp(instr, "all") && !tc_instr_by_name(instr))
        return cli_unknown_instr("verify", "--instr", instr);
    char err[512], why[256];
    model_profile prof;
    if (load_profile(profile, &prof, err, sizeof err))
        return cli_fail("verify", "%s", err);
    const tc_instr **ins = NULL;
    const model_params **params = NULL;
    size_t count = 0;
    int rc = instr_list(instr, &prof, profile, &ins, &params, &count);
    tc_backend *be = NULL;
    if (rc == TC_EXIT_OK && !(be = cli_backend_open("verify", backend, NULL)))   /* the no-GPU message of every command */
        rc = TC_EXIT_USAGE;
    for (size_t i = 0; rc == TC_EXIT_OK && i < count; i++)
        if (!tc_backend_supports(be, ins[i], why, sizeof why))
            rc = cli_fail("verify", "%s", why);
    cli_model_on mo = {.gpu = NULL};
    if (rc == TC_EXIT_OK)
        rc = cli_model_on_open("verify", model_on, backend, &mo);
    /* one backend and one model for every instruction: a list costs one
     * CUDA context, not one each (regress hands each child a slice) */
    cli_hunt_on ho = {.h = NULL};
    if (rc == TC_EXIT_OK)
        cli_hunt_on_open(&ho, be, &mo);
    /* started early by regress (its timing then had the GPU alone): the
     * context and the model are made; nothing runs until the gate opens */
    if (rc == TC_EXIT_OK)
        tc_pool_gate_pass();
    verify_job j = {backend, profile, json, n, n_hunt, seed, be, &mo, &ho};
    bool differ = false;
    for (size_t i = 0; rc == TC_EXIT_OK && i < count; i++) {
        int one = verify_one(&j, ins[i], params[i]);
        differ |= one == TC_EXIT_DIFF;
        rc = one == TC_EXIT_DIFF ? TC_EXIT_OK : one;   /* an error stops the list: later ones say nothing */
    }
    cli_hunt_on_close(&ho);
    cli_model_on_close(&mo);
    free(ins), free(params);
    profile_free(&prof);
    if (be)
        tc_backend_close(be);
    return rc != TC_EXIT_OK ? rc : differ ? TC_EXIT_DIFF : TC_EXIT_OK;
}
