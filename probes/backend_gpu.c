/* The GPU backend: packs elements to their native widths, runs the
 * instruction's kernel (probes/cuda), and checks that every output element
 * was written. Built without nvcc it refuses every call with one message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

#include "probes/catalogue_archs.h"
#include "probes/gpu_backend.h"

#if TC_HAVE_CUDA

#include "probes/gpu.h"
#include "probes/sass.h"
#include "probes/sparse.h"

struct tc_gpub {
    tc_gpu *g;
    tc_backend_info info;
    tc_sass *sass;
    bool sass_tried;
    char sass_err[256];
    double last_s;
    bool device_error;   /* a CUDA call failed: the context may be lost, nothing after it is trusted */
};

int tc_gpub_open(int dev, tc_backend_info *info, tc_gpub **out, char *err, size_t errlen)
{
    tc_gpub *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (tc_gpu_open(dev, info, &b->g, err, errlen)) {
        free(b);
        return -1;
    }
    b->info = *info;
    *out = b;
    return 0;
}

void tc_gpub_close(tc_gpub *b)
{
    if (!b)
        return;
    tc_gpu_close(b->g);
    tc_sass_free(b->sass);
    free(b);
}

bool tc_gpub_supports(tc_gpub *b, const tc_instr *ins, char *why, size_t len)
{
    /* The device's architecture must have the instruction (probes/isa/arch),
     * and so must the code this binary runs for it: the warp-level
     * executors' (a compute_80 build on an H200 runs no FP8 mma). */
    int arch = tc_arch_of_device(b->info.sm);
    if (!arch) {
        char list[128] = "";
        for (int i = 0; i < TC_NARCHS; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", tc_archs[i].target);
        snprintf(why, len, "%s: %s is sm_%d, which this build has no code for (it builds %s)", ins->name,
                 b->info.device, b->info.sm, list);
        return false;
    }
    if (!tc_instr_on_arch(ins, arch)) {
        snprintf(why, len, "%s is not an instruction of %s (%s is sm_%d)", ins->name, tc_arch_target(arch),
                 b->info.device, b->info.sm);
        return false;
    }
    int exec = tc_gpu_exec_arch(b->g);
    bool warp = !strncmp(ins->api, "mma", 3) || !strcmp(ins->api, "wmma");
    if (warp && !exec && arch == 70) {
        snprintf(why, len, "%s: this binary has no sm_70 code for %s: CUDA 13 does not build sm_70; build with "
                 "make PTXAS12=PATH (a CUDA 12.x ptxas, doc/gpus.md)", ins->name, b->info.device);
        return false;
    }
    if (warp && !tc_instr_on_arch(ins, exec)) {
        snprintf(why, len, "%s: this binary's warp-level kernels run on %s as %s code, which lacks it", ins->name,
                 b->info.device, exec ? tc_arch_target(exec) : "no");
        return false;
    }
    const tc_gpu_kernel *k = tc_gpu_kernel_find(ins->name);
    if (!k) {
        snprintf(why, len, "%s: not implemented in the GPU backend (no kernel built)", ins->name);
        return false;
    }
    return tc_gpu_kernel_usable(b->g, k, why, len) == 0;
}

/* Packs to native width, checking each element is a pattern of its format
 * (the one pass over the caller's array). Returns n, or the first bad index. */
static size_t pack(const uint64_t *src, size_t n, int bytes, uint64_t mask, void *dst)
{
    uint64_t bad = 0;
    switch (bytes) {
    case 1:
        for (size_t i = 0; i < n; i++) {
            bad |= src[i] & ~mask;
            ((uint8_t *)dst)[i] = (uint8_t)src[i];
        }
        break;
    case 2:
        for (size_t i = 0; i < n; i++) {
            bad |= src[i] & ~mask;
            ((uint16_t *)dst)[i] = (uint16_t)src[i];
        }
        break;
    case 4:
        for (size_t i = 0; i < n; i++) {
            bad |= src[i] & ~mask;
            ((uint32_t *)dst)[i] = (uint32_t)src[i];
        }
        break;
    default:
        for (size_t i = 0; i < n; i++)
            bad |= src[i] & ~mask;
        memcpy(dst, src, n * 8);
    }
    if (!bad)
        return n;
    for (size_t i = 0; i < n; i++)
        if (src[i] & ~mask)
            return i;
    return n;
}

/* Large batches are packed and unpacked by several threads: the host side
 * (8 bytes per element in, native width out) is what limits the executor. */
#define PAR_MIN ((size_t)1 << 20)
#define PAR_MAX 16

typedef struct {
    const uint64_t *src;
    uint64_t *out;
    const void *in;
    size_t n;
    int bytes;
    uint64_t mask, poison;
    void *dst;
    size_t bad;      /* pack: first bad index in the slice, or n */
    bool suspect;    /* unpack: some element equals the poison */
} par_job;

static void *pack_job(void *arg)
{
    par_job *j = arg;
    j->bad = pack(j->src, j->n, j->bytes, j->mask, j->dst);
    return NULL;
}

static uint64_t unpack1(const void *src, size_t i, int bytes);

static void *unpack_job(void *arg)
{
    par_job *j = arg;
    bool s = false;
    for (size_t i = 0; i < j->n; i++) {
        j->out[i] = unpack1(j->in, i, j->bytes);
        s |= j->out[i] == j->poison;
    }
    j->suspect = s;
    return NULL;
}

static int nthreads_for(size_t n)
{
    if (n < PAR_MIN)
        return 1;
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c < 1 ? 1 : c > PAR_MAX ? PAR_MAX : (int)c;
}

/* Runs fn on the nt jobs of `size` bytes each at jobs (job 0 on this thread). */
static void run_par_of(void *jobs, size_t size, int nt, void *(*fn)(void *))
{
    pthread_t th[PAR_MAX];
    bool started[PAR_MAX] = {false};
    for (int i = 1; i < nt; i++)
        started[i] = pthread_create(&th[i], NULL, fn, (char *)jobs + (size_t)i * size) == 0;
    fn(jobs);
    for (int i = 1; i < nt; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            fn((char *)jobs + (size_t)i * size);
    }
}

static void run_par(par_job *jobs, int nt, void *(*fn)(void *)) { run_par_of(jobs, sizeof *jobs, nt, fn); }

/* Job i's share [*lo, *hi) of n elements split into nt near-equal parts. */
static void job_range(size_t n, int nt, int i, size_t *lo, size_t *hi)
{
    size_t per = (n + (size_t)nt - 1) / (size_t)nt;
    *lo = per * (size_t)i < n ? per * (size_t)i : n;
    *hi = *lo + per < n ? *lo + per : n;
}

static size_t par_pack(const uint64_t *src, size_t n, int bytes, uint64_t mask, void *dst)
{
    int nt = nthreads_for(n);
    par_job jobs[PAR_MAX];
    for (int i = 0; i < nt; i++) {
        size_t lo, hi;
        job_range(n, nt, i, &lo, &hi);
        jobs[i] = (par_job){.src = src + lo, .n = hi - lo, .bytes = bytes, .mask = mask,
                            .dst = (char *)dst + lo * (size_t)bytes};
    }
    run_par(jobs, nt, pack_job);
    for (int i = 0; i < nt; i++)
        if (jobs[i].bad != jobs[i].n)
            return (size_t)(jobs[i].src - src) + jobs[i].bad;
    return n;
}

/* Unpacks n elements; true if any equals `poison`. */
static bool par_unpack(const void *in, size_t n, int bytes, uint64_t poison, uint64_t *out)
{
    int nt = nthreads_for(n);
    par_job jobs[PAR_MAX];
    for (int i = 0; i < nt; i++) {
        size_t lo, hi;
        job_range(n, nt, i, &lo, &hi);
        jobs[i] = (par_job){.out = out + lo, .in = (const char *)in + lo * (size_t)bytes, .n = hi - lo,
                            .bytes = bytes, .poison = poison};
    }
    run_par(jobs, nt, unpack_job);
    bool s = false;
    for (int i = 0; i < nt; i++)
        s |= jobs[i].suspect;
    return s;
}

static int pack_checked(const char *what, const tc_format *f, const uint64_t *src, size_t n, size_t base, void *dst,
                        char *err, size_t errlen)
{
    size_t bad = par_pack(src, n, f->storage_bits / 8, tc_operand_mask(f), dst);
    if (bad == n)
        return 0;
    snprintf(err, errlen, "%s[%zu] = 0x%llx is not a %s bit pattern", what, base + bad, (unsigned long long)src[bad],
             f->name);
    return -1;
}

static uint64_t unpack1(const void *src, size_t i, int bytes)
{
    switch (bytes) {
    case 1:
        return ((const uint8_t *)src)[i];
    case 2:
        return ((const uint16_t *)src)[i];
    case 4:
        return ((const uint32_t *)src)[i];
    default:
        return ((const uint64_t *)src)[i];
    }
}

static uint64_t poison_of(unsigned char byte, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v = v << 8 | byte;
    return v;
}

/* One chunk of tiles: run with poison 0xFF; if any element still holds it,
 * run again with 0xA5: an element holding the poison both times was never
 * written, and one that differs between the runs is reported too. */
static int exec1(tc_gpub *b, const tc_gpu_kernel *k, const tc_instr *ins, size_t nt, const void *pa,
                 const uint32_t *pe, const void *pb, const void *pc, void *pd, unsigned char poison, char *err,
                 size_t errlen)
{
    int rc = pe ? tc_gpu_exec_sparse(b->g, k, ins, nt, pa, pe, pb, pc, pd, poison, err, errlen)
                : tc_gpu_exec(b->g, k, ins, nt, pa, pb, pc, pd, poison, err, errlen);
    if (rc)
        b->device_error = true; /* the inputs were checked while packing: this is the device */
    return rc;
}

/* pe: NULL, or for mma.sp / wgmma.sp the metadata registers (pa then holds the compressed A). */
static int run_chunk(tc_gpub *b, const tc_gpu_kernel *k, const tc_instr *ins, size_t nt, const void *pa,
                     const uint32_t *pe, const void *pb, const void *pc, void *pd, void *pd2, uint64_t *D, char *err,
                     size_t errlen)
{
    int db = ins->d->storage_bits / 8;
    size_t n = nt * (size_t)ins->m * (size_t)ins->n;
    if (exec1(b, k, ins, nt, pa, pe, pb, pc, pd, 0xFF, err, errlen))
        return -1;
    b->last_s += tc_gpu_last_kernel_ms(b->g) / 1e3;
    uint64_t p1 = poison_of(0xFF, db), p2 = poison_of(0xA5, db);
    if (!par_unpack(pd, n, db, p1, D))
        return 0;
    if (exec1(b, k, ins, nt, pa, pe, pb, pc, pd2, 0xA5, err, errlen))
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint64_t again = unpack1(pd2, i, db);
        if (D[i] == p1 && again == p2) {
            snprintf(err, errlen, "%s: output element %zu (tile %zu) was not written by the kernel", ins->name, i,
                     i / ((size_t)ins->m * (size_t)ins->n));
            return -1;
        }
        if (again != D[i]) {
            snprintf(err, errlen, "%s: output element %zu differs between two runs (0x%llx, 0x%llx)", ins->name,
                     i, (unsigned long long)D[i], (unsigned long long)again);
            return -1;
        }
    }
    return 0;
}

