/* A "training loop" on the stand-in CUDA driver (cuda_stub.c): `cuda_program STEPS SYNC_MS` runs
 * STEPS steps of: a batch copied to the device (cuMemcpyHtoDAsync_v2, (step+1) MiB), three kernels
 * queued (two cuLaunchKernel, one cuLaunchKernelEx), a stream synchronisation that blocks SYNC_MS
 * (the CPU waiting for the GPU), and the loss read back (cuMemcpyDtoH_v2, 4 bytes). Then, once:
 * cuEventSynchronize, cuCtxSynchronize, cuMemcpyHtoD_v2 (4096 bytes), cuMemcpyDtoHAsync_v2 (8
 * bytes), a synchronisation the driver refuses (CUDA_ERROR_INVALID_HANDLE), and one launch from a
 * second thread. capture_test.cpp asserts exactly these calls.
 * `cuda_program --bench N` times N calls each of cuLaunchKernel, cuCtxSynchronize and
 * cuEventSynchronize (which return at once in the stub) and prints the cost per call: run under
 * `dlgen capture --cuda-lib`, the cost of a probed call (tracer/README.md). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef uint64_t CUdeviceptr;
typedef struct CUstream_st* CUstream;
typedef struct CUevent_st* CUevent;
typedef struct CUfunc_st* CUfunction;
typedef struct {
  unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
  CUstream hStream;
  void* attrs;
  unsigned numAttrs;
} CUlaunchConfig;

CUresult cuStreamSynchronize(CUstream);
CUresult cuEventSynchronize(CUevent);
CUresult cuCtxSynchronize(void);
CUresult cuMemcpyHtoD_v2(CUdeviceptr, const void*, size_t);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr, const void*, size_t, CUstream);
CUresult cuMemcpyDtoH_v2(void*, CUdeviceptr, size_t);
CUresult cuMemcpyDtoHAsync_v2(void*, CUdeviceptr, size_t, CUstream);
CUresult cuLaunchKernel(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                        unsigned, CUstream, void**, void**);
CUresult cuLaunchKernelEx(const CUlaunchConfig*, CUfunction, void**, void**);
void cudaStubSetSyncMs(unsigned ms);

#define STREAM ((CUstream)0x5151)
#define EVENT ((CUevent)0xe7e7)
#define BAD_STREAM ((CUstream)0xbad)
#define KERNEL(n) ((CUfunction)(0xf000 + (n)))

static void* launcher(void* arg) {
  (void)arg;
  cuLaunchKernel(KERNEL(4), 1, 1, 1, 32, 1, 1, 0, STREAM, NULL, NULL);
  return NULL;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int bench(int n) {
  double a = now_s();
  for (int i = 0; i < n; ++i) cuLaunchKernel(KERNEL(1), 1, 1, 1, 1, 1, 1, 0, STREAM, NULL, NULL);
  double b = now_s();
  for (int i = 0; i < n; ++i) cuCtxSynchronize();
  double c = now_s();
  for (int i = 0; i < n; ++i) cuEventSynchronize(EVENT);
  double d = now_s();
  printf("per call: cuLaunchKernel %.2f us, cuCtxSynchronize %.2f us, cuEventSynchronize %.2f us\n",
         (b - a) / n * 1e6, (c - b) / n * 1e6, (d - c) / n * 1e6);
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 2 && strcmp(argv[1], "--bench") == 0) return bench(atoi(argv[2]));
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  unsigned sync_ms = argc > 2 ? (unsigned)atoi(argv[2]) : 20;
  cudaStubSetSyncMs(sync_ms);
  static char host[1];
  float loss = 0;
  for (int step = 0; step < steps; ++step) {
    cuMemcpyHtoDAsync_v2(0xd000, host, (size_t)(step + 1) << 20, STREAM);
    cuLaunchKernel(KERNEL(1), 64, 1, 1, 256, 1, 1, 0, STREAM, NULL, NULL);
    cuLaunchKernel(KERNEL(2), 64, 1, 1, 256, 1, 1, 0, STREAM, NULL, NULL);
    CUlaunchConfig config = {8, 1, 1, 128, 1, 1, 0, STREAM, NULL, 0};
    cuLaunchKernelEx(&config, KERNEL(3), NULL, NULL);
    cuStreamSynchronize(STREAM);
    cuMemcpyDtoH_v2(&loss, 0xd000, sizeof loss);
  }
  cuEventSynchronize(EVENT);
  cuCtxSynchronize();
  cuMemcpyHtoD_v2(0xd000, host, 4096);
  double two[1];
  cuMemcpyDtoHAsync_v2(two, 0xd000, sizeof two, STREAM);
  if (cuStreamSynchronize(BAD_STREAM) != 400) return 3;
  pthread_t t;
  if (pthread_create(&t, NULL, launcher, NULL) != 0) return 4;
  pthread_join(t, NULL);
  return 0;
}
