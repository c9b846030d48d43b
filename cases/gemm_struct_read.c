/* A gemm structure read back from its JSON (cases/gemm.h
 * tc_gemm_struct_read; the writer: reports/record_gemm_structure.c), for
 * the replay of a case (cases/gemm_replay.c) and of a probe record's
 * classes (cases/gemm_probe_replay.c). */
#include <jansson.h>
#include <stdio.h>

#include "cases/gemm_internal.h"

static int bad(char *err, size_t errlen, const char *what)
{
    snprintf(err, errlen, "record: %s", what);
    return -1;
}

int tc_gemm_struct_read(const json_t *st, tc_gemm_struct *s, tc_gemm_incvt *cv, char *err, size_t errlen)
{
    const json_t *in = json_object_get(st, "inferred");
    const char *comb = json_string_value(json_object_get(in, "combine"));
    const char *cvs = json_string_value(json_object_get(json_object_get(st, "input_conversion"), "used"));
    if (!json_is_object(in) || !comb || !json_is_integer(json_object_get(in, "chunk")) ||
        !json_is_integer(json_object_get(in, "splitk")))
        return bad(err, errlen, "no \"structure\".\"inferred\" {chunk, promote, splitk, combine}");
    s->chunk = (int)json_integer_value(json_object_get(in, "chunk"));
    s->promote = (int)json_integer_value(json_object_get(in, "promote"));   /* null: 0, one accumulator */
    s->splitk = (int)json_integer_value(json_object_get(in, "splitk"));
    s->slice_unit = (int)json_integer_value(json_object_get(in, "slice_unit"));   /* null or absent: 0, equal slices */
    if (!tc_gemm_combine_parse(comb, &s->combine))
        return bad(err, errlen, "an unknown \"structure\".\"inferred\".\"combine\"");
    if (s->chunk < 1 || s->promote < 0 || s->splitk < 1 || s->splitk > TC_GEMM_MAX_SLICES || s->slice_unit < 0)
        return bad(err, errlen, "an inferred structure out of range");
    if (s->combine == GEMM_COMBINE_XOR) {   /* its levels: each bit of the slice index once */
        const json_t *bits = json_object_get(in, "xor_bits");
        int L = gemm_xor_levels(s->splitk), seen = 0;
        if (!L || json_array_size(bits) != (size_t)L)
            return bad(err, errlen, "\"xor\" needs 4 .. 32 slices (a power of two) and xor_bits, one bit a level");
        for (int l = 0; l < L; l++) {
            json_int_t b = json_integer_value(json_array_get(bits, (size_t)l));
            if (!json_is_integer(json_array_get(bits, (size_t)l)) || b < 0 || b >= L || seen >> b & 1)
                return bad(err, errlen, "\"xor_bits\" must name each bit of the slice index once");
            seen |= 1 << b;
            s->xor_bits[l] = (unsigned char)b;
        }
    }
    const json_t *cuts = json_object_get(in, "cuts");
    if (cuts) {   /* slices as cut: increasing from 0, splitk + 1 of them (the last is k: checked by the caller) */
        if (!json_is_array(cuts) || json_array_size(cuts) != (size_t)s->splitk + 1)
            return bad(err, errlen, "\"cuts\" needs splitk + 1 positions");
        s->slice_unit = TC_GEMM_CUTS;
        for (int t = 0; t <= s->splitk; t++) {
            const json_t *c = json_array_get(cuts, (size_t)t);
            s->cut[t] = json_is_integer(c) ? (int)json_integer_value(c) : -1;
            if (!json_is_integer(c) || json_integer_value(c) < 0 || json_integer_value(c) > 65536 ||
                (t == 0 ? s->cut[0] != 0 : s->cut[t] <= s->cut[t - 1]))
                return bad(err, errlen, "\"cuts\" must rise from 0, one slice each");
        }
    }
    *cv = GEMM_IN_AS_UPLOADED;
    if (cvs && !tc_gemm_incvt_parse(cvs, cv))
        return bad(err, errlen, "an unknown input_conversion.used");
    return 0;
}
