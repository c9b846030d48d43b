/* tcscope help: the overview, one command's options, and the same tables
 * for the shell completion (--commands, --options CMD) and the man page
 * (--man), so none of them is written twice. */
#include <string.h>

#include "cli/cli.h"

#define TAGLINE "what each GPU tensor-core instruction computes, bit for bit"

void cli_print_usage(FILE *f)
{
    size_t n;
    const cli_entry *c = cli_commands(&n);
    fprintf(f, "usage: tcscope COMMAND [options]\n       tcscope help COMMAND | tcscope COMMAND --help\n"
               "       tcscope --version\n\ntcscope: " TAGLINE ".\n\ncommands:\n");
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %-9s %s\n", c[i].cmd->name, c[i].cmd->summary);
    fprintf(f, "\nEvery command takes --json (one object per line), --quiet (no progress on stderr)\n"
               "and --help (its options).\n"
               "Exit status: 0 success, 1 a difference was found, 2 bad input or environment.\n"
               "Counts as 100000 or 1e5; tolerances as 0.05 or 5%%; seeds (S) 0..2^64-1, decimal or 0x hex.\n"
               "LIMITS.md lists every range; doc/commands.md the names shared by every command.\n");
}

/* roff text: backslashes and hyphens escaped, no line read as a request. */
static void roff(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
        if (*s == '\n' && (s[1] == '.' || s[1] == '\''))
            fputs("\\&", f);
    }
}

static void man_command(FILE *f, const cli_command *c)
{
    fprintf(f, ".SS \"tcscope %s [options]%s", c->name, c->operands ? " " : "");
    roff(f, c->operands ? c->operands : "");
    fputs("\"\n", f);
    roff(f, c->summary);
    fputs("\n", f);
    for (unsigned k = 0; k < c->nopts; k++) {
        const cli_option *o = &c->opts[k];
        if (o->now)
            continue;
        fputs(".TP\n.B ", f);
        roff(f, o->name);
        if (o->arg) {
            fputs(" \\fI", f);
            roff(f, o->arg);
            fputs("\\fR", f);
        }
        char help[512];
        cli_option_help(o, help, sizeof help);
        fputs("\n", f);
        roff(f, help);
        fputs("\n", f);
    }
    if (c->notes) {
        fputs(".PP\n.nf\n", f);
        roff(f, c->notes);
        fputs("\n.fi\n", f);
    }
}

/* The page carries no version or date: the same tables give the same page. */
static void print_man(FILE *f)
{
    size_t n;
    const cli_entry *c = cli_commands(&n);
    fputs(".TH TCSCOPE 1 \"\" \"tcscope\" \"User Commands\"\n.SH NAME\ntcscope \\- ", f);
    roff(f, TAGLINE);
    fputs("\n.SH SYNOPSIS\n.B tcscope\n.I COMMAND\n[options]\n.br\n.B tcscope help\n.I COMMAND\n.br\n"
          ".B tcscope \\-\\-version\n.SH DESCRIPTION\n", f);
    roff(f, "tcscope runs each tensor-core instruction (on a GPU, or on the recorded software model of one) "
            "and says exactly what it computes: the rounding, the alignment, the block size, the handling of "
            "subnormals and specials, bit for bit, with the evidence. Every command takes --json (one object "
            "per line), --quiet (no progress on stderr), --help and --version.");
    fputs("\n.SH COMMANDS\n", f);
    for (size_t i = 0; i < n; i++)
        man_command(f, c[i].cmd);
    fputs(".SH EXIT STATUS\n0 success, 1 a difference was found, 2 bad input or environment.\n"
          ".SH FILES\n.TP\n.I PREFIX/share/tcscope\n", f);
    roff(f, "the model profiles (oracle/profiles) and the recorded runs (reports/baselines) that model:NAME, "
            "choose and audit read; found from the binary's own place (PREFIX/bin/../share/tcscope, or the "
            "source tree the binary was built in), never from the working folder.");
    fputs("\n.SH SEE ALSO\nREADME.md, doc/, LIMITS.md and reports/SCHEMA.md in the source tree.\n", f);
}

static int print_option_names(const char *name)
{
    const cli_entry *e = cli_command_by_name(name);
    if (!e)
        return cli_fail("help", "unknown command '%s' (tcscope help --commands lists them)", name);
    for (unsigned k = 0; k < e->cmd->nopts; k++)
        if (!e->cmd->opts[k].now)
            puts(e->cmd->opts[k].name);
    puts(CLI_HELP_OPT);
    puts(CLI_VERSION_OPT);
    puts(CLI_QUIET_OPT);
    return TC_EXIT_OK;
}

static int unknown_command(const char *name)
{
    size_t n;
    const cli_entry *c = cli_commands(&n);
    const char *names[64];
    for (size_t i = 0; i < n && i < 64; i++)
        names[i] = c[i].cmd->name;
    const char *near = cli_nearest(name, names, n < 64 ? n : 64);
    return cli_fail("", "unknown command '%s' (%s%s%stry tcscope --help)", name, near ? "did you mean " : "",
                    near ? near : "", near ? "? " : "");
}

int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        cli_print_usage(stdout);
        return TC_EXIT_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "--commands")) {
        size_t n;
        const cli_entry *c = cli_commands(&n);
        for (size_t i = 0; i < n; i++)
            puts(c[i].cmd->name);
        return TC_EXIT_OK;
    }
    if (argc == 3 && !strcmp(argv[1], "--options"))
        return print_option_names(argv[2]);
    if (argc == 2 && !strcmp(argv[1], "--man")) {
        print_man(stdout);
        return TC_EXIT_OK;
    }
    if (argc == 2 && argv[1][0] != '-') {
        const cli_entry *e = cli_command_by_name(argv[1]);
        if (!e)
            return unknown_command(argv[1]);
        cli_print_help(stdout, e->cmd);
        return TC_EXIT_OK;
    }
    return cli_fail("help", "usage: tcscope help [COMMAND | --commands | --options COMMAND | --man]");
}

int cli_unknown_command(const char *name)
{
    return unknown_command(name);
}
