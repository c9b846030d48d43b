/* SASS disassembly (probes/sass.h; what `bench --sass FILE` reads, else
 * cuobjdump's output): any text parses or is refused with a message; every
 * function parsed has its instructions counted, and the timed-loop check of
 * each says a verdict whose counts agree with it: usable exactly when the
 * loop holds what was built (or its emulation), never more of the expected
 * opcode than of tensor-core opcodes in the loop. */
#include "probes/sass.h"
#include "tests/fuzz/fuzz.h"

static void check(const tc_sass *s, const char *fn, const char *stem, int expected)
{
    tc_sass_check c;
    int rc = tc_sass_check_loop(s, fn, stem, expected, &c);
    FUZZ_CHECK((rc == 0) == c.usable);
    FUZZ_CHECK(c.usable == (c.verdict == TC_SASS_MATCH || c.verdict == TC_SASS_EMULATED));
    FUZZ_CHECK(c.expected_in_loop <= c.in_loop && c.in_loop >= 0 && c.outside_loop >= 0);
    FUZZ_CHECK(c.verdict != TC_SASS_MATCH || (c.expected_in_loop == expected && c.outside_loop == 0));
    FUZZ_CHECK(c.message[0] != '\0' && tc_sass_verdict_name(c.verdict) != NULL);
    FUZZ_CHECK(memchr(c.opcode, '\0', sizeof c.opcode) && memchr(c.stem, '\0', sizeof c.stem));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    char *text = fuzz_text(data, size), err[300] = "";
    tc_sass *s = tc_sass_parse(text, err, sizeof err);
    if (!s) {
        FUZZ_CHECK(err[0] != '\0');
        free(text);
        return 0;
    }
    static const char *const stems[] = {"HMMA", "HGMMA", "QGMMA", "IMMA"};
    size_t n = tc_sass_function_count(s);
    FUZZ_CHECK(n >= 1);
    for (size_t i = 0; i < n; i++) {
        const char *fn = tc_sass_function_name(s, i);
        FUZZ_CHECK(fn != NULL && tc_sass_instruction_count(s, fn) >= 0);
        check(s, fn, stems[(i + size) % 4], 1 + (int)(size % 4));
    }
    tc_sass_check none;
    FUZZ_CHECK(tc_sass_check_loop(s, "no such function in any disassembly", "HMMA", 1, &none) != 0 &&
               none.verdict == TC_SASS_NO_FUNCTION);
    tc_sass_free(s);
    free(text);
    return 0;
}
