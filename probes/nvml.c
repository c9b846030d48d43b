/* nvml: NVML through dlopen (nvml.h). The prototypes below are NVML's
 * public C API (nvml.h of the CUDA toolkit), declared by hand. */
#include "probes/nvml.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void *nvml_device;
typedef int nvml_return;   /* 0 = NVML_SUCCESS */

enum { NVML_CLOCK_SM = 1, NVML_TEMPERATURE_GPU = 0 };

struct tc_nvml {
    void *lib;
    nvml_device dev;
    char driver[80];
    nvml_return (*shutdown)(void);
    nvml_return (*clock)(nvml_device, int, unsigned *);
    nvml_return (*max_clock)(nvml_device, int, unsigned *);
    nvml_return (*power)(nvml_device, unsigned *);
    nvml_return (*power_limit)(nvml_device, unsigned *);
    nvml_return (*temperature)(nvml_device, int, unsigned *);
    nvml_return (*reasons)(nvml_device, unsigned long long *);
};

tc_nvml *tc_nvml_open(const char *pci_bus_id, char *why, size_t whylen)
{
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(why, whylen, "NVML not available: %s", dlerror());
        return NULL;
    }
    nvml_return (*init)(void) = (nvml_return (*)(void))dlsym(lib, "nvmlInit_v2");
    nvml_return (*by_pci)(const char *, nvml_device *) =
        (nvml_return (*)(const char *, nvml_device *))dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    nvml_return (*drv)(char *, unsigned) = (nvml_return (*)(char *, unsigned))dlsym(lib, "nvmlSystemGetDriverVersion");
    tc_nvml *n = calloc(1, sizeof *n);
    if (!n)
        abort();
    n->lib = lib;
    n->shutdown = (nvml_return (*)(void))dlsym(lib, "nvmlShutdown");
    n->clock = (nvml_return (*)(nvml_device, int, unsigned *))dlsym(lib, "nvmlDeviceGetClockInfo");
    n->max_clock = (nvml_return (*)(nvml_device, int, unsigned *))dlsym(lib, "nvmlDeviceGetMaxClockInfo");
    n->power = (nvml_return (*)(nvml_device, unsigned *))dlsym(lib, "nvmlDeviceGetPowerUsage");
    n->power_limit = (nvml_return (*)(nvml_device, unsigned *))dlsym(lib, "nvmlDeviceGetEnforcedPowerLimit");
    n->temperature = (nvml_return (*)(nvml_device, int, unsigned *))dlsym(lib, "nvmlDeviceGetTemperature");
    /* Renamed in newer drivers; both return the same bit mask. */
    n->reasons = (nvml_return (*)(nvml_device, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!n->reasons)
        n->reasons = (nvml_return (*)(nvml_device, unsigned long long *))dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !by_pci || init() != 0) {
        snprintf(why, whylen, "NVML could not be initialised");
        dlclose(lib);
        free(n);
        return NULL;
    }
    if (by_pci(pci_bus_id, &n->dev) != 0) {
        snprintf(why, whylen, "NVML does not know the device %s", pci_bus_id);
        if (n->shutdown)
            n->shutdown();
        dlclose(lib);
        free(n);
        return NULL;
    }
    if (!drv || drv(n->driver, sizeof n->driver) != 0)
        n->driver[0] = '\0';
    return n;
}

void tc_nvml_close(tc_nvml *n)
{
    if (!n)
        return;
    if (n->shutdown)
        n->shutdown();
    dlclose(n->lib);
    free(n);
}

const char *tc_nvml_driver(tc_nvml *n)
{
    return n ? n->driver : "";
}

