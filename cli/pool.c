/* cli/pool.h: children started with posix_spawn, their stdout read through
 * one pipe each under poll() (a child never blocks on a full pipe), reaped
 * with waitpid as they end. */
#include "cli/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "reports/render.h"
#include "probes/clock.h"

extern char **environ;

typedef struct {
    pid_t pid;
    int fd;          /* read end of its stdout, -1 once at EOF */
    size_t item;
    char *out;
    size_t len, cap;
    double t0;
} child;

unsigned tc_pool_cpus(void)
{
    cpu_set_t s;
    if (sched_getaffinity(0, sizeof s, &s) == 0 && CPU_COUNT(&s) > 0)
        return (unsigned)CPU_COUNT(&s);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static int start(const tc_pool *p, size_t item, child *c, const char *exe, const int *pass)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
    for (size_t k = 0; pass && pass[k] >= 0; k += 2)
        posix_spawn_file_actions_adddup2(&fa, pass[k], pass[k + 1]);
    char **args = p->argv_of(p->ctx, item);
    size_t na = 0;
    while (args[na])
        na++;
    char **argv = calloc(na + 2, sizeof *argv);
    int rc = -1;
    if (argv) {
        argv[0] = "tcscope";
        memcpy(argv + 1, args, na * sizeof *argv);
        rc = posix_spawn(&c->pid, exe, &fa, NULL, argv, p->envp_of ? p->envp_of(p->ctx, item) : environ);
        free(argv);
    }
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        errno = rc > 0 ? rc : ENOMEM;
        return -1;
    }
    c->fd = fds[0];
    c->item = item;
    c->out = NULL;
    c->len = c->cap = 0;
    c->t0 = tc_now_s();
    return 0;
}

/* Reads what is there; at EOF closes the pipe. */
static void drain(child *c)
{
    char buf[4096];
    ssize_t r = read(c->fd, buf, sizeof buf);
    if (r <= 0) {
        if (r == 0 || errno != EINTR) {
            close(c->fd);
            c->fd = -1;
        }
        return;
    }
    if (c->len + (size_t)r + 1 > c->cap) {
        size_t cap = (c->cap ? 2 * c->cap : 8192) + (size_t)r;
        char *o = realloc(c->out, cap);
        if (!o)
            return; /* the output is lost; the exit status still tells */
        c->out = o;
        c->cap = cap;
    }
    memcpy(c->out + c->len, buf, (size_t)r);
    c->len += (size_t)r;
    c->out[c->len] = '\0';
}

size_t tc_pool_run(const tc_pool *p, unsigned jobs)
{
    char exe[4096];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (el <= 0) {
        fprintf(stderr, "tcscope %s: cannot find this program (/proc/self/exe): %s\n", p->label, strerror(errno));
        return p->n;
    }
    exe[el] = '\0';
    if (jobs == 0)
        jobs = 1;
    child *kids = calloc(jobs, sizeof *kids);
    struct pollfd *pf = calloc(jobs, sizeof *pf);
    if (!kids || !pf) {
        free(kids), free(pf);
        fprintf(stderr, "tcscope %s: out of memory\n", p->label);
        return p->n;
    }
    size_t next = 0, finished = 0;
    unsigned running = 0;
    bool stop = false, told = false;
    tc_progress prog = {0};
    if (!p->quiet)
        tc_progress_start(&prog, p->label, p->n);
    while (running > 0 || (!stop && next < p->n)) {
        for (unsigned k = 0; k < jobs && !stop && next < p->n; k++) {
            if (kids[k].pid)
                continue;
            if (start(p, next, &kids[k], exe, told ? NULL : p->pass_fds) != 0) {
                fprintf(stderr, "tcscope %s: cannot start a child: %s\n", p->label, strerror(errno));
                kids[k].pid = 0;
                stop = true;
                break;
            }
            next++;
            running++;
        }
        if (!told && p->started)
            p->started(p->ctx);
        told = true;
        /* read every open pipe; a child whose pipe is closed is reaped */
        unsigned np = 0;
        for (unsigned k = 0; k < jobs; k++)
            if (kids[k].pid && kids[k].fd >= 0)
                pf[np++] = (struct pollfd){.fd = kids[k].fd, .events = POLLIN};
        if (np && poll(pf, np, -1) < 0 && errno != EINTR)
            break;
        for (unsigned k = 0, q = 0; k < jobs; k++) {
            child *c = &kids[k];
            if (!c->pid)
                continue;
            if (c->fd >= 0) {
                if (pf[q++].revents)
                    drain(c);
                if (c->fd >= 0)
                    continue;
            }
            int st;
            if (waitpid(c->pid, &st, 0) < 0)
                st = 0x7f00; /* lost: counted as exit 127 */
            int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
            c->pid = 0;
            running--;
            finished++;
            if (!p->quiet)
                tc_progress_clear(&prog);   /* the result line starts on a clean line, the bar below it */
            if (!p->done(p->ctx, c->item, status, c->out ? c->out : "", tc_now_s() - c->t0))
                stop = true;
            fflush(stdout);
            if (!p->quiet)
                tc_progress_update(&prog, finished);
            free(c->out);
            c->out = NULL;
        }
    }
    if (!p->quiet)
        tc_progress_end(&prog);
    free(kids), free(pf);
    return p->n - next;
}
