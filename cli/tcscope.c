/* tcscope entry point: dispatches to cli/cmd_*.c and nothing else. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/text.h"

static const struct {
    const char *name;
    tc_cmd_fn fn;
    const char *usage;
} commands[] = {
    {"formats", cmd_formats, "formats [--json]                      table of every format"},
    {"convert", cmd_convert, "convert --to FMT [--round MODE] [--sat|--nosat|--ovf inf|sat|nan] [--ftz] [--daz] [--rbits R] [--json] VALUE...|-"},
    {"list", cmd_list, "list [--backend B] [--json]            instructions the backend can run"},
    {"run", cmd_run, "run --backend B --instr NAME --a V,.. --b V,.. --c V [--json] | --instr NAME|all --random N [--chain LEN [--cvt ROUND[,OVERFLOW]]] [--seed S] | --check-layout\n"
                     "                 N 1..1e6 (corpus elements, or chains), LEN 1..1e6, chains x LEN within a line's 2^27 elements"},
    {"audit", cmd_audit, "audit [--backend B] [--instr NAME[,NAME..]|all] [--out DIR] [--n COUNT] [--hunt-n PER_FAMILY] [--seed S] [--timing BENCH.json] [--shard I/N] [--counterexamples HUNT.jsonl] [--force] [--json]\n"
                         "                 COUNT 1..1e9 (default 1e6 on a GPU, 1e5 on the recorded model)"},
    {"verify", cmd_verify, "verify --backend B --profile P --instr NAME [--n COUNT] [--hunt-n PER_FAMILY] [--seed S] [--json]   COUNT 1..1e9"},
    {"regress", cmd_regress, "regress [--profile P] [--record AUDIT.jsonl[.gz]] [--instr ..] [--n COUNT] [--hunt-n PER_FAMILY] [--seed S] [--jobs J] [--timing-tol PCT] [--no-timing] [--out DIR] [--model|--backend B] [--json]\n"
                             "                 this GPU against a baseline audit: exit 0 same, 1 a difference (listed), 2 no GPU unless --model"},
    {"hunt", cmd_hunt, "hunt --backend B [--profile P] [--instr NAME|all] [--n PER_FAMILY] [--seed S] [--sample N] [--out DIR] [--json]   boundary-directed search: backend vs model"},
    {"cases", cmd_cases, "cases [--backend B] [--instr NAME|all] [--json] [--emit FAMILY|fasi2021] FILE...   run case files\n"
                         "                 vary = permutations|tiles|runs N: N 2..4096"},
    {"sweep", cmd_sweep, "sweep [--backend B] [--formats ..] [--chain 1..N] [--dist ..] [--trials T] [--seed S] [--out DIR [--force]] [--json]\n"
                         "                 N 1..1e5, T 1..1e6, loguniform:R R 1..60, --threads 0..1024, 32 formats at most;\n"
                         "                 T x N x (K*K + 5*M*K) within 2^27 elements (1 GiB)"},
    {"bench", cmd_bench, "bench [--instr ..] [--json]            latency and throughput tables (GPU)"},
    {"compare", cmd_compare, "compare OLD.json NEW.json [--json]    exit 1 if anything changed"},
    {"choose", cmd_choose, "choose [constraints] [--json]         precision advice from recorded data (--chain 1..1e5, --k 1..1e9)"},
};

/* Messages echo file contents and option values: printed escaped
 * (reports/text.h), so a binary file cannot drive the terminal. */
static void vwarn(const char *cmd, const char *fmt, va_list ap)
{
    char msg[2048], safe[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    tc_text_escape(msg, safe, sizeof safe, true);
    fprintf(stderr, "tcscope%s%s: %s\n", *cmd ? " " : "", cmd, safe);
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(cmd, fmt, ap);
    va_end(ap);
    return TC_EXIT_USAGE;
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(cmd, fmt, ap);
    va_end(ap);
}

const char *cli_opt(int argc, char **argv, int *i, const char *name, bool *missing)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    if (arg[n] == '=')
        return arg + n + 1;
    if (arg[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        cli_warn("", "option %s needs a value", name);
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

static void usage(FILE *f)
{
    fprintf(f, "usage: tcscope COMMAND [options]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  tcscope %s\n", commands[i].usage);
    fprintf(f, "\nEvery command takes --json (one object per line).\n"
               "Exit status: 0 success, 1 a difference was found, 2 bad input or environment.\n"
               "Counts are decimal digits; seeds (S) 0..2^64-1, decimal or 0x hex. LIMITS.md lists every range.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return TC_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return TC_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    return cli_fail("", "unknown command '%s' (try tcscope --help)", argv[1]);
}
