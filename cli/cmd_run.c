/* tcscope run: one element D[0][0] = sum a[k]*b[k] + c of one instruction on
 * one backend, against the exact oracle.
 *
 * The recording jobs are tcscope record's (cli/cmd_record.c); run keeps
 * them as aliases, for the scripts that use them, through the same job
 * (cli/record.h), so they write the same bytes: --random N is record
 * corpus --count N, --random N --chain LEN record chains --count N --len LEN, and
 * --check-layout record layout.
 *
 * Its options and their ranges are the table below (tcscope run --help).
 * N is 1..10^6 (corpus elements, or chains); LEN 1..10^6, and a chain line
 * holds at most 2^27 elements (probes/backend_corpus.h), checked for every
 * instruction before any runs; S is 0..2^64-1 (cli/args.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <mpfr.h>

#include "cli/cli.h"
#include "cli/run_info.h"
#include "cli/fleet.h"
#include "cli/record.h"
#include "oracle/oracle.h"
#include "oracle/value.h"
#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "reports/reports.h"

#define CMD "run"
#define MAX_K 4096

typedef struct {
    const char *backend, *instr, *a, *b, *c;
    bool json, check_layout;
    tc_json_out *out; /* the --json record (SCHEMA.md "Command output") */
    long long random;  /* the aliases of record (cli/record.h): corpus elements, or chains */
    uint64_t seed;
    int chain;         /* steps per chain, 0: no chains */
    tc_rounding cvt;   /* D -> A between chain steps */
    bool cvt_given;
} run_opts;

/* "v,v,v" into bits of f, each held exactly by f; n receives the count. */
static int parse_list(const char *what, const char *text, const tc_format *f, int kmax, uint64_t *out, int *n)
{
    char *copy = strdup(text), *rest = copy, *tok;
    if (!copy)
        return cli_fail(CMD, "out of memory");
    int count = 0, rc = TC_EXIT_OK;
    if (!*copy)
        rc = cli_fail(CMD, "--%s: no values", what);
    /* strsep, not strtok: "1,", ",1" and "1,,2" hold an empty value to report */
    while (rc == TC_EXIT_OK && (tok = strsep(&rest, ",")) != NULL) {
        if (!*tok) {
            rc = cli_fail(CMD, "--%s: empty value in '%s'", what, text);
            break;
        }
        if (count >= kmax) {
            rc = cli_fail(CMD, "--%s: more than k = %d values", what, kmax);
            break;
        }
        char err[256];
        if (!tc_value_parse_exact(tok, f, &out[count], err, sizeof err)) {
            rc = cli_fail(CMD, "--%s: %s", what, err);
            break;
        }
        count++;
    }
    free(copy);
    *n = count;
    return rc;
}

static void hex_bits(uint64_t v, const tc_format *f, char *buf, size_t len)
{
    snprintf(buf, len, "0x%0*llx", (f->storage_bits + 3) / 4, (unsigned long long)v);
}

/* An exact MPFR value as C99 hex float normalised like tc_value_to_hex
 * ("0x1.08p+7", "-0x0p+0"), every bit kept. */
static char *mpfr_to_hex(const mpfr_t x)
{
    if (mpfr_zero_p(x))
        return strdup(mpfr_signbit(x) ? "-0x0p+0" : "0x0p+0");
    mpz_t z, f;
    mpz_inits(z, f, NULL);
    mpfr_exp_t e = mpfr_get_z_2exp(z, x);
    bool neg = mpz_sgn(z) < 0;
    mpz_abs(z, z);
    long tz = (long)mpz_scan1(z, 0);
    mpz_fdiv_q_2exp(z, z, (mp_bitcnt_t)tz);
    e += tz;
    long L = (long)mpz_sizeinbase(z, 2), fb = L - 1, pad = (4 - fb % 4) % 4;
    mpz_setbit(f, (mp_bitcnt_t)fb);
    mpz_sub(f, z, f);
    mpz_mul_2exp(f, f, (mp_bitcnt_t)pad);
    long digits = (fb + pad) / 4;
    char *hex = mpz_get_str(NULL, 16, f);
    size_t hl = strlen(hex);
    size_t cap = (size_t)digits + 64;
    char *out = malloc(cap);
    if (out) {
        int n = snprintf(out, cap, "%s0x1", neg ? "-" : "");
        if (digits > 0) {
            n += snprintf(out + n, cap - (size_t)n, ".");
            for (long i = 0; i < digits - (long)hl; i++)
                out[n++] = '0';
            n += snprintf(out + n, cap - (size_t)n, "%s", hex);
        }
        snprintf(out + n, cap - (size_t)n, "p%+ld", (long)e + fb);
    }
    free(hex);
    mpz_clears(z, f, NULL);
    return out;
}

