/* tcscope pack IN --out OUT: a record (text, .gz or packed) written as a
 * packed record (reports/record_packed.h, SCHEMA.md "Packed records"), then
 * read back and compared with IN's text byte for byte before OUT is put in
 * place; the counts printed. --drop KEY first removes every member KEY
 * (constant text the schema now holds once, as gemm's "meaning"): the lines
 * that had one are written again as the record writers write them.
 * tcscope pack IN --text: IN's text (today's form) on stdout, whatever its
 * form. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/cli.h"
#include "reports/record_packed.h"
#include "reports/render.h"

#define CMD "pack"

typedef enum { O_OUT, O_TEXT, O_DROP } pack_opt;
static const cli_option opts[] = {
    [O_OUT] = {"--out", "OUT", "the packed record to write (must not exist; written only once read back equal)"},
    [O_TEXT] = {"--text", NULL, "print the record's text (today's JSON lines) on stdout instead"},
    [O_DROP] = {"--drop", "KEY", "first remove every member KEY, at any depth (text the schema holds once)"},
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

/* Removes every member named key from j, at any depth; how many. */
static size_t drop_key(json_t *j, const char *key)
{
    size_t n = 0, i;
    const char *k;
    json_t *v;
    void *tmp;
    if (json_is_object(j)) {
        n += json_object_del(j, key) == 0;
        json_object_foreach_safe(j, tmp, k, v) n += drop_key(v, key);
    } else if (json_is_array(j))
        json_array_foreach(j, i, v) n += drop_key(v, key);
    return n;
}

/* text without the members key (a fresh buffer, its length in *len), the
 * count in *dropped; NULL after a message. */
static char *drop_text(const char *path, const char *text, size_t *len, const char *key, size_t *dropped)
{
    char *out = NULL, quoted[200];
    size_t on = 0, lineno = 0;
    snprintf(quoted, sizeof quoted, "\"%s\":", key);
    FILE *m = open_memstream(&out, &on);
    *dropped = 0;
    for (const char *l = text, *end = text + *len; l < end; lineno++) {
        const char *nl = memchr(l, '\n', (size_t)(end - l));
        size_t ll = nl ? (size_t)(nl - l) : (size_t)(end - l);
        json_error_t je;
        json_t *o = memmem(l, ll, quoted, strlen(quoted)) ? json_loadb(l, ll, 0, &je) : NULL;
        size_t n = o ? drop_key(o, key) : 0;
        char *s = n ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17)) : NULL;
        if (n && !s) {
            json_decref(o);
            fclose(m);
            free(out);
            cli_fail(CMD, "%s: line %zu: out of memory", path, lineno + 1);
            return NULL;
        }
        if (s)
            fputs(s, m);
        else
            fwrite(l, 1, ll, m);
        if (nl)
            fputc('\n', m);
        *dropped += n;
        free(s);
        json_decref(o);
        l += ll + (nl != NULL);
    }
    fclose(m);
    *len = on;
    return out;
}

static void progress_cb(void *ctx, size_t done, size_t total)
{
    (void)total;
    tc_progress_update(ctx, done);
}

static int pack(const char *in, const char *out, const char *text, size_t len)
{
    char err[700], *xz = NULL, *back = NULL;
    size_t xn = 0, bn = 0;
    tc_packed_stats w, r;
    FILE *m = open_memstream(&xz, &xn);
    tc_progress prog;   /* on a terminal: bytes of text packed, the time left (then xz and the read-back) */
    tc_progress_start(&prog, "pack", len);
    int rc = tc_packed_write_progress(text, len, m, &w, progress_cb, &prog, err, sizeof err);
    fclose(m);
    tc_progress_clear(&prog);
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
    const char *in = NULL, *out = NULL, *drop = NULL;
    bool text_only = false;
    cli_scan sc = cli_scan_start(&cmd_pack_cli, argc, argv);
    while (cli_next(&sc)) {
        if (sc.opt == CLI_OPERAND) {
            if (in)
                return cli_fail(CMD, "one record at a time ('%s' after '%s')", sc.val, in);
            in = sc.val;
        } else if (sc.opt == O_OUT)
            out = sc.val;
        else if (sc.opt == O_DROP)
            drop = sc.val;
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
    if (drop) {
        size_t dropped;
        char *kept = drop_text(in, text, &len, drop, &dropped);
        free(text);
        if (!kept)
            return TC_EXIT_USAGE;
        text = kept;
        fprintf(stderr, "tcscope pack: %zu members \"%s\" removed\n", dropped, drop);
    }
    int rc = TC_EXIT_OK;
    if (text_only)
        rc = fwrite(text, 1, len, stdout) == len ? TC_EXIT_OK : cli_fail(CMD, "stdout: write failed");
    else
        rc = pack(in, out, text, len);
    free(text);
    return rc;
}
