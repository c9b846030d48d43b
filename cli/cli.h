/* cli: argument handling shared by the commands. Each command lives in
 * cli/cmd_NAME.c and only parses, calls the libraries, and prints. */
#ifndef TC_CLI_H
#define TC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/options.h"
#include "formats/formats.h"

/* Exit statuses of the CLI contract. */
enum { TC_EXIT_OK = 0, TC_EXIT_DIFF = 1, TC_EXIT_USAGE = 2 };

typedef int (*tc_cmd_fn)(int argc, char **argv);

/* Prints "tcscope CMD: message" on stderr and returns TC_EXIT_USAGE (cli/messages.c). */
int cli_fail(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same message, and the command goes on. Both print control
 * characters and bytes that are not UTF-8 as \xHH (reports/text.h). */
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A record's string field, safe to print on a terminal (control and
 * non-UTF-8 bytes escaped, at most 399 bytes), "?" when absent. The result
 * lives in one of 8 rotating buffers: up to 8 per printf call. */
struct json_t;
const char *cli_str(const struct json_t *obj, const char *key);
/* s escaped for the terminal (reports/text.h: control characters, DEL and
 * bytes outside UTF-8 as \xHH), cut at 400 bytes; from a ring of 8 buffers,
 * so a printf may take several. */
const char *cli_safe(const char *s);

/* Counts and seeds (cli/args.c). A count is a whole number in lo..hi,
 * written as digits or as --help writes ranges ("1e5", "2.5e6"); a seed
 * is 0..2^64-1 in decimal or 0x hex. None takes a sign, a blank or a
 * suffix. false after "tcscope CMD: bad OPT 'V' (...range...)". */
bool cli_count(const char *cmd, const char *opt, const char *v, unsigned long long lo,
               unsigned long long hi, unsigned long long *out);
bool cli_count_int(const char *cmd, const char *opt, const char *v, int lo, int hi, int *out);
/* A positive finite number (strtod syntax, nothing after it; not one that
 * underflows or overflows); "LO:HI", two of them with LO < HI. false on
 * anything else, nothing printed: the command says what it wanted. */
bool cli_pos_double(const char *s, double *out);
bool cli_range(const char *s, double *lo, double *hi);
/* A tolerance or bound: "0.05" or "5%" (the same number), in lo..hi.
 * false on anything else, nothing printed. */
bool cli_fraction(const char *s, double lo, double hi, double *out);
/* A relative tolerance, 0..1: "0.05" or "5%". A bare number from 1 to 100
 * is the old percent spelling ("5" = 5%), accepted with a warning. false
 * after "tcscope CMD: bad OPT 'V' (...)". */
bool cli_tolerance(const char *cmd, const char *opt, const char *v, double *out);
/* "N1,N2,..": counts in lo..hi (cli_count_int), at most max of them, into
 * out[0..*n). false after "tcscope CMD: bad OPT '...'" or "OPT: at most MAX
 * values"; an empty item is a bad count. */
bool cli_count_list(const char *cmd, const char *opt, const char *v, int lo, int hi, int max, int *out, int *n);
/* "I/N" (--shard): two counts, 1 <= N <= hi and I < N. false after
 * "tcscope CMD: bad OPT 'V' (...)". */
bool cli_index_of(const char *cmd, const char *opt, const char *v, unsigned hi, unsigned *i, unsigned *n);
/* A comma list (--instr names, --merge folders): no empty item (",x", "x,",
 * "x,,y"); with instrs, every name in the catalogue ("all" alone).
 * TC_EXIT_OK, or TC_EXIT_USAGE with the message printed. */
int cli_list_check(const char *cmd, const char *opt, const char *text, bool instrs);
/* The backend of a command (cli/backend_rule.c): spec when given, else the
 * GPU when there is one, else the recorded model CLI_RECORDED_MODEL, said
 * on stderr (*fallback true). NULL after a message (exit 2). */
#define CLI_RECORDED_MODEL "model:h100"
struct tc_backend;
struct tc_backend *cli_backend_open(const char *cmd, const char *spec, bool *fallback);
/* --arch ARCH: the architecture's sm (probes/probes.h tc_arch_parse) in *sm,
 * or TC_EXIT_USAGE naming the eight. */
int cli_arch_parse(const char *cmd, const char *arch, int *sm);
/* --arch ARCH (NULL: none) on an opened backend: a software backend keeps to
 * that architecture's instructions (every other one refused, exit 2 where a
 * command names it); a GPU is refused (its own architecture decides).
 * TC_EXIT_OK, or TC_EXIT_USAGE with the message printed. */