static int run_one(tc_backend *b, const tc_instr *ins, const run_opts *o)
{
    int k = ins->k, na = 0, nb = 0, nc = 0;
    uint64_t a[MAX_K] = {0}, bb[MAX_K] = {0}, c[1] = {0};
    int rc;
    if ((rc = parse_list("a", o->a, ins->a, k, a, &na)) || (rc = parse_list("b", o->b, ins->b, k, bb, &nb)) ||
        (rc = parse_list("c", o->c, ins->c, 1, c, &nc)))
        return rc;
    size_t mk = (size_t)ins->m * k, kn = (size_t)k * ins->n, mn = (size_t)ins->m * ins->n;
    uint64_t *A = calloc(mk, 8), *B = calloc(kn, 8), *C = calloc(mn, 8), *D = calloc(mn, 8);
    if (!A || !B || !C || !D) {
        free(A), free(B), free(C), free(D);
        return cli_fail(CMD, "out of memory");
    }
    for (int i = 0; i < k; i++) {
        A[i] = a[i];               /* row 0 of A */
        B[(size_t)i * ins->n] = bb[i]; /* column 0 of B */
    }
    C[0] = c[0];
    char err[384];
    if (tc_backend_mma(b, ins, 1, A, B, C, D, err, sizeof err)) {
        free(A), free(B), free(C), free(D);
        return cli_fail(CMD, "%s", err);
    }
    uint64_t d = D[0];
    free(A), free(B), free(C), free(D);
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    mpfr_t x;
    mpfr_init2(x, 64);
    oracle_dot_value(f, k, a, bb, c[0], x);
    uint64_t rounded = oracle_round(ins->d, x, rne);
    double ulps = oracle_err_ulps(ins->d, d, x);
    char *exact = NULL;
    if (mpfr_nan_p(x))
        exact = strdup("nan");
    else if (mpfr_inf_p(x))
        exact = strdup(mpfr_signbit(x) ? "-inf" : "inf");
    else
        exact = mpfr_to_hex(x);
    char exact_dec[64];   /* 17 significant digits: the hex float beside it is exact */
    if (mpfr_nan_p(x) || mpfr_inf_p(x))
        snprintf(exact_dec, sizeof exact_dec, "%s", exact ? exact : "?");
    else
        mpfr_snprintf(exact_dec, sizeof exact_dec, "%.17Rg", x);
    mpfr_clear(x);
    char dbits[24], rbits[24], dval[64], rval[64];
    hex_bits(d, ins->d, dbits, sizeof dbits);
    hex_bits(rounded, ins->d, rbits, sizeof rbits);
    tc_value_to_hex(tc_decode(ins->d, d, false), dval, sizeof dval);
    tc_value_to_hex(tc_decode(ins->d, rounded, false), rval, sizeof rval);
    if (o->json) {
        json_t *j = json_object(), *ja = json_array(), *jb = json_array();
        char h[24];
        for (int i = 0; i < k; i++) {
            hex_bits(a[i], ins->a, h, sizeof h);
            json_array_append_new(ja, json_string(h));
            hex_bits(bb[i], ins->b, h, sizeof h);
            json_array_append_new(jb, json_string(h));
        }
        hex_bits(c[0], ins->c, h, sizeof h);
        json_object_set_new(j, "backend", json_string(tc_backend_get_info(b)->backend));
        json_object_set_new(j, "instr", json_string(ins->name));
        json_object_set_new(j, "k", json_integer(k));
        json_object_set_new(j, "a", ja);
        json_object_set_new(j, "b", jb);
        json_object_set_new(j, "c", json_string(h));
        json_object_set_new(j, "d", json_string(dbits));
        json_object_set_new(j, "d_value", json_string(dval));
        json_object_set_new(j, "exact", json_string(exact ? exact : "?"));
        json_object_set_new(j, "rounded", json_string(rbits));
        json_object_set_new(j, "rounded_value", json_string(rval));
        /* null when not finite: D or the exact value is Inf or NaN (both given above) */
        json_object_set_new(j, "err_ulps", tc_json_real_or_null(ulps));
        tc_json_out_put(o->out, "run", j);
    } else {
        /* decimal first, then the exact hex float and the bits (--json: the bits and hex) */
        char ddec[2100], rdec[2100];
        cli_value_decimal(ins->d, tc_decode(ins->d, d, false), ddec, sizeof ddec);
        cli_value_decimal(ins->d, tc_decode(ins->d, rounded, false), rdec, sizeof rdec);
        printf("%s on %s (k = %d; values beyond those given are +0)\n", ins->name, tc_backend_get_info(b)->backend,
               k);
        printf("  D          %s = %s   bits %s\n", ddec, dval, dbits);
        printf("  exact      %s = %s\n", exact_dec, exact ? exact : "?");
        printf("  oracle     %s = %s   bits %s (correctly rounded, rne)\n", rdec, rval, rbits);
        printf("  error      %g ulps\n", ulps);
        /* a profile fitted to third-party rows says so, and which fields those rows left open */
        const char *by = tc_backend_profile_note(b, "written_by");
        if (by && strstr(by, "not measured")) {
            char key[96];
            snprintf(key, sizeof key, "undecided %s", ins->name);
            const char *open = tc_backend_profile_note(b, key);
            printf("  profile    THIRD-PARTY, NOT MEASURED: %s\n", by);
            if (open)
                printf("  undecided  %s (not decidable from those rows: each holds the first candidate the fit tried)\n", open);
        }
    }
    free(exact);
    return TC_EXIT_OK;
}

