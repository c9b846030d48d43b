/* tcscope.h: the C API of libtcscope, for bindings (python/ binds it with
 * ctypes) and C programs. `make build/libtcscope.so` builds the library.
 *
 * Plain C types only: names as strings, element values as bit patterns in
 * uint64_t (one per element, the format's container bits in the low bits),
 * arrays owned by the caller. Every function that can fail returns 0, or
 * -1 with a message in err (errlen bytes, NUL-terminated, truncated to
 * fit; err may be NULL); none prints, exits or keeps a pointer it was given.
 *
 * Names are the CLI's: instructions as `tcscope list` prints them
 * ("mma.m16n8k16.f32.f16.f16.f32"), formats as `tcscope formats` ("e4m3",
 * "f16", or any "eXmY"), rounding modes "rne" "rna" "rz" "ru" "rd" "ro"
 * "rs", overflow policies "inf" "sat" "nan" (formats/formats.h says what
 * each does), GEMM paths as `tcscope gemm --path` takes them ("f16", "e4m3").
 * A profile is a name under oracle/profiles/ of the data beside the
 * library ("h100": the tree the library was built in, or share/tcscope
 * beside an installed one), a path to a profile file, or, for tcscope_mma,
 * "exact": the correctly rounded oracle (MPFR).
 *
 * The library is CPU-only (the model and exact backends). Calls may run
 * concurrently; each spreads its own work over the cores.
 */
#ifndef TCSCOPE_H
#define TCSCOPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised when a function's arguments or behaviour change. */
#define TCSCOPE_API_VERSION 1
int tcscope_api_version(void);
/* The tcscope version compiled in (git describe at build time). */
const char *tcscope_version(void);

/* ---- what there is ------------------------------------------------------ */

/* The instruction catalogue: count, and the i-th name (NULL out of range). */
size_t tcscope_instr_count(void);
const char *tcscope_instr_name(size_t i);
/* Instruction instr's shape (m, n, k; k is the logical dense K, also for
 * sparse), its operands' format names (A, B, C, D, static strings) and
 * whether A is 2:4 sparse (given dense, at most 2 nonzeros per aligned 4). */
int tcscope_instr_info(const char *instr, int shape[3], const char *formats[4], int *sparse, char *err,
                       size_t errlen);

/* The built-in formats: count, and the i-th name (NULL out of range). */
size_t tcscope_format_count(void);
const char *tcscope_format_name(size_t i);
/* Format fmt: storage_bits (the container: 32 for tf32), ebits, mbits
 * (stored fraction), shift (low container bits the format does not use:
 * 13 for tf32), is_int (s8, u8, s32). */
int tcscope_format_info(const char *fmt, int info[5], char *err, size_t errlen);
enum { TCSCOPE_FMT_STORAGE_BITS, TCSCOPE_FMT_EBITS, TCSCOPE_FMT_MBITS, TCSCOPE_FMT_SHIFT, TCSCOPE_FMT_IS_INT };

/* The GEMM paths: count, i-th name; path's upload formats of A and B and
 * the instruction whose model predicts it (NULL when none: SIMT FP32). */
size_t tcscope_gemm_path_count(void);
const char *tcscope_gemm_path_name(size_t i);
int tcscope_gemm_path_info(const char *path, const char **fmt_a, const char **fmt_b, const char **instr,
                           char *err, size_t errlen);

/* The file of profile spec (a name or a path, as above) into path (len
 * bytes); -1 with err when there is none. */
int tcscope_profile_path(const char *spec, char *path, size_t len, char *err, size_t errlen);

/* ---- one instruction ---------------------------------------------------- */

/* ntiles independent D = A*B + C of instruction instr as profile computes
 * them, row-major per tile: A ntiles x m x k, B ntiles x k x n, C and D
 * ntiles x m x n (C NULL: zeros). Bits above an operand's container, or a
 * sparse A that is not 2:4, are an error naming the element. */
int tcscope_mma(const char *instr, const char *profile, size_t ntiles, const uint64_t *A, const uint64_t *B,
                const uint64_t *C, uint64_t *D, char *err, size_t errlen);

/* ---- conversions -------------------------------------------------------- */

/* Flags of a conversion (formats/formats.h tc_encode_flags). */
enum { TCSCOPE_INEXACT = 1, TCSCOPE_OVERFLOW = 2, TCSCOPE_SATURATED = 4 };

/* out[i] = x[i] (bits of format from; daz: a subnormal input reads as
 * zero) rounded once into format to with rounding mode round and overflow
 * policy overflow; ftz: a subnormal result becomes zero. rbits: n random
 * words for "rs" (required then, else ignored). flags (may be NULL): each
 * conversion's TCSCOPE_* flags. A bits input exceeding from's container
 * is an error naming it. */
int tcscope_convert(const char *from, const uint64_t *x, size_t n, int daz, const char *to, const char *round,
                    const char *overflow, int ftz, const uint32_t *rbits, uint64_t *out, uint8_t *flags,
                    char *err, size_t errlen);

/* out[i] = the value of bits x[i] of format fmt as a double (exact for
 * every format of 53 bits or fewer and the integers; f64 itself). */
int tcscope_decode(const char *fmt, const uint64_t *x, size_t n, double *out, char *err, size_t errlen);

/* ---- library GEMMs ------------------------------------------------------ */

/* D = A * B (m x n, FP32 bits, row-major) as GEMM path `path` computes it
 * with profile's instruction model and the accumulation structure
 * (cases/gemm.h tc_gemm_struct): K in `splitk` slices (cut in whole
 * units of slice_unit positions, 0: equal slices), in each slice runs of
 * `promote` positions (0: the whole slice) accumulated by the tensor core
 * `chunk` positions per instruction step, each run added in FP32 to the
 * slice's sum, the slices meeting as `combine` says ("seq", "pairwise",
 * "reverse", or "xor B0 B1 ..": an XOR tree, level l adding slice
 * i + 2^Bl to slice i, splitk a power of two 4 .. 32, the bits each of
 * 0 .. log2(splitk) - 1 once: a record's combine "xor" and its xor_bits); incvt: how a tf32 path's FP32 inputs reach the tensor core
 * ("as-uploaded", "tf32-rz", "tf32-rna", "tf32-rne", "full-f32"). A is
 * m x k, B k x n, row-major, bits of the path's upload formats. This is the
 * simulated library of `tcscope gemm --backend model:PROFILE --sim`. */
int tcscope_gemm_predict(const char *path, const char *profile, int m, int n, int k, const uint32_t *A,
                         const uint32_t *B, int chunk, int promote, int splitk, const char *combine, int slice_unit,
                         const char *incvt, uint32_t *D, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
