/* tcscope convert: values (decimal, hex float, inf/nan, bits:0x..) rounded
 * once into a format; prints the bits, the exact result, and the exact
 * input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "reports/reports.h"
#include "formats/formats.h"
#include "oracle/value.h"

#define CMD "convert"

typedef struct {
    const tc_format *f;
    tc_rounding r;
    bool json;
    bool daz;   /* bits: input read with subnormals as zero */
    tc_json_out out; /* the --json record (SCHEMA.md "Command output") */
} convert_opts;

static const char *class_name(tc_class c)
{
    static const char *const n[] = {"zero", "finite", "inf", "nan"};
    return n[c];
}

/* One value: parse, round, print. Returns the exit status. */
static int convert_one(convert_opts *o, const char *text)
{
    char err[256];
    tc_parsed_value p;
    if (!tc_value_parse(text, o->f, &p, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    if (p.is_bits && o->daz)
        p.v = tc_decode(o->f, p.bits, true);
    unsigned fl = 0;   /* bits given as they are: no conversion, no flag */
    uint64_t bits = p.is_bits && !o->daz ? p.bits : tc_encode_flags(o->f, p.v, p.sticky, o->r, &fl);
    bool inexact = fl & TC_FLAG_INEXACT, overflow = fl & TC_FLAG_OVERFLOW, saturated = fl & TC_FLAG_SATURATED;
    tc_value out = tc_decode(o->f, bits, false);
    char in_hex[64], out_hex[64], bits_s[24];
    static char out_dec[2048];
    tc_value_to_hex(p.v, in_hex, sizeof in_hex);
    tc_value_to_hex(out, out_hex, sizeof out_hex);
    if (!tc_value_to_decimal(out, out_dec, sizeof out_dec))
        snprintf(out_dec, sizeof out_dec, "(too long)");
    int digits = (o->f->storage_bits + 3) / 4;
    snprintf(bits_s, sizeof bits_s, "0x%0*llx", digits, (unsigned long long)bits);
    /* A decimal that binary cannot hold exactly: its 64-bit truncation. */
    const char *exactness = p.sticky ? "truncated" : "exact";
    if (o->json) {
        json_t *j = json_pack("{s:s, s:s, s:b, s:s, s:s, s:s, s:b, s:s, s:s, s:s, s:s}", "input",
                              text, "input_value", in_hex, "input_exact", !p.sticky, "format",
                              o->f->name, "round", tc_round_name(o->r.mode), "overflow",
                              tc_overflow_name(o->r.ovf), "ftz", o->r.ftz, "bits", bits_s,
                              "class", class_name(out.cls), "value", out_hex, "value_decimal",
                              out_dec);
        /* an object: "overflow" at the top is the overflow mode asked for */
        json_object_set_new(j, "flags", json_pack("{s:b, s:b, s:b}", "inexact", inexact, "overflow", overflow,
                                                  "saturated", saturated));
        if (o->r.mode == TC_RS)
            json_object_set_new(j, "rbits", json_integer(o->r.rbits));
        tc_json_out_put(&o->out, "conversion", j);
    } else {
        char flags[40];
        snprintf(flags, sizeof flags, "%s%s%s", inexact ? " inexact" : "", overflow ? " overflow" : "",
                 saturated ? " saturated" : "");
        /* decimal first (exact), the hex float and the bits beside it */
        printf("%s -> %s %s/%s%s: %s = %s   bits %s   (input %s, %s)   flags:%s\n", text, o->f->name,
               tc_round_name(o->r.mode), tc_overflow_name(o->r.ovf), o->r.ftz ? "/ftz" : "",
               out_dec, out_hex, bits_s, in_hex, exactness, *flags ? flags : " none");
    }
    return TC_EXIT_OK;
}

/* Values one per line from stdin. An empty line, a NUL byte (which would
 * end the value early and drop the rest of the line unread), a read error
 * (stdin a directory) or no value at all is an error. */
static int convert_stdin(convert_opts *o)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    int rc = TC_EXIT_OK;
    errno = 0;
    while (rc == TC_EXIT_OK && (n = getline(&line, &cap, stdin)) >= 0) {
        lineno++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (strlen(line) != (size_t)n)
            rc = cli_fail(CMD, "NUL byte in line %ld on standard input", lineno);
        else if (n == 0)
            rc = cli_fail(CMD, "empty line %ld on standard input", lineno);
        else
            rc = convert_one(o, line);
        errno = 0;
    }
    if (rc == TC_EXIT_OK && (ferror(stdin) || errno))
        rc = cli_fail(CMD, "cannot read standard input: %s", strerror(errno ? errno : EIO));
    else if (rc == TC_EXIT_OK && lineno == 0)
        rc = cli_fail(CMD, "no value on standard input");
    free(line);
    return rc;
}

typedef enum { O_TO, O_ROUND, O_RBITS, O_OVF, O_SAT, O_NOSAT, O_FTZ, O_DAZ, O_JSON } convert_opt;
static const cli_option opts[] = {
    [O_TO] = {"--to", "FMT", "the format to round into (required; tcscope formats lists them, or eXmY)"},
    [O_ROUND] = {"--round", "MODE", "rne (default), rna, rz, ru, rd, ro (to odd) or rs (stochastic, with --rbits)"},
    [O_RBITS] = {"--rbits", "R", "the random bits of --round rs (0..0xffffffff, decimal or 0x hex)"},
    [O_OVF] = {"--ovf", "MODE", "past the largest finite value: inf (default), sat (largest finite) or nan"},
    [O_SAT] = {"--sat", NULL, "the same as --ovf sat"},
    [O_NOSAT] = {"--nosat", NULL, "the same as --ovf inf"},
    [O_FTZ] = {"--ftz", NULL, "a subnormal result is flushed to zero"},
    [O_DAZ] = {"--daz", NULL, "a bits:0x.. input that is subnormal is read as zero"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one conversion object per value (reports/SCHEMA.md)"},
};
const cli_command cmd_convert_cli = {
    "convert", "values rounded once into a format: the bits, the exact result, the exact input",
    "VALUE...|-", "VALUE: decimal, hex float (0x1.8p3), inf, nan, or bits:0x.. in the target format;\n"
    "none, or -, reads one value a line from standard input; after -- every argument is a value.",
    opts, CLI_NOPTS(opts), true};

int cmd_convert(int argc, char **argv)
{
    convert_opts o = {.f = NULL, .r = {.mode = TC_RNE, .ovf = TC_OVF_INF}};
    static tc_format scratch;
    const char **values = calloc((size_t)argc + 1, sizeof *values);
    int nvalues = 0;
    bool use_stdin = false;
    int rc = TC_EXIT_OK;
    uint64_t rb;
    cli_scan sc = cli_scan_start(&cmd_convert_cli, argc, argv);
    while (rc == TC_EXIT_OK && cli_next(&sc)) {
        const char *v = sc.val;
        if (sc.opt == CLI_OPERAND) {
            if (!strcmp(v, "-") && !sc.operands_only)
                use_stdin = true;
            else
                values[nvalues++] = v;
            continue;
        }
        switch ((convert_opt)sc.opt) {
        case O_TO:
            if (!(o.f = cli_format_named(CMD, "--to", v, &scratch)))
                rc = TC_EXIT_USAGE;
            break;
        case O_ROUND:
            if (!tc_round_parse(v, &o.r.mode))
                rc = cli_fail(CMD, "unknown rounding mode '%s' (rne rna rz ru rd ro rs)", v);
            break;
        case O_RBITS:
            if (!cli_u64(CMD, "--rbits", v, 0xFFFFFFFFu, &rb))
                rc = TC_EXIT_USAGE;
            o.r.rbits = (uint32_t)rb;
            break;
        case O_OVF:
            if (!tc_overflow_parse(v, &o.r.ovf))
                rc = cli_fail(CMD, "unknown overflow mode '%s' (inf sat nan)", v);
            break;
        case O_SAT: o.r.ovf = TC_OVF_SAT; break;
        case O_NOSAT: o.r.ovf = TC_OVF_INF; break;
        case O_FTZ: o.r.ftz = true; break;
        case O_DAZ: o.daz = true; break;
        case O_JSON: o.json = true; break;
        }
    }
    if (rc == TC_EXIT_OK)
        rc = sc.status;
    if (rc != TC_EXIT_OK)
        goto out;
    if (!o.f) {
        rc = cli_fail(CMD, "missing --to FMT (see tcscope formats)");
        goto out;
    }
    if (nvalues == 0)
        use_stdin = true;
    tc_json_out_begin(&o.out, o.json, tc_record_header(CMD, NULL, NULL, 0));
    for (int k = 0; k < nvalues && rc == TC_EXIT_OK; k++)
        rc = convert_one(&o, values[k]);
    if (rc == TC_EXIT_OK && use_stdin)
        rc = convert_stdin(&o);
    tc_json_out_end(&o.out, rc == TC_EXIT_USAGE ? "stopped at a value it could not read (see stderr)" : NULL);
out:
    free(values);
    return rc;
}
