/* tcscope formats: every built-in format's properties, derived from its
 * descriptor (nothing typed in). */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "reports/reports.h"
#include "formats/formats.h"
#include "oracle/value.h"

static const char *specials_name(const tc_format *f)
{
    switch (f->specials) {
    case TC_SPECIALS_IEEE: return "inf,nan";
    case TC_SPECIALS_FN: return "nan(S.1..1.1..1)";
    case TC_SPECIALS_NONE: return "none";
    case TC_SPECIALS_E8M0: return "nan(0xff),no-zero,unsigned";
    default: return "integer";
    }
}

static void hex_of(tc_value v, char *buf, size_t len)
{
    tc_value_to_hex(v, buf, len);
}

typedef enum { O_JSON } formats_opt;
static const cli_option opts[] = {
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one format object per format (reports/SCHEMA.md)"},
};
const cli_command cmd_formats_cli = {"formats", "table of every format: bits, bias, range, specials", NULL, NULL,
                                     opts, CLI_NOPTS(opts), false};

int cmd_formats(int argc, char **argv)
{
    bool json = false;
    cli_scan sc = cli_scan_start(&cmd_formats_cli, argc, argv);
    while (cli_next(&sc))
        switch ((formats_opt)sc.opt) {
        case O_JSON: json = true; break;
        }
    if (sc.status)
        return sc.status;
    size_t n;
    const tc_format *const *list = tc_format_list(&n);
    tc_json_out out;
    tc_json_out_begin(&out, json, tc_record_header("formats", NULL, NULL, 0));
    if (!json)
        printf("%-6s %4s %5s %6s %5s %-23s %-23s %-21s %-21s %-26s %s\n", "name", "bits", "bias",
               "emin", "emax", "max", "min_normal", "min_sub", "eps", "specials", "nan_bits");
    for (size_t i = 0; i < n; i++) {
        const tc_format *f = list[i];
        bool isint = tc_format_is_int(f);
        char mx[40], mn[40], ms[40], eps[40], nan[24], maxdec[400];
        hex_of(tc_format_max(f), mx, sizeof mx);
        hex_of(tc_format_min_normal(f), mn, sizeof mn);
        hex_of(tc_format_min_subnormal(f), ms, sizeof ms);
        tc_value e = {.cls = TC_FINITE, .sig = 1, .exp = isint ? 0 : -f->mbits};
        hex_of(e, eps, sizeof eps);
        tc_value_to_decimal(tc_format_max(f), maxdec, sizeof maxdec);
        bool has_nan = f->specials != TC_SPECIALS_NONE && !isint;
        snprintf(nan, sizeof nan, "0x%llx", (unsigned long long)f->nan_bits);
        int bits = f->storage_bits - f->shift;
        if (json) {
            json_t *o = json_pack("{s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s*}",
                                  "name", f->name, "bits", bits, "storage_bits", f->storage_bits,
                                  "shift", f->shift, "ebits", f->ebits, "mbits", f->mbits,
                                  "precision", tc_format_precision(f), "bias", f->bias, "max", mx,
                                  "max_decimal", maxdec, "min_normal", mn, "min_subnormal", ms,
                                  "eps", eps, "specials", specials_name(f),
                                  "nan_bits", has_nan ? nan : NULL);
            json_object_set_new(o, "emin", isint ? json_null() : json_integer(tc_format_emin(f)));
            json_object_set_new(o, "emax", isint ? json_null() : json_integer(tc_format_emax(f)));
            tc_json_out_put(&out, "format", o);
        } else if (isint) {
            printf("%-6s %4d %5s %6s %5s %-23s %-23s %-21s %-21s %-26s %s\n", f->name, bits, "-",
                   "-", "-", maxdec, "-", "-", "1", specials_name(f), "-");
        } else {
            /* decimal for people (448, not 0x1.cp+8); --json keeps the exact hex floats */
            char dmx[32], dmn[32], dms[32], deps[32];
            cli_value_decimal(f, tc_format_max(f), dmx, sizeof dmx);
            cli_value_decimal(f, tc_format_min_normal(f), dmn, sizeof dmn);
            cli_value_decimal(f, tc_format_min_subnormal(f), dms, sizeof dms);
            cli_value_decimal(f, e, deps, sizeof deps);
            printf("%-6s %4d %5d %6d %5d %-23s %-23s %-21s %-21s %-26s %s\n", f->name, bits,
                   f->bias, tc_format_emin(f), tc_format_emax(f), dmx, dmn, dms, deps,
                   specials_name(f), has_nan ? nan : "-");
        }
    }
    tc_json_out_end(&out, NULL);
    return TC_EXIT_OK;
}
