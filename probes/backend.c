/* The backends built in (tc_backend_open_builtin) and the software ones:
 * "exact" (the MPFR oracle, correctly rounded with RNE), "model:PROFILE"
 * (oracle/model.h with a profile from oracle/profiles/ or a path) and a
 * function's (tc_backend_open_fn). "gpu[:N]" is probes/backend_gpu.c;
 * tc_backend_open (probes/backend_open.c) routes a spec to one of these. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "oracle/model.h"
#include "oracle/oracle.h"
#include "oracle/model_scales.h"
#include "oracle/profile.h"
#include "probes/gpu_backend.h"
#include "probes/probes.h"
#include "probes/sparse.h"

typedef enum { BK_EXACT, BK_MODEL, BK_GPU, BK_FN } bk_kind;

struct tc_backend {
    bk_kind kind;
    tc_backend_info info;
    model_profile prof;     /* BK_MODEL */
    model **models;         /* BK_MODEL: compiled per catalogue entry, on first use */
    size_t nmodels;
    tc_gpub *gpu;           /* BK_GPU */
    bool jit;               /* BK_GPU: the driver compiled the kernels from PTX */
    int arch;               /* tc_backend_set_arch: only this architecture's instructions (0: any) */
    unsigned long long batches;     /* tc_backend_mma and tc_backend_chain calls so far */
    unsigned long long fault_after; /* TCSCOPE_FAULT_AFTER: this batch fails (0: never) */
    char fault[320];                /* a device error: sticky, every later batch refuses */
    bool flip;                      /* TCSCOPE_FLIP_BIT: every batch's D[0] has bit 0 flipped */
    tc_backend_fn fn;       /* BK_FN */
    void *fn_ctx;
    tc_backend_fn_supports fn_supports; /* BK_FN: NULL (every instruction) or which */
    void (*fn_free)(void *ctx);         /* BK_FN: NULL, or frees fn_ctx at close */
};

static oracle_formats formats_of(const tc_instr *ins)
{
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    return f;
}

static bool file_exists(const char *p) { return access(p, R_OK) == 0; }

/* A profile name is looked up in the data beside the binary (tc_data_path). */
bool tc_profile_path(const char *spec, char *path, size_t len)
{
    static const char *const ext[] = {"", ".profile", ".txt", ".ini"};
    if (strchr(spec, '/')) {
        snprintf(path, len, "%s", spec);
        return file_exists(path);
    }
    for (size_t e = 0; e < sizeof ext / sizeof ext[0]; e++) {
        char rel[PATH_MAX];
        snprintf(rel, sizeof rel, "oracle/profiles/%s%s", spec, ext[e]);
        if (tc_data_path(rel, path, len))
            return true;
    }
    if (file_exists(spec)) {
        snprintf(path, len, "%s", spec);
        return true;
    }
    return false;
}

static int parse_gpu_index(const char *spec, int *dev, bool *jit)
{
    *jit = false;
    *dev = 0;
    if (!strcmp(spec, "gpu"))
        return 0;
    if (strncmp(spec, "gpu:", 4) != 0 || !spec[4])
        return -1;
    if (!strcmp(spec + 4, "jit")) {
        *jit = true;
        return 0;
    }
    char *end;
    long v = strtol(spec + 4, &end, 10);
    if (end == spec + 4 || v < 0 || v > 1024)
        return -1;
    if (*end && strcmp(end, ":jit"))
        return -1;
    *jit = *end != '\0';
    *dev = (int)v;
    return 0;
}

/* The CUDA runtime says "driver version is insufficient" also where there
 * is no driver at all: say that instead when neither the kernel module nor
 * the driver library is there. */
void tc_say_no_driver(char *err, size_t errlen)
{
    if (!strstr(err, "insufficient") || access("/proc/driver/nvidia/version", R_OK) == 0)
        return;
    void *lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (lib) {
        dlclose(lib);
        return;
    }
    snprintf(err, errlen, "no NVIDIA driver on this machine (no /proc/driver/nvidia, no libcuda.so.1): "
                          "the GPU backend needs one");
}

