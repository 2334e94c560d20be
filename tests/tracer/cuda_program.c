/* A "training loop" on the stand-in CUDA driver (cuda_stub.c): `cuda_program STEPS SYNC_MS` runs
 * STEPS steps of: a batch copied to the device (cuMemcpyHtoDAsync_v2, (step+1) MiB), three kernels
 * queued (two cuLaunchKernel, one cuLaunchKernelEx), a stream synchronisation that blocks SYNC_MS
 * (the CPU waiting for the GPU), and the loss read back (cuMemcpyDtoH_v2, 4 bytes). Then, once:
 * cuEventSynchronize, cuCtxSynchronize, cuMemcpyHtoD_v2 (4096 bytes), cuMemcpyDtoHAsync_v2 (8
 * bytes), a synchronisation the driver refuses (CUDA_ERROR_INVALID_HANDLE), and one launch from a
 * second thread. capture_test.cpp asserts exactly these calls. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

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

int main(int argc, char** argv) {
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
