/* The pool's gate (cli/pool.h): children started early are held until
 * the parent opens it, a child gone before it is ready does not hang the
 * parent, and the variable alone (no gate's pipes) holds nothing. The pool
 * starts this program as its children ("gate-child", "gate-die"); a
 * `tcscope verify` behind the gate has made its backend and model when it
 * says it is ready, and prints its record only once the gate opens. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>

#include "cli/pool.h"
#include "tests/testutil.h"

extern char **environ;

typedef struct {
    const char *arg;        /* the children's argument: gate-child or gate-die */
    char *argv[2];
    tc_pool_gate gate;
    tc_pool pool;
    int done, status[4];
    char out[4][64];
    size_t left;
} run;

static char **argv_of(void *ctx, size_t i)
{
    run *r = ctx;
    (void)i;
    r->argv[0] = (char *)r->arg, r->argv[1] = NULL;
    return r->argv;
}

static bool done(void *ctx, size_t i, int status, const char *out, double secs)
{
    run *r = ctx;
    (void)secs;
    r->status[i] = status;
    snprintf(r->out[i], sizeof r->out[i], "%s", out);
    __atomic_add_fetch(&r->done, 1, __ATOMIC_SEQ_CST);
    return true;
}

static char **env_of(void *ctx, size_t i)
{
    (void)i;
    return ((run *)ctx)->gate.env;
}

static void started(void *ctx)
{
    tc_pool_gate_started(&((run *)ctx)->gate);
}

static void *pool_thread(void *ctx)
{
    run *r = ctx;
    r->left = tc_pool_run(&r->pool, 4);
    return NULL;
}

/* Three children behind a gate; the pool on a thread, as regress runs it. */
static void start(run *r, pthread_t *th, const char *arg, bool gate_fds)
{
    memset(r, 0, sizeof *r);
    r->arg = arg;
    assert_int_equal(tc_pool_gate_make(&r->gate), 0);
    r->pool = (tc_pool){3, "gate", argv_of, done, r, env_of, started, gate_fds ? r->gate.pass : NULL, true};
    assert_int_equal(pthread_create(th, NULL, pool_thread, r), 0);
}

static int done_now(run *r)
{
    return __atomic_load_n(&r->done, __ATOMIC_SEQ_CST);
}

static void the_gate_holds_children_until_opened(void **state)
{
    (void)state;
    run r;
    pthread_t th;
    start(&r, &th, "gate-child", true);
    tc_pool_gate_wait_ready(&r.gate);   /* each child has passed its "ready" */
    usleep(300 * 1000);
    assert_int_equal(done_now(&r), 0);  /* held: none has ended */
    tc_pool_gate_open(&r.gate);
    pthread_join(th, NULL);
    assert_int_equal(r.left, 0);
    assert_int_equal(r.done, 3);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(r.status[i], 0);
        assert_string_equal(r.out[i], "through the gate\n");
    }
    tc_pool_gate_free(&r.gate);
}

static void a_child_gone_before_ready_does_not_hang(void **state)
{
    (void)state;
    run r;
    pthread_t th;
    start(&r, &th, "gate-die", true);
    tc_pool_gate_wait_ready(&r.gate);   /* returns: every child is gone */
    tc_pool_gate_open(&r.gate);
    pthread_join(th, NULL);
    for (int i = 0; i < 3; i++)
        assert_int_equal(r.status[i], 3);
    tc_pool_gate_free(&r.gate);
}

static void the_variable_alone_holds_nothing(void **state)
{
    (void)state;
    run r;
    pthread_t th;
    start(&r, &th, "gate-child", false);   /* TCSCOPE_POOL_GATE=1, no pipes */
    pthread_join(th, NULL);                 /* never opened: they ran through */
    assert_int_equal(r.done, 3);
    for (int i = 0; i < 3; i++)
        assert_string_equal(r.out[i], "through the gate\n");
    tc_pool_gate_free(&r.gate);
}

/* tcscope verify behind the gate: ready once its backend and model are
 * open, its record only after the gate opens. */
static void verify_waits_at_the_gate(void **state)
{
    (void)state;
    tc_pool_gate g;
    assert_int_equal(tc_pool_gate_make(&g), 0);
    int out[2];
    assert_int_equal(pipe(out), 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    for (int k = 0; g.pass[k] >= 0; k += 2)
        posix_spawn_file_actions_adddup2(&fa, g.pass[k], g.pass[k + 1]);
    char *argv[] = {"tcscope", "verify", "--backend", "model:h100", "--profile", "h100", "--instr",
                    "mma.m16n8k16.f32.f16.f16.f32", "--count", "2000", "--json", NULL};
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, tc_cli_path(), &fa, NULL, argv, g.env), 0);
    posix_spawn_file_actions_destroy(&fa);
    close(out[1]);
    tc_pool_gate_started(&g);
    tc_pool_gate_wait_ready(&g);
    usleep(500 * 1000);
    int st;
    assert_int_equal(waitpid(pid, &st, WNOHANG), 0);   /* still held */
    tc_pool_gate_open(&g);
    char buf[1 << 16];
    size_t len = 0;
    ssize_t n;
    while ((n = read(out[0], buf + len, sizeof buf - 1 - len)) > 0)
        len += (size_t)n;
    buf[len] = '\0';
    close(out[0]);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_non_null(strstr(buf, "\"verified\":true"));
    tc_pool_gate_free(&g);
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "gate-child")) {   /* a child of the pool above */
        tc_pool_gate_pass();
        printf("through the gate\n");
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "gate-die"))
        return 3;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_gate_holds_children_until_opened),
        cmocka_unit_test(a_child_gone_before_ready_does_not_hang),
        cmocka_unit_test(the_variable_alone_holds_nothing),
        cmocka_unit_test(verify_waits_at_the_gate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
