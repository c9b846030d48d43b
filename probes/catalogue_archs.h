/* The architectures tcscope builds for, and which of them has each catalogue
 * instruction: generated (probes/catalogue_archs.c) from the per-architecture
 * ISA tables probes/isa/arch/smXX.def by probes/isa/gen.py. Read through
 * probes/probes.h (tc_arch_*, tc_instr_on_arch). */
#ifndef TC_CATALOGUE_ARCHS_H
#define TC_CATALOGUE_ARCHS_H

#include <stddef.h>

#define TC_NARCHS 8

typedef struct {
    int sm;               /* 70, 75, 80, 86, 89, 90, 100, 120 */
    const char *target;   /* "sm_70" ... "sm_90a", "sm_100a", "sm_120a" */
} tc_arch;

typedef struct {
    const char *name;     /* catalogue name */
    int sm[TC_NARCHS];    /* the architectures that have it, 0 after the last */
} tc_instr_archs;

extern const tc_arch tc_archs[TC_NARCHS];
extern const tc_instr_archs tc_catalogue_archs[];
extern const size_t tc_catalogue_archs_count;

#endif
