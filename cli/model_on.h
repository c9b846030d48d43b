/* --model-on: which computes a command's expected answers, the GPU model
 * (probes/model_gpu.h) or the CPU's, and how many elements each computed,
 * for the records (reports/SCHEMA.md: model_on, model_elements). */
#ifndef TC_CLI_MODEL_ON_H
#define TC_CLI_MODEL_ON_H

#include <jansson.h>

#include "cases/infer.h"
#include "cases/verify.h"
#include "probes/model_gpu.h"

typedef struct {
    tc_model_gpu *gpu;          /* NULL: the CPU */
    char name[32];              /* "gpu:N" or "cpu": the records' model_on */
    tc_model_gpu_count count;   /* elements computed on each since cli_model_on_take */
    tc_model_gpu_count fit;     /* the fits' evaluations counted on the GPU, and their seconds */
} cli_model_on;

/* spec "cpu": the CPU; "gpu" or "gpu:N": that GPU (N from backend "gpu:N"
 * for plain "gpu", else 0) or TC_EXIT_USAGE with a message; NULL: the GPU
 * when one opens, else the CPU. TC_EXIT_OK otherwise. */
int cli_model_on_open(const char *cmd, const char *spec, const char *backend, cli_model_on *mo);
/* TC_EXIT_OK when spec is NULL or a --model-on value (gpu, gpu:N, cpu),
 * else TC_EXIT_USAGE after a message: for a command that passes it on. */
int cli_model_on_check(const char *cmd, const char *spec);
void cli_model_on_close(cli_model_on *mo);
/* An infer_model_fn with ctx a cli_model_on: the tiles through mo, counted. */
int cli_model_on_run(void *ctx, const model *m, int mrows, int ncols, int k, size_t ntiles, const uint64_t *A,
                     const uint64_t *B, const uint64_t *C, uint64_t *D, char *err, size_t errlen);
/* The fit ops (cases/infer.h) that count a fit's candidates on mo's GPU
 * (probes/model_gpu_fit.h), ctx mo, adding to mo->fit; NULL when mo is the
 * CPU (the cores count them), or TCSCOPE_FIT_ON=cpu (a measuring knob). */
const infer_fit_ops *cli_model_on_fit_ops(const cli_model_on *mo);
/* Verify's whole tiles on t go through mo (cli_model_on_run), and its
 * fits' counts (cli_model_on_fit_ops). */
void cli_model_on_attach(cli_model_on *mo, infer_target *t);
/* {"gpu": N, "cpu": N}: the elements since the last call; the counts restart
 * (the GPU model's seconds keep adding up, for cli_model_on_stages). */
json_t *cli_model_on_take(cli_model_on *mo);
/* One "# stages:" line on stdout: where the wall seconds of the whole-tile
 * checks went (verify_result.stage_s summed over a run), with the GPU
 * model's copies, kernel and CPU share inside "model", and the rest of
 * wall_s (crafted cases, replay samples, records). */
void cli_model_on_stages(const cli_model_on *mo, const double stage_s[VERIFY_NSTAGES], double wall_s);

#endif