typedef enum { O_BACKEND, O_ARCH, O_INSTR, O_A, O_B, O_C, O_RANDOM, O_CHAIN, O_CVT, O_SEED, O_CHECK_LAYOUT, O_JSON } run_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "gpu, gpu:N, gpu:jit, model:PROFILE or exact (default: the GPU, else the recorded model " CLI_RECORDED_MODEL ", said so); with --random, gpu:all or gpu:I,J,..: the same inputs on every GPU, their bits compared (a fleet record on stdout)"},
    [O_ARCH] = {"--arch", "sm_XX", "one element only: a model backend keeps to this architecture's instructions "
                                   "(sm_70 ... sm_120a, probes/isa/arch/); one it lacks is refused (exit 2)"},
    [O_INSTR] = {"--instr", "NAME", "the instruction (tcscope list); all, or NAME,NAME.., with --random or --check-layout"},
    [O_A] = {"--a", "V,..", "one element: A's K values (decimal, hex float, inf, nan, bits:0x..)"},
    [O_B] = {"--b", "V,..", "one element: B's K values"},
    [O_C] = {"--c", "V", "one element: the accumulator C"},
    [O_RANDOM] = {"--random", "N", "alias of record corpus --count N: a recorded corpus of N random elements (or of "
                                   "record chains --count N with --chain)", 1, TC_CORPUS_MAX_ELEMS},
    [O_CHAIN] = {"--chain", "LEN", "with --random: alias of record chains --len LEN, chains of LEN steps, D fed back "
                                   "as A", 1, CLI_RECORD_MAX_LEN},
    [O_CVT] = {"--cvt", "ROUND[,OVERFLOW]", "the D -> A conversion between chain steps (default rne,sat; "
                                            "rne,inf for tf32 A and when A is D's format)"},
    [O_SEED] = {"--seed", "S", "random seed (default 1)"},
    [O_CHECK_LAYOUT] = {"--check-layout", NULL, "alias of record layout: prove the fragment layout on the backend instead"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one run or layout object per result (refused with --random, which prints its own record)"},
};
const cli_command cmd_run_cli = {
    "run", "one element against the exact oracle (a corpus, chains, the layout proof: see record)", NULL,
    "  run --backend B --instr NAME --a V,.. --b V,.. --c V\n"
    "The recording jobs are tcscope record's; run keeps them as aliases, the same bytes:\n"
    "  run --backend B --instr NAME|all --random N [--seed S]          record corpus --count N\n"
    "  run ... --random N --chain LEN [--cvt ROUND[,OVERFLOW]]          record chains --count N --len LEN\n"
    "  run --backend B --instr NAME|all --check-layout                  record layout\n"
    "chains x LEN within a line's 2^27 elements, checked for every instruction before any runs.",
    opts, CLI_NOPTS(opts), false};

