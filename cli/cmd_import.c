/* tcscope import km SRC --out DIR: recorded GPU answers of Khattak &
 * Mikaitis (MATLAB-tensor-core model_validation, BSD-2) into dots lines
 * (probes/dots.h), one record "dots" DIR/km-<gpu>.jsonl per GPU folder.
 *
 * Data-driven: GPU/FORMAT/ folders, files a_GPU_FORMAT.txt, b_.., c_GPU_fp32.txt
 * and d_GPU_OUT.txt (OUT fp32 or fp16); no GPU is named here. The
 * instruction is the one the recording programs (CUDA/ of the data) ran for
 * the format: wmma m16n16k16 (fp16, bf16), wmma m16n16k8 (tf32) and
 * mma.sync m16n8k32 (8-bit formats), C and D in OUT; a row is A row 0 times
 * B column 0 plus C[0][0], the rest of the tile zero, the row's values at
 * K positions 0.. and zeros after. C is read as f32 and, for an fp16 output,
 * converted with RNE as the programs did (__float2half). Operands must be
 * exact in their format (checked: the programs converted them with RNE). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <dirent.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "probes/dots.h"
#include "reports/reports.h"
#include "reports/record_dots.h"

#define CMD "import"
#define KM_SOURCE "Khattak & Mikaitis, MATLAB-tensor-core model_validation (github.com/north-numerical-computing/" \
                  "MATLAB-tensor-core), BSD 2-Clause; recorded by them, not by tcscope"

extern char **environ;

typedef enum { O_OUT } import_opt;
static const cli_option opts[] = {
    [O_OUT] = {"--out", "DIR", "folder for km-<gpu>.jsonl (one per GPU folder of the data)"},
};
const cli_command cmd_import_cli = {"import", "convert third-party recorded GPU answers into dots corpora",
                                    "km DIR|TAR.xz", "km: Khattak & Mikaitis model_validation data (GPU/FORMAT/ "
                                    "folders); a .tar.xz is unpacked with tar first", opts, CLI_NOPTS(opts), false};

/* Lines of hex (base 16) or binary (base 2) words; n words per line wanted
 * (0: the first line decides). Returns the array (rows * n) or NULL. */
static uint32_t *read_words(const char *path, int base, size_t *rows, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 0, cnt = 0;
    uint32_t *x = NULL;
    char *line = NULL;
    size_t lc = 0;
    int per = -1;
    bool bad = false;
    while (!bad && getline(&line, &lc, f) > 0) {
        int w = 0;
        for (char *p = line, *e; ; p = e) {
            while (isspace((unsigned char)*p))
                p++;
            if (!*p || *p == '\xef') /* end, or a byte-order mark (none seen, but harmless) */
                break;
            unsigned long v = strtoul(p, &e, base);
            if (e == p || v > 0xffffffffUL) {
                bad = true;
                break;
            }
            if (cnt + 1 > cap) {
                cap = cap ? 2 * cap : 1024;
                uint32_t *g = realloc(x, cap * 4);
                if (!g) {
                    bad = true;
                    break;
                }
                x = g;
            }
            x[cnt++] = (uint32_t)v;
            w++;
        }
        if (w == 0)
            continue;
        if (per < 0)
            per = w;
        else if (w != per)
            bad = true;
    }
    free(line);
    fclose(f);
    if (bad || per < 1) {
        free(x);
        return NULL;
    }
    *rows = cnt / (size_t)per;
    *n = per;
    return x;
}

static const tc_format *format_of(const char *dir, tc_format *scratch)
{
    char low[32];
    size_t i = 0;
    for (; dir[i] && i + 1 < sizeof low; i++)
        low[i] = (char)tolower((unsigned char)dir[i]);
    low[i] = '\0';
    if (!strncmp(low, "fp", 2)) /* fp16 -> f16 */
        memmove(low + 1, low + 2, strlen(low + 2) + 1);
    return tc_format_by_name(low, scratch);
}

