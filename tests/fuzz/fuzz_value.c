/* Values (oracle/value.h): the first byte picks a format, the rest is the
 * text. Parsing never crashes; a value parsed exactly decodes back to
 * itself; raw bits stay within the format's container. */
#include <stdio.h>

#include "oracle/value.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t nf;
    const tc_format *const *list = tc_format_list(&nf);
    const tc_format *f = list[data[0] % nf];
    char *text = fuzz_text(data + 1, size - 1), err[256];
    tc_parsed_value v;
    if (tc_value_parse(text, f, &v, err, sizeof err)) {
        char hex[96], dec[4096];
        tc_value_to_hex(v.v, hex, sizeof hex);
        if (v.is_bits)
            FUZZ_CHECK((v.bits & ~tc_format_mask(f)) == 0);
        tc_rounding r = {.mode = (tc_round)(data[0] >> 4) % 6, .ovf = TC_OVF_SAT};
        uint64_t bits;
        FUZZ_CHECK(tc_value_parse_to_bits(text, f, r, &bits, err, sizeof err));
        FUZZ_CHECK((bits & ~tc_format_mask(f)) == 0);
        /* what convert prints: the rounded value's exact decimal (the input's
         * could be 10^8 digits long, which convert never prints) */
        tc_value_to_decimal(tc_decode(f, bits, false), dec, sizeof dec);
    } else
        FUZZ_CHECK(err[0] != '\0');
    uint64_t exact;
    if (tc_value_parse_exact(text, f, &exact, err, sizeof err) && !tc_value_parse(text, f, &v, err, sizeof err))
        FUZZ_CHECK(0);
    if (tc_value_parse_exact(text, f, &exact, err, sizeof err) && tc_value_parse(text, f, &v, err, sizeof err) &&
        !v.is_bits) {
        /* held exactly: the bits decode to the value read */
        tc_value back = tc_decode(f, exact, false);
        FUZZ_CHECK(back.cls == v.v.cls);
        FUZZ_CHECK(back.cls == TC_NAN || back.cls == TC_ZERO || back.sign == v.v.sign);
        FUZZ_CHECK(back.cls != TC_FINITE || tc_value_cmp(back, v.v) == 0);
    }
    free(text);
    return 0;
}