/* What compiled the kernels this build links (Makefile: TC_KERNEL_COMPILER). */
#ifndef TC_KERNEL_COMPILER
#define TC_KERNEL_COMPILER "unknown (built without the Makefile's compiler stamp)"
#endif

void tc_kernel_compiler(const char *driver, char *out, size_t len)
{
    if (getenv("CUDA_FORCE_PTX_JIT"))
        snprintf(out, len, "driver JIT %s from this binary's PTX", driver);
    else
        snprintf(out, len, "%s", TC_KERNEL_COMPILER);
}
static bool gpu_started; /* a GPU backend was opened: CUDA may have started */

/* TCSCOPE_FAULT_AFTER=N (test hook): the N-th batch of this backend fails
 * as a CUDA launch failure would, on every backend, so that a device error in
 * the middle of a run can be tested without a GPU. */
static int fault_after_env(unsigned long long *n, char *err, size_t errlen)
{
    const char *v = getenv("TCSCOPE_FAULT_AFTER");
    *n = 0;
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end || v[0] == '-' || x == 0) {
        snprintf(err, errlen, "bad TCSCOPE_FAULT_AFTER '%.40s' (a batch number, 1 or more)", v);
        return -1;
    }
    *n = x;
    return 0;
}

/* Before a batch: refuses after an earlier device error, or injects one. */
static int batch_begin(tc_backend *b, char *err, size_t errlen)
{
    if (!b->fault[0] && b->fault_after && ++b->batches == b->fault_after)
        snprintf(b->fault, sizeof b->fault,
                 "injected device error at batch %llu (TCSCOPE_FAULT_AFTER): unspecified launch failure "
                 "(cudaErrorLaunchFailure)", b->batches);
    if (b->fault[0]) {
        snprintf(err, errlen, "%s", b->fault);
        return -1;
    }
    return 0;
}

/* After a GPU batch: a failed CUDA call makes the backend unusable. */
static void batch_end(tc_backend *b, int rc, const char *err)
{
    if (rc && b->kind == BK_GPU && tc_gpub_device_failed(b->gpu) && !b->fault[0])
        snprintf(b->fault, sizeof b->fault, "device error: %.300s", err);
}

const char *tc_backend_fault(const tc_backend *b)
{
    return b->fault[0] ? b->fault : NULL;
}

