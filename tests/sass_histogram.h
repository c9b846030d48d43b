/* The SASS opcode histogram of a GPU model kernel (tools/model-gpu-sass.sh
 * writes it) checked for integer instructions only: shared by
 * tests/test_model_gpu.c (the model's kernel) and tests/test_gemm_gpu.c
 * (the GEMM walk's). */
#ifndef TC_TESTS_SASS_HISTOGRAM_H
#define TC_TESTS_SASS_HISTOGRAM_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Opcodes (before the first '.') that are tensor-core or floating-point
 * instructions, or that need them (I2F/F2I: conversions; MUFU: the special
 * function unit, which integer division also goes through). */
static const char *const forbidden[] = {
    "FADD", "FMUL", "FFMA", "FMNMX", "FSET", "FSETP", "FCHK", "FSEL", "FRND", "FSWZADD", "FCMP",
    "F2F", "F2I", "I2F", "I2FP", "F2FP", "F2IP", "MUFU", "DADD", "DMUL", "DFMA", "DMNMX", "DSET", "DSETP",
    "HADD2", "HMUL2", "HFMA2", "HMNMX2", "HSET2", "HSETP2", "HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA",
    "QGMMA", "BGMMA", "UHMMA",
};

/* NULL when text is a histogram of kernel (the model's, or the GEMM walk's)
 * with integer opcodes only, else what is wrong (into why). */
static inline const char *check_histogram(const char *text, const char *kernel, char *why, size_t len)
{
    bool fn = false, target = false, imad = false;
    long declared = -1, total = 0;
    const char *line = text;
    while (*line) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)(n < 255 ? n : 255), line);
        line += n + (end != NULL);
        char op[128];
        long count;
        if (buf[0] == '#') {
            fn |= strncmp(buf, "# function ", 11) == 0 && strstr(buf, kernel);
            target |= strcmp(buf, "# target sm_90a") == 0;
            if (sscanf(buf, "# instructions %ld", &count) == 1)
                declared = count;
            continue;
        }
        if (!buf[0])
            continue;
        if (sscanf(buf, "%127s %ld", op, &count) != 2 || count < 1) {
            snprintf(why, len, "unreadable line '%.80s'", buf);
            return why;
        }
        total += count;
        char stem[128];
        snprintf(stem, sizeof stem, "%s", op);
        stem[strcspn(stem, ".")] = '\0';
        imad |= strcmp(stem, "IMAD") == 0;
        for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++)
            if (!strcmp(stem, forbidden[i]) || strstr(stem, "MMA")) {
                snprintf(why, len, "%.60s appears %ld times: not an integer instruction", op, count);
                return why;
            }
    }
    if (!fn || !target) {
        snprintf(why, len, "not the sm_90a SASS of %s", kernel);
        return why;
    }
    if (declared != total || total < 1000 || !imad) {
        snprintf(why, len, "%ld instructions counted, %ld declared: not a whole kernel", total, declared);
        return why;
    }
    return NULL;
}

static inline char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

#endif
