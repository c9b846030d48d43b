/* cli: argument handling shared by the commands. Each command lives in
 * cli/cmd_NAME.c and only parses, calls the libraries, and prints. */
#ifndef TC_CLI_H
#define TC_CLI_H

#include <stdbool.h>
#include <stdio.h>

/* Exit statuses of the CLI contract. */
enum { TC_EXIT_OK = 0, TC_EXIT_DIFF = 1, TC_EXIT_USAGE = 2 };

typedef int (*tc_cmd_fn)(int argc, char **argv);

/* Prints "tcscope CMD: message" on stderr and returns TC_EXIT_USAGE. */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* argv scanning: returns the value of --name VALUE or --name=VALUE at *i
 * (advancing *i), or NULL when argv[*i] is not that option. A missing value
 * is reported and *missing set. */
const char *cli_opt(int argc, char **argv, int *i, const char *name, bool *missing);

int cmd_formats(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_hunt(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_choose(int argc, char **argv);
int cmd_cases(int argc, char **argv);

#endif