tc_backend *tc_backend_open_builtin(const char *spec, char *err, size_t errlen)
{
    if (!spec || !*spec) {
        snprintf(err, errlen, "no backend named (use gpu, gpu:N, model:PROFILE or exact)");
        return NULL;
    }
    tc_backend *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (fault_after_env(&b->fault_after, err, errlen)) {
        free(b);
        return NULL;
    }
    /* TCSCOPE_FLIP_BIT=1 (test hook, as TCSCOPE_FAULT_AFTER): a device that
     * answers one bit differently, so that the cross-GPU comparison of
     * cli/fleet.c can be shown to find it without a GPU. */
    const char *flip = getenv("TCSCOPE_FLIP_BIT");
    b->flip = flip && !strcmp(flip, "1");
    int dev;
    if (!strcmp(spec, "exact")) {
        b->kind = BK_EXACT;
        snprintf(b->info.compiler, sizeof b->info.compiler, "none (software)");
        snprintf(b->info.backend, sizeof b->info.backend, "exact");
        snprintf(b->info.device, sizeof b->info.device, "MPFR oracle (no GPU)");
        return b;
    }
    if (!strncmp(spec, "model:", 6)) {
        char path[PATH_MAX + 64];
        if (!spec[6] || !tc_profile_path(spec + 6, path, sizeof path)) {
            snprintf(err, errlen, "unknown model profile '%s' (not under oracle/profiles/, not a file)",
                     spec + 6);
            free(b);
            return NULL;
        }
        if (profile_load(path, &b->prof, err, errlen)) {
            free(b);
            return NULL;
        }
        model_kind_form kf;   /* Blackwell kind:: forms: modelled (third-party profiles), not in the catalogue */
        char kerr[8];
        for (size_t i = 0; i < b->prof.count; i++) /* a misspelt section would be passed over in silence */
            if (!tc_instr_by_name(b->prof.entries[i].instr) &&
                !model_kind_form_of(b->prof.entries[i].instr, &kf, kerr, sizeof kerr)) {
                snprintf(err, errlen, "%s:%d: [instr %.96s]: not an instruction of the catalogue (tcscope list)", path,
                         b->prof.entries[i].line, b->prof.entries[i].instr);
                profile_free(&b->prof);
                free(b);
                return NULL;
            }
        size_t n;
        tc_catalogue(&n);
        b->models = calloc(n, sizeof *b->models);
        b->nmodels = n;
        if (!b->models) {
            profile_free(&b->prof);
            free(b);
            snprintf(err, errlen, "out of memory");
            return NULL;
        }
        b->kind = BK_MODEL;
        snprintf(b->info.compiler, sizeof b->info.compiler, "none (software)");
        snprintf(b->info.backend, sizeof b->info.backend, "model:%.56s", spec + 6);
        snprintf(b->info.device, sizeof b->info.device, "model (no GPU)");
        return b;
    }
    bool jit;
    if (!parse_gpu_index(spec, &dev, &jit)) {
        b->kind = BK_GPU;
        if (jit && gpu_started && !getenv("CUDA_FORCE_PTX_JIT")) {
            snprintf(err, errlen, "gpu:jit must be the first GPU backend of a process (CUDA reads "
                                  "CUDA_FORCE_PTX_JIT when it starts)");
            free(b);
            return NULL;
        }
        if (jit)
            setenv("CUDA_FORCE_PTX_JIT", "1", 1);
        gpu_started = true;
        if (tc_gpub_open(dev, &b->info, &b->gpu, err, errlen)) {
            tc_say_no_driver(err, errlen);
            free(b);
            return NULL;
        }
        b->jit = jit || getenv("CUDA_FORCE_PTX_JIT");
        if (b->jit)
            snprintf(b->info.backend + strlen(b->info.backend), sizeof b->info.backend - strlen(b->info.backend),
                     ":jit");
        tc_kernel_compiler(b->info.driver, b->info.compiler, sizeof b->info.compiler);
        return b;
    }
    snprintf(err, errlen, "unknown backend '%s' (use gpu, gpu:N, gpu:jit, gpu:N:jit, model:PROFILE or exact)", spec);
    free(b);
    return NULL;
}

tc_backend *tc_backend_open_fn(const char *name, tc_backend_fn fn, void *ctx)
{
    tc_backend *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->kind = BK_FN;
    snprintf(b->info.compiler, sizeof b->info.compiler, "none (software)");
    b->fn = fn;
    b->fn_ctx = ctx;
    snprintf(b->info.backend, sizeof b->info.backend, "%.63s", name);
    snprintf(b->info.device, sizeof b->info.device, "a function (no GPU)");
    return b;
}

void tc_backend_close(tc_backend *b)
{
    if (!b)
        return;
    if (b->kind == BK_MODEL) {
        for (size_t i = 0; i < b->nmodels; i++)
            model_free(b->models[i]);
        free(b->models);
        profile_free(&b->prof);
    }
    if (b->kind == BK_GPU)
        tc_gpub_close(b->gpu);
    if (b->kind == BK_FN && b->fn_free)
        b->fn_free(b->fn_ctx);
    free(b);
}

tc_backend *tc_backend_open_fn_owned(const char *name, const char *device, tc_backend_fn fn,
                                     tc_backend_fn_supports supports, void (*free_ctx)(void *), void *ctx)
{
    tc_backend *b = tc_backend_open_fn(name, fn, ctx);
    if (!b)
        return NULL;
    snprintf(b->info.device, sizeof b->info.device, "%s", device);
    b->fn_supports = supports;
    b->fn_free = free_ctx;
    return b;
}

void *tc_backend_fn_ctx(const tc_backend *b, tc_backend_fn fn)
{
    return b->kind == BK_FN && b->fn == fn ? b->fn_ctx : NULL;
}

const tc_backend_info *tc_backend_get_info(const tc_backend *b) { return &b->info; }

