/* What there is: the version, the instructions, the formats and the GEMM
 * paths, by name (tcscope.h); and the checks every api/ function shares. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "api/api_internal.h"
#include "cases/gemm.h"
#include "reports/reports.h"

int api_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

const tc_format *api_format(const char *what, const char *name, tc_format *scratch, char *err, size_t errlen)
{
    const tc_format *f = name ? tc_format_by_name(name, scratch) : NULL;
    if (!f)
        api_fail(err, errlen, "unknown %s '%s' (tcscope formats lists them, or eXmY)", what, name ? name : "(null)");
    return f;
}

const tc_instr *api_instr(const char *name, char *err, size_t errlen)
{
    const tc_instr *ins = name ? tc_instr_by_name(name) : NULL;
    if (!ins)
        api_fail(err, errlen, "unknown instruction '%s' (tcscope list names them)", name ? name : "(null)");
    return ins;
}

int api_check_bits(const char *what, const tc_format *f, const uint64_t *x64, const uint32_t *x32, size_t n,
                   char *err, size_t errlen)
{
    uint64_t mask = tc_operand_mask(f);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = x64 ? x64[i] : x32[i];
        if (x & ~mask)
            return api_fail(err, errlen, "%s[%zu] = 0x%llx is not a %s bit pattern", what, i, (unsigned long long)x,
                            f->name);
    }
    return 0;
}

int api_profile_path(const char *spec, char *path, size_t len, char *err, size_t errlen)
{
    if (!spec || !*spec || !tc_profile_path(spec, path, len))
        return api_fail(err, errlen, "unknown model profile '%s' (not under oracle/profiles/, not a file)",
                        spec ? spec : "(null)");
    return 0;
}

int tcscope_profile_path(const char *spec, char *path, size_t len, char *err, size_t errlen)
{
    API_ERR_BUF(err, errlen);
    if (!path || !len)
        return api_fail(err, errlen, "tcscope_profile_path: no buffer");
    return api_profile_path(spec, path, len, err, errlen);
}

int tcscope_api_version(void) { return TCSCOPE_API_VERSION; }

const char *tcscope_version(void) { return tc_version(); }

/* The lists the API names by index (instructions, formats, GEMM paths):
 * the length of one in *n and the name of its entry i, NULL past its end. */
typedef enum { LIST_INSTR, LIST_FORMAT, LIST_GEMM_PATH } api_list;

static const char *list_entry(api_list l, size_t i, size_t *n)
{
    switch (l) {
    case LIST_INSTR: {
        const tc_instr *all = tc_catalogue(n);
        return i < *n ? all[i].name : NULL;
    }
    case LIST_FORMAT: {
        const tc_format *const *all = tc_format_list(n);
        return i < *n ? all[i]->name : NULL;
    }
    case LIST_GEMM_PATH: {
        const tc_gemm_path *all = tc_gemm_paths(n);
        return i < *n ? all[i].name : NULL;
    }
    }
    *n = 0;
    return NULL;
}

static size_t list_count(api_list l)
{
    size_t n;
    list_entry(l, 0, &n);
    return n;
}

static const char *list_name(api_list l, size_t i)
{
    size_t n;
    return list_entry(l, i, &n);
}

size_t tcscope_instr_count(void) { return list_count(LIST_INSTR); }

const char *tcscope_instr_name(size_t i) { return list_name(LIST_INSTR, i); }

int tcscope_instr_info(const char *instr, int shape[3], const char *formats[4], int *sparse, char *err,
                       size_t errlen)
{
    API_ERR_BUF(err, errlen);
    const tc_instr *ins = api_instr(instr, err, errlen);
    if (!ins)
        return -1;
    if (shape)
        shape[0] = ins->m, shape[1] = ins->n, shape[2] = ins->k;
    if (formats)
        formats[0] = ins->a->name, formats[1] = ins->b->name, formats[2] = ins->c->name, formats[3] = ins->d->name;
    if (sparse)
        *sparse = ins->sparse;
    return 0;
}

size_t tcscope_format_count(void) { return list_count(LIST_FORMAT); }

const char *tcscope_format_name(size_t i) { return list_name(LIST_FORMAT, i); }

int tcscope_format_info(const char *fmt, int info[5], char *err, size_t errlen)
{
    API_ERR_BUF(err, errlen);
    tc_format scratch;
    const tc_format *f = api_format("format", fmt, &scratch, err, errlen);
    if (!f)
        return -1;
    info[TCSCOPE_FMT_STORAGE_BITS] = f->storage_bits;
    info[TCSCOPE_FMT_EBITS] = f->ebits;
    info[TCSCOPE_FMT_MBITS] = f->mbits;
    info[TCSCOPE_FMT_SHIFT] = f->shift;
    info[TCSCOPE_FMT_IS_INT] = tc_format_is_int(f);
    return 0;
}

size_t tcscope_gemm_path_count(void) { return list_count(LIST_GEMM_PATH); }

const char *tcscope_gemm_path_name(size_t i) { return list_name(LIST_GEMM_PATH, i); }

int tcscope_gemm_path_info(const char *path, const char **fmt_a, const char **fmt_b, const char **instr,
                           char *err, size_t errlen)
{
    API_ERR_BUF(err, errlen);
    const tc_gemm_path *p = path ? tc_gemm_path_by_name(path) : NULL;
    if (!p)
        return api_fail(err, errlen, "unknown GEMM path '%s' (tcscope gemm --help lists them)",
                        path ? path : "(null)");
    if (fmt_a)
        *fmt_a = p->a->name;
    if (fmt_b)
        *fmt_b = p->b->name;
    if (instr)
        *instr = p->instr;
    return 0;
}
