/* tcscope pack IN --out OUT: a record (text, .gz or packed) written as a
 * packed record (reports/record_packed.h, SCHEMA.md "Packed records"), then
 * read back and compared with IN's text byte for byte before OUT is put in
 * place; the counts printed. tcscope pack IN --text: IN's text (today's
 * form) on stdout, whatever its form. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "reports/record_packed.h"

#define CMD "pack"

typedef enum { O_OUT, O_TEXT } pack_opt;
static const cli_option opts[] = {
    [O_OUT] = {"--out", "OUT", "the packed record to write (must not exist; written only once read back equal)"},
    [O_TEXT] = {"--text", NULL, "print the record's text (today's JSON lines) on stdout instead"},
};
const cli_command cmd_pack_cli = {
    "pack", "write a record compactly: inputs by seed and hash, outputs as packed bits, xz", "IN",
    "IN is a record in any form (text, .gz, packed); every reader takes the packed form too.\n"
    "Objects \"tiles\", \"chain\", \"hunt\" and \"gemm\" are packed; their inputs must be the generator's.",
    opts, CLI_NOPTS(opts), false};

/* The whole text of the record at path, or NULL after a message. */
static char *slurp(const char *path, size_t *len)
{
    char err[700];
    tc_record_file rf;
    FILE *f = tc_record_open(path, &rf, err, sizeof err);
    if (!f) {
        cli_fail(CMD, "%s", err);
        return NULL;
    }
    char *text = NULL, buf[1 << 16];
    FILE *m = open_memstream(&text, len);
    for (size_t got; (got = fread(buf, 1, sizeof buf, f)) > 0;)
        fwrite(buf, 1, got, m);
    fclose(m);
    if (tc_record_close(f, &rf)) {
        cli_fail(CMD, "%s: cannot be read whole (a damaged .gz?)", path);
        free(text);
        return NULL;
    }
    return text;
}

static int pack(const char *in, const char *out, const char *text, size_t len)
{
    char err[700], *xz = NULL, *back = NULL;
    size_t xn = 0, bn = 0;
    tc_packed_stats w, r;
    FILE *m = open_memstream(&xz, &xn);
    int rc = tc_packed_write(text, len, m, &w, err, sizeof err);
    fclose(m);
    if (rc) {
        free(xz);
        return cli_fail(CMD, "%s: %s", in, err);
    }
    if (tc_packed_read((unsigned char *)xz, xn, &back, &bn, &r, err, sizeof err) || bn != len ||
        memcmp(back, text, len)) {
        free(xz);
        free(back);
        return cli_fail(CMD, "%s: the packed form does not read back byte for byte (%s)", in,
                        bn != len ? "length differs" : err);
    }
    free(back);
    FILE *f = fopen(out, "wbx");
    if (!f || fwrite(xz, 1, xn, f) != xn || fclose(f)) {
        free(xz);
        return cli_fail(CMD, "%s: %s", out, strerror(errno));
    }
    free(xz);
    printf("%s -> %s: %zu lines, %zu objects packed, %zu input elements drawn again from the seed (their "
           "sha256 checked), %zu output elements as packed bits; read back byte for byte (%zu bytes of text in %zu "
           "bytes)\n",
           in, out, r.lines, r.packed, r.inputs, r.outputs, len, xn);
    return TC_EXIT_OK;
}

int cmd_pack(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    bool text_only = false;
    cli_scan sc = cli_scan_start(&cmd_pack_cli, argc, argv);
    while (cli_next(&sc)) {
        if (sc.opt == CLI_OPERAND) {
            if (in)
                return cli_fail(CMD, "one record at a time ('%s' after '%s')", sc.val, in);
            in = sc.val;
        } else if (sc.opt == O_OUT)
            out = sc.val;
        else
            text_only = true;
    }
    if (sc.status)
        return sc.status;
    if (!in || (!out) == !text_only)
        return cli_fail(CMD, "usage: tcscope pack IN --out OUT, or tcscope pack IN --text");
    struct stat st;
    if (out && stat(out, &st) == 0)
        return cli_fail(CMD, "%s exists: not replaced", out);
    size_t len = 0;
    char *text = slurp(in, &len);
    if (!text)
        return TC_EXIT_USAGE;
    int rc = TC_EXIT_OK;
    if (text_only)
        rc = fwrite(text, 1, len, stdout) == len ? TC_EXIT_OK : cli_fail(CMD, "stdout: write failed");
    else
        rc = pack(in, out, text, len);
    free(text);
    return rc;
}
