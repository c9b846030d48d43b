/* tcscope run: one element D[0][0] = sum a[k]*b[k] + c of one instruction on
 * one backend, against the exact oracle; or (--random N) a recorded corpus
 * of random tiles; or (--random N --chain LEN) a recorded set of N chains of
 * LEN steps; or (--check-layout) the on-device layout proof.
 *
 * Its options and their ranges are the table below (tcscope run --help).
 * N is 1..10^6 (corpus elements, or chains); LEN 1..10^6, and a chain line
 * holds at most 2^27 elements (probes/backend_corpus.h), checked for every
 * instruction before any runs; S is 0..2^64-1 (cli/args.c).
 * --cvt without OVERFLOW means sat; without --cvt: rne,sat, but rne,inf for
 * A = tf32 and for A = D (see default_cvt). Sparse and integer instructions
 * have no chains (all leaves them out). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <mpfr.h>

#include "cli/cli.h"
#include "cli/fleet.h"
#include "oracle/oracle.h"
#include "oracle/value.h"
#include "probes/backend_corpus.h"
#include "probes/layout.h"
#include "probes/probes.h"
#include "reports/reports.h"

#define CMD "run"
#define MAX_K 4096
#define MAX_CHAIN_LEN 1000000

typedef struct {
    const char *backend, *instr, *a, *b, *c;
    bool json, check_layout;
    tc_json_out *out; /* the --json record (SCHEMA.md "Command output") */
    long long random;  /* corpus elements per instruction (chains with --chain), 0: one element */
    uint64_t seed;
    int chain;         /* steps per chain, 0: no chains */
    tc_rounding cvt;   /* D -> A between chain steps */
    bool cvt_given;    /* else default_cvt, per instruction */
    struct chain_twins *twins;
} run_opts;

/* --instr all --chain: the last full chain record of each key, so that a
 * later instruction of the same key can be written as same_as it. */
typedef struct chain_twins {
    size_t n;
    tc_chain_rec *recs; /* at most one per catalogue entry */
} chain_twins;

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
        printf("%s on %s (k = %d; values beyond those given are +0)\n", ins->name, tc_backend_get_info(b)->backend,
               k);
        printf("  D          %s = %s\n", dbits, dval);
        printf("  exact      %s\n", exact ? exact : "?");
        printf("  oracle     %s = %s   (correctly rounded, rne)\n", rbits, rval);
        printf("  error      %g ulps\n", ulps);
    }
    free(exact);
    return TC_EXIT_OK;
}

/* The instructions named by --instr (one, or "all"). */
static int for_each(tc_backend *b, const run_opts *o, int (*fn)(tc_backend *, const tc_instr *, const run_opts *))
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    if (strchr(o->instr, ',')) { /* NAME,NAME..: each as if named alone, in catalogue order (checked by cli_list_check) */
        int worst = TC_EXIT_OK;
        for (size_t i = 0; i < n && worst != TC_EXIT_USAGE; i++)
            if (cli_instr_selected(o->instr, cat[i].name)) {
                int rc = fn(b, &cat[i], o);
                worst = rc > worst ? rc : worst;
            }
        return worst;
    }
    if (strcmp(o->instr, "all") != 0) {
        const tc_instr *ins = tc_instr_by_name(o->instr);
        if (!ins)
            return cli_unknown_instr(CMD, "--instr", o->instr);
        return fn(b, ins, o);
    }
    int worst = TC_EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        char why[384];
        if (o->chain && !tc_instr_has_chains(&cat[i], NULL, 0)) /* "all" leaves them out; a named one is refused */
            continue;
        if (!tc_backend_supports(b, &cat[i], why, sizeof why)) {
            cli_warn("run", "skipped %s", why);
            continue;
        }
        int rc = fn(b, &cat[i], o);
        if (rc == TC_EXIT_USAGE)
            return rc;
        if (rc > worst)
            worst = rc;
    }
    return worst;
}

