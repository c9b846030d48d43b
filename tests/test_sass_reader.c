/* The SASS read on a thread (probes/sass_reader.h): a read waited for gives
 * the parsed text, its source and its seconds; a reader closed while its
 * read still runs (cuobjdump here a stand-in that takes a second) returns
 * at once, and the read, finishing later on its thread, frees what it holds
 * (the sanitized build's leak and use-after-free checks see the rest). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probes/sass_reader.h"
#include "tests/testutil.h"
#include "probes/clock.h"

static void a_read_waited_for(void **state)
{
    char path[200];
    snprintf(path, sizeof path, "%s/k.sass", tc_tmp_root());
    assert_int_equal(tc_put_file(path, "\t\tFunction : tct_x_i1\n        /*0000*/                   HMMA.16816.F32 "
                                       "R0, R2, R4, R0 ;\n"),
                     0);
    tc_sass_reader *r = tc_sass_reader_start(path, "sm_90a", "tct_");
    const tc_sass *s = tc_sass_reader_wait(r);
    assert_non_null(s);
    assert_int_equal(tc_sass_function_count(s), 1);
    assert_string_equal(tc_sass_function_name(s, 0), "tct_x_i1");
    assert_ptr_equal(tc_sass_reader_wait(r), s);   /* joined once, then the same */
    assert_string_equal(tc_sass_reader_source(r), path);
    assert_true(tc_sass_reader_seconds(r) >= 0);
    tc_sass_reader_close(r);
    /* no file: no SASS, the reason, no source */
    snprintf(path, sizeof path, "%s/none.sass", tc_tmp_root());
    r = tc_sass_reader_start(path, "sm_90a", "tct_");
    assert_null(tc_sass_reader_wait(r));
    assert_non_null(strstr(tc_sass_reader_error(r), "cannot read the SASS file"));
    assert_string_equal(tc_sass_reader_source(r), "");
    tc_sass_reader_close(r);
    tc_sass_reader_close(NULL);
}

static void close_does_not_wait_for_an_unused_read(void **state)
{
    /* cuobjdump takes a second to fail on its first call (then the other
     * ways fail at once): the read runs past the close */
    char tool[200], stamp[220];
    snprintf(tool, sizeof tool, "%s/slow-cuobjdump", tc_tmp_root());
    snprintf(stamp, sizeof stamp, "%s/slow-done", tc_tmp_root());
    char script[600];
    snprintf(script, sizeof script, "#!/bin/sh\n[ \"$1\" = -xelf ] && sleep 1 && touch '%s'\nexit 1\n", stamp);
    assert_int_equal(tc_put_file(tool, script), 0);
    assert_int_equal(chmod(tool, 0755), 0);
    assert_int_equal(setenv("TCSCOPE_CUOBJDUMP", tool, 1), 0);
    double t0 = tc_now_s();
    tc_sass_reader *r = tc_sass_reader_start(NULL, "sm_90a", "tct_");
    tc_sass_reader_close(r);
    double closed = tc_now_s() - t0;
    if (closed > 0.5)
        fail_msg("close waited %.2f s for a read nobody used", closed);
    /* the read did run on: its cuobjdump finished after the close */
    for (int i = 0; i < 100 && access(stamp, F_OK) != 0; i++)
        usleep(50000);
    assert_int_equal(access(stamp, F_OK), 0);
    /* and ends, its memory freed, before this program does (a second for
     * the fallbacks' failures to come back) */
    usleep(1000000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_read_waited_for),
        cmocka_unit_test(close_does_not_wait_for_an_unused_read),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
