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
} tc_pool;

/* Runs the items in order of i. Returns how many were never started (after
 * done() said stop, or a child could not be started: then with a message). */
size_t tc_pool_run(const tc_pool *p, unsigned jobs);

/* The CPUs this process may use (at least 1). */
unsigned tc_pool_cpus(void);

#endif
