/* tcscope record MODE: the runs whose answers are kept as records
 * (reports/baselines/), on one backend, over --instr NAME, NAME,NAME.. or
 * all:
 *   corpus  one line of N random elements per instruction (--count N, --seed S)
 *   chains  one line of N chains of LEN steps per instruction (--count N,
 *           --len LEN, --cvt, --seed S)
 *   layout  the on-device proof of the fragment layout, one line each
 * The lines are probes/backend_corpus.h's, written through cli/record.h as
 * run --random, --chain and --check-layout (its aliases) write them, byte
 * for byte. N is 1..10^6 (corpus elements, or chains); LEN 1..10^6 within a
 * chain line's 2^27 elements, checked for every instruction before any
 * runs; S 0..2^64-1 (default 1). --cvt without OVERFLOW means sat; without
 * --cvt: rne,sat, but rne,inf for A = tf32 and for A = D
 * (tc_recording_default_cvt). */
#include <string.h>

#include "cli/cli.h"
#include "cli/record.h"
#include "probes/backend_corpus.h"

#define CMD "record"

typedef enum { O_BACKEND, O_INSTR, O_N, O_LEN, O_CVT, O_SEED, O_JSON, O_OLD_N } record_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "gpu, gpu:N, gpu:jit, model:PROFILE or exact (default: the GPU, else the recorded "
                                     "model " CLI_RECORDED_MODEL ", said so); corpus: gpu:all or gpu:I,J,.., the same "
                                     "inputs on every GPU, their bits compared (a fleet record on stdout)"},
    [O_INSTR] = {"--instr", "NAME", "the instruction (tcscope list), all, or NAME,NAME.. (required)"},
    [O_N] = {"--count", "N", "corpus: random elements per instruction; chains: chains per instruction (required)", 1,
             TC_CORPUS_MAX_ELEMS},
    [O_LEN] = {"--len", "LEN", "chains: steps per chain, D fed back as A (required)", 1, CLI_RECORD_MAX_LEN},
    [O_CVT] = {"--cvt", "ROUND[,OVERFLOW]", "chains: the D -> A conversion between steps (default rne,sat; "
                                            "rne,inf for tf32 A and when A is D's format)"},
    [O_SEED] = {"--seed", "S", "corpus, chains: random seed (default 1)"},
    [O_JSON] = {"--json", NULL, "record layout only: a tcscope-record/1 of layout objects (corpus and chain lines are their own format; refused there)"},
    [O_OLD_N] = {CLI_ALIAS("--n", "--count")},
};
const cli_command cmd_record_cli = {
    "record", "record a random corpus, chains or the layout proof of instructions on a backend",
    "corpus|chains|layout",
    "  record corpus --backend B --instr NAME|all --count N [--seed S]\n"
    "  record chains --backend B --instr NAME|all --count N --len LEN [--cvt ROUND[,OVERFLOW]] [--seed S]\n"
    "  record layout --backend B --instr NAME|all [--json]\n"
    "A record on stdout, one object per instruction (reports/SCHEMA.md \"Raw GPU records\"); run --random,\n"
    "run --random --chain and run --check-layout are aliases, the same bytes.\n"
    "chains x LEN within a line's 2^27 elements, checked for every instruction before any runs.",
    opts, CLI_NOPTS(opts), false};

int cmd_record(int argc, char **argv)
{
    static const char *const modes[] = {"corpus", "chains", "layout"};
    cli_record_job j = {CMD, "--count", "--len", argc, argv, CLI_RECORD_CORPUS, .seed = 1};
    const char *mode = NULL;
    bool seed_given = false;
    cli_scan sc = cli_scan_start(&cmd_record_cli, argc, argv);
    while (cli_next(&sc)) {
        const char *v = sc.val;
        int rc;
        if (sc.opt == CLI_OPERAND) {
            if (mode)
                return cli_fail(CMD, "one mode only ('%s' after '%s')", v, mode);
            mode = v;
            continue;
        }
        switch ((record_opt)sc.opt) {
        case O_BACKEND: j.backend = v; break;
        case O_INSTR: j.instr = v; break;
        case O_N: j.n = (size_t)sc.count; break;
        case O_LEN: j.len = (int)sc.count; break;
        case O_CVT:
            if ((rc = cli_record_cvt(CMD, v, &j.cvt)))
                return rc;
            j.cvt_given = true;
            break;
        case O_SEED:
            if (!cli_seed(CMD, "--seed", v, &j.seed))
                return TC_EXIT_USAGE;
            seed_given = true;
            break;
        case O_JSON: j.json = true; break;
        case O_OLD_N: break;   /* the old spelling: cli_next answers as --count */
        }
    }
    if (sc.status)
        return sc.status;
    if (!mode)
        return cli_fail(CMD, "which recording? corpus, chains or layout (tcscope record --help)");
    size_t m = 0;
    while (m < 3 && strcmp(mode, modes[m]))
        m++;
    if (m == 3)
        return cli_fail(CMD, "unknown mode '%s' (corpus, chains or layout)", mode);
    j.mode = m == 0 ? CLI_RECORD_CORPUS : m == 1 ? CLI_RECORD_CHAINS : CLI_RECORD_LAYOUT;
    if (!j.instr)
        return cli_fail(CMD, "--instr NAME is required (see tcscope list)");
    if (j.mode != CLI_RECORD_LAYOUT && !j.n)
        return cli_fail(CMD, "record %s needs --count N", mode);
    if (j.mode == CLI_RECORD_CHAINS && !j.len)
        return cli_fail(CMD, "record chains needs --len LEN");
    if (j.mode != CLI_RECORD_CHAINS && (j.len || j.cvt_given))
        return cli_fail(CMD, "%s only applies to record chains", j.len ? "--len" : "--cvt");
    if (j.mode == CLI_RECORD_LAYOUT && (j.n || seed_given))
        return cli_fail(CMD, "%s does not apply to record layout (it draws nothing at random)", j.n ? "--count" : "--seed");
    if (j.json && j.mode != CLI_RECORD_LAYOUT) /* they print their record anyway: say so rather than ignore it */
        return cli_fail(CMD, "--json only applies to record layout: corpus and chains always print their record "
                             "(reports/SCHEMA.md \"Raw GPU records\")");
    return cli_record_run(&j);
}
