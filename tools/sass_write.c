/* sass_write: the build's SASS file (probes/sass.h tc_sass_write_build),
 * run by the Makefile right after linking build/tcscope where a cuobjdump
 * is found, so that the timed commands read build/tcscope.sass instead of
 * running cuobjdump on themselves at every start.
 *   sass_write EXE OUT ARCH PREFIX
 * Exit 0 when OUT is written; 1 when not (said on stderr; OUT is then
 * absent, and the timing runs cuobjdump as without it); 2 on usage errors. */
#include <stdio.h>

#include "probes/sass.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: sass_write EXE OUT ARCH PREFIX\n");
        return 2;
    }
    char err[600];
    if (tc_sass_write_build(argv[1], argv[2], argv[3], argv[4], err, sizeof err) != 0) {
        fprintf(stderr, "sass_write: %s not written (the timing will run cuobjdump): %s\n", argv[2], err);
        return 1;
    }
    return 0;
}
