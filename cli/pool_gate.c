/* cli/pool.h's gate: children started early and held until the parent
 * opens it. Two pipes, both close-on-exec here (cli/pool.c hands each
 * child its ends by dup2): "go", whose write end the parent closes to open
 * the gate, and "ready", whose write end each child closes once ready (the
 * parent reads it to its end). */
#include "cli/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

int tc_pool_gate_make(tc_pool_gate *g)
{
    *g = (tc_pool_gate){{-1, -1}, {-1, -1}, {-1}, NULL};
    size_t n = 0;
    while (environ[n])
        n++;
    g->env = calloc(n + 2, sizeof *g->env);
    if (!g->env || pipe2(g->go, O_CLOEXEC) != 0 || pipe2(g->ready, O_CLOEXEC) != 0) {
        tc_pool_gate_free(g);
        return -1;
    }
    memcpy(g->env, environ, n * sizeof *g->env);
    g->env[n] = TC_POOL_GATE_ENV "=1";
    int pass[5] = {g->go[0], TC_POOL_GATE_GO_FD, g->ready[1], TC_POOL_GATE_READY_FD, -1};
    memcpy(g->pass, pass, sizeof pass);
    return 0;
}

void tc_pool_gate_started(tc_pool_gate *g)
{
    close_fd(&g->go[0]);
    close_fd(&g->ready[1]);
}

void tc_pool_gate_wait_ready(tc_pool_gate *g)
{
    char buf[64];
    while (g->ready[0] >= 0) {
        ssize_t r = read(g->ready[0], buf, sizeof buf);
        if (r == 0 || (r < 0 && errno != EINTR))
            close_fd(&g->ready[0]);
    }
}

void tc_pool_gate_open(tc_pool_gate *g)
{
    close_fd(&g->go[1]);
}

void tc_pool_gate_free(tc_pool_gate *g)
{
    for (int k = 0; k < 2; k++)
        close_fd(&g->go[k]), close_fd(&g->ready[k]);
    free(g->env);
    g->env = NULL;
}

void tc_pool_gate_pass(void)
{
    const char *on = getenv(TC_POOL_GATE_ENV);
    if (!on || strcmp(on, "1"))
        return;
    /* only the gate's pipes are touched (the variable set by hand leaves
     * this process's other fds alone), and neither reaches a program this
     * one starts */
    struct stat go, ready;
    if (fstat(TC_POOL_GATE_GO_FD, &go) != 0 || !S_ISFIFO(go.st_mode) || fstat(TC_POOL_GATE_READY_FD, &ready) != 0 ||
        !S_ISFIFO(ready.st_mode))
        return;
    fcntl(TC_POOL_GATE_GO_FD, F_SETFD, FD_CLOEXEC);
    close(TC_POOL_GATE_READY_FD);
    char b;
    ssize_t r;
    while ((r = read(TC_POOL_GATE_GO_FD, &b, 1)) > 0 || (r < 0 && errno == EINTR))
        ;
    close(TC_POOL_GATE_GO_FD);
}