static int record_one(tc_backend *b, const tc_instr *ins, const run_opts *o)
{
    char err[384];
    if (tc_corpus_record(b, ins, (size_t)o->random, o->seed, stdout, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    fflush(stdout);
    return TC_EXIT_OK;
}

/* The chain cvt without --cvt: rne with satfinite, as the GPU converts a
 * wider D into FP8, f16 or bf16; but rne with Inf where A has D's range:
 * TF32 from f32 (sm_90 has .satfinite for tf32 only with .rna, emulated and
 * with its own NaNs; cvt.rn.tf32.f32 is native and matches tc_encode bit
 * for bit) and A = D (f16, f64: nothing is converted, and a saturating
 * encoder would turn D's Inf into max where the GPU keeps it). */
static tc_rounding default_cvt(const tc_instr *ins)
{
    bool wide = ins->a == &tc_tf32 || ins->a == ins->d;
    return (tc_rounding){.mode = TC_RNE, .ovf = wide ? TC_OVF_INF : TC_OVF_SAT};
}

/* Whether an instruction after ins in the catalogue (one "all" runs) has
 * ins's chain key, so that ins's record may serve it as twin. */
static bool key_used_later(const tc_instr *ins, const char *key)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    char k2[96];
    for (size_t i = (size_t)(ins - cat) + 1; i < n; i++) {
        if (!tc_instr_has_chains(&cat[i], NULL, 0))
            continue;
        tc_chain_key(&cat[i], k2, sizeof k2);
        if (!strcmp(k2, key))
            return true;
    }
    return false;
}

static int chain_one(tc_backend *b, const tc_instr *ins, const run_opts *o)
{
    char err[384], key[96];
    chain_twins *tw = o->twins;
    tc_chain_key(ins, key, sizeof key);
    size_t ti = tw ? tw->n : 0; /* this key's entry in the table */
    for (size_t i = 0; tw && i < tw->n; i++)
        if (!strcmp(tw->recs[i].key, key))
            ti = i;
    tc_chain_rec *twin = tw && ti < tw->n ? &tw->recs[ti] : NULL, rec;
    tc_rounding cvt = o->cvt_given ? o->cvt : default_cvt(ins);
    if (tc_chain_record(b, ins, (size_t)o->random, o->chain, cvt, o->seed, twin, tw ? &rec : NULL, stdout, err,
                        sizeof err))
        return cli_fail(CMD, "%s", err);
    fflush(stdout);
    if (!tw)
        return TC_EXIT_OK;
    /* keep the last full record of the key while a later instruction may
     * need it (a record can be large: nothing else is kept) */
    bool later = key_used_later(ins, key);
    if (rec.same_as[0] || !later)
        tc_chain_rec_free(&rec);
    else {
        if (twin)
            tc_chain_rec_free(twin);
        tw->recs[ti] = rec;
        tw->n += ti == tw->n;
    }
    if (!later && twin) { /* the key is done: drop its entry */
        tc_chain_rec_free(twin);
        tw->recs[ti] = tw->recs[--tw->n];
    }
    return TC_EXIT_OK;
}

/* "ROUND[,OVERFLOW]": a rounding of tc_round_parse but rs (the record keeps
 * no random bits), an overflow of tc_overflow_parse (default sat, as the
 * GPU's cvt.satfinite). Applies to every instruction run. */
static int parse_cvt(const char *v, tc_rounding *r)
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
        return cli_fail(CMD, "--cvt: bad rounding in '%s' (rne, rna, rz, ru, rd, ro)", v);
    if (comma && !tc_overflow_parse(comma + 1, &r->ovf))
        return cli_fail(CMD, "--cvt: bad overflow in '%s' (inf, sat, nan)", v);
    return TC_EXIT_OK;
}

static int layout_one(tc_backend *b, const tc_instr *ins, const run_opts *o)
{
    char msg[384];
    int bad = tc_layout_probe(b, ins, msg, sizeof msg);
    if (o->json) {
        json_t *j = json_pack("{s:s, s:s, s:s}", "instr", ins->name, "backend", tc_backend_get_info(b)->backend,
                              "layout", bad ? "fail" : "pass");
        if (bad)
            json_object_set_new(j, "why", json_string(msg));
        tc_json_out_put(o->out, "layout", j);
    } else
        printf("%-40s %s%s%s\n", ins->name, bad ? "FAIL" : "pass", bad ? ": " : "", bad ? msg : "");
    return bad ? TC_EXIT_DIFF : TC_EXIT_OK;
}

typedef enum { O_BACKEND, O_INSTR, O_A, O_B, O_C, O_RANDOM, O_CHAIN, O_CVT, O_SEED, O_CHECK_LAYOUT, O_JSON } run_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "gpu, gpu:N, gpu:jit, model:PROFILE or exact (default: the GPU, else the recorded model " CLI_RECORDED_MODEL ", said so); with --random, gpu:all or gpu:I,J,..: the same inputs on every GPU, their bits compared (a fleet record on stdout)"},
    [O_INSTR] = {"--instr", "NAME", "the instruction (tcscope list); all, or NAME,NAME.., with --random or --check-layout"},
    [O_A] = {"--a", "V,..", "one element: A's K values (decimal, hex float, inf, nan, bits:0x..)"},
    [O_B] = {"--b", "V,..", "one element: B's K values"},
    [O_C] = {"--c", "V", "one element: the accumulator C"},
    [O_RANDOM] = {"--random", "N", "a recorded corpus of N random elements (or N chains with --chain)", 1,
                  TC_CORPUS_MAX_ELEMS},
    [O_CHAIN] = {"--chain", "LEN", "with --random: chains of LEN steps, D fed back as A", 1, MAX_CHAIN_LEN},
    [O_CVT] = {"--cvt", "ROUND[,OVERFLOW]", "the D -> A conversion between chain steps (default rne,sat; "
                                            "rne,inf for tf32 A and when A is D's format)"},
    [O_SEED] = {"--seed", "S", "random seed (default 1)"},
    [O_CHECK_LAYOUT] = {"--check-layout", NULL, "prove the fragment layout on the backend instead"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one run or layout object per result (not with --random: raw lines)"},
};
const cli_command cmd_run_cli = {
    "run", "one element against the exact oracle, a random corpus, chains, or the layout proof", NULL,
    "  run --backend B --instr NAME --a V,.. --b V,.. --c V\n"
    "  run --backend B --instr NAME|all --random N [--chain LEN [--cvt ROUND[,OVERFLOW]]] [--seed S]\n"
    "  run --backend B --instr NAME|all --check-layout\n"
    "chains x LEN within a line's 2^27 elements, checked for every instruction before any runs.",
    opts, CLI_NOPTS(opts), false};

