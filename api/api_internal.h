/* Internals shared by the files of api/ (the C API of tcscope.h); not public. */
#ifndef TC_API_INTERNAL_H
#define TC_API_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "api/tcscope.h"
#include "formats/formats.h"
#include "probes/probes.h"

/* The caller's err may be NULL or empty: messages then go to a local
 * buffer, so the library's own functions always have somewhere to write. */
#define API_ERR_BUF(err, errlen)                                                                                   \
    char api_errbuf_[512];                                                                                         \
    if (!(err) || !(errlen))                                                                                       \
        (err) = api_errbuf_, (errlen) = sizeof api_errbuf_;                                                        \
    (err)[0] = '\0'

/* -1 with the message in err. */
int api_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Format `name` (built-in or eXmY, built into *scratch), NULL with err
 * naming `what` ("format", "from") when unknown. */
const tc_format *api_format(const char *what, const char *name, tc_format *scratch, char *err, size_t errlen);

/* Instruction `name` of the catalogue, NULL with err when unknown. */
const tc_instr *api_instr(const char *name, char *err, size_t errlen);

/* Every element within format f's container (x64 or x32: whichever is
 * given holds the n elements); -1 with err naming the first that is not. */
int api_check_bits(const char *what, const tc_format *f, const uint64_t *x64, const uint32_t *x32, size_t n,
                   char *err, size_t errlen);

/* The profile file of spec (a name or a path), false with err when none. */
int api_profile_path(const char *spec, char *path, size_t len, char *err, size_t errlen);

#endif