int cmd_run(int argc, char **argv)
{
    run_opts o = {.seed = 1};
    const char *arch = NULL;
    cli_scan sc = cli_scan_start(&cmd_run_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        int rc;
        switch ((run_opt)sc.opt) {
        case O_BACKEND: o.backend = v; break;
        case O_ARCH: arch = v; break;
        case O_INSTR: o.instr = v; break;
        case O_A: o.a = v; break;
        case O_B: o.b = v; break;
        case O_C: o.c = v; break;
        case O_RANDOM: o.random = (long long)sc.count; break;
        case O_CHAIN: o.chain = (int)sc.count; break;
        case O_CVT:
            if ((rc = cli_record_cvt(CMD, v, &o.cvt)))
                return rc;
            o.cvt_given = true;
            break;
        case O_SEED:
            if (!cli_seed(CMD, "--seed", v, &o.seed))
                return TC_EXIT_USAGE;
            break;
        case O_CHECK_LAYOUT: o.check_layout = true; break;
        case O_JSON: o.json = true; break;
        }
    }
    if (sc.status)
        return sc.status;
    if (!o.instr)
        return cli_fail(CMD, "--instr NAME is required (see tcscope list)");
    if (o.chain && !o.random)
        return cli_fail(CMD, "--chain LEN needs --random N (the number of chains)");
    if (o.chain && o.check_layout)
        return cli_fail(CMD, "--chain and --check-layout do not go together");
    if (o.random && o.check_layout) /* it once ran the layout proof, and with --json printed nothing */
        return cli_fail(CMD, "--random and --check-layout do not go together");
    if (o.random && o.json) /* --random prints its record anyway: say so rather than ignore it */
        return cli_fail(CMD, "--json does not go with --random: corpus and chains always print their record "
                             "(reports/SCHEMA.md \"Raw GPU records\")");
    if (o.cvt_given && !o.chain)
        return cli_fail(CMD, "--cvt only applies to --chain");
    if (arch && (o.random || o.check_layout))
        return cli_fail(CMD, "--arch goes with one element (--a, --b, --c), not --random or --check-layout");
    if (o.random || o.check_layout) { /* the aliases of tcscope record */
        cli_record_job j = {CMD, "--random", "--chain", argc, argv,
                            o.chain ? CLI_RECORD_CHAINS : o.random ? CLI_RECORD_CORPUS : CLI_RECORD_LAYOUT,
                            o.backend, o.instr, (size_t)o.random, o.chain, o.seed, o.cvt_given, o.cvt, o.json};
        return cli_record_run(&j);
    }
    if (!o.a || !o.b || !o.c)
        return cli_fail(CMD, "--a, --b and --c are required (or --random N, or --check-layout)");
    if (!strcmp(o.instr, "all") || strchr(o.instr, ','))
        return cli_fail(CMD, "--instr %s needs --random N or --check-layout", o.instr);
    if (!tc_instr_by_name(o.instr))
        return cli_unknown_instr(CMD, "--instr", o.instr);
    if (tc_instr_by_name(o.instr)->k > MAX_K)
        return cli_fail(CMD, "k too large");
    if (cli_fleet_spec(o.backend))
        return cli_fail(CMD, "--backend %s runs --random N only (no --chain, no --check-layout)", o.backend);
    tc_backend *b = cli_backend_open(CMD, o.backend, NULL);
    if (!b)
        return TC_EXIT_USAGE;
    if (cli_backend_arch(CMD, b, arch)) {
        tc_backend_close(b);
        return TC_EXIT_USAGE;
    }
    tc_json_out out; /* one run draws nothing at random: no seeds */
    tc_json_out_begin(&out, o.json, cli_record_header(CMD, tc_backend_get_info(b), NULL, 0));
    o.out = &out;
    int rc = run_one(b, tc_instr_by_name(o.instr), &o);
    tc_json_out_end(&out, rc == TC_EXIT_USAGE ? "stopped on an error (see stderr)" : NULL);
    tc_backend_close(b);
    return rc;
}
