/* A gemm case run and written as its record object, the way `tcscope
 * gemm` does (cli/cmd_gemm.c): the tests read the fields a record has. */
#ifndef TC_GEMM_TESTUTIL_H
#define TC_GEMM_TESTUTIL_H

#include "cases/gemm.h"
#include "reports/record_gemm.h"

static inline json_t *tc_gemm_case_record(const tc_gemm_lib *lib, const tc_gemm_path *p, const tc_gemm_case *c)
{
    tc_gemm_case_result res;
    tc_gemm_run_case(lib, p, c, &res);
    json_t *r = tc_gemm_case_json(&res);
    tc_gemm_case_result_free(&res);
    return r;
}

#endif
