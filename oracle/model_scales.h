/* model_scales: the ISA facts of the Blackwell kind:: forms (PTX mma and
 * tcgen05.mma with .kind::f8f6f4, f16, tf32, and the block-scaled mxf8f6f4,
 * mxf4, mxf4nvf4) as one table: from a form's name as the ISA tables write it
 * (probes/isa/arch/sm120a.def, sm100a.def), its formats, K, the scales'
 * format and how many K positions share one scale. The arithmetic is the
 * model's (model_dot_scaled); this file only reads names. */
#ifndef TC_MODEL_SCALES_H
#define TC_MODEL_SCALES_H

#include <stdbool.h>
#include <stddef.h>

#include "oracle/oracle.h"

typedef struct {
    oracle_formats f;            /* A, B, C, D (tcgen05: C is D, the tensor-memory accumulator) */
    int k;
    const tc_format *scale_fmt;  /* tc_e8m0 or tc_ue4m3; NULL: not block-scaled */
    int block;                   /* K positions per scale: k / scale_vec (0: not block-scaled) */
} model_kind_form;

/* Reads a kind:: form's name, e.g.
 *   mma.m16n8k32.f16.e3m2.e2m1.f16.kind::f8f6f4
 *   mma.m16n8k64.f32.e2m1.e2m1.f32.kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3
 *   tcgen05.mma.m128n8k32.f32.e4m3.e4m3.kind::mxf8f6f4.block_scale
 * (tcgen05 names may end in .ue8m0 or .ue4m3: its scale type is in the
 * instruction descriptor, not the name). false with a message in err when
 * the name is not a form of the table. */
bool model_kind_form_of(const char *name, model_kind_form *out, char *err, size_t errlen);

#endif
