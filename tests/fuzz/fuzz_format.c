/* Format, rounding and overflow names (formats/formats.h). A name that
 * parses is a format whose largest finite value and smallest subnormal
 * encode and decode back unchanged, and whose name reads back as a format;
 * a rounding or overflow name reads as a mode whose own name reads back. */
#include <stdio.h>

#include "formats/formats.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *name = fuzz_text(data, size);
    tc_format scratch, again;
    const tc_format *f = tc_format_by_name(name, &scratch);
    if (f) {
        FUZZ_CHECK(f->storage_bits >= 1 && f->storage_bits <= 64);
        FUZZ_CHECK(tc_format_by_name(f->name, &again) != NULL);
        tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
        if (!tc_format_is_int(f)) {
            tc_value mx = tc_format_max(f), mn = tc_format_min_subnormal(f);
            FUZZ_CHECK(tc_value_cmp(tc_decode(f, tc_encode(f, mx, false, r), false), mx) == 0);
            FUZZ_CHECK(tc_value_cmp(tc_decode(f, tc_encode(f, mn, false, r), false), mn) == 0);
        }
        FUZZ_CHECK((tc_encode_f64(f, 1.0, r) & ~tc_format_mask(f)) == 0);
    }
    /* aliases ("rn", "nearest", "satfinite") read as a mode whose own name reads back to it */
    tc_round m, m2;
    if (tc_round_parse(name, &m))
        FUZZ_CHECK(tc_round_parse(tc_round_name(m), &m2) && m2 == m);
    tc_overflow o, o2;
    if (tc_overflow_parse(name, &o))
        FUZZ_CHECK(tc_overflow_parse(tc_overflow_name(o), &o2) && o2 == o);
    free(name);
    return 0;
}
