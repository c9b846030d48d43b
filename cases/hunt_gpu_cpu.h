/* The GPU hunt's CPU share (cases/hunt_gpu.h), used by cases/hunt_gpu.c
 * only: after a round is compared on the GPU, the elements the GPU model
 * declined are computed by model_dot (on every core) and every differing
 * element is counted and kept as verify keeps a failure (in the elements'
 * order). An item owns the round's lists, so a worker thread does this
 * while the GPU goes on with the next instruction. Plain C and threads: no
 * CUDA. */
#ifndef TC_HUNT_GPU_CPU_H
#define TC_HUNT_GPU_CPU_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "cases/hunt_gpu_run.h"
#include "cases/verify.h"
#include "probes/model_gpu.h"

typedef struct hgc_item hgc_item;

/* An item for round results of job `job` (last: its last round): r and
 * count receive them; fam_elems elements per family (random: the proof's
 * random tiles, fam_elems a tile's elements, tile j of distribution j % 4);
 * mism the GPU's counts per family (or distribution); ml and dl the
 * differing and declined lists, in any order, whose memory the item takes
 * (*ml and *dl emptied; freed here when out of memory: NULL). */
hgc_item *hgc_item_new(const infer_target *t, const model *m, verify_result *r, tc_model_gpu_count *count,
                       size_t job, bool last, bool random, size_t fam_elems, const unsigned long long *mism,
                       hgpu_list *ml, hgpu_list *dl);

/* The worker: items finished in the order given; complete[j] once job j's
 * last item is (NULL: nobody asks). Not running: each item is finished
 * where it is given. */
typedef struct {
    pthread_t th;
    bool running, stop, failed;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    hgc_item *head, *tail;
    size_t submitted, finished;
    bool *complete;
} hgc_worker;

/* complete[] for n jobs, and the thread when `thread` (else, or when none
 * starts, items are finished in hgc_submit). 0, or -1 when out of memory. */
int hgc_start(hgc_worker *wk, size_t n, bool thread);
/* The item finished by the worker, or here; 0, or -1 when out of memory. */
int hgc_submit(hgc_worker *wk, hgc_item *it);
/* Job j complete (its results final: a job finished elsewhere). */
void hgc_complete(hgc_worker *wk, size_t j);
/* The complete jobs from *reported on, in order, handed to done (NULL: none). */
void hgc_report(hgc_worker *wk, size_t n, size_t *reported, void (*done)(void *ctx, size_t j), void *ctx);
/* Waits until every item given is finished. */
void hgc_drain(hgc_worker *wk);
/* Every item finished, the thread ended; true when one ran out of memory. */
bool hgc_stop(hgc_worker *wk);
void hgc_free(hgc_worker *wk);

#endif
