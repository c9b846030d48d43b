/* tcscope choose's two modes (cli/cmd_choose.c reads the options): an
 * application's GEMM evaluated on a backend (cli/choose_app_run.c), or
 * advice from recorded sweeps (cli/choose_recorded.c). */
#ifndef TC_CLI_CHOOSE_H
#define TC_CLI_CHOOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cases/app.h"
#include "reports/choose.h"
#include "reports/reports.h"

#define CHOOSE_DEFAULT_BENCH "reports/baselines/h100-bench.json.gz"
#define CHOOSE_MAX_FILES 16
#define CHOOSE_APP_MAX_K (1 << 20)   /* application mode: sampled rows of this length are allocated */
#define CHOOSE_MAX_SWEEP_K 16        /* --sweep-k values */

typedef struct {
    int m, n, k, rows;
    const char *samples, *dist, *metric, *backend, *report, *gemm_records;
    const char *gpu, *caller;   /* whose structures are ranked (NULL: the backend's GPU; tcscope's own calls) */
    bool no_library, allow_transfer;
    int sweep_k[CHOOSE_MAX_SWEEP_K], nsweep_k;
    bool force;
    app_scaling scaling;
    double bound;
    uint64_t seed;
} app_settings;

/* Loads each file and appends its objects of `kind` to `into` (and all its
 * objects to merged, when given); a file with none is refused. Exit 0, or 2
 * after a message. */
int choose_load_all(const char *const *paths, size_t n, const char *kind, json_t *into, tc_record *merged);
/* Application mode: the checks between options, the candidates evaluated,
 * printed (text or --json), the --report page written. */
int choose_app(const app_settings *s, const char *const *benches, size_t nb, bool json);
/* Recorded sweeps: the given files, else the H100 baselines beside the
 * binary; dist_arg: --dist, or NULL. */
int choose_recorded(tc_choose_opts *o, const char *dist_arg, const char **sweeps, size_t ns, const char **benches,
                    size_t nb, bool json);

#endif