const char *tc_backend_profile_note(const tc_backend *b, const char *key)
{
    if (b->kind != BK_MODEL)
        return NULL;
    for (size_t i = 0; i < b->prof.nnotes; i++)
        if (!strcmp(b->prof.notes[i].key, key))
            return b->prof.notes[i].value;
    return NULL;
}

/* The compiled model of one instruction (NULL with why when the profile lacks it). */
static model *model_of(tc_backend *b, const tc_instr *ins, char *why, size_t len)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    size_t idx = (size_t)(ins - cat);
    if (idx >= n || idx >= b->nmodels) {
        snprintf(why, len, "%s: not a catalogue entry", ins->name);
        return NULL;
    }
    if (b->models[idx])
        return b->models[idx];
    const model_params *p = profile_lookup(&b->prof, ins->name);
    if (!p) {
        snprintf(why, len, "%s: the profile of %s has no parameters for it", ins->name, b->info.backend);
        return NULL;
    }
    char err[256];
    b->models[idx] = model_new(p, formats_of(ins), err, sizeof err);
    if (!b->models[idx])
        snprintf(why, len, "%s: %s", ins->name, err);
    return b->models[idx];
}

void tc_backend_set_arch(tc_backend *b, int sm)
{
    b->arch = sm;
}

bool tc_backend_supports(tc_backend *b, const tc_instr *ins, char *why, size_t len)
{
    if (b->arch && !tc_instr_on_arch(ins, b->arch)) {
        const char *t = tc_arch_target(b->arch);
        snprintf(why, len, "%s is not an instruction of %s (probes/isa/arch/%.2s%s.def)", ins->name,
                 t ? t : "this architecture", t ? t : "", t ? t + 3 : "");
        return false;
    }
    switch (b->kind) {
    case BK_EXACT:
        return true;
    case BK_FN:
        return !b->fn_supports || b->fn_supports(b->fn_ctx, ins, why, len);
    case BK_MODEL:
        return model_of(b, ins, why, len) != NULL;
    case BK_GPU:
        return tc_gpub_supports(b->gpu, ins, why, len);
    }
    return false;
}

/* A sparse instruction takes the dense logical A, which must be structured
 * as probes/sparse.h says (2:4; 1:2 for tf32). */
static int check_sparse(const tc_instr *ins, size_t ntiles, const uint64_t *A, char *err, size_t errlen)
{
    return tc_sparse_check(ins, ntiles, A, err, errlen);
}

/* Every input must fit its operand register (no bits above it). */
static int check_bits(const char *what, const tc_format *f, size_t n, const uint64_t *x, char *err,
                      size_t errlen)
{
    uint64_t mask = tc_operand_mask(f);
    for (size_t i = 0; i < n; i++)
        if (x[i] & ~mask) {
            snprintf(err, errlen, "%s[%zu] = 0x%llx is not a %s bit pattern", what, i,
                     (unsigned long long)x[i], f->name);
            return -1;
        }
    return 0;
}

/* A sparse instruction on the software backends sums only the kept terms
 * of each row (the ones its metadata names), as the hardware does: not the
 * dense product, which would see an Inf or NaN of B behind a dropped zero
 * and the signs of the dropped zeros. m NULL: the exact oracle. */
static int software_mma_sparse(const model *m, const tc_instr *ins, size_t ntiles, const uint64_t *A,
                               const uint64_t *B, const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    size_t M = (size_t)ins->m, N = (size_t)ins->n, kc = (size_t)ins->k / 2;
    uint64_t *Ar = malloc(M * kc * sizeof *Ar), *Br = malloc(M * kc * N * sizeof *Br);
    int rc = Ar && Br ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "out of memory");
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    for (size_t t = 0; !rc && t < ntiles; t++) { /* a tile at a time: Br is k/2 x n per row */
        tc_sparse_rows(ins, 1, A + t * M * (size_t)ins->k, B + t * (size_t)ins->k * N, Ar, Br); /* checked by the caller */
        if (m)
            model_mma(m, 1, (int)N, (int)kc, M, Ar, Br, C + t * M * N, D + t * M * N);
        else
            oracle_mma_exact(formats_of(ins), 1, (int)N, (int)kc, M, Ar, Br, C + t * M * N, D + t * M * N, r);
    }
    free(Ar);
    free(Br);
    return rc;
}