/* mma.sp, wgmma.sp: the logical A of nt tiles (checked against its format)
 * into the compressed A at native width (pa) and the metadata registers (pe,
 * `threads` per tile, through the map of tc_sparse_meta_map), as
 * probes/sparse.h says; refuses an A that is not structured sparse. */
#define SPARSE_TILE_MAX (64 * 64) /* logical A elements of the largest sparse tile (wgmma.sp k64) */

typedef struct {
    const tc_instr *ins;
    const uint64_t *A;
    size_t t0, nt;   /* tiles [t0, t0 + nt) of this call's A, numbered from base in messages */
    size_t base;
    void *pa;
    uint32_t *pe;
    const int *map;
    int threads;
    int rc;
    char err[320];
} sparse_job;

static void *pack_sparse_job(void *arg)
{
    sparse_job *j = arg;
    const tc_instr *ins = j->ins;
    size_t mk = (size_t)ins->m * (size_t)ins->k, mkc = mk / 2, ab = (size_t)ins->a->storage_bits / 8;
    int G, S;
    tc_sparse_ratio(ins, &G, &S);
    uint64_t mask = tc_operand_mask(ins->a), ac[SPARSE_TILE_MAX / 2];
    uint8_t nib[SPARSE_TILE_MAX / 2];
    j->rc = 0;
    for (size_t t = j->t0; !j->rc && t < j->t0 + j->nt; t++) {
        const uint64_t *At = j->A + t * mk;
        for (size_t i = 0; i < mk; i++)
            if (At[i] & ~mask) {
                snprintf(j->err, sizeof j->err, "A[%zu] = 0x%llx is not a %s bit pattern", (j->base + t) * mk + i,
                         (unsigned long long)At[i], ins->a->name);
                j->rc = -1;
                return NULL;
            }
        j->rc = tc_sparse_compress(ins, At, j->base + t, ac, nib, j->err, sizeof j->err);
        if (!j->rc) {
            tc_sparse_meta_regs_mapped(j->map, j->threads, nib, j->pe + t * (size_t)j->threads);
            pack(ac, mkc, (int)ab, mask, (char *)j->pa + t * mkc * ab); /* kept values of a checked A */
        }
    }
    return NULL;
}

