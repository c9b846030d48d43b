/* The disassembly the timing checks read (probes/sass.h tc_sass_dump): a
 * given file as it is, a missing one refused; and, in a CUDA build where a
 * cuobjdump is found (TCSCOPE_CUOBJDUMP, /usr/local/cuda/bin, PATH; CI has
 * none: skipped), this very program's timing cubins disassembled one
 * cuobjdump each: every timing kernel of every catalogue instruction is in
 * the text, and nothing but timing kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probes/gpu.h"
#include "probes/probes.h"
#include "probes/sass.h"
#include "probes/timing.h"
#include "tests/testutil.h"

static void a_file_as_it_is(void **state)
{
    char path[200], err[300];
    snprintf(path, sizeof path, "%s/k.sass", tc_tmp_root());
    const char *text = "\t\tFunction : tct_x_i1\n        /*0000*/                   HMMA.16816.F32 R0, R2, R4, R0 ;\n";
    assert_int_equal(tc_put_file(path, text), 0);
    char *got = tc_sass_dump(path, "sm_90a", "tct_", err, sizeof err);
    assert_non_null(got);
    assert_string_equal(got, text);
    free(got);
    snprintf(path, sizeof path, "%s/none.sass", tc_tmp_root());
    assert_null(tc_sass_dump(path, "sm_90a", "tct_", err, sizeof err));
    assert_non_null(strstr(err, "cannot read the SASS file"));
}

static void this_programs_timing_kernels(void **state)
{
#if TC_HAVE_CUDA
    const char *tool = getenv("TCSCOPE_CUOBJDUMP");
    if (!tool && access("/usr/local/cuda/bin/cuobjdump", X_OK) != 0 && system("command -v cuobjdump >/dev/null 2>&1"))
        skip();
    /* the executors' kernels are in this program too (sm_90a cubins without
     * a timing kernel): the whole disassembly would hold them */
    assert_non_null(tc_gpu_kernel_find("mma.m16n8k16.f32.f16.f16.f32"));
    char err[600];
    char *text = tc_sass_dump(NULL, "sm_90a", "tct_", err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    tc_sass *s = tc_sass_parse(text, err, sizeof err);
    free(text);
    if (!s)
        fail_msg("%s", err);
    size_t n, kernels = 0;
    const tc_instr *cat = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const tct_kernel_set *ks = tct_find(cat[i].name);
        if (!ks)
            continue;
        for (int ilp = ks->group == 128 ? 0 : 1; ilp <= 8; ilp++) {
            char fn[200];
            snprintf(fn, sizeof fn, ilp ? "%s_i%d" : "%s_lat", ks->symbol, ilp);
            if (tc_sass_instruction_count(s, fn) <= 0)
                fail_msg("%s is not in the disassembly", fn);
            kernels++;
        }
    }
    assert_true(kernels > 2000);
    for (size_t f = 0; f < tc_sass_function_count(s); f++)
        if (strncmp(tc_sass_function_name(s, f), "tct_", 4))
            fail_msg("%s: not a timing kernel, yet disassembled", tc_sass_function_name(s, f));
    print_message("%zu timing kernels, %zu functions disassembled\n", kernels, tc_sass_function_count(s));
    tc_sass_free(s);
#else
    skip();   /* no timing kernels in a build without CUDA */
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_file_as_it_is),
        cmocka_unit_test(this_programs_timing_kernels),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