int tc_backend_mma(tc_backend *b, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                   const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    char why[384];
    if (!tc_backend_supports(b, ins, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    if (ntiles == 0) /* nothing to run: no launch, no batch counted */
        return 0;
    if (batch_begin(b, err, errlen))
        return -1;
    size_t mk = (size_t)ins->m * (size_t)ins->k, kn = (size_t)ins->k * (size_t)ins->n,
           mn = (size_t)ins->m * (size_t)ins->n;
    /* the GPU backend checks the patterns while packing them (one pass) */
    if (b->kind != BK_GPU &&
        (check_bits("A", ins->a, ntiles * mk, A, err, errlen) || check_bits("B", ins->b, ntiles * kn, B, err, errlen) ||
         (C && check_bits("C", ins->c, ntiles * mn, C, err, errlen))))
        return -1;
    if (ins->sparse && b->kind != BK_GPU && check_sparse(ins, ntiles, A, err, errlen))
        return -1;
    uint64_t *zeros = NULL;
    if (!C) {
        zeros = calloc(ntiles * mn + 1, sizeof *zeros);
        if (!zeros) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        C = zeros;
    }
    int rc = 0;
    if (ins->sparse && b->kind != BK_GPU && b->kind != BK_FN) {
        rc = software_mma_sparse(b->kind == BK_MODEL ? model_of(b, ins, why, sizeof why) : NULL, ins, ntiles, A,
                                 B, C, D, err, errlen);
        free(zeros);
        if (rc == 0 && b->flip && ntiles)
            D[0] ^= 1;
        return rc;
    }
    switch (b->kind) {
    case BK_EXACT: {
        tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
        oracle_mma_exact(formats_of(ins), ins->m, ins->n, ins->k, ntiles, A, B, C, D, r);
        break;
    }
    case BK_MODEL:
        model_mma(model_of(b, ins, why, sizeof why), ins->m, ins->n, ins->k, ntiles, A, B, C, D);
        break;
    case BK_GPU:
        rc = tc_gpub_mma(b->gpu, ins, ntiles, A, B, C, D, err, errlen);
        batch_end(b, rc, err);
        break;
    case BK_FN:
        rc = b->fn(b->fn_ctx, ins, ntiles, A, B, C, D, err, errlen);
        break;
    }
    free(zeros);
    if (rc == 0 && b->flip && ntiles)
        D[0] ^= 1;
    return rc;
}

int tc_backend_sass(tc_backend *b, const tc_instr *ins, tc_instr_sass *out, char *err, size_t errlen)
{
    if (b->kind != BK_GPU) {
        snprintf(err, errlen, "%s: backend %s has no SASS", ins->name, b->info.backend);
        return -1;
    }
    if (b->jit) {
        snprintf(err, errlen, "%s: the driver JIT's SASS is not in this binary (cuobjdump reads the build's)",
                 ins->name);
        return -1;
    }
    return tc_gpub_sass(b->gpu, ins, out, err, errlen);
}

double tc_backend_last_kernel_s(const tc_backend *b)
{
    return b->kind == BK_GPU ? tc_gpub_last_kernel_s(b->gpu) : 0.0;
}

int tc_backend_gpu_device(const tc_backend *b)
{
    if (b->kind != BK_GPU || b->flip || b->fault_after)
        return -1;
    return tc_gpub_device(b->gpu);
}

int tc_backend_mma_dev(tc_backend *b, const tc_instr *ins, size_t ntiles, const void *dA, const uint32_t *dE,
                       const void *dB, const void *dC, void *dD, unsigned char poison, char *err, size_t errlen)
{
    if (tc_backend_gpu_device(b) < 0) {
        snprintf(err, errlen, "%s: backend %s takes no batches on the GPU (internal error)", ins->name,
                 b->info.backend);
        return -1;
    }
    if (batch_begin(b, err, errlen))
        return -1;
    int rc = tc_gpub_mma_dev(b->gpu, ins, ntiles, dA, dE, dB, dC, dD, poison, err, errlen);
    batch_end(b, rc, err);
    return rc;
}

/* ---- Chains on the software backends ------------------------------------
 * D_i = X_{i-1} * B_i + C_i on M x K tiles (B_i is K x K), X_i = D_i rounded
 * into A's format by tc_encode with the caller's rounding. The same
 * arithmetic as the instruction, on the shape M x K x K. */

static int soft_step(tc_backend *b, const tc_instr *ins, size_t nchains, const uint64_t *X, const uint64_t *Bi,
                     const uint64_t *Ci, uint64_t *Dst, char *err, size_t errlen)
{
    int M = ins->m, K = ins->k;
    if (b->kind == BK_EXACT) {
        tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
        oracle_mma_exact(formats_of(ins), M, K, K, nchains, X, Bi, Ci, Dst, r);
        return 0;
    }
    char why[384];
    model *m = model_of(b, ins, why, sizeof why);
    if (!m) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    model_mma(m, M, K, K, nchains, X, Bi, Ci, Dst);
    return 0;
}

bool tc_instr_has_chains(const tc_instr *ins, char *why, size_t len)
{
    const char *no = NULL;
    if (ins->sparse) /* a chain feeds D back into A */
        no = "sparse instructions have no chains (D cannot feed a 2:4 A)";
    else if (tc_format_is_int(ins->a) || tc_format_is_int(ins->b) || tc_format_is_int(ins->c) ||
             tc_format_is_int(ins->d))
        no = "integer instructions have no chains (chains need floating-point formats)";
    if (no && why)
        snprintf(why, len, "%s: %s", ins->name, no);
    return !no;
}

int tc_backend_chain(tc_backend *b, const tc_instr *ins, size_t nchains, int len, const uint64_t *A0,
                     const uint64_t *B, const uint64_t *C, tc_rounding cvt, uint64_t *Xused, uint64_t *D,
                     char *err, size_t errlen)
{
    if (len < 1 || nchains < 1) {
        snprintf(err, errlen, "chain length and count must be at least 1");
        return -1;
    }
    if (!tc_instr_has_chains(ins, err, errlen) || batch_begin(b, err, errlen))
        return -1;
    if (b->kind == BK_FN) {
        snprintf(err, errlen, "%s: backend %s runs no chains", ins->name, b->info.backend);
        return -1;
    }
    if (b->kind == BK_GPU) {
        int rc = tc_gpub_chain(b->gpu, ins, nchains, len, A0, B, C, cvt, Xused, D, err, errlen);
        batch_end(b, rc, err);
        return rc;
    }
    size_t M = (size_t)ins->m, K = (size_t)ins->k, mk = M * K, kk = K * K;
    uint64_t *X = malloc(nchains * mk * sizeof *X), *Bi = malloc(nchains * kk * sizeof *Bi),
             *Ci = calloc(nchains * mk, sizeof *Ci), *Dst = malloc(nchains * mk * sizeof *Dst);
    int rc = 0;
    if (!X || !Bi || !Ci || !Dst) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    } else
        memcpy(X, A0, nchains * mk * sizeof *X);
    for (int i = 0; !rc && i < len; i++) {
        for (size_t c = 0; c < nchains; c++) {
            size_t step = c * (size_t)len + (size_t)i;
            memcpy(Bi + c * kk, B + step * kk, kk * sizeof *Bi);
            if (C)
                memcpy(Ci + c * mk, C + step * mk, mk * sizeof *Ci);
            memcpy(Xused + step * mk, X + c * mk, mk * sizeof *X);
        }
        rc = soft_step(b, ins, nchains, X, Bi, Ci, Dst, err, errlen);
        for (size_t c = 0; !rc && c < nchains; c++)
            memcpy(D + (c * (size_t)len + (size_t)i) * mk, Dst + c * mk, mk * sizeof *Dst);
        for (size_t e = 0; !rc && e < nchains * mk; e++)
            X[e] = tc_encode(ins->a, tc_decode(ins->d, Dst[e], false), false, cvt);
    }
    free(X);
    free(Bi);
    free(Ci);
    free(Dst);
    return rc;
}
