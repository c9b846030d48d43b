/* Shared by the libFuzzer harnesses: the entry point's prototype (the
 * build warns about functions without one) and the input as a C string. */
#ifndef TC_FUZZ_H
#define TC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A NUL-terminated copy (a NUL inside ends the text, as in a C string). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* A property that must hold for every input: abort, so libFuzzer keeps it. */
#define FUZZ_CHECK(cond)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #cond);       \
            abort();                                                                          \
        }                                                                                     \
    } while (0)

#endif
