/* The input conversion of a library GEMM (cases/gemm.h tc_gemm_incvt):
 * its names, the candidates of a path, and the elements as the tensor core
 * sees them under each (the predictor that tries them: cases/gemm_predict.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"

static const char *const names[] = {"as-uploaded", "tf32-rz", "tf32-rna", "tf32-rne", "full-f32", "fp8-as-f16"};

const char *tc_gemm_incvt_name(tc_gemm_incvt c)
{
    return gemm_name_of(names, sizeof names / sizeof names[0], (int)c);
}

bool tc_gemm_incvt_parse(const char *s, tc_gemm_incvt *out)
{
    int i = gemm_name_index(names, sizeof names / sizeof names[0], s);
    if (i >= 0)
        *out = (tc_gemm_incvt)i;
    return i >= 0;
}

int tc_gemm_incvt_candidates(const tc_gemm_path *p, tc_gemm_incvt *out)
{
    if (!p->instr || strstr(p->instr, ".tf32.") == NULL) {
        out[0] = GEMM_IN_AS_UPLOADED;
        return 1;
    }
    out[0] = GEMM_IN_TF32_RZ, out[1] = GEMM_IN_TF32_RNA, out[2] = GEMM_IN_TF32_RNE, out[3] = GEMM_IN_FULL_F32;
    return 4;
}

/* The elements (of upload format f) as the tensor core sees them under c:
 * FP32 containers in, tf32 containers out for the rounding candidates; FP8
 * in, f16 out (exact) for fp8-as-f16. */
void gemm_convert_inputs(tc_gemm_incvt c, const tc_format *f, uint64_t *x, size_t n)
{
    if (c == GEMM_IN_FP8_AS_F16) {
        tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
        for (size_t i = 0; i < n; i++)
            x[i] = tc_encode_f64(&tc_f16, tc_decode_to_f64(f, x[i]), rne);
        return;
    }
    tc_round mode = c == GEMM_IN_TF32_RZ ? TC_RZ : c == GEMM_IN_TF32_RNA ? TC_RNA : TC_RNE;
    if (c != GEMM_IN_TF32_RZ && c != GEMM_IN_TF32_RNA && c != GEMM_IN_TF32_RNE)
        return;
    tc_rounding r = {.mode = mode, .ovf = TC_OVF_INF};
    for (size_t i = 0; i < n; i++) {
        uint32_t u = (uint32_t)x[i];
        float v;
        memcpy(&v, &u, sizeof v);
        x[i] = tc_encode_f32(&tc_tf32, v, r);
    }
}

void gemm_widen_f32(const tc_format *f, uint64_t *x, size_t n)
{
    if (f == &tc_f32)
        return;
    for (size_t i = 0; i < n; i++)
        x[i] = gemm_bits_of((float)tc_decode_to_f64(f, x[i]));
}