static int pack_sparse(const tc_instr *ins, const uint64_t *A, size_t nt, size_t base, void *pa, uint32_t *pe,
                       char *err, size_t errlen)
{
    int map[TC_SPARSE_MAP_MAX];
    int threads = tc_sparse_meta_map(ins, map);
    if (!threads || (size_t)ins->m * (size_t)ins->k > SPARSE_TILE_MAX) {
        snprintf(err, errlen, "%s: no metadata layout for this instruction", ins->name);
        return -1;
    }
    int np = nthreads_for(nt * (size_t)ins->m * (size_t)ins->k);
    sparse_job jobs[PAR_MAX];
    for (int i = 0; i < np; i++) {
        size_t lo, hi;
        job_range(nt, np, i, &lo, &hi);
        jobs[i] = (sparse_job){.ins = ins, .A = A, .t0 = lo, .nt = hi - lo, .base = base, .pa = pa, .pe = pe,
                               .map = map, .threads = threads};
    }
    run_par_of(jobs, sizeof jobs[0], np, pack_sparse_job);
    for (int i = 0; i < np; i++)
        if (jobs[i].rc) { /* the first bad tile in order */
            snprintf(err, errlen, "%s", jobs[i].err);
            return -1;
        }
    return 0;
}

int tc_gpub_mma(tc_gpub *b, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    const tc_gpu_kernel *k = tc_gpu_kernel_find(ins->name);
    if (!k) {
        snprintf(err, errlen, "%s: not implemented in the GPU backend", ins->name);
        return -1;
    }
    bool sparse = ins->sparse;
    if (sparse != (k->kind == TC_GPUK_WARP_SP || k->kind == TC_GPUK_WG_SP)) {
        snprintf(err, errlen, "%s: kernel %s is not a sparse kernel (internal error)", ins->name, k->name);
        return -1;
    }
    size_t ab = (size_t)ins->a->storage_bits / 8, bb = (size_t)ins->b->storage_bits / 8,
           cb = (size_t)ins->c->storage_bits / 8, db = (size_t)ins->d->storage_bits / 8;
    size_t mk = (size_t)ins->m * (size_t)ins->k, kn = (size_t)ins->k * (size_t)ins->n,
           mn = (size_t)ins->m * (size_t)ins->n;
    size_t tile_bytes = mk * ab + kn * bb + mn * (cb + 2 * db);
    size_t chunk = ((size_t)256 << 20) / tile_bytes;
    if (chunk < 1)
        chunk = 1;
    if (chunk > ntiles)
        chunk = ntiles;
    size_t amk = sparse ? mk / 2 : mk; /* A elements sent per tile */
    void *pa = tc_gpu_host_buffer(b->g, 0, chunk * amk * ab + 1, err, errlen),
         *pb = pa ? tc_gpu_host_buffer(b->g, 1, chunk * kn * bb + 1, err, errlen) : NULL,
         *pc = pb ? tc_gpu_host_buffer(b->g, 2, chunk * mn * cb + 1, err, errlen) : NULL,
         *pd = pc ? tc_gpu_host_buffer(b->g, 3, chunk * mn * db + 1, err, errlen) : NULL,
         *pd2 = pd ? tc_gpu_host_buffer(b->g, 4, chunk * mn * db + 1, err, errlen) : NULL;
    uint32_t *pe = NULL;
    if (pd2 && sparse)
        pe = tc_gpu_host_buffer(b->g, 5, chunk * (size_t)tc_sparse_meta_threads(ins) * sizeof *pe + 1, err, errlen);
    int rc = pd2 && (!sparse || pe) ? 0 : -1;
    b->last_s = 0;
    for (size_t t0 = 0; !rc && t0 < ntiles; t0 += chunk) {
        size_t nt = ntiles - t0 < chunk ? ntiles - t0 : chunk;
        rc = (sparse ? pack_sparse(ins, A + t0 * mk, nt, t0, pa, pe, err, errlen)
                     : pack_checked("A", ins->a, A + t0 * mk, nt * mk, t0 * mk, pa, err, errlen)) ||
             pack_checked("B", ins->b, B + t0 * kn, nt * kn, t0 * kn, pb, err, errlen) ||
             pack_checked("C", ins->c, C + t0 * mn, nt * mn, t0 * mn, pc, err, errlen);
        if (!rc)
            rc = run_chunk(b, k, ins, nt, pa, pe, pb, pc, pd, pd2, D + t0 * mn, err, errlen);
    }
    return rc ? -1 : 0;
}

