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
 * exact in their format (checked: the programs converted them with RNE).
 *
 * The data is read whole into memory first (reports/file_tree.h): a folder's
 * GPU/FORMAT/ files, or a .tar.xz's members read by libarchive within
 * LIMITS.md's caps, never unpacked to disk. The files are written as every
 * output is (reports/outdir.c): never through a link, an existing one
 * replaced only with --force, and two GPU folders that would write one file
 * (names equal but for case, or in their first 31 bytes) are refused. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "probes/dots.h"
#include "reports/file_tree.h"
#include "reports/reports.h"
#include "reports/record_dots.h"
#include "reports/text.h"

#define CMD "import"
#define KM_SOURCE "Khattak & Mikaitis, MATLAB-tensor-core model_validation (github.com/north-numerical-computing/" \
                  "MATLAB-tensor-core), BSD 2-Clause; recorded by them, not by tcscope"

#define GPU_NAME_MAX 31 /* km-<gpu>.jsonl: the folder's name lower-cased, cut here */

typedef enum { O_OUT, O_FORCE } import_opt;
static const cli_option opts[] = {
    [O_OUT] = {"--out", "DIR", "folder for km-<gpu>.jsonl (one per GPU folder of the data)"},
    [O_FORCE] = {"--force", NULL, "replace km-<gpu>.jsonl files already in DIR"},
};
const cli_command cmd_import_cli = {"import", "convert third-party recorded GPU answers into dots corpora",
                                    "km DIR|TAR.xz", "km: Khattak & Mikaitis model_validation data (GPU/FORMAT/ "
                                    "folders); a .tar.xz is read in memory (libarchive, within LIMITS.md's caps)",
                                    opts, CLI_NOPTS(opts), false};

