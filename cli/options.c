/* The option-table parser and the per-command help (cli/options.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"

cli_scan cli_scan_start(const cli_command *cmd, int argc, char **argv)
{
    return (cli_scan){.cmd = cmd, .argc = argc, .argv = argv, .i = 0, .opt = CLI_OPERAND};
}

/* "--name" or "--name=value" against the table: the entry, or NULL. */
static int lookup(const cli_command *c, const char *arg, const char **inline_val)
{
    for (unsigned k = 0; k < c->nopts; k++) {
        size_t n = strlen(c->opts[k].name);
        if (strncmp(arg, c->opts[k].name, n) != 0)
            continue;
        if (arg[n] == '\0') {
            *inline_val = NULL;
            return (int)k;
        }
        if (arg[n] == '=' && c->opts[k].arg) {
            *inline_val = arg + n + 1;
            return (int)k;
        }
    }
    return -1;
}

/* The index of the option an old spelling stands for. */
static int current_name(const cli_command *c, const char *name)
{
    for (unsigned k = 0; k < c->nopts; k++)
        if (!c->opts[k].now && !strcmp(c->opts[k].name, name))
            return (int)k;
    return -1;
}

static bool refuse_unknown(cli_scan *s, const char *arg)
{
    const cli_command *c = s->cmd;
    const char *names[64];
    size_t n = 0, len = strcspn(arg, "=");
    for (unsigned k = 0; k < c->nopts && n < 64; k++)
        if (!c->opts[k].now)
            names[n++] = c->opts[k].name;
    char word[128];
    snprintf(word, sizeof word, "%.*s", (int)(len < 127 ? len : 127), arg);
    const char *near = cli_nearest(word, names, n);
    if (near)
        cli_fail(c->name, "unknown option '%s' (did you mean %s? tcscope %s --help lists them)", arg, near, c->name);
    else
        cli_fail(c->name, "unknown option '%s' (tcscope %s --help lists them)", arg, c->name);
    s->status = TC_EXIT_USAGE;
    return false;
}

static bool operand(cli_scan *s, const char *arg)
{
    if (!s->cmd->operands) {
        cli_fail(s->cmd->name, "unexpected argument '%s' (tcscope %s --help)", arg, s->cmd->name);
        s->status = TC_EXIT_USAGE;
        return false;
    }
    s->opt = CLI_OPERAND;
    s->val = arg;
    return true;
}

bool cli_next(cli_scan *s)
{
    if (s->status || ++s->i >= s->argc)
        return false;
    const char *arg = s->argv[s->i];
    if (s->operands_only)
        return operand(s, arg);
    if (!strcmp(arg, "--") && s->cmd->operands) {
        s->operands_only = true;
        return cli_next(s);
    }
    bool is_opt = s->cmd->dash_operands ? !strncmp(arg, "--", 2) : arg[0] == '-' && arg[1] != '\0';
    if (!is_opt)
        return operand(s, arg);
    const char *val;
    int k = lookup(s->cmd, arg, &val);
    if (k < 0)
        return refuse_unknown(s, arg);
    if (s->cmd->opts[k].now) {
        int to = current_name(s->cmd, s->cmd->opts[k].now);
        const cli_option *old = &s->cmd->opts[k];
        cli_warn(s->cmd->name, "%s is the old name of %s (it still works; write %s)", old->name, old->now,
                 old->help ? old->help : old->now);
        if (to < 0)
            return refuse_unknown(s, arg);   /* a table error; unreachable in a tested table */
        k = to;
    }
    const cli_option *o = &s->cmd->opts[k];
    if (o->arg && !val) {
        if (s->i + 1 >= s->argc) {
            cli_fail(s->cmd->name, "option %s needs a value (%s)", o->name, o->arg);
            s->status = TC_EXIT_USAGE;
            return false;
        }
        val = s->argv[++s->i];
    }
    if (o->hi && !cli_count(s->cmd->name, o->name, val, o->lo, o->hi, &s->count)) {
        s->status = TC_EXIT_USAGE;
        return false;
    }
    s->opt = k;
    s->val = val;
    return true;
}

/* 1e6 rather than 1000000: ranges read as LIMITS.md writes them. */
static void format_count(unsigned long long x, char *buf, size_t len)
{
    int tens = 0;
    unsigned long long y = x;
    while (y >= 10 && y % 10 == 0) {
        y /= 10;
        tens++;
    }
    if (tens >= 4)
        snprintf(buf, len, "%llue%d", y, tens);
    else
        snprintf(buf, len, "%llu", x);
}

void cli_format_range(const cli_option *o, char *buf, size_t len)
{
    char lo[32], hi[32];
    format_count(o->lo, lo, sizeof lo);
    format_count(o->hi, hi, sizeof hi);
    snprintf(buf, len, "%s..%s", lo, hi);
}

/* "help; COUNT 1..1e9" for a count, so a range is read beside its name. */
void cli_option_help(const cli_option *o, char *buf, size_t len)
{
    char range[80] = "";
    if (o->hi)
        cli_format_range(o, range, sizeof range);
    snprintf(buf, len, "%s%s%s%s%s", o->help, o->hi ? "; " : "", o->hi ? o->arg : "", o->hi ? " " : "", range);
}

static void print_option(FILE *f, const char *name, const char *arg, const char *help)
{
    char head[64];
    snprintf(head, sizeof head, "%s%s%s", name, arg ? " " : "", arg ? arg : "");
    if (strlen(head) > 24)
        fprintf(f, "  %s\n  %-24s %s\n", head, "", help);
    else
        fprintf(f, "  %-24s %s\n", head, help);
}

void cli_print_help(FILE *f, const cli_command *c)
{
    fprintf(f, "usage: tcscope %s [options]%s%s\n\n%s\n\noptions:\n", c->name, c->operands ? " " : "",
            c->operands ? c->operands : "", c->summary);
    for (unsigned k = 0; k < c->nopts; k++) {
        char help[512];
        if (c->opts[k].now)
            continue;
        cli_option_help(&c->opts[k], help, sizeof help);
        print_option(f, c->opts[k].name, c->opts[k].arg, help);
    }
    print_option(f, CLI_HELP_OPT, NULL, "this text");
    print_option(f, CLI_VERSION_OPT, NULL, "the version of tcscope (git describe at build time)");
    print_option(f, CLI_QUIET_OPT, NULL, CLI_QUIET_HELP);
    if (c->notes)
        fprintf(f, "\n%s\n", c->notes);
    fprintf(f, "\nExit status: 0 success, 1 a difference was found, 2 bad input or environment.\n");
}
