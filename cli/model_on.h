/* --model-on: which computes a command's expected answers, the GPU model
 * (probes/model_gpu.h) or the CPU's, and how many elements each computed,
 * for the records (reports/SCHEMA.md: model_on, model_elements). */
#ifndef TC_CLI_MODEL_ON_H
#define TC_CLI_MODEL_ON_H

#include <jansson.h>

#include "cases/infer.h"
#include "probes/model_gpu.h"

typedef struct {
    tc_model_gpu *gpu;          /* NULL: the CPU */
    char name[32];              /* "gpu:N" or "cpu": the records' model_on */
    tc_model_gpu_count count;   /* elements computed on each since cli_model_on_take */
} cli_model_on;

/* spec "cpu": the CPU; "gpu" or "gpu:N": that GPU (N from backend "gpu:N"
 * for plain "gpu", else 0) or TC_EXIT_USAGE with a message; NULL: the GPU
 * when one opens, else the CPU. TC_EXIT_OK otherwise. */
int cli_model_on_open(const char *cmd, const char *spec, const char *backend, cli_model_on *mo);
void cli_model_on_close(cli_model_on *mo);
/* Verify's whole tiles on t go through mo (and are counted). */
void cli_model_on_attach(cli_model_on *mo, infer_target *t);
/* {"gpu": N, "cpu": N}: the elements since the last call; the counts restart. */
json_t *cli_model_on_take(cli_model_on *mo);

#endif
