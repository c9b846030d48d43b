/* nvml: the few NVML readings a timing record needs (SM clock, power,
 * throttle reasons), with libnvidia-ml.so.1 loaded at run time: Debian has
 * no NVML header, and a machine without the library still runs tcscope
 * (every reading is then "unknown", never a failure). */
#ifndef TC_NVML_H
#define TC_NVML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tc_nvml tc_nvml;

/* Opens the device with this PCI bus id ("0000:01:00.0"); NULL when NVML or
 * the device is not there (why says which). */
tc_nvml *tc_nvml_open(const char *pci_bus_id, char *why, size_t whylen);
void tc_nvml_close(tc_nvml *n);

typedef struct {
    int sm_clock_mhz;         /* -1 unknown */
    int max_sm_clock_mhz;
    double power_w;           /* -1 unknown */
    double power_limit_w;
    int temperature_c;
    uint64_t throttle;        /* clocks event reasons bit mask */
    bool throttle_known;
} tc_nvml_reading;

void tc_nvml_read(tc_nvml *n, tc_nvml_reading *r);
/* Driver version string, "" when unknown. */
const char *tc_nvml_driver(tc_nvml *n);

/* Samples in a thread every `period_ms` until stopped. */
typedef struct tc_nvml_sampler tc_nvml_sampler;
tc_nvml_sampler *tc_nvml_sample_start(tc_nvml *n, int period_ms);

typedef struct {
    int samples;
    double sm_clock_mean, sm_clock_min, sm_clock_max;   /* MHz; <0 unknown */
    double power_mean, power_max;                       /* W; <0 unknown */
    uint64_t throttle_or;                               /* OR of all samples' reasons */
    bool throttle_known;
} tc_nvml_summary;

void tc_nvml_sample_stop(tc_nvml_sampler *s, tc_nvml_summary *out);

/* Names of the bits set in a throttle mask, comma separated ("sw_power_cap,hw_slowdown"). */
void tc_nvml_throttle_names(uint64_t mask, char *buf, size_t len);

/* The GPUs of this machine as NVML numbers them (PCI bus order, the order
 * of nvidia-smi and of CUDA under CUDA_DEVICE_ORDER=PCI_BUS_ID): up to max
 * of them into out. The count, or -1 when NVML is not there (why says so). */
typedef struct {
    char name[96];
    char uuid[96];            /* "GPU-8c1f..." */
} tc_nvml_gpu;
int tc_nvml_gpus(tc_nvml_gpu *out, int max, char *why, size_t whylen);

#endif
