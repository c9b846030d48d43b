/* Where an audit's time goes, for its summary (doc/audit.md "The proof's
 * budget"): each instruction's line ends with its proof's random and hunt
 * elements, its hunt path and its seconds (fit, proof random, proof hunt,
 * crafted cases, and of the fit the counts on the GPU); the run's last line sums them with the timing's seconds
 * and the wall time. With --jobs the parent reads them back from its
 * children's lines: the one format lives here. */
#ifndef TC_CLI_AUDIT_STAGES_H
#define TC_CLI_AUDIT_STAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "cases/audit.h"

typedef struct {
    size_t instructions, on_gpu;         /* lines summed; of them, hunted on the GPU path */
    size_t least;                        /* the fewest random + hunt elements any got */
    double fit_s, random_s, hunt_s, crafted_s;
    double fit_gpu_s;                    /* of fit_s, the counts on the GPU (audit_result.fit_count_s) */
} audit_stages;

/* r's part of its line (after the fingerprint), into buf; and added to *s. */
void audit_stages_line(const audit_result *r, audit_stages *s, char *buf, size_t len);
/* A line audit_stages_line ended, added to *s; false when it has no such part. */
bool audit_stages_parse(const char *line, size_t len, audit_stages *s);
/* The run's "# stages:" line on stdout: the sums, timing_s (the timing's
 * seconds, measured first) and wall_s. */
void audit_stages_print(const audit_stages *s, double timing_s, double wall_s);

#endif
