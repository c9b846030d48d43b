/* cli/fleet.h: which GPUs gpu:all and gpu:I,J,.. name, and the environment
 * that pins a worker to one of them. Numbers are PCI bus order, as NVML and
 * nvidia-smi give them: every worker runs with CUDA_DEVICE_ORDER=PCI_BUS_ID so
 * that CUDA agrees. Where CUDA_VISIBLE_DEVICES is already set (a Slurm job),
 * the GPUs are its entries, numbered from 0 in its order, as CUDA numbers them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/fleet.h"
#include "probes/nvml.h"

#define MAX_GPUS 64

extern char **environ;

bool cli_fleet_spec(const char *spec)
{
    return spec && (!strcmp(spec, "gpu:all") || (!strncmp(spec, "gpu:", 4) && strchr(spec, ',')));
}

/* An environment variable as a GPU index 0..MAX_GPUS-1; -1 unset; -2 bad. */
static int env_index(const char *name, int max)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return -1;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    return errno || *end || x < 0 || x >= max ? -2 : (int)x;
}

/* Every GPU of the node: the fake ones of the test hook, or NVML's (within
 * CUDA_VISIBLE_DEVICES when set). Their count, or 0 after a message. */
static size_t node_gpus(const char *cmd, cli_fleet_gpu *g)
{
    int fake = env_index("TCSCOPE_FAKE_GPUS", MAX_GPUS + 1);
    if (fake == -2 || fake == 0)
        return cli_fail(cmd, "bad TCSCOPE_FAKE_GPUS (a test hook: 1..%d fake GPUs)", MAX_GPUS), 0;
    if (fake > 0) {
        int flip = env_index("TCSCOPE_FAKE_GPU_FLIP", fake), fail = env_index("TCSCOPE_FAKE_GPU_FAIL", fake);
        if (flip == -2 || fail == -2)
            return cli_fail(cmd, "bad TCSCOPE_FAKE_GPU_FLIP or _FAIL (a test hook: a fake GPU's index, 0..%d)",
                            fake - 1), 0;
        for (int i = 0; i < fake; i++) {
            g[i] = (cli_fleet_gpu){.index = i, .fake = true, .flip = i == flip, .fail = i == fail};
            snprintf(g[i].name, sizeof g[i].name, "fake GPU %d (test hook TCSCOPE_FAKE_GPUS: model:h100)", i);
        }
        return (size_t)fake;
    }
    tc_nvml_gpu nv[MAX_GPUS];
    char why[300];
    int n = tc_nvml_gpus(nv, MAX_GPUS, why, sizeof why);
    if (n <= 0)
        return cli_fail(cmd, "no GPU (%s): --backend gpu:all and gpu:I,J,.. run one worker per NVIDIA GPU "
                             "and find them through NVML", n < 0 ? why : "NVML sees none"), 0;
    if (n > MAX_GPUS)
        n = MAX_GPUS;
    const char *vis = getenv("CUDA_VISIBLE_DEVICES");
    if (!vis) {
        for (int i = 0; i < n; i++) {
            g[i] = (cli_fleet_gpu){.index = i};
            snprintf(g[i].visible, sizeof g[i].visible, "%d", i);
            memcpy(g[i].name, nv[i].name, sizeof g[i].name);
            memcpy(g[i].uuid, nv[i].uuid, sizeof g[i].uuid);
        }
        return (size_t)n;
    }
    /* the entries of CUDA_VISIBLE_DEVICES: PCI-order numbers or UUIDs */
    size_t k = 0;
    for (const char *p = vis; *p && k < MAX_GPUS;) {
        size_t len = strcspn(p, ",");
        if (len && len < sizeof g[k].visible) {
            g[k] = (cli_fleet_gpu){.index = (int)k};
            memcpy(g[k].visible, p, len);
            char *end;
            long x = strtol(g[k].visible, &end, 10);
            for (int i = 0; i < n; i++)
                if ((!*end && x == i) || !strcmp(g[k].visible, nv[i].uuid)) {
                    memcpy(g[k].name, nv[i].name, sizeof g[k].name);
                    memcpy(g[k].uuid, nv[i].uuid, sizeof g[k].uuid);
                }
            k++;
        }
        p += len + (p[len] == ',');
    }
    if (!k)
        cli_fail(cmd, "no GPU: CUDA_VISIBLE_DEVICES='%s' names none", vis);
    return k;
}

size_t cli_fleet_gpus(const char *cmd, const char *spec, cli_fleet_gpu **out)
{
    cli_fleet_gpu all[MAX_GPUS];
    size_t n = node_gpus(cmd, all);
    *out = NULL;
    if (!n)
        return 0;
    cli_fleet_gpu *sel = calloc(MAX_GPUS, sizeof *sel);
    if (!sel)
        return cli_fail(cmd, "out of memory"), 0;
    size_t k = 0;
    if (!strcmp(spec, "gpu:all")) {
        memcpy(sel, all, n * sizeof *sel);
        *out = sel;
        return n;
    }
    for (const char *p = spec + 4;;) {
        char *end;
        errno = 0;
        long x = strtol(p, &end, 10);
        if (end == p || errno || (*end && *end != ',') || x < 0) {
            free(sel);
            return cli_fail(cmd, "bad --backend '%s' (gpu:all, or GPU numbers as gpu:0,2,5)", spec), 0;
        }
        if (x >= (long)n) {
            free(sel);
            return cli_fail(cmd, "--backend %s: no GPU %ld: this node has %zu (0..%zu)", spec, x, n, n - 1), 0;
        }
        for (size_t i = 0; i < k; i++)
            if (sel[i].index == x) {
                free(sel);
                return cli_fail(cmd, "--backend %s: GPU %ld named twice", spec, x), 0;
            }
        sel[k++] = all[x];
        if (!*end)
            break;
        p = end + 1;
    }
    *out = sel;
    return k;
}

static bool ours(const char *kv)
{
    static const char *const names[] = {"CUDA_VISIBLE_DEVICES=", "CUDA_DEVICE_ORDER=", "TCSCOPE_FAKE_GPUS=",
                                        "TCSCOPE_FAKE_GPU_FLIP=", "TCSCOPE_FAKE_GPU_FAIL=", "TCSCOPE_FLIP_BIT=",
                                        "TCSCOPE_FAULT_AFTER="};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strncmp(kv, names[i], strlen(names[i])))
            return true;
    return false;
}

char **cli_fleet_env(const cli_fleet_gpu *gpu)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 4, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    bool ok = true;
    for (size_t i = 0; i < n; i++)
        if (!ours(environ[i]))
            ok = ok && (env[k++] = strdup(environ[i])) != NULL;
    if (gpu->fake) {
        /* the test hook: a fake GPU that answers one bit differently, or fails */
        if (gpu->flip)
            ok = ok && (env[k++] = strdup("TCSCOPE_FLIP_BIT=1")) != NULL;
        if (gpu->fail)
            ok = ok && (env[k++] = strdup("TCSCOPE_FAULT_AFTER=1")) != NULL;
    } else {
        ok = ok && (env[k++] = strdup("CUDA_DEVICE_ORDER=PCI_BUS_ID")) != NULL;
        char v[128];
        snprintf(v, sizeof v, "CUDA_VISIBLE_DEVICES=%s", gpu->visible);
        ok = ok && (env[k++] = strdup(v)) != NULL;
    }
    if (!ok) {
        cli_fleet_env_free(env);
        return NULL;
    }
    return env;
}

void cli_fleet_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}
