/* tc_nvml_gpus (nvml.h): the machine's GPUs, their names and UUIDs, for a
 * run over every GPU of a node (cli/fleet.c). NVML through dlopen, as in
 * probes/nvml.c: no GPU library is needed to build or to run without one. */
#include "probes/nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef void *nvml_device;
typedef int nvml_return; /* 0 = NVML_SUCCESS */

int tc_nvml_gpus(tc_nvml_gpu *out, int max, char *why, size_t whylen)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, whylen, "NVML not available (%s)", dlerror());
        return -1;
    }
    nvml_return (*init)(void) = (nvml_return (*)(void))dlsym(lib, "nvmlInit_v2");
    nvml_return (*shutdown)(void) = (nvml_return (*)(void))dlsym(lib, "nvmlShutdown");
    nvml_return (*count)(unsigned *) = (nvml_return (*)(unsigned *))dlsym(lib, "nvmlDeviceGetCount_v2");
    nvml_return (*by_index)(unsigned, nvml_device *) =
        (nvml_return (*)(unsigned, nvml_device *))dlsym(lib, "nvmlDeviceGetHandleByIndex_v2");
    nvml_return (*name)(nvml_device, char *, unsigned) =
        (nvml_return (*)(nvml_device, char *, unsigned))dlsym(lib, "nvmlDeviceGetName");
    nvml_return (*uuid)(nvml_device, char *, unsigned) =
        (nvml_return (*)(nvml_device, char *, unsigned))dlsym(lib, "nvmlDeviceGetUUID");
    unsigned n = 0;
    if (!init || !count || !by_index || init() != 0) {
        snprintf(why, whylen, "NVML could not be initialised");
        dlclose(lib);
        return -1;
    }
    int rc = count(&n) == 0 ? (int)n : -1;
    if (rc < 0)
        snprintf(why, whylen, "NVML could not count the GPUs (nvmlDeviceGetCount_v2)");
    for (int i = 0; i < rc && i < max; i++) {
        nvml_device d;
        memset(&out[i], 0, sizeof out[i]);
        if (by_index((unsigned)i, &d) != 0)
            continue; /* name and UUID stay unknown (""); the worker still says what it ran on */
        if (name && name(d, out[i].name, sizeof out[i].name) != 0)
            out[i].name[0] = '\0';
        if (uuid && uuid(d, out[i].uuid, sizeof out[i].uuid) != 0)
            out[i].uuid[0] = '\0';
    }
    if (shutdown)
        shutdown();
    dlclose(lib);
    return rc;
}
