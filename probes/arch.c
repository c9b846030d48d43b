/* The architectures of the portable build and which of them has each
 * catalogue instruction, from the generated probes/catalogue_archs.c (made
 * from the ISA tables probes/isa/arch/smXX.def by probes/isa/gen.py). */
#include <stdlib.h>
#include <string.h>

#include "probes/catalogue_archs.h"
#include "probes/probes.h"

int tc_arch_parse(const char *s)
{
    if (!s)
        return -1;
    if (!strncmp(s, "sm_", 3))
        s += 3;
    else if (!strncmp(s, "sm", 2))
        s += 2;
    for (int i = 0; i < TC_NARCHS; i++) {
        const char *t = tc_archs[i].target + 3;       /* "90a" */
        size_t digits = strspn(t, "0123456789");
        /* the number alone, or with its 'a' */
        if ((strlen(s) == digits && !strncmp(s, t, digits)) || !strcmp(s, t))
            return tc_archs[i].sm;
    }
    return -1;
}

const char *tc_arch_target(int sm)
{
    for (int i = 0; i < TC_NARCHS; i++)
        if (tc_archs[i].sm == sm)
            return tc_archs[i].target;
    return NULL;
}

int tc_arch_of_device(int cc)
{
    int best = 0;
    for (int i = 0; i < TC_NARCHS; i++) {
        int sm = tc_archs[i].sm;
        bool a_target = tc_archs[i].target[strlen(tc_archs[i].target) - 1] == 'a';
        if (a_target ? sm == cc : (sm / 10 == cc / 10 && sm <= cc && sm > best))
            best = sm;
    }
    return best;
}

bool tc_instr_on_arch(const tc_instr *ins, int sm)
{
    if (!ins || !ins->name)
        return false;
    for (size_t i = 0; i < tc_catalogue_archs_count; i++) {
        if (strcmp(tc_catalogue_archs[i].name, ins->name))
            continue;
        for (int j = 0; j < TC_NARCHS && tc_catalogue_archs[i].sm[j]; j++)
            if (tc_catalogue_archs[i].sm[j] == sm)
                return true;
        return false;
    }
    return false;
}