/* The SASS of the executors this GPU runs, disassembled once: the cubins
 * of the architecture they run as (tc_gpu_exec_arch, else the device's)
 * that hold an executor (tcx_), so that the kernels read are the kernels
 * that ran. The whole fat binary holds each executor once per architecture
 * (eight), and the checks read the first of them: on an H200 at 96c6a05
 * every corpus record's SASS verdict was "missing". */
static int load_sass(tc_gpub *b, char *err, size_t errlen)
{
    if (!b->sass_tried) {
        b->sass_tried = true;
        int arch = tc_gpu_exec_arch(b->g);
        const char *target = tc_arch_target(arch ? arch : tc_arch_of_device(b->info.sm));
        char *text = target ? tc_sass_dump(NULL, target, "tcx_", NULL, 0, b->sass_err, sizeof b->sass_err) : NULL;
        if (!target)
            snprintf(b->sass_err, sizeof b->sass_err, "no SASS: this build has no code for sm_%d", b->info.sm);
        if (text)
            b->sass = tc_sass_parse(text, b->sass_err, sizeof b->sass_err);
        free(text);
    }
    if (!b->sass)
        snprintf(err, errlen, "%s", b->sass_err);
    return b->sass ? 0 : -1;
}

int tc_gpub_sass(tc_gpub *b, const tc_instr *ins, tc_instr_sass *out, char *err, size_t errlen)
{
    const tc_gpu_kernel *k = tc_gpu_kernel_find(ins->name);
    if (!k) {
        snprintf(err, errlen, "%s: not implemented in the GPU backend", ins->name);
        return -1;
    }
    if (load_sass(b, err, errlen))
        return -1;
    tc_sass_check chk;
    tc_sass_check_loop(b->sass, k->symbol, ins->sass, 1, &chk);
    memset(out, 0, sizeof *out);
    snprintf(out->opcode, sizeof out->opcode, "%s", chk.opcode);
    out->per_mma = chk.in_loop;
    out->conversions = chk.conversions;
    out->native = chk.expected_in_loop >= 1 && chk.expected_in_loop == chk.in_loop && chk.conversions_in_loop == 0;
    snprintf(out->verdict, sizeof out->verdict, "%s", tc_sass_verdict_name(chk.verdict));
    snprintf(out->message, sizeof out->message, "%s", chk.message);
    return 0;
}

