/* A stand-in for NVML (libnvidia-ml.so.1) for the capture tests: two GPUs and a driver version,
 * through the functions dlgen calls (nvml.h signatures). */
#include <stdio.h>
#include <string.h>

typedef int nvmlReturn_t;
typedef struct nvmlDevice_st* nvmlDevice_t;

static int initialised;

nvmlReturn_t nvmlInit_v2(void) {
  initialised = 1;
  return 0;
}
nvmlReturn_t nvmlShutdown(void) {
  initialised = 0;
  return 0;
}
nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* count) {
  if (!initialised) return 1; /* NVML_ERROR_UNINITIALIZED */
  *count = 2;
  return 0;
}
nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned index, nvmlDevice_t* device) {
  if (!initialised || index >= 2) return 2; /* NVML_ERROR_INVALID_ARGUMENT */
  *device = (nvmlDevice_t)(unsigned long)(index + 1);
  return 0;
}
nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned length) {
  snprintf(name, length, "Stub GPU %lu", (unsigned long)device - 1);
  return 0;
}
nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned length) {
  snprintf(version, length, "%s", "0.0-stub");
  return 0;
}
