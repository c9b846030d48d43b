/* sass: reads `cuobjdump -sass` text and checks that a timed loop really
 * contains the tensor-core instructions it was built with.
 *
 * Why: the compiler may lower a PTX MMA to other instructions (FP8 mma on
 * sm_90 becomes F2FP conversions + HMMA), merge MMAs whose operands do not
 * change, hoist them out of the loop, or unroll the loop so that the count
 * per source iteration is no longer known. A cycle count from such a loop
 * measures something else, so timing.c reports only loops that pass here.
 *
 * A tensor-core opcode is any SASS opcode whose stem (text before the first
 * '.') ends in "MMA": HMMA, IMMA, DMMA, QMMA, BMMA, HGMMA, QGMMA, IGMMA, BGMMA.
 */
#ifndef TC_SASS_H
#define TC_SASS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct tc_sass tc_sass;

/* Parses the text of `cuobjdump -sass` (one or more "Function : NAME"
 * sections). NULL with err set when the text holds no function. */
tc_sass *tc_sass_parse(const char *text, char *err, size_t errlen);
void tc_sass_free(tc_sass *s);
/* What s holds, and only that (each function's name; each instruction's
 * address, opcode and branch target), as `cuobjdump -sass` text that
 * tc_sass_parse reads back to the same s: the build's SASS file (9.7 to 13
 * times smaller than cuobjdump's text, whose operands and encodings no
 * check reads). A malloc'd text. */
char *tc_sass_format(const tc_sass *s);

size_t tc_sass_function_count(const tc_sass *s);
const char *tc_sass_function_name(const tc_sass *s, size_t i);
/* Number of instructions of the function (-1 if there is no such function). */
long tc_sass_instruction_count(const tc_sass *s, const char *function);

typedef enum {
    TC_SASS_MATCH,        /* exactly `expected` of the expected stem, in one loop, nothing else */
    TC_SASS_EMULATED,     /* no expected opcode; another MMA opcode, a whole number per PTX MMA */
    TC_SASS_MISSING,      /* no tensor-core opcode in the function (or none that fits) */
    TC_SASS_MERGED,       /* fewer than expected in the loop: MMAs were merged */
    TC_SASS_EXTRA,        /* more than expected in the loop */
    TC_SASS_HOISTED,      /* tensor-core opcodes outside the timed loop */
    TC_SASS_UNROLLED,     /* tensor-core opcodes in several loops: count per iteration unknown */
    TC_SASS_SERIALIZED,   /* wgmma loop waits after each wgmma (ptxas C7514): not the loop built */
    TC_SASS_NO_FUNCTION   /* the kernel is not in the disassembly */
} tc_sass_verdict;

typedef struct {
    tc_sass_verdict verdict;
    bool usable;          /* MATCH or EMULATED: a timing from this loop may be reported */
    bool emulated;
    char opcode[64];      /* full tensor opcode found in the loop ("HMMA.16816.F32"), "" if none */
    char stem[16];        /* the expected stem ("HMMA") */
    int expected;         /* PTX MMAs per loop iteration as built */
    int in_loop;          /* tensor-core opcodes in the timed loop */
    int expected_in_loop; /* of those, with the expected stem */
    int outside_loop;     /* tensor-core opcodes outside the timed loop */
    int loops_with_mma;   /* innermost loops that hold tensor-core opcodes */
    int per_mma;          /* SASS tensor opcodes per PTX MMA (1 unless emulated) */
    int conversions;      /* F2FP/F2F/I2F/F2I/I2FP in the function (emulation support) */
    int conversions_in_loop;
    int waits_in_loop;    /* WARPGROUP.DEPBAR (wgmma.wait_group) in the timed loop */
    char message[320];    /* one line saying what was found */
} tc_sass_check;

/* Checks the timed loop of `function`: it must hold exactly `expected`
 * opcodes with stem `stem` ("HMMA", "HGMMA", ...). Always fills *out;
 * returns 0 when usable, -1 otherwise. */
int tc_sass_check_loop(const tc_sass *s, const char *function, const char *stem,
                       int expected, tc_sass_check *out);

const char *tc_sass_verdict_name(tc_sass_verdict v);

/* The disassembly to parse (probes/sass_dump.c): the text of the file path,
 * or, path NULL, of this program's kernels of architecture arch ("sm_90a")
 * whose cubins hold a symbol beginning with prefix ("tct_"): the build's
 * file beside this program (PROGRAM.sass, tc_sass_from_build_file) when it
 * is this very binary's, else tc_sass_disassemble of this program. A
 * malloc'd text, or NULL with err set. from (NULL: not wanted) says where
 * the text came from: path, the build's file, or "cuobjdump". */
char *tc_sass_dump(const char *path, const char *arch, const char *prefix, char *from, size_t fromlen, char *err,
                   size_t errlen);

/* The kernels of arch whose cubins hold a symbol beginning with prefix in
 * the executable exe, with cuobjdump (TCSCOPE_CUOBJDUMP, /usr/local/cuda/bin,
 * PATH); where that fails, arch's whole disassembly, then exe's. A malloc'd
 * text, or NULL with err set. */
char *tc_sass_disassemble(const char *exe, const char *arch, const char *prefix, char *err, size_t errlen);

/* The first line of a build's SASS file, '\n' included:
 * "# tcscope-sass build-id HEX arch ARCH prefix PREFIX". 0, or -1 when it
 * does not fit in len. */
int tc_sass_build_header(char *buf, size_t len, const char *build_id, const char *arch, const char *prefix);

/* The text of the SASS file at path after its header, when that header is
 * the one of this process's build-id (probes/build_id.h), arch and prefix;
 * NULL otherwise, silently: no file, another build's, another arch or
 * prefix, a malformed header, no text, or this program without a build-id
 * (then no file is ever used). */
char *tc_sass_from_build_file(const char *path, const char *arch, const char *prefix);

/* At build time (probes/sass_build.c, tools/sass_write.c): exe's
 * disassembly (tc_sass_disassemble) written to out_path under the header
 * that names exe's build-id, arch and prefix. out_path is whole or absent:
 * the old one removed first, the new one renamed into place, nothing left
 * on failure. 0, or -1 with err set. */
int tc_sass_write_build(const char *exe, const char *out_path, const char *arch, const char *prefix, char *err,
                        size_t errlen);

#endif
