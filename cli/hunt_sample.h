/* hunt's replay sample: the backend's answers to the first elements of
 * every family, as fixed-width hex strings per family (reports/SCHEMA.md,
 * hunt `sample`), whose inputs anyone regenerates from the record's seed
 * and stream (tests/test_hunt_replay.c). */
#ifndef TC_CLI_HUNT_SAMPLE_H
#define TC_CLI_HUNT_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cases/hunt.h"
#include "probes/probes.h"

/* Family f's first `want` answers at D + f * stride, as hex digits of
 * ins's D width; NULL with err when out of memory. */
json_t *hunt_sample_of(const tc_instr *ins, const uint64_t *D, size_t stride, size_t want, char *err,
                       size_t errlen);
/* The first `want` answers of every family of t (tiles 0.. of stream
 * `draw`), drawn here and run by t's backend, every family's tiles one
 * batch; NULL with err. */
json_t *hunt_sample_run(const infer_target *t, const tc_instr *ins, uint64_t seed, hunt_draw draw, size_t want,
                        char *err, size_t errlen);

#endif