/* The data: its files, and the prefix of the GPU folders in it. */
typedef struct {
    tc_tree t;
    char root[256]; /* "" or "TOP/" */
} km_data;


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
static int import_set(const km_data *data, const char *gpu, const char *fmt, const char *out, const char *inputs_of,
                      FILE *o, const tc_instr **done_ins)
{
    char pa[1024], pb[1024], pc[1024], pd[1024];
    snprintf(pd, sizeof pd, "%s%.100s/%.100s/d_%.100s_%.100s.txt", data->root, gpu, fmt, gpu, out);
    const tc_tree_file *fd_file = tc_tree_find(&data->t, pd);
    if (!fd_file)
        return 1;
    snprintf(pa, sizeof pa, "%s%.100s/%.100s/a_%.100s_%.100s.txt", data->root, gpu, fmt, gpu, fmt);
    snprintf(pb, sizeof pb, "%s%.100s/%.100s/b_%.100s_%.100s.txt", data->root, gpu, fmt, gpu, fmt);
    snprintf(pc, sizeof pc, "%s%.100s/%.100s/c_%.100s_fp32.txt", data->root, gpu, fmt, gpu);
    tc_format sa, sd;
    const tc_format *fa = format_of(fmt, &sa), *fd = format_of(out, &sd);
    const tc_instr *ins = fa && fd ? instr_for(fa, fd) : NULL;
    if (!ins) {
        cli_fail(CMD, "%s/%s: no catalogue instruction for %s operands with %s output", gpu, fmt, fmt, out);
        return -1;
    }
    size_t ra, rb, rc, rd;
    int na, nb, nc, nd;
    uint32_t *A = tc_tree_file_words(tc_tree_find(&data->t, pa), 16, &ra, &na),
             *B = tc_tree_file_words(tc_tree_find(&data->t, pb), 16, &rb, &nb),
             *C = tc_tree_file_words(tc_tree_find(&data->t, pc), 2, &rc, &nc), *D = tc_tree_file_words(fd_file, 2, &rd, &nd);
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
    char sg[128], sf[128];
    tc_text_escape(gpu, sg, sizeof sg, false);
    tc_text_escape(fmt, sf, sizeof sf, false);
    printf("%s %s: %zu rows of %s (%d values a row)\n", sg, sf, s.rows, ins->name, na);
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

/* A GPU folder's name becomes a file name and is printed: plain UTF-8 text,
 * no control character. */
static bool plain_name(const char *s)
{
    for (; *s; s++) {
        size_t n = tc_utf8_char_len(s);
        if (n == 0 || (n == 1 && ((unsigned char)*s < 0x20 || *s == 0x7f)))
            return false;
        s += n - 1;
    }
    return true;
}

/* km-<gpu>.jsonl: lower-cased, cut at GPU_NAME_MAX bytes. */
static void out_name(const char *gpu, char *name, size_t len)
{
    char low[GPU_NAME_MAX + 1];
    size_t i = 0;
    for (; gpu[i] && i < GPU_NAME_MAX; i++)
        low[i] = (char)tolower((unsigned char)gpu[i]);
    low[i] = '\0';
    snprintf(name, len, "km-%s.jsonl", low);
}

/* GPU folder g holds a data set: some FORMAT/a_GPU_FORMAT.txt (CUDA/ holds the programs). */
static bool has_data(const km_data *src, const char *gpu)
{
    char **fmts, pre[600], a[1024];
    snprintf(pre, sizeof pre, "%s%.300s/", src->root, gpu);
    size_t nf = tc_tree_folders(&src->t, pre, &fmts);
    bool any = false;
    for (size_t f = 0; f < nf && !any; f++) {
        snprintf(a, sizeof a, "%s%.100s/a_%.100s_%.100s.txt", pre, fmts[f], gpu, fmts[f]);
        any = tc_tree_find(&src->t, a) != NULL;
    }
    tc_tree_names_free(fmts, nf);
    return any;
}

/* One GPU's record, written by tc_out_write. */
typedef struct {
    const km_data *src;
    const char *gpu;
    int sets;
    bool failed; /* a set was refused (the message is out) */
} gpu_job;

static int emit_gpu(FILE *o, const void *ctx)
{
    gpu_job *g = (gpu_job *)ctx;
    char **fmts, pre[600], err[256];
    snprintf(pre, sizeof pre, "%s%.300s/", g->src->root, g->gpu);
    size_t nf = tc_tree_folders(&g->src->t, pre, &fmts);
    /* a record "dots" (SCHEMA.md "Raw GPU records"): no backend ran, the
     * header's gpu is the folder's */
    tc_run_info run = {0};
    snprintf(run.device, sizeof run.device, "%s", g->gpu);
    json_t *h = tc_record_header("dots", &run, NULL, 0);
    tc_record_stream st = {0};
    int rc = tc_record_stream_begin(&st, o, h, err, sizeof err);
    json_decref(h);
    if (rc)
        g->failed = cli_fail(CMD, "%s: %s", g->gpu, err) != 0;
    for (size_t f = 0; f < nf && !rc; f++) {
        const tc_instr *first = NULL; /* the fp32 line: an fp16 line of the same a, b files refers to it */
        char a[1024];
        snprintf(a, sizeof a, "%s%.100s/a_%.100s_%.100s.txt", pre, fmts[f], g->gpu, fmts[f]);
        for (int oi = 0; oi < 2 && !rc && tc_tree_find(&g->src->t, a); oi++) {
            const tc_instr *got = NULL;
            int r = import_set(g->src, g->gpu, fmts[f], oi ? "fp16" : "fp32", first ? first->name : NULL, o, &got);
            if (!first)
                first = got;
            if (r < 0)
                rc = -1, g->failed = true;
            g->sets += r == 0;
            st.objects += r == 0;
        }
    }
    tc_tree_names_free(fmts, nf);
    if (!rc)
        rc = tc_record_stream_end(&st, NULL);
    return rc ? -1 : 0;
}

/* The data read into memory: a folder's GPU/FORMAT/FILE, or an archive's
 * members, with the archive's one top folder (if any) as the root. */
static int read_data(const char *from, km_data *src)
{
    char err[700];
    memset(src, 0, sizeof *src);
    size_t L = strlen(from);
    bool archive = L > 7 && !strcmp(from + L - 7, ".tar.xz");
    if (archive ? tc_tree_from_archive(from, &src->t, err, sizeof err) : tc_tree_from_dir(from, 3, &src->t, err, sizeof err))
        return cli_fail(CMD, "%s", err);
    char **top;
    size_t nt = archive ? tc_tree_folders(&src->t, "", &top) : 0;
    if (nt == 1 && strlen(top[0]) < sizeof src->root - 1)
        snprintf(src->root, sizeof src->root, "%s/", top[0]);
    if (archive)
        tc_tree_names_free(top, nt);
    return TC_EXIT_OK;
}

/* The GPU folders with data, their file names checked: plain, and no two
 * the same. 0 with the lists (malloc'd), or exit 2. */
static int plan_outputs(const km_data *src, char ***gpus_out, size_t *n_out, char (**names_out)[64])
{
    char **gpus;
    size_t ng = tc_tree_folders(&src->t, src->root, &gpus), n = 0;
    char (*names)[64] = calloc(ng + 1, sizeof *names);
    int rc = names ? TC_EXIT_OK : cli_fail(CMD, "out of memory");
    for (size_t g = 0; g < ng && rc == TC_EXIT_OK; g++) {
        if (!has_data(src, gpus[g])) {
            free(gpus[g]);
            gpus[g] = NULL;
            continue;
        }
        if (!plain_name(gpus[g])) {
            char cut[TC_TEXT_CUT_MAX];
            tc_text_cut(gpus[g], cut);
            rc = cli_fail(CMD, "GPU folder '%s': a control character or a byte that is not UTF-8 (the name becomes "
                               "a file name): rename it", cut);
            break;
        }
        out_name(gpus[g], names[n], sizeof names[n]);
        for (size_t k = 0; k < g && rc == TC_EXIT_OK; k++) {
            if (!gpus[k])
                continue;
            char other[64], cut1[TC_TEXT_CUT_MAX], cut2[TC_TEXT_CUT_MAX];
            out_name(gpus[k], other, sizeof other);
            tc_text_cut(gpus[k], cut1);
            tc_text_cut(gpus[g], cut2);
            if (!strcmp(other, names[n]))
                rc = cli_fail(CMD, "GPU folders '%s' and '%s' would both write %s (names are lower-cased and cut at %d "
                                   "bytes): rename one", cut1, cut2, names[n], GPU_NAME_MAX);
        }
        n++;
    }
    /* the list keeps only the folders with data, in order */
    size_t m = 0;
    for (size_t g = 0; g < ng; g++)
        if (gpus[g])
            gpus[m++] = gpus[g];
    if (rc != TC_EXIT_OK) {
        tc_tree_names_free(gpus, m);
        free(names);
        return rc;
    }
    *gpus_out = gpus, *n_out = m, *names_out = names;
    return TC_EXIT_OK;
}

int cmd_import(int argc, char **argv)
{
    cli_scan s = cli_scan_start(&cmd_import_cli, argc, argv);
    const char *outdir = NULL, *ops[2] = {NULL, NULL};
    bool force = false;
    int nops = 0;
    while (cli_next(&s)) {
        if (s.opt == O_OUT)
            outdir = s.val;
        else if (s.opt == O_FORCE)
            force = true;
        else if (nops < 2)
            ops[nops++] = s.val;
        else
            return cli_fail(CMD, "too many operands (import km DIR|TAR.xz)");
    }
    if (s.status != TC_EXIT_OK)
        return s.status;
    if (nops != 2 || strcmp(ops[0], "km") || !outdir)
        return cli_fail(CMD, "usage: tcscope import km DIR|TAR.xz --out DIR (only the km layout is known)");
    km_data src;
    int rc = read_data(ops[1], &src);
    if (rc != TC_EXIT_OK)
        return rc;
    char **gpus = NULL, (*names)[64] = NULL, err[700];
    size_t ng = 0;
    if ((rc = plan_outputs(&src, &gpus, &ng, &names)) != TC_EXIT_OK) {
        tc_tree_free(&src.t);
        return rc;
    }
    const char **list = calloc(ng + 1, sizeof *list);
    for (size_t g = 0; list && g < ng; g++)
        list[g] = names[g];
    tc_outdir d = {.fd = -1};
    if (!list)
        rc = cli_fail(CMD, "out of memory");
    else if (ng == 0)
        rc = cli_fail(CMD, "%s: no GPU/FORMAT/a_GPU_FORMAT.txt sets found", ops[1]);
    else if (tc_outdir_open(&d, outdir, force, err, sizeof err) || tc_out_check_free(&d, list, ng, err, sizeof err))
        rc = cli_fail(CMD, "%s", err);
    int sets = 0;
    for (size_t g = 0; g < ng && rc == TC_EXIT_OK; g++) {
        gpu_job job = {&src, gpus[g], 0, false};
        if (tc_out_write(&d, names[g], emit_gpu, &job, err, sizeof err))
            rc = job.failed ? TC_EXIT_USAGE : cli_fail(CMD, "%s", err);
        sets += job.sets;
    }
    if (rc == TC_EXIT_OK && sets == 0)
        rc = cli_fail(CMD, "%s: no GPU/FORMAT/d_GPU_OUT.txt sets found", ops[1]);
    tc_outdir_close(&d);
    free(list);
    free(names);
    tc_tree_names_free(gpus, ng);
    tc_tree_free(&src.t);
    return rc;
}
