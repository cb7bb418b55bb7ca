/* A host program that carries its GPU code: the saxpy fatbin embedded by gpu_cc_library, loaded with
 * the CUDA driver API and run. Built on the GPU machine by tests/gpu/run.sh:
 *   gcc saxpy_host.c saxpy_cc.c -I. -I$CUDA/include -lcuda */
#include <cuda.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "examples/saxpy/saxpy_cc.h"

#define CHECK(call)                                                   \
  do {                                                                \
    CUresult r = (call);                                              \
    if (r != CUDA_SUCCESS) {                                          \
      const char *name = "?";                                         \
      cuGetErrorName(r, &name);                                       \
      fprintf(stderr, "saxpy_host: %s: %s\n", #call, name);           \
      return 1;                                                       \
    }                                                                 \
  } while (0)

int main(void) {
  enum { N = 1 << 20 };
  float a = 2.5f;
  float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
  for (int i = 0; i < N; i++) { x[i] = (float)i; y[i] = 1.0f - (float)i; }
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction fn;
  CUdeviceptr dx, dy;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&dev, 0));
  CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
  CHECK(cuModuleLoadData(&mod, saxpy_cc));
  CHECK(cuModuleGetFunction(&fn, mod, saxpy_cc_kernels[0]));
  CHECK(cuMemAlloc(&dx, N * sizeof(float)));
  CHECK(cuMemAlloc(&dy, N * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x, N * sizeof(float)));
  CHECK(cuMemcpyHtoD(dy, y, N * sizeof(float)));
  int n = N;
  void *args[] = {&n, &a, &dx, &dy};
  CHECK(cuLaunchKernel(fn, N / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
  CHECK(cuMemcpyDtoH(y, dy, N * sizeof(float)));
  for (int i = 0; i < N; i++) {
    float want = a * (float)i + (1.0f - (float)i);
    if (fabsf(y[i] - want) > 1e-3f * fabsf(want) + 1e-3f) {
      fprintf(stderr, "saxpy_host: y[%d] = %g, want %g\n", i, y[i], want);
      return 1;
    }
  }
  printf("saxpy_host: ok, %d elements, kernel %s from the embedded %zu-byte fatbin\n", N, saxpy_cc_kernels[0], saxpy_cc_size);
  return 0;
}