int cli_backend_arch(const char *cmd, struct tc_backend *b, const char *arch);
/* "tcscope CMD: no GPU (why); without one, the recorded model answers:
 * --backend model:h100" (or, with instead, that text after "without one, "),
 * the one wording of every command; TC_EXIT_USAGE. */
int cli_no_gpu(const char *cmd, const char *why);
int cli_no_gpu_instead(const char *cmd, const char *why, const char *instead);
/* name is in a checked --instr list (or the list is "all"). */
bool cli_instr_selected(const char *sel, const char *name);
/* item appended to the comma list *list (NULL: empty), which grows: the
 * lists a command hands its children (--instr A,B, --merge DIR,DIR). 0, or
 * -1 when memory runs out (*list unchanged). */
int cli_list_add(char **list, const char *item);
bool cli_seed(const char *cmd, const char *opt, const char *v, uint64_t *out);
/* 0..max in decimal or 0x hex (a seed is 0..UINT64_MAX). */
bool cli_u64(const char *cmd, const char *opt, const char *v, uint64_t max, uint64_t *out);

/* Decimal first (cli/decimal.c): the shortest decimal that reads back as
 * the same value of format f, rounded to nearest (f NULL: of a double):
 * "448", "0.001953125", "3.4028235e+38", "-inf", "nan". */
void cli_decimal(const tc_format *f, double x, char *buf, size_t len);
void cli_value_decimal(const tc_format *f, tc_value v, char *buf, size_t len);

/* "did you mean" (cli/suggest.c): the name nearest to word within a few
 * edits, or NULL. The two reporters print "[OPT: ]unknown instruction 'X'
 * (did you mean Y? see tcscope list)" (formats: tcscope formats) and
 * return TC_EXIT_USAGE; opt may be NULL. */
const char *cli_nearest(const char *word, const char *const *names, size_t n);
int cli_unknown_instr(const char *cmd, const char *opt, const char *name);
int cli_unknown_format(const char *cmd, const char *opt, const char *name);
/* A format named by a user: any case ("E4M3"), else NULL after a message
 * that suggests the name (fp8 -> "e4m3 or e5m2", fp16 -> f16, a typo ->
 * the nearest name). */
const tc_format *cli_format_named(const char *cmd, const char *opt, const char *name, tc_format *scratch);

/* --render REC --out DIR (cli/render_record.c): the report of a recorded
 * run written into DIR, named after REC, nothing run; --force replaces an
 * earlier one. TC_EXIT_OK, or TC_EXIT_USAGE after a message. */
int cli_render_record(const char *cmd, const char *path, const char *out, bool force);

int cmd_formats(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_hunt(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_choose(int argc, char **argv);
int cmd_gemm(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_cases(int argc, char **argv);
int cmd_regress(int argc, char **argv);
int cmd_pack(int argc, char **argv);
int cmd_decide(int argc, char **argv);

/* Each command's option table (cli/options.h), beside its parser. */
extern const cli_command cmd_formats_cli;
extern const cli_command cmd_convert_cli;
extern const cli_command cmd_import_cli;
extern const cli_command cmd_list_cli;
extern const cli_command cmd_run_cli;
extern const cli_command cmd_record_cli;
extern const cli_command cmd_audit_cli;
extern const cli_command cmd_verify_cli;
extern const cli_command cmd_regress_cli;
extern const cli_command cmd_hunt_cli;
extern const cli_command cmd_sweep_cli;
extern const cli_command cmd_bench_cli;
extern const cli_command cmd_compare_cli;
extern const cli_command cmd_choose_cli;
extern const cli_command cmd_gemm_cli;
extern const cli_command cmd_probe_cli;
extern const cli_command cmd_cases_cli;
extern const cli_command cmd_decide_cli;
extern const cli_command cmd_pack_cli;

/* The command table (cli/commands.c): dispatch and help in one order. */
typedef struct {
    const cli_command *cmd;
    tc_cmd_fn fn;
} cli_entry;
const cli_entry *cli_commands(size_t *n);
const cli_entry *cli_command_by_name(const char *name);
/* tcscope help [CMD | --commands | --options CMD | --man] (cli/help.c);
 * an unknown command is reported with the nearest name. */
int cli_unknown_command(const char *name);
int cmd_help(int argc, char **argv);
void cli_print_usage(FILE *f);


#endif