double tc_gpub_last_kernel_s(const tc_gpub *b) { return b->last_s; }

int tc_gpub_mma_dev(tc_gpub *b, const tc_instr *ins, size_t ntiles, const void *dA, const uint32_t *dE,
                    const void *dB, const void *dC, void *dD, unsigned char poison, char *err, size_t errlen)
{
    const tc_gpu_kernel *k = tc_gpu_kernel_find(ins->name);
    if (!k) {
        snprintf(err, errlen, "%s: not implemented in the GPU backend", ins->name);
        return -1;
    }
    int rc = tc_gpu_exec_dev(b->g, k, ins, ntiles, dA, dE, dB, dC, dD, poison, err, errlen);
    if (rc)
        b->device_error = true;
    else
        b->last_s = tc_gpu_last_kernel_ms(b->g) / 1e3;
    return rc;
}

int tc_gpub_device(const tc_gpub *b) { return tc_gpu_device(b->g); }

static int chain_fmt(const tc_format *f)
{
    static const struct {
        const tc_format *f;
        int code;
    } t[] = {{&tc_f16, TC_CF_F16},   {&tc_bf16, TC_CF_BF16}, {&tc_tf32, TC_CF_TF32}, {&tc_e4m3, TC_CF_E4M3},
             {&tc_e5m2, TC_CF_E5M2}, {&tc_f32, TC_CF_F32},   {&tc_f64, TC_CF_F64}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (f == t[i].f)
            return t[i].code;
    return 0;
}

/* Which cvt the ISA has for D's format -> A's format on sm_90 (ptxas is the
 * judge: .satfinite only with .rn/.rz for f16 and bf16, only with .rna for
 * tf32; FP8 only .rn.satfinite). Returns the rounding code or -1. */
/* The cvt the chain kernel runs between steps, on architecture arch (the
 * code it runs as): tf32's .rn, .rz and .satfinite need sm_90
 * (probes/gpu_kernels.cuh traps without them). */
static int chain_mode(int afmt, int dfmt, tc_rounding r, int arch, char *why, size_t len)
{
    bool sat = r.ovf == TC_OVF_SAT;
    if (afmt == dfmt) { /* no conversion: X is D, which a saturating cvt would not keep (Inf) */
        if (sat || r.ftz) {
            snprintf(why, len, "A and D have one format, so the chain converts nothing: give a cvt without "
                               "saturation or ftz");
            return -1;
        }
        return TC_CR_RN;
    }
    int m = r.mode == TC_RNE ? TC_CR_RN : r.mode == TC_RZ ? TC_CR_RZ : r.mode == TC_RD ? TC_CR_RM
          : r.mode == TC_RU ? TC_CR_RP : r.mode == TC_RNA ? TC_CR_RNA : -1;
    bool ok = false;
    if (!r.ftz && r.ovf != TC_OVF_NAN && m >= 0) {
        if (afmt == TC_CF_E4M3 || afmt == TC_CF_E5M2)
            ok = m == TC_CR_RN && sat;
        else if (afmt == TC_CF_F16)
            ok = sat ? (m == TC_CR_RN || m == TC_CR_RZ) : m != TC_CR_RNA;
        else if (afmt == TC_CF_BF16)
            ok = m == TC_CR_RN || m == TC_CR_RZ;
        else if (afmt == TC_CF_TF32)
            ok = arch < 90 ? m == TC_CR_RNA && !sat
                           : sat ? m == TC_CR_RNA : (m == TC_CR_RN || m == TC_CR_RZ || m == TC_CR_RNA);
    }
    if (!ok) {
        const char *t = tc_arch_target(arch);
        snprintf(why, len, "the GPU has no cvt with rounding %s, overflow %s%s into this format on %s",
                 tc_round_name(r.mode), tc_overflow_name(r.ovf), r.ftz ? ", ftz" : "", t ? t : "this GPU");
        return -1;
    }
    return m;
}

int tc_gpub_chain(tc_gpub *b, const tc_instr *ins, size_t nchains, int len, const uint64_t *A0, const uint64_t *B,
                  const uint64_t *C, tc_rounding cvt, uint64_t *Xused, uint64_t *D, char *err, size_t errlen)
{
    const tc_gpu_chain_kernel *k = tc_gpu_chain_kernel_find(ins->name);
    char why[256];
    if (!k) { /* every chainable entry has one (tests/test_catalogue.c) */
        snprintf(err, errlen, "%s: no chain kernel built (internal error)", ins->name);
        return -1;
    }
    if (!tc_gpub_supports(b, ins, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    int afmt = chain_fmt(ins->a), dfmt = chain_fmt(ins->d);
    bool warp = !strncmp(ins->api, "mma", 3) || !strcmp(ins->api, "wmma");
    int mode = chain_mode(afmt, dfmt, cvt, warp ? tc_gpu_exec_arch(b->g) : 90, why, sizeof why);
    if (mode < 0) {
        snprintf(err, errlen, "%s: %s", ins->name, why);
        return -1;
    }
    size_t M = (size_t)ins->m, K = (size_t)ins->k, steps = nchains * (size_t)len;
    size_t ab = (size_t)ins->a->storage_bits / 8, bb = (size_t)ins->b->storage_bits / 8,
           cb = (size_t)ins->c->storage_bits / 8, db = (size_t)ins->d->storage_bits / 8;
    void *pa = malloc(nchains * M * K * ab), *pb = malloc(steps * K * K * bb), *pc = calloc(steps * M * K, cb),
         *px = malloc(steps * M * K * ab), *pd = malloc(steps * M * K * db);
    int rc = -1;
    bool packed = false;
    if (!pa || !pb || !pc || !px || !pd)
        snprintf(err, errlen, "out of memory");
    else
        packed = !pack_checked("A0", ins->a, A0, nchains * M * K, 0, pa, err, errlen) &&
                 !pack_checked("B", ins->b, B, steps * K * K, 0, pb, err, errlen) &&
                 (!C || !pack_checked("C", ins->c, C, steps * M * K, 0, pc, err, errlen));
    if (packed && tc_gpu_chain_exec(b->g, k, ins, nchains, len, pa, pb, pc, px, pd, mode, cvt.ovf == TC_OVF_SAT,
                                    afmt, dfmt, 0xFF, err, errlen))
        b->device_error = true;
    else if (packed) {
        /* as for tc_gpub_mma: an element still holding the poison is checked
         * against a second run with another poison */
        bool sx = par_unpack(px, steps * M * K, (int)ab, poison_of(0xFF, (int)ab), Xused);
        bool sd = par_unpack(pd, steps * M * K, (int)db, poison_of(0xFF, (int)db), D);
        rc = 0;
        bool again = (sx || sd) && !tc_gpu_chain_exec(b->g, k, ins, nchains, len, pa, pb, pc, px, pd, mode,
                                                     cvt.ovf == TC_OVF_SAT, afmt, dfmt, 0xA5, err, errlen);
        if ((sx || sd) && !again)
            b->device_error = true;
        if (again) {
            for (size_t i = 0; !rc && i < steps * M * K; i++) {
                uint64_t x2 = unpack1(px, i, (int)ab), d2 = unpack1(pd, i, (int)db);
                bool unwritten = (Xused[i] == poison_of(0xFF, (int)ab) && x2 == poison_of(0xA5, (int)ab)) ||
                                 (D[i] == poison_of(0xFF, (int)db) && d2 == poison_of(0xA5, (int)db));
                if (unwritten || x2 != Xused[i] || d2 != D[i]) {
                    snprintf(err, errlen, "%s: chain element %zu %s", ins->name, i,
                             unwritten ? "was not written" : "differs between two runs");
                    rc = -1;
                }
            }
        } else if (sx || sd)
            rc = -1;
    }
    free(pa);
    free(pb);
    free(pc);
    free(px);
    free(pd);
    return rc;
}

bool tc_gpub_device_failed(const tc_gpub *b)
{
    return b->device_error;
}

#else /* built without nvcc */

#define NO_GPU TC_NO_GPU_BUILD

int tc_gpub_open(int dev, tc_backend_info *info, tc_gpub **out, char *err, size_t errlen)
{
    snprintf(err, errlen, NO_GPU);
    return -1;
}
void tc_gpub_close(tc_gpub *g) {}
bool tc_gpub_device_failed(const tc_gpub *g)
{
    return false;
}
bool tc_gpub_supports(tc_gpub *g, const tc_instr *ins, char *why, size_t len)
{
    snprintf(why, len, NO_GPU);
    return false;
}
int tc_gpub_mma(tc_gpub *g, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    snprintf(err, errlen, NO_GPU);
    return -1;
}
int tc_gpub_sass(tc_gpub *g, const tc_instr *ins, tc_instr_sass *out, char *err, size_t errlen)
{
    snprintf(err, errlen, NO_GPU);
    return -1;
}
double tc_gpub_last_kernel_s(const tc_gpub *g) { return 0.0; }
int tc_gpub_mma_dev(tc_gpub *g, const tc_instr *ins, size_t ntiles, const void *dA, const uint32_t *dE,
                    const void *dB, const void *dC, void *dD, unsigned char poison, char *err, size_t errlen)
{
    snprintf(err, errlen, NO_GPU);
    return -1;
}
int tc_gpub_device(const tc_gpub *g) { return -1; }
int tc_gpub_chain(tc_gpub *g, const tc_instr *ins, size_t nchains, int len, const uint64_t *A0, const uint64_t *B,
                  const uint64_t *C, tc_rounding cvt, uint64_t *Xused, uint64_t *D, char *err, size_t errlen)
{
    snprintf(err, errlen, NO_GPU);
    return -1;
}

#endif
