/* A stand-in for the CUDA driver (libcuda.so.1) for the capture tests: the driver functions dlgen
 * probes, with the real ones' signatures (cuda.h), doing nothing a GPU would, except that a
 * stream synchronisation blocks for the time set by cudaStubSetSyncMs, as a real one blocks until
 * the GPU has done the queued work. No GPU is needed, so the uprobes are tested in CI.
 * Every function touches its own counter, so no two compile to the same code. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
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

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_HANDLE 400
/* A stream handle the stub refuses, to test that failures are recorded. */
#define STUB_BAD_STREAM ((CUstream)0xbad)

static unsigned sync_ms;
static volatile unsigned long calls[16];

void cudaStubSetSyncMs(unsigned ms) {
  sync_ms = ms;
}

static void block_for(unsigned ms) {
  struct timespec end;
  clock_gettime(CLOCK_MONOTONIC, &end);
  end.tv_sec += ms / 1000;
  end.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (end.tv_nsec >= 1000000000L) end.tv_sec++, end.tv_nsec -= 1000000000L;
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &end, NULL) == EINTR) {
  }
}

CUresult cuStreamSynchronize(CUstream s) {
  calls[0]++;
  if (s == STUB_BAD_STREAM) return CUDA_ERROR_INVALID_HANDLE;
  block_for(sync_ms);
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent e) {
  calls[1] += (uintptr_t)e != 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize(void) {
  calls[2]++;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void* src, size_t bytes) {
  calls[3] += dst + bytes + (src != NULL);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void* src, size_t bytes, CUstream s) {
  calls[4] += dst + bytes + (src != NULL) + (s != NULL);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void* dst, CUdeviceptr src, size_t bytes) {
  if (dst && bytes) memset(dst, 1, bytes);
  calls[5] += src;
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoHAsync_v2(void* dst, CUdeviceptr src, size_t bytes, CUstream s) {
  if (dst && bytes) memset(dst, 2, bytes);
  calls[6] += src + (s != NULL);
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned shared, CUstream s, void** params,
                        void** extra) {
  calls[7] += (uintptr_t)f + gx * gy * gz * bx * by * bz + shared + (s != NULL) + (params != NULL) +
              (extra != NULL);
  return CUDA_SUCCESS;
}
CUresult cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** params, void** extra) {
  calls[8] += (uintptr_t)f + (config ? config->gridDimX : 0) + (params != NULL) + (extra != NULL);
  return CUDA_SUCCESS;
}