void tc_nvml_read(tc_nvml *n, tc_nvml_reading *r)
{
    unsigned v;
    unsigned long long m;
    r->sm_clock_mhz = r->max_sm_clock_mhz = r->temperature_c = -1;
    r->power_w = r->power_limit_w = -1;
    r->throttle = 0;
    r->throttle_known = false;
    if (!n)
        return;
    if (n->clock && n->clock(n->dev, NVML_CLOCK_SM, &v) == 0)
        r->sm_clock_mhz = (int)v;
    if (n->max_clock && n->max_clock(n->dev, NVML_CLOCK_SM, &v) == 0)
        r->max_sm_clock_mhz = (int)v;
    if (n->power && n->power(n->dev, &v) == 0)
        r->power_w = v / 1000.0;
    if (n->power_limit && n->power_limit(n->dev, &v) == 0)
        r->power_limit_w = v / 1000.0;
    if (n->temperature && n->temperature(n->dev, NVML_TEMPERATURE_GPU, &v) == 0)
        r->temperature_c = (int)v;
    if (n->reasons && n->reasons(n->dev, &m) == 0) {
        r->throttle = m;
        r->throttle_known = true;
    }
}

struct tc_nvml_sampler {
    tc_nvml *n;
    int period_ms;
    pthread_t thread;
    pthread_mutex_t lock;
    bool stop;
    tc_nvml_summary sum;
    double clock_total, power_total;
    int clock_count, power_count;
};

static void *sampler_main(void *arg)
{
    tc_nvml_sampler *s = arg;
    for (;;) {
        tc_nvml_reading r;
        tc_nvml_read(s->n, &r);
        pthread_mutex_lock(&s->lock);
        s->sum.samples++;
        if (r.sm_clock_mhz >= 0) {
            double c = r.sm_clock_mhz;
            if (s->clock_count == 0 || c < s->sum.sm_clock_min)
                s->sum.sm_clock_min = c;
            if (s->clock_count == 0 || c > s->sum.sm_clock_max)
                s->sum.sm_clock_max = c;
            s->clock_total += c;
            s->clock_count++;
        }
        if (r.power_w >= 0) {
            if (s->power_count == 0 || r.power_w > s->sum.power_max)
                s->sum.power_max = r.power_w;
            s->power_total += r.power_w;
            s->power_count++;
        }
        if (r.throttle_known) {
            s->sum.throttle_or |= r.throttle;
            s->sum.throttle_known = true;
        }
        bool stop = s->stop;
        pthread_mutex_unlock(&s->lock);
        if (stop)
            break;
        struct timespec ts = {0, (long)s->period_ms * 1000000L};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

tc_nvml_sampler *tc_nvml_sample_start(tc_nvml *n, int period_ms)
{
    tc_nvml_sampler *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->n = n;
    s->period_ms = period_ms;
    pthread_mutex_init(&s->lock, NULL);
    if (n && pthread_create(&s->thread, NULL, sampler_main, s) != 0)
        s->n = NULL;
    return s;
}

void tc_nvml_sample_stop(tc_nvml_sampler *s, tc_nvml_summary *out)
{
    if (s->n) {
        pthread_mutex_lock(&s->lock);
        s->stop = true;
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->thread, NULL);
    }
    *out = s->sum;
    out->sm_clock_mean = s->clock_count ? s->clock_total / s->clock_count : -1;
    if (!s->clock_count)
        out->sm_clock_min = out->sm_clock_max = -1;
    out->power_mean = s->power_count ? s->power_total / s->power_count : -1;
    if (!s->power_count)
        out->power_max = -1;
    pthread_mutex_destroy(&s->lock);
    free(s);
}

void tc_nvml_throttle_names(uint64_t mask, char *buf, size_t len)
{
    /* nvmlClocksEventReason* bits of NVML's header. */
    static const struct {
        uint64_t bit;
        const char *name;
    } bits[] = {
        {0x1, "gpu_idle"}, {0x2, "applications_clocks_setting"}, {0x4, "sw_power_cap"},
        {0x8, "hw_slowdown"}, {0x10, "sync_boost"}, {0x20, "sw_thermal_slowdown"},
        {0x40, "hw_thermal_slowdown"}, {0x80, "hw_power_brake_slowdown"}, {0x100, "display_clock_setting"},
    };
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
        if (mask & bits[i].bit) {
            int w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", bits[i].name);
            if (w < 0 || (size_t)w >= len - used)
                break;
            used += (size_t)w;
        }
    mask &= ~(uint64_t)0x1ff;
    if (mask && used < len)
        snprintf(buf + used, len - used, "%sother:0x%llx", used ? "," : "", (unsigned long long)mask);
}
