// stream_nvcc.cu: device code written for nvcc, which clang rejects (__stcs, a streaming store, on a
// float*): cuda_library compiles its device side with nvcc (compiler = "nvcc"), one action per chip,
// and its host side with clang. The host side needs only the kernels' signatures, so the bodies are
// for the device passes (__CUDA_ARCH__); the kernels' names, as nvcc mangles them, must be the ones
// clang's host code registers and launches: cuda_test checks that the launches run.
#include "examples/cuda/kernels.h"

template <typename T>
__global__ void stream_scale(int n, T *x, T a) {
#ifdef __CUDA_ARCH__
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && isfinite(x[i])) __stcs(&x[i], x[i] * a);
#endif
}

cudaError_t stream_scale_run(int n, float *x, float a) {
  stream_scale<float><<<(n + 255) / 256, 256>>>(n, x, a);
  return cudaGetLastError();
}
