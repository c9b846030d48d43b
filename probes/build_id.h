/* build_id: the GNU build-id (the linker's NT_GNU_BUILD_ID note) of this
 * process's main program, or of an executable file, as lowercase hex.
 *
 * Why: a file written beside the binary at build time (build/tcscope.sass,
 * probes/sass.h) may be used in place of work done at run time only when
 * it was made from this very binary; the build-id says so, and reading it
 * costs no more than walking the program headers. */
#ifndef TC_BUILD_ID_H
#define TC_BUILD_ID_H

#include <stddef.h>

/* Room for the hex of the longest build-id read (64 bytes; gcc's default,
 * sha1, is 20). */
#define TC_BUILD_ID_HEX 129

/* The running program's build-id (its PT_NOTE segments, as loaded): 0 and
 * hex filled, or -1 when it has none. */
int tc_build_id_self(char hex[TC_BUILD_ID_HEX]);

/* The same read from an ELF file of this machine's class (the build's
 * own): 0, or -1 when it cannot be read or has no build-id. */
int tc_build_id_of_file(const char *path, char hex[TC_BUILD_ID_HEX]);

#endif
