/* Instruction selectors and names (cases/casefile.h, probes/probes.h): a
 * selector either matches or is refused with a message, the same way on
 * every instruction; an exact name matches only itself. */
#include <stdio.h>

#include "cases/casefile.h"
#include "probes/probes.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512)
        return 0;
    char *sel = fuzz_text(data, size), err[256];
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    const tc_instr *named = tc_instr_by_name(sel);
    int bad = -1;
    for (size_t i = 0; i < n; i++) {
        err[0] = '\0';
        bool m = tc_selector_match(sel, &cat[i], err, sizeof err);
        int is_bad = err[0] != '\0';
        FUZZ_CHECK(bad < 0 || bad == is_bad); /* a malformed selector is malformed everywhere */
        bad = is_bad;
        FUZZ_CHECK(!is_bad || !m);
        if (named)
            FUZZ_CHECK(m == (&cat[i] == named));
        FUZZ_CHECK(m == tc_selector_match(sel, &cat[i], NULL, 0));
    }
    free(sel);
    return 0;
}
