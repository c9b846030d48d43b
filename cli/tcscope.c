/* tcscope entry point: dispatches to cli/cmd_*.c and nothing else. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/reports.h"

/* --help and --version anywhere before "--": answered here, from the
 * command's table, before the command parses anything. */
static int meta_option(const cli_command *c, int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        if (!strcmp(argv[i], CLI_HELP_OPT) || !strcmp(argv[i], "-h")) {
            cli_print_help(stdout, c);
            return TC_EXIT_OK;
        }
        if (!strcmp(argv[i], CLI_VERSION_OPT)) {
            printf("tcscope %s\n", tc_version());
            return TC_EXIT_OK;
        }
    }
    return -1;
}

/* --quiet anywhere before "--": taken out of argv (the commands' parsers
 * never see it) and passed on as TCSCOPE_QUIET, which reports/progress.c
 * reads, here and in every child run. Returns the new argc. */
static int quiet_option(int argc, char **argv)
{
    int n = 1;
    bool operands = false;
    for (int i = 1; i < argc; i++) {
        operands = operands || !strcmp(argv[i], "--");
        if (!operands && !strcmp(argv[i], CLI_QUIET_OPT))
            setenv("TCSCOPE_QUIET", "1", 1);
        else
            argv[n++] = argv[i];
    }
    argv[n] = NULL;
    return n;
}

int main(int argc, char **argv)
{
    argc = quiet_option(argc, argv);
    if (argc < 2) {
        cli_print_usage(stderr);
        return TC_EXIT_USAGE;
    }
    if (!strcmp(argv[1], CLI_HELP_OPT) || !strcmp(argv[1], "-h")) {
        cli_print_usage(stdout);
        return TC_EXIT_OK;
    }
    if (!strcmp(argv[1], CLI_VERSION_OPT)) {
        printf("tcscope %s\n", tc_version());
        return TC_EXIT_OK;
    }
    if (!strcmp(argv[1], "help"))
        return cmd_help(argc - 1, argv + 1);
    const cli_entry *e = cli_command_by_name(argv[1]);
    if (!e)
        return cli_unknown_command(argv[1]);
    int rc = meta_option(e->cmd, argc - 1, argv + 1);
    if (rc >= 0)
        return rc;
    rc = e->fn(argc - 1, argv + 1);
    /* a --json record cut short ("partial") is no result, same or different */
    if ((rc == TC_EXIT_OK || rc == TC_EXIT_DIFF) && tc_json_out_ended_partial())
        rc = cli_fail(argv[1], "the --json record ended \"partial\" (why: above): not a complete result");
    return rc;
}
