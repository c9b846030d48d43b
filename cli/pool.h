/* A pool of tcscope child processes, one per item, at most `jobs` at once:
 * how `audit` and `regress` use every core (and share one GPU) without
 * threads in the libraries. Each child is this very binary (/proc/self/exe)
 * started afresh, so no CUDA context crosses a fork. */
#ifndef TC_CLI_POOL_H
#define TC_CLI_POOL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    size_t n;           /* items */
    const char *label;  /* of the progress line ("audit") */
    /* The child's arguments for item i, after the program name (NULL-ended;
     * the caller keeps them alive until done(i) ran). */
    char **(*argv_of)(void *ctx, size_t i);
    /* Item i ended: its exit status (128 + signal when killed), everything
     * it wrote on stdout, its wall time. Returns false to start no more. */
    bool (*done)(void *ctx, size_t i, int status, const char *out, double secs);
    void *ctx;
    /* Optional: the environment of item i's child (NULL-ended; NULL: this
     * process's). cli/fleet.c pins each child to one GPU this way. */
    char **(*envp_of)(void *ctx, size_t i);
    /* Optional: called once, on the thread running the pool, when the first
     * children (as many as `jobs` allows) have started. */
    void (*started)(void *ctx);
    /* Optional: pairs {fd here, fd in the child}, ended by -1: each child
     * started before `started` ran gets them (dup2; nothing else of this
     * process's is inherited: every fd here is close-on-exec). */
    const int *pass_fds;
    bool quiet;   /* no progress bar: another is on the terminal */
} tc_pool;

/* Runs the items in order of i. Returns how many were never started (after
 * done() said stop, or a child could not be started: then with a message). */
size_t tc_pool_run(const tc_pool *p, unsigned jobs);

/* The CPUs this process may use (at least 1). */
unsigned tc_pool_cpus(void);

/* A gate (cli/pool_gate.c): children started early, held until the parent
 * opens it. Each CUDA context a child makes takes its turn on the whole
 * machine (about 0.3 s each, doc/findings.md), so regress starts its
 * verify children while its timing reads the SASS, and lets them launch
 * nothing until the timing is over. The children get the read end of a
 * "go" pipe (the parent closes its write end: the gate opens) and the
 * write end of a "ready" pipe (each child closes it once open; the parent
 * reads it to its end: every child ready, or gone), as TC_POOL_GATE_GO_FD
 * and TC_POOL_GATE_READY_FD, and TC_POOL_GATE_ENV=1 in their environment. */
#define TC_POOL_GATE_ENV "TCSCOPE_POOL_GATE"
#define TC_POOL_GATE_GO_FD 100
#define TC_POOL_GATE_READY_FD 101

typedef struct {
    int go[2], ready[2];   /* -1 once closed */
    int pass[5];           /* the pool's pass_fds */
    char **env;            /* this process's environment and TC_POOL_GATE_ENV=1 */
} tc_pool_gate;

/* The pipes and the environment: 0, or -1 (nothing to free). */
int tc_pool_gate_make(tc_pool_gate *g);
/* The pool's `started`: the children have the fds, this process's copies
 * of their ends are closed. */
void tc_pool_gate_started(tc_pool_gate *g);
/* Waits until every child is ready (or gone). */
void tc_pool_gate_wait_ready(tc_pool_gate *g);
/* Opens the gate (once; again is harmless). */
void tc_pool_gate_open(tc_pool_gate *g);
/* Every fd closed, the environment freed. */
void tc_pool_gate_free(tc_pool_gate *g);
/* In a child: when started behind a gate, says it is ready and waits for it
 * to open; else returns at once. */
void tc_pool_gate_pass(void);

#endif
