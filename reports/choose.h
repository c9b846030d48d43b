/* choose: precision advice from recorded data only (sweep records for the
 * error, bench records for the speed), with or without a GPU.
 *
 * Every sweep object is a candidate (format + instruction). A candidate is
 * excluded, with the reason, when its recorded error at the chain depth is
 * above the tolerance, elements overflowed or became NaN there, it was
 * measured with a shorter dot length than asked, the format cannot hold the
 * dynamic range, or Inf/NaN are needed and the format lacks them. The rest
 * are ranked by measured TFLOP/s; those without a throughput record are
 * listed after them, unranked.
 */
#ifndef TC_CHOOSE_H
#define TC_CHOOSE_H

#include <stdbool.h>

#include "reports/reports.h"

typedef struct {
    double max_rel_err;    /* NaN: no error constraint */
    int k;                 /* dot length needed per product; 0: any */
    int depth;             /* chain depth whose error counts (>= 1) */
    double range_lo, range_hi;   /* magnitudes the data spans; 0, 0: no constraint */
    bool need_inf_nan;
    const char *stat;      /* "median", "p90" (default) or "max" */
    const char *dist;      /* only sweeps of this distribution; NULL: all */
} tc_choose_opts;

tc_choose_opts tc_choose_defaults(void);

/* One JSON object per candidate, best first:
 *   ranked:   {"rank":N,"format","instr","tflops","error","stat","depth","k","scale","dist"}
 *   unranked: {"rank":null, ..., "tflops":null,"note":"no throughput record"}
 *   excluded: {"rank":null,"excluded":true,"reason":"...", ...}
 * Returns a new array. */
json_t *tc_choose(const json_t *sweeps, const tc_record *bench, const tc_choose_opts *o);

#endif
