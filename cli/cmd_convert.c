/* tcscope convert: values (decimal, hex float, inf/nan, bits:0x..) rounded
 * once into a format; prints the bits, the exact result, and the exact
 * input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "formats/formats.h"
#include "oracle/value.h"

#define CMD "convert"

typedef struct {
    const tc_format *f;
    tc_rounding r;
    bool json;
    bool daz;   /* bits: input read with subnormals as zero */
} convert_opts;

static const char *class_name(tc_class c)
{
    static const char *const n[] = {"zero", "finite", "inf", "nan"};
    return n[c];
}

/* One value: parse, round, print. Returns the exit status. */
static int convert_one(const convert_opts *o, const char *text)
{
    char err[256];
    tc_parsed_value p;
    if (!tc_value_parse(text, o->f, &p, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    if (p.is_bits && o->daz)
        p.v = tc_decode(o->f, p.bits, true);
    uint64_t bits = p.is_bits && !o->daz ? p.bits : tc_encode(o->f, p.v, p.sticky, o->r);
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
        if (o->r.mode == TC_RS)
            json_object_set_new(j, "rbits", json_integer(o->r.rbits));
        char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
        puts(s);
        free(s);
        json_decref(j);
    } else {
        printf("%s -> %s %s/%s%s: bits %s = %s = %s   (input %s, %s)\n", text, o->f->name,
               tc_round_name(o->r.mode), tc_overflow_name(o->r.ovf), o->r.ftz ? "/ftz" : "",
               bits_s, out_hex, out_dec, in_hex, exactness);
    }
    return TC_EXIT_OK;
}

/* Values one per line from stdin. An empty line, a NUL byte (which would
 * end the value early and drop the rest of the line unread), a read error
 * (stdin a directory) or no value at all is an error. */
static int convert_stdin(const convert_opts *o)
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

/* An argument that starts with '-' but is a value ("-1.5", "-inf", "-0x1p3"). */
static bool looks_like_value(const char *a)
{
    return a[0] == '-' && a[1] != '-' && a[1] != '\0';
}

int cmd_convert(int argc, char **argv)
{
    convert_opts o = {.f = NULL, .r = {.mode = TC_RNE, .ovf = TC_OVF_INF}};
    static tc_format scratch;
    const char **values = calloc((size_t)argc + 1, sizeof *values);
    int nvalues = 0;
    bool use_stdin = false, only_values = false;
    int rc = TC_EXIT_OK;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool missing = false;
        if (only_values || (a[0] != '-' || looks_like_value(a))) {
            if (!strcmp(a, "-") && !only_values)
                use_stdin = true;
            else
                values[nvalues++] = a;
        } else if (!strcmp(a, "--")) {
            only_values = true;
        } else if (!strcmp(a, "-")) {
            use_stdin = true;
        } else if ((v = cli_opt(argc, argv, &i, "--to", &missing))) {
            o.f = tc_format_by_name(v, &scratch);
            if (!o.f) {
                rc = cli_fail(CMD, "unknown format '%s' (see tcscope formats)", v);
                goto out;
            }
        } else if ((v = cli_opt(argc, argv, &i, "--round", &missing))) {
            if (!tc_round_parse(v, &o.r.mode)) {
                rc = cli_fail(CMD, "unknown rounding mode '%s' (rne rna rz ru rd ro rs)", v);
                goto out;
            }
        } else if ((v = cli_opt(argc, argv, &i, "--ovf", &missing))) {
            if (!tc_overflow_parse(v, &o.r.ovf)) {
                rc = cli_fail(CMD, "unknown overflow mode '%s' (inf sat nan)", v);
                goto out;
            }
        } else if ((v = cli_opt(argc, argv, &i, "--rbits", &missing))) {
            uint64_t rb;
            if (!cli_u64(CMD, "--rbits", v, 0xFFFFFFFFu, &rb)) {
                rc = TC_EXIT_USAGE;
                goto out;
            }
            o.r.rbits = (uint32_t)rb;
        } else if (missing) {
            rc = TC_EXIT_USAGE;
            goto out;
        } else if (!strcmp(a, "--sat")) {
            o.r.ovf = TC_OVF_SAT;
        } else if (!strcmp(a, "--nosat")) {
            o.r.ovf = TC_OVF_INF;
        } else if (!strcmp(a, "--ftz")) {
            o.r.ftz = true;
        } else if (!strcmp(a, "--daz")) {
            o.daz = true;
        } else if (!strcmp(a, "--json")) {
            o.json = true;
        } else {
            rc = cli_fail(CMD, "unknown option '%s'", a);
            goto out;
        }
    }
    if (!o.f) {
        rc = cli_fail(CMD, "missing --to FMT (see tcscope formats)");
        goto out;
    }
    if (nvalues == 0)
        use_stdin = true;
    for (int k = 0; k < nvalues && rc == TC_EXIT_OK; k++)
        rc = convert_one(&o, values[k]);
    if (rc == TC_EXIT_OK && use_stdin)
        rc = convert_stdin(&o);
out:
    free(values);
    return rc;
}