/* The instruction the recording programs ran for operand format a, output d. */
static const tc_instr *instr_for(const tc_format *a, const tc_format *d)
{
    char name[96];
    if (a->storage_bits == 8)
        snprintf(name, sizeof name, "mma.m16n8k32.%s.%s.%s.%s", d->name, a->name, a->name, d->name);
    else
        snprintf(name, sizeof name, "wmma.m16n16k%d.%s.%s.%s.%s", a->storage_bits == 32 ? 8 : 16, d->name, a->name,
                 a->name, d->name);
    return tc_instr_by_name(name);
}

/* One set: GPU/FMT with output out ("fp32"/"fp16"). 0, 1 (no such d file), or -1. */
static int import_set(const char *root, const char *gpu, const char *fmt, const char *out, const char *inputs_of,
                      FILE *o, const tc_instr **done_ins)
{
    char pa[4096], pb[4096], pc[4096], pd[4096];
    snprintf(pd, sizeof pd, "%.2000s/%.100s/%.100s/d_%.100s_%.100s.txt", root, gpu, fmt, gpu, out);
    if (access(pd, R_OK))
        return 1;
    snprintf(pa, sizeof pa, "%.2000s/%.100s/%.100s/a_%.100s_%.100s.txt", root, gpu, fmt, gpu, fmt);
    snprintf(pb, sizeof pb, "%.2000s/%.100s/%.100s/b_%.100s_%.100s.txt", root, gpu, fmt, gpu, fmt);
    snprintf(pc, sizeof pc, "%.2000s/%.100s/%.100s/c_%.100s_fp32.txt", root, gpu, fmt, gpu);
    tc_format sa, sd;
    const tc_format *fa = format_of(fmt, &sa), *fd = format_of(out, &sd);
    const tc_instr *ins = fa && fd ? instr_for(fa, fd) : NULL;
    if (!ins) {
        cli_fail(CMD, "%s/%s: no catalogue instruction for %s operands with %s output", gpu, fmt, fmt, out);
        return -1;
    }
    size_t ra, rb, rc, rd;
    int na, nb, nc, nd;
    uint32_t *A = read_words(pa, 16, &ra, &na), *B = read_words(pb, 16, &rb, &nb), *C = read_words(pc, 2, &rc, &nc),
             *D = read_words(pd, 2, &rd, &nd);
    int ret = -1;
    tc_dots s = {.ins = ins, .k = ins->k, .inputs_of = inputs_of};
    if (!A || !B || !C || !D || na != nb || na > ins->k || nc != 1 || nd != 1 || ra != rb || ra != rc || ra != rd) {
        cli_fail(CMD, "%s/%s (%s): files missing, unreadable or of unequal rows (a %zu x %d, b %zu x %d, c %zu, d %zu; "
                      "K of %s is %d)", gpu, fmt, out, A ? ra : 0, A ? na : 0, B ? rb : 0, B ? nb : 0, C ? rc : 0,
                 D ? rd : 0, ins->name, ins->k);
        goto done;
    }
    s.rows = ra;
    snprintf(s.gpu, sizeof s.gpu, "%s", gpu);
    snprintf(s.source, sizeof s.source, "%s", KM_SOURCE);
    snprintf(s.files, sizeof s.files, "%s/%s/{a,b}_%s_%s.txt, c_%s_fp32.txt, d_%s_%s.txt (%d values a row)", gpu, fmt,
             gpu, fmt, gpu, gpu, out, na);
    s.A = calloc(ra * (size_t)ins->k, 8);
    s.B = calloc(ra * (size_t)ins->k, 8);
    s.C = malloc(ra * 8);
    s.D = malloc(ra * 8);
    if (!s.A || !s.B || !s.C || !s.D) {
        cli_fail(CMD, "out of memory");
        goto done;
    }
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    for (size_t r = 0; r < ra; r++) {
        for (int i = 0; i < na; i++) {
            const uint32_t *src[2] = {A, B};
            uint64_t *dst[2] = {s.A, s.B};
            for (int op = 0; op < 2; op++) {
                uint32_t w = src[op][r * (size_t)na + (size_t)i];
                float x;
                memcpy(&x, &w, 4);
                uint64_t bits = tc_encode_f32(fa, x, rne);
                if (tc_encode(&tc_f32, tc_decode(fa, bits, false), false, rne) != w) {
                    cli_fail(CMD, "%s/%s row %zu: operand %c[%d] 0x%08x is not exact in %s", gpu, fmt, r + 1,
                             "ab"[op], i, w, fa->name);
                    goto done;
                }
                dst[op][r * (size_t)ins->k + (size_t)i] = bits;
            }
        }
        float c;
        memcpy(&c, &C[r], 4);
        s.C[r] = tc_encode_f32(ins->c, c, rne);
        float d;
        memcpy(&d, &D[r], 4);
        s.D[r] = tc_encode_f32(ins->d, d, rne);
        if (tc_encode(&tc_f32, tc_decode(ins->d, s.D[r], false), false, rne) != D[r]) {
            cli_fail(CMD, "%s/%s row %zu: output 0x%08x is not exact in %s", gpu, fmt, r + 1, D[r], ins->d->name);
            goto done;
        }
    }
    if (tc_record_dots_line(o, &s)) {
        cli_fail(CMD, "out of memory");
        goto done;
    }
    printf("%s %s: %zu rows of %s (%d values a row)\n", gpu, fmt, s.rows, ins->name, na);
    *done_ins = ins;
    ret = 0;
done:
    free(A);
    free(B);
    free(C);
    free(D);
    free(s.A);
    free(s.B);
    free(s.C);
    free(s.D);
    return ret;
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* Sub-folder names of path, sorted (a stable order of lines and files). */
static size_t subdirs(const char *path, char ***out)
{
    DIR *d = opendir(path);
    size_t n = 0;
    *out = NULL;
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char p[4096];
        struct stat st;
        snprintf(p, sizeof p, "%.3000s/%.255s", path, e->d_name);
        if (e->d_name[0] == '.' || stat(p, &st) || !S_ISDIR(st.st_mode))
            continue;
        char **g = realloc(*out, (n + 1) * sizeof *g);
        if (!g)
            break;
        *out = g;
        (*out)[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n) /* qsort takes no NULL, even for nothing */
        qsort(*out, n, sizeof **out, cmp_str);
    return n;
}

static void free_names(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* A .tar.xz unpacked by tar into a fresh folder; the data root inside. */
static int unpack(const char *tar, char *tmp, size_t len)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmp, len, "%s/tcscope-import-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmp))
        return -1;
    char *argv[] = {"tar", "-xJf", (char *)tar, "-C", tmp, NULL};
    pid_t pid;
    int st = 0;
    if (posix_spawnp(&pid, "tar", NULL, NULL, argv, environ) || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
        WEXITSTATUS(st))
        return -1;
    return 0;
}

int cmd_import(int argc, char **argv)
{
    cli_scan s = cli_scan_start(&cmd_import_cli, argc, argv);
    const char *outdir = NULL, *ops[2] = {NULL, NULL};
    int nops = 0;
    while (cli_next(&s)) {
        if (s.opt == O_OUT)
            outdir = s.val;
        else if (nops < 2)
            ops[nops++] = s.val;
        else
            return cli_fail(CMD, "too many operands (import km DIR|TAR.xz)");
    }
    if (s.status != TC_EXIT_OK)
        return s.status;
    if (nops != 2 || strcmp(ops[0], "km") || !outdir)
        return cli_fail(CMD, "usage: tcscope import km DIR|TAR.xz --out DIR (only the km layout is known)");
    char root[4096], tmp[4096] = "";
    snprintf(root, sizeof root, "%s", ops[1]);
    size_t L = strlen(ops[1]);
    if (L > 7 && !strcmp(ops[1] + L - 7, ".tar.xz")) {
        if (unpack(ops[1], tmp, sizeof tmp))
            return cli_fail(CMD, "%s: tar -xJf failed", ops[1]);
        char **top;
        size_t nt = subdirs(tmp, &top);
        snprintf(root, sizeof root, "%.2000s/%.1000s", tmp, nt == 1 ? top[0] : ".");
        free_names(top, nt);
    }
    char **gpus;
    size_t ng = subdirs(root, &gpus);
    int rc = TC_EXIT_OK, sets = 0;
    mkdir(outdir, 0777);
    for (size_t g = 0; g < ng && rc == TC_EXIT_OK; g++) {
        char **fmts, gdir[4096];
        snprintf(gdir, sizeof gdir, "%.2000s/%.1000s", root, gpus[g]);
        size_t nf = subdirs(gdir, &fmts);
        char path[4096], low[32];
        size_t i = 0;
        for (; gpus[g][i] && i + 1 < sizeof low; i++)
            low[i] = (char)tolower((unsigned char)gpus[g][i]);
        low[i] = '\0';
        FILE *o = NULL;
        tc_record_stream st = {0};
        for (size_t f = 0; f < nf && rc == TC_EXIT_OK; f++) {
            const tc_instr *first = NULL; /* the fp32 line: an fp16 line of the same a, b files refers to it */
            for (int oi = 0; oi < 2 && rc == TC_EXIT_OK; oi++) {
                char a[4096];
                snprintf(a, sizeof a, "%.2000s/%.100s/a_%.100s_%.100s.txt", gdir, fmts[f], gpus[g], fmts[f]);
                if (access(a, R_OK)) /* not a data folder (CUDA/ holds the programs) */
                    break;
                if (!o) {
                    snprintf(path, sizeof path, "%.3000s/km-%.31s.jsonl", outdir, low);
                    if (!(o = fopen(path, "w"))) {
                        rc = cli_fail(CMD, "%s: cannot be written", path);
                        break;
                    }
                    /* a record "dots" (SCHEMA.md "Raw GPU records"): no backend
                     * ran, the header's gpu is the folder's */
                    tc_run_info run = {0};
                    snprintf(run.device, sizeof run.device, "%s", gpus[g]);
                    json_t *h = tc_record_header("dots", &run, NULL, 0);
                    char err[256];
                    int hr = tc_record_stream_begin(&st, o, h, err, sizeof err);
                    json_decref(h);
                    if (hr) {
                        rc = cli_fail(CMD, "%s: %s", path, err);
                        break;
                    }
                }
                const tc_instr *got = NULL;
                int r = import_set(root, gpus[g], fmts[f], oi ? "fp16" : "fp32", first ? first->name : NULL, o, &got);
                if (!first)
                    first = got;
                if (r < 0)
                    rc = TC_EXIT_USAGE;
                sets += r == 0;
                st.objects += r == 0;
            }
        }
        if (o)
            tc_record_stream_end(&st, rc == TC_EXIT_OK ? NULL : "stopped on an error (see stderr)");
        if (o && fclose(o))
            rc = cli_fail(CMD, "%s: write failed", path);
        free_names(fmts, nf);
    }
    free_names(gpus, ng);
    if (tmp[0]) {
        char *argv2[] = {"rm", "-rf", "--", tmp, NULL};
        pid_t pid;
        int st;
        if (!posix_spawnp(&pid, "rm", NULL, NULL, argv2, environ))
            waitpid(pid, &st, 0);
    }
    if (rc == TC_EXIT_OK && sets == 0)
        rc = cli_fail(CMD, "%s: no GPU/FORMAT/a_GPU_FORMAT.txt sets found", ops[1]);
    return rc;
}