int cmd_run(int argc, char **argv)
{
    run_opts o = {.seed = 1};
    cli_scan sc = cli_scan_start(&cmd_run_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        int rc;
        switch ((run_opt)sc.opt) {
        case O_BACKEND: o.backend = v; break;
        case O_INSTR: o.instr = v; break;
        case O_A: o.a = v; break;
        case O_B: o.b = v; break;
        case O_C: o.c = v; break;
        case O_RANDOM: o.random = (long long)sc.count; break;
        case O_CHAIN: o.chain = (int)sc.count; break;
        case O_CVT:
            if ((rc = parse_cvt(v, &o.cvt)))
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
    if (o.cvt_given && !o.chain)
        return cli_fail(CMD, "--cvt only applies to --chain");
    if (o.chain) { /* the budget of a chain line, for every instruction it will run, before any runs */
        size_t ncat;
        const tc_instr *cat = tc_catalogue(&ncat);
        for (size_t i = 0; i < ncat; i++) {
            char err[256];
            bool named = !strcmp(o.instr, cat[i].name), all = !strcmp(o.instr, "all");
            if ((named || (all && tc_instr_has_chains(&cat[i], NULL, 0))) &&
                !tc_chain_fits(&cat[i], (size_t)o.random, o.chain, err, sizeof err))
                return cli_fail(CMD, "--random %lld --chain %d: %s", o.random, o.chain, err);
        }
    }
    bool one = !o.random && !o.check_layout;
    if (one && (!o.a || !o.b || !o.c))
        return cli_fail(CMD, "--a, --b and --c are required (or --random N, or --check-layout)");
    if (one && (!strcmp(o.instr, "all") || strchr(o.instr, ',')))
        return cli_fail(CMD, "--instr %s needs --random N or --check-layout", o.instr);
    if (strchr(o.instr, ',') && cli_list_check(CMD, "--instr", o.instr, true))
        return TC_EXIT_USAGE;
    if (one && !tc_instr_by_name(o.instr))
        return cli_unknown_instr(CMD, "--instr", o.instr);
    if (one && tc_instr_by_name(o.instr)->k > MAX_K)
        return cli_fail(CMD, "k too large");
    if (cli_fleet_spec(o.backend)) { /* every GPU of the node, the same inputs on each (cli/fleet.h) */
        if (!o.random || o.chain || o.check_layout)
            return cli_fail(CMD, "--backend %s runs --random N only (no --chain, no --check-layout)", o.backend);
        cli_fleet_job j = {CMD, argc, argv, o.backend, NULL, o.instr, false, false, 0, 0};
        return cli_fleet_run(&j);
    }
    tc_backend *b = cli_backend_open(CMD, o.backend, NULL);
    if (!b)
        return TC_EXIT_USAGE;
    int rc;
    /* --random writes raw corpus or chain lines (SCHEMA.md "Raw GPU records"), with or without --json */
    tc_json_out out; /* one run and --check-layout draw nothing at random: no seeds */
    tc_json_out_begin(&out, o.json && !o.random, tc_record_header_new(CMD, tc_backend_get_info(b), NULL, 0));
    o.out = &out;
    if (o.chain) {
        size_t ncat;
        tc_catalogue(&ncat);
        chain_twins tw = {0, calloc(ncat, sizeof(tc_chain_rec))};
        if (!tw.recs) {
            tc_backend_close(b);
            return cli_fail(CMD, "out of memory");
        }
        if (!strcmp(o.instr, "all"))
            o.twins = &tw;
        rc = for_each(b, &o, chain_one);
        for (size_t i = 0; i < tw.n; i++)
            tc_chain_rec_free(&tw.recs[i]);
        free(tw.recs);
    } else if (o.check_layout)
        rc = for_each(b, &o, layout_one);
    else if (o.random)
        rc = for_each(b, &o, record_one);
    else
        rc = run_one(b, tc_instr_by_name(o.instr), &o);
    tc_json_out_end(&out, rc == TC_EXIT_USAGE ? "stopped on an error (see stderr)" : NULL);
    tc_backend_close(b);
    return rc;
}
