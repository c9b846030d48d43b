/* cli/options.h: each command's options as one table, read by its parser
 * (cli_next) and by every help it has (--help, tcscope help CMD, the man
 * page, the shell completion), so what is documented is what is accepted. */
#ifndef TC_CLI_OPTIONS_H
#define TC_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

typedef struct {
    const char *name;   /* "--backend" */
    const char *arg;    /* its value's placeholder ("B"), NULL for a flag */
    const char *help;   /* one line: what it does, values, default */
    /* A count (hi > 0): cli_next checks lo..hi (cli_count) and hands the
     * number over in cli_scan.count; --help prints the range from here. */
    unsigned long long lo, hi;
    /* An old spelling kept as an alias: the name of the option that
     * replaced it (in the same table). cli_next warns on stderr (naming
     * help, when given, as what to write instead) and answers as that
     * option; no help, man page or completion lists it. */
    const char *now;
} cli_option;

/* An old spelling of an option: {CLI_ALIAS("--scale", "--scaling")}. */
#define CLI_ALIAS(old, new_name) .name = (old), .now = (new_name)
/* The same with what to write instead: CLI_ALIAS_HINT("--device", "--backend", "--backend gpu:N"). */
#define CLI_ALIAS_HINT(old, new_name, hint) .name = (old), .now = (new_name), .help = (hint)

typedef struct {
    const char *name;       /* "audit" */
    const char *summary;    /* one line, for tcscope --help */
    const char *operands;   /* "FILE...", NULL: the command takes none */
    const char *notes;      /* more lines (limits shared by options), or NULL */
    const cli_option *opts;
    unsigned nopts;
    /* Operands may begin with '-' ("-1.5", "-inf", "-" for stdin): only
     * "--NAME" is an option then (convert). */
    bool dash_operands;
} cli_command;

#define CLI_NOPTS(table) ((unsigned)(sizeof(table) / sizeof((table)[0])))

/* The options every command takes, answered by tcscope.c before the
 * command runs; listed by every help. */
#define CLI_HELP_OPT "--help"
#define CLI_VERSION_OPT "--version"
/* No progress on stderr (reports/progress.c): taken out of the arguments
 * before the command parses them, passed on as TCSCOPE_QUIET, so child
 * runs are quiet too. */
#define CLI_QUIET_OPT "--quiet"
#define CLI_QUIET_HELP "no progress on stderr (the bar on a terminal, the lines in a log)"

enum { CLI_OPERAND = -1 };

typedef struct {
    const cli_command *cmd;
    int argc;
    char **argv;
    int i;                    /* the argument read last */
    bool operands_only;       /* after "--" */
    int opt;                  /* index in cmd->opts, or CLI_OPERAND */
    const char *val;          /* the option's value (NULL for a flag), or the operand */
    unsigned long long count; /* a count option's number */
    int status;               /* TC_EXIT_USAGE after an error, else TC_EXIT_OK */
} cli_scan;

cli_scan cli_scan_start(const cli_command *cmd, int argc, char **argv);
/* The next argument: true with s->opt and s->val set; false at the end
 * (status TC_EXIT_OK) or after printing why an argument is refused
 * (status TC_EXIT_USAGE): an option not in the table ("did you mean"),
 * a missing value, a count out of range, an operand where none is taken. */
bool cli_next(cli_scan *s);

/* The command's help, from its table (tcscope CMD --help). */
void cli_print_help(FILE *f, const cli_command *c);
/* "1..1e9", "0..4096": a count option's range as --help prints it. */
void cli_format_range(const cli_option *o, char *buf, size_t len);
/* The option's help line, a count's range appended ("...; COUNT 1..1e9"). */
void cli_option_help(const cli_option *o, char *buf, size_t len);

#endif
