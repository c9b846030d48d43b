/* model_scales: kind:: form names -> formats, K, scales (model_scales.h). */
#include "oracle/model_scales.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PTX ISA (mma and tcgen05.mma, .block_scale): per kind, the scale vectors
 * and scale types the ISA tables give (checked against ptxas by
 * tools/isa-ptxas-check.py); a name without scale_vec or type takes the
 * kind's first row. K: 32 for mxf8f6f4 (one byte an element), 64 for the
 * FP4 kinds. */
static const struct {
    const char *kind;
    int k, vec;               /* vec 0: not block-scaled */
    const tc_format *fmt;
} forms[] = {
    {"kind::f8f6f4", 32, 0, NULL},
    {"kind::f16", 16, 0, NULL},
    {"kind::tf32", 8, 0, NULL},
    {"kind::mxf8f6f4", 32, 1, &tc_e8m0},
    {"kind::mxf4", 64, 2, &tc_e8m0},
    {"kind::mxf4nvf4", 64, 2, &tc_e8m0},
    {"kind::mxf4nvf4", 64, 4, &tc_ue4m3},
};

static bool fail(char *err, size_t errlen, const char *name, const char *why)
{
    snprintf(err, errlen, "%.120s: %s", name, why);
    return false;
}

bool model_kind_form_of(const char *name, model_kind_form *out, char *err, size_t errlen)
{
    char buf[256], *tok[16], *save = NULL;
    int n = 0;
    if (strlen(name) >= sizeof buf)
        return fail(err, errlen, name, "name too long");
    strcpy(buf, name);
    for (char *t = strtok_r(buf, ".", &save); t && n < 16; t = strtok_r(NULL, ".", &save))
        tok[n++] = t;
    bool tcgen05 = n > 1 && !strcmp(tok[0], "tcgen05") && !strcmp(tok[1], "mma");
    int s = tcgen05 ? 2 : 1, ntypes = tcgen05 ? 3 : 4;   /* the shape's token; then D, A, B (, C) */
    if (n < s + 1 + ntypes + 1 || (!tcgen05 && strcmp(tok[0], "mma")))
        return fail(err, errlen, name, "not an mma or tcgen05.mma kind:: form");
    int m, nn, k;
    char end;
    if (sscanf(tok[s], "m%dn%dk%d%c", &m, &nn, &k, &end) != 3)
        return fail(err, errlen, name, "no shape mMnNkK");
    const char *kind = tok[s + 1 + ntypes], *vec = NULL, *stype = NULL;
    bool scaled = false;
    for (int i = s + 2 + ntypes; i < n; i++) {
        if (!strncmp(tok[i], "scale_vec::", 11))
            vec = tok[i] + 11;
        else if (!strcmp(tok[i], "ue8m0") || !strcmp(tok[i], "ue4m3"))
            stype = tok[i];
        else if (strcmp(tok[i], "block_scale"))
            return fail(err, errlen, name, "unknown qualifier");
        scaled = true;
    }
    const tc_format *ft[4];
    for (int i = 0; i < ntypes; i++)
        if (!(ft[i] = tc_format_by_name(tok[s + 1 + i], NULL)))
            return fail(err, errlen, name, "unknown operand type");
    for (size_t r = 0; r < sizeof forms / sizeof forms[0]; r++) {
        char v[8];
        snprintf(v, sizeof v, "%dX", forms[r].vec);
        if (strcmp(kind, forms[r].kind) || k != forms[r].k || scaled != (forms[r].vec > 0) || (vec && strcmp(vec, v)) ||
            (stype && strcmp(stype, forms[r].fmt == &tc_e8m0 ? "ue8m0" : "ue4m3")))
            continue;
        out->f = (oracle_formats){ft[1], ft[2], tcgen05 ? ft[0] : ft[3], ft[0]};
        out->k = k;
        out->scale_fmt = forms[r].fmt;
        out->block = forms[r].vec ? k / forms[r].vec : 0;
        return true;
    }
    return fail(err, errlen, name, "no such kind, K, scale_vec and scale type in the PTX table (oracle/model_scales.c)");
}
